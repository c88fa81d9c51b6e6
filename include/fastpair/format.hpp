// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file format.hpp
 * @brief The in-memory compressed string column shared by OnPair-16, OnPair-12 and FSST-12.
 *
 * Host-only (compiles with g++ alone). Layout, in one picture:
 *
 * @code{.text}
 *  dictionary   bytes   = t0 t1 t2 ...            (token bytes, concatenated, no padding)
 *               offsets = 0 |t0| |t0|+|t1| ...    (N+1 entries, u32)
 *  codes        bit-packed LSB first at code_bits(codec) bits per code (12 or 16);
 *               code j occupies bits [j*b, j*b+b) of a little-endian bit stream.
 *  rows         row_code_offsets[r] .. row_code_offsets[r+1]  = codes of row r      (R+1, u64)
 *               row_byte_offsets[r] .. row_byte_offsets[r+1]  = its decoded bytes   (R+1, u64)
 *  sidecar      sidecar[s] = decoded byte position of code s*sidecar_stride         (ceil(M/S))
 * @endcode
 *
 * Tokens never span rows, so the decoded chars of a column are the concatenation of all tokens and
 * `row_byte_offsets` are directly Arrow-style offsets. The sidecar stride is a property of the
 * column: any decoder may start at any multiple of the stride and carry its cursor from there.
 *
 * Nothing in this header validates; `validate.hpp` checks untrusted columns before use.
 */
#pragma once

#include <fastpair/error.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace fastpair {

/** @brief The three supported codecs. The numeric values are part of the `.fpc` format. */
enum class codec : std::uint8_t {
  onpair16 = 1,  ///< 16-bit codes, up to 65 536 tokens of 1..16 bytes
  onpair12 = 2,  ///< 12-bit codes, up to 4 096 tokens of 1..16 bytes
  fsst12   = 3,  ///< 12-bit codes, up to 4 096 tokens of 1..8 bytes; code b < 256 is the byte b
};

/** @brief Bits per code at rest: 16 for OnPair-16, 12 otherwise. */
constexpr int code_bits(codec c) noexcept { return c == codec::onpair16 ? 16 : 12; }

/** @brief Number of dictionary slots addressable by a code: 2^code_bits. */
constexpr std::uint32_t code_space(codec c) noexcept { return std::uint32_t{1} << code_bits(c); }

/** @brief Longest token a codec allows: 8 bytes for FSST-12, 16 for OnPair. */
constexpr int max_token_length(codec c) noexcept { return c == codec::fsst12 ? 8 : 16; }

/** @brief True for the codecs defined by this library. */
constexpr bool is_valid_codec(std::uint8_t v) noexcept { return v >= 1 && v <= 3; }

/** @brief Human-readable codec name: "onpair16", "onpair12" or "fsst12". */
inline char const* codec_name(codec c) noexcept
{
  switch (c) {
    case codec::onpair16: return "onpair16";
    case codec::onpair12: return "onpair12";
    case codec::fsst12: return "fsst12";
  }
  return "unknown";
}

/** @brief Parses a codec name as printed by codec_name(). @throw logic_error on an unknown name. */
inline codec parse_codec(std::string_view name)
{
  if (name == "onpair16") return codec::onpair16;
  if (name == "onpair12") return codec::onpair12;
  if (name == "fsst12") return codec::fsst12;
  throw logic_error("fastpair: unknown codec '" + std::string(name) +
                    "' (expected onpair16, onpair12 or fsst12)");
}

/** @brief Default codes per sidecar batch: a multiple of 32*K for K in {1,2,3,4,6,8}. 8 bytes per
 *  768 codes is 0.69 % of 12-bit packed codes and 0.52 % of 16-bit codes. */
inline constexpr std::uint32_t default_sidecar_stride = 768;

/** @brief A token dictionary: concatenated token bytes plus N+1 offsets. */
struct dictionary {
  std::vector<std::uint8_t> bytes;        ///< token bytes, concatenated, no padding
  std::vector<std::uint32_t> offsets{0};  ///< N+1 offsets into `bytes`; offsets[0] == 0

  /** @brief Number of tokens N. */
  std::size_t size() const noexcept { return offsets.empty() ? 0 : offsets.size() - 1; }
  /** @brief Length of token `i` in bytes (unchecked). */
  std::uint32_t length(std::size_t i) const noexcept { return offsets[i + 1] - offsets[i]; }
  /** @brief Pointer to the first byte of token `i` (unchecked). */
  std::uint8_t const* data(std::size_t i) const noexcept { return bytes.data() + offsets[i]; }
  /** @brief Token `i` as a string_view (unchecked). */
  std::string_view token(std::size_t i) const noexcept
  {
    return {reinterpret_cast<char const*>(data(i)), length(i)};
  }
  /** @brief Appends a token. */
  void push_back(std::string_view tok)
  {
    bytes.insert(bytes.end(), tok.begin(), tok.end());
    offsets.push_back(static_cast<std::uint32_t>(bytes.size()));
  }
  friend bool operator==(dictionary const& a, dictionary const& b)
  {
    return a.bytes == b.bytes && a.offsets == b.offsets;
  }
};

/** @brief Host strings in Arrow layout: `offsets` has num_rows+1 entries, row r is
 *  chars[offsets[r], offsets[r+1]). */
struct host_strings {
  std::vector<std::uint64_t> offsets{0};
  std::vector<char> chars;

  std::size_t num_rows() const noexcept { return offsets.empty() ? 0 : offsets.size() - 1; }
  std::string_view row(std::size_t r) const noexcept
  {
    return {chars.data() + offsets[r], static_cast<std::size_t>(offsets[r + 1] - offsets[r])};
  }
  void push_back(std::string_view s)
  {
    chars.insert(chars.end(), s.begin(), s.end());
    offsets.push_back(chars.size());
  }
  friend bool operator==(host_strings const& a, host_strings const& b)
  {
    return a.offsets == b.offsets && a.chars == b.chars;
  }
};

/** @brief A non-owning view of Arrow-style host strings (offsets has num_rows+1 entries). */
struct strings_view {
  char const* chars            = nullptr;
  std::uint64_t const* offsets = nullptr;
  std::size_t num_rows         = 0;

  strings_view() = default;
  strings_view(char const* c, std::uint64_t const* o, std::size_t n) : chars(c), offsets(o), num_rows(n) {}
  strings_view(host_strings const& s)  // NOLINT(google-explicit-constructor)
    : chars(s.chars.data()), offsets(s.offsets.data()), num_rows(s.num_rows())
  {
  }
  std::string_view row(std::size_t r) const noexcept
  {
    return {chars + offsets[r], static_cast<std::size_t>(offsets[r + 1] - offsets[r])};
  }
  std::uint64_t total_bytes() const noexcept { return num_rows ? offsets[num_rows] - offsets[0] : 0; }
};

/** @brief Splits newline-separated text into rows (a trailing newline does not add a row; "\r" is
 *  kept). */
inline host_strings split_lines(std::string_view text)
{
  host_strings out;
  out.chars.reserve(text.size());
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    out.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return out;
}

/**
 * @brief A compressed string column (any of the three codecs).
 *
 * Invariants (checked by `validate()`): the dictionary holds 256..code_space(kind) unique tokens
 * of 1..max_token_length(kind) bytes including all 256 one-byte tokens; `codes` holds
 * packed_code_bytes(kind, num_codes) bytes and every code is < dict.size(); both row offset arrays
 * have num_rows+1 monotone entries starting at 0, ending at num_codes and at the decoded size;
 * `sidecar` is empty or holds sidecar_entries() positions consistent with the token lengths.
 */
struct compressed_column {
  codec kind = codec::onpair16;
  dictionary dict;
  std::vector<std::uint8_t> codes;  ///< packed LSB-first at code_bits(kind)
  std::uint64_t num_codes = 0;
  std::vector<std::uint64_t> row_code_offsets{0};  ///< R+1 code indices
  std::vector<std::uint64_t> row_byte_offsets{0};  ///< R+1 decoded byte offsets
  std::uint32_t sidecar_stride = default_sidecar_stride;  ///< codes per sidecar batch
  std::vector<std::uint64_t> sidecar;  ///< decoded position of code s*stride; empty = absent

  std::size_t num_rows() const noexcept
  {
    return row_code_offsets.empty() ? 0 : row_code_offsets.size() - 1;
  }
  std::uint64_t decoded_bytes() const noexcept
  {
    return row_byte_offsets.empty() ? 0 : row_byte_offsets.back();
  }
  /** @brief Number of sidecar entries for this column: ceil(num_codes / sidecar_stride). */
  std::uint64_t sidecar_entries() const noexcept
  {
    return sidecar_stride == 0 ? 0 : (num_codes + sidecar_stride - 1) / sidecar_stride;
  }
  bool has_sidecar() const noexcept { return !sidecar.empty() || num_codes == 0; }
};

// -------------------------------------------------------------------------------------------------
// Code packing
// -------------------------------------------------------------------------------------------------

/** @brief Bytes needed to store `n` codes packed at the codec's width: ceil(n*bits/8). */
constexpr std::uint64_t packed_code_bytes(codec c, std::uint64_t n) noexcept
{
  return (n * static_cast<std::uint64_t>(code_bits(c)) + 7) / 8;
}

/** @brief Reads code `j` from a packed stream (unchecked: `j < num_codes`). */
inline std::uint32_t code_at(codec c, std::uint8_t const* packed, std::uint64_t j) noexcept
{
  if (code_bits(c) == 16) return packed[2 * j] | (std::uint32_t{packed[2 * j + 1]} << 8);
  std::uint64_t const bit = j * 12;
  std::uint64_t const b   = bit >> 3;
  std::uint32_t const v   = packed[b] | (std::uint32_t{packed[b + 1]} << 8);
  return (bit & 7) ? (v >> 4) : (v & 0xFFFu);
}

/** @brief Packs codes at the codec's width (values must fit: < code_space(c)). */
inline std::vector<std::uint8_t> pack_codes(codec c, std::uint16_t const* codes, std::uint64_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (code_bits(c) == 16) {  // the u16 array's bytes as they are: one copy, no zero fill first
    auto const* b = reinterpret_cast<std::uint8_t const*>(codes);
    return std::vector<std::uint8_t>(b, b + n * 2);
  }
#endif
  std::vector<std::uint8_t> out(packed_code_bytes(c, n), 0);
  if (code_bits(c) == 16) {  // other byte orders
    for (std::uint64_t j = 0; j < n; ++j) {
      out[2 * j]     = static_cast<std::uint8_t>(codes[j]);
      out[2 * j + 1] = static_cast<std::uint8_t>(codes[j] >> 8);
    }
    return out;
  }
  std::uint64_t j0 = 0;
  // Four codes -> six bytes, written as one 8-byte store (the two bytes past them are rewritten by
  // the next group or left 0); only while those 8 bytes lie inside `out`: groups g < groups.
  std::uint64_t const groups = out.size() < 8 ? 0 : std::min<std::uint64_t>(n / 4, (out.size() - 8) / 6 + 1);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  // The four codes as one u64 load (16 bits each), each moved down to its 12-bit place: fewer
  // operations than the loop below (en_wiki OnPair-12, 4.3 M codes: 3.3-4.9 -> 2.1-2.5 ms).
  for (std::uint64_t g = 0; g < groups; ++g) {
    std::uint64_t x;
    std::memcpy(&x, codes + 4 * g, 8);
    std::uint64_t const v = (x & 0xFFFu) | ((x >> 4) & 0xFFF000u) | ((x >> 8) & 0xFFF000000ull) |
                            ((x >> 12) & 0xFFF000000000ull);
    std::memcpy(out.data() + 6 * g, &v, 8);
  }
  j0 = 4 * groups;
#endif
  for (; j0 < 4 * groups; j0 += 4) {
    std::uint64_t const v = std::uint64_t{codes[j0] & 0xFFFu} | (std::uint64_t{codes[j0 + 1] & 0xFFFu} << 12) |
                            (std::uint64_t{codes[j0 + 2] & 0xFFFu} << 24) |
                            (std::uint64_t{codes[j0 + 3] & 0xFFFu} << 36);
    std::uint8_t b[8];
    for (int k = 0; k < 8; ++k) b[k] = static_cast<std::uint8_t>(v >> (8 * k));
    std::memcpy(out.data() + j0 / 2 * 3, b, 8);
  }
  for (std::uint64_t j = j0; j + 1 < n; j += 2) {  // two codes -> three bytes
    std::uint32_t const v = (codes[j] & 0xFFFu) | (std::uint32_t{codes[j + 1] & 0xFFFu} << 12);
    std::uint64_t const b = j / 2 * 3;
    out[b]                = static_cast<std::uint8_t>(v);
    out[b + 1]            = static_cast<std::uint8_t>(v >> 8);
    out[b + 2]            = static_cast<std::uint8_t>(v >> 16);
  }
  if (n & 1) {
    std::uint64_t const b = (n - 1) / 2 * 3;
    out[b]                = static_cast<std::uint8_t>(codes[n - 1]);
    out[b + 1]            = static_cast<std::uint8_t>((codes[n - 1] >> 8) & 0xF);
  }
  return out;
}

/** @brief Widens a packed code stream to one u16 per code (the device input layout). */
inline std::vector<std::uint16_t> unpack_codes(codec c, std::uint8_t const* packed, std::uint64_t n)
{
  std::vector<std::uint16_t> out(n);
  if (code_bits(c) == 16) {
    if (n) std::memcpy(out.data(), packed, n * 2);  // little-endian hosts only (static_assert below)
    return out;
  }
  std::uint64_t j = 0;
  for (; j + 1 < n; j += 2) {
    std::uint8_t const* p = packed + j / 2 * 3;
    std::uint32_t const v = p[0] | (std::uint32_t{p[1]} << 8) | (std::uint32_t{p[2]} << 16);
    out[j]                = static_cast<std::uint16_t>(v & 0xFFFu);
    out[j + 1]            = static_cast<std::uint16_t>(v >> 12);
  }
  if (j < n) out[j] = static_cast<std::uint16_t>(code_at(c, packed, j));
  return out;
}

/** @brief Widens all codes of a column to u16. */
inline std::vector<std::uint16_t> unpack_codes(compressed_column const& col)
{
  return unpack_codes(col.kind, col.codes.data(), col.num_codes);
}

// -------------------------------------------------------------------------------------------------
// Derived metadata
// -------------------------------------------------------------------------------------------------

/**
 * @brief Computes the sidecar of a code stream: the decoded position of every `stride`-th code.
 * @param token_length length of each dictionary entry, indexed by code (codes must be in range)
 */
inline std::vector<std::uint64_t> compute_sidecar(std::uint16_t const* codes, std::uint64_t n,
                                                  std::uint32_t const* token_length,
                                                  std::uint32_t stride)
{
  FASTPAIR_EXPECTS(stride > 0, "sidecar stride must be positive");
  std::vector<std::uint64_t> out;
  out.reserve((n + stride - 1) / stride);
  std::uint64_t pos = 0;
  for (std::uint64_t j = 0; j < n; j += stride) {  // one entry per stride, no per-code division
    out.push_back(pos);
    std::uint64_t const end = j + stride < n ? j + stride : n;
    for (std::uint64_t i = j; i < end; ++i) pos += token_length[codes[i]];
  }
  return out;
}

/** @brief Computes (or recomputes) `col.sidecar` from its codes and dictionary. Requires a column
 *  whose codes are all < dict.size(). */
inline void compute_sidecar(compressed_column& col)
{
  std::vector<std::uint32_t> len(col.dict.size());
  for (std::size_t i = 0; i < len.size(); ++i) len[i] = col.dict.length(i);
  auto const codes = unpack_codes(col);
  col.sidecar      = compute_sidecar(codes.data(), col.num_codes, len.data(), col.sidecar_stride);
}

/** @brief Token-length histogram of the coded stream: entry L counts codes whose token has L
 *  bytes (L in 1..16; entry 0 unused). */
using length_histogram = std::array<std::uint64_t, 17>;

/** @brief Histogram of token lengths over every code of the column (not over the dictionary). */
inline length_histogram token_length_histogram(compressed_column const& col)
{
  length_histogram h{};
  std::vector<std::uint64_t> per_code(col.dict.size(), 0);
  for (std::uint64_t j = 0; j < col.num_codes; ++j) {
    std::uint32_t const c = code_at(col.kind, col.codes.data(), j);
    if (c < per_code.size()) ++per_code[c];
  }
  for (std::size_t c = 0; c < per_code.size(); ++c) {
    std::uint32_t const l = col.dict.length(c);
    if (l >= 1 && l <= 16) h[l] += per_code[c];
  }
  return h;
}

/** @brief Share (0..1) of coded tokens longer than `w` bytes. */
inline double share_longer_than(length_histogram const& h, int w) noexcept
{
  std::uint64_t total = 0, longer = 0;
  for (int l = 1; l <= 16; ++l) {
    total += h[l];
    if (l > w) longer += h[l];
  }
  return total ? static_cast<double>(longer) / static_cast<double>(total) : 0.0;
}

/** @brief Mean decoded bytes per code. */
inline double mean_token_length(length_histogram const& h) noexcept
{
  std::uint64_t total = 0, bytes = 0;
  for (int l = 1; l <= 16; ++l) {
    total += h[l];
    bytes += h[l] * static_cast<std::uint64_t>(l);
  }
  return total ? static_cast<double>(bytes) / static_cast<double>(total) : 0.0;
}

/**
 * @brief The paper's low-plane width W for a column (the FastPair paper's rule): 8 ("split read") unless more
 * than 60 % of the coded tokens exceed 8 bytes, then 16; FSST-12 is always 8. What preparation
 * uses on GPUs without tuned entries (sm_80 and older); sm_90+ use detail::tuned_low_plane_bytes.
 */
inline int paper_low_plane_bytes(codec c, length_histogram const& h) noexcept
{
  if (max_token_length(c) <= 8) return 8;
  return share_longer_than(h, 8) > 0.60 ? 16 : 8;
}

/// @deprecated the former name of paper_low_plane_bytes (the paper's rule, not the automatic W)
[[deprecated("use fastpair::paper_low_plane_bytes")]] inline int choose_low_plane_bytes(codec c,
                                                                                     length_histogram const& h) noexcept
{
  return paper_low_plane_bytes(c, h);
}

/** @brief Stored sizes of a column, for compression ratios. */
struct stored_size {
  std::uint64_t dictionary = 0;  ///< token bytes + one length byte per token
  std::uint64_t codes      = 0;  ///< packed code bytes
  std::uint64_t sidecar    = 0;  ///< 8 bytes per sidecar entry
  std::uint64_t row_metadata = 0;  ///< row code offsets + row byte offsets, 4 bytes each if they
                                   ///< fit, else 8 (what a compact container would store)
  /** @brief The paper's ratio denominator: dictionary + packed codes + sidecar. */
  std::uint64_t paper() const noexcept { return dictionary + codes + sidecar; }
  std::uint64_t with_rows() const noexcept { return paper() + row_metadata; }
};

/** @brief Computes the stored size of a column (see stored_size for what is counted). */
inline stored_size column_stored_size(compressed_column const& col) noexcept
{
  stored_size s;
  s.dictionary = col.dict.bytes.size() + col.dict.size();
  s.codes      = packed_code_bytes(col.kind, col.num_codes);
  s.sidecar    = 8 * col.sidecar_entries();
  std::uint64_t const w_codes = col.num_codes <= 0xFFFFFFFFull ? 4 : 8;
  std::uint64_t const w_bytes = col.decoded_bytes() <= 0xFFFFFFFFull ? 4 : 8;
  s.row_metadata = (col.num_rows() + 1) * (w_codes + w_bytes);
  return s;
}

/** @brief Host bytes held by a column's arrays: dictionary bytes and offsets, packed codes, both
 *  row offset arrays and the sidecar (element counts times element sizes; what a copy of the
 *  column allocates, allocator rounding aside). */
inline std::uint64_t column_host_bytes(compressed_column const& col) noexcept
{
  return col.dict.bytes.size() + sizeof(std::uint32_t) * col.dict.offsets.size() + col.codes.size() +
         sizeof(std::uint64_t) * (col.row_code_offsets.size() + col.row_byte_offsets.size() + col.sidecar.size());
}

namespace detail {
/** a * b, or logic_error naming both sizes when the product does not fit 64 bits. */
inline std::uint64_t tile_mul(std::uint64_t a, std::uint64_t b, char const* a_what, char const* b_what)
{
  FASTPAIR_EXPECTS(a == 0 || b <= ~std::uint64_t{0} / a,
                   std::string("tile_column: ") + std::to_string(a) + " " + a_what + " x " + std::to_string(b) +
                     " " + b_what + " overflows 64 bits");
  return a * b;
}
/** a + b, or logic_error naming what is summed when the sum does not fit 64 bits. */
inline std::uint64_t tile_add(std::uint64_t a, std::uint64_t b, char const* what)
{
  FASTPAIR_EXPECTS(b <= ~std::uint64_t{0} - a, std::string("tile_column: ") + what + " (" + std::to_string(a) +
                                                 " + " + std::to_string(b) + ") overflows 64 bits");
  return a + b;
}

/** The element counts of tile_column(col, min_bytes), overflow-checked (from the claimed counts
 *  of `col` alone: num_codes, num_rows(), decoded_bytes(), sidecar_stride). */
struct tile_shape {
  bool as_is = true;          ///< col is returned unchanged (empty, or already >= min_bytes)
  std::uint64_t reps = 1;     ///< copies of the rows
  std::uint64_t codes = 0, code_bytes = 0, row_entries = 0, sidecar_entries = 0, decoded_bytes = 0;
  std::uint64_t host_bytes = 0;  ///< column_host_bytes of the result
};

inline tile_shape tile_shape_of(compressed_column const& col, std::uint64_t min_bytes)
{
  tile_shape s;
  std::uint64_t const d = col.decoded_bytes();
  if (d == 0 || d >= min_bytes) {
    s.host_bytes = column_host_bytes(col);
    return s;
  }
  FASTPAIR_EXPECTS(col.sidecar_stride > 0, "tile_column: sidecar stride must be positive");
  s.as_is         = false;
  s.reps          = min_bytes / d + (min_bytes % d != 0);  // ceil, without min_bytes + d - 1
  s.decoded_bytes = tile_mul(d, s.reps, "decoded bytes", "repetitions");
  s.codes         = tile_mul(col.num_codes, s.reps, "codes", "repetitions");
  s.row_entries   = tile_add(tile_mul(col.num_rows(), s.reps, "rows", "repetitions"), 1, "row offset entries");
  s.code_bytes    = tile_add(tile_mul(s.codes, static_cast<std::uint64_t>(code_bits(col.kind)), "tiled codes",
                                      "bits per code"),
                             7, "packed code bits") / 8;
  s.sidecar_entries = s.codes / col.sidecar_stride + (s.codes % col.sidecar_stride != 0);
  std::uint64_t b = col.dict.bytes.size() + sizeof(std::uint32_t) * col.dict.offsets.size();
  b = tile_add(b, s.code_bytes, "host bytes");
  b = tile_add(b, tile_mul(s.row_entries, 2 * sizeof(std::uint64_t), "row offset entries", "bytes per entry (two arrays)"),
               "host bytes");
  b = tile_add(b, tile_mul(s.sidecar_entries, sizeof(std::uint64_t), "sidecar entries", "bytes per entry"), "host bytes");
  s.host_bytes = b;
  return s;
}
}  // namespace detail

/**
 * @brief Host bytes (column_host_bytes) of the column tile_column(col, min_bytes) would return,
 * computed from the counts alone (nothing is allocated; O(1)). Building it needs this much plus
 * transient buffers of the size of `col` (its codes widened and one prefix sum per code).
 * @throw logic_error naming the sizes if a count of the tiled column overflows 64 bits.
 */
inline std::uint64_t tiled_column_bytes(compressed_column const& col, std::uint64_t min_bytes)
{
  return detail::tile_shape_of(col, min_bytes).host_bytes;
}

/**
 * @brief Repeats a column's rows until its decoded size reaches `min_bytes` (how the paper and our
 * benchmarks build >= 1 GB inputs from a smaller column). The result is a valid column with its
 * sidecar; a column already that large, or empty, is returned as is.
 *
 * Its host memory grows with the rows: 16 bytes of row offsets per tiled row besides the packed
 * codes (a one-row column of 1 byte tiled to 100 MB holds 1.6 GB of row offsets). Callers tiling
 * columns they did not build should check tiled_column_bytes() first, or pass `max_host_bytes`.
 * @param max_host_bytes refuse (before allocating anything) if tiled_column_bytes() exceeds it
 * @throw logic_error if a count overflows 64 bits, if the result would exceed `max_host_bytes`,
 *   or if the column's codes and row arrays do not match its counts (validate it first).
 */
inline compressed_column tile_column(compressed_column const& col, std::uint64_t min_bytes,
                                     std::uint64_t max_host_bytes = ~std::uint64_t{0})
{
  auto const shape = detail::tile_shape_of(col, min_bytes);
  FASTPAIR_EXPECTS(shape.host_bytes <= max_host_bytes,
                   "tile_column: the tiled column would hold " + std::to_string(shape.host_bytes) +
                     " bytes of host memory (" + std::to_string(shape.reps) + " copies of " +
                     std::to_string(col.num_rows()) + " rows, " + std::to_string(shape.codes) +
                     " codes), more than max_host_bytes = " + std::to_string(max_host_bytes));
  if (shape.as_is) return col;
  std::uint64_t const n    = col.num_codes;
  std::uint64_t const reps = shape.reps;
  std::uint64_t const one  = packed_code_bytes(col.kind, n);  // packed bytes of one copy
  FASTPAIR_EXPECTS(col.codes.size() == one && col.row_byte_offsets.size() == col.row_code_offsets.size() &&
                     col.row_code_offsets.back() == n && n > 0,
                   "tile_column: codes and row offsets do not match num_codes (validate the column first)");
  compressed_column t;
  t.kind           = col.kind;
  t.dict           = col.dict;
  t.sidecar_stride = col.sidecar_stride;
  t.num_codes      = shape.codes;
  t.codes.reserve(shape.code_bytes);
  if (code_bits(col.kind) == 16 || n % 2 == 0) {  // byte-aligned copies: concatenate
    for (std::uint64_t r = 0; r < reps; ++r) t.codes.insert(t.codes.end(), col.codes.begin(), col.codes.end());
  } else {
    // An odd number of 12-bit codes ends mid-byte, but two copies (2n codes, 3n bytes) end on a
    // byte: pack two copies once and append them reps/2 times, then the source's bytes for an
    // odd last copy (which starts on a byte). No widened copy of the tiled stream.
    auto const codes = unpack_codes(col);
    std::vector<std::uint16_t> two(2 * n);
    std::copy(codes.begin(), codes.end(), two.begin());
    std::copy(codes.begin(), codes.end(), two.data() + n);
    auto const pair = pack_codes(t.kind, two.data(), two.size());
    for (std::uint64_t r = 0; r + 1 < reps; r += 2) t.codes.insert(t.codes.end(), pair.begin(), pair.end());
    if (reps % 2) t.codes.insert(t.codes.end(), col.codes.begin(), col.codes.end());
  }
  std::size_t const rows = col.num_rows();
  t.row_code_offsets.resize(shape.row_entries);
  t.row_byte_offsets.resize(shape.row_entries);
  for (std::uint64_t r = 0; r < reps; ++r)
    for (std::size_t i = 1; i <= rows; ++i) {
      t.row_code_offsets[r * rows + i] = r * n + col.row_code_offsets[i];
      t.row_byte_offsets[r * rows + i] = r * col.decoded_bytes() + col.row_byte_offsets[i];
    }
  // The sidecar of the tiled stream: positions of every stride-th code (num_codes > 0 here).
  {
    std::vector<std::uint32_t> len(col.dict.size());
    for (std::size_t i = 0; i < len.size(); ++i) len[i] = col.dict.length(i);
    std::vector<std::uint64_t> prefix(n + 1, 0);  // decoded position of code j in one copy
    {
      auto const codes = unpack_codes(col);
      for (std::uint64_t j = 0; j < n; ++j) prefix[j + 1] = prefix[j] + len[codes[j]];
    }
    t.sidecar.resize(shape.sidecar_entries);
    for (std::uint64_t s = 0; s < shape.sidecar_entries; ++s) {
      std::uint64_t const j = s * t.sidecar_stride;
      t.sidecar[s]          = (j / n) * col.decoded_bytes() + prefix[j % n];
    }
  }
  return t;
}

static_assert(sizeof(std::uint16_t) == 2, "u16 codes");

}  // namespace fastpair
