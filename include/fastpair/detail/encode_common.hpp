// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file encode_common.hpp
 * @brief Building blocks of the host encoders: a portable seeded PRNG and permutation, unaligned
 * little-endian loads of a 16-byte input window, and an open-addressing u32 -> u32 counter map.
 *
 * Host-only (compiles with g++ alone). Everything here is deterministic across compilers and
 * standard libraries: no `std::shuffle`, no `<random>` distributions, no hash-map iteration order
 * leaks into results.
 */
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <utility>
#include <vector>

namespace fastpair::detail {

/**
 * @brief SplitMix64 (Steele, Lea, Flood 2014): a 64-bit counter passed through a bijective mixer.
 * Same sequence on every platform for the same seed.
 */
class splitmix64 {
 public:
  explicit splitmix64(std::uint64_t seed) noexcept : state_(seed) {}

  /** @brief Next 64 random bits. */
  std::uint64_t next() noexcept
  {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z               = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z               = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  /** @brief Uniform integer in [0, bound) for bound > 0 (rejection sampling, no modulo bias). */
  std::uint64_t below(std::uint64_t bound) noexcept
  {
    std::uint64_t const threshold = (0 - bound) % bound;  // 2^64 mod bound
    for (;;) {
      std::uint64_t const r = next();
      if (r >= threshold) return r % bound;
    }
  }

 private:
  std::uint64_t state_;
};

/** @brief The SplitMix64 finalizer applied to one value: a stateless 64-bit hash. */
constexpr std::uint64_t mix64(std::uint64_t z) noexcept
{
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/**
 * @brief A seeded permutation of 0..n-1 by Fisher–Yates (from the back, `j = below(i + 1)`).
 * Byte-identical on every platform for the same (n, seed).
 */
inline std::vector<std::uint64_t> seeded_permutation(std::size_t n, std::uint64_t seed)
{
  std::vector<std::uint64_t> p(n);
  std::iota(p.begin(), p.end(), std::uint64_t{0});
  splitmix64 rng(seed);
  for (std::size_t i = n; i > 1; --i) {
    std::size_t const j = static_cast<std::size_t>(rng.below(i));
    std::swap(p[i - 1], p[j]);
  }
  return p;
}

/** @brief Mask of the low `n` bytes of a u64 (n in 0..8). */
constexpr std::uint64_t low_bytes_mask(unsigned n) noexcept
{
  return n >= 8 ? ~std::uint64_t{0} : ((std::uint64_t{1} << (8 * n)) - 1);
}

/** @brief Up to 16 input bytes as two little-endian u64 (bytes past the buffer end read as 0). */
struct window {
  std::uint64_t lo = 0;  ///< bytes 0..7
  std::uint64_t hi = 0;  ///< bytes 8..15
};

/** @brief Loads the 16 bytes at `p`, never reading at or past `end`. */
inline window load_window(std::uint8_t const* p, std::uint8_t const* end) noexcept
{
  window w;
  if (end - p >= 16) {
    std::memcpy(&w.lo, p, 8);
    std::memcpy(&w.hi, p + 8, 8);
  } else {
    std::uint8_t buf[16] = {};
    std::memcpy(buf, p, static_cast<std::size_t>(end - p));
    std::memcpy(&w.lo, buf, 8);
    std::memcpy(&w.hi, buf + 8, 8);
  }
  return w;
}

/** @brief Loads a token of 1..16 bytes as a zero-padded window. */
inline window token_window(std::uint8_t const* tok, unsigned len) noexcept
{
  std::uint8_t buf[16] = {};
  std::memcpy(buf, tok, len);
  window w;
  std::memcpy(&w.lo, buf, 8);
  std::memcpy(&w.hi, buf + 8, 8);
  return w;
}

/** @brief 64-bit hash of a zero-padded token window and its length (the matcher's slot tables and
 *  validate()'s duplicate check); the top bits are the well-mixed ones. */
inline std::uint64_t token_hash(std::uint64_t lo, std::uint64_t hi, unsigned len) noexcept
{
  return (lo ^ (hi * 0xC2B2AE3D27D4EB4Full) ^ (std::uint64_t{len} << 59)) * 0x9E3779B97F4A7C15ull;
}

/** @brief Reverses the bytes of a u64 (so that integer order = lexicographic byte order). */
constexpr std::uint64_t byte_swap64(std::uint64_t v) noexcept
{
  v = ((v & 0x00FF00FF00FF00FFull) << 8) | ((v >> 8) & 0x00FF00FF00FF00FFull);
  v = ((v & 0x0000FFFF0000FFFFull) << 16) | ((v >> 16) & 0x0000FFFF0000FFFFull);
  return (v << 32) | (v >> 32);
}

/**
 * @brief Open-addressing (linear probing) map from u32 keys to u32 counts, with erase by backward
 * shift. Key 0xFFFFFFFF is reserved as "empty". Grows at 50 % load.
 */
class u32_count_map {
 public:
  static constexpr std::uint32_t empty_key = 0xFFFFFFFFu;

  explicit u32_count_map(std::size_t expected = 1024) { rehash(capacity_for(expected)); }

  /** @brief Adds `by` to the count of `key` (creating it at 0) and returns a reference to it. */
  std::uint32_t& add(std::uint32_t key, std::uint32_t by = 1)
  {
    if (2 * (size_ + 1) > keys_.size()) rehash(keys_.size() * 2);
    std::size_t i = home(key);
    while (keys_[i] != empty_key && keys_[i] != key) i = (i + 1) & mask_;
    if (keys_[i] == empty_key) {
      keys_[i] = key;
      vals_[i] = 0;
      ++size_;
    }
    vals_[i] += by;
    return vals_[i];
  }

  /** @brief Removes `key` if present. */
  void erase(std::uint32_t key) noexcept
  {
    std::size_t i = home(key);
    while (keys_[i] != key) {
      if (keys_[i] == empty_key) return;
      i = (i + 1) & mask_;
    }
    std::size_t j = i;
    for (;;) {
      j = (j + 1) & mask_;
      if (keys_[j] == empty_key) break;
      std::size_t const k = home(keys_[j]);
      // Move entry j into the hole i unless its home lies cyclically in (i, j].
      bool const stays = (i <= j) ? (k > i && k <= j) : (k > i || k <= j);
      if (!stays) {
        keys_[i] = keys_[j];
        vals_[i] = vals_[j];
        i        = j;
      }
    }
    keys_[i] = empty_key;
    --size_;
  }

  /** @brief Removes every entry, keeping the capacity. */
  void clear() noexcept
  {
    std::fill(keys_.begin(), keys_.end(), empty_key);
    size_ = 0;
  }

  /** @brief Calls f(key, count) for every entry (in slot order: do not let it decide results). */
  template <class F>
  void for_each(F&& f) const
  {
    for (std::size_t i = 0; i < keys_.size(); ++i)
      if (keys_[i] != empty_key) f(keys_[i], vals_[i]);
  }

  std::size_t size() const noexcept { return size_; }

 private:
  static std::size_t capacity_for(std::size_t n)
  {
    std::size_t c = 16;
    while (c < 2 * n) c *= 2;
    return c;
  }
  std::size_t home(std::uint32_t key) const noexcept
  {
    return static_cast<std::size_t>((std::uint64_t{key} * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  void rehash(std::size_t cap)
  {
    std::vector<std::uint32_t> old_keys = std::move(keys_);
    std::vector<std::uint32_t> old_vals = std::move(vals_);
    keys_.assign(cap, empty_key);
    vals_.assign(cap, 0);
    mask_  = cap - 1;
    shift_ = 64;
    for (std::size_t c = cap; c > 1; c >>= 1) --shift_;
    size_ = 0;
    for (std::size_t i = 0; i < old_keys.size(); ++i) {
      if (old_keys[i] == empty_key) continue;
      std::size_t s = home(old_keys[i]);
      while (keys_[s] != empty_key) s = (s + 1) & mask_;
      keys_[s] = old_keys[i];
      vals_[s] = old_vals[i];
      ++size_;
    }
  }

  std::vector<std::uint32_t> keys_;
  std::vector<std::uint32_t> vals_;
  std::size_t mask_ = 0;
  unsigned shift_   = 64;
  std::size_t size_ = 0;
};

}  // namespace fastpair::detail
