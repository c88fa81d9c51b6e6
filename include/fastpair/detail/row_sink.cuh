// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file row_sink.cuh
 * @brief Row offsets written by the decode kernel itself (decode_fpc_* on a column of long rows),
 * instead of by a second pass that reads the codes again (row_offsets_kernel.cuh).
 *
 * Why. The decode's warp already computes the output position of every code of its segment (the
 * segment's sidecar entry plus the scan of the token lengths); a row's offset is the position of
 * its first code. The pass that derives the offsets from the codes re-reads every code and, on
 * long rows, cost a third or more of the decode (docs/notes/offsets-in-decode-2026-12-07.md).
 *
 * How. `segment_rows[s]` (segment_rows_kernel, built from the stored code counts and the row
 * index before the decode) = the first row whose first code is at or after code s·S, and that
 * first code minus s·S. The warp of segment s owns the rows [segment_rows[s].row,
 * segment_rows[s + 1].row), 32 at a time: each lane holds one row's first code (the window's
 * counts read and scanned once, from the segment's first row), and after each batch's scan the
 * lanes whose row starts in the batch read its position from the lane that holds its first code
 * (`position_of`, a shuffle). Reading and scanning the counts once per 32 rows rather than once
 * per batch with a row start matters on columns of a few rows per batch, where most of the 32
 * counts read were thrown away. Rows that start after the last decoded segment's codes (empty
 * rows at the end of the range, and the end entry) take the end position (`write_tail`). Every
 * row is written by exactly one warp. Counts are clamped to num_codes and row indices to
 * [0, row_end], so corrupt counts cannot send a write outside `out`;
 * the index is zeroed before it is built, so counts that do not add up (an image the preparation
 * refuses) leave no entry undefined.
 */
#pragma once

#include <fastpair/detail/fpc_v2.hpp>

#include <cub/warp/warp_scan.cuh>

#include <cstdint>

namespace fastpair::detail {

/** The stored row code counts (section 4, as uploaded: blocks of fpc2::count_block_rows rows,
 *  each with its base and width) as the kernels read them. */
struct row_counts_view : fpc2::block_counts {
  std::uint64_t num_rows = 0;
};

/** Entry s of segment_rows: the first row whose first code is >= min(s·S, num_codes), and that
 *  first code minus s·S (clamped to S). Rows are 32-bit: the decode writes the offsets itself only
 *  for columns of fewer than 2^32 rows. */
struct segment_row {
  std::uint32_t row;
  std::uint32_t first_code;
};

/** Where the decode kernel writes row offsets: those of the whole column, rows [0, row_end] (the
 *  end entry included, row_end = num_rows < 2^32 - 1) to out[0 .. row_end]. `out` null: the decode
 *  writes chars only. */
struct row_sink {
  void* out                       = nullptr;
  bool wide                       = true;  ///< int64 offsets, else int32
  segment_row const* segment_rows = nullptr;
  row_counts_view counts{};
  std::uint64_t num_codes = 0;
  std::uint64_t row_end   = 0;

  __device__ void put(std::uint64_t r, std::uint64_t position) const
  {
    if (wide) static_cast<std::int64_t*>(out)[r] = static_cast<std::int64_t>(position);
    else static_cast<std::int32_t*>(out)[r] = static_cast<std::int32_t>(position);
  }
};

/** A warp's rows within its segment, 32 at a time (warp-uniform but `fc`): rows [r, r_end) remain
 *  and lane i holds row r + i of the window [r, r + 32). Code positions are relative to the
 *  segment's first code and saturate at 2^32 - 1, past any segment (strides are 32-bit): `fc` is
 *  the first code of the lane's row, `next` that of row r + 32. Four registers, as the decode
 *  carries the cursor through its batches. */
struct row_cursor {
  std::uint32_t r = 0, r_end = 0;
  std::uint32_t next = 0, fc = 0;
};

__device__ __forceinline__ std::uint32_t saturate32(std::uint64_t x)
{
  return x < 0xFFFFFFFFu ? static_cast<std::uint32_t>(x) : 0xFFFFFFFFu;
}

/** Loads the window at c.r: the lanes' counts (clamped to num_codes), scanned from c.next. */
__device__ __forceinline__ void load_window(row_sink const& s, row_cursor& c, unsigned lane)
{
  using scan_t            = cub::WarpScan<std::uint64_t>;
  std::uint64_t const r   = std::uint64_t{c.r} + lane;
  std::uint64_t const cnt = r < c.r_end ? min(s.counts.count(r), s.num_codes) : 0;
  std::uint64_t incl      = 0;
  typename scan_t::TempStorage temp;  // shuffle-based: no shared memory
  scan_t(temp).InclusiveSum(cnt, incl);
  c.fc   = saturate32(c.next + incl - cnt);
  c.next = saturate32(c.next + __shfl_sync(0xFFFFFFFFu, incl, 31));
}

/** The rows of segment `seg`, its first window loaded (if it has rows). */
__device__ __forceinline__ row_cursor rows_of_segment(row_sink const& s, std::uint64_t seg, unsigned lane)
{
  segment_row const a = s.segment_rows[seg], b = s.segment_rows[seg + 1];
  row_cursor c{a.row, static_cast<std::uint32_t>(min(std::uint64_t{b.row}, s.row_end + 1)), a.first_code, 0};
  if (c.r < c.r_end) load_window(s, c, lane);
  return c;
}

/**
 * Writes the rows of `c` that start among the batch's codes [base, end) (relative to the segment's
 * first code), whose first output byte is at decoded position `cursor`; moves the window on while
 * all of its rows start before `end`. The counts are read and scanned once per window, not per
 * batch: a batch where no row starts costs a ballot. Warp-collective; `position_of(i)` (also
 * collective) returns the batch-relative position of the batch's code i, as held by the lanes
 * after the scan.
 */
template <class PositionOf>
__device__ __forceinline__ void emit_rows(row_sink const& s, row_cursor& c, std::uint32_t base, std::uint32_t end,
                                          std::uint64_t cursor, unsigned lane, PositionOf&& position_of)
{
  for (;;) {
    std::uint64_t const r = std::uint64_t{c.r} + lane;
    bool const here       = r < c.r_end && c.fc >= base && c.fc < end;  // rows start in one batch only
    if (__ballot_sync(0xFFFFFFFFu, here) != 0) {                      // warp-uniform
      std::uint32_t const p = position_of(here ? c.fc - base : 0u);
      if (here) s.put(r, cursor + p);
    }
    if (c.next >= end || std::uint64_t{c.r} + 32 >= c.r_end) return;  // the next window starts later, or none is left
    c.r += 32;
    load_window(s, c, lane);
  }
}

/** After the launch's last segment, whose codes end at decoded position `end`: the rows that
 *  start after them (empty rows before row_end, and the end entry) take `end`. */
__device__ __forceinline__ void write_tail(row_sink const& s, std::uint64_t seg, std::uint64_t end, unsigned lane)
{
  for (std::uint64_t r = s.segment_rows[seg + 1].row + lane; r <= s.row_end; r += 32) s.put(r, end);
}

}  // namespace fastpair::detail
