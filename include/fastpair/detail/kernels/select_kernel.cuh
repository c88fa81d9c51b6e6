// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file select_kernel.cuh
 * @brief Kernels and per-piece functors of selective decode (select.cuh).
 *
 * Design. Every selection is first turned into "pieces": runs of selected rows [begin, end)
 * (row ids become runs of consecutive ids, a bitmask its runs of set bits). Per piece j:
 * @code{.text}
 *   rows   = end - begin                          output rows
 *   bytes  = row_byte_offsets[end] - [begin]      output chars
 *   codes  = row_code_offsets[end] - [begin]      codes to decode
 *   sums[j] = exclusive scan of (rows, bytes, codes)   one cub::DeviceScan over piece_sums
 * @endcode
 * sums[j] says where piece j lands in the output rows, the output chars and the compacted code
 * stream; sums[num_pieces] holds the totals (the size query).
 *
 * Filter-then-materialise (the selective path) never writes a decoder of its own:
 *   1 gather   gather_segments_kernel copies the selected rows' codes into one compact u16 stream,
 *              one warp per fixed-size segment of 32*K compact codes (one decode batch; merge-path
 *              style: a binary search over sums[].codes for the segment's first run, then
 *              galloping per lane), so a 10 MB row among 10-byte rows costs no imbalance; the same
 *              pass sums each segment's token lengths;
 *   2 sidecar  an exclusive scan of those sums is a sidecar for the compact stream in which
 *              position 0 is the first selected byte: the decoded position of a compact code IS
 *              its output position, because the selected rows are contiguous in the output;
 *   3 decode   the ordinary decode kernel runs over the compact stream with that sidecar (stride
 *              32*K, one batch per segment), so work items are fixed-size regardless of row
 *              boundaries, and every write is clipped to [0, selected bytes) of the output.
 * Extra traffic over a plain decode of the same rows: ~4 bytes per selected code (gather read +
 * write), against a decode that writes ~3-6 bytes per code. Measured (H200, 2026-11-29, 1 % random
 * rows of tpch_l_comment tiled to 1 GB, 374K runs): cub::DeviceMemcpy::Batched for the gather
 * took 70 us of a 127 us selective decode, which is why the gather is this kernel instead; a
 * first version of it with S = 768 and one load chain per warp was latency-bound (1600 warps for
 * 1.2M codes: 164 us in all), hence one batch per segment and the loads of all chunks in flight.
 *
 * Decode-then-filter (the dense path) decodes the whole column into a temporary and copies the
 * pieces' bytes out with cub::DeviceMemcpy::Batched.
 *
 * Output offsets (both paths): one thread per output row finds its piece by binary search over
 * sums[].rows (narrowed per block) and writes sums[j].bytes + row_byte_offsets[row] -
 * row_byte_offsets[begin].
 *
 * Validation: validate_*_kernel set bits of a selection error word (select_error_bits), read on
 * the host before any row id is used to index the column's offsets.
 */
#pragma once

#include <fastpair/detail/cuda.cuh>
#include <fastpair/detail/warp_decode.cuh>
#include <fastpair/selection.cuh>

#include <cstdint>

namespace fastpair::detail {

/** Bits of the selection error word written by the validation kernels. */
enum select_error_bits : std::uint32_t {
  select_row_out_of_range = 1u,  ///< a row id >= num_rows, or a range with end > num_rows or begin > end
  select_not_increasing   = 2u,  ///< row ids not strictly increasing, or ranges overlapping / unsorted
};

/** Running totals of pieces [0, j): output rows, output bytes, compact codes. */
struct piece_sums {
  std::uint64_t rows  = 0;
  std::uint64_t bytes = 0;
  std::uint64_t codes = 0;
};
struct piece_sums_plus {
  __host__ __device__ piece_sums operator()(piece_sums const& a, piece_sums const& b) const
  {
    return {a.rows + b.rows, a.bytes + b.bytes, a.codes + b.codes};
  }
};

/** Scan input: the sizes of piece j (zero for j >= count, the totals slot). Pieces are validated. */
struct piece_size_of {
  row_range const* pieces;
  std::uint64_t count;
  std::uint64_t const* row_byte_offsets;
  std::uint64_t const* row_code_offsets;
  __host__ __device__ piece_sums operator()(std::uint64_t j) const
  {
    if (j >= count) return {};
    row_range const p = pieces[j];
    return {p.end - p.begin, row_byte_offsets[p.end] - row_byte_offsets[p.begin],
            row_code_offsets[p.end] - row_code_offsets[p.begin]};
  }
};

/** DeviceMemcpy::Batched source of piece j: base + offsets[begin] * elem bytes. */
struct piece_source {
  unsigned char const* base;
  row_range const* pieces;
  std::uint64_t const* offsets;  ///< row code offsets (elem 2) or row byte offsets (elem 1)
  std::uint32_t elem;
  __host__ __device__ unsigned char const* operator()(std::uint64_t j) const
  {
    return base + offsets[pieces[j].begin] * elem;
  }
};
/** DeviceMemcpy::Batched size of piece j in bytes. */
struct piece_copy_bytes {
  row_range const* pieces;
  std::uint64_t const* offsets;
  std::uint32_t elem;
  __host__ __device__ std::uint64_t operator()(std::uint64_t j) const
  {
    return (offsets[pieces[j].end] - offsets[pieces[j].begin]) * elem;
  }
};
/** DeviceMemcpy::Batched destination of piece j: its compact code position or its output bytes. */
struct piece_destination {
  unsigned char* base;
  piece_sums const* sums;
  bool codes;  ///< true: base + 2 * sums[j].codes; false: base + sums[j].bytes
  __host__ __device__ unsigned char* operator()(std::uint64_t j) const
  {
    return base + (codes ? 2 * sums[j].codes : sums[j].bytes);
  }
};

/** Row ids: each id < num_rows and greater than the previous one. */
FASTPAIR_KERNEL __launch_bounds__(256) void validate_row_ids_kernel(device_row_ids sel, std::uint64_t num_rows,
                                                                   std::uint32_t* error)
{
  std::uint32_t bits = 0;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < sel.count;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    std::uint64_t const r = sel.rows[i];
    if (r >= num_rows) bits |= select_row_out_of_range;
    if (i > 0 && r <= sel.rows[i - 1]) bits |= select_not_increasing;
  }
  if (bits) atomicOr(error, bits);
}

/** Ranges: begin <= end <= num_rows and begin >= the previous end. */
FASTPAIR_KERNEL __launch_bounds__(256) void validate_ranges_kernel(device_row_ranges sel, std::uint64_t num_rows,
                                                                  std::uint32_t* error)
{
  std::uint32_t bits = 0;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < sel.count;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    row_range const p = sel.ranges[i];
    if (p.begin > p.end || p.end > num_rows) bits |= select_row_out_of_range;
    if (i > 0 && p.begin < sel.ranges[i - 1].end) bits |= select_not_increasing;
  }
  if (bits) atomicOr(error, bits);
}

/** Largest j in [lo, hi) with key(sums[j]) <= x, given key(sums[lo]) <= x and (hi is the end or
 *  key(sums[hi]) > x); sums is non-decreasing in key. */
template <class Key>
__device__ __forceinline__ std::uint64_t last_not_above(piece_sums const* sums, std::uint64_t lo, std::uint64_t hi,
                                                        std::uint64_t x, Key key)
{
  while (hi - lo > 1) {
    std::uint64_t const mid = lo + (hi - lo) / 2;
    if (key(sums[mid]) <= x) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * out[i] for i in [0, num_out_rows]: the Arrow offsets of the selected rows, one thread per row
 * (the grid covers every row; no grid-stride loop). Row i lies in the last run j with
 * sums[j].rows <= i (sums has num_pieces + 1 entries; sums[num_pieces].rows == num_out_rows).
 * Two threads of each block find the runs of the block's first and last rows; the others then
 * search only between those (a few cached steps instead of a full search each).
 */
template <class OffsetT>
FASTPAIR_KERNEL __launch_bounds__(256) void select_offsets_kernel(std::uint64_t const* row_byte_offsets,
                                                                 row_range const* pieces, piece_sums const* sums,
                                                                 std::uint64_t num_pieces, std::uint64_t num_out_rows,
                                                                 OffsetT* out)
{
  __shared__ std::uint64_t window[2];
  auto rows_of              = [](piece_sums const& p) { return p.rows; };
  std::uint64_t const first = std::uint64_t{blockIdx.x} * blockDim.x;
  std::uint64_t const i     = first + threadIdx.x;
  if (first < num_out_rows) {  // block-uniform
    if (threadIdx.x < 2) {
      std::uint64_t const q = threadIdx.x == 0 ? first : min(first + blockDim.x - 1, num_out_rows - 1);
      window[threadIdx.x]   = last_not_above(sums, 0, num_pieces, q, rows_of);
    }
    __syncthreads();
  }
  if (i > num_out_rows) return;
  if (i == num_out_rows) {
    out[i] = static_cast<OffsetT>(sums[num_pieces].bytes);
    return;
  }
  std::uint64_t const j = last_not_above(sums, window[0], window[1] + 1, i, rows_of);
  row_range const p     = pieces[j];
  std::uint64_t const r = p.begin + (i - sums[j].rows);
  out[i] = static_cast<OffsetT>(sums[j].bytes + (row_byte_offsets[r] - row_byte_offsets[p.begin]));
}

/**
 * Gather + segment lengths in one pass (selective path, steps 1-2). The compact stream is the
 * concatenation of the runs' codes, cut into segments of S = 32 * Chunks codes (one decode batch
 * of the config that decodes it). Warp w handles segment s = w (grid-stride):
 *   a  the run of the segment's first code: binary search over sums[].codes (merge-path style);
 *   b  per chunk of 32 codes, each lane gallops forward from the previous chunk's last run to the
 *      run of its code (tiny rows: a step or two; one huge run: none) - only cached sums reads;
 *   c  all chunks' loads are then issued together (run begin -> row code offset -> code ->
 *      length), so a warp has Chunks independent load chains in flight instead of one;
 *   d  compact[v] = code; seg_bytes[s] = the segment's decoded bytes.
 * seg_bytes[num_segments] = 0 (the scan's totals slot). Codes >= num_tokens count as entry 0 and
 * set code_out_of_range, as in the decoder.
 */
template <int Chunks, int W>
FASTPAIR_KERNEL __launch_bounds__(256) void gather_segments_kernel(column_view<W> col,
                                                                  std::uint64_t const* row_code_offsets,
                                                                  row_range const* pieces, piece_sums const* sums,
                                                                  std::uint64_t num_pieces, std::uint16_t* compact,
                                                                  std::uint64_t* seg_bytes)
{
  constexpr std::uint64_t S        = 32 * Chunks;
  auto codes_of                    = [](piece_sums const& p) { return p.codes; };
  unsigned const lane              = threadIdx.x & 31u;
  std::uint64_t const total        = sums[num_pieces].codes;
  std::uint64_t const num_segments = (total + S - 1) / S;
  std::uint64_t const warps        = std::uint64_t{gridDim.x} * (blockDim.x / 32);
  if (blockIdx.x == 0 && threadIdx.x == 0) seg_bytes[num_segments] = 0;
  for (std::uint64_t s = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; s < num_segments; s += warps) {
    std::uint64_t const v0 = s * S, v1 = min(v0 + S, total);
    // a, b: the run of each lane's code in each chunk.
    std::uint64_t j = last_not_above(sums, 0, num_pieces, v0, codes_of);
    std::uint64_t run[Chunks];
#pragma unroll
    for (int k = 0; k < Chunks; ++k) {
      std::uint64_t const v = v0 + 32 * k + lane;
      std::uint64_t r       = j;
      if (v < v1) {
        std::uint64_t lo = j, hi = j + 1, step = 1;  // sums[lo].codes <= v
        while (hi < num_pieces && sums[hi].codes <= v) {
          lo = hi;
          step <<= 1;
          hi = lo + step;
        }
        r = last_not_above(sums, lo, min(hi, num_pieces), v, codes_of);
      }
      run[k] = r;
      j      = __shfl_sync(0xFFFFFFFFu, r, 31);  // lane 31 is active in every chunk but the last
    }
    // c: physical code index of each lane's code, then the codes and their lengths.
    std::uint64_t phys[Chunks];
#pragma unroll
    for (int k = 0; k < Chunks; ++k) phys[k] = v0 + 32 * k + lane < v1 ? pieces[run[k]].begin : 0;
#pragma unroll
    for (int k = 0; k < Chunks; ++k) {
      std::uint64_t const v = v0 + 32 * k + lane;
      phys[k] = v < v1 ? row_code_offsets[phys[k]] + (v - sums[run[k]].codes) : 0;
    }
    std::uint32_t sum = 0, errors = 0;
#pragma unroll
    for (int k = 0; k < Chunks; ++k) {
      std::uint64_t const v = v0 + 32 * k + lane;
      if (v < v1) {
        std::uint32_t c = __ldg(col.codes + phys[k]);
        if (c >= col.num_tokens) {
          errors |= code_out_of_range;
          c = 0;
        }
        compact[v] = static_cast<std::uint16_t>(c);
        sum += ((__ldg(col.lengths + (c >> 1)) >> ((c & 1u) * 4)) & 0xFu) + 1;
      }
    }
    // d
    sum    = __reduce_add_sync(0xFFFFFFFFu, sum);
    errors = __reduce_or_sync(0xFFFFFFFFu, errors);
    if (lane == 0) {
      seg_bytes[s] = sum;
      if (errors) atomicOr(col.error, errors);
    }
  }
}

}  // namespace fastpair::detail
