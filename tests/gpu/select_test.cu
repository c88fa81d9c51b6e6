// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Selective decode (select.cuh): for every selection form (row ids, bitmask, ranges), both
// strategies and int32/int64 offsets, the GPU output equals the CPU reference of the selected rows
// byte for byte, with guard bytes around the output that no write may touch. Corner selections on
// synthetic columns (empty, all, single, first/last, rows across sidecar segments, empty rows, a
// huge row among tiny ones), random selections on every shared column x codec, invalid selections,
// and the GPU conversions of selection.cuh against predicates.hpp.
#include "utils/data.hpp"
#include "utils/generators.hpp"
#include "utils/gpu_check.cuh"

#include <fastpair/encode.hpp>
#include <fastpair/fastpair.cuh>
#include <fastpair/predicates.cuh>
#include <fastpair/predicates.hpp>
#include <fastpair/reference.hpp>
#include <fastpair/select.cuh>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace ft = fastpair::testing;
using fastpair::codec;
using fastpair::select_strategy;

namespace {
/** device_column::prepare with the row offsets accelerator, which selective decode and the
 *  predicates read (prepare_options::row_offsets; they throw logic_error without it). */
inline fastpair::device_column prepare_with_offsets(fastpair::compressed_column const& col,
                                                    fastpair::prepare_options opt = {})
{
  opt.row_offsets = true;
  return fastpair::device_column::prepare(col, {}, opt);
}
}  // namespace

namespace {

template <class T>
fastpair::device_buffer<T> upload(std::vector<T> const& h)
{
  fastpair::device_buffer<T> d(h.size(), {});
  if (!h.empty()) FASTPAIR_CUDA_TRY(cudaMemcpy(d.data(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <class T>
std::vector<T> download(T const* d, std::size_t n)
{
  std::vector<T> h(n);
  if (n) FASTPAIR_CUDA_TRY(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

/** The three device forms of one host selection, kept alive together. */
struct device_forms {
  fastpair::device_buffer<std::uint64_t> ids, words;
  fastpair::device_buffer<fastpair::row_range> ranges;
  fastpair::device_row_ids ids_view;
  fastpair::device_bitmask mask_view;
  fastpair::device_row_ranges ranges_view;

  device_forms(fastpair::selection const& s, std::uint64_t num_rows)
  {
    ids      = upload(s.rows);
    ids_view = {ids.data(), s.rows.size()};
    auto const m = fastpair::to_bitmask(s, num_rows);
    words        = upload(m.words);
    mask_view    = {words.data(), num_rows};
    std::vector<fastpair::row_range> r;
    for (auto const& [b, e] : fastpair::to_ranges(s).ranges) r.push_back({b, e});
    ranges      = upload(r);
    ranges_view = {ranges.data(), r.size()};
  }
};

/** The reference rows `rows` of `ref`. */
fastpair::host_strings pick(fastpair::host_strings const& ref, std::vector<std::uint64_t> const& rows)
{
  fastpair::host_strings out;
  for (auto r : rows) out.push_back(ref.row(r));
  return out;
}

/** Plans and decodes `sel` into a poisoned, guarded, misaligned buffer; REQUIREs `expect`. */
template <class OffsetT, class Sel>
void check_selected(fastpair::device_column const& dcol, Sel sel, fastpair::host_strings const& expect,
                    select_strategy strategy, unsigned misalign)
{
  INFO("strategy " << fastpair::strategy_name(strategy) << ", offsets " << sizeof(OffsetT) * 8 << " bit, misalign "
                   << misalign);
  auto const plan = fastpair::make_select_plan(dcol, sel);
  REQUIRE(plan.num_rows() == expect.num_rows());
  REQUIRE(plan.bytes() == expect.chars.size());
  // Offsets poisoned 0x7F with one guard slot each side; chars poisoned 0x5A.
  ft::guarded_output<OffsetT> out(plan.num_rows(), expect.chars.size(), misalign, nullptr, 0x5A, 0x7F, 1);
  fastpair::decode_selected(dcol, plan, out.view(), {}, strategy);
  FASTPAIR_CUDA_TRY(cudaDeviceSynchronize());
  REQUIRE(dcol.read_and_clear_errors() == 0);
  out.require_equal(expect, nullptr);
}

/** Every form x both strategies; int32 and int64 offsets alternate over the forms. */
void check_all_forms(fastpair::device_column const& dcol, fastpair::host_strings const& ref,
                     fastpair::selection const& s, unsigned misalign = 3)
{
  INFO(s.rows.size() << " selected rows of " << ref.num_rows());
  auto const expect = pick(ref, s.rows);
  device_forms const f(s, ref.num_rows());
  for (auto strategy : {select_strategy::selective, select_strategy::decode_then_filter}) {
    {
      INFO("row ids");
      check_selected<std::int64_t>(dcol, f.ids_view, expect, strategy, misalign);
    }
    {
      INFO("bitmask");
      check_selected<std::int32_t>(dcol, f.mask_view, expect, strategy, misalign + 5);
    }
    {
      INFO("ranges");
      check_selected<std::int64_t>(dcol, f.ranges_view, expect, strategy, 0);
    }
  }
  // The allocating convenience with the automatic choice.
  auto const got = fastpair::decompress_selected(dcol, f.ids_view).to_host();
  REQUIRE(got == expect);
}

fastpair::selection random_selection(std::uint64_t num_rows, double density, std::uint64_t seed)
{
  ft::rng r(seed);
  fastpair::selection s;
  for (std::uint64_t i = 0; i < num_rows; ++i)
    if (r.uniform() < density) s.rows.push_back(i);
  return s;
}
fastpair::selection row_span(std::uint64_t b, std::uint64_t e)
{
  fastpair::selection s;
  for (std::uint64_t i = b; i < e; ++i) s.rows.push_back(i);
  return s;
}

}  // namespace

TEST_CASE("selective decode of corner selections on synthetic columns", "[gpu][select]")
{
  for (auto kind : {codec::onpair16, codec::onpair12, codec::fsst12}) {
    INFO(fastpair::codec_name(kind));
    // A small stride so that rows cross many sidecar segments; a quarter of the rows empty.
    ft::code_mix mix;
    mix.empty_rows    = 0.25;
    mix.max_row_codes = 40;
    auto const col  = ft::random_column(kind, ft::make_dictionary(kind, 600, {2, 16}, 7), 3000, mix, 11, 64);
    auto const dcol = prepare_with_offsets(col);
    auto const ref  = fastpair::decode_reference(col);
    std::uint64_t const n = col.num_rows();

    check_all_forms(dcol, ref, {});                        // empty selection
    check_all_forms(dcol, ref, row_span(0, n));            // all rows
    check_all_forms(dcol, ref, row_span(0, 1));            // first row
    check_all_forms(dcol, ref, row_span(n / 2, n / 2 + 1));  // a single middle row
    check_all_forms(dcol, ref, row_span(n - 1, n));        // last row
    check_all_forms(dcol, ref, fastpair::selection{{0, n - 1}});
    fastpair::selection empties;  // only empty rows
    for (std::uint64_t r = 0; r < n; ++r)
      if (ref.row(r).empty()) empties.rows.push_back(r);
    REQUIRE(!empties.rows.empty());
    check_all_forms(dcol, ref, empties);
    for (double d : {0.001, 0.01, 0.1, 0.2, 0.5, 0.9})
      check_all_forms(dcol, ref, random_selection(n, d, static_cast<std::uint64_t>(d * 1e6) + 1));
  }
}

TEST_CASE("selective decode of an OnPair-12 column with a split stream", "[gpu][select]")
{
  // Short tokens (2..9 bytes, about 1 in 8 of them 9 bytes): sm_90+ prepares the split stream,
  // which the decode-then-filter strategy decodes; the selective one decodes the column's codes.
  ft::code_mix mix;
  mix.empty_rows    = 0.25;
  mix.max_row_codes = 40;
  auto const col  = ft::random_column(codec::onpair12, ft::make_dictionary(codec::onpair12, 3000, {2, 9}, 17), 3000, mix, 19, 64);
  fastpair::prepare_options accel;  // the split stream (and the fused codes beside it) are opt-in
  accel.split_stream = accel.fused_codes = true;
  auto const dcol = prepare_with_offsets(col, accel);
  auto const arch = fastpair::detail::current_arch_bucket();
  REQUIRE(dcol.has_split_stream() == (arch == fastpair::arch_bucket::sm90 || arch == fastpair::arch_bucket::sm100));
  auto const ref        = fastpair::decode_reference(col);
  std::uint64_t const n = col.num_rows();
  check_all_forms(dcol, ref, row_span(0, n));
  check_all_forms(dcol, ref, row_span(n / 3, n / 3 + 7));
  for (double dens : {0.01, 0.5, 0.9}) check_all_forms(dcol, ref, random_selection(n, dens, static_cast<std::uint64_t>(dens * 1e3) + 5));
}

TEST_CASE("selective decode: a huge row among tiny ones, rows across segment boundaries", "[gpu][select]")
{
  codec const kind = codec::onpair16;
  auto dict        = ft::make_dictionary(kind, 2000, {2, 16}, 3);
  ft::rng r(5);
  std::vector<std::vector<std::uint16_t>> rows(4001);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::size_t const len = i == 2000 ? 300'000 : r.below(4);  // one ~2.5 MB row, the rest 0-3 codes
    for (std::size_t k = 0; k < len; ++k) rows[i].push_back(static_cast<std::uint16_t>(r.below(dict.size())));
  }
  auto const col  = ft::column_from_codes(kind, std::move(dict), rows);
  auto const dcol = prepare_with_offsets(col);
  auto const ref  = fastpair::decode_reference(col);
  check_all_forms(dcol, ref, row_span(2000, 2001));
  check_all_forms(dcol, ref, row_span(1990, 2010));
  check_all_forms(dcol, ref, random_selection(col.num_rows(), 0.05, 9));
  auto s = random_selection(col.num_rows(), 0.01, 10);
  s.rows.insert(std::lower_bound(s.rows.begin(), s.rows.end(), 2000), 2000);
  s.rows.erase(std::unique(s.rows.begin(), s.rows.end()), s.rows.end());
  check_all_forms(dcol, ref, s);
}

TEST_CASE("selective decode: non-canonical ranges (empty and adjacent runs)", "[gpu][select]")
{
  codec const kind = codec::fsst12;
  auto const col   = ft::random_column(kind, ft::make_dictionary(kind, 1000, {2, 8}, 1), 500, {}, 2, 128);
  auto const dcol  = prepare_with_offsets(col);
  auto const ref   = fastpair::decode_reference(col);
  std::vector<fastpair::row_range> h = {{0, 0}, {0, 3}, {3, 7}, {7, 7}, {100, 250}, {499, 500}, {500, 500}};
  auto d = upload(h);
  std::vector<std::uint64_t> rows;
  for (auto [b, e] : h)
    for (auto i = b; i < e; ++i) rows.push_back(i);
  for (auto strategy : {select_strategy::selective, select_strategy::decode_then_filter})
    check_selected<std::int64_t>(dcol, fastpair::device_row_ranges{d.data(), h.size()}, pick(ref, rows), strategy, 1);
}

TEST_CASE("selective decode of every shared column and codec equals the CPU reference", "[gpu][select][shared]")
{
  std::size_t const max_bytes = ft::test_source_bytes(std::size_t{1} << 20);  // sanitizer runs use less
  for (auto const& name : ft::shared_columns()) {
    auto const rows = ft::load_shared_column(name, max_bytes);
    for (auto kind : {codec::onpair16, codec::onpair12, codec::fsst12}) {
      INFO(name << " " << fastpair::codec_name(kind));
      auto const col  = fastpair::compress(rows, kind);
      auto const dcol = prepare_with_offsets(col);
      auto const ref  = fastpair::decode_reference(col);
      REQUIRE(ref == rows);
      std::uint64_t const n = col.num_rows();
      check_all_forms(dcol, ref, random_selection(n, 0.01, 21));
      check_all_forms(dcol, ref, random_selection(n, 0.3, 22));
      check_all_forms(dcol, ref, row_span(n / 4, n / 2));
    }
  }
}

TEST_CASE("invalid selections raise logic_error before decoding", "[gpu][select]")
{
  codec const kind = codec::onpair16;
  auto const col   = ft::random_column(kind, ft::make_dictionary(kind, 300, {2, 16}, 1), 100, {}, 4);
  auto const dcol  = prepare_with_offsets(col);
  auto ids = [&](std::vector<std::uint64_t> const& v) {
    auto d = upload(v);
    fastpair::device_row_ids const s{d.data(), v.size()};
    CHECK_THROWS_AS(fastpair::make_select_plan(dcol, s), fastpair::logic_error);
    CHECK_THROWS_AS(fastpair::decompress_selected(dcol, s), fastpair::logic_error);
  };
  ids({100});          // == num_rows
  ids({5, 1u << 30});  // far out of range
  ids({3, 3});         // repeated
  ids({4, 2});         // decreasing
  auto ranges = [&](std::vector<fastpair::row_range> const& v) {
    auto d = upload(v);
    fastpair::device_row_ranges const s{d.data(), v.size()};
    CHECK_THROWS_AS(fastpair::make_select_plan(dcol, s), fastpair::logic_error);
    CHECK_THROWS_AS(fastpair::validate_selection(dcol, s), fastpair::logic_error);
  };
  ranges({{0, 101}});            // past num_rows
  ranges({{5, 4}});              // begin > end
  ranges({{0, 10}, {9, 12}});    // overlapping
  ranges({{20, 30}, {0, 10}});   // unsorted
  ranges({{200, 200}});          // empty but outside
  std::vector<std::uint64_t> words(2, 0);
  auto d = upload(words);
  CHECK_THROWS_AS(fastpair::make_select_plan(dcol, fastpair::device_bitmask{d.data(), 99}), fastpair::logic_error);
  // An output of the wrong shape is refused too.
  std::vector<std::uint64_t> one = {7};
  auto d1         = upload(one);
  auto const plan = fastpair::make_select_plan(dcol, fastpair::device_row_ids{d1.data(), 1});
  fastpair::device_buffer<std::int64_t> off(3, {});
  fastpair::device_buffer<char> chars(1, {});
  CHECK_THROWS_AS(fastpair::decode_selected(dcol, plan, fastpair::string_column_view<std::int64_t>{off.data(), chars.data(), 2, 1 << 20}),
                  fastpair::logic_error);
  if (plan.bytes() > 0)
    CHECK_THROWS_AS(fastpair::decode_selected(dcol, plan, fastpair::string_column_view<std::int64_t>{off.data(), chars.data(), 1, plan.bytes() - 1}),
                    fastpair::logic_error);
}

TEST_CASE("GPU selection conversions equal the host ones", "[gpu][select]")
{
  for (std::uint64_t n : {0ull, 1ull, 63ull, 64ull, 65ull, 1000ull, 4097ull}) {
    for (double density : {0.0, 0.05, 0.5, 0.95, 1.0}) {
      INFO(n << " rows, density " << density);
      auto const s = random_selection(n, density, n * 7 + static_cast<std::uint64_t>(density * 100));
      device_forms const f(s, n);
      auto const ids = fastpair::to_row_ids(f.mask_view);
      REQUIRE(download(ids.rows.data(), ids.count) == s.rows);
      auto const expect = fastpair::to_ranges(s).ranges;
      auto const from_mask = fastpair::to_row_ranges(f.mask_view);
      auto const from_ids  = fastpair::to_row_ranges(f.ids_view);
      for (auto const* got : {&from_mask, &from_ids}) {
        auto const h = download(got->ranges.data(), got->count);
        REQUIRE(h.size() == expect.size());
        for (std::size_t i = 0; i < h.size(); ++i) {
          REQUIRE(h[i].begin == expect[i].first);
          REQUIRE(h[i].end == expect[i].second);
        }
      }
    }
  }
}

TEST_CASE("bitmask AND / OR / NOT and count equal the host ones, in place too", "[gpu][select]")
{
  for (std::uint64_t n : {0ull, 1ull, 63ull, 64ull, 65ull, 1000ull, 4097ull}) {
    INFO(n << " rows");
    auto const a = random_selection(n, 0.3, n + 1), b = random_selection(n, 0.6, n + 2);
    device_forms const fa(a, n), fb(b, n);
    std::uint64_t const words = (n + 63) / 64;
    auto host_mask = [&](fastpair::selection const& s) {
      std::vector<std::uint64_t> w(words, 0);
      for (auto r : s.rows) w[r / 64] |= std::uint64_t{1} << (r % 64);
      return w;
    };
    auto const ha = host_mask(a), hb = host_mask(b);
    std::vector<std::uint64_t> want_and(words), want_or(words), want_not(words);
    std::uint64_t want_and_count = 0;
    for (std::uint64_t i = 0; i < words; ++i) {
      want_and[i] = ha[i] & hb[i];
      want_or[i]  = ha[i] | hb[i];
      want_not[i] = ~ha[i];
      want_and_count += static_cast<std::uint64_t>(__builtin_popcountll(want_and[i]));
    }
    if (n % 64 != 0) want_not.back() &= (std::uint64_t{1} << (n % 64)) - 1;  // no bits past the rows

    fastpair::device_buffer<std::uint64_t> out(std::max<std::uint64_t>(words, 1), {});
    fastpair::mask_and(fa.mask_view, fb.mask_view, out.data());
    REQUIRE(download(out.data(), words) == want_and);
    REQUIRE(fastpair::mask_count({out.data(), n}) == want_and_count);
    fastpair::mask_or(fa.mask_view, fb.mask_view, out.data());
    REQUIRE(download(out.data(), words) == want_or);
    fastpair::mask_not(fa.mask_view, out.data());
    REQUIRE(download(out.data(), words) == want_not);
    REQUIRE(fastpair::mask_count(fa.mask_view) == a.rows.size());

    // In place: out aliases an input.
    auto inplace = upload(ha);
    fastpair::device_bitmask const ia{inplace.data(), n};
    fastpair::mask_and(ia, fb.mask_view, inplace.data());
    REQUIRE(download(inplace.data(), words) == want_and);
    fastpair::mask_not(fa.mask_view, inplace.data());
    fastpair::mask_not(ia, inplace.data());
    REQUIRE(download(inplace.data(), words) == ha);
  }
  fastpair::device_buffer<std::uint64_t> w(2, {});
  FASTPAIR_CUDA_TRY(cudaMemset(w.data(), 0, 16));
  CHECK_THROWS_AS(fastpair::mask_and({w.data(), 100}, {w.data(), 99}, w.data()), fastpair::logic_error);
  CHECK_THROWS_AS(fastpair::mask_or({w.data(), 64}, {w.data(), 65}, w.data()), fastpair::logic_error);
}

TEST_CASE("a column prepared without row offsets: selective decode and predicates throw logic_error", "[gpu][select][predicates]")
{
  // The default prepared column is lean (prepare_options::row_offsets = false): what reads the
  // 8-byte row offsets refuses it with the documented message, and works once they are built.
  codec const kind = codec::onpair12;
  auto const col   = ft::random_column(kind, ft::make_dictionary(kind, 300, {2, 16}, 31), 2100, {}, 32);
  auto dcol        = fastpair::device_column::prepare(col);
  REQUIRE_FALSE(dcol.has_row_offsets());
  char const* const message = "prepare_options::row_offsets = true, or call build_row_offsets()";
  REQUIRE_THROWS_WITH(dcol.device_row_code_offsets(), Catch::Contains(message));
  REQUIRE_THROWS_WITH(dcol.device_row_byte_offsets(), Catch::Contains(message));
  std::vector<std::uint64_t> const rows = {0, 7, 1500, 2099};
  auto d = upload(rows);
  fastpair::device_row_ids const sel{d.data(), rows.size()};
  REQUIRE_THROWS_AS(fastpair::make_select_plan(dcol, sel), std::logic_error);
  REQUIRE_THROWS_WITH(fastpair::make_select_plan(dcol, sel), Catch::Contains(message));
  REQUIRE_THROWS_WITH(fastpair::decompress_selected(dcol, sel), Catch::Contains(message));
  fastpair::device_buffer<std::uint64_t> words((col.num_rows() + 63) / 64, {});
  REQUIRE_THROWS_WITH(fastpair::select_equal(dcol, col, "abc", words.data()), Catch::Contains(message));
  REQUIRE_THROWS_WITH(fastpair::select_prefix(dcol, col, "ab", words.data()), Catch::Contains(message));
  REQUIRE_THROWS_WITH(fastpair::select_substring(dcol, col, "ab", words.data()), Catch::Contains(message));
  auto const in = fastpair::device_literal_set::prepare(col, {"abc", ""});
  REQUIRE_THROWS_WITH(in.evaluate(dcol, words.data(), {}), Catch::Contains(message));
  // The decode itself needs no row offsets.
  auto const ref = fastpair::decode_reference(col);
  REQUIRE(fastpair::decompress(dcol).to_host() == ref);
  // build_row_offsets() adds them: then the same calls work.
  dcol.build_row_offsets();
  REQUIRE(dcol.has_row_offsets());
  std::vector<std::uint64_t> co(col.num_rows() + 1), bo(col.num_rows() + 1);
  FASTPAIR_CUDA_TRY(cudaMemcpy(co.data(), dcol.device_row_code_offsets(), co.size() * 8, cudaMemcpyDeviceToHost));
  FASTPAIR_CUDA_TRY(cudaMemcpy(bo.data(), dcol.device_row_byte_offsets(), bo.size() * 8, cudaMemcpyDeviceToHost));
  REQUIRE(co == col.row_code_offsets);
  REQUIRE(bo == col.row_byte_offsets);
  check_all_forms(dcol, ref, fastpair::selection{rows});
  REQUIRE_NOTHROW(fastpair::select_equal(dcol, col, "abc", words.data()));
  FASTPAIR_CUDA_TRY(cudaDeviceSynchronize());
}
