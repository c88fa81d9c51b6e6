// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// CUDA plumbing shared by the device headers: the hidden-visibility kernel macro, the CUDA error
// check that throws, a minimal stream-ordered device buffer and its upload from a host vector, and
// an owning texture object.
#pragma once

#include <fastpair/error.hpp>

#include <cuda/stream_ref>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

/// Kernels have internal linkage: a header-only library's non-template kernels would otherwise be
/// defined in every translation unit that includes them (a duplicate-symbol link error), and two
/// shared libraries built with different configs or archs never share one kernel symbol (the
/// concern CCCL answers with hidden visibility, docs/cccl/development/visibility).
#define FASTPAIR_KERNEL static __global__

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
 * @brief An owning, stream-ordered device allocation of `T[size]` (cudaMallocAsync/cudaFreeAsync).
 * Move-only. The memory is freed on the stream it was allocated on, so a buffer must be destroyed
 * before that stream is (as with rmm::device_buffer).
 */
template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  device_buffer(std::size_t n, cuda::stream_ref stream) : size_(n), stream_(stream.get())
  {
    if (n) FASTPAIR_CUDA_TRY(cudaMallocAsync(reinterpret_cast<void**>(&ptr_), n * sizeof(T), stream_));
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
    if (ptr_) (void)cudaFreeAsync(ptr_, stream_);
  }
  T* data() noexcept { return ptr_; }
  T const* data() const noexcept { return ptr_; }
  std::size_t size() const noexcept { return size_; }
  /** @brief The stream the memory will be freed on. */
  cudaStream_t stream() const noexcept { return stream_; }
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
  }

 private:
  T* ptr_              = nullptr;
  std::size_t size_    = 0;
  cudaStream_t stream_ = nullptr;
};

/**
 * @brief An owning texture object over linear device memory (cudaCreateTextureObject /
 * cudaDestroyTextureObject). Move-only; it does not own the memory it reads, which must outlive it.
 *
 * Destruction first waits for the work queued on `stream` (the stream given at creation; skipped
 * while that stream is being captured into a graph), so a kernel launched there that still reads
 * through the texture finishes before the object is destroyed. Work on other streams must be
 * ordered before the destruction by the caller, as for device_buffer's stream-ordered free.
 */
class texture_object {
 public:
  texture_object() = default;
  /** @brief Texture over `bytes` bytes at `p` (aligned to cudaDevAttrTextureAlignment), elements of
   *  `desc`, read as stored; its destruction is ordered after the work queued on `stream`. */
  texture_object(void const* p, std::size_t bytes, cudaChannelFormatDesc desc, cuda::stream_ref stream)
    : stream_(stream.get())
  {
    cudaResourceDesc r{};
    r.resType                = cudaResourceTypeLinear;
    r.res.linear.devPtr      = const_cast<void*>(p);
    r.res.linear.desc        = desc;
    r.res.linear.sizeInBytes = bytes;
    cudaTextureDesc t{};
    t.readMode = cudaReadModeElementType;
    FASTPAIR_CUDA_TRY(cudaCreateTextureObject(&obj_, &r, &t, nullptr));
  }
  texture_object(texture_object&& o) noexcept : obj_(o.obj_), stream_(o.stream_) { o.obj_ = 0; }
  texture_object& operator=(texture_object&& o) noexcept
  {
    std::swap(obj_, o.obj_);
    std::swap(stream_, o.stream_);
    return *this;
  }
  texture_object(texture_object const&)            = delete;
  texture_object& operator=(texture_object const&) = delete;
  ~texture_object()
  {
    if (!obj_) return;
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(stream_, &capture) == cudaSuccess && capture == cudaStreamCaptureStatusNone)
      (void)cudaStreamSynchronize(stream_);
    (void)cudaDestroyTextureObject(obj_);
  }
  cudaTextureObject_t get() const noexcept { return obj_; }

 private:
  cudaTextureObject_t obj_ = 0;
  cudaStream_t stream_     = nullptr;
};

namespace detail {
/**
 * @brief A device copy of `h` at an address aligned for texture objects: `buf` receives an
 * allocation of h.size() + alignment bytes and the returned pointer lies inside it.
 */
inline std::uint8_t* upload_texture_aligned(std::vector<std::uint8_t> const& h, device_buffer<std::uint8_t>& buf,
                                            cuda::stream_ref stream)
{
  int dev = 0, align = 0;
  FASTPAIR_CUDA_TRY(cudaGetDevice(&dev));
  FASTPAIR_CUDA_TRY(cudaDeviceGetAttribute(&align, cudaDevAttrTextureAlignment, dev));
  std::size_t const a = align > 0 ? static_cast<std::size_t>(align) : 512;
  buf = device_buffer<std::uint8_t>(h.size() + a, stream);
  auto* p = reinterpret_cast<std::uint8_t*>((reinterpret_cast<std::uintptr_t>(buf.data()) + a - 1) / a * a);
  if (!h.empty()) FASTPAIR_CUDA_TRY(cudaMemcpyAsync(p, h.data(), h.size(), cudaMemcpyHostToDevice, stream.get()));
  return p;
}

/** @brief A device copy of `h`, allocated and copied on `stream` (pageable source: the copy is done
 *  when this returns). */
template <class T>
device_buffer<T> upload(std::vector<T> const& h, cuda::stream_ref stream)
{
  device_buffer<T> d(h.size(), stream);
  if (!h.empty())
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(d.data(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice, stream.get()));
  return d;
}
}  // namespace detail

}  // namespace fastpair
