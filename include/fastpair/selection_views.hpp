// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file selection_views.hpp
 * @brief The non-owning views of a device-side selection (row ids, bitmask, row ranges): plain
 * structs of device pointers and counts, shared by selection.cuh (conversions and bitmask
 * operations), select.cuh (selective decode), predicates.cuh and their kernels. No dependency.
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
