// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// reference.hpp: the CPU oracle on hand-made columns (empty column, empty rows, 16-byte tokens,
// row ranges, greedy-encoded text) and its refusal of invalid input.
#include <fastpair/reference.hpp>

#include "utils/columns.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

using namespace fastpair;
using fastpair::testing::make_column;
using fastpair::testing::make_text_column;

TEST_CASE("reference: the documented example", "[reference]")
{
  codec const c = GENERATE(codec::onpair16, codec::onpair12, codec::fsst12);
  auto const col = make_column(c, {"ab", "cd"}, {{256, 257}, {}, {97}});
  auto const out = decode_reference(col);
  CHECK(out.offsets == std::vector<std::uint64_t>{0, 4, 4, 5});
  CHECK(std::string(out.chars.begin(), out.chars.end()) == "abcda");
}

TEST_CASE("reference: empty column and empty rows", "[reference]")
{
  codec const c = GENERATE(codec::onpair16, codec::onpair12, codec::fsst12);
  auto const none = decode_reference(make_column(c, {}, {}));
  CHECK(none.num_rows() == 0);
  CHECK(none.offsets == std::vector<std::uint64_t>{0});
  CHECK(none.chars.empty());
  auto const blank = decode_reference(make_column(c, {}, {{}, {}, {}}));
  CHECK(blank.offsets == std::vector<std::uint64_t>{0, 0, 0, 0});
  CHECK(blank.chars.empty());
}

TEST_CASE("reference: 16-byte tokens back to back and every byte value", "[reference]")
{
  codec const c = GENERATE(codec::onpair16, codec::onpair12);
  std::string const a = "0123456789abcdef", b = "ABCDEFGHIJKLMNOP";
  auto const col = make_column(c, {a, b}, {{256, 257, 256, 0, 255}, {257}});
  auto const out = decode_reference(col);
  REQUIRE(out.num_rows() == 2);
  CHECK(out.row(0) == a + b + a + std::string(1, '\0') + std::string(1, '\xff'));
  CHECK(out.row(1) == b);

  std::vector<std::uint16_t> bytes(256);
  for (int i = 0; i < 256; ++i) bytes[i] = static_cast<std::uint16_t>(i);
  auto const all = decode_reference(make_column(codec::fsst12, {}, {bytes}));
  REQUIRE(all.chars.size() == 256);
  for (int i = 0; i < 256; ++i) CHECK(static_cast<unsigned char>(all.chars[i]) == i);
}

TEST_CASE("reference: greedy-encoded text decodes back to the rows", "[reference]")
{
  codec const c = GENERATE(codec::onpair16, codec::onpair12, codec::fsst12);
  std::vector<std::string> const rows = {"GET /index.html HTTP/1.1", "", "GET /a.png HTTP/1.1",
                                         std::string("bin\0ary\xff", 8), "x"};
  std::vector<std::string> const extra =
    c == codec::fsst12 ? std::vector<std::string>{"GET ", "HTTP/1.1", "in", "dex", ".html"}
                       : std::vector<std::string>{"GET /index.html ", "HTTP/1.1", " HTTP/1.1"};
  auto const col = make_text_column(c, extra, rows, 2);
  REQUIRE(col.num_codes < 52);  // 52 decoded bytes: the extra tokens were used
  auto const out = decode_reference(col);
  REQUIRE(out.num_rows() == rows.size());
  for (std::size_t r = 0; r < rows.size(); ++r) CHECK(out.row(r) == rows[r]);
}

TEST_CASE("reference: every row range equals the slice of the full decode", "[reference]")
{
  auto const col = make_text_column(codec::onpair12, {"ab", "abc", "0123456789abcdef"},
                                    {"abcabc", "", "0123456789abcdef0", "a", "", "ababab"}, 2);
  auto const full = decode_reference(col);
  for (std::uint64_t b = 0; b <= col.num_rows(); ++b)
    for (std::uint64_t e = b; e <= col.num_rows(); ++e) {
      auto const part = decode_reference(col, b, e);
      REQUIRE(part.num_rows() == e - b);
      REQUIRE(part.offsets[0] == 0);
      for (std::uint64_t r = b; r < e; ++r) REQUIRE(part.row(r - b) == full.row(r));
      REQUIRE(part.chars.size() == full.offsets[e] - full.offsets[b]);
    }
}

TEST_CASE("reference: refuses invalid input", "[reference]")
{
  auto col = make_column(codec::onpair16, {"ab"}, {{256}, {97}});
  CHECK_THROWS_AS(decode_reference(col, 1, 3), logic_error);
  CHECK_THROWS_AS(decode_reference(col, 2, 1), logic_error);
  col.row_byte_offsets[2] = 100;  // would write past the output if trusted
  CHECK_THROWS_AS(decode_reference(col), format_error);
  CHECK_THROWS_WITH(decode_reference(col), Catch::Contains("row_byte_offsets[R]: 100 > 16 x num_codes 2"));
  col.row_byte_offsets[2] = 4;  // a plausible size that the tokens do not add up to
  CHECK_THROWS_WITH(decode_reference(col), Catch::Contains("row_byte_offsets[2]: 4 != decoded size 3"));
}
