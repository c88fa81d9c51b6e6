// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file device_buffer.cuh
 * @brief The CUDA resources of the public API: FASTPAIR_CUDA_TRY (the CUDA error check that
 * throws fastpair::cuda_error), device_buffer (a stream-ordered device allocation through a
 * memory resource) and texture_object (an owning texture object whose destruction is deferred
 * without blocking: release_deferred_resources). Depends only on error.hpp and memory_resource.cuh.
 */
#pragma once

#include <fastpair/error.hpp>
#include <fastpair/memory_resource.cuh>

#include <cuda/stream_ref>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace fastpair::detail {
[[noreturn]] inline void throw_cuda_error(cudaError_t e, char const* call, char const* file, int line)
{
  throw cuda_error(std::string("fastpair: CUDA error ") + cudaGetErrorName(e) + " (" +
                   cudaGetErrorString(e) + ") in " + call + " at " + file + ":" + std::to_string(line));
}
}  // namespace fastpair::detail

/** @brief Runs a CUDA runtime call; on failure clears the error and throws fastpair::cuda_error. */
#define FASTPAIR_CUDA_TRY(call)                                                     \
  do {                                                                              \
    cudaError_t const fastpair_err_ = (call);                                       \
    if (fastpair_err_ != cudaSuccess) {                                             \
      (void)cudaGetLastError();                                                     \
      ::fastpair::detail::throw_cuda_error(fastpair_err_, #call, __FILE__, __LINE__); \
    }                                                                               \
  } while (0)

namespace fastpair {

/**
 * @brief An owning, stream-ordered device allocation of `T[size]` from a memory resource
 * (default_device_resource(): cudaMallocAsync / cudaFreeAsync). Move-only.
 *
 * The memory is allocated on the stream given at construction and freed on that stream (or the
 * one set_stream() names), through the same resource, by `deallocate_async`: a buffer must be
 * destroyed before that stream is, and the resource must outlive the buffer (as with
 * rmm::device_buffer). Allocations are aligned to device_allocation_alignment (256 bytes).
 */
template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  /** @brief `n` elements (uninitialised) from `mr` on `stream`; none for n == 0.
   *  @throw logic_error if n * sizeof(T) overflows; whatever `mr` throws (cuda_error for the default). */
  device_buffer(std::size_t n, cuda::stream_ref stream, device_async_resource_ref mr = default_device_resource())
    : size_(n), stream_(stream.get()), mr_(mr)
  {
    FASTPAIR_EXPECTS(n <= static_cast<std::size_t>(-1) / sizeof(T), "device_buffer: size overflows size_t");
    if (n) ptr_ = static_cast<T*>(mr_.allocate_async(n * sizeof(T), device_allocation_alignment, stream));
  }
  device_buffer(device_buffer&& o) noexcept { swap(o); }
  device_buffer& operator=(device_buffer&& o) noexcept
  {
    device_buffer(std::move(o)).swap(*this);
    return *this;
  }
  device_buffer(device_buffer const&)            = delete;
  device_buffer& operator=(device_buffer const&) = delete;
  ~device_buffer()
  {
    if (ptr_) mr_.deallocate_async(ptr_, size_ * sizeof(T), device_allocation_alignment, cuda::stream_ref{stream_});
  }
  T* data() noexcept { return ptr_; }
  T const* data() const noexcept { return ptr_; }
  std::size_t size() const noexcept { return size_; }
  /** @brief The stream the memory will be freed on. */
  cudaStream_t stream() const noexcept { return stream_; }
  /** @brief The resource the memory came from and goes back to (default_device_resource() for an
   *  empty default-constructed buffer). */
  device_async_resource_ref memory_resource() const noexcept { return mr_; }
  /**
   * @brief Frees the memory on `s` instead (as rmm::device_buffer::set_stream): the caller makes
   * sure that every use of the memory is ordered before the work queued on `s` after this call.
   */
  void set_stream(cuda::stream_ref s) noexcept { stream_ = s.get(); }
  void swap(device_buffer& o) noexcept
  {
    std::swap(ptr_, o.ptr_);
    std::swap(size_, o.size_);
    std::swap(stream_, o.stream_);
    std::swap(mr_, o.mr_);
  }

 private:
  T* ptr_                        = nullptr;
  std::size_t size_              = 0;
  cudaStream_t stream_           = nullptr;
  device_async_resource_ref mr_  = default_device_resource();
};

namespace detail {

/** Runs a CUDA call whose failure is expected and handled here (cudaErrorNotReady of a query, an
 *  invalid stream): its error does not stay behind as the thread's last error (cudaGetLastError),
 *  unless an earlier one was already there. */
template <class F>
cudaError_t call_keeping_last_error(F&& f) noexcept
{
  cudaError_t const before = cudaPeekAtLastError();
  cudaError_t const e      = f();
  if (before == cudaSuccess && e != cudaSuccess) (void)cudaGetLastError();
  return e;
}

/** Makes `device` current for the scope (nothing for -1 or the current one). Errors are ignored:
 *  the release paths that use it must not throw. */
class scoped_device {
 public:
  explicit scoped_device(int device) noexcept
  {
    if (device < 0) return;
    int current = -1;
    if (call_keeping_last_error([&] { return cudaGetDevice(&current); }) != cudaSuccess || current == device) return;
    if (call_keeping_last_error([&] { return cudaSetDevice(device); }) == cudaSuccess) previous_ = current;
  }
  ~scoped_device()
  {
    if (previous_ >= 0) (void)call_keeping_last_error([&] { return cudaSetDevice(previous_); });
  }
  scoped_device(scoped_device const&)            = delete;
  scoped_device& operator=(scoped_device const&) = delete;

 private:
  int previous_ = -1;
};

/** This thread's stream capture mode is relaxed for the scope, so that the release bookkeeping
 *  (event creation and queries) never invalidates a global-mode capture of another thread. */
class relaxed_capture_scope {
 public:
  relaxed_capture_scope() noexcept { (void)cudaThreadExchangeStreamCaptureMode(&mode_); }
  ~relaxed_capture_scope() { (void)cudaThreadExchangeStreamCaptureMode(&mode_); }
  relaxed_capture_scope(relaxed_capture_scope const&)            = delete;
  relaxed_capture_scope& operator=(relaxed_capture_scope const&) = delete;

 private:
  cudaStreamCaptureMode mode_ = cudaStreamCaptureModeRelaxed;
};

/**
 * @brief The process-wide list of texture objects whose destruction waits for their stream's work
 * (issue #23 item 2). A texture_object destroyed on the host records an event on its stream and
 * leaves (event, texture) here; entries whose event has completed are destroyed, without
 * blocking, whenever a texture object is created or destroyed and by release_deferred_resources().
 *
 * While the object's stream is being captured into a graph, no event is recorded (the event would
 * belong to the graph); the entry waits without one until a texture object on the same stream is
 * destroyed outside a capture (an event recorded then orders it after the stream's work), or until
 * release_deferred_resources(true) (which synchronizes its device) or process exit.
 *
 * One list per linked copy of the library (it is header-only); a mutex guards it. The list is
 * never destroyed (texture objects in static storage may still be released into it during static
 * destruction); an atexit handler, registered when the list is first used, releases what is left,
 * waiting for the events.
 */
class deferred_texture_list {
 public:
  static deferred_texture_list& instance()
  {
    static deferred_texture_list* const list = [] {
      auto* l = new deferred_texture_list;  // never deleted: see above
      (void)std::atexit([] { (void)deferred_texture_list::instance().release(true); });
      return l;
    }();
    return *list;
  }

  /** Takes `tex` (of `device`, read by work on `stream`) and releases what has completed. */
  void defer(int device, cudaStream_t stream, cudaTextureObject_t tex) noexcept
  {
    std::lock_guard<std::mutex> lock(mu_);
    relaxed_capture_scope const relaxed;
    entry e{device, stream, nullptr, tex};
    {
      scoped_device const on(device);
      cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
      bool const capturing = call_keeping_last_error([&] { return cudaStreamIsCapturing(stream, &status); }) != cudaSuccess ||
                             status != cudaStreamCaptureStatusNone;
      if (!capturing) {
        // Entries deferred while this stream was captured: the capture is over, order them now.
        for (auto& old : entries_)
          if (old.event == nullptr && old.stream == stream && old.device == device) arm(old);
        arm(e);
      }
    }
    try {
      entries_.push_back(e);
    } catch (...) {  // out of host memory: release it the old way, waiting for the stream
      scoped_device const on(device);
      if (e.event) (void)cudaEventSynchronize(e.event);
      destroy(e);
    }
    release_locked(false);
  }

  /** Destroys the entries whose event has completed (wait: every entry, after waiting for its
   *  event; an entry without one after synchronizing its device); returns the number left. */
  std::size_t release(bool wait) noexcept
  {
    std::lock_guard<std::mutex> lock(mu_);
    relaxed_capture_scope const relaxed;
    return release_locked(wait);
  }

  std::size_t pending() noexcept
  {
    std::lock_guard<std::mutex> lock(mu_);
    return entries_.size();
  }

 private:
  struct entry {
    int device;
    cudaStream_t stream;
    cudaEvent_t event;  // null: deferred during a capture of `stream`
    cudaTextureObject_t tex;
  };

  deferred_texture_list() = default;

  /** Records an event on the entry's stream (its device current); left without one on failure. */
  static void arm(entry& e) noexcept
  {
    cudaEvent_t ev = nullptr;
    if (call_keeping_last_error([&] { return cudaEventCreateWithFlags(&ev, cudaEventDisableTiming); }) != cudaSuccess)
      return;
    if (call_keeping_last_error([&] { return cudaEventRecord(ev, e.stream); }) != cudaSuccess) {
      (void)cudaEventDestroy(ev);
      return;
    }
    e.event = ev;
  }

  static void destroy(entry const& e) noexcept
  {
    (void)call_keeping_last_error([&] { return cudaDestroyTextureObject(e.tex); });
    if (e.event) (void)call_keeping_last_error([&] { return cudaEventDestroy(e.event); });
  }

  std::size_t release_locked(bool wait) noexcept
  {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      entry const e = entries_[i];
      bool done     = false;
      {
        scoped_device const on(e.device);
        if (e.event) {
          cudaError_t const r = call_keeping_last_error([&] {
            return wait ? cudaEventSynchronize(e.event) : cudaEventQuery(e.event);
          });
          done = r != cudaErrorNotReady;  // complete, or an error: the work will not run any more
        } else if (wait) {
          (void)call_keeping_last_error([] { return cudaDeviceSynchronize(); });
          done = true;
        }
        if (done) destroy(e);
      }
      if (!done) entries_[kept++] = e;
    }
    entries_.resize(kept);
    return kept;
  }

  std::mutex mu_;
  std::vector<entry> entries_;
};

}  // namespace detail

/**
 * @brief Destroys the texture objects whose release was deferred (texture_object, device_column)
 * and whose stream has finished the work queued before their destruction. Non-blocking unless
 * `wait`: then it waits for that work (and synchronizes the device of objects destroyed while
 * their stream was captured into a graph) and releases everything.
 * Thread-safe. Called implicitly, non-blocking, whenever a texture object is created or
 * destroyed, and with `wait` at process exit.
 * @return the number of deferred releases still pending (0 after `wait`)
 */
inline std::size_t release_deferred_resources(bool wait = false) noexcept
{
  return detail::deferred_texture_list::instance().release(wait);
}

/** @brief The number of texture objects whose release is still deferred (no CUDA call). */
inline std::size_t deferred_resources_pending() noexcept
{
  return detail::deferred_texture_list::instance().pending();
}

/**
 * @brief An owning texture object over linear device memory (cudaCreateTextureObject /
 * cudaDestroyTextureObject). Move-only; it does not own the memory it reads, which must outlive it.
 *
 * Destruction does not block: it records an event on `stream` (the stream given at creation),
 * and the texture is destroyed once that event has completed, so a kernel launched there that
 * still reads through the texture finishes first (detail::deferred_texture_list,
 * release_deferred_resources()). Work on other streams must be ordered before the destruction by
 * the caller, as for device_buffer's stream-ordered free. Destroyed while `stream` is being
 * captured into a graph, no event is recorded (see deferred_texture_list): graphs that read the
 * texture must not be launched after its owner is destroyed.
 */
class texture_object {
 public:
  texture_object() = default;
  /** @brief Texture over `bytes` bytes at `p` (aligned to cudaDevAttrTextureAlignment), elements of
   *  `desc`, read as stored, on the current device; its destruction is ordered after the work
   *  queued on `stream` by then. */
  texture_object(void const* p, std::size_t bytes, cudaChannelFormatDesc desc, cuda::stream_ref stream)
    : stream_(stream.get())
  {
    FASTPAIR_CUDA_TRY(cudaGetDevice(&device_));
    cudaResourceDesc r{};
    r.resType                = cudaResourceTypeLinear;
    r.res.linear.devPtr      = const_cast<void*>(p);
    r.res.linear.desc        = desc;
    r.res.linear.sizeInBytes = bytes;
    cudaTextureDesc t{};
    t.readMode = cudaReadModeElementType;
    FASTPAIR_CUDA_TRY(cudaCreateTextureObject(&obj_, &r, &t, nullptr));
    (void)release_deferred_resources();  // opportunistic, non-blocking
  }
  texture_object(texture_object&& o) noexcept : obj_(o.obj_), stream_(o.stream_), device_(o.device_) { o.obj_ = 0; }
  texture_object& operator=(texture_object&& o) noexcept
  {
    std::swap(obj_, o.obj_);
    std::swap(stream_, o.stream_);
    std::swap(device_, o.device_);
    return *this;
  }
  texture_object(texture_object const&)            = delete;
  texture_object& operator=(texture_object const&) = delete;
  ~texture_object()
  {
    if (obj_) detail::deferred_texture_list::instance().defer(device_, stream_, obj_);
  }
  cudaTextureObject_t get() const noexcept { return obj_; }
  /** @brief The stream its destruction is ordered on. */
  cudaStream_t stream() const noexcept { return stream_; }

 private:
  cudaTextureObject_t obj_ = 0;
  cudaStream_t stream_     = nullptr;
  int device_              = -1;
};

}  // namespace fastpair
