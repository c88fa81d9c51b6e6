// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file encode_fsst12.hpp
 * @brief The FSST-12 symbol table used by training and by the fast encoding path.
 *
 * @code{.text}
 *  code 0..255      the byte b (identity literals)
 *  code 256..4095   learned symbols of 2..8 bytes
 *  slot3[8192]      symbols of >= 3 bytes, keyed by a hash of their first 3 bytes; one symbol per
 *                   slot, a symbol whose slot is taken is rejected ("lossy perfect hash")
 *  two[65536]       indexed by the next two input bytes: the 2-byte symbol's code, or else the
 *                   literal code of the first byte; entry = code | length << 12
 * @endcode
 * Because a slot holds at most one symbol and every symbol of >= 3 bytes that could match at a
 * position hashes to the slot of that position's first 3 bytes, the greedy lookup (slot, then two,
 * then literal) returns the longest matching symbol: on such tables FSST's greedy matcher and true
 * longest-prefix matching coincide.
 */
#pragma once

#include <fastpair/detail/encode_common.hpp>
#include <fastpair/format.hpp>

#include <cstdint>
#include <utility>
#include <vector>

namespace fastpair::detail {

/** @brief FSST-12 symbol table with a lossy 3-byte-prefix hash (see file comment). */
class fsst12_table {
 public:
  /// 8 192 slots (the Rust fsst12 builder has 2 048): fewer symbols with *different* prefixes
  /// are lost to slot collisions (+2..13 % ratio on our columns, docs/notes/encoder-history-2026-11.md); 16 KiB, L1.
  static constexpr std::uint32_t num_slots    = 8192;
  static constexpr std::uint32_t max_codes    = 4096;
  static constexpr std::uint16_t empty_slot   = 0xFFFF;

  fsst12_table() { reset(); }

  /** @brief Back to the 256 literals. */
  void reset()
  {
    val_.resize(256);
    len_.resize(256);
    for (std::uint32_t b = 0; b < 256; ++b) {
      val_[b] = b;
      len_[b] = 1;
    }
    for (auto& s : slot_) s = empty_slot;
    two_.resize(65536);
    for (std::uint32_t i = 0; i < 65536; ++i) two_[i] = static_cast<std::uint16_t>((i & 0xFFu) | (1u << 12));
  }

  /** @brief Number of codes in use (256 + learned symbols). */
  std::size_t size() const noexcept { return val_.size(); }
  std::uint64_t value(std::size_t code) const noexcept { return val_[code]; }
  unsigned length(std::size_t code) const noexcept { return len_[code]; }

  /**
   * @brief Adds a symbol of 2..8 bytes (`val`: its bytes little-endian, zero above `len`).
   * @return false if the table is full, the symbol exists, or (len >= 3) its slot is taken.
   */
  bool add(std::uint64_t val, unsigned len)
  {
    if (val_.size() >= max_codes || len < 2 || len > 8) return false;
    auto const code = static_cast<std::uint16_t>(val_.size());
    if (len == 2) {
      std::uint16_t& e = two_[val & 0xFFFFu];
      if ((e >> 12) == 2) return false;
      e = static_cast<std::uint16_t>(code | (2u << 12));
    } else {
      std::uint16_t& s = slot_[hash3(val)];
      if (s != empty_slot) return false;
      s = code;
    }
    val_.push_back(val);
    len_.push_back(static_cast<std::uint8_t>(len));
    return true;
  }

  /**
   * @brief Longest symbol at the input whose first 8 bytes are `x` (zero past the buffer), with
   * `rem` >= 1 bytes left in the row. @return (code, length).
   */
  std::pair<std::uint32_t, std::uint32_t> find(std::uint64_t x, std::size_t rem) const noexcept
  {
    if (rem >= 3) {
      std::uint16_t const s = slot_[hash3(x)];
      if (s != empty_slot) {
        unsigned const l = len_[s];
        if (l <= rem && (x & low_bytes_mask(l)) == val_[s]) return {s, l};
      }
    }
    if (rem >= 2) {
      std::uint16_t const e = two_[x & 0xFFFFu];
      return {e & 0xFFFu, static_cast<std::uint32_t>(e >> 12)};
    }
    return {static_cast<std::uint32_t>(x & 0xFFu), 1};
  }

  /**
   * @brief Loads an FSST-12 dictionary (codes 0..255 must be the identity literals).
   * @return false if it does not fit this structure (a token longer than 8 bytes, or two symbols
   * of >= 3 bytes in one slot); the caller then uses the general matcher.
   */
  bool assign(dictionary const& d)
  {
    reset();
    if (d.size() > max_codes) return false;
    for (std::size_t i = 0; i < 256; ++i)
      if (d.length(i) != 1 || d.data(i)[0] != i) return false;
    for (std::size_t i = 256; i < d.size(); ++i) {
      unsigned const l = d.length(i);
      if (l < 2 || l > 8) return false;
      std::uint64_t v = 0;
      std::memcpy(&v, d.data(i), l);
      if (!add(v, l)) return false;
    }
    return true;
  }

  /** @brief The table as a dictionary (codes in table order). */
  dictionary to_dictionary() const
  {
    dictionary d;
    for (std::size_t c = 0; c < val_.size(); ++c) {
      std::uint8_t b[8];
      std::memcpy(b, &val_[c], 8);
      d.push_back({reinterpret_cast<char const*>(b), len_[c]});
    }
    return d;
  }

 private:
  static std::size_t hash3(std::uint64_t x) noexcept
  {
    return static_cast<std::size_t>(((x & 0xFFFFFFull) * 0x9E3779B1ull) >> 16) & (num_slots - 1);
  }

  std::vector<std::uint64_t> val_;
  std::vector<std::uint8_t> len_;
  std::uint16_t slot_[num_slots];
  std::vector<std::uint16_t> two_;
};

}  // namespace fastpair::detail
