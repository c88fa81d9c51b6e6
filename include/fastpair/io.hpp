// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file io.hpp
 * @brief The `.fpc` container: a versioned, self-describing, little-endian file holding one
 * compressed column (host-only; compiles with g++ alone). docs/FORMAT.md is the byte-by-byte spec.
 *
 * Two versions exist. serialize() writes version 2 unless asked for version 1; deserialize() and
 * read_fpc() read both (they dispatch on the u32 version at offset 8).
 *
 * @code{.text}
 *  version 2 (FORMAT.md §3; the layout is defined once, in detail/fpc_v2.hpp)
 *  offset  size  field
 *  0       96    file header   magic "FASTPAIR", u32 version = 2, codec, flags, count_bits, counts,
 *                              count_base, dict_bytes, counts_size, u64 header checksum (fpc64) over
 *                              [0, 88)
 *  96      32+n  section 1     dictionary token lengths   (num_tokens x u8)
 *          32+n  section 2     dictionary token bytes     (dict_bytes)
 *          32+n  section 3     packed codes               (packed_code_bytes(codec, num_codes))
 *          32+n  section 4     row code counts            (per 1 024 rows: a base and a width, then
 *                                                         each row's count - base in that width)
 *          32+n  section 5     sidecar                    (sidecar_entries x u64; 0 when absent)
 *  each section = u32 id, u32 reserved (0), u64 payload size, u64 payload checksum (fpc64p), u64
 *  reserved (0), payload, zero padding to a multiple of 16 bytes
 *
 *  version 1 (FORMAT.md §2)
 *  0       80    file header   magic "FASTPAIR", u32 version = 1, codec, flags, offset widths, counts,
 *                              u64 header checksum over bytes [0, 72)
 *  80      24+n  section 1     dictionary token lengths   (num_tokens x u8)
 *          24+n  section 2     dictionary token bytes     (sum of the lengths)
 *          24+n  section 3     packed codes               (packed_code_bytes(codec, num_codes))
 *          24+n  section 4     row code offsets           ((num_rows+1) x u32, or u64 when
 *                                                         num_codes >= 2^32)
 *          24+n  section 5     row byte offsets           ((num_rows+1) x u32, or u64 when
 *                                                         decoded_bytes >= 2^32)
 *          24+n  section 6     sidecar                    (sidecar_entries x u64; 0 when absent)
 *  each section = u32 id, u32 reserved (0), u64 payload size, u64 payload checksum, payload
 * @endcode
 *
 * Reading is written for untrusted bytes: every size is checked against the header's counts
 * (with overflow checks) and against the bytes that remain BEFORE anything is allocated, every
 * payload's checksum is verified, and the decoded column passes `validate()` before it is
 * returned. Any malformed input throws `format_error` naming the field and the offending value.
 * Both versions have exactly one image per column: serialize(deserialize(b), version of b) == b.
 */
#pragma once

#include <fastpair/detail/fpc_v2.hpp>
#include <fastpair/error.hpp>
#include <fastpair/format.hpp>
#include <fastpair/validate.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace fastpair {

/** @brief The 8 magic bytes that open every `.fpc` file. */
inline constexpr char fpc_magic[8] = {'F', 'A', 'S', 'T', 'P', 'A', 'I', 'R'};
/** @brief The first `.fpc` version: 80-byte header, six sections, explicit row offsets (FORMAT.md §2). */
inline constexpr std::uint32_t fpc_version_1 = 1;
/** @brief The second `.fpc` version: 96-byte header, five 16-byte aligned sections, bit-packed row
 *  code counts, parallel section checksums (FORMAT.md §3; layout in detail/fpc_v2.hpp). */
inline constexpr std::uint32_t fpc_version_2 = detail::fpc2::version;
/** @brief The newest version: what serialize() and write_fpc() write by default. */
inline constexpr std::uint32_t fpc_version_latest = fpc_version_2;
/** @brief Alias of fpc_version_latest (the version serialize() writes by default). deserialize()
 *  reads every version from fpc_version_1 to fpc_version_latest. */
inline constexpr std::uint32_t fpc_version = fpc_version_latest;
/** @brief Bytes that show a file's version: the magic and the u32 version (offset 8). */
inline constexpr std::size_t fpc_version_probe_bytes = 12;
/** @brief Size of the fixed file header of version 1 in bytes (80). */
inline constexpr std::size_t fpc_header_bytes = 80;
/** @brief Size of the fixed file header of version 2 in bytes (96). */
inline constexpr std::size_t fpc_header_bytes_v2 = detail::fpc2::header_bytes;
/** @brief The largest header of any version (96): what parse_fpc_header(data) may read. */
inline constexpr std::size_t fpc_header_bytes_max = fpc_header_bytes_v2;
/** @brief Size of the header in front of every section's payload (version 1). */
inline constexpr std::size_t fpc_section_header_bytes = 24;
/** @brief Size of the header in front of every section's payload (version 2). */
inline constexpr std::size_t fpc_section_header_bytes_v2 = detail::fpc2::section_header_bytes;
/** @brief Number of sections in a version-1 file (always all six, in id order). */
inline constexpr std::uint32_t fpc_num_sections = 6;
/** @brief Number of sections in a version-2 file (always all five, in id order). */
inline constexpr std::uint32_t fpc_num_sections_v2 = detail::fpc2::num_sections;
/** @brief Header flag bit 0: the column carries a sidecar (the sidecar section is non-empty). */
inline constexpr std::uint8_t fpc_flag_sidecar = 1;
/**
 * @brief Version 2: the most rows a column without codes (every row empty) may have, 2^20.
 * Such a column's row count is bounded by nothing else in the file (its counts take 0 bits), and
 * the reader allocates 16 bytes per row for the rebuilt offsets: the limit keeps a ~1 KB file from
 * making the reader allocate more than 16 MiB. serialize(col, 2) refuses such a column beyond it
 * (version 1 stores it, with its offsets).
 */
inline constexpr std::uint64_t fpc_v2_max_empty_rows = std::uint64_t{1} << 20;

/** @brief Section ids of a version-1 file, in file order. */
enum class fpc_section : std::uint32_t {
  dict_lengths     = 1,
  dict_bytes       = 2,
  codes            = 3,
  row_code_offsets = 4,
  row_byte_offsets = 5,
  sidecar          = 6,
};

namespace detail {

/** Width in bytes of a row offset array whose largest value is `max_value`: 4 when it fits. */
constexpr std::uint8_t fpc_offset_width(std::uint64_t max_value) noexcept
{
  return max_value <= 0xFFFFFFFFull ? 4 : 8;
}

inline char const* fpc_section_name(std::uint32_t id) noexcept
{
  switch (id) {
    case 1: return "dict_lengths";
    case 2: return "dict_bytes";
    case 3: return "codes";
    case 4: return "row_code_offsets";
    case 5: return "row_byte_offsets";
    case 6: return "sidecar";
  }
  return "unknown";
}

inline std::uint64_t load_le64(std::uint8_t const* p) noexcept
{
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
inline std::uint32_t load_le32(std::uint8_t const* p) noexcept
{
  return p[0] | (std::uint32_t{p[1]} << 8) | (std::uint32_t{p[2]} << 16) |
         (std::uint32_t{p[3]} << 24);
}
inline void store_le64(std::uint8_t* p, std::uint64_t v) noexcept
{
  for (int i = 0; i < 8; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
inline void store_le32(std::uint8_t* p, std::uint32_t v) noexcept
{
  for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

/** Lower-case hex of `n` bytes, for messages. */
inline std::string hex_bytes(std::uint8_t const* p, std::size_t n)
{
  static char const digits[] = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    s += digits[p[i] >> 4];
    s += digits[p[i] & 15];
  }
  return s;
}

[[noreturn]] inline void fail_fpc(std::string const& field, std::string const& what)
{
  throw format_error("fastpair: invalid .fpc: " + field + ": " + what);
}

/** a*b, or fail naming `field` when it does not fit in 64 bits. */
inline std::uint64_t checked_mul(std::uint64_t a, std::uint64_t b, char const* field)
{
  if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a)
    fail_fpc(field, std::to_string(a) + " x " + std::to_string(b) + " overflows 64 bits");
  return a * b;
}

/** a+b, or fail naming `field` when it does not fit in 64 bits. */
inline std::uint64_t checked_add(std::uint64_t a, std::uint64_t b, char const* field)
{
  if (b > std::numeric_limits<std::uint64_t>::max() - a)
    fail_fpc(field, std::to_string(a) + " + " + std::to_string(b) + " overflows 64 bits");
  return a + b;
}

/** Names of the version-2 sections (index = id). */
inline char const* fpc2_section_name(std::uint32_t id) noexcept
{
  switch (id) {
    case fpc2::dict_lengths: return "dict_lengths";
    case fpc2::dict_bytes: return "dict_bytes";
    case fpc2::codes: return "codes";
    case fpc2::row_code_counts: return "row_code_counts";
    case fpc2::sidecar: return "sidecar";
  }
  return "unknown";
}

/** "section 3 (codes)": how messages name a version-2 section. */
inline std::string fpc2_section_label(std::uint32_t id)
{
  return "section " + std::to_string(id) + " (" + fpc2_section_name(id) + ")";
}

/** fpc2::count_bytes(rows, bits), or fail when it does not fit in 64 bits (rows up to 2^64 - 2). */
inline std::uint64_t fpc2_count_bytes_checked(std::uint64_t rows, unsigned bits)
{
  std::uint64_t const whole = checked_mul(rows / 8, bits, "row_code_counts size");
  return checked_add(whole, ((rows % 8) * bits + 7) / 8, "row_code_counts size");
}

/** The code count of row r of `col` (r < num_rows). */
inline std::uint64_t fpc2_row_count(compressed_column const& col, std::uint64_t r)
{
  return col.row_code_offsets[r + 1] - col.row_code_offsets[r];
}

/** How a column's row code counts are stored in version 2 (FORMAT.md §3.2), without the bytes:
 *  the header's canonical frame (count_base = the smallest count, count_bits = the width of the
 *  largest count - count_base; both 0 without rows) and section 4's layout and size: empty when
 *  count_bits = 0; else, where it is smaller (`directory`), a directory entry per block of
 *  fpc2::count_block_rows rows and each block's values in the block's own width; otherwise every
 *  value in count_bits. What the section's size alone needs (fpc_file_bytes, device_bytes). */
struct fpc2_count_plan {
  std::uint64_t base = 0;
  int bits           = 0;
  bool directory     = false;
  std::uint64_t size = 0;  ///< section 4's payload bytes
  /// Per block of count_block_rows rows (none when bits = 0): its base and width as stored
  /// (count_base and count_bits for every block without a directory).
  std::vector<std::uint64_t> block_base, block_width;
};
inline fpc2_count_plan fpc2_count_plan_of(compressed_column const& col)
{
  std::uint64_t const R = col.num_rows(), RB = fpc2::count_block_rows;
  auto count            = [&](std::uint64_t r) { return fpc2_row_count(col, r); };
  fpc2_count_plan p;
  if (R == 0) return p;
  std::uint64_t lo = ~std::uint64_t{0}, hi = 0;
  for (std::uint64_t r = 0; r < R; ++r) lo = std::min(lo, count(r)), hi = std::max(hi, count(r));
  p.base = lo;
  p.bits = fpc2::bit_width(hi - lo);
  if (p.bits == 0) return p;
  std::uint64_t const dir = fpc2::count_directory_bytes(R, p.bits), B = dir / 16;
  p.block_base.resize(B), p.block_width.resize(B);
  std::uint64_t values = 0;  // bytes of the values
  for (std::uint64_t k = 0; k < B; ++k) {
    std::uint64_t const r1 = std::min(R, (k + 1) * RB);
    std::uint64_t blo = ~std::uint64_t{0}, bhi = 0;
    for (std::uint64_t r = k * RB; r < r1; ++r) blo = std::min(blo, count(r)), bhi = std::max(bhi, count(r));
    p.block_base[k]  = blo;
    p.block_width[k] = static_cast<std::uint64_t>(fpc2::bit_width(bhi - blo));
    values += fpc2::count_bytes(r1 - k * RB, static_cast<int>(p.block_width[k]));  // 128 x width but for the last
  }
  p.directory = dir + values < fpc2::count_bytes(R, p.bits);
  if (!p.directory) {  // one frame for every block: no directory, the values at count_bits
    for (std::uint64_t k = 0; k < B; ++k) p.block_base[k] = p.base, p.block_width[k] = static_cast<std::uint64_t>(p.bits);
    values = fpc2::count_bytes(R, p.bits);
  }
  p.size = (p.directory ? dir : 0) + values;
  return p;
}

/** A column's row code counts as version 2 stores them: fpc2_count_plan_of and section 4's
 *  `size` payload bytes. */
struct fpc2_counts : fpc2_count_plan {
  std::vector<std::uint8_t> bytes;
};
inline fpc2_counts fpc2_counts_of(compressed_column const& col)
{
  std::uint64_t const R = col.num_rows(), RB = fpc2::count_block_rows;
  fpc2_counts c{fpc2_count_plan_of(col), {}};
  std::uint64_t const B           = c.block_width.size();
  std::uint64_t const first_value = c.directory ? 2 * B : 0;  // in words
  // Every block but the last fills 128 x width bytes, so each starts at a whole word.
  std::vector<std::uint64_t> words(c.size / 8 + 2, 0);
  std::uint64_t at = 0;  // widths of the blocks before k
  for (std::uint64_t k = 0; k < B; ++k) {
    if (c.directory) words[2 * k] = c.block_base[k], words[2 * k + 1] = at << 8 | c.block_width[k];
    std::uint64_t const first = first_value + 16 * at;
    unsigned const b          = static_cast<unsigned>(c.block_width[k]);
    for (std::uint64_t r = k * RB, r1 = std::min(R, (k + 1) * RB); r < r1 && b > 0; ++r) {
      std::uint64_t const v   = fpc2_row_count(col, r) - c.block_base[k];
      std::uint64_t const bit = (r - k * RB) * b;
      unsigned const sh       = static_cast<unsigned>(bit % 64);
      words[first + bit / 64] |= v << sh;
      if (sh + b > 64) words[first + bit / 64 + 1] |= v >> (64 - sh);
    }
    at += c.block_width[k];
  }
  c.bytes.resize(static_cast<std::size_t>(c.size));
  for (std::size_t i = 0; i < c.bytes.size(); ++i) c.bytes[i] = static_cast<std::uint8_t>(words[i / 8] >> (8 * (i % 8)));
  return c;
}

/** The section sizes of a version-2 image of `col` (index = section id). */
inline void fpc2_section_sizes(compressed_column const& col, fpc2_count_plan const& counts,
                               std::uint64_t (&sizes)[fpc2::num_sections + 1]) noexcept
{
  sizes[0]                     = 0;
  sizes[fpc2::dict_lengths]    = col.dict.size();
  sizes[fpc2::dict_bytes]      = col.dict.bytes.size();
  sizes[fpc2::codes]           = packed_code_bytes(col.kind, col.num_codes);
  sizes[fpc2::row_code_counts] = counts.size;
  sizes[fpc2::sidecar]         = 8 * static_cast<std::uint64_t>(col.sidecar.size());
}

}  // namespace detail

/**
 * @brief The checksum of every `.fpc` section and of the header ("fpc64", 64 bits).
 *
 * The input is read as little-endian 64-bit words (a last partial word is zero-padded); each word
 * goes through `h = (h ^ w) * 0xFF51AFD7ED558CCD; h ^= h >> 32`, starting from
 * `h = 0x9E3779B97F4A7C15 ^ n`, and the result is finalised with
 * `h ^= h >> 33; h *= 0xC4CEB9FE1A85EC53; h ^= h >> 33`. Every step is a bijection of h, so any
 * change confined to one 8-byte word is always detected.
 * @code{.pseudo}
 * fpc_checksum("", 0)               -> 0x877e2011d918dd23
 * fpc_checksum("FASTPAIR", 8)       -> 0xb24febd0ca7979c3
 * fpc_checksum("FASTPAIR-fpc64", 14) -> 0xd504b9e5ba48d5b6
 * @endcode
 */
inline std::uint64_t fpc_checksum(std::uint8_t const* data, std::size_t n) noexcept
{
  constexpr std::uint64_t m = 0xFF51AFD7ED558CCDull;
  std::uint64_t h           = 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(n);
  std::size_t i             = 0;
  for (; i + 8 <= n; i += 8) {
    h = (h ^ detail::load_le64(data + i)) * m;
    h ^= h >> 32;
  }
  if (i < n) {
    std::uint8_t tail[8] = {};
    std::memcpy(tail, data + i, n - i);
    h = (h ^ detail::load_le64(tail)) * m;
    h ^= h >> 32;
  }
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ull;
  h ^= h >> 33;
  return h;
}
/** @brief The counts of a checked `.fpc` header (parse_fpc_header), and the file sizes they allow. */
struct fpc_header {
  std::uint32_t version   = fpc_version_1;  ///< 1 or 2
  std::size_t header_size = fpc_header_bytes;  ///< 80 (version 1) or 96 (version 2)
  codec kind              = codec::onpair16;
  bool has_sidecar        = false;
  std::uint8_t w_codes    = 4;  ///< version 1: row code offset width in the file (0 in version 2)
  std::uint8_t w_bytes    = 4;  ///< version 1: row byte offset width in the file (0 in version 2)
  std::uint8_t count_bits = 0;  ///< version 2: bits per row code count (0 in version 1)
  bool count_directory    = false;  ///< version 2: section 4 has a directory of count blocks
  std::uint32_t stride    = 0;  ///< sidecar stride
  std::uint64_t n_tok     = 0;  ///< dictionary entries
  std::uint64_t num_codes = 0;
  std::uint64_t n_rows    = 0;
  std::uint64_t n_sidecar = 0;  ///< sidecar entries stored (0 without a sidecar)
  std::uint64_t decoded   = 0;  ///< decoded bytes
  std::uint64_t count_base = 0;  ///< version 2: the smallest row code count (0 in version 1)
  std::uint64_t dict_bytes = 0;  ///< version 2: the dictionary's token bytes (0 in version 1)
  /// Version 2: where each section lies (offsets and sizes by section id, and the file size);
  /// zero in version 1.
  detail::fpc2::layout layout{};
  /// The file sizes the counts allow. Version 1: every section's size follows from the counts
  /// except the token bytes, which are 1..max_token_length(kind) per token. Version 2: both are
  /// layout.file_bytes, the exact size.
  std::uint64_t min_file_bytes = 0;
  std::uint64_t max_file_bytes = 0;
};

/** @brief What check_fpc_section_header() found in a valid version-2 section header. */
struct fpc_section_info {
  std::uint64_t checksum = 0;  ///< the stored payload checksum (fpc2::section_checksum of the payload)
};

namespace detail {

inline std::vector<std::uint8_t> serialize_v1(compressed_column const& col)
{
  using detail::store_le32;
  using detail::store_le64;
  validate(col);
  std::uint64_t const n_tok     = col.dict.size();
  std::uint64_t const n_rows    = col.num_rows();
  std::uint64_t const n_sidecar = col.sidecar.size();
  std::uint8_t const w_codes     = detail::fpc_offset_width(col.num_codes);
  std::uint8_t const w_bytes     = detail::fpc_offset_width(col.decoded_bytes());
  std::uint64_t const total = fpc_header_bytes + fpc_num_sections * fpc_section_header_bytes +
                              n_tok + col.dict.bytes.size() + col.codes.size() +
                              (w_codes + w_bytes) * (n_rows + 1) + 8 * n_sidecar;
  std::vector<std::uint8_t> out;
  out.reserve(total);
  out.resize(fpc_header_bytes, 0);

  std::uint8_t* h = out.data();
  std::memcpy(h, fpc_magic, 8);
  store_le32(h + 8, fpc_version_1);
  h[12] = static_cast<std::uint8_t>(col.kind);
  h[13] = n_sidecar ? fpc_flag_sidecar : 0;
  h[14] = w_codes;
  h[15] = w_bytes;
  store_le32(h + 16, col.sidecar_stride);
  // h[20..24) reserved, zero
  store_le64(h + 24, n_tok);
  store_le64(h + 32, col.num_codes);
  store_le64(h + 40, n_rows);
  store_le64(h + 48, n_sidecar);
  store_le64(h + 56, col.decoded_bytes());
  store_le32(h + 64, fpc_num_sections);
  // h[68..72) reserved, zero
  store_le64(h + 72, fpc_checksum(h, 72));

  auto section = [&out](fpc_section id, std::uint64_t size, auto&& fill) {
    std::size_t const at = out.size();
    out.resize(at + fpc_section_header_bytes + size, 0);
    std::uint8_t* p = out.data() + at;
    store_le32(p, static_cast<std::uint32_t>(id));
    store_le64(p + 8, size);
    fill(p + fpc_section_header_bytes);
    store_le64(p + 16, fpc_checksum(p + fpc_section_header_bytes, size));
  };
  section(fpc_section::dict_lengths, n_tok, [&](std::uint8_t* p) {
    for (std::uint64_t i = 0; i < n_tok; ++i) p[i] = static_cast<std::uint8_t>(col.dict.length(i));
  });
  section(fpc_section::dict_bytes, col.dict.bytes.size(), [&](std::uint8_t* p) {
    if (!col.dict.bytes.empty()) std::memcpy(p, col.dict.bytes.data(), col.dict.bytes.size());
  });
  section(fpc_section::codes, col.codes.size(), [&](std::uint8_t* p) {
    if (!col.codes.empty()) std::memcpy(p, col.codes.data(), col.codes.size());
  });
  auto uints = [](std::vector<std::uint64_t> const& v, std::uint8_t w) {
    return [&v, w](std::uint8_t* p) {
      if (w == 4)
        for (std::size_t i = 0; i < v.size(); ++i)
          store_le32(p + 4 * i, static_cast<std::uint32_t>(v[i]));
      else
        for (std::size_t i = 0; i < v.size(); ++i) store_le64(p + 8 * i, v[i]);
    };
  };
  section(fpc_section::row_code_offsets, w_codes * (n_rows + 1), uints(col.row_code_offsets, w_codes));
  section(fpc_section::row_byte_offsets, w_bytes * (n_rows + 1), uints(col.row_byte_offsets, w_bytes));
  section(fpc_section::sidecar, 8 * n_sidecar, uints(col.sidecar, 8));
  return out;
}

inline std::vector<std::uint8_t> serialize_v2(compressed_column const& col)
{
  namespace at = fpc2::at;
  validate(col);
  std::uint64_t const n_rows = col.num_rows();
  if (col.num_codes == 0 && n_rows > fpc_v2_max_empty_rows)
    throw format_error("fastpair: cannot write .fpc version 2: " + std::to_string(n_rows) +
                       " rows without codes exceed fpc_v2_max_empty_rows (" +
                       std::to_string(fpc_v2_max_empty_rows) + "); version 1 stores them");
  fpc2_counts const f = fpc2_counts_of(col);
  std::uint64_t sizes[fpc2::num_sections + 1];
  fpc2_section_sizes(col, f, sizes);
  fpc2::layout const l = fpc2::make_layout(sizes);
  std::vector<std::uint8_t> out(static_cast<std::size_t>(l.file_bytes), 0);

  std::uint8_t* h = out.data();
  std::memcpy(h + at::magic, fpc_magic, 8);
  store_le32(h + at::version, fpc_version_2);
  h[at::codec]      = static_cast<std::uint8_t>(col.kind);
  h[at::flags]      = static_cast<std::uint8_t>((col.sidecar.empty() ? 0 : fpc_flag_sidecar) |
                                               (f.directory ? fpc2::flag_count_directory : 0));
  h[at::count_bits] = static_cast<std::uint8_t>(f.bits);
  store_le32(h + at::stride, col.sidecar_stride);
  store_le32(h + at::num_sections, fpc2::num_sections);
  store_le64(h + at::num_tokens, col.dict.size());
  store_le64(h + at::num_codes, col.num_codes);
  store_le64(h + at::num_rows, n_rows);
  store_le64(h + at::sidecar_entries, col.sidecar.size());
  store_le64(h + at::decoded_bytes, col.decoded_bytes());
  store_le64(h + at::count_base, f.base);
  store_le64(h + at::dict_bytes, col.dict.bytes.size());
  store_le64(h + at::counts_size, f.bytes.size());
  store_le64(h + at::checksum, fpc_checksum(h, at::checksum));

  auto payload = [&](std::uint32_t id) { return out.data() + l.payload_at[id]; };
  std::uint8_t* p = payload(fpc2::dict_lengths);
  for (std::size_t i = 0; i < col.dict.size(); ++i) p[i] = static_cast<std::uint8_t>(col.dict.length(i));
  if (!col.dict.bytes.empty()) std::memcpy(payload(fpc2::dict_bytes), col.dict.bytes.data(), col.dict.bytes.size());
  if (!col.codes.empty()) std::memcpy(payload(fpc2::codes), col.codes.data(), col.codes.size());
  if (!f.bytes.empty()) std::memcpy(payload(fpc2::row_code_counts), f.bytes.data(), f.bytes.size());
  for (std::size_t s = 0; s < col.sidecar.size(); ++s) store_le64(payload(fpc2::sidecar) + 8 * s, col.sidecar[s]);

  for (std::uint32_t id = 1; id <= fpc2::num_sections; ++id) {
    std::uint8_t* s = out.data() + l.header_at[id];
    store_le32(s, id);
    store_le64(s + 8, sizes[id]);
    store_le64(s + 16, fpc2::section_checksum(payload(id), sizes[id]));
  }
  return out;
}

}  // namespace detail

/**
 * @brief Serialises a column into the `.fpc` byte layout of `version` (docs/FORMAT.md §3 for
 * version 2, the default; §2 for version 1, written byte for byte as before version 2 existed).
 *
 * @code{.pseudo}
 * deserialize(serialize(col))    == col   (byte-identical column, sidecar kept or absent as it was)
 * deserialize(serialize(col, 1)) == col
 * serialize(col).size() == fpc_file_bytes(col)
 * @endcode
 * @throw format_error if the column does not pass `validate()` (an invalid column is never
 *        written), or (version 2) if it has no codes and more than fpc_v2_max_empty_rows rows.
 * @throw logic_error for a version other than 1 or 2.
 */
inline std::vector<std::uint8_t> serialize(compressed_column const& col, std::uint32_t version = fpc_version_latest)
{
  FASTPAIR_EXPECTS(version == fpc_version_1 || version == fpc_version_2,
                   "serialize: .fpc version " + std::to_string(version) + " (this writer supports 1 and 2)");
  return version == fpc_version_1 ? detail::serialize_v1(col) : detail::serialize_v2(col);
}

/**
 * @brief The exact size in bytes of serialize(col, version), computed without serialising the
 * column (version 2 codes its row code counts to size them: O(rows)). `col` should be valid;
 * the size of a column serialize() would refuse is computed all the same.
 * @throw logic_error for a version other than 1 or 2.
 */
inline std::uint64_t fpc_file_bytes(compressed_column const& col, std::uint32_t version = fpc_version_latest)
{
  FASTPAIR_EXPECTS(version == fpc_version_1 || version == fpc_version_2,
                   "fpc_file_bytes: .fpc version " + std::to_string(version) + " (1 or 2)");
  if (version == fpc_version_1) {
    std::uint64_t const w = detail::fpc_offset_width(col.num_codes) + detail::fpc_offset_width(col.decoded_bytes());
    return fpc_header_bytes + fpc_num_sections * fpc_section_header_bytes + col.dict.size() + col.dict.bytes.size() +
           packed_code_bytes(col.kind, col.num_codes) + w * (col.num_rows() + 1) + 8 * col.sidecar.size();
  }
  std::uint64_t sizes[detail::fpc2::num_sections + 1];
  detail::fpc2_section_sizes(col, detail::fpc2_count_plan_of(col), sizes);
  return detail::fpc2::make_layout(sizes).file_bytes;
}

namespace detail {

/** The version-1 header checks after magic and version (`data` holds 80 bytes). */
inline fpc_header parse_fpc_header_v1(std::uint8_t const* data)
{
  using detail::checked_mul;
  using detail::fail_fpc;
  using detail::fpc_offset_width;
  using detail::load_le32;
  using detail::load_le64;
  using std::to_string;
  std::uint64_t const header_sum = load_le64(data + 72);
  if (header_sum != fpc_checksum(data, 72))
    fail_fpc("header checksum", "stored " + to_string(header_sum) + " != computed " +
                                  to_string(fpc_checksum(data, 72)));
  std::uint8_t const codec_v = data[12];
  std::uint8_t const flags   = data[13];
  if (!is_valid_codec(codec_v)) fail_fpc("codec", to_string(codec_v) + " (expected 1, 2 or 3)");
  if (flags & ~fpc_flag_sidecar) fail_fpc("flags", to_string(flags) + " has unknown bits set");
  if (load_le32(data + 20) != 0)
    fail_fpc("header[20..24)", "reserved u32 is " + to_string(load_le32(data + 20)) + ", not 0");
  if (load_le32(data + 68) != 0)
    fail_fpc("header[68..72)", "reserved u32 is " + to_string(load_le32(data + 68)) + ", not 0");

  fpc_header h;
  h.version                      = fpc_version_1;
  h.header_size                  = fpc_header_bytes;
  h.kind                         = static_cast<codec>(codec_v);
  h.stride                       = load_le32(data + 16);
  h.n_tok                        = load_le64(data + 24);
  h.num_codes                    = load_le64(data + 32);
  h.n_rows                       = load_le64(data + 40);
  h.n_sidecar                    = load_le64(data + 48);
  h.decoded                      = load_le64(data + 56);
  std::uint32_t const n_sections = load_le32(data + 64);
  h.has_sidecar                  = (flags & fpc_flag_sidecar) != 0;
  h.w_codes                      = data[14];
  h.w_bytes                      = data[15];

  if (h.stride == 0) fail_fpc("sidecar_stride", "0");
  if (h.n_tok < 256 || h.n_tok > code_space(h.kind))
    fail_fpc("num_tokens", to_string(h.n_tok) + " outside 256.." + to_string(code_space(h.kind)) +
                             " for codec " + codec_name(h.kind));
  if (h.num_codes > (std::numeric_limits<std::uint64_t>::max() >> 5))
    fail_fpc("num_codes", to_string(h.num_codes) + " too large");
  if (h.n_rows == std::numeric_limits<std::uint64_t>::max())
    fail_fpc("num_rows", to_string(h.n_rows) + " too large");
  std::uint64_t const entries = h.num_codes == 0 ? 0 : (h.num_codes - 1) / h.stride + 1;
  if (h.has_sidecar) {
    if (h.num_codes == 0) fail_fpc("flags", "sidecar flag set on a column with 0 codes");
    if (h.n_sidecar != entries)
      fail_fpc("sidecar_entries", to_string(h.n_sidecar) + " != ceil(num_codes / stride) = " + to_string(entries));
  } else if (h.n_sidecar != 0) {
    fail_fpc("sidecar_entries", to_string(h.n_sidecar) + " but the sidecar flag is clear");
  }
  // Offset widths are canonical (4 when the array's last value fits in 32 bits, else 8), so every
  // column has exactly one .fpc image.
  if (h.w_codes != fpc_offset_width(h.num_codes))
    fail_fpc("row_code_offsets width", to_string(h.w_codes) + " bytes; num_codes " + to_string(h.num_codes) +
                                           " needs " + to_string(fpc_offset_width(h.num_codes)));
  if (h.w_bytes != fpc_offset_width(h.decoded))
    fail_fpc("row_byte_offsets width", to_string(h.w_bytes) + " bytes; decoded_bytes " + to_string(h.decoded) +
                                           " needs " + to_string(fpc_offset_width(h.decoded)));
  if (n_sections != fpc_num_sections)
    fail_fpc("num_sections", to_string(n_sections) + " (version 1 has " + to_string(fpc_num_sections) + ")");

  // n_tok <= 65 536, num_codes <= 2^59 and n_sidecar <= num_codes keep every term but the row
  // offsets far from overflow; those are checked.
  std::uint64_t const rows_bytes = checked_mul(h.n_rows + 1, std::uint64_t{h.w_codes} + h.w_bytes, "num_rows");
  std::uint64_t const fixed      = fpc_header_bytes + fpc_num_sections * fpc_section_header_bytes + h.n_tok +
                              packed_code_bytes(h.kind, h.num_codes) + 8 * h.n_sidecar;
  if (rows_bytes > std::numeric_limits<std::uint64_t>::max() - fixed - 16 * h.n_tok)
    fail_fpc("num_rows", to_string(h.n_rows) + ": the file size overflows 64 bits");
  h.min_file_bytes = fixed + rows_bytes + h.n_tok;  // one byte per token
  h.max_file_bytes = fixed + rows_bytes + h.n_tok * static_cast<std::uint64_t>(max_token_length(h.kind));
  return h;
}

/** The version-2 header checks after magic and version (`data` holds 96 bytes). */
inline fpc_header parse_fpc_header_v2(std::uint8_t const* data)
{
  namespace at = fpc2::at;
  using std::to_string;
  std::uint64_t const header_sum = load_le64(data + at::checksum);
  std::uint64_t const computed   = fpc_checksum(data, at::checksum);
  if (header_sum != computed)
    fail_fpc("header checksum", "stored " + to_string(header_sum) + " != computed " + to_string(computed));
  std::uint8_t const codec_v = data[at::codec];
  std::uint8_t const flags   = data[at::flags];
  if (!is_valid_codec(codec_v)) fail_fpc("codec", to_string(codec_v) + " (expected 1, 2 or 3)");
  if (flags & ~(fpc_flag_sidecar | fpc2::flag_count_directory))
    fail_fpc("flags", to_string(flags) + " has unknown bits set");
  if (data[at::reserved15] != 0)
    fail_fpc("header[15]", "reserved byte is " + to_string(data[at::reserved15]) + ", not 0");

  fpc_header h;
  h.version                      = fpc_version_2;
  h.header_size                  = fpc2::header_bytes;
  h.kind                         = static_cast<codec>(codec_v);
  h.has_sidecar                  = (flags & fpc_flag_sidecar) != 0;
  h.count_directory              = (flags & fpc2::flag_count_directory) != 0;
  h.w_codes                      = 0;
  h.w_bytes                      = 0;
  h.count_bits                   = data[at::count_bits];
  h.stride                       = load_le32(data + at::stride);
  std::uint32_t const n_sections = load_le32(data + at::num_sections);
  h.n_tok                        = load_le64(data + at::num_tokens);
  h.num_codes                    = load_le64(data + at::num_codes);
  h.n_rows                       = load_le64(data + at::num_rows);
  h.n_sidecar                    = load_le64(data + at::sidecar_entries);
  h.decoded                      = load_le64(data + at::decoded_bytes);
  h.count_base                   = load_le64(data + at::count_base);
  h.dict_bytes                   = load_le64(data + at::dict_bytes);
  std::uint64_t const counts_size = load_le64(data + at::counts_size);
  std::uint64_t const M = h.num_codes, R = h.n_rows;
  unsigned const bits   = h.count_bits;

  if (bits > 64) fail_fpc("count_bits", to_string(bits) + " > 64");
  if (h.stride == 0) fail_fpc("sidecar_stride", "0");
  if (n_sections != fpc2::num_sections)
    fail_fpc("num_sections", to_string(n_sections) + " (version 2 has " + to_string(fpc2::num_sections) + ")");
  if (h.n_tok < 256 || h.n_tok > code_space(h.kind))
    fail_fpc("num_tokens", to_string(h.n_tok) + " outside 256.." + to_string(code_space(h.kind)) +
                             " for codec " + codec_name(h.kind));
  if (M > (std::numeric_limits<std::uint64_t>::max() >> 5)) fail_fpc("num_codes", to_string(M) + " too large");
  if (R == std::numeric_limits<std::uint64_t>::max()) fail_fpc("num_rows", to_string(R) + " too large");
  std::uint64_t const entries = M == 0 ? 0 : (M - 1) / h.stride + 1;
  if (h.has_sidecar) {
    if (M == 0) fail_fpc("flags", "sidecar flag set on a column with 0 codes");
    if (h.n_sidecar != entries)
      fail_fpc("sidecar_entries", to_string(h.n_sidecar) + " != ceil(num_codes / stride) = " + to_string(entries));
  } else if (h.n_sidecar != 0) {
    fail_fpc("sidecar_entries", to_string(h.n_sidecar) + " but the sidecar flag is clear");
  }
  std::uint64_t const max_len = static_cast<std::uint64_t>(max_token_length(h.kind));
  if (h.dict_bytes < h.n_tok || h.dict_bytes > h.n_tok * max_len)
    fail_fpc("dict_bytes", to_string(h.dict_bytes) + " outside " + to_string(h.n_tok) + ".." +
                             to_string(h.n_tok * max_len) + " for " + to_string(h.n_tok) + " tokens of codec " +
                             codec_name(h.kind));
  if (h.decoded < M || h.decoded > M * max_len)
    fail_fpc("decoded_bytes", to_string(h.decoded) + " outside " + to_string(M) + ".." + to_string(M * max_len) +
                                " for " + to_string(M) + " codes of codec " + codec_name(h.kind));
  // The frame of reference of the row code counts (canonical: count_base is the smallest count,
  // count_bits the width of the largest count - count_base).
  if (R == 0) {
    if (M != 0) fail_fpc("num_codes", to_string(M) + " codes in 0 rows");
    if (h.count_base != 0) fail_fpc("count_base", to_string(h.count_base) + " with 0 rows (must be 0)");
    if (bits != 0) fail_fpc("count_bits", to_string(bits) + " with 0 rows (must be 0)");
  }
  if (h.count_base > M) fail_fpc("count_base", to_string(h.count_base) + " > num_codes " + to_string(M));
  std::uint64_t const base_total = checked_mul(h.count_base, R, "count_base x num_rows");
  if (base_total > M)
    fail_fpc("count_base", to_string(h.count_base) + " x " + to_string(R) + " rows = " + to_string(base_total) +
                             " > num_codes " + to_string(M));
  if (bits == 0 && base_total != M)
    fail_fpc("count_base", to_string(h.count_base) + " x " + to_string(R) + " rows = " + to_string(base_total) +
                             " != num_codes " + to_string(M) + " with count_bits 0");
  // With b > 0 bits some row holds count_base + 2^(b-1) codes or more, and another count_base.
  if (bits > 0 && (R < 2 || (std::uint64_t{1} << (bits - 1)) > M - base_total))
    fail_fpc("count_bits", to_string(bits) + ": " + to_string(R) + " rows of at least count_base " +
                             to_string(h.count_base) + " codes summing to num_codes " + to_string(M) +
                             " cannot have a count " + to_string(bits) + " bits above count_base");
  if (M == 0 && R > fpc_v2_max_empty_rows)
    fail_fpc("num_rows", to_string(R) + " rows without codes exceed fpc_v2_max_empty_rows (" +
                           to_string(fpc_v2_max_empty_rows) + ")");
  // Section 4: nothing with count_bits 0; without a directory R values of count_bits; with one,
  // its 16 bytes per block of rows (so the rows are bounded by the file) and values, fewer bytes
  // than without (canonical: the directory is stored only where it saves bytes).
  if (bits == 0 && h.count_directory) fail_fpc("flags", "count directory flag set with count_bits 0");
  if (bits == 0 && counts_size != 0)
    fail_fpc("counts_size", to_string(counts_size) + " with count_bits 0 (must be 0)");
  if (bits > 0) {
    std::uint64_t const flat = fpc2_count_bytes_checked(R, bits);
    std::uint64_t const dir  = fpc2::count_directory_bytes(R, static_cast<int>(bits));  // R < 2^64: no wrap
    if (!h.count_directory && counts_size != flat)
      fail_fpc("counts_size", to_string(counts_size) + " != " + to_string(flat) + " for " + to_string(R) + " rows of " +
                                to_string(bits) + " bits without a count directory");
    if (h.count_directory && (counts_size < dir || counts_size >= flat))
      fail_fpc("counts_size", to_string(counts_size) + " with a count directory: it must be at least " + to_string(dir) +
                                " (its directory) and below " + to_string(flat) + " (" + to_string(R) + " rows of " +
                                to_string(bits) + " bits without one)");
  }

  std::uint64_t sizes[fpc2::num_sections + 1] = {};
  sizes[fpc2::dict_lengths]    = h.n_tok;
  sizes[fpc2::dict_bytes]      = h.dict_bytes;
  sizes[fpc2::codes]           = packed_code_bytes(h.kind, M);
  sizes[fpc2::row_code_counts] = counts_size;
  sizes[fpc2::sidecar]         = 8 * h.n_sidecar;  // n_sidecar <= num_codes < 2^59
  std::uint64_t end = fpc2::header_bytes;  // the layout's arithmetic, overflow-checked
  for (std::uint32_t id = 1; id <= fpc2::num_sections; ++id) {
    end = checked_add(checked_add(end, fpc2::section_header_bytes, "file size"), sizes[id], "file size");
    end = checked_add(end, fpc2::alignment - 1, "file size") & ~std::uint64_t{fpc2::alignment - 1};
  }
  h.layout         = fpc2::make_layout(sizes);
  h.min_file_bytes = h.layout.file_bytes;
  h.max_file_bytes = h.layout.file_bytes;
  return h;
}

}  // namespace detail

/**
 * @brief Checks the fixed header of a `.fpc` file of any version, from the `available` bytes at
 * `data`: 12 bytes show the version, then version 1 needs 80 and version 2 needs 96. Checks the
 * magic, version, checksum, codec, flags, reserved fields, every count and their consistency
 * (version 1: canonical offset widths; version 2: the count frame, dict_bytes, decoded_bytes), the
 * section count, and that the file size the counts imply fits 64 bits. A reader checks this, and
 * the file's size against `min_file_bytes .. max_file_bytes` (version 2: exactly
 * `layout.file_bytes`), before it reads or allocates for the rest (read_fpc does).
 * @code{.pseudo}
 * parse_fpc_header(serialize(col).data(), 90) -> throws format_error("fastpair: invalid .fpc: header:
 *                                               truncated header: 90 bytes, version 2 needs 96")
 * @endcode
 * @throw format_error naming the field (the same messages as deserialize()).
 */
inline fpc_header parse_fpc_header(std::uint8_t const* data, std::size_t available)
{
  using detail::fail_fpc;
  using std::to_string;
  if (data == nullptr && available != 0) fail_fpc("input", "null pointer with non-zero size");
  if (available >= 8 && std::memcmp(data, fpc_magic, 8) != 0)
    fail_fpc("magic", "0x" + detail::hex_bytes(data, 8) + " is not \"FASTPAIR\" (0x" +
                        detail::hex_bytes(reinterpret_cast<std::uint8_t const*>(fpc_magic), 8) + ")");
  if (available < fpc_version_probe_bytes)
    fail_fpc("header", "input is " + to_string(available) + " bytes, shorter than the " + to_string(fpc_header_bytes) +
                         "-byte header of version 1 (version 2: " + to_string(fpc_header_bytes_v2) + " bytes)");
  std::uint32_t const version = detail::load_le32(data + 8);
  std::size_t const need      = version == fpc_version_1 ? fpc_header_bytes : fpc_header_bytes_v2;
  if (version != fpc_version_1 && version != fpc_version_2)
    fail_fpc("version", to_string(version) + " (this reader supports 1 and 2)");
  if (available < need)
    fail_fpc("header", "truncated header: " + to_string(available) + " bytes, version " + to_string(version) +
                         " needs " + to_string(need));
  return version == fpc_version_1 ? detail::parse_fpc_header_v1(data) : detail::parse_fpc_header_v2(data);
}

/**
 * @brief parse_fpc_header(data, fpc_header_bytes_max): for callers that hold at least a whole
 * header. It reads up to 96 bytes: `data` must hold 80 bytes for a version-1 file and 96 for a
 * version-2 file (the version is read first, so a version-1 header of 80 bytes is enough).
 * Prefer the two-argument form, which names a short input instead of reading past it.
 */
inline fpc_header parse_fpc_header(std::uint8_t const* data)
{
  if (data != nullptr && std::memcmp(data, fpc_magic, 8) == 0 && detail::load_le32(data + 8) == fpc_version_1)
    return parse_fpc_header(data, fpc_header_bytes);
  return parse_fpc_header(data, fpc_header_bytes_max);
}

/**
 * @brief Checks the 32-byte header of section `id` (1..5) of a version-2 file whose header is `h`:
 * its id, both reserved fields, and its size against `h.layout.size[id]`. For a GPU preparation
 * that reads the header on the host and verifies the section's payload elsewhere.
 * @code{.pseudo}
 * check_fpc_section_header(h, 3, bytes + h.layout.header_at[3]) -> {checksum stored for the codes}
 *   or throws format_error("fastpair: invalid .fpc: section 3 (codes): size 10 != 12 from the header")
 * @endcode
 * @return the stored payload checksum, to compare with fpc2::section_checksum of the payload.
 * @throw format_error naming the section; logic_error if `h` is not version 2 or `id` not 1..5.
 */
inline fpc_section_info check_fpc_section_header(fpc_header const& h, std::uint32_t id,
                                                 std::uint8_t const* section_header)
{
  using detail::fail_fpc;
  using detail::load_le32;
  using detail::load_le64;
  using std::to_string;
  FASTPAIR_EXPECTS(h.version == fpc_version_2, "check_fpc_section_header: needs a version-2 header");
  FASTPAIR_EXPECTS(id >= 1 && id <= detail::fpc2::num_sections && section_header != nullptr,
                   "check_fpc_section_header: section id " + to_string(id) + " (1..5) or null pointer");
  std::string const label   = detail::fpc2_section_label(id);
  std::uint8_t const* p     = section_header;
  std::uint32_t const got   = load_le32(p);
  if (got != id)
    fail_fpc(label, "id " + to_string(got) + " at offset " + to_string(h.layout.header_at[id]) + ", expected " +
                      to_string(id));
  if (load_le32(p + 4) != 0) fail_fpc(label, "reserved u32 at +4 is " + to_string(load_le32(p + 4)) + ", not 0");
  if (load_le64(p + 24) != 0) fail_fpc(label, "reserved u64 at +24 is " + to_string(load_le64(p + 24)) + ", not 0");
  std::uint64_t const sz = load_le64(p + 8);
  if (sz != h.layout.size[id])
    fail_fpc(label, "size " + to_string(sz) + " != " + to_string(h.layout.size[id]) + " from the header");
  return {load_le64(p + 16)};
}

namespace detail {
/** Fails naming section `id` unless fpc2::section_checksum(payload) equals `stored`. */
inline void verify_fpc2_checksum(fpc_header const& h, std::uint32_t id, std::uint8_t const* payload,
                                 std::uint64_t stored)
{
  std::uint64_t const actual = fpc2::section_checksum(payload, h.layout.size[id]);
  if (actual != stored)
    fail_fpc(fpc2_section_label(id), "checksum mismatch (stored " + std::to_string(stored) + ", computed " +
                                       std::to_string(actual) + ")");
}
}  // namespace detail

namespace detail {
/** read_fpc_dictionary without the uniqueness test. */
inline dictionary read_fpc_dictionary_shape(fpc_header const& h, std::uint8_t const* lengths_payload,
                                            std::uint8_t const* bytes_payload, std::uint64_t lengths_checksum,
                                            std::uint64_t bytes_checksum)
{
  namespace fpc2 = detail::fpc2;
  FASTPAIR_EXPECTS(h.version == fpc_version_2, "read_fpc_dictionary: needs a version-2 header");
  FASTPAIR_EXPECTS(lengths_payload != nullptr && bytes_payload != nullptr, "read_fpc_dictionary: null payload");
  verify_fpc2_checksum(h, fpc2::dict_lengths, lengths_payload, lengths_checksum);
  std::uint64_t const n = h.layout.size[fpc2::dict_lengths];
  std::uint64_t sum     = 0;  // at most 255 x 65 536: fits the u32 offsets
  dictionary d;
  d.offsets.assign(static_cast<std::size_t>(n) + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    sum += lengths_payload[i];
    d.offsets[i + 1] = static_cast<std::uint32_t>(sum);
  }
  if (sum != h.dict_bytes)
    fail_fpc(fpc2_section_label(fpc2::dict_lengths), "token lengths sum to " + std::to_string(sum) + " != dict_bytes " +
                                                       std::to_string(h.dict_bytes) + " from the header");
  verify_fpc2_checksum(h, fpc2::dict_bytes, bytes_payload, bytes_checksum);
  d.bytes.assign(bytes_payload, bytes_payload + h.dict_bytes);
  validate_dictionary_shape(h.kind, d);
  return d;
}
}  // namespace detail

/**
 * @brief Rebuilds and fully validates the dictionary of a version-2 file from its two payloads
 * (sections 1 and 2, of h.layout.size[1] = num_tokens and h.layout.size[2] = dict_bytes bytes)
 * and the checksums their section headers store (check_fpc_section_header): verifies both
 * checksums, sums the token lengths (the sum must be h.dict_bytes), builds the offsets, and runs
 * validate_dictionary() (lengths, the 256 one-byte tokens, FSST-12's rule, uniqueness). The GPU
 * preparation runs all of it but the uniqueness test on the host (that one runs on the GPU).
 * @throw format_error naming the section or the dictionary field; logic_error if `h` is not
 *        version 2 or a payload pointer is null.
 */
inline dictionary read_fpc_dictionary(fpc_header const& h, std::uint8_t const* lengths_payload,
                                      std::uint8_t const* bytes_payload, std::uint64_t lengths_checksum,
                                      std::uint64_t bytes_checksum)
{
  dictionary d = detail::read_fpc_dictionary_shape(h, lengths_payload, bytes_payload, lengths_checksum, bytes_checksum);
  detail::check_unique_tokens(d);
  return d;
}

namespace detail {

/** The sections of a version-1 image after its header (checked by parse_fpc_header). */
inline compressed_column deserialize_v1(std::uint8_t const* data, std::size_t size, fpc_header const& h)
{
  using detail::checked_mul;
  using detail::fail_fpc;
  using detail::load_le32;
  using detail::load_le64;
  using std::to_string;
  compressed_column col;
  col.kind                      = h.kind;
  col.sidecar_stride            = h.stride;
  col.num_codes                 = h.num_codes;
  std::uint64_t const n_tok     = h.n_tok;
  std::uint64_t const n_rows    = h.n_rows;
  std::uint64_t const n_sidecar = h.n_sidecar;
  std::uint64_t const decoded   = h.decoded;
  std::uint8_t const w_codes    = h.w_codes;
  std::uint8_t const w_bytes    = h.w_bytes;

  // ---- Sections ------------------------------------------------------------------------------
  std::size_t pos = fpc_header_bytes;
  // Checks section `id`'s header and payload; returns a pointer to its `expected` payload bytes.
  auto open_section = [&](fpc_section id, std::uint64_t expected) -> std::uint8_t const* {
    std::string const name = std::string("section ") + detail::fpc_section_name(std::uint32_t(id));
    if (size - pos < fpc_section_header_bytes)
      fail_fpc(name, "truncated header at offset " + to_string(pos) + " (" + to_string(size - pos) +
                       " bytes left)");
    std::uint8_t const* p = data + pos;
    std::uint32_t const got_id = load_le32(p);
    if (got_id != static_cast<std::uint32_t>(id))
      fail_fpc(name, "id " + to_string(got_id) + " at offset " + to_string(pos) + ", expected " +
                       to_string(static_cast<std::uint32_t>(id)));
    if (load_le32(p + 4) != 0)
      fail_fpc(name, "reserved u32 is " + to_string(load_le32(p + 4)) + ", not 0");
    std::uint64_t const sz = load_le64(p + 8);
    if (sz != expected)
      fail_fpc(name, "size " + to_string(sz) + " != " + to_string(expected) +
                       " expected from the header counts");
    pos += fpc_section_header_bytes;
    if (sz > size - pos)
      fail_fpc(name, "size " + to_string(sz) + " exceeds the " + to_string(size - pos) +
                       " bytes left in the input");
    std::uint8_t const* payload = data + pos;
    std::uint64_t const sum     = load_le64(p + 16);
    std::uint64_t const actual  = fpc_checksum(payload, static_cast<std::size_t>(sz));
    if (sum != actual)
      fail_fpc(name, "checksum mismatch (stored " + to_string(sum) + ", computed " +
                       to_string(actual) + ")");
    pos += static_cast<std::size_t>(sz);
    return payload;
  };
  auto read_uints = [&](fpc_section id, std::uint64_t count, std::uint8_t w,
                        std::vector<std::uint64_t>& v) {
    std::uint8_t const* p =
      open_section(id, checked_mul(count, w, detail::fpc_section_name(std::uint32_t(id))));
    v.resize(static_cast<std::size_t>(count));  // size proven <= input length by open_section
    if (w == 4)
      for (std::size_t i = 0; i < v.size(); ++i) v[i] = load_le32(p + 4 * i);
    else
      for (std::size_t i = 0; i < v.size(); ++i) v[i] = load_le64(p + 8 * i);
  };

  // 1: token lengths (u8 each) -> offsets. Lengths are checked by validate_dictionary below; their
  //    sum is at most 255 * 65536, so it fits the u32 offsets.
  std::uint8_t const* lens = open_section(fpc_section::dict_lengths, n_tok);
  col.dict.offsets.assign(static_cast<std::size_t>(n_tok) + 1, 0);
  std::uint64_t dict_bytes = 0;
  for (std::size_t i = 0; i < n_tok; ++i) {
    dict_bytes += lens[i];
    col.dict.offsets[i + 1] = static_cast<std::uint32_t>(dict_bytes);
  }
  // 2: token bytes.
  std::uint8_t const* tok = open_section(fpc_section::dict_bytes, dict_bytes);
  col.dict.bytes.assign(tok, tok + dict_bytes);
  // 3: packed codes (num_codes <= 2^59, so the byte count cannot overflow).
  std::uint64_t const code_bytes = packed_code_bytes(col.kind, col.num_codes);
  std::uint8_t const* codes      = open_section(fpc_section::codes, code_bytes);
  col.codes.assign(codes, codes + code_bytes);
  // 4-6: row offsets and sidecar.
  read_uints(fpc_section::row_code_offsets, n_rows + 1, w_codes, col.row_code_offsets);
  read_uints(fpc_section::row_byte_offsets, n_rows + 1, w_bytes, col.row_byte_offsets);
  read_uints(fpc_section::sidecar, n_sidecar, 8, col.sidecar);
  if (pos != size)
    fail_fpc("file size", to_string(size - pos) + " trailing bytes after the last section");

  // ---- The column itself ---------------------------------------------------------------------
  validate(col);
  if (decoded != col.decoded_bytes())
    fail_fpc("decoded_bytes", to_string(decoded) + " != row_byte_offsets[R] " +
                                  to_string(col.decoded_bytes()));
  return col;
}

/** The sections of a version-2 image after its header (checked by parse_fpc_header). */
inline compressed_column deserialize_v2(std::uint8_t const* data, std::size_t size, fpc_header const& h)
{
  using std::to_string;
  fpc2::layout const& l = h.layout;
  std::uint64_t const M = h.num_codes, R = h.n_rows, N = h.n_tok;
  unsigned const bits   = h.count_bits;

  // ---- Every section header, its size and place, and the zero padding, before any allocation --
  std::uint64_t sums[fpc2::num_sections + 1] = {};
  for (std::uint32_t id = 1; id <= fpc2::num_sections; ++id) {
    std::string const label = fpc2_section_label(id);
    std::uint64_t const at  = l.header_at[id];
    if (at > size || size - at < fpc2::section_header_bytes)
      fail_fpc(label, "truncated header at offset " + to_string(at) + " (" + to_string(at > size ? 0 : size - at) +
                        " bytes left)");
    sums[id] = check_fpc_section_header(h, id, data + at).checksum;
    std::uint64_t const payload = l.payload_at[id];
    if (l.size[id] > size - payload)
      fail_fpc(label, "size " + to_string(l.size[id]) + " exceeds the " + to_string(size - payload) +
                        " bytes left in the input");
    std::uint64_t const end  = payload + l.size[id];
    std::uint64_t const next = id < fpc2::num_sections ? l.header_at[id + 1] : l.file_bytes;
    if (next > size)
      fail_fpc(label, "truncated padding: the input ends at offset " + to_string(size) + ", before offset " +
                        to_string(next));
    for (std::uint64_t i = end; i < next; ++i)
      if (data[i] != 0)
        fail_fpc(label, "padding byte at offset " + to_string(i) + " is " + to_string(data[i]) + ", not 0");
  }
  if (size != l.file_bytes)
    fail_fpc("file size", to_string(size - l.file_bytes) + " trailing bytes after the last section");

  // ---- Dictionary (sections 1, 2), codes (3) --------------------------------------------------
  compressed_column col;
  col.kind           = h.kind;
  col.sidecar_stride = h.stride;
  col.num_codes      = M;
  col.dict           = read_fpc_dictionary(h, data + l.payload_at[fpc2::dict_lengths],
                                           data + l.payload_at[fpc2::dict_bytes], sums[fpc2::dict_lengths],
                                           sums[fpc2::dict_bytes]);
  for (std::uint32_t id = fpc2::codes; id <= fpc2::num_sections; ++id)
    verify_fpc2_checksum(h, id, data + l.payload_at[id], sums[id]);
  std::uint8_t const* codes = data + l.payload_at[fpc2::codes];
  col.codes.assign(codes, codes + l.size[fpc2::codes]);
  for (std::uint64_t j = 0; j < M; ++j) {
    std::uint32_t const c = code_at(col.kind, codes, j);
    if (c >= N)
      fail_fpc(fpc2_section_label(fpc2::codes),
               "code " + to_string(j) + " is " + to_string(c) + " >= num_tokens " + to_string(N));
  }

  // ---- Row code offsets from the counts (4) ---------------------------------------------------
  // R rows fit the input: with count_bits > 0 the directory takes 16 bytes per 1 024 rows of it,
  // with count_bits = 0 and count_base > 0 there are at most num_codes rows, and without codes at
  // most fpc_v2_max_empty_rows (parse_fpc_header checked that).
  std::string const counts_label = fpc2_section_label(fpc2::row_code_counts);
  std::uint64_t const cbytes     = l.size[fpc2::row_code_counts];
  std::uint8_t const* cp         = data + l.payload_at[fpc2::row_code_counts];
  std::uint64_t const RB         = fpc2::count_block_rows;
  std::uint64_t const B = h.count_directory ? fpc2::count_directory_bytes(R, static_cast<int>(bits)) / 16 : 0;
  std::vector<std::uint64_t> words(static_cast<std::size_t>(cbytes / 8 + 2), 0);
  for (std::uint64_t i = 0; i < cbytes; ++i) words[i / 8] |= std::uint64_t{cp[i]} << (8 * (i % 8));
  fpc2::block_counts const view{words.data(), cbytes, B, h.count_base, static_cast<int>(bits)};
  // The directory (fpc2::block_counts::entry_problem): widths up to count_bits, each block's
  // values right after the previous block's, and the section's size what the widths give.
  for (std::uint64_t k = 0; k < B; ++k) {
    std::uint64_t const e = words[2 * k + 1], w = e & 0xFF;
    std::uint64_t const before = k == 0 ? 0 : (words[2 * k - 1] >> 8) + (words[2 * k - 1] & 0xFF);
    switch (view.entry_problem(k, R)) {
      case fpc2::block_counts::no_problem: break;
      case fpc2::block_counts::width_above_bits:
        fail_fpc(counts_label, "block " + to_string(k) + ": width " + to_string(w) + " > count_bits " + to_string(bits));
      case fpc2::block_counts::misplaced:
        fail_fpc(counts_label, "block " + to_string(k) + ": values at 128 x " + to_string(e >> 8) +
                                 " bytes, but the blocks before it take 128 x " + to_string(before));
      case fpc2::block_counts::size_differs: {
        std::uint64_t const want =
          checked_add(checked_add(16 * B, checked_mul(e >> 8, 128, "row_code_counts size"), "row_code_counts size"),
                      fpc2::count_bytes(R - k * RB, static_cast<int>(w)), "row_code_counts size");
        fail_fpc(counts_label, "size " + to_string(cbytes) + " != " + to_string(want) + " from its block directory");
      }
    }
  }
  // The unused high bits of the last byte: every value at count_bits, or the last block's width.
  std::uint64_t const last_rows = B > 0 ? R - (B - 1) * RB : R;
  std::uint64_t const last_bits = B > 0 ? words[2 * B - 1] & 0xFF : bits;
  std::uint64_t const used      = (last_rows * last_bits) % 8;  // bits of the last byte in use
  if (bits > 0 && used != 0 && (cp[cbytes - 1] >> used) != 0)
    fail_fpc(counts_label, "the unused high bits of the last byte are " + to_string(cp[cbytes - 1] >> used) + ", not 0");
  col.row_code_offsets.assign(static_cast<std::size_t>(R) + 1, 0);
  std::uint64_t off = 0, lo = ~std::uint64_t{0}, hi = 0;
  std::uint64_t blocked = 0;  // without a directory: the bytes the canonical directory and values would take
  for (std::uint64_t k = 0; k * RB < R; ++k) {
    fpc2::count_block const blk = view.block(k);
    std::uint64_t blo = ~std::uint64_t{0}, bhi = 0;
    for (std::uint64_t r = k * RB; r < R && r < (k + 1) * RB; ++r) {
      std::uint64_t const c = view.count(blk, r - k * RB);  // wraps only if base > 2^64 - 2^60: caught below
      if (c > M - off || c < blk.base)
        fail_fpc(counts_label, "rows 0.." + to_string(r) + " hold more than num_codes " + to_string(M) + " codes");
      off += c;
      col.row_code_offsets[static_cast<std::size_t>(r) + 1] = off;
      blo = std::min(blo, c), bhi = std::max(bhi, c);
    }
    blocked += 16 + fpc2::count_bytes(std::min(R - k * RB, RB), fpc2::bit_width(bhi - blo));  // <= 2 x cbytes
    if (B > 0 && blo != blk.base)
      fail_fpc(counts_label, "block " + to_string(k) + ": base " + to_string(blk.base) +
                               " is not the block's smallest count (" + to_string(blo) + "): not canonical");
    if (B > 0 && fpc2::bit_width(bhi - blo) != blk.bits)
      fail_fpc(counts_label, "block " + to_string(k) + ": width " + to_string(blk.bits) + ", but its largest count - base (" +
                               to_string(bhi - blo) + ") needs " + to_string(fpc2::bit_width(bhi - blo)) + ": not canonical");
    lo = std::min(lo, blo), hi = std::max(hi, bhi);
  }
  if (off != M)
    fail_fpc(counts_label, "the row code counts sum to " + to_string(off) + " != num_codes " + to_string(M));
  if (R > 0 && lo != h.count_base)
    fail_fpc("count_base", to_string(h.count_base) + " is not the smallest row code count (" + to_string(lo) +
                             "): not canonical");
  if (R > 0 && fpc2::bit_width(hi - lo) != static_cast<int>(bits))
    fail_fpc("count_bits", to_string(bits) + ", but the largest count - count_base (" + to_string(hi - lo) + ") needs " +
                             to_string(fpc2::bit_width(hi - lo)) + ": not canonical");
  if (B == 0 && bits > 0 && blocked < cbytes)
    fail_fpc(counts_label, "stored without a count directory in " + to_string(cbytes) + " bytes; blocks of " +
                             to_string(RB) + " rows with one take " + to_string(blocked) + ": not canonical");

  // ---- Row byte offsets from the token lengths ------------------------------------------------
  std::vector<std::uint8_t> len(static_cast<std::size_t>(N));
  for (std::size_t i = 0; i < len.size(); ++i) len[i] = static_cast<std::uint8_t>(col.dict.length(i));
  col.row_byte_offsets.assign(static_cast<std::size_t>(R) + 1, 0);
  std::uint64_t decoded = 0, j = 0;  // <= 16 x num_codes < 2^63
  for (std::size_t r = 0; r < R; ++r) {
    for (std::uint64_t const e = col.row_code_offsets[r + 1]; j < e; ++j) decoded += len[code_at(col.kind, codes, j)];
    col.row_byte_offsets[r + 1] = decoded;
  }
  if (decoded != h.decoded)
    fail_fpc("decoded_bytes", to_string(h.decoded) + " from the header != " + to_string(decoded) +
                                ", the decoded size of the codes");

  // ---- Sidecar (5), as stored; then the whole column ------------------------------------------
  std::uint8_t const* sp = data + l.payload_at[fpc2::sidecar];
  col.sidecar.resize(static_cast<std::size_t>(h.n_sidecar));
  for (std::size_t s = 0; s < col.sidecar.size(); ++s) col.sidecar[s] = load_le64(sp + 8 * s);
  validate(col);
  return col;
}

}  // namespace detail

/**
 * @brief Parses and fully validates a `.fpc` image of version 1 or 2 (dispatching on its version).
 *
 * @code{.pseudo}
 * deserialize(serialize(col).data(), size)    -> col
 * deserialize(serialize(col, 1).data(), size) -> col
 * deserialize("FASTPAIR\x01\0\0\0" + 68 zero bytes) -> throws format_error("fastpair: invalid .fpc:
 *                                             header checksum: stored 0 != computed ...")
 * @endcode
 * @throw format_error naming the field and the offending value on ANY malformed input: truncated,
 *        wrong magic, unknown version, reserved bits set, counts out of range, section ids, sizes
 *        or checksums that do not match, nonzero padding (version 2), a non-canonical image,
 *        trailing bytes, or a column that fails `validate()`.
 */
inline compressed_column deserialize(std::uint8_t const* data, std::size_t size)
{
  if (data == nullptr && size != 0) detail::fail_fpc("input", "null pointer with non-zero size");
  fpc_header const h = parse_fpc_header(data, size);
  return h.version == fpc_version_1 ? detail::deserialize_v1(data, size, h) : detail::deserialize_v2(data, size, h);
}

/** @brief Convenience overload of deserialize() for a byte vector. */
inline compressed_column deserialize(std::vector<std::uint8_t> const& bytes)
{
  return deserialize(bytes.data(), bytes.size());
}

namespace detail {
/** "fastpair: cannot <verb> '<path>'<tail>: <reason>", the reason as errno text. */
inline std::runtime_error path_error(char const* verb, std::string const& path, char const* tail, int err)
{
  return std::runtime_error("fastpair: cannot " + std::string(verb) + " '" + path + "'" + tail + ": " + std::strerror(err));
}
}  // namespace detail

/**
 * @brief Writes a column to a `.fpc` file of `version` (2 by default; 1 also; replacing it).
 * @throw format_error if the column is invalid (or serialize() refuses it); std::runtime_error
 *        naming the path and the reason (errno text) on I/O failure.
 */
inline void write_fpc(std::string const& path, compressed_column const& col,
                      std::uint32_t version = fpc_version_latest)
{
  std::vector<std::uint8_t> const bytes = serialize(col, version);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw detail::path_error("open", path, " for writing", EISDIR);
  errno = 0;
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw detail::path_error("open", path, " for writing", errno ? errno : EIO);
  f.write(reinterpret_cast<char const*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  f.close();
  if (!f) throw detail::path_error("write", path, "", errno ? errno : EIO);
}

/**
 * @brief Reads and fully validates a `.fpc` file of version 1 or 2.
 *
 * The header (80 or 96 bytes) is read and checked first, and the file's size against the sizes its
 * counts allow (version 2: exactly one size), before the rest is read: a file that is not a
 * `.fpc`, or whose counts disagree with its size, costs at most 96 bytes of reading and no
 * allocation.
 * @throw format_error (message prefixed with the path) if the file is malformed;
 *        std::runtime_error naming the path and the reason if it cannot be read (missing, a
 *        directory, not a regular file, unreadable).
 */
inline compressed_column read_fpc(std::string const& path)
{
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::file_status const st = fs::status(path, ec);
  if (ec) throw detail::path_error("open", path, " for reading", ec.value());
  if (fs::is_directory(st)) throw detail::path_error("open", path, " for reading", EISDIR);
  if (!fs::is_regular_file(st))
    throw std::runtime_error("fastpair: cannot read '" + path + "': not a regular file");
  std::uint64_t const len = fs::file_size(path, ec);
  if (ec) throw detail::path_error("size", path, "", ec.value());
  errno = 0;
  std::ifstream f(path, std::ios::binary);
  if (!f) throw detail::path_error("open", path, " for reading", errno ? errno : EIO);
  auto read = [&](std::uint8_t* p, std::uint64_t n) {
    if (n > 0) f.read(reinterpret_cast<char*>(p), static_cast<std::streamsize>(n));
    if (!f) throw detail::path_error("read", path, "", errno ? errno : EIO);
  };
  try {
    std::uint8_t head[fpc_header_bytes_max];
    std::size_t const n_head = static_cast<std::size_t>(std::min<std::uint64_t>(len, fpc_header_bytes_max));
    read(head, n_head);
    fpc_header const h = parse_fpc_header(head, n_head);  // names a file shorter than its header
    if (len < h.min_file_bytes || len > h.max_file_bytes)
      detail::fail_fpc("file size", std::to_string(len) + " bytes; the header's counts need " +
                                      (h.min_file_bytes == h.max_file_bytes
                                         ? "exactly " + std::to_string(h.min_file_bytes)
                                         : std::to_string(h.min_file_bytes) + ".." + std::to_string(h.max_file_bytes)));
    if (len > std::numeric_limits<std::size_t>::max()) detail::fail_fpc("file size", std::to_string(len) + " bytes");
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(len));
    std::memcpy(bytes.data(), head, n_head);
    read(bytes.data() + n_head, len - n_head);
    return deserialize(bytes.data(), bytes.size());
  } catch (format_error const& e) {
    throw format_error(path + ": " + e.what());
  }
}

}  // namespace fastpair
