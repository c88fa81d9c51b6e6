// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file planes.hpp
 * @brief Host preparation of the GPU decode tables (host-only; the upload is in device_column.cuh).
 *
 * @code{.text}
 *  entry e (all code_space(codec) entries, unused ones zero)
 *   lo plane  [e*W      .. e*W+W)        first W bytes of token e        (W = 8 or 16)
 *   hi plane  [e*(16-W) .. e*(16-W)+16-W) bytes W..15 of token e         (absent for W = 16)
 *   entry_lengths  byte e/2, nibble e%2 (low nibble = even e) = len(e) - 1
 * @endcode
 *
 * The planes are sized to the full code space so a stray code can never address outside them,
 * and have fixed strides so a token's address is computed from its code with no offset lookup.
 */
#pragma once

#include <fastpair/error.hpp>
#include <fastpair/format.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace fastpair {

/** @brief Fixed-stride dictionary planes for one low-plane width W (host copy). */
struct dictionary_planes {
  int low_plane_bytes      = 8;  ///< W: 8 or 16
  std::uint32_t entries    = 0;  ///< code_space(codec): rows in every plane
  std::uint32_t num_tokens = 0;  ///< real dictionary entries; codes >= num_tokens are corrupt
  std::vector<std::uint8_t> lo;       ///< entries * W bytes
  std::vector<std::uint8_t> hi;       ///< entries * (16 - W) bytes (empty when W == 16 or FSST-12)
  std::vector<std::uint8_t> entry_lengths;  ///< entries / 2 bytes, nibble = len - 1
};

/**
 * @brief Builds the planes of a (validated) dictionary for low-plane width `w`.
 * @throw logic_error if `w` is not 8 or 16, or FSST-12 is asked for W = 16 with 9+ byte tokens.
 */
inline dictionary_planes build_planes(codec kind, dictionary const& d, int w)
{
  FASTPAIR_EXPECTS(w == 8 || w == 16, "low plane width W must be 8 or 16");
  FASTPAIR_EXPECTS(d.size() <= code_space(kind), "dictionary larger than the code space");
  dictionary_planes p;
  p.low_plane_bytes = w;
  p.entries         = code_space(kind);
  p.num_tokens      = static_cast<std::uint32_t>(d.size());
  p.lo.assign(std::size_t{p.entries} * w, 0);
  // FSST-12 tokens fit in 8 bytes: no high plane at all.
  if (max_token_length(kind) > w) p.hi.assign(std::size_t{p.entries} * (16 - w), 0);
  p.entry_lengths.assign(p.entries / 2, 0);
  for (std::uint32_t e = 0; e < p.num_tokens; ++e) {
    std::uint32_t const len = d.length(e);
    FASTPAIR_EXPECTS(len >= 1 && len <= std::uint32_t(max_token_length(kind)),
                     "token length outside the codec's range (validate the column first)");
    std::uint32_t const n_lo = len < std::uint32_t(w) ? len : std::uint32_t(w);
    std::memcpy(&p.lo[std::size_t{e} * w], d.data(e), n_lo);
    if (len > std::uint32_t(w)) std::memcpy(&p.hi[std::size_t{e} * (16 - w)], d.data(e) + w, len - w);
    p.entry_lengths[e / 2] |= static_cast<std::uint8_t>((len - 1) << (4 * (e & 1)));
  }
  return p;
}

/**
 * @brief A 12-bit column re-coded so that no token exceeds 8 bytes (the "split" stream read by
 * the short-token emit, emit_strategy::register_words_short).
 *
 * @code{.text}
 *  dictionary  entry e < N: the first min(len(e), 8) bytes of token e (N = the column's tokens)
 *              entry N + j: bytes 8.. of the j-th token longer than 8 bytes
 *  words       one per split code: code in bits 0..12, length - 1 in bits 13..15; a token
 *              longer than 8 bytes becomes two codes, e then N + j
 *  sidecar     decoded position of every `stride`-th word, then the decoded size
 * @endcode
 * The planes have 8 192 entries of W = 8 bytes and no high plane.
 */
struct split_stream {
  dictionary_planes planes;                   ///< W = 8, 8 192 entries, no high plane
  std::vector<std::uint16_t> words;           ///< code | (length - 1) << 13
  std::vector<std::uint64_t> sidecar;         ///< one per segment of `stride` words, + the end
  std::vector<std::uint64_t> row_code_offsets;  ///< row r's first word
};

/** Bits of a split stream word that hold the code (the rest hold the length - 1). */
inline constexpr int split_code_bits = 13;

/**
 * @brief Builds the split stream of a column of at most 4 096 dictionary entries from its
 * (widened) codes. @throw format_error on a code outside the dictionary; logic_error on a codec
 * with more than 4 096 codes or a zero stride.
 */
inline split_stream build_split_stream(compressed_column const& col, std::vector<std::uint16_t> const& codes,
                                       std::uint32_t stride)
{
  FASTPAIR_EXPECTS(code_space(col.kind) <= 4096, "a split stream needs a dictionary of at most 4096 entries");
  FASTPAIR_EXPECTS(stride > 0, "sidecar stride must be positive");
  FASTPAIR_EXPECTS(codes.size() == col.num_codes && col.row_code_offsets.size() == col.num_rows() + 1,
                   "codes and row offsets must match the column");
  auto const n = static_cast<std::uint32_t>(col.dict.size());
  split_stream s;
  dictionary_planes& p = s.planes;
  p.low_plane_bytes    = 8;
  p.entries            = 2 * 4096;
  p.lo.assign(std::size_t{p.entries} * 8, 0);
  p.entry_lengths.assign(p.entries / 2, 0);
  // Per token: its one or two split words, the second in the high half (0: none; a second
  // word's code is >= n >= 256, so it is never 0).
  std::vector<std::uint32_t> split_words(n, 0);
  auto put = [&](std::uint32_t e, std::uint8_t const* bytes, std::uint32_t len) {
    std::memcpy(&p.lo[std::size_t{e} * 8], bytes, len);
    p.entry_lengths[e / 2] |= static_cast<std::uint8_t>((len - 1) << (4 * (e & 1)));
    return e | (len - 1) << split_code_bits;
  };
  std::uint32_t next = n;
  for (std::uint32_t e = 0; e < n; ++e) {
    std::uint32_t const len = col.dict.length(e);
    FASTPAIR_EXPECTS(len >= 1 && len <= 16, "token length outside 1..16 (validate the column first)");
    split_words[e] = put(e, col.dict.data(e), len < 8 ? len : 8);
    if (len > 8) split_words[e] |= put(next++, col.dict.data(e) + 8, len - 8) << 16;
  }
  p.num_tokens = next;

  // The words: one pass to size them (and check the codes), one to write them.
  std::uint64_t total = 0;
  for (std::uint64_t i = 0; i < codes.size(); ++i) {
    std::uint32_t const c = codes[i];
    if (c >= n) throw format_error("code " + std::to_string(c) + " at position " + std::to_string(i) +
                                   " is outside the dictionary of " + std::to_string(n) + " tokens");
    total += 1 + (split_words[c] >> 16 != 0);
  }
  s.words.resize(total);
  s.row_code_offsets.resize(col.num_rows() + 1);
  std::uint16_t* out = s.words.data();
  for (std::uint64_t r = 0; r < col.num_rows(); ++r) {
    s.row_code_offsets[r] = static_cast<std::uint64_t>(out - s.words.data());
    for (std::uint64_t i = col.row_code_offsets[r]; i < col.row_code_offsets[r + 1]; ++i) {
      std::uint32_t const w = split_words[codes[i]];
      *out++                = static_cast<std::uint16_t>(w);
      if (w >> 16) *out++ = static_cast<std::uint16_t>(w >> 16);
    }
  }
  s.row_code_offsets[col.num_rows()] = total;
  // The sidecar: the decoded position of every stride-th word, then the decoded size.
  s.sidecar.reserve(total / stride + 2);
  std::uint64_t bytes = 0;
  for (std::uint64_t seg = 0; seg < total; seg += stride) {
    s.sidecar.push_back(bytes);
    std::uint64_t const end = std::min<std::uint64_t>(seg + stride, total);
    for (std::uint64_t i = seg; i < end; ++i) bytes += (s.words[i] >> split_code_bits) + 1u;
  }
  s.sidecar.push_back(bytes);
  return s;
}

}  // namespace fastpair
