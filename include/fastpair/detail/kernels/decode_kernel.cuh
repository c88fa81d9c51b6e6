// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file decode_kernel.cuh
 * @brief The decode kernel's `__global__` entry point (one warp per sidecar segment; the work
 * itself is in warp_decode.cuh or warp_decode_words.cuh, per the config's emit strategy) and the
 * hooks the offsets passes use to run beside it. The prepare-time passes are in
 * prepare_kernel.cuh, the offsets passes in row_offsets_kernel.cuh.
 *
 * Grid: persistent, at most the number of blocks that fit on the GPU at once; global warp g
 * decodes segments first_segment + g, + g + (number of warps), ... Dynamic shared memory holds one
 * staging buffer + queue per warp (warp_smem<Config>). Persistent because with one segment per
 * warp, block scheduling dominated the short warps (3 batches of 256 codes each; H200).
 *
 * `WritesRows` (decode_fpc_* on long rows; register_words configs): the kernel also writes the row
 * offsets to a row_sink, each warp those of the rows that start in its segments (row_sink.cuh)
 * and the last segment's warp those after its codes, so no offsets pass follows. A kernel of its
 * own, because a run-time test for a sink slowed the plain decode of 12-bit columns by up to 14 %
 * (docs/notes/offsets-in-decode-2026-12-07.md).
 *
 * The offsets passes are launched right after the decode kernel, which allows them to start
 * early (allow_dependent_launch, sm_90+): their blocks fill SMs beside the decode's, and their
 * block 0 waits for the decode before the pass ends (wait_for_primary_grid), so the stream's next
 * work still finds both outputs written.
 */
#pragma once

#include <fastpair/config.cuh>
#include <fastpair/detail/arch.cuh>
#include <fastpair/detail/cuda.cuh>
#include <fastpair/detail/warp_decode.cuh>
#include <fastpair/detail/warp_decode_words.cuh>

#include <cstdint>

namespace fastpair::detail {

/** Lets the kernel launched next on the stream with programmatic stream serialization (the
 *  offsets pass of decode_column, launch_offsets_pass) start while this grid still runs. A hint:
 *  without such a launch, or before sm_90, nothing changes. */
__device__ __forceinline__ void allow_dependent_launch()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cudaTriggerProgrammaticLaunchCompletion();
#endif
}

/** Waits until the grid this one was launched beside (programmatic stream serialization) has
 *  completed and its writes are visible; returns at once for a plain launch. */
__device__ __forceinline__ void wait_for_primary_grid()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
}

/** Tag of decode kernels that exist for every architecture (explicit configs): any_arch. The
 *  automatic configs are tagged with the tuning-table bucket that picks them (tuning.cuh). */
inline constexpr int any_arch = -1;

/** Whether this compilation pass builds the body of a kernel tagged `arch_tag` (an arch_bucket,
 *  or any_arch): always on the host; on the device only where table_bucket(__CUDA_ARCH__)
 *  is that bucket, so each architecture's code holds only its own tuned kernels, in the manner of
 *  CUB's chained policies. */
template <int ArchTag>
__host__ __device__ constexpr bool builds_kernel_body()
{
#if defined(__CUDA_ARCH__)
  return ArchTag == any_arch || ArchTag == static_cast<int>(table_bucket(bucket_of_arch(__CUDA_ARCH__ / 10)));
#else
  return true;
#endif
}

template <class Config, int ArchTag = any_arch, bool WritesRows = false>
FASTPAIR_KERNEL __launch_bounds__(Config::threads_per_block, Config::min_blocks_per_sm) void decode_kernel(
  config_view<Config> col, std::uint64_t first_segment, std::uint64_t end_segment, unsigned char* out,
  std::uint64_t window_begin, std::uint64_t capacity, row_sink rows)
{
  if constexpr (!builds_kernel_body<ArchTag>()) {
    if (blockIdx.x == 0 && threadIdx.x == 0) atomicOr(col.error, kernel_not_built);
  } else {
  extern __shared__ __align__(16) unsigned char fastpair_smem[];
  unsigned const warp       = threadIdx.x / 32;
  unsigned char* const smem = fastpair_smem + warp * warp_smem<Config>::bytes;
  std::uint64_t const warps = std::uint64_t{gridDim.x} * Config::warps_per_block;
  allow_dependent_launch();  // the offsets pass needs nothing from the decode: it may fill in beside it
  // Persistent grid: each warp walks segments first + w, first + w + warps, ... (warp-uniform).
  for (std::uint64_t seg = first_segment + std::uint64_t{blockIdx.x} * Config::warps_per_block + warp;
       seg < end_segment; seg += warps) {
    if constexpr (Config::emits_words) {
      // the first batch of this warp's next segment (its later batches prefetch each other)
      if (seg + warps < end_segment) {
        std::uint64_t const next = (seg + warps) * col.sidecar_stride + (threadIdx.x & 31u) * Config::tokens_per_thread;
        prefetch_codes_l2(code_source<Config>(col), next, col.num_codes, code_bits_of<Config>(col));
        if constexpr (Config::streams_lengths)
          prefetch_lengths_l2<Config::tokens_per_thread>(col.code_lengths, next, col.num_codes, threadIdx.x & 31u);
      }
    }
    if constexpr (Config::emits_words) {
      warp_decode_segment_words<Config, WritesRows>(col, seg, out, window_begin, capacity, smem, rows);
      if constexpr (WritesRows)
        if (seg + 1 == end_segment) write_tail(rows, seg, col.sidecar[seg + 1], threadIdx.x & 31u);
    } else {
      warp_decode_segment<Config>(col, seg, out, window_begin, capacity, smem);  // writes no offsets: launch_decode
    }
  }
  }
}

}  // namespace fastpair::detail
