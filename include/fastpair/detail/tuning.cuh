// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file tuning.cuh
 * @brief The automatic decode configuration: a small per-architecture table, W from the column's
 * token-length histogram (device_column::low_plane_bytes()).
 *
 * Each entry records the measurement that justified it (GPU, data, date). Lookup is by compute
 * capability, newest first: sm_100+, sm_90, sm_80, then a generic fallback.
 */
#pragma once

#include <fastpair/config.cuh>
#include <fastpair/detail/cuda.cuh>
#include <fastpair/detail/dispatch.cuh>
#include <fastpair/device_column.cuh>

#include <cuda/stream_ref>

#include <cstdint>

namespace fastpair {

/** @brief Architecture buckets of the tuning table. */
enum class arch_bucket { generic, sm80, sm90, sm100 };

/** @brief Per-architecture default configuration for low-plane width W. */
template <arch_bucket A, int W>
struct default_config {
  /// Fallback and sm_80: the paper's configuration (not measured by us on these GPUs).
  using type = paper_config<W>;
};
/// sm_90 (H100/H200): see docs/BENCHMARKS.md "Automatic configuration" for the sweep behind it.
template <int W>
struct default_config<arch_bucket::sm90, W> {
  using type = paper_config<W>;
};
/// sm_100+: not measured; the sm_90 entry (same SM budget per block) until someone measures.
template <int W>
struct default_config<arch_bucket::sm100, W> {
  using type = typename default_config<arch_bucket::sm90, W>::type;
};

namespace detail {

/** Bucket of the current device (cached per device id). Returns generic on any CUDA error. */
inline arch_bucket current_arch_bucket() noexcept
{
  int dev = 0, major = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) return arch_bucket::generic;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) return arch_bucket::generic;
  if (major >= 10) return arch_bucket::sm100;
  if (major == 9) return arch_bucket::sm90;
  if (major == 8) return arch_bucket::sm80;
  return arch_bucket::generic;
}

template <arch_bucket A, int W>
cudaError_t launch_default(device_column const& col, std::uint64_t c0, std::uint64_t c1, unsigned char* out,
                           std::uint64_t window_begin, std::uint64_t capacity, cuda::stream_ref stream)
{
  using config = typename default_config<A, W>::type;
  return launch_decode<config>(col.view<W>(), c0, c1, out, window_begin, capacity, stream);
}

/** Runtime (arch, W) -> compile-time config. */
inline cudaError_t dispatch_auto(device_column const& col, std::uint64_t c0, std::uint64_t c1, unsigned char* out,
                                 std::uint64_t window_begin, std::uint64_t capacity, cuda::stream_ref stream)
{
  bool const w16 = col.low_plane_bytes() == 16;
  switch (current_arch_bucket()) {
    case arch_bucket::sm100:
    case arch_bucket::sm90:
      return w16 ? launch_default<arch_bucket::sm90, 16>(col, c0, c1, out, window_begin, capacity, stream)
                 : launch_default<arch_bucket::sm90, 8>(col, c0, c1, out, window_begin, capacity, stream);
    default:
      return w16 ? launch_default<arch_bucket::generic, 16>(col, c0, c1, out, window_begin, capacity, stream)
                 : launch_default<arch_bucket::generic, 8>(col, c0, c1, out, window_begin, capacity, stream);
  }
}

}  // namespace detail
}  // namespace fastpair
