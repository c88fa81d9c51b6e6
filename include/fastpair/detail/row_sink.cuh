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
 * segment_rows[s + 1].row): after each batch's scan it takes those that start in the batch, 32 at a
 * time (their counts scanned from the segment's first row), and reads each one's position from the
 * lane that holds its first code (`position_of`, a shuffle). Rows that start after the last decoded
 * segment's codes (empty rows at the end of the range, and the end entry) take the end position
 * (`write_tail`). Every row is written by exactly one warp. Counts are clamped to
 * num_codes and row indices to [0, row_end], so corrupt counts cannot send a write outside `out`;
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

/** A warp's rows within its segment (warp-uniform): rows [r, r_end) remain, row r starts at code
 *  fc. 32-bit rows keep the state the decode carries through its batches to four registers. */
struct row_cursor {
  std::uint32_t r = 0, r_end = 0;
  std::uint64_t fc = 0;
};

/** The rows of segment `seg` (codes from `c_begin`). */
__device__ __forceinline__ row_cursor rows_of_segment(row_sink const& s, std::uint64_t seg, std::uint64_t c_begin)
{
  segment_row const a = s.segment_rows[seg], b = s.segment_rows[seg + 1];
  return row_cursor{a.row, static_cast<std::uint32_t>(min(std::uint64_t{b.row}, s.row_end + 1)), c_begin + a.first_code};
}

/**
 * Writes the rows of `c` that start among the batch's codes [base, batch_end), whose first output
 * byte is at decoded position `cursor`. Warp-collective; `position_of(i)` (also collective) returns
 * the batch-relative position of the batch's code i, as held by the lanes after the scan.
 */
template <class PositionOf>
__device__ __forceinline__ void emit_rows(row_sink const& s, row_cursor& c, std::uint64_t base,
                                          std::uint64_t batch_end, std::uint64_t cursor, unsigned lane,
                                          PositionOf&& position_of)
{
  using scan_t = cub::WarpScan<std::uint64_t>;
  while (c.r < c.r_end && c.fc < batch_end) {  // warp-uniform; lane 0's row starts in the batch
    std::uint64_t const r   = std::uint64_t{c.r} + lane;
    std::uint64_t const cnt = r < c.r_end ? min(s.counts.count(r), s.num_codes) : 0;
    std::uint64_t incl      = 0;
    typename scan_t::TempStorage temp;  // shuffle-based: no shared memory
    scan_t(temp).InclusiveSum(cnt, incl);
    std::uint64_t const fc = c.fc + incl - cnt;
    bool const here        = r < c.r_end && fc < batch_end;  // a prefix of the lanes (fc ascends)
    unsigned const n       = __popc(__ballot_sync(0xFFFFFFFFu, here));
    std::uint32_t const p  = position_of(here ? static_cast<std::uint32_t>(fc - base) : 0u);
    if (here) s.put(r, cursor + p);
    c.fc += __shfl_sync(0xFFFFFFFFu, incl, n - 1);
    c.r += n;
  }
}

/** After the launch's last segment, whose codes end at decoded position `end`: the rows that
 *  start after them (empty rows before row_end, and the end entry) take `end`. */
__device__ __forceinline__ void write_tail(row_sink const& s, std::uint64_t seg, std::uint64_t end, unsigned lane)
{
  for (std::uint64_t r = s.segment_rows[seg + 1].row + lane; r <= s.row_end; r += 32) s.put(r, end);
}

}  // namespace fastpair::detail
