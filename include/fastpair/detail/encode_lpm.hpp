// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file encode_lpm.hpp
 * @brief Exact longest-prefix matcher over a token set of 1..16-byte tokens (OnPair training and
 * encoding; also FSST-12 encoding with dictionaries that the FSST fast path cannot hold).
 *
 * Structure:
 * @code{.text}
 *  byte_id[256]              one-byte tokens
 *  table (open addressing)   every token of 2..16 bytes, keyed by (first 8 bytes, next 8 bytes, length),
 *                            the bytes past the length zeroed
 *  len2[first 2 bytes]       bit L-1 set if some token of length L >= 2 starts with these 2 bytes
 *  len4[hash(first 4 bytes)] bit L-1 set if some token of length L >= 4 starts with these 4 bytes
 *  len8[hash(first 8 bytes)] bit L-1 set if some token of length L >= 8 starts with these 8 bytes
 * @endcode
 * The three length masks are supersets (hash collisions only add bits), so their AND is a superset
 * of the lengths that can match at a position. A lookup probes the table for those lengths, longest
 * first, and stops at the first hit; that hit is the longest match. Most lookups need one or two
 * probes. Tokens can be added at any time (training) and are never removed.
 */
#pragma once

#include <fastpair/detail/encode_common.hpp>

#include <cstdint>
#include <utility>
#include <vector>

namespace fastpair::detail {

/** @brief Exact longest-prefix matcher over tokens of 1..16 bytes with ids < 65 536. */
class lpm_matcher {
 public:
  /** @brief A matcher sized for up to `max_tokens` tokens (at most 65 536). */
  explicit lpm_matcher(std::size_t max_tokens)
  {
    std::size_t cap = 64;
    while (cap < 2 * max_tokens) cap *= 2;
    slots_.assign(cap, 0);
    cells_.reserve(max_tokens);
    slot_shift_ = 64;
    for (std::size_t c = cap; c > 1; c >>= 1) --slot_shift_;
    slot_mask_ = cap - 1;
    // Length-mask tables: about two entries per token, at least 4096, at most 65 536.
    std::size_t mcap = 4096;
    while (mcap < 2 * max_tokens && mcap < 65536) mcap *= 2;
    mask_shift_ = 64;
    for (std::size_t c = mcap; c > 1; c >>= 1) --mask_shift_;
    len2_.assign(65536, 0);
    len4_.assign(mcap, 0);
    len8_.assign(mcap, 0);
    for (auto& b : byte_id_) b = 0xFFFFFFFFu;
  }

  /**
   * @brief Adds token `tok` of `len` (1..16) bytes with id `id`.
   * @return false (and changes nothing) if the token is already present.
   */
  bool insert(std::uint8_t const* tok, unsigned len, std::uint32_t id)
  {
    if (len == 1) {
      if (byte_id_[tok[0]] != 0xFFFFFFFFu) return false;
      byte_id_[tok[0]] = id;
      return true;
    }
    window const w = token_window(tok, len);
    std::uint64_t const h = hash_of(w.lo, w.hi, len);
    std::size_t i         = static_cast<std::size_t>(h >> slot_shift_);
    std::uint32_t const tag = tag_of(h, len);
    while (slots_[i] != 0) {
      std::uint32_t const e = slots_[i];
      if ((e & 0xFFFF0000u) == tag && cells_[e & 0xFFFFu].lo == w.lo && cells_[e & 0xFFFFu].hi == w.hi)
        return false;
      i = (i + 1) & slot_mask_;
    }
    if (cells_.size() <= id) cells_.resize(id + 1);
    cells_[id] = w;
    slots_[i]  = tag | id;
    std::uint16_t const bit = static_cast<std::uint16_t>(1u << (len - 1));
    len2_[w.lo & 0xFFFFu] |= bit;
    if (len >= 4) len4_[hash4(w.lo)] |= bit;
    if (len >= 8) len8_[hash8(w.lo)] |= bit;
    return true;
  }

  /**
   * @brief The longest token that is a prefix of the window's first `rem` bytes (rem in 1..16).
   * @return (id, length); the one-byte token always matches if present.
   */
  std::pair<std::uint32_t, std::uint32_t> longest(window const& w, unsigned rem) const noexcept
  {
    std::uint32_t cand = 0;
    if (rem >= 2) {
      cand = len2_[w.lo & 0xFFFFu];
      if (rem >= 4) cand &= 0x0006u | len4_[hash4(w.lo)];
      if (rem >= 8) cand &= 0x007Eu | len8_[hash8(w.lo)];
      cand &= (rem >= 16) ? 0xFFFFu : ((1u << rem) - 1);
    }
    while (cand != 0) {
      unsigned const len     = 32u - static_cast<unsigned>(count_leading_zeros(cand));
      std::uint64_t const lo = len >= 8 ? w.lo : (w.lo & low_bytes_mask(len));
      std::uint64_t const hi = len > 8 ? (w.hi & low_bytes_mask(len - 8)) : 0;
      std::uint64_t const h   = hash_of(lo, hi, len);
      std::uint32_t const tag = tag_of(h, len);
      std::size_t i           = static_cast<std::size_t>(h >> slot_shift_);
      for (;;) {
        std::uint32_t const e = slots_[i];
        if (e == 0) break;
        if ((e & 0xFFFF0000u) == tag) {
          window const& c = cells_[e & 0xFFFFu];
          if (c.lo == lo && c.hi == hi) return {e & 0xFFFFu, len};
        }
        i = (i + 1) & slot_mask_;
      }
      cand &= ~(1u << (len - 1));
    }
    return {byte_id_[w.lo & 0xFFu], 1};
  }

 private:
  /// Slot entry: (tag << 16) | id, where tag = (length << 11) | 11 hash bits; 0 = empty (length
  /// is never 0). The token bytes live in `cells_[id]`, read only when length and tag agree.
  static int count_leading_zeros(std::uint32_t v) noexcept
  {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_clz(v);
#else
    int n = 0;
    while (!(v & 0x80000000u)) {
      v <<= 1;
      ++n;
    }
    return n;
#endif
  }

  static std::uint64_t hash_of(std::uint64_t lo, std::uint64_t hi, unsigned len) noexcept
  {
    return (lo ^ (hi * 0xC2B2AE3D27D4EB4Full) ^ (std::uint64_t{len} << 59)) * 0x9E3779B97F4A7C15ull;
  }
  static std::uint32_t tag_of(std::uint64_t h, unsigned len) noexcept
  {
    return ((len << 11) | static_cast<std::uint32_t>(h & 0x7FFu)) << 16;
  }
  std::size_t hash4(std::uint64_t lo) const noexcept
  {
    return static_cast<std::size_t>(((lo & 0xFFFFFFFFull) * 0x9E3779B97F4A7C15ull) >> mask_shift_);
  }
  std::size_t hash8(std::uint64_t lo) const noexcept
  {
    return static_cast<std::size_t>(((lo ^ (lo >> 29)) * 0xBF58476D1CE4E5B9ull) >> mask_shift_);
  }

  std::vector<std::uint32_t> slots_;
  std::vector<window> cells_;
  std::size_t slot_mask_ = 0;
  unsigned slot_shift_   = 64;
  unsigned mask_shift_   = 64;
  std::vector<std::uint16_t> len2_, len4_, len8_;
  std::uint32_t byte_id_[256];
};

}  // namespace fastpair::detail
