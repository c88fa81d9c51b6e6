// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file fpc_v2.hpp
 * @brief The byte layout of a version-2 `.fpc` image, shared by the host reader and writer
 * (io.hpp) and the GPU preparation (device_column.cuh): header fields, section placement, the
 * parallel section checksum and the bit-packed row code counts. docs/FORMAT.md §3 is the spec.
 *
 * Why a version 2: version 1 stores 8-16 bytes of row offsets per row, more than the codes on
 * columns of short rows, and a sequential checksum that a GPU cannot verify. Version 2 stores
 * one bit-packed code count per row, in blocks of 1 024 rows that each have their own frame of
 * reference (the block's smallest count and the width of its largest count above that: a column
 * whose row lengths drift, or has a few long rows, pays the wide width only where they are; no
 * bits at all when every row has the same count), places every payload at a 16-byte aligned offset
 * so that an uploaded image can be read in place, and checksums sections with a sum of
 * per-word hashes that a GPU reduces at memory bandwidth. Decoded row lengths are not stored:
 * they follow from the codes and the dictionary, so there is nothing to contradict them.
 */
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
#define FASTPAIR_HOST_DEVICE __host__ __device__
#else
#define FASTPAIR_HOST_DEVICE
#endif

namespace fastpair::detail::fpc2 {

inline constexpr std::uint32_t version         = 2;
inline constexpr std::size_t header_bytes      = 96;  ///< fixed header, checksum at [88, 96)
inline constexpr std::size_t section_header_bytes = 32;  ///< id, reserved, size, checksum, reserved
inline constexpr std::uint32_t num_sections    = 5;
inline constexpr std::size_t alignment         = 16;  ///< every section header and payload starts here
inline constexpr std::uint64_t count_block_rows = 1024;  ///< rows per block of the row code counts
/// Header flags bit 1: section 4 holds a directory of count blocks (else every block has the
/// column's count_base and count_bits, and no directory is stored).
inline constexpr std::uint8_t flag_count_directory = 2;

/** Header field offsets (bytes). */
namespace at {
inline constexpr std::size_t magic = 0, version = 8, codec = 12, flags = 13, count_bits = 14, reserved15 = 15,
                             stride = 16, num_sections = 20, num_tokens = 24, num_codes = 32, num_rows = 40,
                             sidecar_entries = 48, decoded_bytes = 56, count_base = 64, dict_bytes = 72,
                             counts_size = 80, checksum = 88;
}

/** Section ids, in file order. */
enum section_id : std::uint32_t { dict_lengths = 1, dict_bytes = 2, codes = 3, row_code_counts = 4, sidecar = 5 };

FASTPAIR_HOST_DEVICE constexpr std::uint64_t align_up(std::uint64_t x) noexcept
{
  return (x + (alignment - 1)) & ~std::uint64_t{alignment - 1};
}

/** MurmurHash3's 64-bit finaliser: a bijection of 64-bit words. */
FASTPAIR_HOST_DEVICE constexpr std::uint64_t fmix64(std::uint64_t k) noexcept
{
  k ^= k >> 33;
  k *= 0xFF51AFD7ED558CCDull;
  k ^= k >> 33;
  k *= 0xC4CEB9FE1A85EC53ull;
  k ^= k >> 33;
  return k;
}

/** The hash of little-endian word i of a section (a bijection of w for each i): the summand of
 *  the section checksum. */
FASTPAIR_HOST_DEVICE constexpr std::uint64_t word_hash(std::uint64_t w, std::uint64_t i) noexcept
{
  return fmix64(w ^ ((i + 1) * 0x9E3779B97F4A7C15ull));
}

/** The section checksum from the sum (mod 2^64) of word_hash over the n bytes' words (the last
 *  partial word zero-padded). */
FASTPAIR_HOST_DEVICE constexpr std::uint64_t finish_checksum(std::uint64_t sum, std::uint64_t n) noexcept
{
  return fmix64(sum + n * 0xC2B2AE3D27D4EB4Full);
}

/** Host reference of the section checksum ("fpc64p"): any change confined to one 8-byte word is
 *  always detected (word_hash is a bijection), and the words can be hashed in any order. */
inline std::uint64_t section_checksum(std::uint8_t const* data, std::uint64_t n) noexcept
{
  std::uint64_t sum = 0, i = 0;
  for (; 8 * i + 8 <= n; ++i) {
    std::uint64_t w = 0;
    for (int b = 7; b >= 0; --b) w = w << 8 | data[8 * i + b];
    sum += word_hash(w, i);
  }
  if (8 * i < n) {
    std::uint64_t w = 0;
    for (std::uint64_t b = n - 8 * i; b-- > 0;) w = w << 8 | data[8 * i + b];
    sum += word_hash(w, i);
  }
  return finish_checksum(sum, n);
}

/** Number of bits that hold `max_delta` (0 for 0). */
FASTPAIR_HOST_DEVICE constexpr int bit_width(std::uint64_t max_delta) noexcept
{
  int b = 0;
  while (b < 64 && (max_delta >> b) != 0) ++b;
  return b;
}

/** Bytes of R row counts of b bits, LSB first (a block's values; the most section 4 can hold
 *  beyond its directory, every block at the column's count_bits). */
FASTPAIR_HOST_DEVICE constexpr std::uint64_t count_bytes(std::uint64_t rows, int bits) noexcept
{
  // rows * bits may exceed 64 bits only for absurd headers; callers check rows against the file size
  return (rows / 8) * static_cast<std::uint64_t>(bits) + ((rows % 8) * static_cast<std::uint64_t>(bits) + 7) / 8;
}

/** Section 4 (row code counts) holds, when count_bits > 0 and the header's flag_count_directory
 *  is set, a directory of one 16-byte entry per block of count_block_rows rows (u64 base: the
 *  block's smallest count; u64 `at << 8 | width`: the block's values start at byte 128 x at of
 *  the values, width bits each, at = the widths of the blocks before it), then the values; with
 *  the flag clear, the values alone, every block at count_base and count_bits. Bytes of the
 *  directory of R rows. */
FASTPAIR_HOST_DEVICE constexpr std::uint64_t count_directory_bytes(std::uint64_t rows, int bits) noexcept
{
  return bits == 0 ? 0 : 16 * (rows / count_block_rows + (rows % count_block_rows != 0));  // rows up to 2^64 - 2
}

/** One block of the row code counts: count of its row i = base + value i of `bits` bits at word
 *  `first_word` of the section (in 64-bit words), read through block_counts::count. */
struct count_block {
  std::uint64_t base       = 0;
  std::uint64_t first_word = 0;
  int bits                 = 0;
};

/**
 * The row code counts as a device column (or a host reader) holds them: section 4's `size`
 * payload bytes in little-endian 64-bit words, zero-padded to size / 8 + 2 words; `blocks`
 * directory entries (0: no directory, every block at `base` and `bits`); `base` and `bits` the
 * header's count_base and count_bits. Reads stay inside
 * those words whatever the directory says (a corrupt entry gives wrong counts, which the checks
 * of the directory and of the counts' sum report), so a kernel may read counts before they are
 * checked.
 */
struct block_counts {
  std::uint64_t const* words = nullptr;
  std::uint64_t size         = 0;
  std::uint64_t blocks       = 0;
  std::uint64_t base         = 0;
  int bits                   = 0;

  FASTPAIR_HOST_DEVICE std::uint64_t n_words() const noexcept { return size / 8 + 2; }
  FASTPAIR_HOST_DEVICE count_block block(std::uint64_t k) const noexcept
  {
    if (bits == 0) return {base, 0, 0};
    if (blocks == 0) return {base, 16 * k * static_cast<std::uint64_t>(bits), bits};  // R x bits / 64 words: no wrap
    if (2 * k + 1 >= n_words()) return {base, 0, 0};
    std::uint64_t const at = words[2 * k + 1];
    std::uint64_t const w  = at & 0xFF;
    std::uint64_t const o  = at >> 8 < size ? at >> 8 : size;  // clamped: 16 o cannot wrap
    return {words[2 * k], 2 * blocks + 16 * o, static_cast<int>(w < 64 ? w : 64)};
  }
  /** Count of row i of block b (i < count_block_rows). */
  FASTPAIR_HOST_DEVICE std::uint64_t count(count_block const& b, std::uint64_t i) const noexcept
  {
    if (b.bits == 0) return b.base;
    std::uint64_t const p = i * static_cast<std::uint64_t>(b.bits);
    std::uint64_t w       = b.first_word + p / 64;
    w                     = w < n_words() - 2 ? w : n_words() - 2;  // words w and w + 1 exist
    unsigned const sh     = static_cast<unsigned>(p % 64);
    std::uint64_t v       = words[w] >> sh;
    if (sh + static_cast<unsigned>(b.bits) > 64) v |= words[w + 1] << (64 - sh);
    return b.base + (b.bits == 64 ? v : v & ((std::uint64_t{1} << b.bits) - 1));
  }
  FASTPAIR_HOST_DEVICE std::uint64_t count(std::uint64_t r) const noexcept
  {
    return count(block(r / count_block_rows), r % count_block_rows);
  }

  /** What can be wrong with a directory entry. */
  enum problem : std::uint8_t {
    no_problem,
    width_above_bits,  ///< its width is above count_bits
    misplaced,         ///< its values do not start right after the previous block's (block 0's at 0)
    size_differs,      ///< the last block: the section's size is not what the directory gives
  };
  /** The consistency rules of directory entry k < blocks of a section of `num_rows` rows: the one
   *  place they are written, for the host reader (which names the problem) and the GPU's check
   *  (block_code_sums_kernel). A section of `blocks` entries holds at least 16 bytes per block
   *  (parse_fpc_header), so nothing here wraps. */
  FASTPAIR_HOST_DEVICE problem entry_problem(std::uint64_t k, std::uint64_t num_rows) const noexcept
  {
    std::uint64_t const e = words[2 * k + 1], w = e & 0xFF, at = e >> 8;
    if (w > static_cast<std::uint64_t>(bits)) return width_above_bits;
    if (at != (k == 0 ? 0 : (words[2 * k - 1] >> 8) + (words[2 * k - 1] & 0xFF))) return misplaced;
    if (k + 1 == blocks && (at > size / 128 || 16 * blocks + 128 * at +
                                                   count_bytes(num_rows - k * count_block_rows, static_cast<int>(w)) != size))
      return size_differs;
    return no_problem;
  }
};

/** Where each section of a version-2 image lies (payload offsets and sizes), from the header's
 *  counts alone. */
struct layout {
  std::uint64_t header_at[num_sections + 1]  = {};  ///< section k's header offset (index k = id)
  std::uint64_t payload_at[num_sections + 1] = {};
  std::uint64_t size[num_sections + 1]       = {};
  std::uint64_t file_bytes                   = 0;  ///< total image size, padding after the last section included
};

/** The layout for the given section sizes (index = section id; entry 0 unused). */
FASTPAIR_HOST_DEVICE constexpr layout make_layout(std::uint64_t const (&sizes)[num_sections + 1]) noexcept
{
  layout l{};
  std::uint64_t off = header_bytes;
  for (std::uint32_t id = 1; id <= num_sections; ++id) {
    l.header_at[id]  = off;
    l.payload_at[id] = off + section_header_bytes;
    l.size[id]       = sizes[id];
    off              = align_up(l.payload_at[id] + sizes[id]);
  }
  l.file_bytes = off;
  return l;
}

}  // namespace fastpair::detail::fpc2
