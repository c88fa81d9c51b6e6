// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// validate.hpp: a valid hand-made column passes; each field corrupted on its own is rejected with a
// format_error whose message names that field (and the offending value where there is one).
#include <fastpair/validate.hpp>

#include "utils/columns.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

using namespace fastpair;
using Catch::Contains;
using fastpair::testing::make_column;
using fastpair::testing::make_dictionary;

namespace {
// 258 tokens ("ab", 16-byte token), 3 rows of 8 codes, sidecar every 3 codes (3 entries).
compressed_column valid_column(codec kind = codec::onpair12)
{
  std::string const long_tok = kind == codec::fsst12 ? "12345678" : "0123456789abcdef";
  return make_column(kind, {"ab", long_tok}, {{256, 97, 257}, {}, {257, 257, 98, 256, 99}}, 3);
}

void repack(compressed_column& col, std::vector<std::uint16_t> const& codes)
{
  col.codes = pack_codes(col.kind, codes.data(), codes.size());
}
}  // namespace

TEST_CASE("validate accepts valid hand-made columns", "[validate]")
{
  codec const c = GENERATE(codec::onpair16, codec::onpair12, codec::fsst12);
  CHECK_NOTHROW(validate(valid_column(c)));
  CHECK_NOTHROW(validate(make_column(c, {}, {})));             // no rows
  CHECK_NOTHROW(validate(make_column(c, {}, {{}, {}, {}})));   // only empty rows
  auto no_sidecar = make_column(c, {"xy"}, {{256, 1, 2}}, 2, false);
  CHECK(no_sidecar.sidecar.empty());
  CHECK_NOTHROW(validate(no_sidecar));                         // sidecar is optional
  compressed_column def;                                       // default column lacks the bytes
  CHECK_THROWS_WITH(validate(def), Contains("dictionary.size") && Contains("0 tokens"));
}

TEST_CASE("validate: codec", "[validate]")
{
  auto col = valid_column();
  col.kind = static_cast<codec>(7);
  CHECK_THROWS_AS(validate(col), format_error);
  CHECK_THROWS_WITH(validate(col), Contains("codec: 7"));
  col.kind = static_cast<codec>(0);
  CHECK_THROWS_WITH(validate(col), Contains("codec: 0"));
}

TEST_CASE("validate: dictionary offsets", "[validate]")
{
  auto col = valid_column();
  SECTION("empty offsets")
  {
    col.dict.offsets.clear();
    CHECK_THROWS_WITH(validate(col), Contains("dictionary.offsets") && Contains("empty"));
  }
  SECTION("offsets[0] not zero")
  {
    col.dict.offsets[0] = 1;
    CHECK_THROWS_WITH(validate(col), Contains("dictionary.offsets[0]") && Contains("1"));
  }
  SECTION("last offset != byte count")
  {
    col.dict.bytes.push_back('z');
    CHECK_THROWS_WITH(validate(col), Contains("dictionary.offsets[258]") && Contains("275"));
  }
  SECTION("not monotone")
  {
    std::swap(col.dict.offsets[100], col.dict.offsets[101]);
    CHECK_THROWS_WITH(validate(col), Contains("dictionary.offsets[101]") && Contains("not monotone"));
  }
  SECTION("zero-length token")
  {
    col.dict.offsets[257] = col.dict.offsets[256];  // token 256 empty, token 257 three bytes longer
    CHECK_THROWS_WITH(validate(col), Contains("dictionary token 256") && Contains("length 0"));
  }
}

TEST_CASE("validate: dictionary token lengths", "[validate]")
{
  SECTION("17-byte token in OnPair")
  {
    auto col = make_column(codec::onpair16, {"0123456789abcdefg"}, {{97}});
    CHECK_THROWS_WITH(validate(col), Contains("dictionary token 256") && Contains("length 17") &&
                                         Contains("1..16"));
  }
  SECTION("9-byte token in FSST-12")
  {
    auto col = make_column(codec::fsst12, {"123456789"}, {{97}});
    CHECK_THROWS_WITH(validate(col), Contains("dictionary token 256") && Contains("length 9") &&
                                         Contains("1..8"));
    col.kind = codec::onpair12;  // the same dictionary is fine for OnPair-12
    CHECK_NOTHROW(validate(col));
  }
}

TEST_CASE("validate: dictionary size", "[validate]")
{
  SECTION("fewer than 256 tokens")
  {
    compressed_column col;
    col.kind = codec::onpair16;
    for (int b = 0; b < 255; ++b) col.dict.push_back(std::string(1, char(b)));
    CHECK_THROWS_WITH(validate(col), Contains("dictionary.size") && Contains("255 tokens"));
  }
  SECTION("more tokens than the 12-bit code space")
  {
    std::vector<std::string> extra;
    for (int i = 0; i < 4096 - 256 + 1; ++i) extra.push_back("t" + std::to_string(i));
    auto col = make_column(codec::onpair12, extra, {{97}});
    CHECK_THROWS_WITH(validate(col), Contains("dictionary.size") && Contains("4097") &&
                                         Contains("4096"));
    col.kind  = codec::onpair16;
    col.codes = pack_codes(codec::onpair16, std::vector<std::uint16_t>{97}.data(), 1);
    CHECK_NOTHROW(validate(col));
  }
}

TEST_CASE("validate: dictionary content", "[validate]")
{
  SECTION("duplicate token")
  {
    auto col = make_column(codec::onpair16, {"ab", "cd", "ab"}, {{256}});
    CHECK_THROWS_WITH(validate(col), Contains("dictionary token 258") && Contains("duplicate"));
  }
  SECTION("16-byte tokens: differing only in the last byte is fine, equal is a duplicate")
  {
    std::string const a(16, 'x');
    std::string b = a;
    b[15]         = 'y';
    std::string c = a;
    c[0]          = '\0';  // NUL bytes count as bytes
    auto ok       = make_column(codec::onpair16, {a, b, c, "xx", std::string(15, 'x')}, {{256}});
    CHECK_NOTHROW(validate(ok));
    auto dup = make_column(codec::onpair16, {a, b, c, a}, {{256}});
    CHECK_THROWS_WITH(validate(dup), Contains("dictionary token 259") && Contains("duplicate"));
    // Many tokens (the set grows past its first slots): 60 000 distinct, then one repeat at the end.
    std::vector<std::string> many;
    for (int i = 0; i < 60000; ++i) many.push_back("t" + std::to_string(i));
    auto big = make_column(codec::onpair16, many, {{256}});
    CHECK_NOTHROW(validate(big));
    many.push_back("t31337");
    auto big_dup = make_column(codec::onpair16, many, {{256}});
    CHECK_THROWS_WITH(validate(big_dup), Contains("dictionary token 60256") && Contains("duplicate"));
  }
  SECTION("duplicate of a one-byte token")
  {
    auto col = make_column(codec::onpair16, {"a"}, {{97}});
    CHECK_THROWS_WITH(validate(col), Contains("dictionary token 256") && Contains("duplicate"));
  }
  SECTION("missing one-byte token")
  {
    compressed_column col = make_column(codec::onpair16, {}, {{97}});
    dictionary d;
    for (int b = 0; b < 256; ++b) d.push_back(b == 65 ? std::string("AB") : std::string(1, char(b)));
    col.dict = d;
    CHECK_THROWS_WITH(validate(col), Contains("byte value 65 missing"));
  }
  SECTION("FSST-12: code b < 256 must be the byte b")
  {
    compressed_column col = make_column(codec::fsst12, {}, {{97}});
    dictionary d;
    d.push_back("\x01");
    d.push_back(std::string(1, '\0'));
    for (int b = 2; b < 256; ++b) d.push_back(std::string(1, char(b)));
    col.dict = d;
    CHECK_THROWS_WITH(validate(col), Contains("dictionary token 0") && Contains("FSST-12"));
    col.kind = codec::onpair12;  // OnPair puts the byte tokens anywhere
    col.codes = pack_codes(codec::onpair12, std::vector<std::uint16_t>{97}.data(), 1);
    CHECK_NOTHROW(validate(col));
  }
  SECTION("validate_dictionary on its own")
  {
    CHECK_NOTHROW(validate_dictionary(codec::fsst12, make_dictionary({"ab"})));
    CHECK_THROWS_WITH(validate_dictionary(codec::fsst12, make_dictionary({"abcdefghi"})),
                      Contains("length 9"));
  }
}

TEST_CASE("validate: codes", "[validate]")
{
  codec const c = GENERATE(codec::onpair16, codec::onpair12, codec::fsst12);
  auto col      = valid_column(c);
  SECTION("packed size too large")
  {
    col.codes.push_back(0);
    CHECK_THROWS_WITH(validate(col), Contains("codes: ") && Contains("for 8 codes"));
  }
  SECTION("packed size too small")
  {
    col.codes.pop_back();
    CHECK_THROWS_WITH(validate(col), Contains("codes: ") && Contains("for 8 codes"));
  }
  SECTION("num_codes absurd")
  {
    col.num_codes = ~std::uint64_t{0};
    CHECK_THROWS_WITH(validate(col), Contains("num_codes") && Contains("too large"));
  }
  SECTION("a code >= dictionary size")
  {
    repack(col, {256, 97, 258, 257, 257, 98, 256, 99});
    CHECK_THROWS_WITH(validate(col), Contains("code 2") && Contains("value 258") &&
                                         Contains(">= dictionary size 258"));
  }
  SECTION("the last code out of range (odd count at 12 bits)")
  {
    auto odd = make_column(c, {"ab"}, {{256, 97, 98}});
    repack(odd, {256, 97, 4095});
    CHECK_THROWS_WITH(validate(odd), Contains("code 2") && Contains("value 4095"));
  }
}

TEST_CASE("validate: row offsets", "[validate]")
{
  auto col = valid_column();  // row_code_offsets {0,3,3,8}, row_byte_offsets {0,19,19,55}
  REQUIRE(col.row_code_offsets == std::vector<std::uint64_t>{0, 3, 3, 8});
  REQUIRE(col.row_byte_offsets == std::vector<std::uint64_t>{0, 19, 19, 55});
  SECTION("row_code_offsets empty")
  {
    col.row_code_offsets.clear();
    CHECK_THROWS_WITH(validate(col), Contains("row_code_offsets") && Contains("empty"));
  }
  SECTION("row_byte_offsets wrong size")
  {
    col.row_byte_offsets.push_back(55);
    CHECK_THROWS_WITH(validate(col), Contains("row_byte_offsets") && Contains("5 entries, expected 4"));
  }
  SECTION("row_code_offsets[0] not zero")
  {
    col.row_code_offsets[0] = 1;
    CHECK_THROWS_WITH(validate(col), Contains("row_code_offsets[0]: 1"));
  }
  SECTION("row_byte_offsets[0] not zero")
  {
    col.row_byte_offsets[0] = 2;
    CHECK_THROWS_WITH(validate(col), Contains("row_byte_offsets[0]: 2"));
  }
  SECTION("wrong end")
  {
    col.row_code_offsets.back() = 7;
    CHECK_THROWS_WITH(validate(col), Contains("row_code_offsets[R]") && Contains("7 != num_codes 8"));
  }
  SECTION("non-monotone")
  {
    col.row_code_offsets[2] = 2;
    CHECK_THROWS_WITH(validate(col), Contains("row_code_offsets[2]") && Contains("not monotone"));
  }
  SECTION("beyond num_codes")
  {
    col.row_code_offsets[1] = 9;
    CHECK_THROWS_WITH(validate(col), Contains("row_code_offsets[1]") && Contains("9"));
  }
  SECTION("byte offsets inconsistent with the token lengths")
  {
    col.row_byte_offsets[1] = 18;
    CHECK_THROWS_WITH(validate(col), Contains("row_byte_offsets[1]") && Contains("18 != decoded size 19"));
  }
  SECTION("last byte offset wrong")
  {
    col.row_byte_offsets[3] = 57;
    CHECK_THROWS_WITH(validate(col), Contains("row_byte_offsets[3]") && Contains("57"));
  }
}

TEST_CASE("validate: sidecar", "[validate]")
{
  auto col = valid_column();  // stride 3 over 8 codes -> positions of codes 0, 3, 6
  REQUIRE(col.sidecar == std::vector<std::uint64_t>{0, 19, 52});
  SECTION("stride 0")
  {
    col.sidecar_stride = 0;
    CHECK_THROWS_WITH(validate(col), Contains("sidecar_stride: 0"));
  }
  SECTION("stride 0 without a sidecar")
  {
    col.sidecar.clear();
    col.sidecar_stride = 0;
    CHECK_THROWS_WITH(validate(col), Contains("sidecar_stride: 0"));
  }
  SECTION("too few entries")
  {
    col.sidecar.pop_back();
    CHECK_THROWS_WITH(validate(col), Contains("sidecar: 2 entries, expected 3"));
  }
  SECTION("too many entries")
  {
    col.sidecar.push_back(56);
    CHECK_THROWS_WITH(validate(col), Contains("sidecar: 4 entries, expected 3"));
  }
  SECTION("entries for another stride")
  {
    col.sidecar_stride = 4;  // 2 entries expected
    CHECK_THROWS_WITH(validate(col), Contains("expected 2"));
  }
  SECTION("wrong value")
  {
    col.sidecar[1] = 20;
    CHECK_THROWS_WITH(validate(col), Contains("sidecar[1]") && Contains("20 != decoded position 19"));
  }
  SECTION("first entry not zero")
  {
    col.sidecar[0] = 1;
    CHECK_THROWS_WITH(validate(col), Contains("sidecar[0]"));
  }
  SECTION("sidecar on a column without codes")
  {
    auto empty    = make_column(codec::onpair16, {}, {{}});
    empty.sidecar = {0};
    CHECK_THROWS_WITH(validate(empty), Contains("sidecar: 1 entries, expected 0"));
  }
}

TEST_CASE("validate: messages carry the common prefix", "[validate]")
{
  auto col = valid_column();
  col.row_code_offsets[0] = 5;
  CHECK_THROWS_WITH(validate(col), Catch::StartsWith("fastpair: invalid column: "));
}

TEST_CASE("validate: dictionary offsets that leave the byte buffer and come back", "[validate]")
{
  // Offsets climb past bytes.size() in 16-byte steps, a one-byte token lies past the buffer, and
  // the offsets come back down so that offsets[N] == bytes.size(). The one-byte-token scan read
  // that token's byte out of bounds before the descent was seen (fuzz/column-corpus holds this
  // column for the sanitizer build); the descent must be reported first.
  auto col           = valid_column(codec::onpair16);
  auto& off          = col.dict.offsets;  // 258 tokens, 274 bytes
  std::uint32_t pos  = 0;
  for (std::size_t i = 1; i <= 20; ++i) off[i] = pos += 16;  // 320 > 274
  off[21] = pos + 1;                                         // a one-byte token at byte 320
  off[22] = 5;                                               // back down
  REQUIRE(off.back() == col.dict.bytes.size());
  CHECK_THROWS_WITH(validate_dictionary(col.kind, col.dict), Contains("dictionary.offsets[22]") && Contains("not monotone"));
  CHECK_THROWS_WITH(validate(col), Contains("dictionary.offsets[22]") && Contains("not monotone"));
  CHECK_THROWS_WITH(validate_structure(col), Contains("dictionary.offsets[22]"));
}

TEST_CASE("validate_structure: the cheap checks alone", "[validate]")
{
  codec const c = GENERATE(codec::onpair16, codec::onpair12);
  auto col      = valid_column(c);
  CHECK_NOTHROW(validate_structure(col));
  SECTION("content errors pass the structural checks and fail validate()")
  {
    SECTION("code out of range")
    {
      auto codes = unpack_codes(col);
      codes[2]   = 3000;
      repack(col, codes);
    }
    SECTION("row byte offset off by one") { col.row_byte_offsets[3] -= 1; }
    SECTION("sidecar value off by one") { col.sidecar[1] += 1; }
    SECTION("duplicate token") { col = make_column(c, {"ab", "cd", "ab"}, {{256, 257}}); }
    CHECK_NOTHROW(validate_structure(col));
    CHECK_THROWS_AS(validate(col), format_error);
  }
  SECTION("structural errors fail both")
  {
    std::string field;
    SECTION("codes short") { col.codes.pop_back(); field = "codes"; }
    SECTION("rows end past num_codes") { col.row_code_offsets.back() += 1; field = "row_code_offsets[3]"; }
    SECTION("rows end before num_codes") { col.row_code_offsets.back() -= 1; field = "row_code_offsets[R]"; }
    SECTION("row code offsets past num_codes") { col.row_code_offsets[1] = 100; field = "row_code_offsets[1]"; }
    SECTION("row byte offsets descend") { col.row_byte_offsets[2] = 3; field = "row_byte_offsets[2]"; }
    SECTION("decoded size beyond 16 bytes a code") { col.row_byte_offsets[3] = 16 * 8 + 1; field = "row_byte_offsets[R]"; }
    SECTION("sidecar entries") { col.sidecar.pop_back(); field = "sidecar"; }
    SECTION("sidecar beyond the decoded size") { col.sidecar[2] = 56; field = "sidecar[2]"; }
    SECTION("sidecar descends") { col.sidecar[2] = 10; field = "sidecar[2]"; }
    SECTION("dictionary token too long") { col.dict.offsets[257] -= 1; col.dict.offsets[258] += 20; col.dict.bytes.resize(col.dict.bytes.size() + 20); field = "dictionary token 257"; }
    CHECK_THROWS_WITH(validate_structure(col), Contains(field));
    CHECK_THROWS_WITH(validate(col), Contains(field));
  }
}
