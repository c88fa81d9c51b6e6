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
 *   1 gather   the selected rows' codes are copied into one compact u16 stream with
 *              cub::DeviceMemcpy::Batched (one buffer per piece; CUB balances buffers of any size,
 *              so a 10 MB row among 10-byte rows costs no imbalance);
 *   2 sidecar  segment_lengths_kernel + an exclusive scan over the compact stream give a sidecar in
 *              which position 0 is the first selected byte: the decoded position of a compact code
 *              IS its output position, because the selected rows are contiguous in the output;
 *   3 decode   the ordinary decode kernel runs over the compact stream with that sidecar, so work
 *              items are fixed-size segments of S codes regardless of row boundaries, and every
 *              write is clipped to [0, selected bytes) of the output.
 * Extra traffic over a plain decode of the same rows: ~6 bytes per selected code (gather read +
 * write, one sidecar read), against a decode that writes ~3-6 bytes per code.
 *
 * Decode-then-filter (the dense path) decodes the whole column into a temporary and copies the
 * pieces' bytes out with cub::DeviceMemcpy::Batched.
 *
 * Output offsets (both paths): one thread per output row finds its piece by binary search over
 * sums[].rows and writes sums[j].bytes + row_byte_offsets[row] - row_byte_offsets[begin].
 *
 * Validation: validate_*_kernel set bits of a selection error word (select_error_bits), read on
 * the host before any row id is used to index the column's offsets.
 */
#pragma once

#include <fastpair/detail/cuda.cuh>
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

/**
 * out[i] for i in [0, num_out_rows]: the Arrow offsets of the selected rows. Row i lies in the last
 * piece j with sums[j].rows <= i (sums has num_pieces + 1 entries; sums[num_pieces].rows ==
 * num_out_rows); out[num_out_rows] = total bytes.
 */
template <class OffsetT>
FASTPAIR_KERNEL __launch_bounds__(256) void select_offsets_kernel(std::uint64_t const* row_byte_offsets,
                                                                 row_range const* pieces, piece_sums const* sums,
                                                                 std::uint64_t num_pieces, std::uint64_t num_out_rows,
                                                                 OffsetT* out)
{
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i <= num_out_rows;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    if (i == num_out_rows) {
      out[i] = static_cast<OffsetT>(sums[num_pieces].bytes);
      continue;
    }
    std::uint64_t lo = 0, hi = num_pieces;  // sums[lo].rows <= i < sums[hi].rows
    while (hi - lo > 1) {
      std::uint64_t const mid = lo + (hi - lo) / 2;
      if (sums[mid].rows <= i) lo = mid;
      else hi = mid;
    }
    row_range const p     = pieces[lo];
    std::uint64_t const r = p.begin + (i - sums[lo].rows);
    out[i] = static_cast<OffsetT>(sums[lo].bytes + (row_byte_offsets[r] - row_byte_offsets[p.begin]));
  }
}

}  // namespace fastpair::detail
