// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// CUDA plumbing of the device headers: the internal-linkage kernel macro, texture-aligned
// allocations, the device count, a copy lane (a second stream with events) and the upload of a
// host vector. The public resources (device_buffer, texture_object, FASTPAIR_CUDA_TRY) are in
// device_buffer.cuh.
#pragma once

#include <fastpair/device_buffer.cuh>

#include <cuda/stream_ref>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

/// Kernels have internal linkage: a header-only library's non-template kernels would otherwise be
/// defined in every translation unit that includes them (a duplicate-symbol link error), and two
/// shared libraries built with different configs or archs never share one kernel symbol (the
/// concern CCCL answers with hidden visibility, docs/cccl/development/visibility).
#define FASTPAIR_KERNEL static __global__

namespace fastpair {

namespace detail {
/**
 * @brief n device bytes at an address aligned for texture objects: `buf` receives an allocation
 * of n + alignment bytes and the returned pointer lies inside it.
 */
inline std::uint8_t* alloc_texture_aligned(std::size_t n, device_buffer<std::uint8_t>& buf, cuda::stream_ref stream,
                                           device_async_resource_ref mr)
{
  int dev = 0, align = 0;
  FASTPAIR_CUDA_TRY(cudaGetDevice(&dev));
  FASTPAIR_CUDA_TRY(cudaDeviceGetAttribute(&align, cudaDevAttrTextureAlignment, dev));
  std::size_t const a = align > 0 ? static_cast<std::size_t>(align) : 512;
  buf = device_buffer<std::uint8_t>(n + a, stream, mr);
  return reinterpret_cast<std::uint8_t*>((reinterpret_cast<std::uintptr_t>(buf.data()) + a - 1) / a * a);
}
/** alloc_texture_aligned(h.size(), ...), then `h` copied there on `stream`. */
inline std::uint8_t* upload_texture_aligned(std::vector<std::uint8_t> const& h, device_buffer<std::uint8_t>& buf,
                                            cuda::stream_ref stream, device_async_resource_ref mr)
{
  std::uint8_t* const p = alloc_texture_aligned(h.size(), buf, stream, mr);
  if (!h.empty()) FASTPAIR_CUDA_TRY(cudaMemcpyAsync(p, h.data(), h.size(), cudaMemcpyHostToDevice, stream.get()));
  return p;
}

/** @brief Number of CUDA devices this process can use; 0 when there is none, with the reason in
 *  `why` (no device, no driver or one older than the runtime, ...). Clears the error it meets. */
inline int usable_device_count(std::string* why)
{
  int n               = 0;
  cudaError_t const e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    if (why) {
      if (e == cudaErrorNoDevice) *why = "no CUDA device found (cudaErrorNoDevice)";
      else if (e == cudaErrorInsufficientDriver)
        *why = "no NVIDIA driver found, or it is older than this CUDA runtime (cudaErrorInsufficientDriver)";
      else *why = std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
    }
    return 0;
  }
  if (n == 0 && why) *why = "no CUDA device";
  return n;
}

/**
 * A second stream for copies (or kernels that copy) overlapping work queued on a main stream,
 * with one event per step: step i's work is queued on lane(), then record(i); the main stream
 * waits for it with wait(main, i). The destructor synchronizes the lane (the copies read the
 * caller's bytes: they must be done when the function that queued them returns or throws), then
 * frees stream and events; errors there are ignored (it runs during unwinding).
 */
class copy_lane {
 public:
  /** A lane on the current device that starts after the work queued on `after` so far. */
  copy_lane(cuda::stream_ref after, std::size_t steps)
  {
    try {
      FASTPAIR_CUDA_TRY(cudaStreamCreateWithFlags(&lane_, cudaStreamNonBlocking));
      events_.reserve(steps + 2);
      for (std::size_t i = 0; i <= steps + 1; ++i) {
        cudaEvent_t e = nullptr;
        FASTPAIR_CUDA_TRY(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
        events_.push_back(e);
      }
      FASTPAIR_CUDA_TRY(cudaEventRecord(events_[steps], after.get()));
      FASTPAIR_CUDA_TRY(cudaStreamWaitEvent(lane_, events_[steps], 0));
      steps_ = steps;
    } catch (...) {
      release();
      throw;
    }
  }
  ~copy_lane() { release(); }
  copy_lane(copy_lane const&)            = delete;
  copy_lane& operator=(copy_lane const&) = delete;

  cudaStream_t lane() const noexcept { return lane_; }
  /** Marks the end of step i's copies (i < steps). */
  void record(std::size_t i) { FASTPAIR_CUDA_TRY(cudaEventRecord(events_.at(i), lane_)); }
  /** Work queued on `main` from now on starts after step i's copies. */
  void wait(cuda::stream_ref main, std::size_t i) const { FASTPAIR_CUDA_TRY(cudaStreamWaitEvent(main.get(), events_.at(i), 0)); }
  /** Copies queued on the lane from now on start after the work queued on `main` so far. */
  void follow(cuda::stream_ref main)
  {
    FASTPAIR_CUDA_TRY(cudaEventRecord(events_.at(steps_ + 1), main.get()));
    FASTPAIR_CUDA_TRY(cudaStreamWaitEvent(lane_, events_[steps_ + 1], 0));
  }

 private:
  void release() noexcept
  {
    if (lane_ != nullptr) (void)call_keeping_last_error([&] { return cudaStreamSynchronize(lane_); });
    for (cudaEvent_t e : events_) (void)call_keeping_last_error([&] { return cudaEventDestroy(e); });
    if (lane_ != nullptr) (void)call_keeping_last_error([&] { return cudaStreamDestroy(lane_); });
    events_.clear();
    lane_ = nullptr;
  }

  cudaStream_t lane_ = nullptr;
  std::vector<cudaEvent_t> events_;  // one per step, the start, follow()'s
  std::size_t steps_ = 0;
};

/** @brief A device copy of `h`, allocated from `mr` and copied on `stream` (pageable source: the
 *  copy is staged when this returns). */
template <class T>
device_buffer<T> upload(std::vector<T> const& h, cuda::stream_ref stream, device_async_resource_ref mr)
{
  device_buffer<T> d(h.size(), stream, mr);
  if (!h.empty())
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(d.data(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice, stream.get()));
  return d;
}
}  // namespace detail

}  // namespace fastpair
