// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file encode_lpm.hpp
 * @brief Exact longest-prefix matcher over a token set of 1..16-byte tokens (OnPair training and
 * encoding; also FSST-12 encoding with dictionaries that the FSST fast path cannot hold).
 *
 * Structure:
 * @code{.text}
 *  byte_id[256]               one-byte tokens
 *  len2[first 2 bytes]        bits 0..15: bit L-1 set if some token of length L >= 2 starts with
 *                             these 2 bytes; bits 16..31: the 2-byte token's id (when bit 1 is set)
 *  filter_k[hash(first k)]    k in {3,4,6}: bit L-1 set if some token of length L >= k starts
 *                             with these k bytes (16 bits); k in {8,12}: the same in one byte,
 *                             bit L-k for L in 8..15 (8) or 12..16 (12)
 *  buckets (open addressing)  every token of 3..16 bytes: a 16-bit tag (length, 11 hash bits) and
 *                             the id, 8 per 32-byte bucket (tags compared at once, SSE2 where
 *                             available), keyed by (first 8 bytes, next 8 bytes, length), bytes
 *                             past the length 0; a full bucket continues in the next one
 *  cells[id]                  the token's 16 bytes, read only when length and hash bits agree
 * @endcode
 * The masks are supersets of the lengths that can match at a position (hash collisions only add
 * bits), so their AND is one too. A lookup probes the slots for those lengths >= 3, longest first,
 * and stops at the first hit, which is the longest match; otherwise the 2-byte token, otherwise the
 * byte. Most lookups need zero or one probe. Tokens can be added at any time (training), never
 * removed.
 */
#pragma once

#include <fastpair/detail/encode_common.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif
#if defined(__SSE2__) && !defined(__CUDA_ARCH__)
#include <emmintrin.h>
#define FASTPAIR_LPM_SSE2 1
#endif

namespace fastpair::detail {

/**
 * @brief One zeroed block of memory for lookup tables. On Linux it is 2 MiB-aligned and advised
 * for transparent huge pages: the matcher's tables (≈ 2.4 MiB for 65 536 tokens) are read at
 * random, and with 4 KiB pages most of those reads also miss the first-level TLB.
 */
class table_arena {
 public:
  table_arena() = default;
  explicit table_arena(std::size_t bytes)
  {
    if (bytes == 0) bytes = 1;
#if defined(__linux__)
    std::size_t const huge = std::size_t{1} << 21;
    if (bytes >= huge / 2) {
      std::size_t const n = (bytes + huge - 1) & ~(huge - 1);
      p_                  = std::aligned_alloc(huge, n);
      if (p_) {
        ::madvise(p_, n, MADV_HUGEPAGE);  // advice only: failure is harmless
        std::memset(p_, 0, bytes);  // the rounding to whole huge pages is never read
        return;
      }
    }
#endif
    p_ = std::calloc(bytes, 1);
    if (!p_) throw std::bad_alloc();
  }
  table_arena(table_arena&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  table_arena& operator=(table_arena&& o) noexcept
  {
    std::swap(p_, o.p_);
    return *this;
  }
  table_arena(table_arena const&)            = delete;
  table_arena& operator=(table_arena const&) = delete;
  ~table_arena() { std::free(p_); }
  void* data() const noexcept { return p_; }

 private:
  void* p_ = nullptr;
};

/** @brief The bytes of a `len`-byte token inside a window (len in 0..16): low and high u64 masks. */
struct byte_masks {
  std::uint64_t lo, hi;
};
constexpr byte_masks len_mask_of(unsigned len) noexcept
{
  return {low_bytes_mask(len), len > 8 ? low_bytes_mask(len - 8) : 0};
}
inline constexpr byte_masks len_masks[17] = {
  len_mask_of(0),  len_mask_of(1),  len_mask_of(2),  len_mask_of(3),  len_mask_of(4),  len_mask_of(5),
  len_mask_of(6),  len_mask_of(7),  len_mask_of(8),  len_mask_of(9),  len_mask_of(10), len_mask_of(11),
  len_mask_of(12), len_mask_of(13), len_mask_of(14), len_mask_of(15), len_mask_of(16)};

/** @brief Exact longest-prefix matcher over tokens of 1..16 bytes with ids < 65 536. */
class lpm_matcher {
 public:
  /** @brief A matcher sized for up to `max_tokens` tokens (at most 65 536). */
  explicit lpm_matcher(std::size_t max_tokens)
  {
    // Slots (at most half full), in buckets of 8.
    std::size_t cap = 64;
    while (cap < 2 * max_tokens) cap *= 2;
    std::size_t const nb = cap / bucket_size;
    bucket_shift_        = 64;
    for (std::size_t c = nb; c > 1; c >>= 1) --bucket_shift_;
    bucket_mask_ = nb - 1;
    // Length-mask tables: about two entries per token, at least 4096, at most 65 536.
    std::size_t mcap = 4096;
    while (mcap < 2 * max_tokens && mcap < 65536) mcap *= 2;
    mask_shift_ = 64;
    for (std::size_t c = mcap; c > 1; c >>= 1) --mask_shift_;
    // All tables in one zeroed block, from its start rounded up to 32 bytes: cells first, then the
    // buckets (32-byte aligned: a bucket never straddles a cache line).
    std::size_t const cells_bytes =
      (std::max<std::size_t>(max_tokens, 1) * sizeof(window) + 63) & ~std::size_t{63};
    std::size_t const bytes       = 32 + cells_bytes + cap * 4 + 65536 * 4 + (3 * 2 + 2 * 1) * mcap;
    arena_                        = table_arena(bytes);
    auto* at                      = static_cast<unsigned char*>(arena_.data());
    at += (32 - (reinterpret_cast<std::uintptr_t>(at) & 31)) & 31;
    cells_ = reinterpret_cast<window*>(at);
    at += cells_bytes;
    buckets_ = reinterpret_cast<bucket*>(at);
    at += cap * 4;
    len2_ = reinterpret_cast<std::uint32_t*>(at);
    at += 65536 * 4;
    for (int f = 0; f < 3; ++f) {
      filter_[f] = reinterpret_cast<std::uint16_t*>(at);
      at += mcap * 2;
    }
    for (int f = 3; f < num_filters; ++f) {
      filter8_[f - 3] = at;
      at += mcap;
    }
    for (auto& b : byte_id_) b = 0xFFFFFFFFu;
  }

  /**
   * @brief Adds token `tok` of `len` (1..16) bytes with id `id` (< the constructor's max_tokens).
   * @return false (and changes nothing) if the token is already present.
   */
  bool insert(std::uint8_t const* tok, unsigned len, std::uint32_t id)
  {
    return insert(tok, len, id, tok + len);
  }

  /**
   * @brief insert() for a token inside a buffer that may be read up to `end` (>= tok + len): with
   * 16 readable bytes the token's window is one masked load instead of a copy of `len` bytes.
   */
  bool insert(std::uint8_t const* tok, unsigned len, std::uint32_t id, std::uint8_t const* end)
  {
    if (len == 1) {
      if (byte_id_[tok[0]] != 0xFFFFFFFFu) return false;
      byte_id_[tok[0]] = id;
      return true;
    }
    if (len == 2) {  // exact direct table: bit 1 of len2_ says the 2-byte token exists
      std::uint32_t const key = tok[0] | (std::uint32_t{tok[1]} << 8);
      if (len2_[key] & 2u) return false;
      len2_[key] |= 2u | (id << 16);
      return true;
    }
    window w;
    if (end - tok >= 16) {
      w = load_window(tok, end);
      w.lo &= len_masks[len].lo;
      w.hi &= len_masks[len].hi;
    } else {
      w = token_window(tok, len);
    }
    std::uint64_t const h   = token_hash(w.lo, w.hi, len);
    std::size_t b           = static_cast<std::size_t>(h >> bucket_shift_);
    std::uint16_t const tag = tag_of(h, len);
    for (;;) {
      bucket& bk = buckets_[b];
      // Entries fill in order and are never emptied, and a tag is never 0: entries with this tag
      // all lie before the first free one.
      for (std::uint32_t eq = bucket_match(bk, tag); eq != 0;) {
        unsigned const j = static_cast<unsigned>(count_trailing_zeros(eq)) / 2;
        if (cells_[bk.id[j]].lo == w.lo && cells_[bk.id[j]].hi == w.hi) return false;
        eq &= ~(3u << (2 * j));
      }
      if (std::uint32_t const free = bucket_match(bk, 0)) {  // the token is new: its first free entry
        unsigned const j = static_cast<unsigned>(count_trailing_zeros(free)) / 2;
        cells_[id]       = w;
        bk.tag[j]        = tag;
        bk.id[j]         = static_cast<std::uint16_t>(id);
        std::uint16_t const bit = static_cast<std::uint16_t>(1u << (len - 1));
        len2_[w.lo & 0xFFFFu] |= bit;
        for (int f = 0; f < 3; ++f)
          if (len >= filter_prefix[f]) filter_[f][prefix_hash(w, filter_prefix[f])] |= bit;
        // The 8- and 12-byte filters in bytes: lengths 8..15 and 12..16 (length 16 is left to the
        // 12-byte filter; the others' bits are the same as in 16-bit entries).
        if (len >= 8 && len <= 15) filter8_[0][prefix_hash(w, 8)] |= static_cast<std::uint8_t>(1u << (len - 8));
        if (len >= 12) filter8_[1][prefix_hash(w, 12)] |= static_cast<std::uint8_t>(1u << (len - 12));
        return true;
      }
      b = (b + 1) & bucket_mask_;  // bucket full: the token lies in (or goes to) a later one
    }
  }

  /**
   * @brief The longest token that is a prefix of the window's first `rem` bytes (rem in 1..16).
   * @return (id, length); the one-byte token always matches if present.
   */
  std::pair<std::uint32_t, std::uint32_t> longest(window const& w, unsigned rem) const noexcept
  {
    if (rem < 2) return {byte_id_[w.lo & 0xFFu], 1};
    return resolve(w, candidates(w, rem));
  }

  /**
   * @brief First half of longest() (training's lookup): the lengths >= 2 that can match (bit L-1;
   * bit 1 exact, bits >= 2 a superset after the filters), limited to `rem` (2..16). The encoder's
   * parse computes the same mask from short_candidates() and long_filters()/all_long_filters()
   * (lpm_parse_rows in encode.hpp: which of them is a speed choice).
   */
  std::uint32_t candidates(window const& w, unsigned rem) const noexcept
  {
    std::uint32_t cand = len2_[w.lo & 0xFFFFu] & rem_mask(rem);
    if (cand < 4) return cand;  // no candidate of >= 3 bytes: the answer is exact already
    // The 3- and 4-byte filters always (both loads in flight at once), the longer ones only while a
    // candidate that long is left (on short-token columns most lookups stop here).
    cand &= 0x3u | filter_[0][prefix_hash(w, filter_prefix[0])];
    cand &= 0x7u | filter_[1][prefix_hash(w, filter_prefix[1])];
    return long_filters(w, cand);
  }

  /**
   * @brief The 2-byte mask ANDed with the 3- and 4-byte filters, limited to `rem` (2..16), read
   * without a branch (three independent loads). candidates() == long_filters(short_candidates()).
   */
  std::uint32_t short_candidates(window const& w, unsigned rem) const noexcept
  {
    return len2_[w.lo & 0xFFFFu] & rem_mask(rem) & (0x3u | filter_[0][prefix_hash(w, filter_prefix[0])]) &
           (0x7u | filter_[1][prefix_hash(w, filter_prefix[1])]);
  }

  /// ANDs the 6-, 8- and 12-byte filters into `cand`, each only while a candidate that long is left
  /// (from filter `first`: 3 = the 8-byte one, when the caller has ANDed filter_mask(2, w) already).
  std::uint32_t long_filters(window const& w, std::uint32_t cand, int first = 2) const noexcept
  {
    for (int f = first; f < num_filters; ++f) {
      unsigned const k = filter_prefix[f];
      if (cand < (1u << (k - 1))) break;
      cand &= filter_mask(f, w);
    }
    return cand;
  }

  /// long_filters() with all three filters read unconditionally (no branch; the same mask).
  std::uint32_t all_long_filters(window const& w, std::uint32_t cand) const noexcept
  {
    for (int f = 2; f < num_filters; ++f) cand &= filter_mask(f, w);
    return cand;
  }

  /// Filter f (>= 2) as a mask of the lengths it leaves: the ones it does not cover always, the
  /// others where its entry has their bit. The 8- and 12-byte filters are byte tables (128 KiB
  /// less for OnPair-16, tables that the parse reads at random and that share the L2 cache with
  /// the buckets and cells: docs/notes/encoder-history-2026-11.md).
  std::uint32_t filter_mask(int f, window const& w) const noexcept
  {
    unsigned const k = filter_prefix[f];
    if (f < 3) return ((1u << (k - 1)) - 1) | filter_[f][prefix_hash(w, k)];
    if (k == 8) return 0x807Fu | (std::uint32_t{filter8_[0][prefix_hash(w, 8)]} << 7);
    return 0x07FFu | (std::uint32_t{filter8_[1][prefix_hash(w, 12)]} << 11);
  }

  /** @brief Second half: the longest match among `cand` (from candidates(w, rem)), as longest(). */
  std::pair<std::uint32_t, std::uint32_t> resolve(window const& w, std::uint32_t cand) const noexcept
  {
    std::uint32_t c = cand & ~3u;
    while (c != 0) {
      unsigned const len     = 32u - static_cast<unsigned>(count_leading_zeros(c));
      // The token's bytes by a table lookup, not a branch: which side of 8 bytes len lies on is
      // a coin flip on text with 65 536 tokens (docs/notes/encoder-history-2026-11.md).
      std::uint64_t const lo = w.lo & len_masks[len].lo;
      std::uint64_t const hi = w.hi & len_masks[len].hi;
      std::uint64_t const h   = token_hash(lo, hi, len);
      std::uint16_t const tag = tag_of(h, len);
      std::size_t b           = static_cast<std::size_t>(h >> bucket_shift_);
      // One test of all 8 entries of a bucket: no walk of single slots, whose "empty?" and "this
      // tag?" outcomes were mispredicted (docs/notes/encoder-history-2026-11.md).
      for (;;) {
        bucket const& bk = buckets_[b];
        std::uint32_t eq = bucket_match(bk, tag);
        while (eq != 0) {  // two bits per entry; almost always one entry
          unsigned const j   = static_cast<unsigned>(count_trailing_zeros(eq)) / 2;
          std::uint32_t const id = bk.id[j];
          window const& cl   = cells_[id];
          if (cl.lo == lo && cl.hi == hi) return {id, len};
          eq &= ~(3u << (2 * j));
        }
        if (bucket_match(bk, 0) != 0) break;  // a free entry: the token would be in this bucket
        b = (b + 1) & bucket_mask_;
      }
      c &= ~(1u << (len - 1));
    }
    if (cand & 2u) return {len2_[w.lo & 0xFFFFu] >> 16, 2};
    return {byte_id_[w.lo & 0xFFu], 1};
  }

  /** @brief The one-byte token's id (0xFFFFFFFF if absent). */
  std::uint32_t byte_id(std::uint8_t b) const noexcept { return byte_id_[b]; }

 private:
  /// A bucket of 8 slots: tag = (length << 11) | 11 hash bits, 0 = empty (length is never 0), and
  /// the token's id. The token bytes live in `cells_[id]`, read only when the tag agrees. Entries
  /// are filled in order and never removed; a token goes to the next bucket only when its own is full.
  static constexpr unsigned bucket_size = 8;
  struct alignas(32) bucket {
    std::uint16_t tag[bucket_size];
    std::uint16_t id[bucket_size];
  };
  /// Bits 2j and 2j+1 set if entry j of the bucket has tag `tag` (0: is empty).
  static std::uint32_t bucket_match(bucket const& bk, std::uint16_t tag) noexcept
  {
#if defined(FASTPAIR_LPM_SSE2)
    __m128i const v = _mm_load_si128(reinterpret_cast<__m128i const*>(bk.tag));
    __m128i const t = _mm_set1_epi16(static_cast<short>(tag));
    return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi16(v, t)));
#else
    std::uint32_t eq = 0;
    for (unsigned j = 0; j < bucket_size; ++j) eq |= std::uint32_t{bk.tag[j] == tag} * (3u << (2 * j));
    return eq;
#endif
  }
  static int count_trailing_zeros(std::uint32_t v) noexcept
  {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(v);
#else
    int n = 0;
    while (!(v & 1u)) {
      v >>= 1;
      ++n;
    }
    return n;
#endif
  }
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

  /// Bits of the lengths 1..rem (rem in 2..16), without a branch (on zh_text the "rem >= 16" branch
  /// was mispredicted on 7 % of lookups). Bit 0 (length 1) is never set in len2_, so ANDed with a
  /// len2_ entry this keeps exactly the lengths 2..rem.
  static std::uint32_t rem_mask(unsigned rem) noexcept { return rem_masks[rem]; }
  static constexpr std::uint16_t rem_masks[17] = {0x0001, 0x0001, 0x0003, 0x0007, 0x000F, 0x001F,
                                                  0x003F, 0x007F, 0x00FF, 0x01FF, 0x03FF, 0x07FF,
                                                  0x0FFF, 0x1FFF, 0x3FFF, 0x7FFF, 0xFFFF};

  /// Tag: the length and hash bits 39..49, below the bucket index (the top 14 bits for 65 536 tokens). Not
  /// the low bits: those of a product depend only on the low input bits, so tokens that differ only
  /// in later bytes (e.g. "Clerk#000000951", "Clerk#000000880") all had one tag.
  static std::uint16_t tag_of(std::uint64_t h, unsigned len) noexcept
  {
    return static_cast<std::uint16_t>((len << 11) | static_cast<std::uint32_t>((h >> 39) & 0x7FFu));
  }
  /// Hash of the first k bytes of a window into a filter table.
  std::size_t prefix_hash(window const& w, unsigned k) const noexcept
  {
    std::uint64_t const v = k >= 8 ? w.lo : (w.lo & low_bytes_mask(k));
    std::uint64_t const u = k > 8 ? (w.hi & low_bytes_mask(k - 8)) : 0;
    return static_cast<std::size_t>(((v ^ (u * 0xC2B2AE3D27D4EB4Full)) * 0xBF58476D1CE4E5B9ull) >> mask_shift_);
  }

  table_arena arena_;
  bucket* buckets_ = nullptr;
  window* cells_   = nullptr;  ///< by id (ids < max_tokens)
  std::size_t bucket_mask_ = 0;
  unsigned bucket_shift_   = 64;
  unsigned mask_shift_   = 64;
  /// Prefix lengths of the filter tables: filter f holds the lengths L >= filter_prefix[f] (8-byte
  /// filter: L <= 15) of the tokens, at the hash of their first filter_prefix[f] bytes.
  static constexpr int num_filters                  = 5;
  static constexpr unsigned filter_prefix[num_filters] = {3, 4, 6, 8, 12};
  /// By first 2 bytes: lengths present (bits 1..15; bit 1 exact) | id of the 2-byte token << 16
  /// (if bit 1 is set). One load gives both: the id is then in the line the lengths came from.
  std::uint32_t* len2_ = nullptr;
  std::uint16_t* filter_[3] = {};  ///< 3-, 4-, 6-byte prefixes (bit L-1)
  std::uint8_t* filter8_[2] = {};  ///< 8-byte (bit L-8, L in 8..15) and 12-byte (bit L-12) prefixes
  std::uint32_t byte_id_[256];
};

}  // namespace fastpair::detail
