// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// format.hpp: code packing, code_at, split_lines, sidecar, token-length histogram, W choice, sizes.
#include <fastpair/format.hpp>
#include <fastpair/reference.hpp>
#include <fastpair/validate.hpp>

#include "utils/columns.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

using namespace fastpair;
using fastpair::testing::make_column;

namespace {
std::vector<std::uint16_t> random_codes(std::size_t n, std::uint32_t space, std::uint32_t seed)
{
  std::mt19937 rng(seed);
  std::vector<std::uint16_t> v(n);
  for (auto& c : v) c = static_cast<std::uint16_t>(rng() % space);
  return v;
}
}  // namespace

TEST_CASE("code widths and spaces", "[format]")
{
  CHECK(code_bits(codec::onpair16) == 16);
  CHECK(code_bits(codec::onpair12) == 12);
  CHECK(code_bits(codec::fsst12) == 12);
  CHECK(code_space(codec::onpair16) == 65536);
  CHECK(code_space(codec::onpair12) == 4096);
  CHECK(max_token_length(codec::fsst12) == 8);
  CHECK(max_token_length(codec::onpair12) == 16);
  CHECK(is_valid_codec(1));
  CHECK(is_valid_codec(3));
  CHECK_FALSE(is_valid_codec(0));
  CHECK_FALSE(is_valid_codec(4));
  for (codec c : {codec::onpair16, codec::onpair12, codec::fsst12})
    CHECK(parse_codec(codec_name(c)) == c);
  CHECK_THROWS_AS(parse_codec("zstd"), logic_error);
}

TEST_CASE("packed_code_bytes rounds up to whole bytes", "[format]")
{
  CHECK(packed_code_bytes(codec::onpair16, 0) == 0);
  CHECK(packed_code_bytes(codec::onpair16, 3) == 6);
  CHECK(packed_code_bytes(codec::onpair12, 0) == 0);
  CHECK(packed_code_bytes(codec::onpair12, 1) == 2);
  CHECK(packed_code_bytes(codec::onpair12, 2) == 3);
  CHECK(packed_code_bytes(codec::fsst12, 3) == 5);
  CHECK(packed_code_bytes(codec::fsst12, 4) == 6);
}

TEST_CASE("12-bit packing is LSB first", "[format]")
{
  std::vector<std::uint16_t> const codes = {0xABC, 0x123, 0xFFF};
  auto const p = pack_codes(codec::onpair12, codes.data(), codes.size());
  // bits: 0xABC | 0x123 << 12 = 0x123ABC -> bytes BC 3A 12; then 0xFFF -> FF 0F
  REQUIRE(p == std::vector<std::uint8_t>{0xBC, 0x3A, 0x12, 0xFF, 0x0F});
  CHECK(code_at(codec::onpair12, p.data(), 0) == 0xABC);
  CHECK(code_at(codec::onpair12, p.data(), 1) == 0x123);
  CHECK(code_at(codec::onpair12, p.data(), 2) == 0xFFF);
  auto const p16 = pack_codes(codec::onpair16, codes.data(), 2);
  CHECK(p16 == std::vector<std::uint8_t>{0xBC, 0x0A, 0x23, 0x01});
}

TEST_CASE("code packing round trips at 12 and 16 bits, odd and even counts", "[format]")
{
  codec const c           = GENERATE(codec::onpair16, codec::onpair12, codec::fsst12);
  std::size_t const n     = GENERATE(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 64, 1001);  // 4..9: the 4-code stores' edge
  auto const codes        = random_codes(n, code_space(c), static_cast<std::uint32_t>(n) + 17);
  auto const packed       = pack_codes(c, codes.data(), codes.size());
  REQUIRE(packed.size() == packed_code_bytes(c, n));
  for (std::size_t j = 0; j < n; ++j) REQUIRE(code_at(c, packed.data(), j) == codes[j]);
  CHECK(unpack_codes(c, packed.data(), n) == codes);
  if (code_bits(c) == 12 && (n & 1)) CHECK((packed.back() & 0xF0) == 0);  // padding nibble zero
}

TEST_CASE("split_lines", "[format]")
{
  CHECK(split_lines("").num_rows() == 0);
  auto const a = split_lines("a\nbc\n");
  REQUIRE(a.num_rows() == 2);
  CHECK(a.row(0) == "a");
  CHECK(a.row(1) == "bc");
  auto const b = split_lines("a\n\n\r\nz");
  REQUIRE(b.num_rows() == 4);
  CHECK(b.row(1).empty());
  CHECK(b.row(2) == "\r");
  CHECK(b.row(3) == "z");
  CHECK(b.offsets == std::vector<std::uint64_t>{0, 1, 1, 2, 3});
  auto const c = split_lines("\n");
  REQUIRE(c.num_rows() == 1);
  CHECK(c.row(0).empty());
}

TEST_CASE("compute_sidecar: decoded position of every stride-th code", "[format]")
{
  std::uint32_t const len[] = {1, 3, 16};
  std::uint16_t const codes[] = {0, 1, 2, 1, 0, 2, 2};  // positions 0 1 4 20 23 24 40
  CHECK(compute_sidecar(codes, 7, len, 1) ==
        std::vector<std::uint64_t>{0, 1, 4, 20, 23, 24, 40});
  CHECK(compute_sidecar(codes, 7, len, 3) == std::vector<std::uint64_t>{0, 20, 40});
  CHECK(compute_sidecar(codes, 7, len, 7) == std::vector<std::uint64_t>{0});
  CHECK(compute_sidecar(codes, 7, len, 100) == std::vector<std::uint64_t>{0});
  CHECK(compute_sidecar(codes, 0, len, 4).empty());
  CHECK_THROWS_AS(compute_sidecar(codes, 7, len, 0), logic_error);

  // The column overload agrees with a running sum over the decoded rows.
  auto col = make_column(codec::onpair12, {"abc", "0123456789abcdef"},
                         {{256, 97, 257}, {}, {257, 257, 98, 256, 99}}, 2, false);
  REQUIRE(col.sidecar.empty());
  compute_sidecar(col);
  CHECK(col.sidecar == std::vector<std::uint64_t>{0, 4, 36, 53});
  CHECK(col.sidecar.size() == col.sidecar_entries());
  CHECK(col.has_sidecar());
}

TEST_CASE("sidecar_entries and has_sidecar", "[format]")
{
  compressed_column col;
  CHECK(col.sidecar_entries() == 0);
  CHECK(col.has_sidecar());  // nothing to index
  col.num_codes      = 769;
  col.sidecar_stride = 768;
  CHECK(col.sidecar_entries() == 2);
  CHECK_FALSE(col.has_sidecar());
  col.sidecar_stride = 0;
  CHECK(col.sidecar_entries() == 0);
}

TEST_CASE("token_length_histogram counts codes, not dictionary entries", "[format]")
{
  auto const col = make_column(codec::onpair16, {"abcdefghi", "xy", "unused-token"},
                               {{256, 256, 257}, {97}, {256}});
  auto const h = token_length_histogram(col);
  CHECK(h[9] == 3);
  CHECK(h[2] == 1);
  CHECK(h[1] == 1);
  CHECK(h[12] == 0);
  std::uint64_t total = 0;
  for (auto v : h) total += v;
  CHECK(total == col.num_codes);
  CHECK(share_longer_than(h, 8) == Approx(0.6));
  CHECK(mean_token_length(h) == Approx((27.0 + 2 + 1) / 5));
  CHECK(share_longer_than(length_histogram{}, 8) == 0.0);
  CHECK(mean_token_length(length_histogram{}) == 0.0);
}

TEST_CASE("paper_low_plane_bytes: W=16 only when more than 60 % of tokens exceed 8 bytes",
          "[format]")
{
  length_histogram h{};
  h[4]  = 40;
  h[12] = 60;  // exactly 60 %: stays 8
  CHECK(paper_low_plane_bytes(codec::onpair16, h) == 8);
  h[12] = 61;
  CHECK(paper_low_plane_bytes(codec::onpair16, h) == 16);
  CHECK(paper_low_plane_bytes(codec::onpair12, h) == 16);
  CHECK(paper_low_plane_bytes(codec::fsst12, h) == 8);  // FSST-12 tokens fit 8 bytes
  CHECK(paper_low_plane_bytes(codec::onpair16, length_histogram{}) == 8);
}

TEST_CASE("column_stored_size", "[format]")
{
  auto const col = make_column(codec::onpair12, {"abcd", "ef"}, {{256, 257, 97}, {98}}, 2);
  auto const s   = column_stored_size(col);
  CHECK(s.dictionary == (256 + 6) + 258);  // token bytes + one length byte per token
  CHECK(s.codes == packed_code_bytes(codec::onpair12, 4));
  CHECK(s.sidecar == 8 * 2);
  CHECK(s.row_metadata == 3 * (4 + 4));
  CHECK(s.paper() == s.dictionary + s.codes + s.sidecar);
  CHECK(s.with_rows() == s.paper() + s.row_metadata);

  compressed_column big;  // only the counts matter
  big.num_codes        = 0x100000000ull;
  big.row_byte_offsets = {0, 0x100000000ull};
  big.row_code_offsets = {0, 0x100000000ull};
  CHECK(column_stored_size(big).row_metadata == 2 * (8 + 8));
}

TEST_CASE("tile_column repeats rows into a valid column", "[format]")
{
  for (codec kind : {codec::onpair16, codec::onpair12, codec::fsst12}) {
    std::string const long_token = kind == codec::fsst12 ? "abcdefgh" : "abcdefghijklmnop";
    for (std::size_t ncodes : {std::size_t{7}, std::size_t{8}}) {  // odd and even 12-bit streams
      std::vector<std::vector<std::uint16_t>> rows = {{256, 'a'}, {}, {}};
      for (std::size_t i = 2; i < ncodes; ++i) rows[2].push_back(static_cast<std::uint16_t>(i % 2 ? 257 : 'z'));
      auto const col  = make_column(kind, {"hello", long_token}, rows, 3);
      auto const once = decode_reference(col);
      auto const one  = unpack_codes(col);
      for (std::uint64_t reps : {2u, 3u, 4u, 5u}) {  // odd and even numbers of copies
        CAPTURE(codec_name(kind), ncodes, reps);
        std::uint64_t const min_bytes = reps * col.decoded_bytes() - 1;
        auto const tiled = tile_column(col, min_bytes);
        REQUIRE_NOTHROW(validate(tiled));
        REQUIRE(tiled.num_rows() == reps * col.num_rows());
        REQUIRE(tiled.num_codes == reps * col.num_codes);
        REQUIRE(tiled.decoded_bytes() == reps * col.decoded_bytes());
        auto const back = decode_reference(tiled);
        for (std::size_t r = 0; r < tiled.num_rows(); ++r) REQUIRE(back.row(r) == once.row(r % col.num_rows()));
        // The packed stream is the repeated codes packed in one go.
        std::vector<std::uint16_t> repeated;
        for (std::uint64_t k = 0; k < reps; ++k) repeated.insert(repeated.end(), one.begin(), one.end());
        REQUIRE(tiled.codes == pack_codes(kind, repeated.data(), repeated.size()));
        // The sidecar equals a recomputation from the tiled codes.
        auto recomputed = tiled;
        compute_sidecar(recomputed);
        REQUIRE(tiled.sidecar == recomputed.sidecar);
      }
      // Already large enough, or empty: returned unchanged.
      REQUIRE(tile_column(col, col.decoded_bytes()).num_codes == col.num_codes);
    }
  }
  compressed_column empty;
  REQUIRE(tile_column(empty, 1000).num_rows() == 0);
}

TEST_CASE("tiled_column_bytes gives the tiled column's host bytes before building it", "[format]")
{
  // By hand: 256 + 1 tokens ("hello": 261 token bytes, 258 u32 offsets = 1032 bytes); rows
  // {hello, a} and {b}: 3 codes, 7 decoded bytes. Tiled to >= 20 bytes: 3 copies, 9 codes packed
  // at 12 bits = 14 bytes, 6 rows = 7 entries in each of two u64 arrays = 112 bytes, one sidecar
  // entry at stride 768 = 8 bytes. 261 + 1032 + 14 + 112 + 8 = 1427.
  {
    auto const col = make_column(codec::onpair12, {"hello"}, {{256, 'a'}, {'b'}});
    REQUIRE(col.decoded_bytes() == 7);
    CHECK(tiled_column_bytes(col, 20) == 1427);
    CHECK(column_host_bytes(tile_column(col, 20)) == 1427);
    // The same column as OnPair-16: 9 codes at 16 bits = 18 bytes.
    auto const col16 = make_column(codec::onpair16, {"hello"}, {{256, 'a'}, {'b'}});
    CHECK(tiled_column_bytes(col16, 20) == 1431);
    // Not tiled (already >= min_bytes): the column's own bytes, 261 + 1032 + 5 (3 codes at 12
    // bits) + 2 * 3 * 8 (row offsets) + 8 (sidecar) = 1354.
    CHECK(tiled_column_bytes(col, 7) == 1354);
    CHECK(column_host_bytes(col) == 1354);
  }
  // The estimate equals the built column for every codec, odd and even code counts, odd and even
  // numbers of copies, and several sidecar strides.
  for (codec kind : {codec::onpair16, codec::onpair12, codec::fsst12}) {
    for (std::size_t ncodes : {std::size_t{1}, std::size_t{7}, std::size_t{8}, std::size_t{801}}) {
      for (std::uint32_t stride : {1u, 5u, 768u}) {
        std::vector<std::vector<std::uint16_t>> rows = {{}, {}};
        for (std::size_t i = 0; i < ncodes; ++i) rows[i % 3 == 0 ? 0 : 1].push_back(static_cast<std::uint16_t>(i % 5 ? 'a' + i % 26 : 256));
        auto const col = make_column(kind, {"xyz"}, rows, stride);
        for (std::uint64_t min_bytes : {std::uint64_t{0}, col.decoded_bytes(), col.decoded_bytes() + 1,
                                        3 * col.decoded_bytes(), 1'000 * col.decoded_bytes() + 7}) {
          CAPTURE(codec_name(kind), ncodes, stride, min_bytes);
          std::uint64_t const est = tiled_column_bytes(col, min_bytes);
          auto const tiled        = tile_column(col, min_bytes);
          REQUIRE(est == column_host_bytes(tiled));
          REQUIRE_NOTHROW(validate(tiled));
          // max_host_bytes: the exact estimate is allowed, one byte less is refused.
          REQUIRE(tile_column(col, min_bytes, est).num_codes == tiled.num_codes);
          REQUIRE_THROWS_AS(tile_column(col, min_bytes, est - 1), fastpair::logic_error);
        }
      }
    }
  }
}

TEST_CASE("tile_column: counts that overflow 64 bits are refused before allocating", "[format]")
{
  using Catch::Matchers::Contains;
  auto refused = [](compressed_column const& col, std::uint64_t min_bytes, std::string const& what) {
    CAPTURE(what);
    REQUIRE_THROWS_AS(tiled_column_bytes(col, min_bytes), fastpair::logic_error);
    REQUIRE_THROWS_WITH(tiled_column_bytes(col, min_bytes), Contains(what));
    REQUIRE_THROWS_AS(tile_column(col, min_bytes), fastpair::logic_error);
    REQUIRE_THROWS_WITH(tile_column(col, min_bytes), Contains(what));
  };
  // Only the claimed counts matter: no codes are stored.
  compressed_column c;
  c.kind             = codec::onpair16;
  c.num_codes        = std::uint64_t{1} << 40;
  c.row_code_offsets = {0, c.num_codes};
  c.row_byte_offsets = {0, 1};
  // 2^40 codes x 2^30 copies
  refused(c, std::uint64_t{1} << 30, "1099511627776 codes x 1073741824 repetitions overflows 64 bits");
  // 2^32 codes x 2^30 copies fits, but not at 12 bits per code
  c.kind             = codec::onpair12;
  c.num_codes        = std::uint64_t{1} << 32;
  c.row_code_offsets = {0, c.num_codes};
  refused(c, std::uint64_t{1} << 30, "4611686018427387904 tiled codes x 12 bits per code overflows 64 bits");
  // five rows (four of them empty) of one code and one byte, 2^62 copies: the rows overflow
  c.kind             = codec::onpair16;
  c.num_codes        = 1;
  c.row_code_offsets = {0, 1, 1, 1, 1, 1};
  c.row_byte_offsets = {0, 1, 1, 1, 1, 1};
  refused(c, std::uint64_t{1} << 62, "5 rows x 4611686018427387904 repetitions overflows 64 bits");
  // one row, 2^61 copies: 2^61 + 1 row offset entries fit, their 16 bytes each do not
  c.num_codes        = 0;
  c.row_code_offsets = {0, 0};
  c.row_byte_offsets = {0, 1};
  refused(c, std::uint64_t{1} << 61, "2305843009213693953 row offset entries x 16 bytes per entry");
  // 2^63 + 1 decoded bytes tiled to >= 2^64 - 1: two copies, whose size overflows (the old
  // ceil(min_bytes + d - 1) / d wrapped to 0 copies instead)
  c.num_codes        = 1;
  c.row_code_offsets = {0, 1};
  c.row_byte_offsets = {0, (std::uint64_t{1} << 63) + 1};
  refused(c, ~std::uint64_t{0}, "9223372036854775809 decoded bytes x 2 repetitions overflows 64 bits");
  // A claimed count that fits but does not match the stored codes: refused, not read past.
  auto bad      = make_column(codec::onpair12, {}, {{'a', 'b', 'c'}});
  bad.num_codes = 5;
  REQUIRE_THROWS_AS(tile_column(bad, 100), fastpair::logic_error);
}
