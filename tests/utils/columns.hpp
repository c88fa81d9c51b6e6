// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Hand-made compressed columns for host tests, the fuzz corpus and docs measurements. Independent
// of the encoder (encode.hpp): the dictionary is the 256 one-byte tokens (code b = byte b) plus the
// extra tokens given by the caller, and rows are either given as code lists or greedily encoded
// (longest match first) from text.
#pragma once

#include "generators.hpp"

#include <fastpair/format.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fastpair::testing {

/** Dictionary of the 256 one-byte tokens (code b is the byte b) followed by `extra`. */
inline dictionary make_dictionary(std::vector<std::string> const& extra = {})
{
  dictionary d;
  for (int b = 0; b < 256; ++b) d.push_back(std::string(1, static_cast<char>(b)));
  for (auto const& t : extra) d.push_back(t);
  return d;
}

/**
 * Builds a column from per-row code lists: packs the codes, fills both row offset arrays from
 * the token lengths and (when `with_sidecar`) computes the sidecar at `stride`. The codes must be
 * < 256 + extra.size(); the result is valid whenever the dictionary is.
 */
inline compressed_column make_column(codec kind, std::vector<std::string> const& extra,
                                     std::vector<std::vector<std::uint16_t>> const& rows,
                                     std::uint32_t stride = default_sidecar_stride,
                                     bool with_sidecar    = true)
{
  auto col = column_from_codes(kind, make_dictionary(extra), rows, stride);  // generators.hpp
  if (!with_sidecar) col.sidecar.clear();
  return col;
}

/** Greedy longest-match encoding of `text` with dictionary `d` (every byte has a token). */
inline std::vector<std::uint16_t> greedy_encode(dictionary const& d, std::string_view text)
{
  std::unordered_map<std::string_view, std::uint16_t> index;
  std::size_t max_len = 1;
  for (std::size_t i = 0; i < d.size(); ++i) {
    index.emplace(d.token(i), static_cast<std::uint16_t>(i));
    if (d.length(i) > max_len) max_len = d.length(i);
  }
  std::vector<std::uint16_t> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t len = std::min(max_len, text.size() - pos);
    for (;; --len) {
      auto it = index.find(text.substr(pos, len));
      if (it != index.end()) {
        out.push_back(it->second);
        break;
      }
    }
    pos += len;
  }
  return out;
}

/** A column whose rows are `rows` greedily encoded with the 256 bytes + `extra` tokens. */
inline compressed_column make_text_column(codec kind, std::vector<std::string> const& extra,
                                          std::vector<std::string> const& rows,
                                          std::uint32_t stride = default_sidecar_stride,
                                          bool with_sidecar    = true)
{
  dictionary const d = make_dictionary(extra);
  std::vector<std::vector<std::uint16_t>> codes;
  codes.reserve(rows.size());
  for (auto const& r : rows) codes.push_back(greedy_encode(d, r));
  return make_column(kind, extra, codes, stride, with_sidecar);
}

}  // namespace fastpair::testing
