// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// GPU predicates (predicates.cuh) against their host reference (predicates.hpp) and against
// decode-then-compare on the rows: every shared column x codec with literals and patterns taken
// from the rows, absent, empty, longer than any row and multi-byte UTF-8; generated columns that
// stress the automata (periodic text, very long rows for the warp path, empty rows, no rows).
// The output words are poisoned first, so every word must be written and tail bits cleared.
#include "utils/data.hpp"
#include "utils/generators.hpp"
#include "utils/predicates_check.hpp"
#include "utils/shard.hpp"

#include <fastpair/encode.hpp>
#include <fastpair/fastpair.cuh>
#include <fastpair/predicates.cuh>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ft = fastpair::testing;
using fastpair::codec;
using fastpair::like_kind;

namespace {

using ft::all_codecs;
using ft::all_kinds;
using ft::eager_column;
using ft::kind_name;
using ft::ref_like;
using ft::ref_mask;
using ft::show;

/** device_column::prepare with the row offsets accelerator, which selective decode and the
 *  predicates read (prepare_options::row_offsets; they throw logic_error without it). */
inline fastpair::device_column prepare_with_offsets(fastpair::compressed_column const& col,
                                                    fastpair::prepare_options opt = {})
{
  opt.row_offsets = true;
  return fastpair::device_column::prepare(col, {}, opt);
}

/** Runs `eval(words, stream)` into a poisoned buffer and returns the mask it wrote. */
template <class Eval>
fastpair::selection_bitmask gpu_mask(std::uint64_t num_rows, Eval&& eval)
{
  fastpair::selection_bitmask m(num_rows);
  std::size_t const n = m.words.size();
  fastpair::device_buffer<std::uint64_t> words(n + 1, {});  // +1 word: must stay poisoned
  FASTPAIR_CUDA_TRY(cudaMemset(words.data(), 0xA5, (n + 1) * sizeof(std::uint64_t)));
  fastpair::device_bitmask const out = eval(words.data(), cudaStream_t{nullptr});
  CHECK(out.num_rows == num_rows);
  std::vector<std::uint64_t> h(n + 1);
  FASTPAIR_CUDA_TRY(cudaMemcpy(h.data(), words.data(), h.size() * sizeof(std::uint64_t), cudaMemcpyDeviceToHost));
  CHECK(h[n] == 0xA5A5A5A5A5A5A5A5ull);
  std::copy(h.begin(), h.begin() + static_cast<std::ptrdiff_t>(n), m.words.begin());
  return m;
}

/** LIKE patterns of several '%'-separated parts built from `p` (device_like_predicate::
 *  prepare_pattern) against the host's select_like_pattern, which is checked against a glob. */
void check_like_patterns(fastpair::compressed_column const& col, fastpair::device_column const& dcol,
                         fastpair::host_strings const& rows, std::string const& p, std::size_t longest)
{
  if (p.find_first_of("_\\%") != std::string::npos) return;  // like_pattern refuses '_' and escapes
  std::size_t const h = p.size() / 2;
  std::string const a = p.substr(0, h), b = p.substr(h);
  for (std::string const& pat : {"%" + a + "%" + b + "%", a + "%" + b, "%" + a + "%" + b, a + "%" + b + "%",
                                 "%" + p + "%" + p + "%", p, std::string("%"), std::string("%%"), "%" + p + "%%"}) {
    INFO("LIKE pattern " << show(pat));
    fastpair::like_pattern const lp(col.dict, pat);
    if (!lp.has_table() && lp.min_bytes() <= longest) continue;  // the GPU needs the table then (as for like_kind)
    auto const got = gpu_mask(rows.num_rows(), [&](std::uint64_t* w, cudaStream_t s) {
      return fastpair::select_like_pattern(dcol, col, pat, w, s);
    });
    CHECK_MASK(got, fastpair::select_like_pattern(col, pat));
  }
}

/** Every GPU predicate for `p` against predicates.hpp and decode-then-compare. */
void check_pattern(fastpair::compressed_column const& col, fastpair::device_column const& dcol,
                   fastpair::host_strings const& rows, std::string const& p)
{
  INFO("pattern " << show(p));
  std::uint64_t const R = rows.num_rows();
  // Without a token table (OnPair-16 and a pattern of hundreds of bytes) the GPU evaluates LIKE
  // only when the pattern is longer than every row; that case is tested on its own below.
  std::size_t longest = 0;
  for (std::size_t r = 0; r < R; ++r) longest = std::max(longest, rows.row(r).size());
  std::size_t const states = p.size() + 2;  // the most any kind needs (prefix)
  bool const gpu_like = p.size() > longest || (states <= 0xFFFF && col.dict.size() * states * 2 <= fastpair::like_options{}.max_table_bytes);
  for (like_kind k : all_kinds) {
    if (!gpu_like) break;
    INFO("LIKE " << kind_name(k));
    auto const want = ref_mask(rows, [&](std::string_view row) { return ref_like(k, row, p); });
    auto const got  = gpu_mask(R, [&](std::uint64_t* w, cudaStream_t s) {
      return fastpair::select_like(dcol, col, k, p, w, s);
    });
    CHECK_MASK(got, want);
    CHECK_MASK(got, fastpair::select_like(col, k, p));
  }
  check_like_patterns(col, dcol, rows, p, longest);
  auto const want_eq = ref_mask(rows, [&](std::string_view row) { return row == p; });
  auto const got_eq  = gpu_mask(R, [&](std::uint64_t* w, cudaStream_t s) { return fastpair::select_equal(dcol, col, p, w, s); });
  CHECK_MASK(got_eq, want_eq);
  CHECK_MASK(got_eq, fastpair::select_equal(col, p));
}

/** IN-lists: several literals (duplicates, absent, empty) and the empty list. */
void check_in(fastpair::compressed_column const& col, fastpair::device_column const& dcol,
              fastpair::host_strings const& rows, std::vector<std::string> const& lits)
{
  std::vector<std::string_view> views(lits.begin(), lits.end());
  std::set<std::string_view> const set(views.begin(), views.end());
  auto const want = ref_mask(rows, [&](std::string_view row) { return set.count(row) > 0; });
  auto const got  = gpu_mask(rows.num_rows(), [&](std::uint64_t* w, cudaStream_t s) {
    return fastpair::select_in(dcol, col, views, w, s);
  });
  CHECK_MASK(got, want);
  CHECK_MASK(got, fastpair::select_in(col, views));
  auto const none = gpu_mask(rows.num_rows(), [&](std::uint64_t* w, cudaStream_t s) {
    return fastpair::select_in(dcol, col, {}, w, s);
  });
  CHECK(none.count() == 0);
  CHECK(fastpair::is_valid(none));
}

/** Prefix sets (like_prefix_set, one automaton; ft::prefix_sets) against the OR of the prefixes on
 *  the bytes, on the GPU (prepare_prefixes) and the host (select_prefix_in). */
void check_prefix_sets(fastpair::compressed_column const& col, fastpair::device_column const& dcol,
                       fastpair::host_strings const& rows, std::vector<std::string> const& pats)
{
  std::size_t longest = 0;
  for (std::size_t r = 0; r < rows.num_rows(); ++r) longest = std::max(longest, rows.row(r).size());
  for (auto const& set : ft::prefix_sets(pats)) {
    std::string label;
    for (auto const& p : set) label += show(p) + " ";
    INFO("prefix set of " << set.size() << ": " << label);
    std::vector<std::string_view> views(set.begin(), set.end());
    auto const want = ref_mask(rows, [&](std::string_view row) { return ft::ref_prefix_in(set, row); });
    CHECK_MASK(fastpair::select_prefix_in(col, views), want);
    // Without a token table (a prefix of thousands of bytes: OnPair-16's table would be GBs) the GPU
    // evaluates only when every row is shorter than the shortest prefix, and says so otherwise.
    fastpair::like_prefix_set const ps(col.dict, views);
    if (!ps.has_table() && ps.min_bytes() <= longest) {
      fastpair::device_buffer<std::uint64_t> w((rows.num_rows() + 63) / 64 + 1, {});
      CHECK_THROWS_AS(fastpair::select_prefix_in(dcol, col, views, w.data()), fastpair::logic_error);
      continue;
    }
    auto const got = gpu_mask(rows.num_rows(), [&](std::uint64_t* w, cudaStream_t s) {
      return fastpair::select_prefix_in(dcol, col, views, w, s);
    });
    CHECK_MASK(got, want);
  }
}

/** Periodic and self-overlapping rows (KMP failure links), NUL / 0xFF, UTF-8, empty rows, and
 *  rows long enough for the warp path (> 64 codes, several 2 048-code windows). */
fastpair::host_strings adversarial_rows(std::uint64_t seed, std::size_t num_rows)
{
  ft::rng r(seed);
  std::string const atoms[] = {"a", "b", "ab", "aab", "aba", std::string("\0", 1), "\xff", "\xc3\xa9",
                               "\xe6\x97\xa5\xe6\x9c\xac", "\xf0\x9f\x98\x80", "abab", "aaaa", "x", "hello "};
  fastpair::host_strings rows;
  for (std::size_t i = 0; i < num_rows; ++i) {
    std::uint64_t const kind = r.below(12);
    std::string s;
    if (kind == 0) {
      // empty row
    } else if (kind <= 2) {
      std::string const unit = atoms[r.below(5)] + atoms[r.below(3)];
      for (std::uint64_t k = 1 + r.below(12); k > 0; --k) s += unit;
      if (r.below(2)) s += atoms[r.below(14)];
    } else if (kind == 3) {  // long: 200 .. 20 000 bytes
      std::size_t const len = 200 + r.below(20000);
      while (s.size() < len) s += atoms[r.below(i % 2 ? 3 : 14)];
    } else {
      for (std::uint64_t k = r.below(25); k > 0; --k) s += atoms[r.below(14)];
    }
    rows.push_back(s);
  }
  return rows;
}

std::vector<std::string> patterns_from(fastpair::host_strings const& rows, std::uint64_t seed, int samples)
{
  ft::rng r(seed);
  std::size_t longest = 0;
  for (std::size_t i = 0; i < rows.num_rows(); ++i) longest = std::max(longest, rows.row(i).size());
  std::set<std::string> pats = {"", "a", "ab", "aab", "abab", "ababab", "aaaaa", "abaab", std::string("\0", 1),
                                "\xff", "\xc3\xa9", "\xc3", "\xe6\x97\xa5", "\xf0\x9f\x98\x80\xf0\x9f\x98\x80",
                                "\x01\x02 absent \xfe", "the", " ", "e", "http", std::string(longest + 1, 'a'),
                                std::string(40, 'a')};
  for (int i = 0; i < samples && rows.num_rows() > 0; ++i) {
    std::string_view row = rows.row(r.below(rows.num_rows()));
    if (row.empty()) continue;
    std::uint64_t const pos = r.below(row.size());
    pats.insert(std::string(row.substr(pos, std::min<std::uint64_t>(1 + r.below(i % 4 ? 12 : 48), row.size() - pos))));
    if (i % 3 == 0) pats.insert(std::string(row));                                              // whole row
    if (i % 3 == 1) pats.insert(std::string(row.substr(0, 1 + r.below(row.size()))));           // prefix
    if (i % 3 == 2) pats.insert(std::string(row.substr(row.size() - 1 - r.below(row.size()))));  // suffix
  }
  return {pats.begin(), pats.end()};
}

}  // namespace

TEST_CASE("GPU predicates on every shared column and codec equal the host reference", "[gpu][predicates]")
{
  std::size_t const max_bytes = ft::test_source_bytes(std::size_t{256} << 10);  // sanitizer runs use less
  // FASTPAIR_TEST_PREDICATE_COLUMNS: comma-separated subset (the sanitizer runs use two columns).
  std::vector<std::string> names = ft::shared_columns();
  if (char const* e = std::getenv("FASTPAIR_TEST_PREDICATE_COLUMNS"); e && *e) {
    names.clear();
    std::string const list(e);
    for (std::size_t a = 0, b; a <= list.size(); a = b + 1) {
      b = std::min(list.find(',', a), list.size());
      if (b > a) names.push_back(list.substr(a, b - a));
    }
  }
  for (auto const& name : names) {
    INFO("column " << name);
    auto rows = ft::load_shared_column(name, max_bytes);
    REQUIRE(rows.num_rows() > 0);
    if (rows.num_rows() % 64 == 0) {  // keep a partial last word
      rows.offsets.pop_back();
      rows.chars.resize(rows.offsets.back());
    }
    auto const pats = patterns_from(rows, std::hash<std::string>{}(name), 10);
    ft::rng r(std::hash<std::string>{}(name) + 1);
    std::vector<std::string> lits = {"", "\x01 not in the column", "\xc3\xa9"};
    for (int i = 0; i < 8; ++i) lits.emplace_back(rows.row(r.below(rows.num_rows())));
    lits.push_back(lits.back());  // duplicate
    for (codec kind : all_codecs) {
      INFO("codec " << fastpair::codec_name(kind));
      auto const col  = fastpair::compress(rows, kind);
      auto const dcol = prepare_with_offsets(col);
      for (auto const& p : pats) check_pattern(col, dcol, rows, p);
      check_in(col, dcol, rows, lits);
      check_prefix_sets(col, dcol, rows, pats);
    }
  }
}

TEST_CASE("GPU predicates on adversarial columns (periodic text, long rows, empty rows)", "[gpu][predicates][sharded]")
{
  std::size_t item = 0;  // rows x codec: the [sharded] loop
  for (std::size_t num_rows : {1u, 63u, 64u, 65u, 777u}) {
    INFO("rows " << num_rows);
    auto const rows = adversarial_rows(num_rows * 7 + 3, num_rows);
    auto const pats = patterns_from(rows, num_rows, 24);
    for (codec kind : all_codecs) {
      if (!ft::in_test_shard(item++)) continue;
      INFO("codec " << fastpair::codec_name(kind));
      auto const col  = eager_column(rows, kind);
      auto const dcol = prepare_with_offsets(col);
      for (auto const& p : pats) check_pattern(col, dcol, rows, p);
      std::vector<std::string> lits(pats.begin(), pats.begin() + std::min<std::size_t>(10, pats.size()));
      lits.emplace_back(rows.row(0));
      check_in(col, dcol, rows, lits);
      check_prefix_sets(col, dcol, rows, pats);
    }
  }
}

TEST_CASE("GPU predicates: a very long row and matches at window and piece boundaries", "[gpu][predicates][large]")
{
  // One row of ~1 MB of periodic "ab" text (KMP states never merge on it) with markers planted at
  // offsets around the warp path's piece and window boundaries, between short rows.
  ft::rng r(5);
  fastpair::host_strings rows;
  rows.push_back("abc");
  std::string big;
  while (big.size() < (1u << 20)) big += r.below(8) ? "ab" : "aab";
  for (std::size_t at : {std::size_t{63}, std::size_t{64}, std::size_t{2047}, std::size_t{4096}, std::size_t{700001}})
    big.replace(at, 5, "Z#Z#Z");
  rows.push_back(big);
  rows.push_back("");
  rows.push_back(big.substr(0, 5000) + "tail!");
  rows.push_back("ab");
  for (codec kind : all_codecs) {
    INFO("codec " << fastpair::codec_name(kind));
    auto const col  = eager_column(rows, kind);
    auto const dcol = prepare_with_offsets(col);
    for (std::string const& p : std::vector<std::string>{"Z#Z#Z", "#Z#", "abab", "aabab", "babaab", "tail!", "l!",
                                                         "abc", "ab", "", big.substr(big.size() - 30), big.substr(0, 31),
                                                         "Z#Z#Zab"})
      check_pattern(col, dcol, rows, p);
  }
}

TEST_CASE("GPU predicates: empty column, all-empty rows, reuse and mismatched dictionaries", "[gpu][predicates]")
{
  fastpair::host_strings none, empties, some;
  for (int i = 0; i < 70; ++i) empties.push_back("");
  some.push_back("abc");
  some.push_back("abcabc");
  for (codec kind : all_codecs) {
    INFO("codec " << fastpair::codec_name(kind));
    auto const dict = fastpair::train(some, kind);
    for (auto const* rows : {&none, &empties, &some}) {
      auto const col  = fastpair::encode(*rows, kind, dict);
      auto const dcol = prepare_with_offsets(col);
      for (std::string p : {"", "a", "abc"}) check_pattern(col, dcol, *rows, p);
      check_in(col, dcol, *rows, {"", "x", "abc"});
    }
    // One prepared predicate, two columns with the same dictionary.
    auto const a  = fastpair::encode(some, kind, dict);
    auto const b  = fastpair::encode(empties, kind, dict);
    auto const da = prepare_with_offsets(a), db = prepare_with_offsets(b);
    auto const in   = fastpair::device_literal_set::prepare(a, {"abc", ""});
    auto const like = fastpair::device_like_predicate::prepare(a, like_kind::prefix, "abc");
    CHECK(like.has_table());
    CHECK(like.state_bytes() == 1);
    CHECK(like.table_bytes() == dict.size() * 5);
    CHECK(gpu_mask(2, [&](std::uint64_t* w, cudaStream_t s) { return in.evaluate(da, w, s); }).count() == 1);
    CHECK(gpu_mask(70, [&](std::uint64_t* w, cudaStream_t s) { return in.evaluate(db, w, s); }).count() == 70);
    CHECK(gpu_mask(2, [&](std::uint64_t* w, cudaStream_t s) { return like.evaluate(da, w, s); }).count() == 2);
    CHECK(gpu_mask(70, [&](std::uint64_t* w, cudaStream_t s) { return like.evaluate(db, w, s); }).count() == 0);
  }
  // A predicate compiled for another dictionary is refused.
  auto const c16 = fastpair::encode(some, codec::onpair16, fastpair::train(some, codec::onpair16));
  auto const c12 = fastpair::encode(some, codec::fsst12, fastpair::train(some, codec::fsst12));
  auto const d12 = prepare_with_offsets(c12);
  fastpair::device_buffer<std::uint64_t> w(1, {});
  CHECK_THROWS_AS(fastpair::select_equal(d12, c16, "abc", w.data()), fastpair::logic_error);
  CHECK_THROWS_AS(fastpair::select_prefix(d12, c16, "abc", w.data()), fastpair::logic_error);
}

TEST_CASE("GPU predicates: u16 tables and patterns without a table", "[gpu][predicates]")
{
  auto const rows = adversarial_rows(99, 300);
  auto const col  = eager_column(rows, codec::onpair12);
  auto const dcol = prepare_with_offsets(col);
  std::string_view longest;
  for (std::size_t i = 0; i < rows.num_rows(); ++i)
    if (rows.row(i).size() > longest.size()) longest = rows.row(i);
  REQUIRE(longest.size() > 300);
  // S > 256: u16 entries (and the lane path only, S > like_map_states).
  std::string const p300(longest.substr(longest.size() - 300));
  auto const suffix = fastpair::device_like_predicate::prepare(col, like_kind::suffix, p300);
  CHECK(suffix.state_bytes() == 2);
  check_pattern(col, dcol, rows, p300);
  check_pattern(col, dcol, rows, std::string(longest.substr(0, 280)));
  // No table (cap 0): fine when the pattern is longer than every row, refused otherwise.
  fastpair::like_options none;
  none.max_table_bytes = 0;
  fastpair::device_buffer<std::uint64_t> w((rows.num_rows() + 63) / 64, {});
  std::string const too_long(longest.size() + 1, 'a');
  auto const m = gpu_mask(rows.num_rows(), [&](std::uint64_t* out, cudaStream_t s) {
    return fastpair::select_substring(dcol, col, too_long, out, s, none);
  });
  CHECK(m.count() == 0);
  CHECK_THROWS_AS(fastpair::select_substring(dcol, col, "ab", w.data(), {}, none), fastpair::logic_error);
}
