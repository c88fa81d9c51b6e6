// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Writes the seed corpus of the in-memory-column fuzzer (column_fuzz.cpp; input format in
// column_input.hpp) and checks that every seed is what its name says: valid (validate() passes),
// structural (validate_structure() passes, validate() throws) or invalid (both throw).
// Usage: make_column_corpus <output folder>
#include "column_input.hpp"

#include <fastpair/validate.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using namespace fastpair;
using column_fuzz::writer;
namespace cf = column_fuzz;

enum class expect { valid, structural, invalid };

std::uint8_t codec_bits(codec c) { return c == codec::onpair16 ? 0 : c == codec::onpair12 ? 1 : 2; }

/** A count field (column_input.hpp): one byte below 255, else 255 and a u16. */
void count(writer& w, std::uint32_t n)
{
  if (n < 255) w.u8(n);
  else w.u8(255).u16(n);
}

/** Built dictionary: the 256 one-byte tokens in byte order, `extra`, `gen` generated tokens. */
void built_dict(writer& w, std::vector<std::string> const& extra, std::uint32_t gen = 0, std::uint8_t rot = 0)
{
  w.u8(rot).u8(static_cast<std::uint32_t>(extra.size()));
  for (auto const& t : extra) w.u8(static_cast<std::uint32_t>(t.size() - 1)).bytes(t);
  count(w, gen);
}

/** Packed codes given as u16 values (mode 1). */
void codes16(writer& w, std::vector<std::uint16_t> const& codes)
{
  w.u8(1);
  count(w, static_cast<std::uint32_t>(codes.size()));
  for (auto c : codes) w.u16(c);
}

/** Derived rows of these code counts. */
void rows(writer& w, std::vector<std::uint8_t> const& lens)
{
  count(w, static_cast<std::uint32_t>(lens.size()));
  for (auto l : lens) w.u8(l);
}

void stride(writer& w, std::uint32_t s)
{
  if (s > 0 && s < 256) w.u8(s);
  else w.u8(0).u32(s);
}

std::vector<std::string> extras_for(codec c)
{
  if (c == codec::fsst12) return {"GET ", "HTTP/1.1", " /", "in", "dex", ".html", "png", "ab"};
  return {"GET /index.html ", "HTTP/1.1", "POST /login HTTP", "user=", "alice", "ab", "x=1&y=2&z=3"};
}

/** A small valid text-like column: codes over the one-byte and the extra tokens, 5 rows
 *  (one empty), sidecar at `s` (or none). */
writer text_column(codec c, std::uint32_t s, bool sidecar)
{
  writer w;
  w.u8(codec_bits(c) | (sidecar ? 0 : cf::no_sidecar));
  built_dict(w, extras_for(c));
  codes16(w, {256, 'a', 257, 258, 0, 255, 'z', 259, 260, 261, 262, 'q', 256, 257});
  rows(w, {3, 0, 4, 1, 255});
  stride(w, s);
  return w;
}

/** The same kind of column with every section raw (dictionary offsets delta-coded, raw code
 *  bytes, raw row arrays and sidecar), consistent: a valid start for the raw modes. */
writer raw_column(codec c, std::uint32_t s)
{
  // Build it in the consistent modes, decode, then write its arrays raw.
  writer b = text_column(c, s, true);
  compressed_column const col = cf::decode(b.out.data(), b.out.size());
  writer w;
  w.u8(codec_bits(c) | cf::raw_dict | cf::raw_codes | cf::raw_rows | cf::raw_sidecar);
  w.u8(0);
  count(w, static_cast<std::uint32_t>(col.dict.offsets.size()));
  w.deltas(col.dict.offsets);
  w.u32(static_cast<std::uint32_t>(col.dict.bytes.size()));
  w.bytes(std::string(col.dict.bytes.begin(), col.dict.bytes.end()));
  count(w, static_cast<std::uint32_t>(col.codes.size()));
  w.bytes(std::string(col.codes.begin(), col.codes.end()));
  w.u8(1).u8(static_cast<std::uint32_t>(col.num_codes - col.codes.size() * 8 / code_bits(c)));  // fit + 0
  w.u8(static_cast<std::uint32_t>(col.row_code_offsets.size())).deltas(col.row_code_offsets);
  w.u8(static_cast<std::uint32_t>(col.row_byte_offsets.size())).deltas(col.row_byte_offsets);
  stride(w, s);
  w.u8(static_cast<std::uint32_t>(col.sidecar.size())).deltas(col.sidecar);
  return w;
}

/**
 * Issue #24 item 1: dictionary offsets climb by `step` bytes (the longest token) past the end of
 * `bytes`, a one-byte token lies 8 bytes past the buffer, then the offsets come back down so that
 * offsets[N] == bytes.size(). 257 tokens: 255 of `step` bytes (offsets[255] = 255 * step), the
 * one-byte token at 255 * step, and one whose end steps down to bytes.size() = 255 * step - 8.
 * The validate() of commit d5b39fe checked offsets[N] first, then read the one-byte token's byte
 * (out of bounds) before it saw the non-monotone offset.
 */
writer item1_column(codec c)
{
  std::uint32_t const step = static_cast<std::uint32_t>(max_token_length(c));
  std::uint32_t const size = 255 * step - 8;
  std::vector<std::uint32_t> off;
  for (std::uint32_t i = 0; i <= 255; ++i) off.push_back(i * step);
  off.push_back(255 * step + 1);
  off.push_back(size);
  writer w;
  w.u8(codec_bits(c) | cf::raw_dict);
  w.u8(2);  // delta-coded offsets, pattern bytes
  count(w, static_cast<std::uint32_t>(off.size()));
  w.deltas(off).u32(size);
  w.u8(0).u8(0);  // no codes
  rows(w, {});
  stride(w, 1);
  return w;
}

void write(std::string const& dir, std::string const& name, writer const& w, expect e, int& bad)
{
  compressed_column const col = cf::decode(w.out.data(), w.out.size());
  bool valid = true, structural = true;
  std::string why;
  try {
    validate(col);
  } catch (format_error const& x) {
    valid = false;
    why   = x.what();
  }
  try {
    validate_structure(col);
  } catch (format_error const&) {
    structural = false;
  }
  expect const got = valid ? expect::valid : structural ? expect::structural : expect::invalid;
  char const* names[] = {"valid", "structural", "invalid"};
  std::printf("%-28s %5zu bytes  %-10s %s\n", name.c_str(), w.out.size(), names[static_cast<int>(got)], why.c_str());
  if (got != e) {
    std::fprintf(stderr, "make_column_corpus: %s is %s, expected %s\n", name.c_str(), names[static_cast<int>(got)],
                 names[static_cast<int>(e)]);
    ++bad;
  }
  std::ofstream(dir + "/" + name, std::ios::binary)
    .write(reinterpret_cast<char const*>(w.out.data()), static_cast<std::streamsize>(w.out.size()));
}

}  // namespace

int main(int argc, char** argv)
{
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <output folder>\n", argv[0]);
    return 2;
  }
  std::string const dir = argv[1];
  std::filesystem::create_directories(dir);
  int bad = 0;
  for (codec c : {codec::onpair16, codec::onpair12, codec::fsst12}) {
    std::string const n = codec_name(c);
    std::uint8_t const cb = codec_bits(c);
    write(dir, n + "_text", text_column(c, 3, true), expect::valid, bad);
    write(dir, n + "_nosidecar", text_column(c, default_sidecar_stride, false), expect::valid, bad);
    write(dir, n + "_raw", raw_column(c, 4), expect::valid, bad);
    {  // empty column: no codes, no rows
      writer w;
      w.u8(cb);
      built_dict(w, {});
      codes16(w, {});
      rows(w, {});
      stride(w, default_sidecar_stride);
      write(dir, n + "_empty", w, expect::valid, bad);
    }
    {  // empty rows around one of two codes
      writer w;
      w.u8(cb);
      built_dict(w, {"ab"});
      codes16(w, {256, 'a'});
      rows(w, {0, 2, 0, 0});
      stride(w, 1);
      write(dir, n + "_emptyrows", w, expect::valid, bad);
    }
    {  // the largest dictionary of the codec, codes spread over it (mode 3)
      writer w;
      w.u8(cb);
      built_dict(w, {}, code_space(c) - 256);
      w.u8(3).u8(64);
      for (int k = 0; k < 64; ++k) w.u8(k * 37);
      rows(w, {10, 20, 255});
      stride(w, 16);
      write(dir, n + "_fulldict", w, expect::valid, bad);
    }
    {  // one token more than the code space
      writer w;
      w.u8(cb);
      built_dict(w, {"ab"}, code_space(c) - 256);
      codes16(w, {});
      rows(w, {});
      stride(w, 1);
      write(dir, n + "_overfull", w, expect::invalid, bad);
    }
    write(dir, n + "_item1", item1_column(c), expect::invalid, bad);

    // prepare(validate = false) structure: what validate_structure() must stop.
    {  // num_codes claims 3 codes more than the buffer holds
      writer w = text_column(c, 3, true);
      w.u8(6).u8(3);
      write(dir, n + "_codes_short", w, expect::invalid, bad);
    }
    {  // the code buffer lost its last byte
      writer w = text_column(c, 3, true);
      w.u8(5).u8(0xFF);
      write(dir, n + "_codes_truncated", w, expect::invalid, bad);
    }
    {  // row_code_offsets[R] = num_codes + 3
      writer w = text_column(c, 3, true);
      w.u8(8).u16(0x8000).u8(3);
      write(dir, n + "_rowend_past", w, expect::invalid, bad);
    }
    {  // a row code offset in the middle past num_codes (then back down)
      writer w = text_column(c, 3, true);
      w.u8(8).u16(2).u8(100);
      write(dir, n + "_rowmid_past", w, expect::invalid, bad);
    }
    {  // row byte offset arrays of different lengths
      writer w = text_column(c, 3, true);
      w.u8(11).u8(0);
      write(dir, n + "_rowbytes_longer", w, expect::invalid, bad);
    }
    {  // sidecar entry past the decoded size
      writer w = text_column(c, 3, true);
      w.u8(12).u16(0x8000).u8(100);
      write(dir, n + "_sidecar_past", w, expect::invalid, bad);
    }
    // Structurally sound, content wrong: validate() fails, the host half of prepare must not.
    {  // a code outside the dictionary (build_split_stream throws format_error for 12 bits)
      writer w;
      w.u8(cb);
      built_dict(w, extras_for(c));
      codes16(w, {256, static_cast<std::uint16_t>(code_space(c) - 1), 'a', 300});
      rows(w, {2, 255});
      stride(w, 2);
      write(dir, n + "_code_outside", w, expect::structural, bad);
    }
    {  // row byte offsets monotone but not the running sums
      writer w = text_column(c, 3, true);
      w.u8(9).u16(1).u8(0xFF);
      write(dir, n + "_rowbytes_wrong", w, expect::structural, bad);
    }
    {  // sidecar monotone but wrong
      writer w = text_column(c, 3, true);
      w.u8(12).u16(1).u8(0xFF);
      write(dir, n + "_sidecar_wrong", w, expect::structural, bad);
    }
    {  // duplicate token
      writer w;
      w.u8(cb);
      built_dict(w, {"ab", "cd", "ab"});
      codes16(w, {256, 258});
      rows(w, {255});
      stride(w, 1);
      write(dir, n + "_duplicate", w, expect::structural, bad);
    }
  }
  {  // FSST-12 needs code b to be the byte b
    writer w;
    w.u8(codec_bits(codec::fsst12));
    built_dict(w, {"ab"}, 0, 1);
    codes16(w, {256});
    rows(w, {255});
    stride(w, 1);
    write(dir, "fsst12_rotated", w, expect::invalid, bad);
  }
  {  // codec byte 7
    writer w = text_column(codec::onpair16, 3, true);
    w.u8(15).u8(7);
    write(dir, "codec_unknown", w, expect::invalid, bad);
  }
  return bad ? 1 : 0;
}
