// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for columns built in memory (issue #24, item 1): the input bytes become a
// compressed_column whose arrays are raw (column_input.hpp: dictionary offsets and bytes, packed
// codes and num_codes, both row offset arrays, sidecar stride and entries, then raw edits), and
// the column goes through validate(), validate_structure() and the host half of
// device_column::prepare (token_length_histogram, build_planes for W = 8 and 16, unpack_codes,
// build_split_stream for the 12-bit codecs, the compact row lengths, the sidecar with its end
// sentinel). The properties:
//
//  (a) validate() returns or throws fastpair::format_error;
//  (b) if it returns: validate_structure() returns; decode_reference of all rows gives
//      decoded_bytes() chars and num_rows() rows with the column's byte offsets, and a row range
//      gives the matching slice; the host half of prepare runs without any exception, and its
//      outputs agree with the reference decode (the planes, the split stream and its sidecar
//      decode to the same bytes; the histogram counts every code; unpack_codes agrees with
//      code_at and pack_codes packs the codes back);
//  (c) if validate_structure() returns (validate() may not): the host half of prepare runs
//      without a crash or sanitizer report; only build_split_stream may throw, and only
//      format_error (a code outside the dictionary);
//  (d) anything else (another exception type, an abort, a sanitizer report) is a finding.
#include "column_input.hpp"

#include <fastpair/format.hpp>
#include <fastpair/planes.hpp>
#include <fastpair/reference.hpp>
#include <fastpair/validate.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <vector>

namespace {

using namespace fastpair;

[[noreturn]] void finding(char const* what, int line)
{
  std::fprintf(stderr, "column_fuzz: property failed: %s (column_fuzz.cpp:%d)\n", what, line);
  std::abort();
}
#define CHECK(cond)                       \
  do {                                    \
    if (!(cond)) finding(#cond, __LINE__); \
  } while (0)

/** What the host half of device_column::prepare computes (it uploads these). */
struct host_half {
  length_histogram histogram{};
  dictionary_planes planes8, planes16;
  std::vector<std::uint16_t> codes;
  bool has_split = false;  // built for 12-bit codecs unless a code lies outside the dictionary
  split_stream split;
  int row_length_bytes = 0;
  std::vector<std::uint8_t> row_lengths;
  std::vector<std::uint64_t> sidecar;  // with the end sentinel
};

/** device_column::row_length_bytes_for (device_column.cuh needs the CUDA headers). */
int row_length_bytes_for(std::vector<std::uint64_t> const& off)
{
  std::uint64_t longest = 0;
  for (std::size_t r = 1; r < off.size(); ++r) longest = std::max(longest, off[r] - off[r - 1]);
  return longest <= 0xFFu ? 1 : longest <= 0xFFFFu ? 2 : 0;
}

/** The host work of device_column::prepare after its validate()/validate_structure() call, in
 *  its order, for both plane widths and with the split stream for both 12-bit codecs. */
host_half prepare_host_half(compressed_column const& col, bool valid)
{
  host_half h;
  CHECK(col.sidecar_stride > 0);
  h.histogram = token_length_histogram(col);
  (void)paper_low_plane_bytes(col.kind, h.histogram);
  h.planes8  = build_planes(col.kind, col.dict, 8);
  h.planes16 = build_planes(col.kind, col.dict, 16);
  h.codes    = unpack_codes(col);
  CHECK(h.codes.size() == col.num_codes);
  // upload_row_lengths
  auto const& off    = col.row_byte_offsets;
  h.row_length_bytes = off.size() < 2 ? 0 : row_length_bytes_for(off);
  if (h.row_length_bytes) {
    h.row_lengths.resize((off.size() - 1) * h.row_length_bytes);
    for (std::size_t r = 0; r + 1 < off.size(); ++r) {
      auto const len = static_cast<std::uint16_t>(off[r + 1] - off[r]);
      if (h.row_length_bytes == 1) h.row_lengths[r] = static_cast<std::uint8_t>(len);
      else std::memcpy(&h.row_lengths[2 * r], &len, 2);
    }
  }
  // The stored sidecar and its end sentinel (else the GPU regenerates it).
  if (!col.sidecar.empty()) {
    h.sidecar = col.sidecar;
    h.sidecar.push_back(col.decoded_bytes());
  }
  if (code_space(col.kind) <= 4096) {
    try {
      h.split     = build_split_stream(col, h.codes, col.sidecar_stride);
      h.has_split = true;
    } catch (format_error const&) {
      CHECK(!valid);  // (b): a valid column has no code outside the dictionary
    }
  }
  return h;
}

void check_planes(dictionary_planes const& p, codec kind, dictionary const& d, int w)
{
  CHECK(p.low_plane_bytes == w && p.entries == code_space(kind) && p.num_tokens == d.size());
  CHECK(p.lo.size() == std::size_t{p.entries} * w && p.entry_lengths.size() == p.entries / 2);
  CHECK(p.hi.size() == (max_token_length(kind) > w ? std::size_t{p.entries} * (16 - w) : 0));
}

/** Token e of a plane set as decode kernels read it: lengths nibble, W low bytes, high bytes. */
void append_from_planes(std::vector<char>& out, dictionary_planes const& p, std::uint32_t e)
{
  std::uint32_t const len = ((p.entry_lengths[e / 2] >> (4 * (e & 1))) & 15u) + 1;
  std::uint32_t const w   = static_cast<std::uint32_t>(p.low_plane_bytes);
  std::uint32_t const lo  = std::min(len, w);
  CHECK(len <= w || !p.hi.empty());
  out.insert(out.end(), p.lo.begin() + std::size_t{e} * w, p.lo.begin() + std::size_t{e} * w + lo);
  if (len > w)
    out.insert(out.end(), p.hi.begin() + std::size_t{e} * (16 - w), p.hi.begin() + std::size_t{e} * (16 - w) + (len - w));
}

/** (b): a valid column decodes, and every prepared structure decodes to the same bytes. */
void check_valid(compressed_column const& col, host_half const& h)
{
  host_strings const all = decode_reference(col, 0, col.num_rows(), false);
  CHECK(all.num_rows() == col.num_rows());
  CHECK(all.chars.size() == col.decoded_bytes());
  CHECK(all.offsets == col.row_byte_offsets);
  if (col.num_rows() > 0) {
    std::uint64_t const mid = col.num_rows() / 2;
    host_strings const part = decode_reference(col, mid, col.num_rows(), false);
    CHECK(part.chars.size() == col.decoded_bytes() - col.row_byte_offsets[mid]);
    CHECK(std::equal(part.chars.begin(), part.chars.end(), all.chars.begin() + col.row_byte_offsets[mid]));
  }

  // The histogram counts every code once, by its token's length.
  std::uint64_t codes = 0, bytes = 0;
  for (int l = 1; l <= 16; ++l) codes += h.histogram[l], bytes += h.histogram[l] * static_cast<std::uint64_t>(l);
  CHECK(h.histogram[0] == 0 && codes == col.num_codes && bytes == col.decoded_bytes());

  // unpack_codes agrees with code_at; pack_codes gives the packed bytes back (but the unused
  // high nibble of the last byte of an odd count of 12-bit codes, which nothing reads).
  for (std::uint64_t j = 0; j < col.num_codes; ++j) CHECK(h.codes[j] == code_at(col.kind, col.codes.data(), j));
  std::vector<std::uint8_t> packed = pack_codes(col.kind, h.codes.data(), h.codes.size());
  CHECK(packed.size() == col.codes.size());
  std::vector<std::uint8_t> mine = col.codes;
  if (code_bits(col.kind) == 12 && (col.num_codes & 1)) mine.back() &= 0x0F;
  CHECK(packed == mine);

  // Both plane widths decode every code to its token.
  check_planes(h.planes8, col.kind, col.dict, 8);
  check_planes(h.planes16, col.kind, col.dict, 16);
  for (dictionary_planes const* p : {&h.planes8, &h.planes16}) {
    std::vector<char> out;
    out.reserve(all.chars.size());
    for (std::uint16_t c : h.codes) append_from_planes(out, *p, c);
    CHECK(out == all.chars);
  }

  // The split stream: every word at most 8 bytes, same bytes, rows and sidecar.
  if (code_space(col.kind) <= 4096) {
    CHECK(h.has_split);
    split_stream const& s = h.split;
    CHECK(s.planes.entries == 8192 && s.planes.hi.empty() && s.planes.lo.size() == 8192u * 8);
    CHECK(s.row_code_offsets.size() == col.num_rows() + 1);
    CHECK(s.row_code_offsets[0] == 0 && s.row_code_offsets.back() == s.words.size());
    std::vector<char> out;
    out.reserve(all.chars.size());
    for (std::size_t r = 0; r < col.num_rows(); ++r) {
      CHECK(s.row_code_offsets[r] <= s.row_code_offsets[r + 1]);
      for (std::uint64_t i = s.row_code_offsets[r]; i < s.row_code_offsets[r + 1]; ++i) {
        std::uint32_t const code = s.words[i] & ((1u << split_code_bits) - 1);
        std::uint32_t const len  = (s.words[i] >> split_code_bits) + 1u;
        CHECK(code < s.planes.num_tokens && len <= 8);
        std::size_t const before = out.size();
        append_from_planes(out, s.planes, code);
        CHECK(out.size() - before == len);
      }
      CHECK(out.size() == col.row_byte_offsets[r + 1]);
    }
    CHECK(out == all.chars);
    std::uint64_t const segs = (s.words.size() + col.sidecar_stride - 1) / col.sidecar_stride;
    CHECK(s.sidecar.size() == segs + 1 && s.sidecar.back() == col.decoded_bytes());
    std::uint64_t pos = 0;
    for (std::uint64_t i = 0; i < s.words.size(); ++i) {
      if (i % col.sidecar_stride == 0) CHECK(s.sidecar[i / col.sidecar_stride] == pos);
      pos += (s.words[i] >> split_code_bits) + 1u;
    }
  }

  // Row lengths as prepare keeps them.
  if (h.row_length_bytes)
    for (std::size_t r = 0; r < col.num_rows(); ++r) {
      std::uint64_t const len = h.row_length_bytes == 1 ? h.row_lengths[r]
                                                        : (h.row_lengths[2 * r] | (h.row_lengths[2 * r + 1] << 8));
      CHECK(len == all.row(r).size());
    }
}

void check_one(std::uint8_t const* data, std::size_t size)
{
  compressed_column const col = column_fuzz::decode(data, size);
  bool valid = false, structural = false;
  try {
    validate(col);
    valid = true;
  } catch (format_error const&) {
  }
  try {
    validate_structure(col);
    structural = true;
  } catch (format_error const&) {
  }
  CHECK(structural || !valid);  // (b): validate() passing implies validate_structure() passes
  if (!structural) return;      // prepare() throws here, before any other work
  host_half const h = prepare_host_half(col, valid);  // (c)
  if (valid) check_valid(col, h);                     // (b)
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)
{
  try {
    check_one(data, size);
  } catch (std::exception const& e) {  // (d): format_error is caught where it is allowed
    std::fprintf(stderr, "column_fuzz: unexpected exception: %s\n", e.what());
    std::abort();
  }
  return 0;
}
