// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file io.hpp
 * @brief The `.fpc` container: a versioned, self-describing, little-endian file holding one
 * compressed column (host-only; compiles with g++ alone). docs/FORMAT.md is the byte-by-byte spec.
 *
 * @code{.text}
 *  offset  size  field
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
 */
#pragma once

#include <fastpair/error.hpp>
#include <fastpair/format.hpp>
#include <fastpair/validate.hpp>

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
/** @brief The `.fpc` version written by serialize() and the only one deserialize() accepts. */
inline constexpr std::uint32_t fpc_version = 1;
/** @brief Size of the fixed file header in bytes (version 1). */
inline constexpr std::size_t fpc_header_bytes = 80;
/** @brief Size of the header in front of every section's payload. */
inline constexpr std::size_t fpc_section_header_bytes = 24;
/** @brief Number of sections in a version-1 file (always all six, in id order). */
inline constexpr std::uint32_t fpc_num_sections = 6;
/** @brief Header flag bit 0: the column carries a sidecar (section 6 is non-empty). */
inline constexpr std::uint8_t fpc_flag_sidecar = 1;

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

/**
 * @brief Serialises a column into the `.fpc` byte layout (docs/FORMAT.md).
 *
 * @code{.pseudo}
 * deserialize(serialize(col)) == col   (byte-identical column, sidecar kept or absent as it was)
 * @endcode
 * @throw format_error if the column does not pass `validate()` (an invalid column is never written).
 */
inline std::vector<std::uint8_t> serialize(compressed_column const& col)
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
  store_le32(h + 8, fpc_version);
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

/** @brief The counts of a checked `.fpc` header (parse_fpc_header), and the file sizes they allow. */
struct fpc_header {
  codec kind              = codec::onpair16;
  bool has_sidecar        = false;
  std::uint8_t w_codes    = 4;  ///< row code offset width in the file
  std::uint8_t w_bytes    = 4;  ///< row byte offset width in the file
  std::uint32_t stride    = 0;  ///< sidecar stride
  std::uint64_t n_tok     = 0;  ///< dictionary entries
  std::uint64_t num_codes = 0;
  std::uint64_t n_rows    = 0;
  std::uint64_t n_sidecar = 0;  ///< sidecar entries stored (0 without a sidecar)
  std::uint64_t decoded   = 0;  ///< decoded bytes
  /// The file sizes the counts allow: every section's size follows from the counts except the
  /// token bytes, which are 1..max_token_length(kind) per token.
  std::uint64_t min_file_bytes = 0;
  std::uint64_t max_file_bytes = 0;
};

/**
 * @brief Checks the fixed 80-byte header of a `.fpc` file (`data` holds at least
 * fpc_header_bytes bytes): magic, version, checksum, codec, flags, reserved fields, counts,
 * canonical offset widths, section count, and that the file size the counts imply fits 64 bits.
 * A reader checks this, and the file's size against `min_file_bytes .. max_file_bytes`, before it
 * reads or allocates for the rest (read_fpc does).
 * @throw format_error naming the field (the same messages as deserialize()).
 */
inline fpc_header parse_fpc_header(std::uint8_t const* data)
{
  using detail::checked_mul;
  using detail::fail_fpc;
  using detail::fpc_offset_width;
  using detail::hex_bytes;
  using detail::load_le32;
  using detail::load_le64;
  using std::to_string;
  if (std::memcmp(data, fpc_magic, 8) != 0)
    fail_fpc("magic", "0x" + hex_bytes(data, 8) + " is not \"FASTPAIR\" (0x" +
                        hex_bytes(reinterpret_cast<std::uint8_t const*>(fpc_magic), 8) + ")");
  std::uint32_t const version = load_le32(data + 8);
  if (version != fpc_version)
    fail_fpc("version", to_string(version) + " (this reader supports " + to_string(fpc_version) + ")");
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

/**
 * @brief Parses and fully validates a `.fpc` image.
 *
 * @code{.pseudo}
 * deserialize(serialize(col).data(), size) -> col
 * deserialize("FASTPAIR\x01\0\0\0" + 68 zero bytes) -> throws format_error("fastpair: invalid .fpc:
 *                                             header checksum: stored 0 != computed ...")
 * @endcode
 * @throw format_error naming the field and the offending value on ANY malformed input: truncated,
 *        wrong magic, unknown version, reserved bits set, counts out of range, section ids, sizes
 *        or checksums that do not match, trailing bytes, or a column that fails `validate()`.
 */
inline compressed_column deserialize(std::uint8_t const* data, std::size_t size)
{
  using detail::checked_mul;
  using detail::fail_fpc;
  using detail::load_le32;
  using detail::load_le64;
  using std::to_string;
  if (data == nullptr && size != 0) fail_fpc("input", "null pointer with non-zero size");

  // ---- Fixed header --------------------------------------------------------------------------
  if (size < fpc_header_bytes)
    fail_fpc("header", "input is " + to_string(size) + " bytes, shorter than the " +
                         to_string(fpc_header_bytes) + "-byte header");
  fpc_header const h = parse_fpc_header(data);
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
 * @brief Writes a column to a `.fpc` file (replacing it).
 * @throw format_error if the column is invalid; std::runtime_error naming the path and the
 *        reason (errno text) on I/O failure.
 */
inline void write_fpc(std::string const& path, compressed_column const& col)
{
  std::vector<std::uint8_t> const bytes = serialize(col);
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
 * @brief Reads and fully validates a `.fpc` file.
 *
 * The 80-byte header is read and checked first, and the file's size against the sizes its counts
 * allow, before the rest is read: a file that is not a `.fpc`, or whose counts disagree with its
 * size, costs 80 bytes of reading and no allocation.
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
    if (len < fpc_header_bytes) {  // too short for a header: deserialize names it
      std::uint8_t head[fpc_header_bytes];
      read(head, len);
      return deserialize(head, static_cast<std::size_t>(len));
    }
    std::uint8_t head[fpc_header_bytes];
    read(head, fpc_header_bytes);
    fpc_header const h = parse_fpc_header(head);
    if (len < h.min_file_bytes || len > h.max_file_bytes)
      detail::fail_fpc("file size", std::to_string(len) + " bytes; the header's counts need " +
                                      std::to_string(h.min_file_bytes) + ".." + std::to_string(h.max_file_bytes));
    if (len > std::numeric_limits<std::size_t>::max()) detail::fail_fpc("file size", std::to_string(len) + " bytes");
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(len));
    std::memcpy(bytes.data(), head, fpc_header_bytes);
    read(bytes.data() + fpc_header_bytes, len - fpc_header_bytes);
    return deserialize(bytes.data(), bytes.size());
  } catch (format_error const& e) {
    throw format_error(path + ": " + e.what());
  }
}

}  // namespace fastpair
