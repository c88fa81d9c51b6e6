// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// The GPU DSV parser (dsv.cuh) against the sequential reference (dsv.hpp), byte for byte: tables,
// and for malformed input the same error kind, byte offset, record number and message. Inputs:
// hand-written cases, every error kind, random inputs, long quoted fields across many blocks,
// misaligned device input, the streamed path with tiny batches, reddit_posts.csv and
// tpch_lineitem.tbl (cut to FASTPAIR_TEST_SOURCE_BYTES when set, as the sanitizer runs do), and a
// 1 GB single field ([large]).
#include "utils/data.hpp"
#include "utils/dsv_check.hpp"

#include <fastpair/dsv.cuh>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace {

using fastpair::dsv_dialect;
using fastpair::dsv_error_kind;
using fastpair::dsv_table;
using fastpair::testing::csv;
using fastpair::testing::dsv_outcome;
using fastpair::testing::load_raw;
using fastpair::testing::require_same_outcome;
using fastpair::testing::run_parser;

/** The input in device memory, `misalign` bytes past a 256-byte boundary (0: the vector loads). */
struct device_input {
  fastpair::device_buffer<char> buf;
  char const* ptr = nullptr;
  device_input(std::string_view s, unsigned misalign) : buf(s.size() + misalign + 1, {})
  {
    ptr = buf.data() + misalign;
    if (!s.empty()) FASTPAIR_CUDA_TRY(cudaMemcpy(buf.data() + misalign, s.data(), s.size(), cudaMemcpyHostToDevice));
  }
};

dsv_outcome run_gpu(std::string_view in, dsv_dialect const& d, unsigned misalign = 0)
{
  device_input const di(in, misalign);
  return run_parser([&] { return fastpair::parse_dsv(di.ptr, in.size(), d).to_host(); });
}

/** The boundaries API agrees with the table: record/column counts; every field and record end
 *  points at a delimiter / LF, or at the end of the input. */
void check_boundaries(std::string_view in, dsv_dialect const& d, dsv_outcome const& ref)
{
  device_input const di(in, 0);
  dsv_outcome const got = run_parser([&] {
    auto const b = fastpair::parse_dsv_boundaries(di.ptr, in.size(), d);
    std::vector<std::uint64_t> fe(b.num_fields), re(b.num_records);
    if (!fe.empty())
      FASTPAIR_CUDA_TRY(cudaMemcpy(fe.data(), b.field_ends.data(), fe.size() * 8, cudaMemcpyDeviceToHost));
    if (!re.empty())
      FASTPAIR_CUDA_TRY(cudaMemcpy(re.data(), b.record_ends.data(), re.size() * 8, cudaMemcpyDeviceToHost));
    for (std::uint64_t p : fe) REQUIRE((p == in.size() || in[p] == d.delimiter || in[p] == '\n'));
    for (std::uint64_t p : re) REQUIRE((p == in.size() || in[p] == '\n'));
    dsv_table t;  // only the counts are compared
    t.num_records = b.num_records - (d.header && b.num_records > 0 ? 1 : 0);
    t.columns.resize(b.num_columns);
    return t;
  });
  REQUIRE(got.ok == ref.ok);
  if (ref.ok) {
    REQUIRE(got.table.num_records == ref.table.num_records);
    REQUIRE(got.table.columns.size() == ref.table.columns.size());
  } else {
    REQUIRE(got.kind == ref.kind);
    REQUIRE(got.offset == ref.offset);
    REQUIRE(got.record == ref.record);
  }
}

/** GPU (aligned and misaligned), boundaries, and optionally streamed with these batch sizes ==
 *  reference, tables or errors. */
void check_matches(std::string_view in, dsv_dialect const& d, std::vector<std::size_t> const& batches = {})
{
  dsv_outcome const ref = run_parser([&] { return fastpair::parse_dsv_reference(in, d); });
  for (unsigned mis : {0u, 3u}) {
    INFO("misalign " << mis);
    require_same_outcome(run_gpu(in, d, mis), ref);
  }
  check_boundaries(in, d, ref);
  for (std::size_t b : batches) {
    INFO("streamed, batch_bytes " << b);
    fastpair::dsv_stream_options opt;
    opt.batch_bytes  = b;
    opt.copy_threads = 2;
    require_same_outcome(run_parser([&] { return fastpair::parse_dsv_streamed_to_host(in, d, opt); }), ref);
  }
}

std::size_t source_bytes() { return fastpair::testing::test_source_bytes(SIZE_MAX); }
bool small_run() { return source_bytes() != SIZE_MAX; }

/** The longest prefix of at most `max` bytes ending at a record end that the reference accepts. */
std::string valid_prefix(std::string const& in, dsv_dialect const& d, std::size_t max)
{
  if (max >= in.size()) return in;
  std::size_t cut = max;
  while (cut > 0) {
    cut = in.rfind('\n', cut - 1);
    if (cut == std::string::npos) return {};
    std::string s = in.substr(0, cut + 1);
    if (run_parser([&] { return fastpair::parse_dsv_reference(s, d); }).ok) return s;
  }
  return {};
}

}  // namespace

TEST_CASE("dsv gpu: hand-written inputs", "[gpu][dsv]")
{
  for (char const* s : {"a,b,c\n1,,3\n", "\"x,y\",\"say \"\"hi\"\"\",\"line1\nline2\"\n\"\",\"\"\"\",z",
                        "a,\"b\r\nc\"\r\nd,e", ",,\n,,", "a,", "a\n\nb\n", "ab,x\n,y\ncde,z\n", "", "\n", "\r\n",
                        "\"\"", "a", "\xc3\xa9t\xc3\xa9,\"\xe6\x97\xa5\xe6\x9c\xac,\xf0\x9f\x98\x80\"\n",
                        "\xef\xbb\xbfid,v\r\n1,\xe2\x82\xac\r\n"}) {
    INFO("input '" << s << "'");
    check_matches(s, csv(), small_run() ? std::vector<std::size_t>{16} : std::vector<std::size_t>{1, 2, 5});
    check_matches(s, csv(true), {3});
  }
  check_matches("name,\"the \"\"value\"\"\"\r\nk,v\r\n", csv(true), {1, 4});
  check_matches("h1,h2\n", csv(true), {1});
  check_matches("", csv(false, 3), {1});
  check_matches("1|2|\n3|4|\n", fastpair::tpch_dialect(2), {1, 3});
  check_matches("1|\"a|b\"|\n", fastpair::tpch_dialect(), {2});
  dsv_dialect lf_only = csv();
  lf_only.crlf        = false;
  check_matches("a\rb,c\r\n", lf_only, {1});
}

TEST_CASE("dsv gpu: every error kind, with offset and record", "[gpu][dsv]")
{
  using k = dsv_error_kind;
  struct error_case {
    std::string in;
    dsv_dialect d;
    k kind;
    std::uint64_t offset, record;
  };
  dsv_dialect no_escape          = csv();
  no_escape.doubled_quote_escape = false;
  dsv_dialect no_nl              = csv();
  no_nl.quoted_newlines          = false;
  std::vector<error_case> const cases = {
    {"a,\"b", csv(), k::unterminated_quote, 2, 1},
    {"x\n\"abc\ndef", csv(), k::unterminated_quote, 2, 2},
    {"a,b\"c\n", csv(), k::quote_in_unquoted_field, 3, 1},
    {"x,y\n\"a\"b,c\n", csv(), k::character_after_closing_quote, 7, 2},
    {"a\rb\n", csv(), k::lone_carriage_return, 1, 1},
    {"a\nb\r", csv(), k::lone_carriage_return, 3, 2},
    {"\"a\"\"b\"\n", no_escape, k::quote_after_closing_quote, 3, 1},
    {"x\n\"a\nb\"\n", no_nl, k::newline_in_quoted_field, 4, 2},
    {"1|2|\n3|4\n", fastpair::tpch_dialect(), k::missing_trailing_delimiter, 5, 2},
    {"1|2|\n\n", fastpair::tpch_dialect(), k::missing_trailing_delimiter, 5, 2},
    {"a,b\nc\n", csv(), k::wrong_field_count, 4, 2},
    {"a,b\n", csv(false, 3), k::wrong_field_count, 0, 1},
    {"h1,h2\n1,2,3\n", csv(true), k::wrong_field_count, 6, 2},
    {"a,b\n\"x\ny\",z\n1\n", csv(), k::wrong_field_count, 12, 3},
    {"a,b\nc\nd\"e\n", csv(), k::wrong_field_count, 4, 2},
    {"a,b\nc\"d,e\nf\n", csv(), k::quote_in_unquoted_field, 5, 2},
  };
  std::vector<bool> seen(9, false);
  for (auto const& c : cases) {
    INFO("input '" << c.in << "'");
    dsv_outcome const got = run_gpu(c.in, c.d);
    REQUIRE_FALSE(got.ok);
    CHECK(got.kind == c.kind);
    CHECK(got.offset == c.offset);
    CHECK(got.record == c.record);
    seen[static_cast<int>(c.kind)] = true;
    check_matches(c.in, c.d, small_run() ? std::vector<std::size_t>{4} : std::vector<std::size_t>{1, 2, 3});
  }
  for (int kind = 1; kind <= 8; ++kind) CHECK(seen[kind]);
  // An error deep inside a large input: the first one in input order, in the right record.
  std::string big;
  int const big_records = small_run() ? 2000 : 20000;
  for (int r = 0; r < big_records; ++r) big += "abc,\"q\"\"x\",z\n";
  std::string bad = big + "a,b\"c\n" + big;
  dsv_outcome const got = run_gpu(bad, csv());
  REQUIRE_FALSE(got.ok);
  CHECK(got.kind == k::quote_in_unquoted_field);
  CHECK(got.offset == big.size() + 3);
  CHECK(got.record == static_cast<std::uint64_t>(big_records) + 1);
  check_matches(big + "a,b\n" + big, csv(), {big.size() / 2 + 1});
  check_matches(big + "\"open" + big, csv(), {big.size() / 3 + 1});
  REQUIRE_THROWS_AS(fastpair::parse_dsv(nullptr, 0, [] {
                      dsv_dialect d;
                      d.quote = ',';
                      return d;
                    }()),
                    fastpair::logic_error);
}

TEST_CASE("dsv gpu: random inputs agree with the reference (tables and errors)", "[gpu][dsv]")
{
  std::mt19937 rng(9001);
  std::vector<std::string> const alphabets = {",\"\r\nab", ",\"\nab\xc3\xa9", "|\"\n x", ",\"\"\"\r\n"};
  int const iters = small_run() ? 40 : 1500;
  std::size_t ok = 0, errors = 0;
  for (int iter = 0; iter < iters; ++iter) {
    std::string const& alpha = alphabets[iter % alphabets.size()];
    dsv_dialect d            = csv(rng() % 4 == 0);
    if (alpha[0] == '|') d = fastpair::tpch_dialect();
    d.doubled_quote_escape = rng() % 5 != 0;
    d.quoted_newlines      = rng() % 5 != 0;
    d.crlf                 = rng() % 5 != 0;
    if (rng() % 6 == 0) d.expected_fields = static_cast<int>(rng() % 4);
    std::size_t const len = iter % 10 == 0 ? rng() % 3000 : rng() % 80;
    std::string s(len, 'a');
    for (char& c : s) c = alpha[rng() % alpha.size()];
    INFO("input '" << s << "'");
    dsv_outcome const ref = run_parser([&] { return fastpair::parse_dsv_reference(s, d); });
    (ref.ok ? ok : errors)++;
    std::vector<std::size_t> batches;
    if (iter % 20 == 0) batches = {(small_run() ? 200 : 1) + rng() % 40};
    check_matches(s, d, batches);
  }
  if (!small_run()) {  // both outcomes are exercised (40 small-run inputs may hold no valid one)
    CHECK(ok > 10);
    CHECK(errors > 10);
  }
  // Larger valid inputs: quoted fields with delimiters, doubled quotes and newlines everywhere.
  for (int iter = 0; iter < (small_run() ? 1 : 10); ++iter) {
    std::string s;
    for (int r = 0; r < (small_run() ? 300 : 3000); ++r) {
      for (int f = 0; f < 3; ++f) {
        if (f) s += ',';
        if (rng() % 2) s += "\"a,\"\"b\nc\"";
        else s += std::string(rng() % 40, 'x');
      }
      s += rng() % 2 ? "\r\n" : "\n";
    }
    check_matches(s, csv(false, 3), {1000, 7777});
  }
}

TEST_CASE("dsv gpu: a quoted field spanning many chunks and blocks", "[gpu][dsv]")
{
  std::size_t const len = small_run() ? 40000 : (std::size_t{3} << 20);
  std::string f;
  for (std::size_t i = 0; f.size() < len; ++i) f += i % 97 == 0 ? "\"\"" : i % 89 == 0 ? "\r\n" : i % 7 == 0 ? "," : "y";
  std::string const s = "a,\"" + f + "\",b\r\nc,\"\",d\r\n";
  check_matches(s, csv(), {len / 3 + 1});
  check_matches("h,\"" + f, csv(), {});               // ends inside the quote: unterminated at byte 2
  check_matches(std::string(len, 'x') + "\n", csv(), {len / 5 + 1});  // a long unquoted field
}

TEST_CASE("dsv streamer: window schedule", "[dsv]")
{
  using fastpair::detail::dsv_window_edges;
  CHECK(dsv_window_edges(0, 64) == std::vector<std::size_t>{0, 0});
  CHECK(dsv_window_edges(5, 64) == std::vector<std::size_t>{0, 5});
  CHECK(dsv_window_edges(130, 64) == std::vector<std::size_t>{0, 64, 128, 130});
  // 512 = 8 + 16 + 32 | 6 x 64 + 16 (the rest before the tail) | 32 + 16 + 8
  CHECK(dsv_window_edges(512, 64) ==
        std::vector<std::size_t>{0, 8, 24, 56, 120, 184, 248, 312, 376, 440, 456, 488, 504, 512});
  for (std::size_t B : {std::size_t{1}, std::size_t{7}, std::size_t{8}, std::size_t{64}, std::size_t{999}}) {
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, B, 8 * B - 1, 8 * B, 8 * B + 1, 37 * B + 5}) {
      INFO("n " << n << " B " << B);
      auto const e = dsv_window_edges(n, B);
      REQUIRE(e.size() >= 2);
      CHECK(e.front() == 0);
      CHECK(e.back() == n);
      for (std::size_t w = 0; w + 1 < e.size(); ++w) {
        CHECK(e[w + 1] - e[w] <= B);
        if (n > 0) CHECK(e[w + 1] > e[w]);  // no empty window unless the input is empty
      }
      if (n >= 8 * B && B >= 8) {  // the ramps: B/8, B/4, B/2 first, B/2, B/4, B/8 last
        CHECK(e[1] - e[0] == B / 8);
        CHECK(e[3] - e[2] == B / 2);
        CHECK(e[e.size() - 1] - e[e.size() - 2] == B / 8);
        CHECK(e[e.size() - 3] - e[e.size() - 4] == B / 2);
      } else {
        CHECK(e.size() - 1 == std::max<std::size_t>(1, (n + B - 1) / B));
      }
    }
  }
}

TEST_CASE("dsv gpu: streamed from host with small batches (records spanning batches)", "[gpu][dsv]")
{
  std::string s;
  int const records = small_run() ? 40 : 300;
  for (int r = 0; r < records; ++r)
    s += "r" + std::to_string(r) + ",\"multi\nline " + std::string(r % 50, 'q') + "\"\"x\",\xc3\xa9\r\n";
  std::vector<std::size_t> batches = {7, 64, 999, s.size(), s.size() * 2};
  if (!small_run()) batches.push_back(1);
  for (std::size_t b : batches) {
    INFO("batch_bytes " << b);
    fastpair::dsv_stream_options opt;
    opt.batch_bytes  = b;
    opt.copy_threads = 3;
    dsv_outcome const ref = run_parser([&] { return fastpair::parse_dsv_reference(s, csv(true)); });
    require_same_outcome(run_parser([&] { return fastpair::parse_dsv_streamed_to_host(s, csv(true), opt); }), ref);
  }
  // Pinned source (no staging copy) and boundaries-only batches.
  char* pinned = nullptr;
  FASTPAIR_CUDA_TRY(cudaMallocHost(reinterpret_cast<void**>(&pinned), s.size()));
  std::copy(s.begin(), s.end(), pinned);
  fastpair::dsv_stream_options opt;
  opt.batch_bytes = 500;
  opt.materialize = false;
  std::uint64_t seen = 0, last_offset = 0;
  fastpair::parse_dsv_streamed(std::string_view(pinned, s.size()), csv(), [&](fastpair::dsv_batch const& b) {
    CHECK(b.table == nullptr);
    CHECK(b.input_offset >= last_offset);
    last_offset = b.input_offset;
    seen += b.boundaries->num_records;
  }, opt);
  CHECK(seen == static_cast<std::uint64_t>(records));
  opt.materialize = true;
  dsv_outcome const ref = run_parser([&] { return fastpair::parse_dsv_reference(s, csv()); });
  require_same_outcome(
    run_parser([&] { return fastpair::parse_dsv_streamed_to_host(std::string_view(pinned, s.size()), csv(), opt); }),
    ref);
  FASTPAIR_CUDA_TRY(cudaFreeHost(pinned));
}

TEST_CASE("dsv gpu: reddit_posts.csv byte for byte", "[gpu][dsv][data]")
{
  dsv_dialect const d  = csv(true);
  std::string const in = valid_prefix(load_raw("reddit_posts.csv.zst"), d, source_bytes());
  REQUIRE(!in.empty());
  dsv_outcome const ref = run_parser([&] { return fastpair::parse_dsv_reference(in, d); });
  REQUIRE(ref.ok);
  CHECK(ref.table.num_fields() == 21);
  require_same_outcome(run_gpu(in, d), ref);
  check_boundaries(in, d, ref);
  fastpair::dsv_stream_options opt;
  opt.batch_bytes = small_run() ? 4099 : (std::size_t{1} << 20) + 7;
  require_same_outcome(run_parser([&] { return fastpair::parse_dsv_streamed_to_host(in, d, opt); }), ref);
  // Cut inside a multi-line quoted field: the same unterminated_quote error.
  std::size_t const q = in.find("\"", in.size() / 2);
  if (q != std::string::npos) {
    std::string_view const cut = std::string_view(in).substr(0, q + 2);
    require_same_outcome(run_gpu(cut, d), run_parser([&] { return fastpair::parse_dsv_reference(cut, d); }));
  }
}

TEST_CASE("dsv gpu: tpch_lineitem.tbl byte for byte", "[gpu][dsv][data]")
{
  dsv_dialect const d  = fastpair::tpch_dialect(16);
  std::string const in = valid_prefix(load_raw("tpch_lineitem.tbl.zst"), d, source_bytes());
  REQUIRE(!in.empty());
  dsv_outcome const ref = run_parser([&] { return fastpair::parse_dsv_reference(in, d); });
  REQUIRE(ref.ok);
  require_same_outcome(run_gpu(in, d), ref);
  check_boundaries(in, d, ref);
  fastpair::dsv_stream_options opt;
  opt.batch_bytes = small_run() ? 5003 : (std::size_t{3} << 20) + 1;
  require_same_outcome(run_parser([&] { return fastpair::parse_dsv_streamed_to_host(in, d, opt); }), ref);
}

TEST_CASE("dsv gpu: a 1 GB single quoted field", "[gpu][dsv][large]")
{
  std::size_t const len = std::size_t{1} << 30;
  std::string s;
  s.reserve(len + 16);
  s += "\"";
  s.append(len, 'z');
  s[1 + len / 2] = '\n';  // a newline in the middle (quoted: data)
  s += "\"\n";
  device_input const di(s, 0);
  auto const t = fastpair::parse_dsv(di.ptr, s.size(), csv());
  REQUIRE(t.num_records == 1);
  REQUIRE(t.columns.size() == 1);
  auto const h = t.columns[0].to_host();
  REQUIRE(h.offsets == std::vector<std::uint64_t>{0, len});
  REQUIRE(std::string_view(h.chars.data(), h.chars.size()) == std::string_view(s).substr(1, len));
  // Without the closing quote: unterminated at byte 0, record 1.
  dsv_outcome const bad = run_parser([&] { return fastpair::parse_dsv(di.ptr, len + 1, csv()).to_host(); });
  REQUIRE_FALSE(bad.ok);
  CHECK(bad.kind == dsv_error_kind::unterminated_quote);
  CHECK(bad.offset == 0);
  CHECK(bad.record == 1);
}
