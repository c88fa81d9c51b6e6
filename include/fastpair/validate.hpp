// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file validate.hpp
 * @brief Validation of untrusted compressed columns (files, caller-built columns).
 *
 * `validate()` checks everything a decoder trusts, in an order where each check only reads what
 * the previous ones proved to be in range. On the first violation it throws `format_error` whose
 * message names the field and the offending value. After it returns, the CPU reference decoder and
 * the host preparation for the GPU cannot read or write out of bounds.
 */
#pragma once

#include <fastpair/detail/encode_common.hpp>
#include <fastpair/error.hpp>
#include <fastpair/format.hpp>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace fastpair {

namespace detail {
[[noreturn]] inline void fail_format(std::string const& field, std::string const& what)
{
  throw format_error("fastpair: invalid column: " + field + ": " + what);
}
inline std::string u64s(std::uint64_t v) { return std::to_string(v); }

/**
 * @brief Set of a dictionary's tokens (1..16 bytes, lengths checked before) by index, for the
 * duplicate check: open addressing over (hash fingerprint, index + 1) in one u64 per slot. Faster
 * than std::unordered_set<std::string_view> (encode() validates the dictionary on every call:
 * 4.9 -> 1.8 ms for a 65 536-token OnPair-16 dictionary on the 2-core build VM).
 */
class token_set {
 public:
  explicit token_set(std::size_t n)
  {
    std::size_t cap = 16;
    while (cap < 2 * n) cap *= 2;
    slots_.assign(cap, 0);
    mask_ = cap - 1;
    shift_ = 64;
    for (std::size_t c = cap; c > 1; c >>= 1) --shift_;
  }
  /// Adds token i of d (length 1..16); false if an equal token was added before.
  bool insert(dictionary const& d, std::uint32_t i)
  {
    std::uint32_t const len  = d.length(i);
    std::uint8_t const* p    = d.data(i);
    std::uint64_t const h    = hash(p, len);
    std::uint64_t const fp   = ((h << 24) & 0xFFFFFFFF00000000ull) | (std::uint64_t{len} << 27);  // hash bits 8..39
    std::size_t k            = static_cast<std::size_t>(h >> shift_);
    for (;;) {
      std::uint64_t const e = slots_[k];
      if (e == 0) break;
      if ((e & ~std::uint64_t{0x7FFFFFF}) == fp) {
        std::uint32_t const j = static_cast<std::uint32_t>(e & 0x7FFFFFF) - 1;
        if (std::memcmp(d.data(j), p, len) == 0) return false;
      }
      k = (k + 1) & mask_;
    }
    slots_[k] = fp | (i + 1);
    return true;
  }

 private:
  static std::uint64_t hash(std::uint8_t const* p, std::uint32_t len) noexcept
  {
    window const w = token_window(p, len);
    return token_hash(w.lo, w.hi, len);
  }
  std::vector<std::uint64_t> slots_;
  std::size_t mask_ = 0;
  unsigned shift_   = 64;
};
}  // namespace detail

namespace detail {
/**
 * validate_dictionary() without the uniqueness test, for callers that detect duplicate tokens
 * themselves (the encoder's matcher does while it is built, so the encoder does not build a second
 * hash set of the tokens). @throw format_error naming the field and value.
 */
inline void validate_dictionary_shape(codec kind, dictionary const& d)
{
  if (d.offsets.empty()) fail_format("dictionary.offsets", "empty (needs N+1 entries)");
  std::size_t const n = d.size();
  if (n < 256) fail_format("dictionary.size", u64s(n) + " tokens; all 256 one-byte tokens are required");
  if (n > code_space(kind))
    fail_format("dictionary.size", u64s(n) + " tokens exceeds " + u64s(code_space(kind)) +
                                     " for codec " + codec_name(kind));
  if (d.offsets[0] != 0) fail_format("dictionary.offsets[0]", u64s(d.offsets[0]) + " (must be 0)");
  // Offsets monotone with lengths 1..max, and ending at the byte count, before any token byte is
  // read: together they prove every token inside `bytes` (offsets may not step past the buffer
  // and come back down).
  int const max_len = max_token_length(kind);
  for (std::size_t i = 0; i < n; ++i) {
    if (d.offsets[i + 1] < d.offsets[i])
      fail_format("dictionary.offsets[" + u64s(i + 1) + "]", "not monotone (" +
                  u64s(d.offsets[i + 1]) + " < " + u64s(d.offsets[i]) + ")");
    std::uint32_t const len = d.offsets[i + 1] - d.offsets[i];
    if (len < 1 || len > static_cast<std::uint32_t>(max_len))
      fail_format("dictionary token " + u64s(i), "length " + u64s(len) + " outside 1.." +
                  std::to_string(max_len));
  }
  if (d.offsets[n] != d.bytes.size())
    fail_format("dictionary.offsets[" + u64s(n) + "]",
                u64s(d.offsets[n]) + " != token byte count " + u64s(d.bytes.size()));
  bool seen_byte[256] = {};
  for (std::size_t i = 0; i < n; ++i)
    if (d.length(i) == 1) seen_byte[d.data(i)[0]] = true;
  for (int b = 0; b < 256; ++b)
    if (!seen_byte[b]) fail_format("dictionary", "one-byte token for byte value " + std::to_string(b) + " missing");
  if (kind == codec::fsst12)
    for (int b = 0; b < 256; ++b)
      if (d.length(b) != 1 || d.data(b)[0] != b)
        fail_format("dictionary token " + std::to_string(b), "FSST-12 code b < 256 must be the byte b");
}
}  // namespace detail

namespace detail {
/** The tokens of a dictionary of checked shape are unique (the first token equal to an earlier
 *  one is named). */
inline void check_unique_tokens(dictionary const& d)
{
  std::size_t const n = d.size();
  token_set uniq(n);
  for (std::size_t i = 0; i < n; ++i)
    if (!uniq.insert(d, static_cast<std::uint32_t>(i))) fail_format("dictionary token " + u64s(i), "duplicate token");
}
}  // namespace detail

/** @brief Checks the dictionary alone. @throw format_error naming the field and value. */
inline void validate_dictionary(codec kind, dictionary const& d)
{
  detail::validate_dictionary_shape(kind, d);
  detail::check_unique_tokens(d);
}

/**
 * @brief The structural checks of a column: what makes every array safe to index, without
 * reading the codes. The codec is known; the dictionary has the shape validate_dictionary()
 * requires (except uniqueness); the code buffer holds exactly num_codes codes; both row offset
 * arrays have R+1 entries, start at 0, are monotone, and end at num_codes and at a byte count;
 * the sidecar stride is positive and a sidecar, if present, has one monotone entry per segment
 * within the decoded size. O(dictionary + rows + segments).
 *
 * `device_column::prepare` runs these checks even with `prepare_options::validate = false`;
 * after them the host preparation and the GPU kernels read and write only inside their buffers
 * (corrupt codes or lengths then show as wrong bytes and the device error word, not as an
 * out-of-bounds access). validate() adds the per-code content checks.
 * @throw format_error naming the first field found inconsistent and its value.
 */
inline void validate_structure(compressed_column const& col)
{
  using detail::fail_format;
  using detail::u64s;
  if (!is_valid_codec(static_cast<std::uint8_t>(col.kind)))
    fail_format("codec", u64s(static_cast<std::uint8_t>(col.kind)));
  detail::validate_dictionary_shape(col.kind, col.dict);

  if (col.num_codes > (std::numeric_limits<std::uint64_t>::max() >> 5))
    fail_format("num_codes", u64s(col.num_codes) + " too large");
  if (col.codes.size() != packed_code_bytes(col.kind, col.num_codes))
    fail_format("codes", u64s(col.codes.size()) + " bytes, expected " +
                             u64s(packed_code_bytes(col.kind, col.num_codes)) + " for " +
                             u64s(col.num_codes) + " codes");

  if (col.row_code_offsets.empty()) fail_format("row_code_offsets", "empty (needs R+1 entries)");
  if (col.row_byte_offsets.size() != col.row_code_offsets.size())
    fail_format("row_byte_offsets", u64s(col.row_byte_offsets.size()) + " entries, expected " +
                                        u64s(col.row_code_offsets.size()));
  if (col.row_code_offsets[0] != 0) fail_format("row_code_offsets[0]", u64s(col.row_code_offsets[0]));
  if (col.row_byte_offsets[0] != 0) fail_format("row_byte_offsets[0]", u64s(col.row_byte_offsets[0]));
  for (std::size_t r = 0; r + 1 < col.row_code_offsets.size(); ++r) {
    std::uint64_t const end = col.row_code_offsets[r + 1];
    if (end < col.row_code_offsets[r] || end > col.num_codes)
      fail_format("row_code_offsets[" + u64s(r + 1) + "]", u64s(end) + " not monotone or > num_codes");
    if (col.row_byte_offsets[r + 1] < col.row_byte_offsets[r])
      fail_format("row_byte_offsets[" + u64s(r + 1) + "]", u64s(col.row_byte_offsets[r + 1]) + " < " +
                                                             u64s(col.row_byte_offsets[r]) + " (not monotone)");
  }
  if (col.row_code_offsets.back() != col.num_codes)
    fail_format("row_code_offsets[R]", u64s(col.row_code_offsets.back()) + " != num_codes " +
                                           u64s(col.num_codes));
  // Every code decodes to at most 16 bytes: a larger total cannot be right (and bounds the
  // output buffers a caller sizes from it).
  if (col.row_byte_offsets.back() > 16 * col.num_codes)
    fail_format("row_byte_offsets[R]", u64s(col.row_byte_offsets.back()) + " > 16 x num_codes " +
                                           u64s(col.num_codes));

  if (col.sidecar_stride == 0) fail_format("sidecar_stride", "0");
  if (!col.sidecar.empty()) {
    if (col.sidecar.size() != col.sidecar_entries())
      fail_format("sidecar", u64s(col.sidecar.size()) + " entries, expected " +
                                 u64s(col.sidecar_entries()));
    for (std::size_t s = 0; s < col.sidecar.size(); ++s) {
      std::uint64_t const prev = s ? col.sidecar[s - 1] : 0;
      if (col.sidecar[s] < prev || col.sidecar[s] > col.decoded_bytes())
        fail_format("sidecar[" + u64s(s) + "]", u64s(col.sidecar[s]) + " not monotone or > decoded size " +
                                                   u64s(col.decoded_bytes()));
    }
  }
}

/**
 * @brief Validates a whole column: validate_structure(), then the content: dictionary tokens
 * unique, every code < dictionary size, row byte offsets and sidecar equal to the running sums
 * of the token lengths.
 * @throw format_error naming the first field found inconsistent and its value.
 */
inline void validate(compressed_column const& col)
{
  using detail::fail_format;
  using detail::u64s;
  validate_structure(col);
  detail::check_unique_tokens(col.dict);
  std::uint64_t const n_tok = col.dict.size();
  for (std::uint64_t j = 0; j < col.num_codes; ++j) {
    std::uint32_t const c = code_at(col.kind, col.codes.data(), j);
    if (c >= n_tok)
      fail_format("code " + u64s(j), "value " + u64s(c) + " >= dictionary size " + u64s(n_tok));
  }
  // Token lengths by code (1..16 after the structural checks), read by the two passes below.
  std::vector<std::uint8_t> len(n_tok);
  for (std::size_t i = 0; i < n_tok; ++i) len[i] = static_cast<std::uint8_t>(col.dict.length(i));

  std::uint64_t j       = 0;
  std::uint64_t decoded = 0;
  for (std::size_t r = 0; r + 1 < col.row_code_offsets.size(); ++r) {
    for (std::uint64_t const end = col.row_code_offsets[r + 1]; j < end; ++j)
      decoded += len[code_at(col.kind, col.codes.data(), j)];
    if (col.row_byte_offsets[r + 1] != decoded)
      fail_format("row_byte_offsets[" + u64s(r + 1) + "]", u64s(col.row_byte_offsets[r + 1]) +
                                                             " != decoded size " + u64s(decoded));
  }

  std::uint64_t pos = 0;
  std::uint64_t k   = 0;
  for (std::uint64_t s = 0; s < col.sidecar.size(); ++s) {
    if (col.sidecar[s] != pos)
      fail_format("sidecar[" + u64s(s) + "]", u64s(col.sidecar[s]) + " != decoded position " + u64s(pos));
    std::uint64_t const batch_end = col.num_codes - k < col.sidecar_stride ? col.num_codes : k + col.sidecar_stride;
    for (; k < batch_end; ++k) pos += len[code_at(col.kind, col.codes.data(), k)];
  }
}

}  // namespace fastpair
