// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// The stored-image tests' columns and image surgery (tests/gpu/stored_prepare_test.cu,
// tests/gpu/fpc_streamer_test.cu): synthetic columns that stress the stored row code counts and
// the row index, a column for corruption tests, and byte-level edits of `.fpc` version-2 images
// that keep or restore their checksums.
#pragma once

#include "utils/generators.hpp"
#include "utils/shard.hpp"

#include <fastpair/device_buffer.cuh>
#include <fastpair/encode.hpp>
#include <fastpair/fastpair.hpp>
#include <fastpair/io.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>

namespace fastpair::testing::images {

namespace ft   = fastpair::testing;
namespace fpc2 = fastpair::detail::fpc2;
using fastpair::codec;
using image_t = std::vector<std::uint8_t>;

// ---- columns -----------------------------------------------------------------------------------

struct named_column {
  std::string name;
  fastpair::compressed_column col;
};

/** Rows of codes; each row's list is drawn so that tokens of every length occur. */
inline std::vector<std::vector<std::uint16_t>> rows_of_counts(std::vector<std::uint64_t> const& counts,
                                                       std::uint32_t dict_size, std::uint64_t seed)
{
  ft::rng r(seed);
  std::vector<std::vector<std::uint16_t>> rows(counts.size());
  for (std::size_t i = 0; i < counts.size(); ++i)
    for (std::uint64_t k = 0; k < counts[i]; ++k) rows[i].push_back(static_cast<std::uint16_t>(r.below(dict_size)));
  return rows;
}

/** Row code counts whose three blocks of 1 024 rows differ in width: 0..1 codes, then 4 each
 *  (width 0), then 900 rows of 3..33; the version-2 image stores a count directory for them. */
inline std::vector<std::uint64_t> counts_of_varied_blocks(std::uint64_t seed)
{
  ft::rng r(seed);
  std::vector<std::uint64_t> counts(2948);
  for (std::size_t i = 0; i < counts.size(); ++i) counts[i] = i < 1024 ? r.below(2) : i < 2048 ? 4 : 3 + r.below(31);
  return counts;
}

/** Synthetic columns of `kind` that stress the stored row code counts and the row index. */
inline std::vector<named_column> synthetic_columns(codec kind)
{
  std::vector<named_column> out;
  int const max_len = fastpair::max_token_length(kind);
  auto const dict   = ft::make_dictionary(kind, 600, {2, max_len}, 3 + static_cast<int>(kind));
  auto const n      = static_cast<std::uint32_t>(dict.size());
  // 3 000 rows of 0..40 codes, 30 % empty, stride 64: count_bits 6, three row index blocks.
  out.push_back({"30 % empty rows", ft::random_column(kind, dict, 3000, {0.0, 0.3, 40}, 11, 64)});
  // Every row one code: count_bits 0, count_base 1.
  out.push_back({"one-code rows", ft::column_from_codes(kind, dict, rows_of_counts(std::vector<std::uint64_t>(2600, 1), n, 12), 128)});
  // Every row 5 codes, exactly two row index blocks: count_bits 0, count_base 5.
  out.push_back({"all-equal counts, 2048 rows", ft::column_from_codes(kind, dict, rows_of_counts(std::vector<std::uint64_t>(2048, 5), n, 13))});
  // Empty rows only (no codes, no sidecar), 1 500 rows.
  out.push_back({"empty rows only", ft::column_from_codes(kind, dict, std::vector<std::vector<std::uint16_t>>(1500))});
  // 5 000 rows of 0..3 codes with a few of 10 000 - 30 000 codes: count_bits 15, row index
  // blocks of very different code counts, long rows across many sidecar segments.
  {
    std::vector<std::uint64_t> counts(5000);
    ft::rng r(14);
    for (std::size_t i = 0; i < counts.size(); ++i) counts[i] = r.below(4);
    for (std::size_t i : {std::size_t{0}, std::size_t{1023}, std::size_t{1024}, std::size_t{2500}, std::size_t{4999}})
      counts[i] = 10000 + 5000 * (i % 5);
    out.push_back({"long rows among short ones", ft::column_from_codes(kind, dict, rows_of_counts(counts, n, 15), 256)});
  }
  // 1 025 rows of 0..9 codes at stride 1: one row past the first row index block.
  out.push_back({"1025 rows, stride 1", ft::random_column(kind, dict, 1025, {0.0, 0.1, 9}, 16, 1)});
  // Stride 100: every other segment starts 4 codes past a multiple of 8, so that the passes that
  // read codes eight at a time (for_each_code) take their head, groups and tail in one segment.
  out.push_back({"stride 100", ft::random_column(kind, dict, 1200, {0.0, 0.1, 30}, 25, 100)});
  // Stride 2 000: the offsets pass walks each segment in several windows of codes.
  out.push_back({"stride 2000", ft::random_column(kind, dict, 3000, {0.0, 0.2, 40}, 18, 2000)});
  // Runs of 300 empty rows between rows of 3 codes: many rows start at one code.
  {
    std::vector<std::uint64_t> counts(3010);
    for (std::size_t i = 0; i < counts.size(); ++i) counts[i] = i % 301 == 300 ? 3 : 0;
    out.push_back({"runs of 300 empty rows", ft::column_from_codes(kind, dict, rows_of_counts(counts, n, 19), 4)});
  }
  // 2 100 rows of 1..200 codes (20 % empty): row index blocks of about 57 000 codes across many
  // segments. At stride 5 000 a step of 4 KiB (2 048 or 2 730 codes) completes no segment: the
  // row index's positions must wait for a segment's sidecar entry.
  for (std::uint32_t stride : {fastpair::default_sidecar_stride, 5000u})
    out.push_back({"long rows, stride " + std::to_string(stride),
                   ft::random_column(kind, dict, 2100, {0.0, 0.2, 200}, 20 + stride, stride)});
  // 3 000 rows of 6..12 codes at the default stride: row index blocks of about 12 segments,
  // the range where the offsets pass takes the segment walk since segment_walk_min = 8.
  {
    std::vector<std::uint64_t> counts(3000);
    ft::rng r(21);
    for (auto& k : counts) k = 6 + r.below(7);
    out.push_back({"rows of 6-12 codes", ft::column_from_codes(kind, dict, rows_of_counts(counts, n, 22))});
  }
  // Blocks of row code counts of widths 1, 0 and 5: a count directory (the others have none).
  out.push_back({"blocks of counts in widths 1, 0, 5", ft::column_from_codes(kind, dict, rows_of_counts(counts_of_varied_blocks(23), n, 24), 96)});
  // A single row; and no row at all.
  out.push_back({"one row", ft::random_column(kind, dict, 1, {0.0, 0.0, 50}, 17)});
  out.push_back({"no rows", ft::column_from_codes(kind, dict, {})});
  return out;
}

/** The columns of `cols` that are this process's share (ft::in_test_shard: a [sharded] loop). */
inline std::vector<named_column> shard_of(std::vector<named_column> cols)
{
  std::vector<named_column> taken;
  for (std::size_t i = 0; i < cols.size(); ++i)
    if (ft::in_test_shard(i)) taken.push_back(std::move(cols[i]));
  return taken;
}

/** A host copy of `n` device values (synchronizes `s`). */
template <class T>
inline std::vector<T> download(T const* d, std::size_t n, cudaStream_t s)
{
  std::vector<T> h(n);
  if (n) FASTPAIR_CUDA_TRY(cudaMemcpyAsync(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost, s));
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
  return h;
}

// ---- image surgery -----------------------------------------------------------------------------

inline fastpair::fpc_header header_of(image_t const& img) { return fastpair::parse_fpc_header(img.data(), img.size()); }

inline void put_le64(std::uint8_t* p, std::uint64_t v)
{
  for (int i = 0; i < 8; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
inline std::uint64_t get_le64(std::uint8_t const* p)
{
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | p[i];
  return v;
}

/** Rewrites section `id`'s stored checksum to match its (changed) payload. */
inline void reseal_section(image_t& img, std::uint32_t id)
{
  auto const h = header_of(img);
  put_le64(img.data() + h.layout.header_at[id] + 16,
           fpc2::section_checksum(img.data() + h.layout.payload_at[id], h.layout.size[id]));
}
/** Rewrites the header checksum (bytes [88, 96)) to match the header's first 88 bytes. */
inline void reseal_header(image_t& img) { put_le64(img.data() + fpc2::at::checksum, fastpair::fpc_checksum(img.data(), fpc2::at::checksum)); }

inline std::uint8_t* payload(image_t& img, std::uint32_t id) { return img.data() + header_of(img).layout.payload_at[id]; }

/** Code i of the codes payload (u16 little-endian, or 12-bit pairs in 3 bytes). */
inline std::uint32_t get_code(codec kind, std::uint8_t const* p, std::uint64_t i)
{
  if (kind == codec::onpair16) return p[2 * i] | std::uint32_t{p[2 * i + 1]} << 8;
  std::uint8_t const* q = p + 3 * (i / 2);
  return i % 2 == 0 ? (q[0] | (q[1] & 0xFu) << 8) : (q[1] >> 4 | std::uint32_t{q[2]} << 4);
}
inline void set_code(codec kind, std::uint8_t* p, std::uint64_t i, std::uint32_t c)
{
  if (kind == codec::onpair16) {
    p[2 * i]     = static_cast<std::uint8_t>(c);
    p[2 * i + 1] = static_cast<std::uint8_t>(c >> 8);
    return;
  }
  std::uint8_t* q = p + 3 * (i / 2);
  if (i % 2 == 0) {
    q[0] = static_cast<std::uint8_t>(c);
    q[1] = static_cast<std::uint8_t>((q[1] & 0xF0u) | (c >> 8 & 0xFu));
  } else {
    q[1] = static_cast<std::uint8_t>((q[1] & 0x0Fu) | (c & 0xFu) << 4);
    q[2] = static_cast<std::uint8_t>(c >> 4);
  }
}

/** Where row r's value lies in the stored row code counts (section 4's payload `p` of an image
 *  with header `h`, count_bits > 0): the bit of `p` where it starts, and its block's width (the
 *  column's count_bits where the image stores no count directory). */
struct count_slot {
  std::uint64_t bit;
  int width;
};
inline count_slot count_slot_of(std::uint8_t const* p, fastpair::fpc_header const& h, std::uint64_t r)
{
  namespace fpc2            = fastpair::detail::fpc2;
  if (!h.count_directory) return {r * h.count_bits, h.count_bits};  // every value at count_bits
  std::uint64_t const dir   = fpc2::count_directory_bytes(h.n_rows, h.count_bits);
  std::uint64_t const k     = r / fpc2::count_block_rows;
  std::uint64_t const entry = get_le64(p + 16 * k + 8);
  int const width           = static_cast<int>(entry & 0xFF);
  return {8 * (dir + 128 * (entry >> 8)) + (r % fpc2::count_block_rows) * static_cast<std::uint64_t>(width), width};
}
/** Row r's stored value: its code count less its block's base. */
inline std::uint64_t get_count(std::uint8_t const* p, fastpair::fpc_header const& h, std::uint64_t r)
{
  count_slot const s = count_slot_of(p, h, r);
  std::uint64_t v    = 0;
  for (int i = 0; i < s.width; ++i) v |= std::uint64_t{(p[(s.bit + i) / 8] >> ((s.bit + i) % 8)) & 1u} << i;
  return v;
}
inline void set_count(std::uint8_t* p, fastpair::fpc_header const& h, std::uint64_t r, std::uint64_t v)
{
  count_slot const s = count_slot_of(p, h, r);
  for (int i = 0; i < s.width; ++i) {
    std::uint64_t const b = s.bit + i;
    p[b / 8]              = static_cast<std::uint8_t>((p[b / 8] & ~(1u << (b % 8))) | ((v >> i) & 1u) << (b % 8));
  }
}

/** The column of the corruption tests: 3 000 rows of 0..30 codes (count_bits > 0), a stored
 *  sidecar at stride 64, tokens of 1 byte (codes < 256) among longer ones. */
inline fastpair::compressed_column corruption_column(codec kind)
{
  auto const dict = ft::make_dictionary(kind, 500, {2, fastpair::max_token_length(kind)}, 41);
  return ft::random_column(kind, dict, 3000, {0.0, 0.05, 30}, 42, 64);
}

/** The first code of `col` that is a one-byte token (its replacement by a code outside the
 *  dictionary keeps the decoded size: the GPU reads such a code as token 0, of one byte). */
inline std::uint64_t a_one_byte_code(fastpair::compressed_column const& col)
{
  auto const codes = fastpair::unpack_codes(col);
  for (std::uint64_t i = 100; i < codes.size(); ++i)
    if (col.dict.length(codes[i]) == 1) return i;
  FAIL("no one-byte code");
  return 0;
}

/** `col` with a stored sidecar (computed if it has none) and without one, each with that flag;
 *  a column without codes only without (there is nothing to store). */
inline std::vector<std::pair<bool, fastpair::compressed_column>> with_and_without_sidecar(fastpair::compressed_column const& col)
{
  std::vector<std::pair<bool, fastpair::compressed_column>> out;
  for (bool const sidecar : {true, false}) {
    if (col.num_codes == 0 && sidecar) continue;
    auto c = col;
    if (!sidecar) c.sidecar.clear();
    else if (c.sidecar.empty()) fastpair::compute_sidecar(c);
    out.emplace_back(sidecar, std::move(c));
  }
  return out;
}

/** Makes token j of `img`'s dictionary a copy of the first earlier token i >= 256 of its length
 *  (j the first such pair), its section resealed: the dictionary keeps its shape and checksums, and
 *  j is the first token equal to an earlier one. Returns j. */
inline std::uint64_t duplicate_a_token(image_t& img)
{
  auto const h            = header_of(img);
  std::uint8_t const* len = payload(img, fpc2::dict_lengths);
  std::uint8_t* bytes     = payload(img, fpc2::dict_bytes);
  std::vector<std::uint64_t> off(h.n_tok + 1, 0);
  for (std::uint64_t t = 0; t < h.n_tok; ++t) off[t + 1] = off[t] + len[t];
  std::uint64_t i = 0, j = 0;
  for (std::uint64_t b = 257; b < h.n_tok && j == 0; ++b)
    for (std::uint64_t a = 256; a < b && j == 0; ++a)
      if (len[a] == len[b] && len[a] > 1) i = a, j = b;
  REQUIRE(j > 0);
  std::memcpy(bytes + off[j], bytes + off[i], len[j]);
  reseal_section(img, fpc2::dict_bytes);
  return j;
}

}  // namespace fastpair::testing::images
