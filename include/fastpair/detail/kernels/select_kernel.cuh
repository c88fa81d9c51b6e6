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
 *   1 gather   gather_compact_kernel copies the selected rows' codes into one compact u16 stream,
 *              one warp per fixed-size segment of 32*K compact codes (one decode batch; merge-path
 *              style: a binary search over sums[].codes for the segment's first run, then
 *              galloping per lane), so a 10 MB row among 10-byte rows costs no imbalance;
 *   2 sidecar  the same pass writes a sidecar for the compact stream in which position 0 is the
 *              first selected byte: the decoded position of a compact code IS its output
 *              position, because the selected rows are contiguous in the output. Each entry is
 *              computed from the plan and the column's row offsets / sidecar (no scan);
 *   3 decode   the ordinary decode kernel runs over the compact stream with that sidecar (stride
 *              32*K, one batch per segment), so work items are fixed-size regardless of row
 *              boundaries, and every write is clipped to [0, selected bytes) of the output.
 * Extra traffic over a plain decode of the same rows: ~4 bytes per selected code (gather read +
 * write), against a decode that writes ~3-6 bytes per code. The gather is this kernel rather than
 * cub::DeviceMemcpy::Batched, which took over half of a selective decode of many short runs, and
 * it keeps the loads of all chunks in flight (one batch per segment) because one load chain per
 * warp was latency-bound (H200, 1 % random rows of tpch_l_comment; docs/SELECTIVE.md).
 *
 * Decode-then-filter (the dense path) decodes the whole column into a temporary and copies the
 * pieces' bytes out with cub::DeviceMemcpy::Batched.
 *
 * Output offsets (both paths): one thread per output row finds its piece by binary search over
 * sums[].rows between the bounds a start table gives its block of 256 rows (piece_starts_kernel)
 * and writes sums[j].bytes + row_byte_offsets[row] - row_byte_offsets[begin].
 *
 * Validation: validate_*_kernel set bits of a selection error word (select_error_bits), read on
 * the host before any row id is used to index the column's offsets.
 */
#pragma once

#include <fastpair/detail/cuda.cuh>
#include <fastpair/detail/warp_decode.cuh>
#include <fastpair/selection_views.hpp>

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

/**
 * Row ids -> runs of consecutive ids, for every slot k < ids.count: slot k < *num_runs gets run k,
 * [rows[first[k]], rows[first[k + 1] - 1] + 1) (the last run ends at the last id); later slots get
 * the empty run [0, 0), so a scan over all slots sums only the real runs and the run count can stay
 * on the device. Rows are clamped to [0, num_rows] and end >= begin, so even an invalid selection
 * (reported through the validation word) never makes the plan index outside the row offsets.
 */
FASTPAIR_KERNEL __launch_bounds__(256) void id_runs_kernel(std::uint64_t const* first, std::uint64_t const* num_runs,
                                                          device_row_ids ids, std::uint64_t num_rows, row_range* out)
{
  std::uint64_t const runs = *num_runs;
  for (std::uint64_t k = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; k < ids.count;
       k += std::uint64_t{gridDim.x} * blockDim.x) {
    if (k >= runs) {
      out[k] = {0, 0};
      continue;
    }
    std::uint64_t const last = (k + 1 < runs ? first[k + 1] : ids.count) - 1;
    std::uint64_t const b    = min(ids.rows[first[k]], num_rows);
    std::uint64_t const e    = min(max(ids.rows[last] + 1, b), num_rows);
    out[k]                   = {b, e};
  }
}

/** Ranges copied with begin and end clamped to [0, num_rows] and end >= begin (see id_runs_kernel). */
FASTPAIR_KERNEL __launch_bounds__(256) void clamp_ranges_kernel(device_row_ranges sel, std::uint64_t num_rows,
                                                               row_range* out)
{
  for (std::uint64_t k = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; k < sel.count;
       k += std::uint64_t{gridDim.x} * blockDim.x) {
    row_range const p     = sel.ranges[k];
    std::uint64_t const b = min(p.begin, num_rows);
    out[k]                = {b, min(max(p.end, b), num_rows)};
  }
}

/** What make_select_plan reads back in its last (for ids and ranges: only) synchronisation. */
struct plan_readback {
  std::uint64_t error       = 0;  ///< select_error_bits (64-bit: no padding bytes to copy back)
  std::uint64_t num_pieces  = 0;
  piece_sums totals{};
  row_range first{};            ///< pieces[0] (for one-run plans)
};

/** One thread: gathers the plan's readback. `num` null: the piece count is `slots - 1`. */
FASTPAIR_KERNEL void finish_plan_kernel(std::uint32_t const* error, std::uint64_t const* num, std::uint64_t slots,
                                        piece_sums const* sums, row_range const* pieces, plan_readback* out)
{
  plan_readback r;
  r.error      = error ? *error : 0u;
  r.num_pieces = num ? *num : slots - 1;
  r.totals     = sums[slots - 1];  // later slots are empty runs: the last sum is the total
  if (r.num_pieces > 0) r.first = pieces[0];
  *out = r;
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

/** Which running total a start table is built over. */
enum class piece_key { rows, codes };

/**
 * Start table over `key` (output rows or compact codes) cut into blocks of `block` items:
 * start[q] = the run j holding item q * block (the one with sums[j].key <= q * block <
 * sums[j + 1].key), for every q with q * block < the total. One thread per run writes the blocks
 * that begin inside it (none for most runs of short rows; a run holding more than 32 block starts
 * is written by its whole warp, coalesced), so a later warp or block finds its first run with one
 * load instead of a binary search over all runs, and the
 * entry of the next block bounds the runs it can touch. A long dependent chain of cached loads
 * (about 19 steps for 400K runs) was most of the time of both kernels below.
 */
FASTPAIR_KERNEL __launch_bounds__(256) void piece_starts_kernel(piece_sums const* sums, std::uint64_t num_pieces,
                                                               piece_key key, std::uint64_t block,
                                                               std::uint64_t* start)
{
  constexpr std::uint64_t lone = 32;  // a lane writes up to this many entries itself
  unsigned const lane          = threadIdx.x & 31u;
  std::uint64_t const warps    = std::uint64_t{gridDim.x} * (blockDim.x / 32);
  for (std::uint64_t base = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32 * 32; base < num_pieces;
       base += 32 * warps) {  // warp-uniform
    std::uint64_t const j = base + lane;
    std::uint64_t q0 = 0, q1 = 0;  // the blocks that begin inside run j
    if (j < num_pieces) {
      std::uint64_t const lo = key == piece_key::rows ? sums[j].rows : sums[j].codes;
      std::uint64_t const hi = key == piece_key::rows ? sums[j + 1].rows : sums[j + 1].codes;
      q0                     = (lo + block - 1) / block;
      q1                     = (hi + block - 1) / block;
    }
    bool const many = q1 - q0 > lone;
    if (!many)
      for (std::uint64_t q = q0; q < q1; ++q) start[q] = j;
    // A long run (many blocks) is written by the whole warp, coalesced.
    for (unsigned m = __ballot_sync(0xFFFFFFFFu, many); m != 0; m &= m - 1) {
      int const l            = __ffs(m) - 1;
      std::uint64_t const b0 = __shfl_sync(0xFFFFFFFFu, q0, l), b1 = __shfl_sync(0xFFFFFFFFu, q1, l);
      for (std::uint64_t q = b0 + lane; q < b1; q += 32) start[q] = base + l;
    }
  }
}

/** The runs [lo, hi] that items [q * block, (q + 1) * block) of a start table can lie in (a null
 *  table: the plan has one run). */
__device__ __forceinline__ void start_window(std::uint64_t const* start, std::uint64_t q, std::uint64_t blocks,
                                             std::uint64_t num_pieces, std::uint64_t& lo, std::uint64_t& hi)
{
  if (start == nullptr) {  // one run: no table
    lo = hi = 0;
    return;
  }
  lo = start[q];
  hi = q + 1 < blocks ? start[q + 1] : num_pieces - 1;
}

/**
 * out[i] for i in [0, num_out_rows]: the Arrow offsets of the selected rows, one thread per row
 * (the grid covers every row; no grid-stride loop; block b = rows [256 b, 256 b + 256)). Row i
 * lies in the last run j with sums[j].rows <= i; `row_start` (piece_starts_kernel over rows,
 * block 256) bounds the search to the runs of this block.
 */
template <class OffsetT>
FASTPAIR_KERNEL __launch_bounds__(256) void select_offsets_kernel(std::uint64_t const* row_byte_offsets,
                                                                 row_range const* pieces, piece_sums const* sums,
                                                                 std::uint64_t num_pieces, std::uint64_t num_out_rows,
                                                                 std::uint64_t const* row_start, OffsetT* out)
{
  auto rows_of          = [](piece_sums const& p) { return p.rows; };
  std::uint64_t const i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i > num_out_rows) return;
  if (i == num_out_rows) {
    out[i] = static_cast<OffsetT>(sums[num_pieces].bytes);
    return;
  }
  std::uint64_t lo = 0, hi = 0;
  start_window(row_start, blockIdx.x, (num_out_rows + 255) / 256, num_pieces, lo, hi);
  std::uint64_t const j = last_not_above(sums, lo, hi + 1, i, rows_of);
  row_range const p     = pieces[j];
  std::uint64_t const r = p.begin + (i - sums[j].rows);
  out[i] = static_cast<OffsetT>(sums[j].bytes + (row_byte_offsets[r] - row_byte_offsets[p.begin]));
}

/**
 * Gather + sidecar in one pass (selective path, steps 1-2). The compact stream is the
 * concatenation of the runs' codes, cut into segments of S = 32 * Chunks codes (one decode batch
 * of the config that decodes it). Warp w handles segment s = w (grid-stride):
 *   a  the runs [j0, j1] the segment's codes lie in: seg_start[s] and seg_start[s + 1] (a start
 *      table over compact codes, block S, built by piece_starts_kernel);
 *   b  per chunk of 32 codes, each lane binary-searches [j0, j1] for the run of its code; the
 *      chunks' searches are independent, so their (cached) loads are in flight together;
 *   c  all chunks' loads are then issued together (run begin -> row code offset -> code), so a
 *      warp has Chunks independent load chains in flight instead of one; compact[v] = code;
 *   d  sidecar[s] = the output byte of v0 = sums[j].bytes + the decoded bytes of run j's codes
 *      before v0. Those are summed from the nearer of two anchors whose decoded position is known:
 *      the run's first code (row_byte_offsets[begin]) or the column's own sidecar entry at or below
 *      v0's physical code, so at most one column segment (< col.sidecar_stride codes) is summed,
 *      and for runs of short rows only the few codes of the row.
 * sidecar[num_segments] = the selected bytes. No scan is needed: a segment's start is computed
 * from the plan, not accumulated. Codes >= num_tokens are read as entry 0 and set
 * code_out_of_range, as in the decoder; if the row offsets disagree with the token lengths the
 * decoder reports sidecar_mismatch, as for a plain decode.
 */
template <int Chunks, int W>
FASTPAIR_KERNEL __launch_bounds__(256) void gather_compact_kernel(column_view<W> col,
                                                                 std::uint64_t const* row_code_offsets,
                                                                 std::uint64_t const* row_byte_offsets,
                                                                 row_range const* pieces, piece_sums const* sums,
                                                                 std::uint64_t num_pieces,
                                                                 std::uint64_t const* seg_start,
                                                                 std::uint16_t* compact, std::uint64_t* sidecar)
{
  constexpr std::uint64_t S        = 32 * Chunks;
  auto codes_of                    = [](piece_sums const& p) { return p.codes; };
  unsigned const lane              = threadIdx.x & 31u;
  std::uint64_t const total        = sums[num_pieces].codes;
  std::uint64_t const num_segments = (total + S - 1) / S;
  std::uint64_t const warps        = std::uint64_t{gridDim.x} * (blockDim.x / 32);
  if (blockIdx.x == 0 && threadIdx.x == 0) sidecar[num_segments] = sums[num_pieces].bytes;
  for (std::uint64_t s = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; s < num_segments; s += warps) {
    std::uint64_t const v0 = s * S, v1 = min(v0 + S, total);
    // a, b: the run of each lane's code in each chunk, searched independently (loads in flight)
    // between the segment's first run and the next segment's.
    std::uint64_t j0 = 0, j1 = 0;
    start_window(seg_start, s, num_segments, num_pieces, j0, j1);
    std::uint64_t run[Chunks];
#pragma unroll
    for (int k = 0; k < Chunks; ++k) {
      std::uint64_t const v = v0 + 32 * k + lane;
      run[k]                = v < v1 ? last_not_above(sums, j0, j1 + 1, v, codes_of) : j0;
    }
    // c: physical code index of each lane's code, then the codes.
    std::uint64_t phys[Chunks];
#pragma unroll
    for (int k = 0; k < Chunks; ++k) phys[k] = v0 + 32 * k + lane < v1 ? pieces[run[k]].begin : 0;
#pragma unroll
    for (int k = 0; k < Chunks; ++k) {
      std::uint64_t const v = v0 + 32 * k + lane;
      phys[k] = v < v1 ? row_code_offsets[phys[k]] + (v - sums[run[k]].codes) : 0;
    }
    std::uint32_t errors = 0;
#pragma unroll
    for (int k = 0; k < Chunks; ++k) {
      std::uint64_t const v = v0 + 32 * k + lane;
      if (v < v1) {
        std::uint32_t c = load_code(col, phys[k]);
        if (c >= col.num_tokens) {
          errors |= code_out_of_range;
          c = 0;
        }
        compact[v] = static_cast<std::uint16_t>(c);
      }
    }
    // d: the output byte of v0 (p = its physical code, anchor a <= p with a known position).
    std::uint64_t const begin_row = pieces[j0].begin;  // j0 holds v0
    std::uint64_t const run_code  = row_code_offsets[begin_row];
    std::uint64_t const run_byte  = row_byte_offsets[begin_row];
    std::uint64_t const p         = run_code + (v0 - sums[j0].codes);
    std::uint64_t const a_side    = p / col.sidecar_stride * col.sidecar_stride;
    std::uint64_t const a         = a_side > run_code ? a_side : run_code;
    std::uint64_t const pos_a     = a_side > run_code ? col.sidecar[a_side / col.sidecar_stride] : run_byte;
    std::uint64_t partial         = 0;
    for (std::uint64_t c = a + lane; c < p; c += 32) {
      std::uint32_t const code = load_code(col, c);
      std::uint32_t const e    = code < col.num_tokens ? code : 0u;
      partial += col.entry_nibble(e) + 1;
    }
    for (int o = 16; o > 0; o >>= 1) partial += __shfl_xor_sync(0xFFFFFFFFu, partial, o);
    errors = warp_or(errors);
    if (lane == 0) {
      sidecar[s] = sums[j0].bytes + (pos_a - run_byte) + partial;
      if (errors) atomicOr(col.error, errors);
    }
  }
}

}  // namespace fastpair::detail
