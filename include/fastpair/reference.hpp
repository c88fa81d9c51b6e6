// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file reference.hpp
 * @brief The CPU reference decoder: the oracle every GPU test compares against.
 *
 * Simple on purpose: codes are read one by one from the packed stream and each token is appended
 * with a fixed 16-byte copy from a 16-byte-stride copy of the dictionary into an output with 16
 * bytes of slack (the "over-copy" of codecs.md §4.6), which keeps it fast (several GB/s per core)
 * without making it clever. It validates the column first, so it never reads or writes out of
 * bounds, whatever the column holds.
 */
#pragma once

#include <fastpair/format.hpp>
#include <fastpair/validate.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

namespace fastpair {

/**
 * @brief Decodes rows [row_begin, row_end) of a column on the CPU into Arrow-style strings.
 *
 * @code{.pseudo}
 * dictionary {0:"a", ..., 256:"ab", 257:"cd"}, rows {[256, 257], [], [97]}
 * decode_reference(col) -> offsets {0, 4, 4, 5}, chars "abcda"
 * @endcode
 * @param validate_first validate the column before decoding (default). Pass false only for a
 *        column that has already been validated.
 * @throw format_error if the column is invalid; logic_error if the row range is out of range.
 */
inline host_strings decode_reference(compressed_column const& col, std::uint64_t row_begin,
                                     std::uint64_t row_end, bool validate_first = true)
{
  if (validate_first) validate(col);
  FASTPAIR_EXPECTS(row_begin <= row_end && row_end <= col.num_rows(), "row range out of bounds");

  // 16-byte stride copy of the dictionary (every slot readable for 16 bytes).
  std::size_t const n = col.dict.size();
  std::vector<std::uint8_t> table(n * 16, 0);
  std::vector<std::uint8_t> len(n);
  for (std::size_t i = 0; i < n; ++i) {
    len[i] = static_cast<std::uint8_t>(col.dict.length(i));
    std::memcpy(&table[i * 16], col.dict.data(i), len[i]);
  }

  std::uint64_t const c0 = col.row_code_offsets[row_begin], c1 = col.row_code_offsets[row_end];
  std::uint64_t const b0 = col.row_byte_offsets[row_begin], b1 = col.row_byte_offsets[row_end];
  host_strings out;
  out.offsets.resize(row_end - row_begin + 1);
  for (std::uint64_t r = row_begin; r <= row_end; ++r) out.offsets[r - row_begin] = col.row_byte_offsets[r] - b0;
  out.chars.resize(b1 - b0 + 16);  // 16 bytes of slack for the over-copy
  char* dst = out.chars.data();
  for (std::uint64_t j = c0; j < c1; ++j) {
    std::uint32_t const c = code_at(col.kind, col.codes.data(), j);
    std::memcpy(dst, &table[std::size_t{c} * 16], 16);
    dst += len[c];
  }
  out.chars.resize(b1 - b0);
  return out;
}

/** @brief Decodes every row of a column on the CPU. @see decode_reference(col, begin, end). */
inline host_strings decode_reference(compressed_column const& col)
{
  return decode_reference(col, 0, col.num_rows());
}

}  // namespace fastpair
