// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file selection.cuh
 * @brief Device-side selections: non-owning views of the three forms of predicates.hpp, in device
 * memory. Predicates on the GPU (predicates.cuh) write `device_bitmask`; selective decode
 * (select.cuh) reads any of the three.
 *
 * @code{.text}
 *  device_row_ids     rows[count], strictly increasing, < num_rows      (the seed paper's "Index")
 *  device_bitmask     words[ceil(num_rows / 64)], bit r % 64 of word r / 64 = row r; bits at or
 *                     past num_rows are zero                             ("Plain")
 *  device_row_ranges  ranges[count] half-open [begin, end), increasing, non-overlapping  ("RLE")
 * @endcode
 */
#pragma once

#include <cstdint>

namespace fastpair {

/** @brief One half-open run of selected rows, [begin, end). Same layout as the host
 *  `selection_ranges` pair (two u64). */
struct row_range {
  std::uint64_t begin = 0;
  std::uint64_t end   = 0;
};

/** @brief Selected row ids in device memory (strictly increasing, each < the column's rows). */
struct device_row_ids {
  std::uint64_t const* rows = nullptr;
  std::uint64_t count       = 0;
};

/** @brief A selection bitmask in device memory: ceil(num_rows / 64) words. */
struct device_bitmask {
  std::uint64_t const* words = nullptr;
  std::uint64_t num_rows     = 0;
  std::uint64_t num_words() const noexcept { return (num_rows + 63) / 64; }
};

/** @brief Selected runs in device memory (increasing, non-overlapping; empty runs allowed). */
struct device_row_ranges {
  row_range const* ranges = nullptr;
  std::uint64_t count     = 0;
};

}  // namespace fastpair
