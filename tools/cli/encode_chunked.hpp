// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Encoding a large column in row chunks so that progress can be shown (host-only).
//
// fastpair::encode is one call over the whole column. Tokens never span rows, so encoding rows in
// chunks with the same dictionary (one fastpair::encoder) and concatenating the results gives
// exactly the column that one encode() call gives: the same codes, row offsets and sidecar (tests/cli/cli_test.sh compares the
// .fpc files byte for byte). The chunks' codes are re-packed into one stream and the sidecar is
// computed while appending.
#pragma once

#include "progress.hpp"

#include <fastpair/encode.hpp>
#include <fastpair/format.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace fastpair::cli {

/** Appends codes to a packed LSB-first stream of 12- or 16-bit codes holding `count` codes. */
class code_appender {
 public:
  code_appender(codec kind, std::vector<std::uint8_t>& packed) : bits_(code_bits(kind)), packed_(packed) {}
  void push(std::uint16_t c, std::uint64_t count)
  {
    if (bits_ == 16) {
      packed_.push_back(static_cast<std::uint8_t>(c));
      packed_.push_back(static_cast<std::uint8_t>(c >> 8));
    } else if ((count & 1) == 0) {  // even: starts on a byte boundary
      packed_.push_back(static_cast<std::uint8_t>(c));
      packed_.push_back(static_cast<std::uint8_t>((c >> 8) & 0xF));
    } else {  // odd: low nibble goes into the high nibble of the last byte
      packed_.back() = static_cast<std::uint8_t>(packed_.back() | ((c & 0xF) << 4));
      packed_.push_back(static_cast<std::uint8_t>(c >> 4));
    }
  }

 private:
  int bits_;
  std::vector<std::uint8_t>& packed_;
};

/**
 * @brief encode(rows, kind, dict, stride) with progress: text of more than `chunk_bytes` is
 * encoded in row chunks of at most `chunk_bytes` and at most a tenth of the text (so that progress
 * shows each 10 % step); text that fits one chunk in one encode() call (chunking costs some time
 * for re-packing the codes). The result is identical to one encode() call.
 */
inline compressed_column encode_chunked(strings_view rows, codec kind, dictionary const& dict, std::uint32_t stride,
                                        std::uint64_t chunk_bytes, progress& bar)
{
  std::uint64_t const total = rows.total_bytes();
  if (total <= chunk_bytes || rows.num_rows <= 1) {
    compressed_column c = encode(rows, kind, dict, stride);
    bar.set(total);
    return c;
  }
  chunk_bytes = std::min<std::uint64_t>(chunk_bytes, total / 10 + (total % 10 != 0));
  encoder const enc(kind, dict);  // the dictionary is validated and its tables built once
  std::vector<std::uint32_t> len(dict.size());
  for (std::size_t i = 0; i < len.size(); ++i) len[i] = dict.length(i);

  compressed_column col;
  col.kind           = kind;
  col.dict           = dict;
  col.sidecar_stride = stride;
  col.row_code_offsets.reserve(rows.num_rows + 1);
  col.row_byte_offsets.reserve(rows.num_rows + 1);
  col.codes.reserve(packed_code_bytes(kind, total / 2));
  code_appender append(kind, col.codes);
  std::uint64_t m = 0, pos = 0;

  std::uint64_t const* const off = rows.offsets;
  std::size_t r0                 = 0;
  while (r0 < rows.num_rows) {
    // Last row end within chunk_bytes of the chunk start (at least one row).
    std::uint64_t const* it = std::upper_bound(off + r0 + 1, off + rows.num_rows + 1, off[r0] + chunk_bytes);
    std::size_t r1          = static_cast<std::size_t>(it - off) - 1;
    if (r1 <= r0) r1 = r0 + 1;
    compressed_column const part = enc.encode(strings_view(rows.chars, off + r0, r1 - r0), stride);
    std::vector<std::uint16_t> const codes = unpack_codes(part);
    std::uint64_t const m0 = m, b0 = pos;
    for (std::uint16_t c : codes) {
      if (m % stride == 0) col.sidecar.push_back(pos);
      pos += len[c];
      append.push(c, m);
      ++m;
    }
    for (std::size_t i = 1; i < part.row_code_offsets.size(); ++i) {
      col.row_code_offsets.push_back(m0 + part.row_code_offsets[i]);
      col.row_byte_offsets.push_back(b0 + part.row_byte_offsets[i]);
    }
    bar.add(off[r1] - off[r0]);
    r0 = r1;
  }
  col.num_codes = m;
  return col;
}

}  // namespace fastpair::cli
