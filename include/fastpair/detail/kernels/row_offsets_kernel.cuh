// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file row_offsets_kernel.cuh
 * @brief The output offsets of a decode, derived from the codes: the lean device column keeps no
 * per-row offsets (16 bytes per row, more than the codes of a column of short rows), only the
 * stored bit-packed code count of each row and a row index every row_block_rows rows.
 *
 * Design. One block per row block of the index (1 024 rows, 4 per thread; a block of the stored
 * counts, with its own base and width):
 *   1 counts    each thread unpacks its rows' code counts; a block scan gives each row's first
 *               code, kept in shared memory (no scan where every row has the same count:
 *               count_bits = 0).
 *   2 positions one of two walks over the codes, chosen per block (block-uniform):
 *     segments  where the rows start in at least segment_walk_min segments (long rows): a row's
 *               position is its sidecar segment's entry plus the token lengths before it in the
 *               segment, so those segments are independent; the 8 warps take them in turn, find
 *               their rows by binary search, and walk each from its first code to its last row's
 *               first code in tiles of 32 x 8 codes (vector loads, a warp scan). Segments in which
 *               no row starts are not read.
 *     tiles     otherwise (short rows: few segments, too few for the warps): the block walks the
 *               codes up to its last row's first code in tiles of 256 x 4 (a block scan of their
 *               lengths); each thread writes those of its rows whose first code lies in the tile,
 *               staged in shared memory and stored coalesced. It starts at the sidecar entry of
 *               the first row's segment when that lies inside the block, else at the row index's
 *               position of the block.
 * Each code is read once more than the decode reads it (at most a segment per row), in place of
 * the 8 bytes per row a stored offset costs; the pass runs beside the decode (launch_offsets_pass).
 * Corrupt counts are clamped to num_codes, so every read stays inside the column whatever the
 * counts say. Measured: docs/notes/offsets-by-segment-2026-12-07.md (both walks, and the segment
 * walk alone).
 */
#pragma once

#include <fastpair/detail/kernels/decode_kernel.cuh>
#include <fastpair/detail/kernels/prepare_kernel.cuh>

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cuda/functional>

#include <cstdint>

namespace fastpair::detail {

/** The first index i in [lo, hi) with v[i] >= x (v nondecreasing), else hi. Written here: CUDA
 *  13.0's CCCL has no public <cuda/std/algorithm>, and thrust::lower_bound(thrust::seq, ...)
 *  would bring Thrust into every translation unit that decodes. */
__device__ __forceinline__ std::uint32_t lower_bound_shared(std::uint64_t const* v, std::uint32_t lo, std::uint32_t hi,
                                                           std::uint64_t x)
{
  while (lo < hi) {
    std::uint32_t const mid = (lo + hi) / 2;
    if (v[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Blocks whose rows start in at least this many sidecar segments walk them a warp each (one or
 *  more per warp of the block). Below it the row-block tiles: with 2-3 segments per block (rows of
 *  1-3 codes) the segment walk leaves most warps idle and was 20-23 % slower; with 8-15 segments
 *  per block (rows of 6-12 codes) it was 5-12 % faster than the tiles, with no cell slower
 *  (docs/notes/offsets-by-segment-2026-12-07.md section 4). */
inline constexpr std::uint64_t segment_walk_min = 8;

/**
 * start[j] = the first code of row r_first + j for the block's RB rows, the first of which starts at
 * code `cb`: one block scan of the rows' code counts (none where count_bits = 0). Clamped to
 * num_codes `M`, so corrupt counts give positions inside the column; rows past the column's
 * `nr` rows count 0 codes. Ends with the block's threads synchronised.
 */
template <int T, int RB = static_cast<int>(row_block_rows)>
__device__ __forceinline__ void block_first_codes(row_counts_view const& counts, std::uint64_t cb, std::uint64_t r_first,
                                                  std::uint64_t nr, std::uint64_t M, std::uint64_t* start,
                                                  typename cub::BlockScan<std::uint64_t, T, cub::BLOCK_SCAN_WARP_SCANS>::TempStorage& temp)
{
  constexpr int PER = RB / T;
  static_assert(RB == fpc2::count_block_rows, "the rows of one block of the stored counts");
  using scan64_t    = cub::BlockScan<std::uint64_t, T, cub::BLOCK_SCAN_WARP_SCANS>;
  if (counts.bits == 0) {  // every row has count_base codes: no scan
    std::uint64_t const base = counts.base;
#pragma unroll
    for (int q = 0; q < PER; ++q) {
      std::uint64_t const j = threadIdx.x * PER + q;
      start[j]              = base != 0 && j > (M - cb) / base ? M : cb + j * base;
    }
  } else {
    fpc2::count_block const b = counts.block(r_first / RB);  // RB = the stored counts' blocks
    std::uint64_t c[PER], s = 0;
#pragma unroll
    for (int q = 0; q < PER; ++q) {
      std::uint64_t const i = threadIdx.x * PER + q;
      c[q]                  = i < nr ? min(counts.count(b, i), M) : 0;
      s                     = min(s + c[q], M + 1);  // at most PER (M + 1): no wrap
    }
    std::uint64_t ex = 0;
    scan64_t(temp).ExclusiveSum(s, ex);  // T (M + 1) < 2^64: no wrap
#pragma unroll
    for (int q = 0; q < PER; ++q) {
      start[threadIdx.x * PER + q] = min(cb + min(ex, M), M);
      ex += c[q];
    }
  }
  __syncthreads();
}

/**
 * out[i] = decoded position of row row_begin + i, minus b0, for i in [0, row_end - row_begin]
 * (`total` = the column's decoded size, the position of row num_rows); the grid has one block per
 * row block from row_begin / RB to row_end / RB.
 */
template <class OffsetT, int W, int T = 256>
FASTPAIR_KERNEL __launch_bounds__(T) void row_offsets_from_codes_kernel(
  column_view<W> col, row_counts_view counts, std::uint64_t const* block_codes, std::uint64_t const* block_bytes,
  std::uint64_t row_begin, std::uint64_t row_end, std::uint64_t b0, std::uint64_t total, OffsetT* out)
{
  constexpr int RB = static_cast<int>(row_block_rows), PER = RB / T, WARPS = T / 32;
  constexpr int KW = 8, WTILE = 32 * KW;  // segment walk: codes per lane, per warp tile
  constexpr int KB = 4, BTILE = T * KB;   // row-block walk: codes per thread, per block tile
  static_assert(RB % T == 0 && T % 32 == 0, "rows per block must be a multiple of the threads, and those of 32");
  using scan64_t = cub::BlockScan<std::uint64_t, T, cub::BLOCK_SCAN_WARP_SCANS>;
  using scan32_t = cub::BlockScan<std::uint32_t, T, cub::BLOCK_SCAN_WARP_SCANS>;
  using wscan_t  = cub::WarpScan<std::uint32_t>;
  __shared__ union {
    typename scan64_t::TempStorage s64;
    typename scan32_t::TempStorage s32;
  } temp;
  __shared__ typename wscan_t::TempStorage wtemp[WARPS];
  __shared__ std::uint64_t start[RB];  // first code of each row of the block (absolute, <= num_codes)
  __shared__ union {
    std::uint32_t warp_pre[WARPS][WTILE];  // segment walk: each code's position in its warp's tile
    struct {
      std::uint32_t pre[BTILE];     // row-block walk: each code's position in the tile
      std::uint64_t staged[RB];     // and the block's offsets, stored coalesced at the end
    } block;
  } work;

  std::uint64_t const M       = col.num_codes;
  std::uint64_t const R       = counts.num_rows;
  std::uint64_t const k       = row_begin / RB + blockIdx.x;
  std::uint64_t const r_first = k * RB;
  std::uint64_t const nr      = R > r_first ? min(static_cast<std::uint64_t>(RB), R - r_first) : 0;
  // The rows this block writes: [e0, e1) (row num_rows, whose position is `total`, is written
  // by block 0).
  std::uint64_t const e0 = max(row_begin, r_first);
  std::uint64_t const e1 = min(row_end + 1, r_first + nr);
  if (row_end == R && blockIdx.x == 0 && threadIdx.x == 0) out[R - row_begin] = static_cast<OffsetT>(total - b0);

  // 1. the first code of each of this thread's PER rows (absolute, clamped to num_codes)
  std::uint64_t const cb = min(block_codes[k], M);
  block_first_codes<T>(counts, cb, r_first, nr, M, start, temp.s64);

  if (e0 < e1) {  // block-uniform
    auto const i0 = static_cast<std::uint32_t>(e0 - r_first), i1 = static_cast<std::uint32_t>(e1 - r_first);
    std::uint64_t const S = col.sidecar_stride, cs = start[i0], ce = start[i1 - 1];
    if (ce / S - cs / S + 1 >= segment_walk_min) {
      // 2a. the segments in which the rows [e0, e1) start, a warp each in turn
      unsigned const warp = threadIdx.x / 32, lane = threadIdx.x % 32;
      std::uint32_t* const wpre = work.warp_pre[warp];
      std::uint32_t ra = i0;  // the warp's segments ascend, and so do the rows that start in them
      for (std::uint64_t g = cs / S + warp; g <= ce / S; g += WARPS) {
        std::uint64_t const lo = g * S;
        ra                     = lower_bound_shared(start, ra, i1, lo);
        std::uint32_t const rb = lower_bound_shared(start, ra, i1, lo + S);  // rows [ra, rb) start here
        if (ra == rb) continue;
        std::uint64_t const last = start[rb - 1];      // the codes [lo, last) are read
        std::uint64_t running    = col.sidecar[g] - b0;  // modulo 2^64: the sum is a row's offset
        for (std::uint64_t tile_lo = lo; ra < rb; tile_lo += WTILE) {
          std::uint64_t const idx0 = tile_lo + lane * KW;
          std::uint32_t code[KW], len[KW], sum = 0;
          load_consecutive_codes<KW>(col.codes, idx0, last, code, col.code_bits);
#pragma unroll
          for (int q = 0; q < KW; ++q) {
            len[q] = idx0 + q < last ? token_length(col, code[q]) : 0u;
            sum += len[q];
          }
          std::uint32_t p = 0, tile_total = 0;
          wscan_t(wtemp[warp]).ExclusiveSum(sum, p, tile_total);
#pragma unroll
          for (int q = 0; q < KW; ++q) {
            wpre[lane * KW + q] = p;
            p += len[q];
          }
          __syncwarp();
          for (;;) {  // the rows that start in this tile, 32 at a time
            std::uint32_t const i = ra + lane;
            bool const here       = i < rb && start[i] < tile_lo + WTILE;
            unsigned const mask   = __ballot_sync(0xFFFFFFFFu, here);
            if (here) out[r_first + i - row_begin] = static_cast<OffsetT>(running + wpre[start[i] - tile_lo]);
            ra += static_cast<std::uint32_t>(__popc(mask));
            if (mask != 0xFFFFFFFFu) break;
          }
          running += tile_total;
          __syncwarp();  // wpre is reused by the next tile
        }
      }
    } else {
      // 2b. tiles over the codes [tile_lo, ce): their positions, and the rows that start there
      std::uint64_t const seg = cs / S, seg_first = seg * S;
      std::uint64_t tile_lo = seg_first >= cb ? seg_first : cb;
      std::uint64_t running = seg_first >= cb ? col.sidecar[seg] : block_bytes[k];
      for (; tile_lo <= ce; tile_lo += BTILE) {
        std::uint32_t len[KB], sum = 0;
#pragma unroll
        for (int q = 0; q < KB; ++q) {
          std::uint64_t const idx = tile_lo + threadIdx.x * KB + q;
          len[q]                  = idx < ce ? token_length(col, load_code(col, idx)) : 0u;
          sum += len[q];
        }
        std::uint32_t p = 0, tile_total = 0;
        scan32_t(temp.s32).ExclusiveSum(sum, p, tile_total);
#pragma unroll
        for (int q = 0; q < KB; ++q) {
          work.block.pre[threadIdx.x * KB + q] = p;
          p += len[q];
        }
        __syncthreads();
#pragma unroll
        for (int q = 0; q < PER; ++q) {
          std::uint32_t const i = threadIdx.x * PER + q;
          std::uint64_t const c = start[i];
          if (i >= i0 && i < i1 && c >= tile_lo && c < tile_lo + BTILE)
            work.block.staged[i] = running + work.block.pre[c - tile_lo] - b0;
        }
        running += tile_total;
        __syncthreads();  // pre and the scan storage are reused by the next tile
      }
      for (std::uint32_t i = i0 + threadIdx.x; i < i1; i += T)
        out[r_first + i - row_begin] = static_cast<OffsetT>(work.block.staged[i]);
    }
  }
  if (blockIdx.x == 0) wait_for_primary_grid();  // this grid ends after the decode it overlapped
}

/**
 * segment_rows[s] for s in [0, nseg] (row_sink.cuh), the index by which the decode kernel writes
 * row offsets itself. Row r, whose codes are [fc_r, fc_{r+1}), holds the starts c_s = s·S of the
 * segments with fc_r < c_s <= fc_{r+1}, so row r + 1 is the first row at or after them; entry
 * nseg (c = num_codes) is the first row that starts at num_codes; entry 0 is row 0. Block k takes
 * row block k; a row may hold many segment starts (a long row), so the block spreads its rows'
 * entries over its threads (a scan of their counts, then a binary search per entry). Every entry
 * is written once where the counts add up to num_codes (check_index_report; rows < 2^32).
 */
template <int T = 256>
FASTPAIR_KERNEL __launch_bounds__(T) void segment_rows_kernel(row_counts_view counts, std::uint64_t const* block_codes,
                                                              std::uint64_t M, std::uint64_t S, segment_row* out)
{
  constexpr int RB = static_cast<int>(row_block_rows), PER = RB / T;
  using scan64_t   = cub::BlockScan<std::uint64_t, T, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ typename scan64_t::TempStorage temp;
  __shared__ std::uint64_t start[RB + 1];  // first code of each row of the block, then of the next row
  __shared__ std::uint64_t before[RB];     // the entries of the block's rows before row j's
  __shared__ std::uint64_t total;
  std::uint64_t const R = counts.num_rows, nseg = (M + S - 1) / S;
  std::uint64_t const k = blockIdx.x, r_first = k * RB;
  std::uint64_t const nr = min(static_cast<std::uint64_t>(RB), R - r_first);
  block_first_codes<T>(counts, min(block_codes[k], M), r_first, nr, M, start, temp);
  if (threadIdx.x == 0) start[nr] = r_first + nr == R ? M : max(start[nr - 1], min(block_codes[k + 1], M));
  if (k == 0 && threadIdx.x == 0) out[0] = segment_row{0, 0};
  __syncthreads();
  // Row j holds the starts s·S in (start[j], start[j + 1]] with s < nseg: s in [a / S + 1, hi).
  auto first_s = [&](std::uint32_t j) { return start[j] / S + 1; };
  auto end_s   = [&](std::uint32_t j) { return min(max(start[j + 1], start[j]) / S + 1, nseg); };
  std::uint64_t n[PER], sum = 0;
#pragma unroll
  for (int q = 0; q < PER; ++q) {
    std::uint32_t const j = threadIdx.x * PER + q;
    n[q] = j < nr && end_s(j) > first_s(j) ? end_s(j) - first_s(j) : 0;
    sum += n[q];
    if (j < nr && start[j] < M && start[j + 1] >= M)  // row r_first + j + 1 is the first to start at M
      out[nseg] = segment_row{static_cast<std::uint32_t>(r_first + j + 1), 0};
  }
  std::uint64_t ex = 0, all = 0;
  scan64_t(temp).ExclusiveSum(sum, ex, all);
#pragma unroll
  for (int q = 0; q < PER; ++q) {
    before[threadIdx.x * PER + q] = ex;
    ex += n[q];
  }
  if (threadIdx.x == 0) total = all;
  __syncthreads();
  for (std::uint64_t i = threadIdx.x; i < total; i += T) {
    std::uint32_t const j = lower_bound_shared(before, 0, static_cast<std::uint32_t>(nr), i + 1) - 1;  // last j with before[j] <= i
    std::uint64_t const s = first_s(j) + (i - before[j]);
    out[s] = segment_row{static_cast<std::uint32_t>(r_first + j + 1),
                         static_cast<std::uint32_t>(min(start[j + 1] - s * S, S))};
  }
}

/**
 * The same offsets from the compact row lengths (device_column::row_length_bytes() =
 * sizeof(LenT) bytes per row): block k loads its rows' lengths, scans them from the row index's
 * position of the block and writes those in [row_begin, row_end]. 1-2 bytes read per row instead
 * of the codes: what the offsets cost on columns of short rows.
 */
template <class LenT, class OffsetT, int T = 256>
FASTPAIR_KERNEL __launch_bounds__(T) void row_offsets_from_lengths_kernel(
  LenT const* lengths, std::uint64_t num_rows, std::uint64_t const* block_bytes, std::uint64_t row_begin,
  std::uint64_t row_end, std::uint64_t b0, std::uint64_t total, OffsetT* out)
{
  constexpr int RB = static_cast<int>(row_block_rows), PER = RB / T;
  using scan_t = cub::BlockScan<std::uint32_t, T, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ typename scan_t::TempStorage temp;
  std::uint64_t const R       = num_rows;
  std::uint64_t const k       = row_begin / RB + blockIdx.x;
  std::uint64_t const r_first = k * RB;
  std::uint64_t const e0 = max(row_begin, r_first);
  std::uint64_t const e1 = min(row_end + 1, min(r_first + RB, R));
  if (row_end == R && blockIdx.x == 0 && threadIdx.x == 0) out[R - row_begin] = static_cast<OffsetT>(total - b0);
  std::uint32_t len[PER], s = 0;  // at most 1 024 x 65 535 < 2^32 bytes per block
#pragma unroll
  for (int q = 0; q < PER; ++q) {
    std::uint64_t const r = r_first + threadIdx.x * PER + q;
    len[q]                = r < R ? lengths[r] : 0u;
    s += len[q];
  }
  std::uint32_t ex = 0;
  scan_t(temp).ExclusiveSum(s, ex);
  std::uint64_t const base = block_bytes[k] - b0;
#pragma unroll
  for (int q = 0; q < PER; ++q) {
    std::uint64_t const r = r_first + threadIdx.x * PER + q;
    if (r >= e0 && r < e1) out[r - row_begin] = static_cast<OffsetT>(base + ex);
    ex += len[q];
  }
  if (blockIdx.x == 0) wait_for_primary_grid();  // this grid ends after the decode it overlapped
}

/** row_lengths[r] = offsets[r + 1] - offsets[r] (row_length_bytes_kernel's input is checked to fit). */
template <class LenT>
FASTPAIR_KERNEL __launch_bounds__(256) void row_lengths_kernel(std::uint64_t const* offsets, std::uint64_t n, LenT* out)
{
  for (std::uint64_t r = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; r < n; r += std::uint64_t{gridDim.x} * blockDim.x)
    out[r] = static_cast<LenT>(offsets[r + 1] - offsets[r]);
}

/** *longest = max over rows of offsets[r + 1] - offsets[r]. */
FASTPAIR_KERNEL __launch_bounds__(256) void longest_row_kernel(std::uint64_t const* offsets, std::uint64_t n,
                                                               unsigned long long* longest)
{
  using reduce_t = cub::BlockReduce<std::uint64_t, 256>;
  __shared__ typename reduce_t::TempStorage temp;
  std::uint64_t m = 0;
  for (std::uint64_t r = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; r < n; r += std::uint64_t{gridDim.x} * blockDim.x)
    m = max(m, offsets[r + 1] - offsets[r]);
  std::uint64_t const b = reduce_t(temp).Reduce(m, cuda::maximum<>{});
  if (threadIdx.x == 0 && b != 0) atomicMax(longest, static_cast<unsigned long long>(b));
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
