// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// io.hpp: .fpc round trips, the byte layout of docs/FORMAT.md, and rejection of malformed files
// (every truncation, every flipped byte, each header field and section corrupted on its own).
#include <fastpair/io.hpp>
#include <fastpair/reference.hpp>

#include "utils/columns.hpp"

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
void fix_checksums(std::vector<std::uint8_t>& b)
{
  if (b.size() < fpc_header_bytes) return;
  store_le64(b.data() + 72, fpc_checksum(b.data(), 72));
  std::size_t pos = fpc_header_bytes;
  while (b.size() - pos >= fpc_section_header_bytes) {
    std::uint64_t const sz = load_le64(b.data() + pos + 8);
    std::size_t const body = pos + fpc_section_header_bytes;
    if (sz > b.size() - body) return;
    store_le64(b.data() + pos + 16, fpc_checksum(b.data() + body, sz));
    pos = body + sz;
  }
}

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
  auto m = serialize(sample(codec::onpair16));
  store_le64(&m[56], 0x100000000ull);  // decoded_bytes that needs 8-byte offsets
  fix_checksums(m);
  CHECK_THROWS_WITH(deserialize(m), Contains("row_byte_offsets width: 4") && Contains("needs 8"));
}

TEST_CASE("fpc round trip, all codecs, with and without sidecar", "[io]")
{
  codec const c    = GENERATE(codec::onpair16, codec::onpair12, codec::fsst12);
  bool const side  = GENERATE(true, false);
  auto const col   = sample(c, side);
  REQUIRE(col.sidecar.empty() == !side);
  auto const bytes = serialize(col);
  auto const back  = deserialize(bytes);
  require_same(col, back);
  CHECK(serialize(back) == bytes);
  CHECK(decode_reference(back) == decode_reference(col));

  // empty column and empty rows
  for (auto const& e : {make_column(c, {}, {}), make_column(c, {"ab"}, {{}, {256, 97}, {}}, 1)}) {
    auto const b = serialize(e);
    require_same(e, deserialize(b));
  }
}

TEST_CASE("fpc byte layout matches docs/FORMAT.md", "[io]")
{
  auto const col = sample(codec::onpair12);  // 259 tokens, sidecar stride 3
  auto const b   = serialize(col);
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
  auto const b   = serialize(sample(c));
  for (std::size_t n = 0; n < b.size(); ++n) {
    std::vector<std::uint8_t> const prefix(b.begin(), b.begin() + n);  // exact-size heap buffer
    REQUIRE_THROWS_AS(deserialize(prefix.data(), prefix.size()), format_error);
  }
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
  auto const b  = serialize(sample(c));
  std::size_t rejected = 0;
  for (std::size_t i = 0; i < b.size(); ++i)
    for (std::uint8_t mask : {0x01, 0x80, 0xFF}) {
      auto m = b;
      m[i] ^= mask;
      try {
        auto const col = deserialize(m);
        REQUIRE(serialize(col) == m);  // accepted: a valid column that is exactly these bytes
      } catch (format_error const&) {
        ++rejected;
      }
    }
  CHECK(rejected == 3 * b.size());  // checksums catch every single-byte change
}

TEST_CASE("fpc: flipped bytes with recomputed checksums throw or round-trip", "[io]")
{
  codec const c = GENERATE(codec::onpair16, codec::onpair12, codec::fsst12);
  auto const b  = serialize(sample(c));
  std::size_t accepted = 0;
  for (std::size_t i = 0; i < b.size(); ++i)
    for (std::uint8_t mask : {0x01, 0x10, 0x80, 0xFF}) {
      auto m = b;
      m[i] ^= mask;
      fix_checksums(m);
      try {
        auto const col = deserialize(m);
        REQUIRE_NOTHROW(validate(col));
        REQUIRE(serialize(col) == m);
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
  auto const good = serialize(sample(codec::onpair12));
  auto m          = good;
  auto expect     = [&](char const* what) {
    fix_checksums(m);
    CHECK_THROWS_AS(deserialize(m), format_error);
    CHECK_THROWS_WITH(deserialize(m), Contains("invalid .fpc") && Contains(what));
    m = good;
  };
  m[0] = 'f';
  expect("magic: 0x6641535450414952 is not \"FASTPAIR\"");
  store_le32(&m[8], 2);
  expect("version: 2");
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
  auto e = serialize(make_column(codec::onpair16, {}, {{}}));
  e[13]  = 1;
  fix_checksums(e);
  CHECK_THROWS_WITH(deserialize(e), Contains("flags") && Contains("0 codes"));
}

TEST_CASE("fpc: each section rejected by name", "[io]")
{
  auto const good = serialize(sample(codec::onpair16));
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
  auto const good = serialize(sample(codec::onpair12));
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
  for (codec c : {codec::onpair16, codec::onpair12, codec::fsst12}) {
    auto const col = sample(c);
    write_fpc(path, col);
    CHECK(std::filesystem::file_size(path) == serialize(col).size());
    require_same(col, read_fpc(path));
  }
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
    auto const bytes = serialize(sample(codec::onpair12));
    REQUIRE(make_sparse_file(path, bytes, big));
    CHECK_THROWS_WITH(read_fpc(path), Contains(path) && Contains("file size") && Contains(std::to_string(big)));
  }
  // A header whose counts need more bytes than the file has; one byte short is within the sizes
  // the counts allow (token bytes vary) and is found by the section checks.
  auto bytes = serialize(sample(codec::onpair16));
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
