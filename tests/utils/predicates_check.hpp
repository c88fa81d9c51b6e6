// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the predicate tests (host: tests/host/predicates_test.cpp, GPU:
// tests/gpu/predicates_gpu_test.cu): decode-then-compare reference bitmasks, readable patterns and
// bitmask differences for failure messages, CHECK_MASK, and eagerly trained columns. Host-only C++, so that both the C++ and
// the CUDA tests include it.
#pragma once

#include <fastpair/encode.hpp>
#include <fastpair/format.hpp>
#include <fastpair/predicates.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fastpair::testing {

inline constexpr codec all_codecs[]    = {codec::onpair16, codec::onpair12, codec::fsst12};
inline constexpr like_kind all_kinds[] = {like_kind::prefix, like_kind::substring, like_kind::suffix};

inline char const* kind_name(like_kind k)
{
  switch (k) {
    case like_kind::prefix: return "prefix";
    case like_kind::substring: return "substring";
    case like_kind::suffix: return "suffix";
  }
  return "?";
}

/** Printable form of a pattern for failure messages (non-printable bytes as \xHH). */
inline std::string show(std::string_view s)
{
  static char const hex[] = "0123456789abcdef";
  std::string out = "\"";
  for (unsigned char c : s.substr(0, 80)) {
    if (c >= 0x20 && c < 0x7f && c != '\\') out += static_cast<char>(c);
    else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  if (s.size() > 80) out += "...";
  return out + "\" (" + std::to_string(s.size()) + " B)";
}

/** `row LIKE p` of kind `k`, on the bytes. */
inline bool ref_like(like_kind k, std::string_view row, std::string_view p)
{
  switch (k) {
    case like_kind::prefix: return row.size() >= p.size() && row.substr(0, p.size()) == p;
    case like_kind::substring: return row.find(p) != std::string_view::npos;
    case like_kind::suffix: return row.size() >= p.size() && row.substr(row.size() - p.size()) == p;
  }
  return false;
}

/** Decode-then-compare on the host rows: bit r set iff pred(row r). */
template <class Pred>
selection_bitmask ref_mask(host_strings const& rows, Pred&& pred)
{
  selection_bitmask m(rows.num_rows());
  for (std::size_t r = 0; r < rows.num_rows(); ++r)
    if (pred(rows.row(r))) m.set(r);
  return m;
}

/** The first difference of two bitmasks, for messages. */
inline std::string first_diff(selection_bitmask const& got, selection_bitmask const& want)
{
  if (got.num_rows != want.num_rows || got.words.size() != want.words.size()) return "sizes differ";
  for (std::uint64_t r = 0; r < got.num_rows; ++r)
    if (got.test(r) != want.test(r))
      return "row " + std::to_string(r) + ": got " + (got.test(r) ? "1" : "0") + ", want " + (want.test(r) ? "1" : "0");
  return "bits past num_rows";
}

/** Prefix sets for like_prefix_set: none, the empty prefix, a prefix with its extensions in either
 *  order, groups of `pats`, and the same groups cut to 2 bytes (the shape of TPC-H Q22). */
inline std::vector<std::vector<std::string>> prefix_sets(std::vector<std::string> const& pats)
{
  std::vector<std::vector<std::string>> sets = {{}, {""}, {"a", ""}, {"a", "ab", "abc"}, {"abc", "ab"}, {"\xff", "\xc3"}};
  for (std::size_t i = 0; i + 1 < pats.size(); i += 2) {
    sets.push_back({pats.begin() + i, pats.begin() + std::min(pats.size(), i + 1 + i % 7)});
    std::vector<std::string> two;
    for (std::size_t k = i; k < std::min(pats.size(), i + 7); ++k) two.push_back(pats[k].substr(0, 2));
    sets.push_back(two);
  }
  return sets;
}

/** `row` starts with one of `set`, on the bytes. */
inline bool ref_prefix_in(std::vector<std::string> const& set, std::string_view row)
{
  for (auto const& p : set)
    if (ref_like(like_kind::prefix, row, p)) return true;
  return false;
}

/** A column whose dictionary has many overlapping tokens (hard for the automata): OnPair trained
 *  on every row to merge eagerly; FSST-12 as trained. */
inline compressed_column eager_column(host_strings const& rows, codec kind)
{
  train_options opt;
  opt.sample_fraction        = 1.0;
  opt.onpair_fixed_threshold = kind == codec::fsst12 ? 0 : 2;
  return encode(rows, kind, train(rows, kind, opt));
}

}  // namespace fastpair::testing

/** CHECKs two selection_bitmasks equal, naming their first difference. */
#define CHECK_MASK(got, want)                                                \
  do {                                                                       \
    auto const& g_ = (got);                                                  \
    auto const& w_ = (want);                                                 \
    INFO("first difference: " << ::fastpair::testing::first_diff(g_, w_));   \
    CHECK(g_ == w_);                                                         \
  } while (0)
