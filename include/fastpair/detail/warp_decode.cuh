// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file warp_decode.cuh
 * @brief The FastPair decode "agent": one warp decodes one sidecar segment (the paper's
 * Algorithm 1; docs/DECODER.md).
 *
 * Data layout (prepared by planes.hpp / device_column.cuh):
 * @code{.text}
 *   codes    u16[M]                        one code per entry, stream order
 *   lo       u8[E][W]                      first W bytes of every entry (E = 2^bits, zero padded)
 *   hi       u8[E][16-W]                   bytes W..15 (W = 8 only; absent for FSST-12)
 *   lengths  u8[E/2]                       nibble (len - 1), low nibble = even entry
 *   sidecar  u64[ceil(M/S) + 1]            decoded position of code s*S; last = decoded bytes
 * @endcode
 *
 * Who does what. Warp w of the grid owns segment s (codes [s*S, s*S+S)), starts at cursor
 * sidecar[s] and walks the segment in batches of 32·K codes, carrying the cursor, so the column's
 * stride S and the kernel's K are independent. Per batch:
 *   1 input   lane ℓ loads codes ℓ + 32k, k < K (coalesced u16 loads)
 *   2 gather  per code: the length nibble and the W low-plane bytes (independent loads)
 *   3 scan    warp exclusive scan of the lengths in stream order; four 16-bit lengths ride in one
 *             u64, so K codes need ceil(K/4) cub::WarpScan calls
 *   4 queue   (W = 8) tokens longer than 8 bytes get a slot in a per-warp shared queue by ballot +
 *             popcount rank, so their high-plane reads are spread evenly over the lanes
 *   5 hoist   the first H queue rounds load their high-plane bytes before the emit
 *   6 emit    each lane writes min(len, W) bytes of each token into the warp's shared staging
 *             buffer at shift + offset (shift = output address mod 16); queued lanes add the rest
 *   7 drain   neighbouring lanes copy the staged batch to global memory: 16-byte aligned streaming
 *             stores for whole chunks, byte stores for the partial head and tail chunks, which the
 *             neighbouring batch completes (disjoint bytes, so no over-copy and no race)
 *
 * Safety on corrupt device data: a code >= num_tokens sets error bit `code_out_of_range` and is
 * decoded as entry 0, so no table is read out of bounds; a segment whose decoded length disagrees
 * with the next sidecar entry sets `sidecar_mismatch`; every global write is clipped to the output
 * window [0, capacity). The host reads the error word when it synchronises.
 */
#pragma once

#include <fastpair/column_view.cuh>
#include <fastpair/config.cuh>
#include <fastpair/detail/row_sink.cuh>
#include <fastpair/detail/warp_reduce.cuh>

#include <cub/warp/warp_scan.cuh>
#include <nv/target>

#include <cstdint>

namespace fastpair {

namespace detail {

/** The column view a decode config reads: W is the config's (Config::low_plane_bytes). */
template <class Config>
using config_view = column_view<Config::low_plane_bytes>;

/** @brief Shared memory one warp needs: staging (32·K·16 + 16 bytes) + queue (32·K · 4 bytes). */
template <class Config>
struct warp_smem {
  static constexpr int stage_bytes = Config::codes_per_batch * 16 + 16;
  static constexpr int queue_bytes =
    Config::low_plane_bytes < 16 && Config::emit == emit_strategy::staged_bytes ? Config::codes_per_batch * 4 : 0;
  static constexpr int bytes       = stage_bytes + queue_bytes;
  static_assert(stage_bytes % 16 == 0, "staging must keep 16-byte alignment");
};

template <int W>
struct lo_word;
template <>
struct lo_word<8> {
  using type = uint2;
};
template <>
struct lo_word<16> {
  using type = uint4;
};

/** Byte b (compile-time after unrolling) of a 2- or 4-word vector. */
__device__ __forceinline__ std::uint32_t byte_of(uint2 v, int b)
{
  std::uint32_t const w = b < 4 ? v.x : v.y;
  return (w >> (8 * (b & 3))) & 0xFFu;
}
__device__ __forceinline__ std::uint32_t byte_of(uint4 v, int b)
{
  std::uint32_t const w = b < 4 ? v.x : b < 8 ? v.y : b < 12 ? v.z : v.w;
  return (w >> (8 * (b & 3))) & 0xFFu;
}

/**
 * The drain shared by every emit strategy: copies staged bytes [shift, shift + total) to
 * out[rel .. rel + total), clipped to the window [0, capacity). Chunks of 16 staged bytes map to
 * 16-byte aligned output addresses; whole chunks go out as one streaming 16-byte store per lane,
 * the partial head and tail chunks as single bytes spread over the lanes (one byte per lane), and
 * the neighbouring batch writes the other bytes of those chunks.
 * `FastPath`: batches away from a window edge skip the per-chunk clipping (register_words, whose
 * drain was 9 % of its instructions; the paper's staged kernel keeps the one loop, it measured
 * 0 … −2 % with the fast path: docs/notes/decoder-history-2026-11.md).
 */
template <bool FastPath = false>
__device__ __forceinline__ void drain_stage(unsigned char const* stage, std::uint32_t shift, std::uint32_t total,
                                            std::int64_t rel, unsigned char* out, std::uint64_t capacity,
                                            unsigned lane)
{
  std::uint32_t const end = shift + total;
  std::int64_t const rel0 = rel - static_cast<std::int64_t>(shift);  // output index of stage[0], 16-aligned
  std::int64_t const cap  = static_cast<std::int64_t>(capacity);
  auto put_byte = [&](std::uint32_t b) {
    std::int64_t const r = rel0 + b;
    if (r >= 0 && r < cap) out[r] = stage[b];
  };
  auto put_chunks = [&](std::uint32_t i0, std::uint32_t i1) {  // lanes copy chunks [i0, i1)
    std::int64_t const r0 = rel0 + 16 * static_cast<std::int64_t>(i0);
    if (FastPath && i0 < i1 && r0 >= 0 && r0 + 16 * static_cast<std::int64_t>(i1 - i0) <= cap) {
      // Warp-uniform (every batch not at a window edge): a shared load, a store, the index update.
      uint4* const dst       = reinterpret_cast<uint4*>(out + r0);
      uint4 const* const src = reinterpret_cast<uint4 const*>(stage) + i0;
      for (std::uint32_t i = lane; i < i1 - i0; i += 32) __stcs(dst + i, src[i]);
      return;
    }
    for (std::uint32_t i = i0 + lane; i < i1; i += 32) {
      std::int64_t const r = rel0 + 16 * static_cast<std::int64_t>(i);
      if (r >= 0 && r + 16 <= cap) {
        __stcs(reinterpret_cast<uint4*>(out + r), *reinterpret_cast<uint4 const*>(stage + 16 * i));
      } else {  // only at the edges of a row-range window
        for (std::uint32_t b = 16 * i; b < 16 * i + 16; ++b) put_byte(b);
      }
    }
  };
  // Whole chunks [c0, c1).
  std::uint32_t const c0 = (shift + 15) / 16, c1 = end / 16;
  put_chunks(c0, c1);
  // Partial head chunk (bytes [shift, min(end, 16*c0))): lanes 0..15, one byte each.
  // Partial tail chunk (bytes [16*c1, end), when it is not the head chunk): lanes 16..31.
  std::uint32_t const head_end = min(end, 16 * c0);
  if (lane < 16) {
    std::uint32_t const b = (shift & ~15u) + lane;
    if (b >= shift && b < head_end) put_byte(b);
  } else {
    std::uint32_t const b = 16 * c1 + (lane - 16);
    if (16 * c1 >= head_end && b < end) put_byte(b);
  }
}

/**
 * @brief Decodes segment `seg` of `col` with one warp, writing the bytes that fall inside the
 * output window [0, capacity) of `out` (out[0] is decoded position `window_begin`).
 */
template <class Config>
__device__ __forceinline__ void warp_decode_segment(config_view<Config> const& col, std::uint64_t seg,
                                                    unsigned char* out, std::uint64_t window_begin,
                                                    std::uint64_t capacity, unsigned char* smem)
{
  constexpr int K      = Config::tokens_per_thread;
  constexpr int W      = Config::low_plane_bytes;
  constexpr int H      = Config::hoisted_rounds;
  constexpr int BATCH  = Config::codes_per_batch;
  constexpr bool SPLIT = W < 16;  // split read: long tokens go through the queue
  constexpr int G      = (K + 3) / 4;  // u64 words of packed lengths
  static_assert(BATCH * 16 + 16 < 8192, "queue destinations are 13-bit");
  using lo_t    = typename lo_word<W>::type;
  using scan_t  = cub::WarpScan<unsigned long long>;
  unsigned const lane = threadIdx.x & 31u;

  unsigned char* stage = smem;                                            // [stage_bytes]
  std::uint32_t* queue = reinterpret_cast<std::uint32_t*>(smem + warp_smem<Config>::stage_bytes);
  // queue entry: code (16 bits) | destination in stage (13 bits) << 16 | (rem - 1) (3 bits) << 29

  std::uint64_t const c_begin = seg * col.sidecar_stride;
  std::uint64_t const c_end   = min(c_begin + col.sidecar_stride, col.num_codes);
  std::uint64_t cursor        = col.sidecar[seg];
  std::uint32_t errors        = 0;
  typename scan_t::TempStorage scan_storage;  // shuffle-based: no shared memory is used

  for (std::uint64_t base = c_begin; base < c_end; base += BATCH) {
    // 1-2. input + gather ---------------------------------------------------------------------
    std::uint32_t code[K];  // [K] strided: lane ℓ owns codes base + ℓ + 32k
    std::uint32_t len[K];
    lo_t lo[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
      std::uint64_t const idx = base + 32 * k + lane;
      std::uint32_t c         = idx < c_end ? load_code(col, idx) : 0u;
      if (c >= col.num_tokens) {
        errors |= code_out_of_range;
        c = 0;
      }
      code[k] = c;
      std::uint32_t const nib = col.entry_nibble(c);
      len[k]                  = idx < c_end ? nib + 1 : 0;
      lo[k]                   = __ldg(reinterpret_cast<lo_t const*>(col.lo) + c);
    }

    // 3. scan ---------------------------------------------------------------------------------
    unsigned long long packed[G], excl[G], total_packed[G];
#pragma unroll
    for (int g = 0; g < G; ++g) packed[g] = 0;
#pragma unroll
    for (int k = 0; k < K; ++k) packed[k / 4] |= static_cast<unsigned long long>(len[k]) << (16 * (k % 4));
#pragma unroll
    for (int g = 0; g < G; ++g) scan_t(scan_storage).ExclusiveSum(packed[g], excl[g], total_packed[g]);
    std::uint32_t off[K];
    std::uint32_t total = 0;
#pragma unroll
    for (int k = 0; k < K; ++k) {
      off[k] = total + static_cast<std::uint32_t>((excl[k / 4] >> (16 * (k % 4))) & 0xFFFFu);
      total += static_cast<std::uint32_t>((total_packed[k / 4] >> (16 * (k % 4))) & 0xFFFFu);
    }

    // Output address of the batch's first byte relative to out[0], and its alignment.
    std::int64_t const rel   = static_cast<std::int64_t>(cursor - window_begin);
    std::uint32_t const shift = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(out) + rel) & 15u;

    // 4. queue --------------------------------------------------------------------------------
    std::uint32_t queued = 0;
    if constexpr (SPLIT) {
      unsigned const lt_mask = (1u << lane) - 1u;
#pragma unroll
      for (int k = 0; k < K; ++k) {
        bool const is_long = len[k] > W;
        unsigned const m   = __ballot_sync(0xFFFFFFFFu, is_long);
        if (is_long) {
          std::uint32_t const slot = queued + __popc(m & lt_mask);
          queue[slot] = code[k] | ((shift + off[k] + W) << 16) | ((len[k] - W - 1) << 29);
        }
        queued += __popc(m);
      }
      __syncwarp();
    }

    // 5. hoist --------------------------------------------------------------------------------
    uint2 hoisted[H > 0 ? H : 1];
    if constexpr (SPLIT && H > 0) {
#pragma unroll
      for (int h = 0; h < H; ++h) {
        std::uint32_t const e = 32 * h + lane;
        if (e < queued) hoisted[h] = __ldg(reinterpret_cast<uint2 const*>(col.hi) + (queue[e] & 0xFFFFu));
      }
    }

    // 6. emit ---------------------------------------------------------------------------------
#pragma unroll
    for (int k = 0; k < K; ++k) {
      unsigned char* dst = stage + shift + off[k];
#pragma unroll
      for (int b = 0; b < W; ++b)
        if (static_cast<std::uint32_t>(b) < len[k]) dst[b] = static_cast<unsigned char>(byte_of(lo[k], b));
    }
    if constexpr (SPLIT) {
#pragma unroll
      for (int r = 0; r < K; ++r) {
        if (32u * r >= queued) break;
        std::uint32_t const e = 32 * r + lane;
        if (e < queued) {
          std::uint32_t const q = queue[e];
          uint2 v;
          if (r < H) v = hoisted[r < H ? r : 0];
          else v = __ldg(reinterpret_cast<uint2 const*>(col.hi) + (q & 0xFFFFu));
          unsigned char* dst     = stage + ((q >> 16) & 0x1FFFu);
          std::uint32_t const rem = (q >> 29) + 1;
#pragma unroll
          for (int b = 0; b < 16 - W; ++b)
            if (static_cast<std::uint32_t>(b) < rem) dst[b] = static_cast<unsigned char>(byte_of(v, b));
        }
      }
    }
    __syncwarp();

    // 7. drain --------------------------------------------------------------------------------
    drain_stage(stage, shift, total, rel, out, capacity, lane);
    __syncwarp();
    cursor += total;
  }

  if (lane == 0 && cursor != col.sidecar[seg + 1]) errors |= sidecar_mismatch;
  errors = warp_or(errors);
  if (lane == 0 && errors) atomicOr(col.error, errors);
}

}  // namespace detail
}  // namespace fastpair
