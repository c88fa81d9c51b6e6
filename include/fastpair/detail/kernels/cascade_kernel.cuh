// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file cascade_kernel.cuh
 * @brief Kernels and scan operators of the cascade decode (cascade.cuh).
 *
 * Design. A cascade is decoded in four stream-ordered steps, none of which allocates (all
 * scratch is owned by the prepared column):
 *
 * @code{.text}
 *  1. distinct rows  decode_column(distinct)  -> dist_off[D + 1] (i64), dist_chars       (small)
 *  2. runs only      run_start = exclusive sum of (length_k) over the packed run lengths (CUB scan)
 *                    expand_runs_kernel: ids[r] = run id of the run holding row r      (u32, n)
 *  3. offsets        out.offsets = exclusive sum over r <= n of len(ids[r])  (CUB scan, no temp array:
 *                    a transform iterator reads the packed id and dist_off on the fly)
 *  4. chars          gather_kernel: one warp per tile of 32 rows
 *
 *   tile of 32 rows      starts[0..32] = out.offsets[r0 .. r0+32]   (smem, per warp)
 *                        src[k]        = dist_off[ids[r0 + k]]
 *   output bytes         [starts[0], starts[32]) are contiguous; lane l owns the aligned 4-byte
 *                        words q0 + l, q0 + l + 32, ... of that range; for each byte p it walks
 *                        k forward until starts[k] <= p < starts[k+1] (monotone per lane)
 *                        and reads dist_chars[src[k] + p - starts[k]]
 *   stores               words wholly inside the tile: one aligned u32 store (coalesced across
 *                        the warp); the first/last word of a tile may be shared with the next
 *                        tile, so its bytes are stored one by one (no two warps write one word)
 * @endcode
 *
 * Why this shape: cascaded columns are short repeated values (TPC-H clerks are 15 bytes, ship
 * instructions 7..17), so a warp per row would idle most lanes and a thread per row would issue
 * byte stores that are not coalesced. Tiling by 32 rows keeps every lane busy on output words
 * whatever the row lengths, and the distinct chars (kilobytes) stay in L1/L2. A tile of 32 very
 * long rows is still handled by one warp (correct, not balanced); cascades are chosen for
 * columns of few short values. Throughput on the H200: not measured yet (docs/CASCADES.md).
 *
 * Runs are expanded with one binary search per lane over run_start, then a forward walk over
 * rows r0 + lane + 32 j (coalesced u32 stores); every row costs O(1) after the first.
 */
#pragma once

#include <fastpair/detail/cuda.cuh>

#include <cstdint>

namespace fastpair::detail {

/** Reads value i of a packed_ints stream (LSB-first u32 words, bits in 0..32). */
struct packed_reader {
  std::uint32_t const* words = nullptr;
  std::uint32_t bits         = 0;

  __host__ __device__ std::uint32_t operator()(std::uint64_t i) const
  {
    if (bits == 0) return 0;
    std::uint64_t const bit = i * bits;
    std::uint64_t const w   = bit >> 5;
    unsigned const off      = static_cast<unsigned>(bit & 31u);
    std::uint64_t v         = words[w];
    if (off + bits > 32) v |= std::uint64_t{words[w + 1]} << 32;  // the value straddles two words
    v >>= off;
    return static_cast<std::uint32_t>(bits == 32 ? v : v & ((std::uint64_t{1} << bits) - 1));
  }
};

/** Scan input of the run starts: item k < runs is run k's length (stored minus one), item
 *  `runs` is 0, so the exclusive sum writes runs + 1 starts ending at num_rows. */
struct run_length_op {
  packed_reader lengths;
  std::uint64_t runs = 0;
  __host__ __device__ std::uint64_t operator()(std::uint64_t k) const
  {
    return k < runs ? std::uint64_t{lengths(k)} + 1 : 0;
  }
};

/** Scan input of the output offsets: item r < n is the decoded length of row r (the length of
 *  its distinct value), item n is 0. */
template <class OffsetT>
struct row_length_op {
  packed_reader ids;
  std::int64_t const* dist_off = nullptr;
  std::uint64_t n              = 0;
  std::uint64_t num_distinct   = 0;  // ids >= this are read as 0 (and flagged by gather_kernel)
  __host__ __device__ OffsetT operator()(std::uint64_t r) const
  {
    if (r >= n) return 0;
    std::uint32_t id = ids(r);
    if (id >= num_distinct) id = 0;
    return static_cast<OffsetT>(dist_off[id + 1] - dist_off[id]);
  }
};

/** ids[r] = id of the run holding row r, for r < n. Each lane binary-searches its first row,
 *  then walks rows lane, lane + 32, ... of a 32 x rows_per_lane block of rows. */
template <int RowsPerLane>
FASTPAIR_KERNEL __launch_bounds__(256) void expand_runs_kernel(packed_reader run_ids, std::uint64_t const* run_start,
                                                              std::uint64_t runs, std::uint64_t n, std::uint32_t* ids)
{
  static_assert(RowsPerLane >= 1, "a lane handles at least one row");
  constexpr std::uint64_t rows_per_warp = 32ull * RowsPerLane;
  unsigned const lane       = threadIdx.x & 31u;
  std::uint64_t const warps = std::uint64_t{gridDim.x} * (blockDim.x / 32);
  for (std::uint64_t w = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; w * rows_per_warp < n;
       w += warps) {
    std::uint64_t r = w * rows_per_warp + lane;
    if (r >= n) continue;
    // Largest k with run_start[k] <= r (run_start[0] == 0, run_start[runs] == n > r).
    std::uint64_t lo = 0, hi = runs;  // invariant: run_start[lo] <= r < run_start[hi]
    while (hi - lo > 1) {
      std::uint64_t const mid = lo + (hi - lo) / 2;
      if (run_start[mid] <= r) lo = mid;
      else hi = mid;
    }
    std::uint64_t const end = min(w * rows_per_warp + rows_per_warp, n);
    for (; r < end; r += 32) {
      while (lo + 1 < runs && run_start[lo + 1] <= r) ++lo;  // bounded even if the lengths lie
      ids[r] = run_ids(lo);
    }
  }
}

/** Shared memory of one warp of gather_kernel. */
struct gather_tile {
  std::int64_t starts[33];  // output offsets of the tile's rows, relative to out_chars
  std::int64_t src[32];     // offset of each row's distinct value in dist_chars
};

/** Writes the chars of rows [0, n): one warp per tile of 32 rows (see the design note). */
template <class OffsetT>
FASTPAIR_KERNEL __launch_bounds__(256) void gather_kernel(packed_reader ids, std::int64_t const* dist_off,
                                                         std::uint64_t num_distinct, unsigned char const* dist_chars,
                                                         OffsetT const* out_off, std::uint64_t n,
                                                         unsigned char* out_chars, std::uint32_t* error)
{
  constexpr int warps_per_block = 256 / 32;
  __shared__ gather_tile tiles[warps_per_block];  // [warp] one tile descriptor per warp
  unsigned const lane       = threadIdx.x & 31u;
  gather_tile& t            = tiles[threadIdx.x / 32];
  std::uint64_t const warps = std::uint64_t{gridDim.x} * warps_per_block;
  std::int64_t const m      = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(out_chars) & 3u);
  for (std::uint64_t tile = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; tile * 32 < n;
       tile += warps) {  // warp-uniform loop
    std::uint64_t const r0 = tile * 32;
    int const count        = static_cast<int>(min(std::uint64_t{32}, n - r0));
    if (static_cast<int>(lane) < count) {
      std::uint32_t id = ids(r0 + lane);
      if (id >= num_distinct) {  // only reachable with prepare(validate = false) on a corrupt cascade
        atomicOr(error, 1u);     // code_out_of_range
        id = 0;
      }
      t.starts[lane] = static_cast<std::int64_t>(out_off[r0 + lane]);
      t.src[lane]    = dist_off[id];
    }
    if (lane == 0) t.starts[count] = static_cast<std::int64_t>(out_off[r0 + count]);
    __syncwarp();
    std::int64_t const b0 = t.starts[0], b1 = t.starts[count];
    if (b1 > b0) {
      // Word q covers bytes [4q - m, 4q - m + 4): out_chars + 4q - m is 4-byte aligned.
      std::int64_t const q0 = (b0 + m) / 4, q1 = (b1 - 1 + m) / 4;
      int k = 0;  // this lane's current row in the tile (monotone over its words)
      for (std::int64_t q = q0 + lane; q <= q1; q += 32) {
        std::int64_t const p_lo = 4 * q - m;
        std::int64_t const lo = max(p_lo, b0), hi = min(p_lo + 4, b1);
        std::uint32_t word = 0;
        for (std::int64_t p = lo; p < hi; ++p) {
          while (k + 1 < count && t.starts[k + 1] <= p) ++k;
          std::uint32_t const byte = dist_chars[t.src[k] + (p - t.starts[k])];
          word |= byte << (8 * (p - p_lo));
        }
        if (lo == p_lo && hi == p_lo + 4) {
          *reinterpret_cast<std::uint32_t*>(out_chars + p_lo) = word;
        } else {
          for (std::int64_t p = lo; p < hi; ++p) out_chars[p] = static_cast<unsigned char>(word >> (8 * (p - p_lo)));
        }
      }
    }
    __syncwarp();  // the tile descriptor is rewritten by the next iteration
  }
}

}  // namespace fastpair::detail
