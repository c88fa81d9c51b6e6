// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file decode_kernel.cuh
 * @brief Thin `__global__` entry points: the decode kernel (one warp per sidecar segment, the
 * work itself is in warp_decode.cuh or warp_decode_words.cuh, per the config's emit strategy),
 * the prepare-time passes (sidecar regeneration, length stream, fused codes) and the offsets pass
 * of columns with 8-byte row offsets (copy_offsets_kernel; the others derive their offsets from
 * the codes: row_offsets_kernel.cuh).
 *
 * Grid: persistent, at most the number of blocks that fit on the GPU at once; global warp g
 * decodes segments first_segment + g, + g + (number of warps), ... Dynamic shared memory holds one
 * staging buffer + queue per warp (warp_smem<Config>). Persistent because with one segment per
 * warp, block scheduling dominated the short warps (3 batches of 256 codes each; H200).
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

template <class Config, int W, int ArchTag = any_arch>
FASTPAIR_KERNEL __launch_bounds__(Config::threads_per_block, Config::min_blocks_per_sm) void decode_kernel(
  column_view<W> col, std::uint64_t first_segment, std::uint64_t end_segment, unsigned char* out,
  std::uint64_t window_begin, std::uint64_t capacity)
{
  if constexpr (!builds_kernel_body<ArchTag>()) {
    if (blockIdx.x == 0 && threadIdx.x == 0) atomicOr(col.error, kernel_not_built);
  } else {
  extern __shared__ __align__(16) unsigned char fastpair_smem[];
  unsigned const warp       = threadIdx.x / 32;
  unsigned char* const smem = fastpair_smem + warp * warp_smem<Config>::bytes;
  std::uint64_t const warps = std::uint64_t{gridDim.x} * Config::warps_per_block;
  bulk_drain_state bulk;  // drain_strategy::bulk_copy only
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
    if constexpr (Config::emits_words)
      warp_decode_segment_words<Config>(col, seg, out, window_begin, capacity, smem, bulk);
    else
      warp_decode_segment<Config>(col, seg, out, window_begin, capacity, smem);
  }
  if constexpr (Config::drain == drain_strategy::bulk_copy) bulk_drain_state::finish(threadIdx.x & 31u);
  }
}

/** Sidecar pre-pass: seg_bytes[s] = decoded bytes of segment s, s in [seg_begin, seg_end) (one
 *  warp per segment, grid-stride over the segments). Codes that are out of range count as entry 0, as in the decoder, and set
 *  the error word. A segment may decode to more than 4 GiB (strides up to 2^32 - 1 codes): each
 *  lane's sum fits 32 bits (at most 2^27 codes of 16 bytes), the warp's sum is taken in 64. */
template <int W>
FASTPAIR_KERNEL __launch_bounds__(256) void segment_lengths_kernel(column_view<W> col, std::uint64_t* seg_bytes,
                                                                   std::uint64_t seg_begin, std::uint64_t seg_end)
{
  unsigned const lane        = threadIdx.x & 31u;
  std::uint64_t const nwarps = std::uint64_t{gridDim.x} * (blockDim.x / 32);
  for (std::uint64_t seg = seg_begin + (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; seg < seg_end;
       seg += nwarps) {
    std::uint64_t const c_begin = seg * col.sidecar_stride;
    std::uint64_t const c_end   = min(c_begin + col.sidecar_stride, col.num_codes);
    std::uint32_t sum = 0, errors = 0;
    for (std::uint64_t i = c_begin + lane; i < c_end; i += 32) {
      std::uint32_t c = load_code(col, i);
      if (c >= col.num_tokens) {
        errors |= code_out_of_range;
        c = 0;
      }
      sum += ((__ldg(col.lengths + (c >> 1)) >> ((c & 1u) * 4)) & 0xFu) + 1;
    }
    // 32-bit reductions of the low and high halves: each half's warp sum fits 32 bits.
    std::uint64_t const total = warp_sum(sum & 0xFFFFu) +
                                (std::uint64_t{warp_sum(sum >> 16)} << 16);
    errors = warp_or(errors);
    if (lane == 0) {
      seg_bytes[seg] = total;
      if (errors) atomicOr(col.error, errors);
    }
  }
}

/** The per-code length stream (column_view::code_lengths): word t holds the length-1 nibbles of
 *  codes 8t .. 8t+7 (code 8t in bits 0..3). Out-of-range codes take entry 0's length, as the
 *  decoder reads entry 0 for them. */
template <int W>
FASTPAIR_KERNEL __launch_bounds__(256) void code_lengths_kernel(column_view<W> col, std::uint32_t* out, std::uint64_t words)
{
  for (std::uint64_t t = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; t < words;
       t += std::uint64_t{gridDim.x} * blockDim.x) {
    std::uint32_t word = 0;
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      std::uint64_t const i = 8 * t + k;
      std::uint32_t c       = i < col.num_codes ? load_code(col, i) : 0u;
      if (c >= col.num_tokens) c = 0;
      word |= ((__ldg(col.lengths + (c >> 1)) >> ((c & 1u) * 4)) & 0xFu) << (4 * k);
    }
    out[t] = word;
  }
}

/** The fused code stream (column_view::code_words) of a dictionary of at most 4 096 entries:
 *  word i = code i (12 bits) | (token length - 1) << 12. An out-of-range code keeps its value
 *  (the decoder detects and clamps it) and takes entry 0's length, as the decoder reads entry 0. */
template <int W>
FASTPAIR_KERNEL __launch_bounds__(256) void fused_codes_kernel(column_view<W> col, std::uint16_t* out)
{
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < col.num_codes;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    std::uint32_t const raw = load_code(col, i);
    if (raw > 0xFFFu) atomicOr(col.error, code_out_of_range);  // not from a 12-bit stream: cannot be fused
    std::uint32_t const c = raw & 0xFFFu;
    std::uint32_t const e = c < col.num_tokens ? c : 0u;
    out[i] = static_cast<std::uint16_t>(c | (((__ldg(col.lengths + (e >> 1)) >> ((e & 1u) * 4)) & 0xFu) << 12));
  }
}

/** out[i] = row_byte_offsets[i] - row_byte_offsets[0], for i in [0, n). */
template <class OffsetT>
FASTPAIR_KERNEL __launch_bounds__(256) void copy_offsets_kernel(std::uint64_t const* row_byte_offsets,
                                                                std::uint64_t n, OffsetT* out)
{
  std::uint64_t const base = row_byte_offsets[0];
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    out[i] = static_cast<OffsetT>(row_byte_offsets[i] - base);
  if (blockIdx.x == 0) wait_for_primary_grid();  // this grid ends after the decode it overlapped
}

}  // namespace fastpair::detail
