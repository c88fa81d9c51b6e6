// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// io.hpp: .fpc round trips, the byte layout of docs/FORMAT.md, and rejection of malformed files
// (every truncation, every flipped byte, each header field and section corrupted on its own).
#include <fastpair/io.hpp>
#include <fastpair/reference.hpp>

#include "utils/columns.hpp"
#include "utils/fpc_checksums.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

using namespace fastpair;
using Catch::Contains;
using fastpair::detail::load_le32;
using fastpair::detail::load_le64;
using fastpair::detail::store_le32;
using fastpair::detail::store_le64;
using fastpair::testing::make_column;
using fastpair::testing::make_text_column;

namespace {

compressed_column sample(codec c, bool sidecar = true)
{
  std::vector<std::string> const extra =
    c == codec::fsst12 ? std::vector<std::string>{"GET ", "HTTP/1.1", "in", "dex", ".html"}
                       : std::vector<std::string>{"GET /index.html ", "HTTP/1.1", "png"};
  return make_text_column(c, extra,
                          {"GET /index.html HTTP/1.1", "", "GET /a.png HTTP/1.1", "x"}, 3, sidecar);
}

// Recomputes the header checksum and every in-bounds section checksum (as the fuzzer does), so a
// test can corrupt a field and reach the check that follows the checksums.
void fix_checksums(std::vector<std::uint8_t>& b) { fastpair::testing::fix_fpc_checksums(b); }
void fix_checksums_v2(std::vector<std::uint8_t>& b) { fastpair::testing::fix_fpc_checksums_v2(b); }

// Offset of section `id`'s 24-byte header in a well-formed file.
std::size_t section_at(std::vector<std::uint8_t> const& b, std::uint32_t id)
{
  std::size_t pos = fpc_header_bytes;
  for (std::uint32_t i = 1; i < id; ++i) pos += fpc_section_header_bytes + load_le64(b.data() + pos + 8);
  return pos;
}

void require_same(compressed_column const& a, compressed_column const& b)
{
  REQUIRE(a.kind == b.kind);
  REQUIRE(a.dict == b.dict);
  REQUIRE(a.codes == b.codes);
  REQUIRE(a.num_codes == b.num_codes);
  REQUIRE(a.row_code_offsets == b.row_code_offsets);
  REQUIRE(a.row_byte_offsets == b.row_byte_offsets);
  REQUIRE(a.sidecar_stride == b.sidecar_stride);
  REQUIRE(a.sidecar == b.sidecar);
}

}  // namespace

TEST_CASE("fpc_checksum test vectors", "[io]")
{
  auto const* s = reinterpret_cast<std::uint8_t const*>("FASTPAIR-fpc64");
  CHECK(fpc_checksum(s, 0) == 0x877e2011d918dd23ull);
  CHECK(fpc_checksum(s, 8) == 0xb24febd0ca7979c3ull);
  CHECK(fpc_checksum(s, 14) == 0xd504b9e5ba48d5b6ull);
  // A zero byte appended changes the sum (the length is part of the seed).
  std::uint8_t z[9] = {};
  CHECK(fpc_checksum(z, 8) != fpc_checksum(z, 9));
}

TEST_CASE("fpc row offset width: 4 bytes while the last offset fits in 32 bits", "[io]")
{
  using fastpair::detail::fpc_offset_width;
  CHECK(fpc_offset_width(0) == 4);
  CHECK(fpc_offset_width(0xFFFFFFFFull) == 4);
  CHECK(fpc_offset_width(0x100000000ull) == 8);
  auto m = serialize(sample(codec::onpair16), 1);
  store_le64(&m[56], 0x100000000ull);  // decoded_bytes that needs 8-byte offsets
  fix_checksums(m);
  CHECK_THROWS_WITH(deserialize(m), Contains("row_byte_offsets width: 4") && Contains("needs 8"));
}

TEST_CASE("fpc round trip, both versions, all codecs, with and without sidecar", "[io]")
{
  std::uint32_t const v = GENERATE(1u, 2u);
  codec const c    = GENERATE(codec::onpair16, codec::onpair12, codec::fsst12);
  bool const side  = GENERATE(true, false);
  auto const col   = sample(c, side);
  REQUIRE(col.sidecar.empty() == !side);
  auto const bytes = serialize(col, v);
  CHECK(load_le32(&bytes[8]) == v);
  CHECK(bytes.size() == fpc_file_bytes(col, v));
  auto const back  = deserialize(bytes);
  require_same(col, back);
  CHECK(serialize(back, v) == bytes);
  CHECK(decode_reference(back) == decode_reference(col));

  // empty column, empty rows, rows without codes, rows of equal counts (count_bits 0)
  for (auto const& e : {make_column(c, {}, {}), make_column(c, {"ab"}, {{}, {256, 97}, {}}, 1),
                        make_column(c, {}, {{}, {}, {}}), make_column(c, {"ab"}, {{97, 98}, {256, 97}, {98, 98}}, 2),
                        make_column(c, {"ab"}, {{256, 97}}, 1, false)}) {
    auto const b = serialize(e, v);
    CHECK(b.size() == fpc_file_bytes(e, v));
    require_same(e, deserialize(b));
    CHECK(serialize(deserialize(b), v) == b);
  }
}

TEST_CASE("fpc byte layout matches docs/FORMAT.md", "[io]")
{
  auto const col = sample(codec::onpair12);  // 259 tokens, sidecar stride 3
  auto const b   = serialize(col, 1);
  REQUIRE(std::string(b.begin(), b.begin() + 8) == "FASTPAIR");
  CHECK(load_le32(&b[8]) == 1);
  CHECK(b[12] == 2);  // codec onpair12
  CHECK(b[13] == 1);  // sidecar flag
  CHECK(b[14] == 4);  // row_code_offsets stored as u32
  CHECK(b[15] == 4);  // row_byte_offsets stored as u32
  CHECK(load_le32(&b[16]) == 3);
  CHECK(load_le32(&b[20]) == 0);
  CHECK(load_le64(&b[24]) == 259);
  CHECK(load_le64(&b[32]) == col.num_codes);
  CHECK(load_le64(&b[40]) == 4);
  CHECK(load_le64(&b[48]) == col.sidecar.size());
  CHECK(load_le64(&b[56]) == col.decoded_bytes());
  CHECK(load_le32(&b[64]) == 6);
  CHECK(load_le32(&b[68]) == 0);
  CHECK(load_le64(&b[72]) == fpc_checksum(b.data(), 72));
  std::uint64_t const sizes[6] = {259,
                                  col.dict.bytes.size(),
                                  packed_code_bytes(codec::onpair12, col.num_codes),
                                  4 * 5,
                                  4 * 5,
                                  8 * col.sidecar.size()};
  std::size_t pos = 80;
  for (std::uint32_t id = 1; id <= 6; ++id) {
    CHECK(load_le32(&b[pos]) == id);
    CHECK(load_le32(&b[pos + 4]) == 0);
    CHECK(load_le64(&b[pos + 8]) == sizes[id - 1]);
    CHECK(load_le64(&b[pos + 16]) == fpc_checksum(&b[pos + 24], sizes[id - 1]));
    if (id == 1) CHECK(b[pos + 24 + 256] == 16);  // token 256 "GET /index.html " is 16 bytes
    if (id == 4) CHECK(load_le32(&b[pos + 24 + 4]) == col.row_code_offsets[1]);
    if (id == 5) CHECK(load_le32(&b[pos + 24 + 4]) == col.row_byte_offsets[1]);
    if (id == 6) CHECK(load_le64(&b[pos + 24 + 8]) == col.sidecar[1]);
    pos += 24 + sizes[id - 1];
  }
  CHECK(pos == b.size());
  CHECK(b.size() == 80 + 6 * 24 + 259 + col.dict.bytes.size() + col.codes.size() + 40 +
                      8 * col.sidecar.size());
}

TEST_CASE("fpc: every truncation throws format_error", "[io]")
{
  codec const c  = GENERATE(codec::onpair16, codec::fsst12);
  for (std::uint32_t v : {1u, 2u}) {
    auto const b = serialize(sample(c), v);
    for (std::size_t n = 0; n < b.size(); ++n) {
      std::vector<std::uint8_t> const prefix(b.begin(), b.begin() + n);  // exact-size heap buffer
      REQUIRE_THROWS_AS(deserialize(prefix.data(), prefix.size()), format_error);
    }
  }
  auto const b = serialize(sample(c), 1);
  CHECK_THROWS_WITH(deserialize(b.data(), 50), Contains("truncated header: 50 bytes, version 1 needs 80"));
  CHECK_THROWS_WITH(deserialize(b.data(), 10), Contains("header") && Contains("10 bytes"));
  CHECK_THROWS_WITH(deserialize(b.data(), 90), Contains("section dict_lengths") && Contains("truncated"));
  CHECK_THROWS_WITH(deserialize(b.data(), 200), Contains("section dict_lengths") &&
                                                  Contains("exceeds the 96 bytes left"));
  CHECK_THROWS_WITH(deserialize(nullptr, 0), Contains("header"));
  std::vector<std::uint8_t> zeros(80, 0);
  std::copy(b.begin(), b.begin() + 12, zeros.begin());  // magic and version only
  CHECK_THROWS_WITH(deserialize(zeros), Contains("header checksum: stored 0 != computed"));
}

TEST_CASE("fpc: every flipped byte throws or round-trips", "[io]")
{
  codec const c = GENERATE(codec::onpair16, codec::onpair12, codec::fsst12);
  std::uint32_t const v = GENERATE(1u, 2u);
  auto const b  = serialize(sample(c), v);
  std::size_t rejected = 0;
  for (std::size_t i = 0; i < b.size(); ++i)
    for (std::uint8_t mask : {0x01, 0x80, 0xFF}) {
      auto m = b;
      m[i] ^= mask;
      try {
        auto const col = deserialize(m);
        REQUIRE(serialize(col, v) == m);  // accepted: a valid column that is exactly these bytes
      } catch (format_error const&) {
        ++rejected;
      }
    }
  CHECK(rejected == 3 * b.size());  // checksums catch every single-byte change
}

TEST_CASE("fpc: flipped bytes with recomputed checksums throw or round-trip", "[io]")
{
  codec const c = GENERATE(codec::onpair16, codec::onpair12, codec::fsst12);
  std::uint32_t const v = GENERATE(1u, 2u);
  auto const b  = serialize(sample(c), v);
  std::size_t accepted = 0;
  for (std::size_t i = 0; i < b.size(); ++i)
    for (std::uint8_t mask : {0x01, 0x10, 0x80, 0xFF}) {
      auto m = b;
      m[i] ^= mask;
      fix_checksums(m);
      try {
        auto const col = deserialize(m);
        REQUIRE_NOTHROW(validate(col));
        REQUIRE(serialize(col, v) == m);
        REQUIRE_NOTHROW(decode_reference(col));
        ++accepted;
      } catch (format_error const&) {
      }
    }
  // Flips inside token bytes that keep the dictionary unique (and hence valid) are accepted.
  CHECK(accepted > 0);
}

TEST_CASE("fpc: each header field rejected by name", "[io]")
{
  auto const good = serialize(sample(codec::onpair12), 1);
  auto m          = good;
  auto expect     = [&](char const* what) {
    fix_checksums(m);
    CHECK_THROWS_AS(deserialize(m), format_error);
    CHECK_THROWS_WITH(deserialize(m), Contains("invalid .fpc") && Contains(what));
    m = good;
  };
  m[0] = 'f';
  expect("magic: 0x6641535450414952 is not \"FASTPAIR\"");
  store_le32(&m[8], 3);
  expect("version: 3 (this reader supports 1 and 2)");
  store_le32(&m[8], 0);
  expect("version: 0");
  m[12] = 4;
  expect("codec: 4");
  m[12] = 0;
  expect("codec: 0");
  m[13] = 3;
  expect("flags: 3");
  m[14] = 8;
  expect("row_code_offsets width: 8");
  m[15] = 0;
  expect("row_byte_offsets width: 0");
  m[21] = 1;
  expect("header[20..24): reserved u32 is 256");
  m[70] = 1;
  expect("header[68..72): reserved u32 is 65536");
  store_le32(&m[16], 0);
  expect("sidecar_stride: 0");
  store_le64(&m[24], 255);
  expect("num_tokens: 255");
  store_le64(&m[24], 4097);
  expect("num_tokens: 4097");
  store_le64(&m[32], ~std::uint64_t{0});
  expect("num_codes");
  store_le64(&m[40], ~std::uint64_t{0});
  expect("num_rows");
  store_le64(&m[40], std::uint64_t{1} << 62);  // (R+1)*8 overflows
  expect("overflows 64 bits");
  store_le64(&m[40], 1000);                      // fits, but not the section that follows
  expect("section row_code_offsets: size 20 != 4004");
  store_le64(&m[48], 1);
  expect("sidecar_entries: 1");
  m[13] = 0;
  expect("sidecar_entries");  // entries but no flag
  store_le64(&m[56], 12345);
  expect("decoded_bytes: 12345");
  store_le32(&m[64], 7);
  expect("num_sections: 7");
  store_le64(&m[72], load_le64(&m[72]) ^ 1);
  CHECK_THROWS_WITH(deserialize(m), Contains("header checksum"));  // not fixed up
  m = good;

  // The sidecar flag on a column without codes.
  auto e = serialize(make_column(codec::onpair16, {}, {{}}), 1);
  e[13]  = 1;
  fix_checksums(e);
  CHECK_THROWS_WITH(deserialize(e), Contains("flags") && Contains("0 codes"));
}

TEST_CASE("fpc: each section rejected by name", "[io]")
{
  auto const good = serialize(sample(codec::onpair16), 1);
  char const* names[] = {"", "dict_lengths", "dict_bytes", "codes", "row_code_offsets",
                         "row_byte_offsets", "sidecar"};
  for (std::uint32_t id = 1; id <= 6; ++id) {
    std::size_t const at = section_at(good, id);
    std::string const name = std::string("section ") + names[id];
    auto m = good;
    store_le32(&m[at], id + 1);
    CHECK_THROWS_WITH(deserialize(m), Contains(name) && Contains("id " + std::to_string(id + 1)));
    m = good;
    m[at + 5] = 1;
    CHECK_THROWS_WITH(deserialize(m), Contains(name) && Contains("reserved u32 is 256"));
    m = good;
    store_le64(&m[at + 8], load_le64(&m[at + 8]) + 1);
    CHECK_THROWS_WITH(deserialize(m), Contains(name) && Contains("expected from the header"));
    m = good;
    store_le64(&m[at + 16], load_le64(&m[at + 16]) + 1);
    CHECK_THROWS_WITH(deserialize(m), Contains(name) && Contains("checksum mismatch"));
    if (load_le64(&good[at + 8]) > 0) {
      m = good;
      m[at + 24] ^= 0x40;  // payload changed, stored checksum kept
      CHECK_THROWS_WITH(deserialize(m), Contains(name) && Contains("checksum mismatch"));
    }
  }
  auto m = good;
  m.push_back(0);
  CHECK_THROWS_WITH(deserialize(m), Contains("file size") && Contains("1 trailing bytes"));
}

TEST_CASE("fpc: payloads that pass the checksums still go through validate()", "[io]")
{
  auto const good = serialize(sample(codec::onpair12), 1);
  auto m          = good;
  SECTION("token length 0")
  {
    std::size_t const at = section_at(m, 1);
    m[at + 24 + 256] = 0;  // token 256 loses its 16 bytes: dict_bytes size now mismatches
    fix_checksums(m);
    CHECK_THROWS_WITH(deserialize(m), Contains("section dict_bytes") && Contains("size"));
  }
  SECTION("token length 17")
  {
    std::size_t const at = section_at(m, 1);
    m[at + 24 + 256] = 17;
    m[at + 24 + 257] = 7;  // 16+8 == 17+7: the dict_bytes size is unchanged
    fix_checksums(m);
    CHECK_THROWS_WITH(deserialize(m), Contains("dictionary token 256") && Contains("length 17"));
  }
  SECTION("a code beyond the dictionary")
  {
    std::size_t const at = section_at(m, 3);
    m[at + 24] = 0xFF;
    m[at + 25] |= 0x0F;  // code 0 = 0xFFF
    fix_checksums(m);
    CHECK_THROWS_WITH(deserialize(m), Contains("code 0") && Contains("4095"));
  }
  SECTION("row offsets")
  {
    std::size_t const at = section_at(m, 4);
    store_le32(&m[at + 24 + 4], 10000);
    fix_checksums(m);
    CHECK_THROWS_WITH(deserialize(m), Contains("row_code_offsets[1]"));
  }
  SECTION("sidecar value")
  {
    std::size_t const at = section_at(m, 6);
    store_le64(&m[at + 24 + 8], 1);
    fix_checksums(m);
    CHECK_THROWS_WITH(deserialize(m), Contains("sidecar[1]"));
  }
}

TEST_CASE("serialize refuses an invalid column", "[io]")
{
  auto col = sample(codec::onpair16);
  col.row_byte_offsets[1] += 1;
  CHECK_THROWS_WITH(serialize(col), Contains("invalid column: row_byte_offsets["));
}

TEST_CASE("write_fpc / read_fpc", "[io]")
{
  auto const dir = std::filesystem::temp_directory_path() /
                   ("fastpair_io_test_" + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir);
  std::string const path = (dir / "col.fpc").string();
  for (std::uint32_t v : {1u, 2u})
    for (codec c : {codec::onpair16, codec::onpair12, codec::fsst12}) {
      auto const col = sample(c);
      write_fpc(path, col, v);
      CHECK(std::filesystem::file_size(path) == serialize(col, v).size());
      require_same(col, read_fpc(path));
    }
  write_fpc(path, sample(codec::fsst12));  // version 2 by default
  CHECK(std::filesystem::file_size(path) == serialize(sample(codec::fsst12), 2).size());
  // A corrupt file: the message names the path and the field.
  {
    std::FILE* f = std::fopen(path.c_str(), "r+b");
    REQUIRE(f);
    std::fseek(f, 12, SEEK_SET);
    std::fputc(9, f);
    std::fclose(f);
  }
  CHECK_THROWS_AS(read_fpc(path), format_error);
  CHECK_THROWS_WITH(read_fpc(path), Contains(path) && Contains("header checksum"));
  CHECK_THROWS_AS(read_fpc((dir / "missing.fpc").string()), std::runtime_error);
  CHECK_THROWS_WITH(read_fpc((dir / "missing.fpc").string()), Contains("cannot open"));
  std::filesystem::remove_all(dir);
}

namespace {
// A sparse file of `bytes` (no disk blocks) that starts with `head`; false where the file system
// refuses that size.
bool make_sparse_file(std::string const& path, std::vector<std::uint8_t> const& head, std::uint64_t bytes)
{
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    REQUIRE(f);
    if (!head.empty()) REQUIRE(std::fwrite(head.data(), 1, head.size(), f) == head.size());
    std::fclose(f);
  }
  std::error_code ec;
  std::filesystem::resize_file(path, bytes, ec);
  return !ec;
}
}  // namespace

TEST_CASE("read_fpc checks the header and the file size before reading the rest", "[io]")
{
  auto const dir = std::filesystem::temp_directory_path() /
                   ("fastpair_io_big_" + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir);
  std::string const path = (dir / "big.fpc").string();
  // Sparse files far larger than this machine's memory: reading them whole (as read_fpc did) fails
  // with bad_alloc or takes minutes; checking the 80-byte header first fails at once.
  std::uint64_t big = std::uint64_t{1} << 43;  // 8 TiB
  bool made         = make_sparse_file(path, {}, big);
  if (!made) made = make_sparse_file(path, {}, big = std::uint64_t{1} << 40);
  if (!made) {
    WARN("the file system refuses sparse files of 1 TiB; skipped");
  } else {
    CHECK_THROWS_WITH(read_fpc(path), Contains(path) && Contains("magic"));
    // A real header, then a size its counts do not allow.
    for (std::uint32_t v : {1u, 2u}) {
      auto const bytes = serialize(sample(codec::onpair12), v);
      REQUIRE(make_sparse_file(path, bytes, big));
      CHECK_THROWS_WITH(read_fpc(path), Contains(path) && Contains("file size") && Contains(std::to_string(big)));
    }
  }
  // A header whose counts need more bytes than the file has; one byte short is within the sizes
  // the counts allow (token bytes vary) and is found by the section checks.
  auto bytes = serialize(sample(codec::onpair16), 1);
  auto write_prefix = [&](std::size_t n) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    REQUIRE(f);
    REQUIRE(std::fwrite(bytes.data(), 1, n, f) == n);
    std::fclose(f);
  };
  write_prefix(fpc_header_bytes + 100);
  CHECK_THROWS_WITH(read_fpc(path), Contains("file size") && Contains(std::to_string(fpc_header_bytes + 100) + " bytes"));
  write_prefix(bytes.size() - 1);
  CHECK_THROWS_WITH(read_fpc(path), Contains("section sidecar") && Contains("exceeds"));
  // Shorter than a header.
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    REQUIRE(f);
    REQUIRE(std::fwrite(bytes.data(), 1, 10, f) == 10);
    std::fclose(f);
  }
  CHECK_THROWS_WITH(read_fpc(path), Contains(path) && Contains("shorter than the 80-byte header"));
  // Version 2: the header, then exactly one file size.
  bytes = serialize(sample(codec::onpair16), 2);
  write_prefix(90);
  CHECK_THROWS_WITH(read_fpc(path), Contains(path) && Contains("truncated header: 90 bytes, version 2 needs 96"));
  write_prefix(bytes.size() - 1);
  CHECK_THROWS_WITH(read_fpc(path), Contains("file size: " + std::to_string(bytes.size() - 1) +
                                             " bytes; the header's counts need exactly " + std::to_string(bytes.size())));
  write_prefix(bytes.size());
  require_same(sample(codec::onpair16), read_fpc(path));
  std::filesystem::remove_all(dir);
}

TEST_CASE("read_fpc / write_fpc name the path and the reason", "[io]")
{
  auto const dir = std::filesystem::temp_directory_path() /
                   ("fastpair_io_paths_" + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir / "d.fpc");
  std::string const d = (dir / "d.fpc").string();
  // A directory: an error naming it, not "out of memory" from its nonsense size.
  CHECK_THROWS_WITH(read_fpc(d), Contains("'" + d + "'") && Contains("Is a directory"));
  CHECK_THROWS_WITH(write_fpc(d, sample(codec::fsst12)), Contains("'" + d + "'") && Contains("Is a directory"));
  std::string const missing = (dir / "missing.fpc").string();
  CHECK_THROWS_WITH(read_fpc(missing), Contains("'" + missing + "'") && Contains("No such file or directory"));
  std::string const no_dir = (dir / "no" / "such" / "x.fpc").string();
  CHECK_THROWS_WITH(write_fpc(no_dir, sample(codec::fsst12)),
                    Contains("cannot open '" + no_dir + "' for writing") && Contains("No such file or directory"));
  std::filesystem::remove_all(dir);
}

// ---- Version 2 --------------------------------------------------------------------------------

namespace {
namespace fpc2 = fastpair::detail::fpc2;

// A block of the row code counts as section 4's directory describes it: its base and width.
struct count_block_entry {
  std::uint64_t base;
  unsigned width;
};

// The canonical directory of `counts`: per 1 024 rows, the smallest count and the width of the
// largest count above it.
std::vector<count_block_entry> canonical_blocks(std::vector<std::uint64_t> const& counts)
{
  std::vector<count_block_entry> out;
  for (std::size_t r0 = 0; r0 < counts.size(); r0 += 1024) {
    auto const first = counts.begin() + static_cast<std::ptrdiff_t>(r0);
    auto const last  = counts.begin() + static_cast<std::ptrdiff_t>(std::min(counts.size(), r0 + 1024));
    std::uint64_t const lo = *std::min_element(first, last), hi = *std::max_element(first, last);
    out.push_back({lo, static_cast<unsigned>(fpc2::bit_width(hi - lo))});
  }
  return out;
}

// A version-2 image of `col` written independently of serialize(), with the frame, the row code
// counts and their blocks given (so that tests can write non-canonical or inconsistent counts);
// checksums valid. `blocks` empty: the canonical ones; `directory` -1: a directory where it makes
// the section smaller (canonical), else as given. Without a directory every block is (base, bits).
std::vector<std::uint8_t> image_v2(compressed_column const& col, std::uint64_t base, unsigned bits,
                                   std::vector<std::uint64_t> const& counts, std::vector<count_block_entry> blocks = {},
                                   int directory = -1)
{
  if (blocks.empty() && bits > 0) blocks = canonical_blocks(counts);
  if (bits == 0) blocks.clear();
  std::uint64_t values = 0;  // block k's values: 128 x width bytes, the last ceil(rows x width / 8)
  for (std::size_t k = 0; k < blocks.size(); ++k)
    values += (std::min<std::uint64_t>(1024, counts.size() - 1024 * k) * blocks[k].width + 7) / 8;
  std::uint64_t const flat = (counts.size() * bits + 7) / 8;
  if (directory < 0) directory = bits > 0 && 16 * blocks.size() + values < flat;
  if (!directory)
    for (auto& e : blocks) e = {base, bits};
  std::uint64_t const counts_size = bits == 0 ? 0 : directory ? 16 * blocks.size() + values : flat;
  std::uint64_t sizes[6] = {0, col.dict.size(), col.dict.bytes.size(), col.codes.size(), counts_size, 8 * col.sidecar.size()};
  auto const l = fpc2::make_layout(sizes);
  std::vector<std::uint8_t> b(l.file_bytes, 0);
  REQUIRE(b.size() >= fpc2::header_bytes);  // (make_layout's; also tells GCC the header's writes fit)
  std::memcpy(&b[0], "FASTPAIR", 8);
  store_le32(&b[8], 2);
  b[12] = static_cast<std::uint8_t>(col.kind);
  b[13] = static_cast<std::uint8_t>((col.sidecar.empty() ? 0 : 1) | (directory ? 2 : 0));
  b[14] = static_cast<std::uint8_t>(bits);
  store_le32(&b[16], col.sidecar_stride);
  store_le32(&b[20], 5);
  store_le64(&b[24], col.dict.size());
  store_le64(&b[32], col.num_codes);
  store_le64(&b[40], counts.size());
  store_le64(&b[48], col.sidecar.size());
  store_le64(&b[56], col.decoded_bytes());
  store_le64(&b[64], base);
  store_le64(&b[72], col.dict.bytes.size());
  store_le64(&b[80], counts_size);
  for (std::size_t i = 0; i < col.dict.size(); ++i) b[l.payload_at[1] + i] = static_cast<std::uint8_t>(col.dict.length(i));
  std::copy(col.dict.bytes.begin(), col.dict.bytes.end(), b.begin() + static_cast<std::ptrdiff_t>(l.payload_at[2]));
  std::copy(col.codes.begin(), col.codes.end(), b.begin() + static_cast<std::ptrdiff_t>(l.payload_at[3]));
  std::uint64_t at = 0;  // byte of block k's values, after the directory
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    std::uint8_t* const e = &b[l.payload_at[4] + 16 * k];
    if (directory) {
      store_le64(e, blocks[k].base);
      store_le64(e + 8, at / 128 << 8 | blocks[k].width);
    }
    std::uint8_t* const v = &b[l.payload_at[4] + (directory ? 16 * blocks.size() : 0) + at];
    std::size_t const n   = std::min<std::size_t>(1024, counts.size() - 1024 * k);
    for (std::size_t i = 0; i < n; ++i)  // one bit at a time, LSB first
      for (unsigned j = 0; j < blocks[k].width; ++j)
        if (((counts[1024 * k + i] - blocks[k].base) >> j) & 1) v[(i * blocks[k].width + j) / 8] |= static_cast<std::uint8_t>(1u << ((i * blocks[k].width + j) % 8));
    at += 128 * blocks[k].width;
  }
  for (std::size_t s = 0; s < col.sidecar.size(); ++s) store_le64(&b[l.payload_at[5] + 8 * s], col.sidecar[s]);
  for (std::uint32_t id = 1; id <= 5; ++id) {
    store_le32(&b[l.header_at[id]], id);
    store_le64(&b[l.header_at[id] + 8], sizes[id]);
  }
  fix_checksums_v2(b);
  return b;
}

std::vector<std::uint64_t> row_counts(compressed_column const& col)
{
  std::vector<std::uint64_t> c;
  for (std::size_t r = 0; r < col.num_rows(); ++r) c.push_back(col.row_code_offsets[r + 1] - col.row_code_offsets[r]);
  return c;
}
}  // namespace

TEST_CASE("fpc v2 section checksum (fpc64p) test vectors", "[io]")
{
  auto const* s = reinterpret_cast<std::uint8_t const*>("FASTPAIR-fpc64");
  CHECK(fpc2::section_checksum(s, 0) == 0x0000000000000000ull);  // fmix64(0) = 0
  CHECK(fpc2::section_checksum(s, 8) == 0x93fff1a9b02aaa30ull);
  CHECK(fpc2::section_checksum(s, 14) == 0xdbc94d2d9773cfccull);
  // The sum of per-word hashes: any order of the words gives the same sum.
  std::uint8_t z[24] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
  std::uint64_t sum = 0;
  for (std::uint64_t i : {2, 0, 1}) sum += fpc2::word_hash(load_le64(z + 8 * i), i);
  CHECK(fpc2::finish_checksum(sum, 24) == fpc2::section_checksum(z, 24));
  CHECK(fpc2::section_checksum(z, 20) != fpc2::section_checksum(z, 24));  // the length is hashed
  std::uint8_t w[16] = {};
  CHECK(fpc2::section_checksum(w, 16) != fpc2::section_checksum(w + 8, 8));  // the word index is hashed
}

TEST_CASE("fpc v2 byte layout matches docs/FORMAT.md", "[io]")
{
  auto const col = sample(codec::onpair12);  // 259 tokens, sidecar stride 3, rows of 2, 0, 10, 1 codes
  auto const b   = serialize(col);  // version 2 by default
  REQUIRE(row_counts(col) == std::vector<std::uint64_t>{2, 0, 10, 1});
  REQUIRE(std::string(b.begin(), b.begin() + 8) == "FASTPAIR");
  CHECK(load_le32(&b[8]) == 2);
  CHECK(b[12] == 2);  // codec onpair12
  CHECK(b[13] == 1);  // sidecar flag
  CHECK(b[14] == 4);  // count_bits: the largest count - count_base is 10
  CHECK(b[15] == 0);
  CHECK(load_le32(&b[16]) == 3);
  CHECK(load_le32(&b[20]) == 5);
  CHECK(load_le64(&b[24]) == 259);
  CHECK(load_le64(&b[32]) == 13);
  CHECK(load_le64(&b[40]) == 4);
  CHECK(load_le64(&b[48]) == 5);  // ceil(13 / 3)
  CHECK(load_le64(&b[56]) == col.decoded_bytes());
  CHECK(load_le64(&b[64]) == 0);  // count_base: row 1 is empty
  CHECK(load_le64(&b[72]) == col.dict.bytes.size());
  CHECK(load_le64(&b[80]) == 2);  // counts_size: section 4's size
  CHECK(load_le64(&b[88]) == fpc_checksum(b.data(), 88));
  std::uint64_t const sizes[6] = {0, 259, col.dict.bytes.size(), 20 /* 13 x 12 bits */,
                                  2 /* 4 x 4 bits: no directory, which would take 16 bytes more */, 40};
  std::size_t pos = 96;
  for (std::uint32_t id = 1; id <= 5; ++id) {
    CHECK(pos % 16 == 0);
    CHECK(load_le32(&b[pos]) == id);
    CHECK(load_le32(&b[pos + 4]) == 0);
    CHECK(load_le64(&b[pos + 8]) == sizes[id]);
    CHECK(load_le64(&b[pos + 16]) == fpc2::section_checksum(&b[pos + 32], sizes[id]));
    CHECK(load_le64(&b[pos + 24]) == 0);
    std::size_t const end = pos + 32 + sizes[id];
    if (id == 1) CHECK(b[pos + 32 + 256] == 16);  // token 256 "GET /index.html " is 16 bytes
    if (id == 4) {
      CHECK(b[pos + 32] == 0x02);  // rows 0, 1: 2 | 0 << 4
      CHECK(b[pos + 33] == 0x1A);  // rows 2, 3: 10 | 1 << 4
    }
    if (id == 5) CHECK(load_le64(&b[pos + 32 + 8]) == col.sidecar[1]);
    pos = (end + 15) / 16 * 16;
    for (std::size_t i = end; i < pos; ++i) CHECK(b[i] == 0);  // padding
  }
  CHECK(pos == b.size());
  // The same offsets through fpc2::at and make_layout, which the GPU preparation uses.
  CHECK(fpc2::at::count_bits == 14);
  CHECK(fpc2::at::count_base == 64);
  CHECK(fpc2::at::dict_bytes == 72);
  CHECK(fpc2::at::counts_size == 80);
  CHECK(fpc2::at::checksum == 88);
  fpc_header const h = parse_fpc_header(b.data(), b.size());
  CHECK(h.version == 2);
  CHECK(h.header_size == 96);
  CHECK(h.count_bits == 4);
  CHECK(h.count_base == 0);
  CHECK(h.dict_bytes == col.dict.bytes.size());
  CHECK(h.layout.header_at[1] == 96);
  CHECK(h.layout.payload_at[1] == 128);
  CHECK(h.layout.header_at[2] == 128 + 272);  // 259 rounded up to 16
  for (std::uint32_t id = 1; id <= 5; ++id) CHECK(h.layout.payload_at[id] % 16 == 0);
  CHECK(h.layout.file_bytes == b.size());
  CHECK(h.min_file_bytes == b.size());
  CHECK(h.max_file_bytes == b.size());
  CHECK(b.size() == fpc_file_bytes(col));
  // The writer agrees with an independent one.
  CHECK(image_v2(col, 0, 4, row_counts(col)) == b);
  // Equal counts: count_bits 0 and an empty counts section.
  auto const eq = make_column(codec::fsst12, {"ab"}, {{97, 98}, {256, 97}, {98, 98}}, 2);
  auto const e  = serialize(eq);
  CHECK(e[14] == 0);
  CHECK(load_le64(&e[64]) == 2);
  CHECK(parse_fpc_header(e.data(), e.size()).layout.size[4] == 0);
  CHECK(image_v2(eq, 2, 0, {2, 2, 2}) == e);
}

TEST_CASE("fpc v2 example of docs/FORMAT.md §3.5", "[io]")
{
  // fuzz/corpus/onpair12_emptyrows_v2.fpc
  auto const b = serialize(make_column(codec::onpair12, {"ab"}, {{}, {256, 97}, {}}, 1));
  CHECK(b.size() == 848);
  CHECK(fastpair::detail::hex_bytes(b.data(), 96) ==
        "4641535450414952" "02000000" "02" "01" "02" "00" "01000000" "05000000"  // magic .. num_sections
        "0101000000000000" "0200000000000000" "0300000000000000" "0200000000000000"  // N, M, R, sidecar
        "0300000000000000" "0000000000000000" "0201000000000000" "0100000000000000"  // decoded, base, dict, counts_size
        "f9479cf84b094a77");  // header checksum, fpc64 of [0, 88)
  CHECK(b[96] == 1);  // section 1 (dict_lengths), payload at 128
  CHECK(load_le64(&b[104]) == 257);
  fpc_header const h = parse_fpc_header(b.data(), b.size());
  CHECK(h.layout.header_at[2] == 400);
  CHECK(h.layout.header_at[3] == 704);
  CHECK(h.layout.header_at[4] == 752);
  CHECK(h.layout.header_at[5] == 800);
  CHECK(b[h.layout.payload_at[4]] == 0x08);  // counts 0, 2, 0 in 2 bits each
}

TEST_CASE("fpc v1 images are still read and written", "[io]")
{
  codec const c = GENERATE(codec::onpair16, codec::onpair12, codec::fsst12);
  auto const col = sample(c);
  auto const v1  = serialize(col, 1);
  auto const v2  = serialize(col, 2);
  CHECK(load_le32(&v1[8]) == 1);
  CHECK(v1 != v2);
  require_same(col, deserialize(v1));
  CHECK(serialize(deserialize(v1), 1) == v1);
  CHECK(serialize(deserialize(v1)) == v2);  // converting a file is read + write
  CHECK(parse_fpc_header(v1.data()).version == 1);
  CHECK(parse_fpc_header(v1.data(), 80).header_size == 80);
  CHECK(parse_fpc_header(v2.data()).version == 2);
  CHECK(fpc_version == fpc_version_latest);
  CHECK(fpc_version_latest == 2);
  CHECK_THROWS_AS(serialize(col, 3), fastpair::logic_error);
  CHECK_THROWS_AS(serialize(col, 0), fastpair::logic_error);
}

TEST_CASE("fpc v2: the host half of a GPU preparation", "[io]")
{
  auto const col = sample(codec::onpair12);
  auto const b   = serialize(col);
  fpc_header const h = parse_fpc_header(b.data(), b.size());
  auto const& l      = h.layout;
  fpc_section_info const s1 = check_fpc_section_header(h, 1, &b[l.header_at[1]]);
  fpc_section_info const s2 = check_fpc_section_header(h, 2, &b[l.header_at[2]]);
  CHECK(s1.checksum == load_le64(&b[l.header_at[1] + 16]));
  dictionary const d = read_fpc_dictionary(h, &b[l.payload_at[1]], &b[l.payload_at[2]], s1.checksum, s2.checksum);
  CHECK(d == col.dict);
  for (std::uint32_t id = 3; id <= 5; ++id) {
    auto const s = check_fpc_section_header(h, id, &b[l.header_at[id]]);
    CHECK(s.checksum == fpc2::section_checksum(&b[l.payload_at[id]], l.size[id]));
  }
  CHECK_THROWS_WITH(read_fpc_dictionary(h, &b[l.payload_at[1]], &b[l.payload_at[2]], s1.checksum, s2.checksum + 1),
                    Contains("section 2 (dict_bytes): checksum mismatch"));
  CHECK_THROWS_WITH(read_fpc_dictionary(h, &b[l.payload_at[1]], &b[l.payload_at[2]], s1.checksum + 1, s2.checksum),
                    Contains("section 1 (dict_lengths): checksum mismatch"));
  auto m = b;
  store_le64(&m[l.header_at[3] + 8], 10);
  CHECK_THROWS_WITH(check_fpc_section_header(h, 3, &m[l.header_at[3]]),
                    Contains("fastpair: invalid .fpc: section 3 (codes): size 10 != 20 from the header"));
  m = b;
  store_le32(&m[l.header_at[4]], 5);
  CHECK_THROWS_WITH(check_fpc_section_header(h, 4, &m[l.header_at[4]]),
                    Contains("section 4 (row_code_counts): id 5 at offset " + std::to_string(l.header_at[4])));
  // A dictionary whose lengths pass their checksum but not the header's dict_bytes, and a duplicate token.
  m = b;
  m[l.payload_at[1] + 256] = 15;
  CHECK_THROWS_WITH(read_fpc_dictionary(h, &m[l.payload_at[1]], &m[l.payload_at[2]],
                                        fpc2::section_checksum(&m[l.payload_at[1]], 259), s2.checksum),
                    Contains("section 1 (dict_lengths): token lengths sum to") && Contains("from the header"));
  auto dup = make_column(codec::onpair16, {"ab", "ac"}, {{256}}, 1);
  dup.dict.bytes.back() = 'b';  // "ac" -> "ab": a duplicate token, lengths unchanged
  std::vector<std::uint8_t> lens(dup.dict.size());
  for (std::size_t i = 0; i < lens.size(); ++i) lens[i] = static_cast<std::uint8_t>(dup.dict.length(i));
  fpc_header hd = parse_fpc_header(serialize(make_column(codec::onpair16, {"ab", "ac"}, {{256}}, 1)).data(), 96);
  CHECK_THROWS_WITH(read_fpc_dictionary(hd, lens.data(), dup.dict.bytes.data(),
                                        fpc2::section_checksum(lens.data(), lens.size()),
                                        fpc2::section_checksum(dup.dict.bytes.data(), dup.dict.bytes.size())),
                    Contains("dictionary token 257") && Contains("duplicate token"));
  CHECK_THROWS_AS(check_fpc_section_header(parse_fpc_header(serialize(col, 1).data()), 1, b.data()), fastpair::logic_error);
}

TEST_CASE("fpc v2: truncated and malformed sections rejected by name", "[io]")
{
  auto const col = sample(codec::onpair12);
  auto const b   = serialize(col);
  auto const l   = parse_fpc_header(b.data(), b.size()).layout;
  CHECK_THROWS_WITH(deserialize(b.data(), 90), Contains("header: truncated header: 90 bytes, version 2 needs 96"));
  CHECK_THROWS_WITH(parse_fpc_header(b.data(), 12), Contains("truncated header: 12 bytes, version 2 needs 96"));
  CHECK_THROWS_WITH(parse_fpc_header(b.data(), 11), Contains("11 bytes, shorter than the 80-byte header"));
  // Truncated in a section header, in a payload, in the padding after it.
  CHECK_THROWS_WITH(deserialize(b.data(), l.header_at[3] + 10),
                    Contains("section 3 (codes): truncated header at offset " + std::to_string(l.header_at[3])));
  CHECK_THROWS_WITH(deserialize(b.data(), l.payload_at[3] + 5),
                    Contains("section 3 (codes): size 20 exceeds the 5 bytes left in the input"));
  CHECK_THROWS_WITH(deserialize(b.data(), l.payload_at[3] + 21), Contains("section 3 (codes): truncated padding"));
  CHECK_THROWS_WITH(deserialize(b.data(), b.size() - 1), Contains("section 5 (sidecar): truncated padding"));
  char const* names[] = {"", "dict_lengths", "dict_bytes", "codes", "row_code_counts", "sidecar"};
  for (std::uint32_t id = 1; id <= 5; ++id) {
    std::string const name = "section " + std::to_string(id) + " (" + names[id] + ")";
    std::size_t const at   = l.header_at[id];
    auto m = b;
    store_le64(&m[at + 8], l.size[id] + 1);
    CHECK_THROWS_WITH(deserialize(m), Contains(name + ": size " + std::to_string(l.size[id] + 1) + " != " +
                                               std::to_string(l.size[id]) + " from the header"));
    m = b;
    store_le64(&m[at + 16], load_le64(&m[at + 16]) + 1);
    CHECK_THROWS_WITH(deserialize(m), Contains(name + ": checksum mismatch"));
    m = b;
    m[l.payload_at[id]] ^= 0x40;  // payload changed, stored checksum kept (every section is non-empty here)
    CHECK_THROWS_WITH(deserialize(m), Contains(name + ": checksum mismatch"));
    m = b;
    m[at + 5] = 1;
    CHECK_THROWS_WITH(deserialize(m), Contains(name + ": reserved u32 at +4 is 256, not 0"));
    m = b;
    m[at + 31] = 1;
    CHECK_THROWS_WITH(deserialize(m), Contains(name + ": reserved u64 at +24 is 72057594037927936, not 0"));
    m = b;
    store_le32(&m[at], id + 1);
    CHECK_THROWS_WITH(deserialize(m), Contains(name + ": id " + std::to_string(id + 1)));
    std::uint64_t const end = l.payload_at[id] + l.size[id];
    std::uint64_t const next = id < 5 ? l.header_at[id + 1] : l.file_bytes;
    if (end < next) {  // every section here is padded (259, 27, 20, 2 and 40 bytes)
      m = b;
      m[next - 1] = 1;
      CHECK_THROWS_WITH(deserialize(m), Contains(name + ": padding byte at offset " + std::to_string(next - 1) +
                                                 " is 1, not 0"));
    }
  }
  auto m = b;
  m.push_back(0);
  CHECK_THROWS_WITH(deserialize(m), Contains("file size: 1 trailing bytes after the last section"));
  m.resize(b.size() + 16);
  CHECK_THROWS_WITH(deserialize(m), Contains("file size: 16 trailing bytes after the last section"));
}

TEST_CASE("fpc v2: each header field rejected by name", "[io]")
{
  auto const good = serialize(sample(codec::onpair12));  // 259 tokens, 13 codes, 4 rows, stride 3
  auto m          = good;
  auto expect     = [&](std::string const& what) {
    fix_checksums(m);
    CHECK_THROWS_AS(deserialize(m), format_error);
    CHECK_THROWS_WITH(deserialize(m), Contains("invalid .fpc: " + what));
    m = good;
  };
  m[0] = 'f';
  expect("magic: 0x6641535450414952 is not \"FASTPAIR\"");
  store_le32(&m[8], 3);
  expect("version: 3 (this reader supports 1 and 2)");
  m[12] = 4;
  expect("codec: 4");
  m[13] = 4;
  expect("flags: 4 has unknown bits set");
  m[13] = 3;  // a count directory, which 4 rows do not have room for
  expect("counts_size: 2 with a count directory: it must be at least 16 (its directory) and below 2");
  m[15] = 1;
  expect("header[15]: reserved byte is 1, not 0");
  m[80] = 1;
  expect("counts_size: 1 != 2 for 4 rows of 4 bits without a count directory");
  m[14] = 65;
  expect("count_bits: 65 > 64");
  store_le32(&m[16], 0);
  expect("sidecar_stride: 0");
  store_le32(&m[20], 6);
  expect("num_sections: 6 (version 2 has 5)");
  store_le64(&m[24], 255);
  expect("num_tokens: 255");
  store_le64(&m[32], ~std::uint64_t{0});
  expect("num_codes: 18446744073709551615 too large");
  store_le64(&m[40], ~std::uint64_t{0});
  expect("num_rows: 18446744073709551615 too large");
  store_le64(&m[48], 4);
  expect("sidecar_entries: 4 != ceil(num_codes / stride) = 5");
  m[13] = 0;
  expect("sidecar_entries: 5 but the sidecar flag is clear");
  store_le64(&m[72], 258);
  expect("dict_bytes: 258 outside 259..4144");
  store_le64(&m[56], 12);
  expect("decoded_bytes: 12 outside 13..208");
  store_le64(&m[64], 14);
  expect("count_base: 14 > num_codes 13");
  store_le64(&m[64], 4);
  expect("count_base: 4 x 4 rows = 16 > num_codes 13");
  m[14] = 5;  // 4 rows of 0.. codes summing to 13 never reach 16 above count_base
  expect("count_bits: 5: 4 rows");
  m[14] = 0;
  expect("count_base: 0 x 4 rows = 0 != num_codes 13 with count_bits 0");
  store_le64(&m[40], std::uint64_t{1} << 62);  // 2^62 rows of 4 bits: 2^61 bytes, nothing allocated
  expect("counts_size: 2 != 2305843009213693952 for 4611686018427387904 rows");
  store_le64(&m[40], ~std::uint64_t{0} - 1);  // (2^64 - 2) x 4 bits: 2^63 bytes, fits
  expect("counts_size: 2 != 9223372036854775807");
  store_le64(&m[40], 1000);  // fits, but not the sections that follow
  expect("counts_size: 2 != 500");
  store_le64(&m[88], load_le64(&m[88]) ^ 1);
  CHECK_THROWS_WITH(deserialize(m), Contains("header checksum"));  // not fixed up
  m = good;

  // Sizes that overflow 64 bits need count_bits >= 8, hence num_codes >= 128.
  auto const big = serialize(make_text_column(codec::onpair12, {"GET /a.png "}, std::vector<std::string>(200, "GET /a.png x"), 3));
  REQUIRE(load_le64(&big[32]) >= 256);
  m = big;
  store_le64(&m[40], ~std::uint64_t{0} - 1);
  store_le64(&m[64], 0);
  m[14] = 9;
  fix_checksums(m);
  CHECK_THROWS_WITH(deserialize(m), Contains("row_code_counts size: 2305843009213693951 x 9 overflows 64 bits"));
  m[14] = 8;  // 2^64 - 2 bytes of counts: the file size overflows
  store_le64(&m[80], ~std::uint64_t{0} - 1);
  fix_checksums(m);
  CHECK_THROWS_WITH(deserialize(m), Contains("invalid .fpc: file size: ") && Contains("overflows 64 bits"));
  m = good;

  // No rows: no codes, count_base 0, count_bits 0. No codes: at most 2^20 rows, no sidecar flag.
  auto const empty = serialize(make_column(codec::onpair16, {}, {}));
  m = empty;
  store_le64(&m[64], 1);
  fix_checksums(m);
  CHECK_THROWS_WITH(deserialize(m), Contains("count_base: 1 with 0 rows (must be 0)"));
  m = empty;
  m[14] = 1;
  fix_checksums(m);
  CHECK_THROWS_WITH(deserialize(m), Contains("count_bits: 1 with 0 rows (must be 0)"));
  m = empty;
  store_le64(&m[40], (std::uint64_t{1} << 20) + 1);
  fix_checksums(m);
  CHECK_THROWS_WITH(deserialize(m), Contains("num_rows: 1048577 rows without codes exceed fpc_v2_max_empty_rows (1048576)"));
  store_le64(&m[40], std::uint64_t{1} << 20);  // allowed: 2^20 empty rows from a 1 KB file
  fix_checksums(m);
  CHECK(deserialize(m).num_rows() == (std::size_t{1} << 20));
  m = empty;
  m[13] = 1;
  fix_checksums(m);
  CHECK_THROWS_WITH(deserialize(m), Contains("flags: sidecar flag set on a column with 0 codes"));
}

TEST_CASE("fpc v2: non-canonical or inconsistent counts and codes", "[io]")
{
  auto const col = make_column(codec::onpair12, {"ab"}, {{97, 98}, {256, 97, 98}, {98, 98, 97, 256}, {98, 97, 97, 256}}, 2);
  REQUIRE(row_counts(col) == std::vector<std::uint64_t>{2, 3, 4, 4});
  auto const good = serialize(col);
  CHECK(image_v2(col, 2, 2, {2, 3, 4, 4}) == good);
  REQUIRE_NOTHROW(deserialize(image_v2(col, 2, 2, {2, 3, 4, 4})));
  CHECK_THROWS_WITH(deserialize(image_v2(col, 1, 2, {2, 3, 4, 4})),
                    Contains("count_base: 1 is not the smallest row code count (2): not canonical"));
  CHECK_THROWS_WITH(deserialize(image_v2(col, 2, 3, {2, 3, 4, 4})),
                    Contains("count_bits: 3, but the largest count - count_base (2) needs 2: not canonical"));
  CHECK_THROWS_WITH(deserialize(image_v2(col, 2, 2, {2, 3, 4, 3})),
                    Contains("section 4 (row_code_counts): the row code counts sum to 12 != num_codes 13"));
  CHECK_THROWS_WITH(deserialize(image_v2(col, 2, 2, {2, 5, 4, 4})),
                    Contains("section 4 (row_code_counts): rows 0..3 hold more than num_codes 13 codes"));
  // The unused high bits of the last counts byte.
  auto m = good;
  auto const l = parse_fpc_header(m.data(), m.size()).layout;
  REQUIRE(l.size[4] == 1);  // 4 rows x 2 bits
  auto odd = serialize(make_column(codec::onpair12, {"ab"}, {{97}, {256, 97}, {98, 98, 97}}, 2));  // 3 x 2 bits
  auto const lo = parse_fpc_header(odd.data(), odd.size()).layout;
  odd[lo.payload_at[4]] |= 0x80;
  fix_checksums(odd);
  CHECK_THROWS_WITH(deserialize(odd), Contains("section 4 (row_code_counts): the unused high bits of the last byte are 2, not 0"));
  // A code >= num_tokens (its checksum fixed): named before anything reads the dictionary with it.
  m[l.payload_at[3]]     = 0xFF;
  m[l.payload_at[3] + 1] |= 0x0F;  // code 0 = 0xFFF
  fix_checksums(m);
  CHECK_THROWS_WITH(deserialize(m), Contains("section 3 (codes): code 0 is 4095 >= num_tokens 257"));
  // decoded_bytes that the codes do not decode to.
  m = good;
  store_le64(&m[56], col.decoded_bytes() + 1);
  fix_checksums(m);
  CHECK_THROWS_WITH(deserialize(m), Contains("decoded_bytes: " + std::to_string(col.decoded_bytes() + 1) +
                                             " from the header != " + std::to_string(col.decoded_bytes()) +
                                             ", the decoded size of the codes"));
  // A sidecar entry that passes its checksum but not validate().
  m = good;
  store_le64(&m[l.payload_at[5] + 8], 1);
  fix_checksums(m);
  CHECK_THROWS_WITH(deserialize(m), Contains("invalid column: sidecar[1]"));
  // A dictionary token of length 0 (lengths still summing to dict_bytes).
  m = good;
  m[l.payload_at[1] + 256] = 0;
  m[l.payload_at[1] + 97]  = 3;  // token 97 takes token 256's two bytes: the sum is kept, the shape is not
  fix_checksums(m);
  CHECK_THROWS_WITH(deserialize(m), Contains("invalid column: dictionary token"));
}

TEST_CASE("fpc v2: row code counts in blocks of 1 024 rows, each in its own width", "[io]")
{
  // Block 0: counts 1..2 (base 1, width 1); block 1: all 7 (width 0, no values); block 2 (552
  // rows): 5..20 (base 5, width 4). The column's frame: count_base 1, count_bits 5.
  std::vector<std::uint64_t> counts(2600);
  for (std::size_t r = 0; r < counts.size(); ++r) counts[r] = r < 1024 ? 1 + r % 2 : r < 2048 ? 7 : 5 + r % 16;
  std::vector<std::vector<std::uint16_t>> rows(counts.size());
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::uint64_t k = 0; k < counts[r]; ++k) rows[r].push_back(static_cast<std::uint16_t>((r * 7 + k * 13) % 257));
  auto const col = make_column(codec::onpair12, {"ab"}, rows, 64);
  REQUIRE(row_counts(col) == counts);
  auto const b = serialize(col);
  fpc_header const h = parse_fpc_header(b.data(), b.size());
  CHECK(h.count_base == 1);
  CHECK(h.count_bits == 5);
  CHECK(h.count_directory);
  CHECK(b[13] == (1 | 2));  // flags: sidecar, count directory
  std::uint64_t const size = 3 * 16 + 128 * 1 + (552 * 4 + 7) / 8;  // directory, block 0, block 2
  CHECK(h.layout.size[4] == size);
  CHECK(load_le64(&b[80]) == size);
  CHECK(size < fpc2::count_bytes(2600, 5));  // one width for the column: 1 625 bytes
  std::uint8_t const* p = &b[h.layout.payload_at[4]];
  CHECK(load_le64(p) == 1);
  CHECK(load_le64(p + 8) == (0 << 8 | 1));
  CHECK(load_le64(p + 16) == 7);
  CHECK(load_le64(p + 24) == (1 << 8 | 0));
  CHECK(load_le64(p + 32) == 5);
  CHECK(load_le64(p + 40) == (1 << 8 | 4));
  CHECK(p[48] == 0b10101010);  // rows 0..7 of block 0: counts 1, 2, 1, 2, ... - 1
  CHECK(p[48 + 128] == (0 | 1 << 4));  // rows 2048, 2049: 5 + 0, 5 + 1, - 5
  CHECK(image_v2(col, 1, 5, counts) == b);  // an independent writer agrees
  require_same(col, deserialize(b));
  CHECK(serialize(deserialize(b)) == b);
  CHECK(fpc_file_bytes(col) == b.size());

  // What the directory may not say.
  CHECK_THROWS_WITH(deserialize(image_v2(col, 1, 5, counts, {{0, 2}, {7, 0}, {5, 4}})),
                    Contains("section 4 (row_code_counts): block 0: base 0 is not the block's smallest count (1): not canonical"));
  CHECK_THROWS_WITH(deserialize(image_v2(col, 1, 5, counts, {{1, 2}, {7, 0}, {5, 4}})),
                    Contains("block 0: width 2, but its largest count - base (1) needs 1: not canonical"));
  CHECK_THROWS_WITH(deserialize(image_v2(col, 1, 5, counts, {{1, 1}, {7, 1}, {5, 4}})),
                    Contains("block 1: width 1, but its largest count - base (0) needs 0: not canonical"));
  CHECK_THROWS_WITH(deserialize(image_v2(col, 1, 5, counts, {{1, 1}, {7, 0}, {5, 6}})),
                    Contains("section 4 (row_code_counts): block 2: width 6 > count_bits 5"));
  auto m = b;
  store_le64(&m[h.layout.payload_at[4] + 40], 2 << 8 | 4);  // block 2's values one step too far
  fix_checksums_v2(m);
  CHECK_THROWS_WITH(deserialize(m), Contains("block 2: values at 128 x 2 bytes, but the blocks before it take 128 x 1"));
  m = b;
  store_le64(&m[h.layout.payload_at[4] + 40], 1 << 8 | 3);  // the last block's width: not the section's size
  fix_checksums_v2(m);
  CHECK_THROWS_WITH(deserialize(m), Contains("section 4 (row_code_counts): size " + std::to_string(h.layout.size[4]) + " != " +
                                             std::to_string(16 * 3 + 128 + fpc2::count_bytes(2600 - 2048, 3)) +
                                             " from its block directory"));
  m = b;
  store_le64(&m[h.layout.payload_at[4] + 16], 6);  // block 1's base: its rows would hold 6 codes
  fix_checksums_v2(m);
  CHECK_THROWS_WITH(deserialize(m), Contains("the row code counts sum to " + std::to_string(col.num_codes - 1024)));
  // The directory is stored exactly where it makes the section smaller.
  auto const flat = image_v2(col, 1, 5, counts, {}, 0);
  CHECK(parse_fpc_header(flat.data(), flat.size()).layout.size[4] == fpc2::count_bytes(2600, 5));
  CHECK_THROWS_WITH(deserialize(flat), Contains("section 4 (row_code_counts): stored without a count directory in 1625 "
                                                "bytes; blocks of 1024 rows with one take " + std::to_string(size) +
                                                ": not canonical"));
  auto const small = make_column(codec::onpair12, {"ab"}, {{97, 98}, {256}, {98, 98, 97}}, 2);
  CHECK(parse_fpc_header(serialize(small).data(), 96).count_directory == false);
  CHECK_THROWS_WITH(deserialize(image_v2(small, 1, 2, row_counts(small), {}, 1)),
                    Contains("counts_size: 17 with a count directory: it must be at least 16 (its directory) and below 1"));
}

TEST_CASE("fpc v2 refuses more than 2^20 rows without codes; version 1 takes them", "[io]")
{
  compressed_column e = make_column(codec::onpair16, {}, {});
  e.row_code_offsets.assign((std::size_t{1} << 20) + 2, 0);
  e.row_byte_offsets.assign((std::size_t{1} << 20) + 2, 0);
  CHECK_THROWS_WITH(serialize(e), Contains("cannot write .fpc version 2: 1048577 rows without codes") &&
                                    Contains("version 1 stores them"));
  auto const v1 = serialize(e, 1);
  CHECK(deserialize(v1).num_rows() == (std::size_t{1} << 20) + 1);
  e.row_code_offsets.pop_back();
  e.row_byte_offsets.pop_back();
  auto const v2 = serialize(e);
  CHECK(v2.size() < 2000);
  CHECK(deserialize(v2).num_rows() == (std::size_t{1} << 20));
}
