// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// cascade.hpp: row-level cascades (distinct rows + packed ids, optionally runs). Round trips on
// every shared column x codec, the plain/cascade choice, edge cases, and validation of corrupt
// cascades (every check fires, with a message naming the field).
#include <fastpair/cascade.hpp>

#include "utils/data.hpp"
#include "utils/generators.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

using namespace fastpair;

namespace {
host_strings rows_of(std::vector<std::string> const& v)
{
  host_strings h;
  for (auto const& s : v) h.push_back(s);
  return h;
}

void check_round_trip(host_strings const& rows, codec kind)
{
  for (auto layout : {cascade_layout::indices, cascade_layout::runs}) {
    auto const c = compress_cascade(rows, kind, layout);
    REQUIRE_NOTHROW(validate(c));
    REQUIRE(c.num_rows == rows.num_rows());
    REQUIRE(cascade_decoded_bytes(c) == rows.chars.size());
    auto const back = decode_reference(c);
    REQUIRE(back == rows);
  }
}

/** Expects validate() to throw format_error whose message contains `field`. */
void expect_invalid(cascaded_column const& c, std::string const& field)
{
  try {
    validate(c);
    FAIL("validate accepted a corrupt cascade (expected an error on " << field << ")");
  } catch (format_error const& e) {
    INFO(e.what());
    CHECK(std::string(e.what()).find(field) != std::string::npos);
  }
}
}  // namespace

TEST_CASE("cascade: packed_ints round trip at every width", "[cascade]")
{
  for (std::uint32_t bits = 0; bits <= 32; ++bits) {
    std::vector<std::uint32_t> v(77);
    std::uint64_t x = 12345 + bits;
    for (auto& e : v) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      e = bits == 0 ? 0 : static_cast<std::uint32_t>((x >> 32) & (bits == 32 ? 0xFFFFFFFFull : (1ull << bits) - 1));
    }
    auto const p = packed_ints::pack(v, bits);
    REQUIRE(p.words.size() == (77 * bits + 31) / 32);
    REQUIRE(p.stored_bytes() == (77 * bits + 7) / 8);
    for (std::size_t i = 0; i < v.size(); ++i) REQUIRE(p[i] == v[i]);
  }
  CHECK(packed_ints::pack({0, 0, 0}).bits == 0);
  CHECK(packed_ints::pack({5, 1}).bits == 3);
  CHECK_THROWS_AS(packed_ints::pack({4}, 2), logic_error);
}

TEST_CASE("cascade: the documented example and first-appearance ids", "[cascade]")
{
  auto const rows = rows_of({"ab", "ab", "", "ab"});
  auto const c    = compress_cascade(rows, codec::onpair16, cascade_layout::indices);
  REQUIRE(c.num_distinct() == 2);
  CHECK(decode_reference(c.distinct) == rows_of({"ab", ""}));
  CHECK(c.ids.bits == 1);
  CHECK(c.ids[0] == 0);
  CHECK(c.ids[2] == 1);
  auto const r = compress_cascade(rows, codec::onpair16, cascade_layout::runs);
  REQUIRE(r.num_runs() == 3);
  CHECK(r.run_lengths[0] == 1);  // stored minus one: run of 2
  CHECK(decode_reference(r) == rows);
}

TEST_CASE("cascade: round trip on every shared column x codec (first ~1 MB)", "[cascade][data]")
{
  for (auto const& name : fastpair::testing::shared_columns()) {
    auto const rows = fastpair::testing::load_shared_column(name, 1 << 20);
    for (codec kind : {codec::onpair16, codec::onpair12, codec::fsst12}) {
      INFO(name << " " << codec_name(kind));
      check_round_trip(rows, kind);
    }
  }
}

TEST_CASE("cascade: few-distinct columns pick a cascade, high-cardinality columns stay plain", "[cascade][data]")
{
  for (std::string name : {"tpch_o_clerk", "tpch_l_shipinstruct"}) {
    auto const rows = fastpair::testing::load_shared_column(name, 1 << 20);
    std::string why;
    auto const c = encode_auto_cascade(rows, {}, {}, &why);
    INFO(name << ": " << why);
    CHECK(c.is_cascade());
    CHECK(decode_reference(c) == rows);
    for (codec kind : {codec::onpair16, codec::fsst12}) {
      auto const k = encode_cascade(rows, kind, {}, {}, &why);
      INFO(why);
      CHECK(k.is_cascade());
      CHECK(k.stored_with_rows() < column_stored_size(compress(rows, kind)).with_rows());
    }
  }
  for (std::string name : {"urls", "en_wiki", "log_android", "tpch_l_comment"}) {
    auto const rows = fastpair::testing::load_shared_column(name, 1 << 20);
    std::string why;
    auto const c = encode_cascade(rows, codec::fsst12, {}, {}, &why);
    INFO(name << ": " << why);
    CHECK_FALSE(c.is_cascade());
    CHECK(why.find("plain") == 0);
  }
}

TEST_CASE("cascade: encode_auto_cascade returns encode_auto's column when plain wins", "[cascade]")
{
  host_strings rows;
  for (int i = 0; i < 3000; ++i) rows.push_back("row number " + std::to_string(i * 7919));
  std::string why;
  auto const c = encode_auto_cascade(rows, {}, {}, &why);
  INFO(why);
  REQUIRE_FALSE(c.is_cascade());
  CHECK(why.find("no cascade") != std::string::npos);
  auto const plain = encode_auto(rows);
  CHECK(c.plain().kind == plain.kind);
  CHECK(c.plain().codes == plain.codes);
  CHECK(c.plain().dict == plain.dict);
}

TEST_CASE("cascade: runs win on long runs, indices on short ones", "[cascade]")
{
  host_strings runs, mixed;
  for (int i = 0; i < 20000; ++i) runs.push_back(i < 9000 ? "INFO" : i < 9500 ? "WARN" : "ERROR: disk full");
  fastpair::testing::rng rnd(7);
  for (int i = 0; i < 20000; ++i) {
    auto const k = rnd.below(3);
    mixed.push_back(k == 0 ? "alpha" : k == 1 ? "beta" : "gamma");
  }
  std::string why;
  auto const a = encode_cascade(runs, codec::onpair12, {}, {}, &why);
  INFO(why);
  REQUIRE(a.is_cascade());
  CHECK(a.cascade().layout == cascade_layout::runs);
  CHECK(a.cascade().num_runs() == 3);
  CHECK(decode_reference(a) == runs);
  auto const b = encode_cascade(mixed, codec::onpair12, {}, {}, &why);
  INFO(why);
  REQUIRE(b.is_cascade());
  CHECK(b.cascade().layout == cascade_layout::indices);
  CHECK(b.cascade().ids.bits == 2);
  CHECK(decode_reference(b) == mixed);
  cascade_options only_idx;
  only_idx.allow_runs = false;
  CHECK(encode_cascade(runs, codec::onpair12, {}, only_idx).cascade().layout == cascade_layout::indices);
}

TEST_CASE("cascade: edge cases", "[cascade]")
{
  codec const kind = GENERATE(codec::onpair16, codec::onpair12, codec::fsst12);
  SECTION("empty column") {
    host_strings const none;
    check_round_trip(none, kind);
    auto const c = compress_cascade(none, kind, cascade_layout::runs);
    CHECK(c.num_distinct() == 0);
    CHECK(c.ids.count == 0);
    CHECK_FALSE(encode_cascade(none, kind).is_cascade());
  }
  SECTION("one row") { check_round_trip(rows_of({"only"}), kind); }
  SECTION("one empty row") { check_round_trip(rows_of({""}), kind); }
  SECTION("all rows equal") {
    host_strings rows;
    for (int i = 0; i < 1000; ++i) rows.push_back("same value");
    check_round_trip(rows, kind);
    auto const c = compress_cascade(rows, kind, cascade_layout::indices);
    CHECK(c.ids.bits == 0);
    CHECK(c.ids.words.empty());
    auto const r = compress_cascade(rows, kind, cascade_layout::runs);
    CHECK(r.num_runs() == 1);
    CHECK(r.run_lengths[0] == 999);
    CHECK(encode_cascade(rows, kind).is_cascade());
  }
  SECTION("all rows distinct") {
    host_strings rows;
    for (int i = 0; i < 500; ++i) rows.push_back("v" + std::to_string(i));
    check_round_trip(rows, kind);
    std::string why;
    auto const c = encode_cascade(rows, kind, {}, {}, &why);
    CHECK_FALSE(c.is_cascade());
    CHECK(why.find("more than 250 distinct") != std::string::npos);
  }
  SECTION("empty strings among the values, every byte value, runs") {
    host_strings rows;
    std::string all;
    for (int b = 0; b < 256; ++b) all.push_back(static_cast<char>(b));
    for (int i = 0; i < 3000; ++i) {
      int const k = (i / 7) % 4;
      rows.push_back(k == 0 ? std::string() : k == 1 ? all : k == 2 ? std::string("\xe6\x97\xa5\xe6\x9c\xac") : "x");
    }
    check_round_trip(rows, kind);
  }
}

TEST_CASE("cascade: stored size is counted as documented", "[cascade]")
{
  host_strings rows;
  for (int i = 0; i < 1000; ++i) rows.push_back(i % 4 == 0 ? "a" : "bb");
  auto const c = compress_cascade(rows, codec::onpair12, cascade_layout::indices);
  auto const s = cascade_stored_size(c);
  auto const d = column_stored_size(c.distinct);
  CHECK(s.ids == (1000 * 1 + 7) / 8);
  CHECK(s.run_lengths == 0);
  CHECK(s.paper() == d.paper() + s.ids);
  // Distinct row metadata: 3 entries of bit_width(num_codes) + bit_width(decoded bytes) bits.
  std::uint64_t const bits = bit_width_of(c.distinct.num_codes) + bit_width_of(c.distinct.decoded_bytes());
  CHECK(s.with_rows() == s.paper() + (3 * bits + 7) / 8);
  auto const r = compress_cascade(rows, codec::onpair12, cascade_layout::runs);
  CHECK(cascade_stored_size(r).run_lengths == r.run_lengths.stored_bytes());
}

TEST_CASE("cascade: validation of corrupt cascades", "[cascade]")
{
  host_strings rows;
  for (int i = 0; i < 100; ++i) rows.push_back(i % 10 < 6 ? "left" : (i % 3 ? "right" : ""));
  auto const good = compress_cascade(rows, codec::onpair16, cascade_layout::indices);
  auto const runs = compress_cascade(rows, codec::onpair16, cascade_layout::runs);
  REQUIRE_NOTHROW(validate(good));
  REQUIRE_NOTHROW(validate(runs));

  auto c = good;
  c.layout = static_cast<cascade_layout>(7);
  expect_invalid(c, "cascade.layout");

  c = good;
  c.distinct.row_byte_offsets[1] += 1;
  expect_invalid(c, "row_byte_offsets");

  c = good;
  c.ids.bits = 33;
  expect_invalid(c, "cascade.ids.bits");

  c = good;
  c.ids.words.pop_back();
  expect_invalid(c, "cascade.ids.words");

  c = good;  // a count so large that count * bits could overflow: refused before the words are checked
  c.ids.count = std::uint64_t{1} << 60;
  expect_invalid(c, "cascade.ids.count");
  CHECK_THROWS_WITH(validate(c), Catch::Contains("too large"));

  c = runs;
  c.run_lengths.count = std::uint64_t{1} << 60;
  CHECK_THROWS_WITH(validate(c), Catch::Contains("cascade.run_lengths.count") && Catch::Contains("too large"));

  c = good;
  c.ids.count += 1;
  c.ids.words.resize(packed_ints::words_for(c.ids.bits, c.ids.count));
  expect_invalid(c, "cascade.ids.count");

  c = good;  // an id >= the distinct count (2 bits hold 3; there are 3 distinct values: 0..2)
  REQUIRE(good.num_distinct() == 3);
  c.ids.words[0] |= 3u;
  expect_invalid(c, "cascade.ids[0]");

  c = good;
  c.run_lengths = packed_ints::pack({1, 2});
  expect_invalid(c, "cascade.run_lengths");

  c = runs;
  c.run_lengths.words.push_back(0);
  expect_invalid(c, "cascade.run_lengths.words");

  c = runs;
  c.run_lengths.bits = 40;
  expect_invalid(c, "cascade.run_lengths.bits");

  c = runs;
  c.run_lengths.count -= 1;
  c.run_lengths.words.resize(packed_ints::words_for(c.run_lengths.bits, c.run_lengths.count));
  expect_invalid(c, "cascade.run_lengths.count");

  c = runs;  // sum too small
  c.num_rows += 1;
  expect_invalid(c, "cascade.run_lengths");
  CHECK_THROWS_WITH(validate(c), Catch::Contains("sum"));

  c = runs;  // runs cover more than num_rows: stops at the first run past the end
  c.num_rows = 1;
  CHECK_THROWS_WITH(validate(c), Catch::Contains("cascade.run_lengths[") && Catch::Contains("more than num_rows"));

  c = runs;
  c.ids.words.assign(c.ids.words.size(), 0xFFFFFFFFu);
  expect_invalid(c, "cascade.ids[0]");

  c = good;  // rows but no distinct values
  c.distinct = compress(host_strings{}, codec::onpair16);
  expect_invalid(c, "cascade.ids[0]");

  // The decoders refuse corrupt input too.
  c = good;
  c.ids.bits = 33;
  CHECK_THROWS_AS(decode_reference(c), format_error);
  CHECK_THROWS_AS(decode_reference(any_column{c}), format_error);
}
