// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Predicates on the compressed form (predicates.hpp) against the CPU reference: decode with
// decode_reference, then compare bytes. Selection conversions, adversarial generated columns, the
// chunked (scan) evaluation, non-canonical parses, and every ../shared/data column (first 256 KB)
// with all three codecs. The data test FAILS, naming FASTPAIR_DATA_DIR, when the data is absent.
#include <fastpair/encode.hpp>
#include <fastpair/predicates.hpp>
#include <fastpair/reference.hpp>
#include <fastpair/validate.hpp>

#include <catch2/catch.hpp>

#include "utils/data.hpp"
#include "utils/generators.hpp"
#include "utils/predicates_check.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace {

using fastpair::codec;
using fastpair::like_kind;
namespace ft = fastpair::testing;

using ft::all_codecs;
using ft::all_kinds;
using ft::eager_column;
using ft::kind_name;
using ft::ref_like;
using ft::ref_mask;
using ft::show;

/** Checks every LIKE form of `p` (table, byte fallback, chunked) and equality against the rows. */
void check_pattern(fastpair::compressed_column const& col, fastpair::host_strings const& rows,
                   std::string_view p, bool thorough, bool small_chunks = true)
{
  INFO("pattern " << show(p));
  for (like_kind k : all_kinds) {
    INFO("LIKE " << kind_name(k));
    auto const want = ref_mask(rows, [&](std::string_view row) { return ref_like(k, row, p); });
    CHECK_MASK(fastpair::select_like(col, k, p), want);
    if (!thorough) continue;
    fastpair::like_matcher const table(col, k, p);
    fastpair::like_matcher const bytes(col, k, p, fastpair::like_options{0});
    CHECK(!bytes.has_table());
    CHECK_MASK(fastpair::select_like(col, table), want);
    CHECK_MASK(fastpair::select_like(col, bytes), want);
    for (std::uint64_t chunk : {1u, 5u, 64u, 768u}) {
      if (chunk < 64 && p.size() > (small_chunks ? 64u : 8u)) continue;  // S lookups per tail code: time
      INFO("chunk " << chunk);
      CHECK_MASK(fastpair::select_like_chunked(col, table, chunk), want);
    }
    CHECK_MASK(fastpair::select_like_chunked(col, bytes, small_chunks ? 3 : 100), want);
  }
  auto const want_eq = ref_mask(rows, [&](std::string_view row) { return row == p; });
  CHECK_MASK(fastpair::select_equal(col, p), want_eq);
  if (thorough) CHECK_MASK(fastpair::select_equal_bytes(col, p), want_eq);
}

/** Rows that stress the automata: periodic and self-overlapping text (KMP failure links), NUL and
 *  0xFF bytes, multi-byte UTF-8, empty rows, rows far longer than a chunk. */
fastpair::host_strings adversarial_rows(std::uint64_t seed)
{
  ft::rng r(seed);
  fastpair::host_strings rows;
  std::string const atoms[] = {"a", "b", "ab", "aab", "aba", std::string("\0", 1), "\xff",
                               std::string("\0\xff", 2), "\xc3\xa9" /* é */, "\xe6\x97\xa5\xe6\x9c\xac" /* 日本 */,
                               "\xf0\x9f\x98\x80" /* emoji */, "abab", "aaaa", "x"};
  for (int i = 0; i < 360; ++i) {
    std::uint64_t const kind = r.below(10);
    std::string s;
    if (kind == 0) {  // empty row
    } else if (kind <= 2) {  // periodic
      std::string const unit = atoms[r.below(5)] + atoms[r.below(3)];
      std::uint64_t const reps = 1 + r.below(12);
      for (std::uint64_t k = 0; k < reps; ++k) s += unit;
      if (r.below(2)) s += atoms[r.below(14)];
    } else {
      std::uint64_t const n = r.below(25);
      for (std::uint64_t k = 0; k < n; ++k) s += atoms[r.below(14)];
    }
    rows.push_back(s);
  }
  // A few rows much longer than any chunk and than the 16-byte tokens.
  for (int i = 0; i < 4; ++i) {
    std::string s;
    while (s.size() < 3000) s += atoms[r.below(i < 2 ? 3 : 14)];
    rows.push_back(s);
  }
  rows.push_back(std::string(1, '\0'));
  rows.push_back("\xff\xff\xff\xff");
  rows.push_back("");
  return rows;
}

std::vector<std::string> adversarial_patterns(fastpair::host_strings const& rows, std::uint64_t seed)
{
  ft::rng r(seed);
  std::set<std::string> pats = {"", "a", "b", "ab", "ba", "aab", "abab", "ababa", "aaaa", "aaaaa",
                                "abaab", "ababab", "abababab", std::string("\0", 1),
                                std::string("\0\0", 2), "\xff", std::string("\xff\0", 2),
                                "\xc3\xa9", "\xc3", "\xa9", "\xe6\x97\xa5", "\xf0\x9f\x98\x80\xf0\x9f\x98\x80",
                                "zzz", "x", "xx"};
  std::size_t longest = 0;
  for (std::size_t i = 0; i < rows.num_rows(); ++i) longest = std::max(longest, rows.row(i).size());
  pats.insert(std::string(longest + 1, 'a'));
  for (int i = 0; i < 50; ++i) {
    std::string_view row = rows.row(r.below(rows.num_rows()));
    if (row.empty()) continue;
    std::uint64_t const pos = r.below(row.size());
    std::uint64_t const len = std::min<std::uint64_t>(1 + r.below(i < 40 ? 10 : 40), row.size() - pos);
    pats.insert(std::string(row.substr(pos, len)));  // substring
    if (i % 3 == 0) pats.insert(std::string(row));   // whole row
    if (i % 3 == 1) pats.insert(std::string(row.substr(0, 1 + r.below(row.size()))));  // prefix
  }
  return {pats.begin(), pats.end()};
}

}  // namespace

// -------------------------------------------------------------------------------------------------
// Selections
// -------------------------------------------------------------------------------------------------

TEST_CASE("selections: conversions between row ids, bitmask and ranges round trip", "[predicates]")
{
  ft::rng r(7);
  for (std::uint64_t n : {0u, 1u, 2u, 63u, 64u, 65u, 127u, 128u, 1000u, 4099u}) {
    for (double density : {0.0, 0.01, 0.3, 0.5, 0.97, 1.0}) {
      INFO("rows " << n << " density " << density);
      // Runs of random length so that all-ones words and word-crossing runs occur.
      fastpair::selection ids;
      bool on = false;
      for (std::uint64_t row = 0; row < n; ++row) {
        if (r.below(8) == 0) on = r.uniform() < density;
        if (density == 1.0) on = true;
        if (density == 0.0) on = false;
        if (on || (density > 0 && density < 1 && r.uniform() < density / 10)) ids.rows.push_back(row);
      }
      REQUIRE(fastpair::is_valid(ids, n));
      auto const mask   = fastpair::to_bitmask(ids, n);
      auto const ranges = fastpair::to_ranges(ids);
      CHECK(fastpair::is_valid(mask));
      CHECK(fastpair::is_valid(ranges, n));
      CHECK(mask.count() == ids.rows.size());
      CHECK(fastpair::count(ranges) == ids.rows.size());
      CHECK(fastpair::to_rows(mask) == ids);
      CHECK(fastpair::to_rows(ranges, n) == ids);
      CHECK(fastpair::to_ranges(mask) == ranges);
      CHECK(fastpair::to_bitmask(ranges, n) == mask);
      for (std::uint64_t row : ids.rows) CHECK(mask.test(row));
      // Canonical: non-empty, strictly separated runs.
      for (std::size_t i = 0; i < ranges.ranges.size(); ++i) {
        CHECK(ranges.ranges[i].first < ranges.ranges[i].second);
        if (i) CHECK(ranges.ranges[i - 1].second < ranges.ranges[i].first);
      }
      if (density == 1.0) {
        CHECK(ids.rows.size() == n);
        CHECK(ranges.ranges.size() == (n ? 1u : 0u));
      }
    }
  }
}

TEST_CASE("selections: invalid inputs are rejected, non-canonical ranges are accepted", "[predicates]")
{
  CHECK_THROWS_AS(fastpair::to_bitmask(fastpair::selection{{3, 2}}, 10), fastpair::logic_error);
  CHECK_THROWS_AS(fastpair::to_bitmask(fastpair::selection{{2, 2}}, 10), fastpair::logic_error);
  CHECK_THROWS_AS(fastpair::to_bitmask(fastpair::selection{{10}}, 10), fastpair::logic_error);
  CHECK_THROWS_AS(fastpair::to_ranges(fastpair::selection{{5, 1}}), fastpair::logic_error);
  fastpair::selection_bitmask bad(70);
  bad.words[1] |= std::uint64_t{1} << 10;  // row 74 >= 70
  CHECK_FALSE(fastpair::is_valid(bad));
  CHECK_THROWS_AS(fastpair::to_rows(bad), fastpair::logic_error);
  CHECK_THROWS_AS(fastpair::to_bitmask(fastpair::selection_ranges{{{0, 5}, {4, 6}}}, 10), fastpair::logic_error);
  CHECK_THROWS_AS(fastpair::to_bitmask(fastpair::selection_ranges{{{0, 11}}}, 10), fastpair::logic_error);
  // Empty and adjacent runs are valid input; canonical() merges them.
  fastpair::selection_ranges const loose{{{0, 2}, {2, 2}, {2, 4}, {6, 6}, {7, 9}}};
  auto const canon = fastpair::canonical(loose, 10);
  CHECK(canon == fastpair::selection_ranges{{{0, 4}, {7, 9}}});
  CHECK(fastpair::to_bitmask(loose, 10) == fastpair::to_bitmask(canon, 10));
  CHECK(fastpair::to_ranges(fastpair::to_bitmask(loose, 10)) == canon);
  CHECK(fastpair::to_rows(loose, 10) == fastpair::selection{{0, 1, 2, 3, 7, 8}});
}

// -------------------------------------------------------------------------------------------------
// Predicates on generated columns
// -------------------------------------------------------------------------------------------------

TEST_CASE("predicates: adversarial columns, every codec, against decode-then-compare", "[predicates]")
{
  fastpair::host_strings const rows = adversarial_rows(11);
  auto const pats                   = adversarial_patterns(rows, 12);
  for (codec kind : all_codecs) {
    INFO("codec " << fastpair::codec_name(kind));
    auto const col = eager_column(rows, kind);
    REQUIRE_NOTHROW(fastpair::validate(col));
    REQUIRE(fastpair::decode_reference(col) == rows);
    CHECK(fastpair::has_canonical_parse(col));
    for (std::string const& p : pats) check_pattern(col, rows, p, true);

    // IN-lists: whole rows, duplicates, absent values and "" together; then the empty list.
    std::vector<std::string_view> in;
    for (std::size_t r = 0; r < rows.num_rows(); r += 37) in.push_back(rows.row(r));
    in.push_back(rows.row(5));
    in.push_back("absent\x01");
    in.push_back("");
    std::set<std::string_view> const want_set(in.begin(), in.end());
    CHECK_MASK(fastpair::select_in(col, in),
               ref_mask(rows, [&](std::string_view row) { return want_set.count(row) > 0; }));
    CHECK(fastpair::select_in(col, {}).count() == 0);
  }
}

TEST_CASE("predicates: prefix sets (one automaton) equal the OR of the prefixes, with and without a table",
          "[predicates]")
{
  fastpair::host_strings const rows = adversarial_rows(13);
  auto const pats                   = adversarial_patterns(rows, 14);
  fastpair::like_options no_table;
  no_table.max_table_bytes = 0;
  for (codec kind : all_codecs) {
    INFO("codec " << fastpair::codec_name(kind));
    auto const col = eager_column(rows, kind);
    for (auto const& set : ft::prefix_sets(pats)) {
      INFO("prefix set of " << set.size() << (set.empty() ? "" : ", first " + show(set.front())));
      std::vector<std::string_view> views(set.begin(), set.end());
      auto const want = ref_mask(rows, [&](std::string_view row) { return ft::ref_prefix_in(set, row); });
      CHECK_MASK(fastpair::select_prefix_in(col, views), want);
      CHECK_MASK(fastpair::select_prefix_in(col, views, no_table), want);
    }
    fastpair::like_prefix_set const q22(col.dict, {"13", "31", "23", "29", "30", "18", "17"});
    CHECK(q22.num_states() == 6);  // root, '1', '2', '3', accept, dead
    CHECK(q22.min_bytes() == 2);
    CHECK(q22.has_table());
    CHECK_FALSE(fastpair::like_prefix_set(col.dict, {"13"}, no_table).has_table());
  }
}

namespace {

/** SQL LIKE with '%' as the only wildcard, on raw bytes (the two-pointer glob match). */
bool ref_like_pattern(std::string_view row, std::string_view pat)
{
  std::size_t i = 0, j = 0, star = std::string_view::npos, mark = 0;
  while (i < row.size()) {
    if (j < pat.size() && pat[j] != '%' && pat[j] == row[i]) {
      ++i, ++j;
    } else if (j < pat.size() && pat[j] == '%') {
      star = j++;
      mark = i;
    } else if (star != std::string_view::npos) {
      j = star + 1;
      i = ++mark;
    } else {
      return false;
    }
  }
  while (j < pat.size() && pat[j] == '%') ++j;
  return j == pat.size();
}

}  // namespace

TEST_CASE("predicates: LIKE patterns of several %-separated parts, every codec, against a byte LIKE",
          "[predicates]")
{
  fastpair::host_strings const rows = adversarial_rows(21);
  // Fixed shapes (anchors, empty parts, overlapping and repeated parts, bytes 0x00 / 0xFF, UTF-8)
  // and random ones cut from the rows.
  std::set<std::string> pats = {"", "%", "%%", "a", "a%", "%a", "%a%", "a%a", "a%b", "%ab%ab%", "%aab%aba",
                                "aba%", "ab%%ba", "%a%a%a%a%", "%abab%abab%", "%aa%aa", "a%%", "%%a",
                                std::string("%\0%\xff%", 5), "%\xc3\xa9%\xe6\x97\xa5%", "%zzz%a%", "x%x%x"};
  ft::rng r(22);
  for (int i = 0; i < 60; ++i) {
    std::string_view row = rows.row(r.below(rows.num_rows()));
    std::string p        = r.below(2) ? "%" : "";
    for (std::uint64_t k = 0, parts = 1 + r.below(3); k < parts && !row.empty(); ++k) {
      std::uint64_t const pos = r.below(row.size()), len = std::min<std::uint64_t>(1 + r.below(6), row.size() - pos);
      p += std::string(row.substr(pos, len)) + (k + 1 < parts ? "%" : "");
      row = row.substr(pos + len);
    }
    if (r.below(2)) p += "%";
    if (p.find('_') == std::string::npos && p.find('\\') == std::string::npos) pats.insert(p);
  }
  for (codec kind : all_codecs) {
    INFO("codec " << fastpair::codec_name(kind));
    auto const col = eager_column(rows, kind);
    for (std::string const& p : pats) {
      INFO("pattern " << show(p));
      auto const want = ref_mask(rows, [&](std::string_view row) { return ref_like_pattern(row, p); });
      CHECK_MASK(fastpair::select_like_pattern(col, p), want);
      fastpair::like_pattern const bytes(col.dict, p, fastpair::like_options{0});
      CHECK(!bytes.has_table());
      fastpair::selection_bitmask got(col.num_rows());
      for (std::uint64_t row = 0; row < col.num_rows(); ++row)
        if (bytes.row_matches(col, row)) got.set(row);
      CHECK_MASK(got, want);
    }
    // The one-part forms agree with like_matcher's.
    CHECK(fastpair::select_like_pattern(col, "%ab%") == fastpair::select_substring(col, "ab"));
    CHECK(fastpair::select_like_pattern(col, "ab%") == fastpair::select_prefix(col, "ab"));
    CHECK(fastpair::select_like_pattern(col, "%ab") == fastpair::select_suffix(col, "ab"));
    CHECK(fastpair::select_like_pattern(col, "ab") == fastpair::select_equal(col, "ab"));
  }
  auto const col = eager_column(rows, codec::onpair12);
  CHECK_THROWS_AS(fastpair::select_like_pattern(col, "a_b"), fastpair::logic_error);
  CHECK_THROWS_AS(fastpair::select_like_pattern(col, "a\\%b"), fastpair::logic_error);
}

TEST_CASE("predicates: a literal's codes are the codes of every row equal to it", "[predicates]")
{
  // The subtlety behind equality on codes: rows are parsed independently from their start by a
  // function of their own bytes only, so parsing a row alone gives the codes it has in the column.
  fastpair::host_strings const rows = adversarial_rows(21);
  for (codec kind : all_codecs) {
    INFO("codec " << fastpair::codec_name(kind));
    auto const col   = eager_column(rows, kind);
    auto const codes = fastpair::unpack_codes(col);
    std::vector<std::string_view> lits;
    for (std::size_t r = 0; r < rows.num_rows(); ++r) lits.push_back(rows.row(r));
    auto const enc = fastpair::encode_literals(col, lits);
    for (std::size_t r = 0; r < rows.num_rows(); ++r) {
      INFO("row " << r << " " << show(rows.row(r)));
      std::vector<std::uint16_t> const row_codes(codes.begin() + static_cast<std::ptrdiff_t>(col.row_code_offsets[r]),
                                                 codes.begin() + static_cast<std::ptrdiff_t>(col.row_code_offsets[r + 1]));
      CHECK(enc[r].codes == row_codes);
      CHECK(enc[r].bytes == rows.row(r).size());
      CHECK(fastpair::row_equals(col, r, enc[r]));
      // Alone, not in a batch with the others.
      CHECK(fastpair::encode_literal(col, rows.row(r)) == enc[r]);
    }
  }
}

TEST_CASE("predicates: empty column and all-empty rows", "[predicates]")
{
  fastpair::host_strings none;
  fastpair::host_strings empties;
  for (int i = 0; i < 5; ++i) empties.push_back("");
  fastpair::host_strings some;
  some.push_back("abc");
  for (codec kind : all_codecs) {
    INFO("codec " << fastpair::codec_name(kind));
    auto const dict = fastpair::train(some, kind);
    for (auto const* rows : {&none, &empties}) {
      auto const col = fastpair::encode(*rows, kind, dict);
      for (std::string_view p : {std::string_view{}, std::string_view{"a"}}) {
        for (like_kind k : all_kinds) {
          auto const want = ref_mask(*rows, [&](std::string_view row) { return ref_like(k, row, p); });
          fastpair::like_matcher const lm(col, k, p);
          CHECK_MASK(fastpair::select_like(col, k, p), want);
          CHECK_MASK(fastpair::select_like_chunked(col, lm, 4), want);
        }
        CHECK_MASK(fastpair::select_equal(col, p),
                   ref_mask(*rows, [&](std::string_view row) { return row == p; }));
      }
      CHECK(fastpair::select_in(col, {"", "x"}).count() == rows->num_rows());
    }
  }
}

TEST_CASE("predicates: composed state maps equal the sequential walk (scan split)", "[predicates]")
{
  fastpair::host_strings const rows = adversarial_rows(31);
  ft::rng rng(32);
  for (codec kind : {codec::onpair16, codec::fsst12}) {
    INFO("codec " << fastpair::codec_name(kind));
    auto const col = eager_column(rows, kind);
    for (std::string_view p : {"ab", "abab", "aab", "a\xc3\xa9"}) {
      for (like_kind k : all_kinds) {
        INFO("LIKE " << kind_name(k) << " " << show(p));
        fastpair::like_matcher const lm(col, k, p);
        std::uint32_t const S = lm.num_states();
        for (std::size_t r = 0; r < rows.num_rows(); ++r) {
          std::uint64_t const c0 = col.row_code_offsets[r], c1 = col.row_code_offsets[r + 1];
          if (c1 - c0 < 2) continue;
          // Sequential, without early exit: one step per code.
          std::uint32_t seq = lm.start();
          for (std::uint64_t j = c0; j < c1; ++j) seq = lm.step(seq, fastpair::code_at(col.kind, col.codes.data(), j));
          // Cut the row into pieces at random points; one map per piece.
          std::vector<std::uint64_t> cuts = {c0, c1};
          for (int i = 0; i < 4; ++i) cuts.push_back(c0 + rng.below(c1 - c0));
          std::sort(cuts.begin(), cuts.end());
          std::vector<fastpair::state_map> maps;
          for (std::size_t i = 0; i + 1 < cuts.size(); ++i) maps.push_back(fastpair::codes_map(lm, col, cuts[i], cuts[i + 1]));
          // Left fold and a pairwise tree reduction (the order a parallel scan uses) agree.
          fastpair::state_map left = fastpair::identity_map(S);
          for (auto const& f : maps) left = fastpair::compose(left, f);
          std::vector<fastpair::state_map> level = maps;
          while (level.size() > 1) {
            std::vector<fastpair::state_map> next;
            for (std::size_t i = 0; i + 1 < level.size(); i += 2) next.push_back(fastpair::compose(level[i], level[i + 1]));
            if (level.size() & 1) next.push_back(level.back());
            level = std::move(next);
          }
          REQUIRE(left == level.front());
          CHECK(left == fastpair::codes_map(lm, col, c0, c1));
          CHECK(left.to[lm.start()] == seq);
          CHECK((seq == lm.accept()) == ref_like(k, rows.row(r), p));
        }
      }
    }
  }
}

TEST_CASE("predicates: a column not parsed by encode() needs select_equal_bytes", "[predicates]")
{
  // Dictionary with "ab"; the row "ab" stored as 'a','b' (not the greedy parse).
  fastpair::dictionary dict;
  for (int b = 0; b < 256; ++b) dict.push_back(std::string(1, static_cast<char>(b)));
  dict.push_back("ab");
  dict.push_back("abc");
  std::uint16_t const a = 'a', b = 'b', c = 'c', ab = 256, abc = 257;
  auto const col = ft::column_from_codes(codec::onpair12, dict, {{a, b}, {ab}, {ab, c}, {abc}, {}});
  REQUIRE_NOTHROW(fastpair::validate(col));
  auto const rows = fastpair::decode_reference(col);
  CHECK_FALSE(fastpair::has_canonical_parse(col));
  auto const want = ref_mask(rows, [](std::string_view row) { return row == "ab"; });
  CHECK_MASK(fastpair::select_equal_bytes(col, "ab"), want);
  CHECK(fastpair::select_equal(col, "ab") == fastpair::to_bitmask(fastpair::selection{{1}}, 5));  // misses row 0
  CHECK(fastpair::select_equal_bytes(col, "abc").count() == 2);
  // LIKE works on any parse: the automaton sees bytes.
  for (like_kind k : all_kinds)
    for (std::string_view p : {"ab", "abc", "bc", "b", ""})
      CHECK_MASK(fastpair::select_like(col, k, p), ref_mask(rows, [&](std::string_view row) { return ref_like(k, row, p); }));
}

TEST_CASE("predicates: token table memory cap and sizes", "[predicates]")
{
  fastpair::host_strings rows;
  for (int i = 0; i < 200; ++i) rows.push_back(std::string(static_cast<std::size_t>(i % 50), 'a') + "needle" + std::to_string(i));
  auto const col = fastpair::compress(rows, codec::onpair16);
  std::uint64_t const N = col.dict.size();
  fastpair::like_matcher const sub(col, like_kind::substring, "needle1");
  CHECK(sub.num_states() == 8);
  CHECK(sub.has_table());
  CHECK(sub.table_bytes() == N * 8 * 2);
  fastpair::like_matcher const pre(col, like_kind::prefix, "needle1");
  CHECK(pre.num_states() == 9);
  // Below the cap: byte fallback, same answers.
  fastpair::like_options small;
  small.max_table_bytes = N * 8 * 2 - 1;
  fastpair::like_matcher const capped(col, like_kind::substring, "needle1", small);
  CHECK_FALSE(capped.has_table());
  CHECK(fastpair::select_like(col, capped) == fastpair::select_like(col, sub));
  CHECK(fastpair::select_like(col, sub).count() == 111);  // needle1, needle10..19, needle100..199
}

// -------------------------------------------------------------------------------------------------
// Every shared data column
// -------------------------------------------------------------------------------------------------

TEST_CASE("predicates: every shared data column, every codec, against decode-then-compare",
          "[predicates][data]")
{
  constexpr std::size_t max_bytes = std::size_t{256} << 10;
  for (std::string const& name : ft::shared_columns()) {
    INFO("column " << name << " in " << ft::data_dir().string());
    fastpair::host_strings const rows = ft::load_shared_column(name, max_bytes);
    REQUIRE(rows.num_rows() > 0);
    std::size_t longest = 0;
    for (std::size_t r = 0; r < rows.num_rows(); ++r) longest = std::max(longest, rows.row(r).size());

    // Literals and patterns from the rows themselves, plus absent, empty, too long, UTF-8, NUL.
    ft::rng rng(std::hash<std::string>{}(name));
    std::vector<std::string> whole, pats;
    for (int i = 0; i < 6; ++i) whole.emplace_back(rows.row(rng.below(rows.num_rows())));
    for (int i = 0; i < 10; ++i) {
      std::string_view row = rows.row(rng.below(rows.num_rows()));
      if (row.empty()) continue;
      std::uint64_t const len = std::min<std::uint64_t>(row.size(), std::uint64_t{1} << rng.below(6));
      pats.emplace_back(row.substr(0, len));                                          // prefix
      std::uint64_t const pos = rng.below(row.size());
      pats.emplace_back(row.substr(pos, std::min<std::uint64_t>(1 + rng.below(12), row.size() - pos)));  // substring
      if (i < 4) pats.emplace_back(row.substr(row.size() - std::min<std::uint64_t>(row.size(), 1 + rng.below(8))));  // suffix
    }
    pats.insert(pats.end(), whole.begin(), whole.end());
    for (std::string p : {std::string(), std::string("\x01\x02 absent \xfe"), std::string(longest + 1, 'e'),
                          std::string("\xc3\xa9"), std::string("\xe7\x9a\x84") /* 的 */, std::string("\xe2\x82\xac") /* € */,
                          std::string("\xe2\x82"), std::string("\0", 1), std::string("\xff"), std::string("the"),
                          std::string(" "), std::string("e")})
      pats.push_back(p);

    for (codec kind : all_codecs) {
      INFO("codec " << fastpair::codec_name(kind));
      auto const col = fastpair::compress(rows, kind);
      REQUIRE(fastpair::decode_reference(col) == rows);  // the oracle's input is the decoded column
      for (std::size_t i = 0; i < pats.size(); ++i) check_pattern(col, rows, pats[i], i % 6 == 0, false);

      // Literal parse == row parse for sampled rows.
      for (std::string const& w : whole) {
        auto const lit = fastpair::encode_literal(col, w);
        for (std::size_t r = 0; r < rows.num_rows(); ++r)
          if (rows.row(r) == w) {
            CHECK(fastpair::row_equals(col, r, lit));
            break;
          }
      }
      std::vector<std::string_view> in(whole.begin(), whole.end());
      in.push_back("\x01 absent");
      in.push_back(whole.front());
      std::set<std::string_view> const want_set(in.begin(), in.end());
      CHECK_MASK(fastpair::select_in(col, in),
                 ref_mask(rows, [&](std::string_view row) { return want_set.count(row) > 0; }));
    }
  }
}
