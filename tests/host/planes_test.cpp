// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// planes.hpp: fixed-stride low/high planes for W = 8 and 16, nibble lengths, unused entries zero.
#include <fastpair/planes.hpp>
#include <fastpair/reference.hpp>
#include <fastpair/validate.hpp>

#include "utils/columns.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using namespace fastpair;
using fastpair::testing::make_dictionary;

namespace {
bool all_zero(std::vector<std::uint8_t> const& v, std::size_t from, std::size_t to)
{
  return std::all_of(v.begin() + static_cast<std::ptrdiff_t>(from),
                     v.begin() + static_cast<std::ptrdiff_t>(to), [](std::uint8_t b) { return b == 0; });
}
std::uint32_t nibble_length(dictionary_planes const& p, std::uint32_t e)
{
  return ((p.entry_lengths[e / 2] >> (4 * (e & 1))) & 0xF) + 1;
}
}  // namespace

TEST_CASE("planes: W=8 split read for OnPair", "[planes]")
{
  codec const c = GENERATE(codec::onpair16, codec::onpair12);
  // 256: 3 bytes, 257: exactly 8, 258: 9 (straddles W), 259: 16
  auto const d = make_dictionary({"abc", "ABCDEFGH", "123456789", "0123456789abcdef"});
  auto const p = build_planes(c, d, 8);
  REQUIRE(p.low_plane_bytes == 8);
  REQUIRE(p.entries == code_space(c));
  REQUIRE(p.num_tokens == 260);
  REQUIRE(p.lo.size() == std::size_t{p.entries} * 8);
  REQUIRE(p.hi.size() == std::size_t{p.entries} * 8);
  REQUIRE(p.entry_lengths.size() == p.entries / 2);

  // one-byte tokens: byte in lo[e*8], rest zero, no hi bytes
  for (std::uint32_t b = 0; b < 256; ++b) {
    REQUIRE(p.lo[b * 8] == b);
    REQUIRE(all_zero(p.lo, b * 8 + 1, b * 8 + 8));
    REQUIRE(all_zero(p.hi, b * 8, b * 8 + 8));
    REQUIRE(nibble_length(p, b) == 1);
  }
  auto lo = [&](std::uint32_t e) { return std::string(p.lo.begin() + e * 8, p.lo.begin() + e * 8 + 8); };
  auto hi = [&](std::uint32_t e) { return std::string(p.hi.begin() + e * 8, p.hi.begin() + e * 8 + 8); };
  CHECK(lo(256) == std::string("abc\0\0\0\0\0", 8));
  CHECK(hi(256) == std::string(8, '\0'));
  CHECK(lo(257) == "ABCDEFGH");
  CHECK(hi(257) == std::string(8, '\0'));
  CHECK(lo(258) == "12345678");
  CHECK(hi(258) == std::string("9\0\0\0\0\0\0\0", 8));
  CHECK(lo(259) == "01234567");
  CHECK(hi(259) == "89abcdef");
  CHECK(nibble_length(p, 256) == 3);
  CHECK(nibble_length(p, 257) == 8);
  CHECK(nibble_length(p, 258) == 9);
  CHECK(nibble_length(p, 259) == 16);
  // nibble order: even entry in the low nibble
  CHECK(p.entry_lengths[128] == ((8 - 1) << 4 | (3 - 1)));
  CHECK(p.entry_lengths[129] == ((16 - 1) << 4 | (9 - 1)));
  // unused entries are zero everywhere
  CHECK(all_zero(p.lo, 260 * 8, p.lo.size()));
  CHECK(all_zero(p.hi, 260 * 8, p.hi.size()));
  CHECK(all_zero(p.entry_lengths, 130, p.entry_lengths.size()));
}

TEST_CASE("planes: W=16 has no high plane", "[planes]")
{
  codec const c = GENERATE(codec::onpair16, codec::onpair12, codec::fsst12);
  std::string const tok = c == codec::fsst12 ? "12345678" : "0123456789abcdef";
  auto const d = make_dictionary({tok, "xy"});
  auto const p = build_planes(c, d, 16);
  REQUIRE(p.low_plane_bytes == 16);
  REQUIRE(p.hi.empty());
  REQUIRE(p.lo.size() == std::size_t{code_space(c)} * 16);
  std::string padded = tok;
  padded.resize(16, '\0');
  CHECK(std::string(p.lo.begin() + 256 * 16, p.lo.begin() + 257 * 16) == padded);
  CHECK(std::string(p.lo.begin() + 257 * 16, p.lo.begin() + 258 * 16) == std::string("xy") + std::string(14, '\0'));
  CHECK(nibble_length(p, 256) == tok.size());
  CHECK(nibble_length(p, 257) == 2);
  CHECK(all_zero(p.lo, 258 * 16, p.lo.size()));
  CHECK(all_zero(p.entry_lengths, 129, p.entry_lengths.size()));
}

TEST_CASE("planes: FSST-12 has no high plane at W=8", "[planes]")
{
  auto const d = make_dictionary({"12345678", "ab", "q"});
  REQUIRE_THROWS(validate_dictionary(codec::fsst12, d));  // "q" duplicates the byte token
  auto const good = make_dictionary({"12345678", "ab"});
  auto const p    = build_planes(codec::fsst12, good, 8);
  CHECK(p.hi.empty());
  CHECK(p.entries == 4096);
  CHECK(p.lo.size() == 4096u * 8);
  CHECK(std::string(p.lo.begin() + 256 * 8, p.lo.begin() + 257 * 8) == "12345678");
  CHECK(nibble_length(p, 256) == 8);
  CHECK(nibble_length(p, 257) == 2);
  CHECK(all_zero(p.lo, 258 * 8, p.lo.size()));
}

TEST_CASE("planes: preconditions", "[planes]")
{
  auto const d = make_dictionary({"ab"});
  CHECK_THROWS_AS(build_planes(codec::onpair16, d, 4), logic_error);
  CHECK_THROWS_AS(build_planes(codec::onpair16, d, 12), logic_error);
  // a 9-byte token in an (unvalidated) FSST-12 dictionary is refused, not copied out of bounds
  CHECK_THROWS_AS(build_planes(codec::fsst12, make_dictionary({"123456789"}), 8), logic_error);
  dictionary bad = make_dictionary();
  bad.offsets.back() = bad.offsets[bad.size() - 1];  // last token empty
  bad.bytes.pop_back();
  CHECK_THROWS_AS(build_planes(codec::onpair12, bad, 8), logic_error);
}

namespace {
/** Decodes rows of a split stream on the CPU, through its own dictionary planes. */
std::string split_row(split_stream const& s, std::uint64_t r)
{
  std::string out;
  for (std::uint64_t i = s.row_code_offsets[r]; i < s.row_code_offsets[r + 1]; ++i) {
    std::uint32_t const code = s.words[i] & ((1u << split_code_bits) - 1);
    std::uint32_t const len  = (s.words[i] >> split_code_bits) + 1u;
    REQUIRE(len == nibble_length(s.planes, code));
    out.append(reinterpret_cast<char const*>(&s.planes.lo[std::size_t{code} * 8]), len);
  }
  return out;
}
}  // namespace

TEST_CASE("split stream: tokens of more than 8 bytes become two codes", "[planes]")
{
  // 256: 3 bytes, 257: exactly 8, 258: 9 (straddles 8), 259: 16
  auto const col = fastpair::testing::make_column(codec::onpair12, {"abc", "ABCDEFGH", "123456789", "0123456789abcdef"},
                                                  {{256, 257, 258, 259}, {}, {259}, {'x', 258}, {}, {257, 257, 259, 'q'}});
  auto const ref = decode_reference(col);
  for (std::uint32_t stride : {1u, 2u, 3u, 768u}) {
    auto const codes = unpack_codes(col);
    auto const s     = build_split_stream(col, codes, stride);
    // 262 entries: the 256 bytes, the 4 tokens cut to 8 bytes, the high parts of 258 and 259
    REQUIRE(s.planes.low_plane_bytes == 8);
    REQUIRE(s.planes.entries == 8192);
    REQUIRE(s.planes.hi.empty());
    REQUIRE(s.planes.num_tokens == 262);
    REQUIRE(std::string(reinterpret_cast<char const*>(&s.planes.lo[260 * 8]), 1) == "9");
    REQUIRE(std::string(reinterpret_cast<char const*>(&s.planes.lo[261 * 8]), 8) == "89abcdef");
    REQUIRE(all_zero(s.planes.lo, 262 * 8, s.planes.lo.size()));
    // 11 codes, 5 of them tokens > 8 bytes: 16 words
    REQUIRE(s.words.size() == 16);
    REQUIRE(s.row_code_offsets == std::vector<std::uint64_t>{0, 6, 6, 8, 11, 11, 16});
    for (std::uint64_t r = 0; r < col.num_rows(); ++r) REQUIRE(split_row(s, r) == std::string(ref.row(r)));
    // The sidecar: the decoded position of every stride-th word, then the decoded size, written
    // out by hand. Word lengths (a token > 8 bytes is its first 8 bytes, then the rest):
    //   row 0: 256 257 258 259    -> 3 8 | 8 1 | 8 8   (words 0-5,  bytes  0-35)
    //   row 2: 259                -> 8 8               (words 6-7,  bytes 36-51)
    //   row 3: 'x' 258            -> 1 | 8 1           (words 8-10, bytes 52-61)
    //   row 5: 257 257 259 'q'    -> 8 8 | 8 8 | 1     (words 11-15, bytes 62-94)
    // so word i starts at byte 0 3 11 19 20 28 36 44 52 53 61 62 70 78 86 94, and the column
    // decodes to 95 bytes.
    std::vector<std::uint64_t> const expect = stride == 1   ? std::vector<std::uint64_t>{0, 3, 11, 19, 20, 28, 36, 44, 52,
                                                                                         53, 61, 62, 70, 78, 86, 94, 95}
                                              : stride == 2 ? std::vector<std::uint64_t>{0, 11, 20, 36, 52, 61, 70, 86, 95}
                                              : stride == 3 ? std::vector<std::uint64_t>{0, 19, 36, 53, 70, 94, 95}
                                                            : std::vector<std::uint64_t>{0, 95};
    REQUIRE(col.decoded_bytes() == 95);
    REQUIRE(s.sidecar == expect);
    // Row starts fall on words 0, 6, 8 and 11: where the sidecar has them, they are the rows'
    // decoded offsets from the reference decode.
    if (stride == 1) {
      REQUIRE(s.sidecar[6] == ref.offsets[2]);
      REQUIRE(s.sidecar[8] == ref.offsets[3]);
      REQUIRE(s.sidecar[11] == ref.offsets[5]);
    }
  }
}

TEST_CASE("split stream: bad input is refused", "[planes]")
{
  auto const col = fastpair::testing::make_column(codec::onpair12, {"abc"}, {{256, 1}});
  auto codes     = unpack_codes(col);
  codes[1]       = 257;  // outside the dictionary of 257 tokens
  REQUIRE_THROWS_AS(build_split_stream(col, codes, 768), format_error);
  REQUIRE_THROWS_AS(build_split_stream(col, unpack_codes(col), 0), std::logic_error);
  auto const col16 = fastpair::testing::make_column(codec::onpair16, {"abc"}, {{256}});
  REQUIRE_THROWS_AS(build_split_stream(col16, unpack_codes(col16), 768), std::logic_error);
}
