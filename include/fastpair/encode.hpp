// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file encode.hpp
 * @brief Host encoders: dictionary training (OnPair-16, OnPair-12, FSST-12) and encoding of
 * Arrow-style string columns into a `compressed_column`.
 *
 * Host-only (compiles with g++ alone, C++17). Typical use:
 *
 * @code{.cpp}
 * fastpair::host_strings rows = fastpair::split_lines(text);
 * auto col = fastpair::compress(rows, fastpair::codec::onpair16);   // train + encode
 * fastpair::auto_choice why;
 * auto best = fastpair::encode_auto(rows, {}, &why);                 // smallest of the three
 * @endcode
 *
 * Determinism: for the same rows, codec and options (seed included) the dictionary and the column
 * are byte-identical on every platform: the row order comes from our own SplitMix64 + Fisher–Yates,
 * and every tie is broken by token bytes, never by hash-map iteration order.
 *
 * The algorithms, their deviations from the reference implementations, and measured throughput and
 * ratios are documented in docs/ENCODERS.md.
 */
#pragma once

#include <fastpair/detail/encode_common.hpp>
#include <fastpair/detail/encode_fsst12.hpp>
#include <fastpair/detail/encode_lpm.hpp>
#include <fastpair/error.hpp>
#include <fastpair/format.hpp>
#include <fastpair/validate.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace fastpair {

/** @brief How train_onpair numbers the tokens of the dictionary it returns. The order changes
 *  neither the parse nor the ratio; it changes where each token lies in the decoder's tables. */
enum class token_order : std::uint8_t {
  /** Descending number of uses when the training sample is parsed with the final dictionary; ties
   *  by unsigned bytes. Hot tokens share cache lines: on an H200, OnPair-16 zh_text, en_wiki and
   *  urls decode 23, 34 and 7 % faster (docs/DECODER.md, "Dictionary order"). The default. */
  frequency,
  /** Unsigned byte order, shorter first on a common prefix (the OnPair library's order). */
  bytes,
  /** Creation order: the one-byte token b has id b, merged tokens follow. */
  insertion,
};

/** @brief Options of dictionary training. The defaults follow the OnPair library (HEAD) and the
 *  FSST-12 FastPair used. */
struct train_options {
  /** @brief OnPair: training budget as a fraction of the input bytes (0 < f <= 1). The dynamic
   *  threshold aims to fill the dictionary by the time this many bytes have been scanned. */
  double sample_fraction = 0.15;
  /** @brief Seed of the row shuffle (OnPair: order of the scan; FSST-12: choice of sample rows). */
  std::uint64_t seed = 42;
  /** @brief FSST-12: bytes of whole rows in the training sample (an overlong last row is cut). */
  std::size_t fsst12_sample_bytes = std::size_t{1} << 20;
  /** @brief OnPair: 0 = dynamic threshold controller (default); 2..255 = fixed merge threshold
   *  with no byte budget (the whole shuffled input is scanned unless the dictionary fills). */
  int onpair_fixed_threshold = 0;
  /** @brief OnPair: how the final dictionary is numbered (see token_order). */
  token_order order = token_order::frequency;
};

namespace detail {

/** @brief OnPair's dynamic threshold controller (codecs.md §2.3). */
class threshold_controller {
 public:
  threshold_controller(std::uint64_t capacity, std::uint64_t budget) noexcept
    : capacity_(capacity),
      budget_(budget),
      interval_(std::max<std::uint64_t>(capacity / 128, 64)),
      next_(interval_)
  {
  }
  int threshold() const noexcept { return threshold_; }

  /** @brief Reports one created token after `scanned` bytes; may move the threshold by one. */
  void on_created(std::uint64_t scanned) noexcept
  {
    ++created_;
    if (created_ < next_) return;
    double const d_created = static_cast<double>(created_ - snap_created_);
    double const d_scanned = static_cast<double>(scanned - snap_scanned_);
    double const recent    = d_scanned > 0 ? d_created / d_scanned : 1e9;
    double const left_c    = capacity_ > created_ ? static_cast<double>(capacity_ - created_) : 1.0;
    double const left_b    = budget_ > scanned ? static_cast<double>(budget_ - scanned) : 1.0;
    double const ratio     = recent / (left_c / left_b);
    if (ratio > 2.0 && threshold_ < 255) ++threshold_;
    else if (ratio < 0.5) threshold_ = std::max(threshold_ - 1, 2);
    snap_created_ = created_;
    snap_scanned_ = scanned;
    next_         = created_ + interval_;
  }

 private:
  std::uint64_t capacity_, budget_, interval_, next_;
  std::uint64_t created_ = 0, snap_created_ = 0, snap_scanned_ = 0;
  int threshold_ = 2;
};

inline std::uint8_t const* bytes_of(strings_view rows) noexcept
{
  return reinterpret_cast<std::uint8_t const*>(rows.chars);
}
inline std::uint8_t const* end_of(strings_view rows) noexcept
{
  return rows.num_rows ? bytes_of(rows) + rows.offsets[rows.num_rows] : bytes_of(rows);
}

/**
 * @brief Builds a dictionary from fixed 16-byte token cells in creation order (`uses` empty) or by
 * unsigned bytes, first by descending `uses[id]` when that is given.
 */
inline dictionary finish_dictionary(std::vector<std::array<std::uint8_t, 16>> const& tok,
                                    std::vector<std::uint8_t> const& len, bool sort,
                                    std::vector<std::uint64_t> const& uses = {})
{
  std::vector<std::uint32_t> order(tok.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  if (sort) {
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      if (!uses.empty() && uses[a] != uses[b]) return uses[a] > uses[b];
      unsigned const n = std::min(len[a], len[b]);
      int const c      = std::memcmp(tok[a].data(), tok[b].data(), n);  // unsigned byte order
      return c != 0 ? c < 0 : len[a] < len[b];
    });
  }
  dictionary d;
  d.bytes.reserve(tok.size() * 8);
  d.offsets.reserve(tok.size() + 1);
  for (std::uint32_t id : order)
    d.push_back({reinterpret_cast<char const*>(tok[id].data()), len[id]});
  return d;
}

/**
 * @brief Greedy parse of all rows with `find(p, n) -> (code, length)` (n = bytes left in the row,
 * >= 1). Fills row_code[r + 1] (codes up to the end of row r; row_code[0] is the caller's) and
 * returns the number of codes.
 *
 * The rows are cut in two halves of about equal bytes, parsed in one loop, one code of each per
 * iteration: each code's lookup depends on the previous code's length, and two independent chains
 * let the core overlap their latencies (FSST-12 on text columns: +10..25 %; on log columns, whose
 * code lengths the branch predictor learns, −10..25 %, still far above target;
 * docs/notes/encoder-history-2026-11.md).
 * The first half's codes go to codes[0..), the second half's to codes[bytes of the first half..)
 * (a row never has more codes than bytes) and are moved down at the end.
 */
template <class Find>
std::uint64_t parse_rows(strings_view rows, std::uint8_t const* chars, std::uint16_t* codes,
                         std::uint64_t* row_code, Find&& find)
{
  std::size_t const n_rows = rows.num_rows;
  if (n_rows == 0) return 0;
  std::uint64_t const base = rows.offsets[0];
  // Split at the row where half of the bytes have been seen.
  std::uint64_t const half = base + (rows.offsets[n_rows] - base) / 2;
  std::size_t const mid =
    static_cast<std::size_t>(std::lower_bound(rows.offsets, rows.offsets + n_rows, half) - rows.offsets);
  struct stream {
    std::uint8_t const* p;  // next byte
    std::uint8_t const* e;  // end of the current row
    std::size_t r;          // current row
    std::size_t r_end;      // one past the last row
    std::uint64_t m;        // codes written (absolute index into codes)
  };
  auto start = [&](std::size_t r, std::size_t r_end, std::uint64_t m) {
    stream s{chars + rows.offsets[r], chars + rows.offsets[r], r, r_end, m};
    if (r < r_end) s.e = chars + rows.offsets[r + 1];
    return s;
  };
  // Advances past finished (and empty) rows; false when the stream has no bytes left.
  auto settle = [&](stream& s, std::uint64_t shift) {
    while (s.p == s.e) {
      if (s.r >= s.r_end) return false;
      row_code[s.r + 1] = s.m - shift;
      if (++s.r >= s.r_end) return false;
      s.e = chars + rows.offsets[s.r + 1];
    }
    return true;
  };
  auto step = [&](stream& s) {
    auto const t = find(s.p, static_cast<std::size_t>(s.e - s.p));
    codes[s.m++] = static_cast<std::uint16_t>(t.first);
    s.p += t.second;
  };
  std::uint64_t const b_at = rows.offsets[mid] - base;
  stream a = start(0, mid, 0);
  stream b = start(mid, n_rows, b_at);
  // row_code of the second half is written relative to b_at and fixed up below.
  bool live_a = settle(a, 0), live_b = settle(b, b_at);
  while (live_a & live_b) {
    step(a);
    step(b);
    live_a = settle(a, 0);
    live_b = settle(b, b_at);
  }
  while (live_a) {
    step(a);
    live_a = settle(a, 0);
  }
  while (live_b) {
    step(b);
    live_b = settle(b, b_at);
  }
  std::uint64_t const m_a = a.m;
  std::uint64_t const m_b = b.m - b_at;
  if (m_b) std::memmove(codes + m_a, codes + b_at, m_b * sizeof(std::uint16_t));
  for (std::size_t r = mid; r < n_rows; ++r) row_code[r + 1] += m_a;
  return m_a + m_b;
}

/// How the OnPair parse reads the 6/8/12-byte filters (lpm_parse_rows; the codes never depend on it).
enum class lpm_long_mode {
  some,   ///< each only while a candidate that long is left (`long_filters`)
  six,    ///< the 6-byte filter always, the 8/12-byte ones only while needed
  all     ///< all three, unconditionally (`all_long_filters`)
};

/// What lpm_parse_span counts to choose the mode (positions, those with a candidate of >= 6 bytes
/// after the short filters, and changes of that outcome from one position to the next).
struct lpm_span_stats {
  std::uint64_t lookups = 0, long_ = 0, flips = 0;
};

/**
 * @brief lpm_parse_rows for rows [r, r_end), with the long filters read as `Mode` says; counts
 * `stats` only when `Stats` (the loop without counters is the one that runs on most bytes).
 * @return the number of codes after these rows (m on entry plus theirs)
 */
template <lpm_long_mode Mode, bool Stats>
std::uint64_t lpm_parse_span(strings_view rows, std::size_t r, std::size_t r_end, std::uint8_t const* chars,
                             std::uint8_t const* end, lpm_matcher const& matcher, std::uint16_t* codes,
                             std::uint64_t m, std::uint64_t* row_code, lpm_span_stats& stats)
{
  std::uint32_t prev_long = 0;
  for (; r < r_end; ++r) {
    std::uint8_t const* p = chars + rows.offsets[r];
    std::size_t n         = static_cast<std::size_t>(rows.offsets[r + 1] - rows.offsets[r]);
    while (n >= 2) {
      window const w     = load_window(p, end);
      std::uint32_t cand = matcher.short_candidates(w, n < 16 ? unsigned(n) : 16u);
      if constexpr (Stats) {
        std::uint32_t const is_long = cand >= (1u << 5);  // a candidate of >= 6 bytes is left
        stats.long_ += is_long;
        stats.flips += is_long ^ prev_long;
        prev_long = is_long;
        ++stats.lookups;
      }
      if constexpr (Mode == lpm_long_mode::all) cand = matcher.all_long_filters(w, cand);
      else if constexpr (Mode == lpm_long_mode::six)
        cand = matcher.long_filters(w, cand & matcher.filter_mask(2, w), 3);
      else cand = matcher.long_filters(w, cand);
      auto const t = matcher.resolve(w, cand);
      codes[m++]   = static_cast<std::uint16_t>(t.first);
      p += t.second;
      n -= t.second;
    }
    if (n == 1) codes[m++] = static_cast<std::uint16_t>(matcher.byte_id(*p));
    row_code[r + 1] = m;
  }
  return m;
}

/**
 * @brief The OnPair (exact longest-prefix match) parse of all rows with `matcher`: fills
 * row_code[r + 1] like parse_rows and returns the number of codes. Same codes as calling
 * matcher.longest() at every position; the filter modes below choose only how fast.
 *
 * One sequential pass. Each position's candidate lengths are the 2-byte mask ANDed with the 3- and
 * 4-byte filters, read without a branch (`lpm_matcher::short_candidates`: three independent loads),
 * then the 6/8/12-byte filters and the slot probes (`resolve`). The 6/8/12-byte filters are read
 * in one of three ways (`lpm_long_mode`), chosen per segment of `segment_bytes` of rows from its
 * first `sample_bytes` (parsed by a loop that also counts, in the previous segment's mode; the
 * rest of the segment by a loop without counters). With `long` = the position has a candidate of
 * >= 6 bytes after the short filters:
 * - `all` where at least 45 % of the positions are long: all three filters, unconditionally (their
 *   loads overlap, and the branches "is a candidate this long left?" would be mispredicted often);
 * - `six` where fewer are long but `long` looks random: it changes from one position to the next
 *   at >= 20 % of the positions and at >= 0.8 times the rate 2p(1-p) of independent positions
 *   (p = the long share). That is text with OnPair-12 (zh_text, en_wiki, code_lines: 0.87-0.91
 *   times). The 6-byte filter is read unconditionally there (a branch on `long` would be
 *   mispredicted often), the 8- and 12-byte filters only while a candidate that long is left
 *   (after the 6-byte filter few are, predictably). On urls and log_android (0.71-0.73 times on
 *   average, their branch predictable enough) this mode was slower, and so was reading all three
 *   filters on the text columns;
 * - `some` otherwise: each filter only while such a candidate is left (few loads and no extra
 *   work on short-token data such as tpch_c_address, where those branches are predictable).
 * The counts are those of the samples, halved at every segment (so a change in the data shows
 * within a few segments). The choice depends only on the data, so it is deterministic, and it does
 * not change the codes. The alternatives measured before it (a per-block prefilter pass, a
 * software-pipelined loop, counters at every position) are in docs/notes/encoder-history-2026-11.md.
 */
inline std::uint64_t lpm_parse_rows(strings_view rows, std::uint8_t const* chars, std::uint8_t const* end,
                                    lpm_matcher const& matcher, std::uint16_t* codes, std::uint64_t* row_code)
{
  constexpr std::uint64_t segment_bytes = 32768;
  constexpr std::uint64_t sample_bytes  = 4096;
  std::size_t const n_rows              = rows.num_rows;

  // The first row r' >= r whose start lies at least `bytes` after row r's (n_rows if none).
  auto rows_after = [&](std::size_t r, std::uint64_t bytes) {
    std::uint64_t const* const o = rows.offsets;
    return static_cast<std::size_t>(std::lower_bound(o + r, o + n_rows, o[r] + bytes) - o);
  };
  auto parse = [&](auto stats_tag, lpm_long_mode mode, std::size_t r, std::size_t r_end, std::uint64_t m,
                   lpm_span_stats& st) {
    constexpr bool stats = decltype(stats_tag)::value;
    switch (mode) {
      case lpm_long_mode::all:
        return lpm_parse_span<lpm_long_mode::all, stats>(rows, r, r_end, chars, end, matcher, codes, m, row_code, st);
      case lpm_long_mode::six:
        return lpm_parse_span<lpm_long_mode::six, stats>(rows, r, r_end, chars, end, matcher, codes, m, row_code, st);
      default:
        return lpm_parse_span<lpm_long_mode::some, stats>(rows, r, r_end, chars, end, matcher, codes, m, row_code, st);
    }
  };

  std::uint64_t m    = 0;
  lpm_long_mode mode = lpm_long_mode::all;
  lpm_span_stats st;
  for (std::size_t r = 0; r < n_rows;) {
    std::size_t const r_sampled = std::max(r + 1, rows_after(r, sample_bytes));
    st.lookups /= 2;
    st.long_ /= 2;
    st.flips /= 2;
    m    = parse(std::true_type{}, mode, r, r_sampled, m, st);
    std::uint64_t const n = st.lookups, l = st.long_, f = st.flips;
    // all: >= 45 % long; six: flips >= 20 % and f/n >= 0.8 * 2 (l/n) (1 - l/n); else some.
    mode = 20 * l >= 9 * n                              ? lpm_long_mode::all
           : 5 * f >= n && 5 * f * n >= 8 * l * (n - l) ? lpm_long_mode::six
                                                       : lpm_long_mode::some;
    std::size_t const r_next = std::max(r_sampled, rows_after(r, segment_bytes));
    m = parse(std::false_type{}, mode, r_sampled, r_next, m, st);
    r = r_next;
  }
  return m;
}

/**
 * @brief compute_sidecar() of an encoder's output, from its row offsets: a row's codes cover
 * exactly its bytes, so code c of row r starts at row_byte[r] plus the lengths of the row's codes
 * before c. Only the codes from the start of a row holding a multiple of `stride` up to that
 * multiple are summed (on text a few per cent of the codes instead of all, never more than all),
 * and the rows are found by binary search. Same result as compute_sidecar(codes, n, token_length,
 * stride).
 */
inline std::vector<std::uint64_t> sidecar_from_rows(std::uint16_t const* codes, std::uint64_t n, std::size_t n_rows,
                                                    std::uint64_t const* row_code, std::uint64_t const* row_byte,
                                                    std::uint32_t const* token_length, std::uint32_t stride)
{
  std::vector<std::uint64_t> out;
  out.reserve((n + stride - 1) / stride);
  std::size_t r     = 0;
  std::uint64_t i   = 0;  // cursor: code i starts at byte pos
  std::uint64_t pos = 0;
  for (std::uint64_t c = 0; c < n; c += stride) {
    // The row holding code c (c < n = row_code[n_rows]): the last r with row_code[r] <= c, found
    // by binary search (on columns of short rows there are far more rows than sidecar entries).
    r = static_cast<std::size_t>(std::upper_bound(row_code + r + 1, row_code + n_rows + 1, c) - row_code) - 1;
    if (row_code[r] > i) {             // the cursor is in an earlier row: jump to this row's start
      i   = row_code[r];
      pos = row_byte[r];
    }
    for (; i < c; ++i) pos += token_length[codes[i]];
    out.push_back(pos);
  }
  return out;
}
}  // namespace detail

/**
 * @brief Trains an OnPair dictionary (codecs.md §2.2): one greedy pass over the rows in a seeded
 * shuffled order, longest-prefix-match parse against the growing dictionary, 8-bit saturating
 * counts of adjacent (previous, current) token pairs within a row, and a merge into a new token
 * (used at once as the next "previous") when a pair's count reaches the threshold. Tokens are at
 * most 16 bytes. The threshold is the dynamic controller of §2.3 (start 2, range 2..255) aiming to
 * fill 2^bits tokens within `sample_fraction` of the input bytes, unless
 * `opt.onpair_fixed_threshold` is set.
 *
 * @param rows input strings (empty rows are fine; rows are never merged across)
 * @param bits 12 (OnPair-12, 4 096 tokens) or 16 (OnPair-16, 65 536 tokens)
 * @return a dictionary with all 256 one-byte tokens and unique tokens of 1..16 bytes, numbered
 *         as `opt.order` says (default: by descending use in the training sample, which costs
 *         one more parse of the sampled rows)
 * @throw logic_error if bits is not 12 or 16 or the options are out of range
 */
inline dictionary train_onpair(strings_view rows, int bits, train_options const& opt = {})
{
  FASTPAIR_EXPECTS(bits == 12 || bits == 16, "train_onpair: bits must be 12 or 16");
  FASTPAIR_EXPECTS(opt.sample_fraction > 0.0 && opt.sample_fraction <= 1.0,
                   "train_onpair: sample_fraction must be in (0, 1]");
  FASTPAIR_EXPECTS(opt.onpair_fixed_threshold == 0 ||
                     (opt.onpair_fixed_threshold >= 2 && opt.onpair_fixed_threshold <= 255),
                   "train_onpair: onpair_fixed_threshold must be 0 (dynamic) or 2..255");
  std::uint32_t const cap = std::uint32_t{1} << bits;

  detail::lpm_matcher matcher(cap);
  std::vector<std::array<std::uint8_t, 16>> tok;
  std::vector<std::uint8_t> len;
  tok.reserve(cap);
  len.reserve(cap);
  for (std::uint32_t b = 0; b < 256; ++b) {
    std::array<std::uint8_t, 16> t{};
    t[0] = static_cast<std::uint8_t>(b);
    tok.push_back(t);
    len.push_back(1);
    matcher.insert(t.data(), 1, b);
  }

  std::uint64_t const total = rows.total_bytes();
  bool const dynamic        = opt.onpair_fixed_threshold == 0;
  std::uint64_t const budget =
    dynamic ? static_cast<std::uint64_t>(std::floor(static_cast<double>(total) * opt.sample_fraction))
            : total;
  detail::threshold_controller ctl(cap - 256, budget);
  int threshold = dynamic ? ctl.threshold() : opt.onpair_fixed_threshold;

  std::uint8_t const* const chars = detail::bytes_of(rows);
  std::uint8_t const* const end   = detail::end_of(rows);
  auto const order                = detail::seeded_permutation(rows.num_rows, opt.seed);
  detail::u32_count_map counts(1u << 16);
  std::uint64_t scanned = 0;
  bool done             = false;

  std::size_t k = 0;
  for (; k < order.size() && !done; ++k) {
    std::uint64_t const r       = order[k];
    std::uint8_t const* const p = chars + rows.offsets[r];
    std::size_t const n         = static_cast<std::size_t>(rows.offsets[r + 1] - rows.offsets[r]);
    if (n == 0) continue;
    auto m             = matcher.longest(detail::load_window(p, end), n < 16 ? unsigned(n) : 16u);
    std::uint32_t pid  = m.first;
    std::uint32_t plen = m.second;
    scanned += plen;
    if (scanned > budget) break;
    std::size_t pos = plen;
    while (pos < n) {
      std::size_t const rem = n - pos;
      auto const c = matcher.longest(detail::load_window(p + pos, end), rem < 16 ? unsigned(rem) : 16u);
      scanned += c.second;
      if (scanned > budget) {
        done = true;
        break;
      }
      if (plen + c.second <= 16) {
        std::uint32_t const key = (pid << 16) | c.first;
        std::uint32_t& cnt      = counts.add(key, 1);
        if (cnt > 255) cnt = 255;  // 8-bit saturating counter
        if (static_cast<int>(cnt) >= threshold) {
          counts.erase(key);
          unsigned const new_len = plen + c.second;
          std::array<std::uint8_t, 16> t{};
          std::memcpy(t.data(), p + pos - plen, new_len);
          auto const id = static_cast<std::uint32_t>(tok.size());
          if (matcher.insert(t.data(), new_len, id)) {  // never a duplicate (codecs.md §2.2); checked anyway
            tok.push_back(t);
            len.push_back(static_cast<std::uint8_t>(new_len));
            if (tok.size() == cap) {
              done = true;
              break;
            }
            if (dynamic) {
              ctl.on_created(scanned);
              threshold = ctl.threshold();
            }
            pid  = id;
            plen = new_len;
            pos += c.second;
            continue;
          }
        }
      }
      pid  = c.first;
      plen = c.second;
      pos += c.second;
    }
  }
  if (opt.order != token_order::frequency) return detail::finish_dictionary(tok, len, opt.order == token_order::bytes);
  // Uses of each token when the rows scanned above (order[0, k)) are parsed with the final
  // dictionary: an estimate of the column's code frequencies for token_order::frequency.
  std::vector<std::uint64_t> uses(tok.size(), 0);
  for (std::size_t i = 0; i < k; ++i) {
    std::uint64_t const r       = order[i];
    std::uint8_t const* const p = chars + rows.offsets[r];
    std::size_t const n         = static_cast<std::size_t>(rows.offsets[r + 1] - rows.offsets[r]);
    for (std::size_t pos = 0; pos < n;) {
      std::size_t const rem = n - pos;
      auto const c          = matcher.longest(detail::load_window(p + pos, end), rem < 16 ? unsigned(rem) : 16u);
      ++uses[c.first];
      pos += c.second;
    }
  }
  return detail::finish_dictionary(tok, len, true, uses);
}

/**
 * @brief Trains an FSST-12 symbol table (codecs.md §5.5, the generation schedule of the FSST-12
 * FastPair used): a sample of at most `opt.fsst12_sample_bytes` of whole rows in seeded random
 * order; five generations at sample fractions 8, 38, 68, 98, 128 (of 128), each greedily encoding
 * the selected sample rows with the current table, counting codes and adjacent code pairs, then
 * rebuilding the table from candidates (existing symbols, gain count·length; concatenations of at
 * most 8 bytes while the fraction is < 128, gain pair count·length) in order of descending gain,
 * then length, then bytes. At most 3 840 learned symbols of 2..8 bytes; a symbol of >= 3 bytes
 * whose 3-byte-prefix slot (8 192 slots; the Rust builder has 2 048) is taken is rejected.
 *
 * @return a dictionary where code b < 256 is the byte b, learned symbols follow from code 256
 */
inline dictionary train_fsst12(strings_view rows, train_options const& opt = {})
{
  FASTPAIR_EXPECTS(opt.fsst12_sample_bytes > 0, "train_fsst12: fsst12_sample_bytes must be positive");
  std::uint8_t const* const chars = detail::bytes_of(rows);
  std::uint64_t const total       = rows.total_bytes();

  // Sample: whole non-empty rows in seeded order, up to the target (an overlong last row is cut).
  std::vector<std::uint8_t> sample;
  std::vector<std::size_t> line_off{0};
  {
    auto const order = detail::seeded_permutation(rows.num_rows, opt.seed ^ 0x46535354ull);
    sample.reserve(std::min<std::uint64_t>(total, opt.fsst12_sample_bytes) + 8);
    for (std::uint64_t r : order) {
      if (sample.size() >= opt.fsst12_sample_bytes) break;
      std::size_t const n = static_cast<std::size_t>(rows.offsets[r + 1] - rows.offsets[r]);
      if (n == 0) continue;
      std::size_t const take = std::min(n, opt.fsst12_sample_bytes - sample.size());
      sample.insert(sample.end(), chars + rows.offsets[r], chars + rows.offsets[r] + take);
      line_off.push_back(sample.size());
    }
  }
  std::size_t const lines = line_off.size() - 1;
  std::uint8_t const* const s_end = sample.data() + sample.size();
  bool const whole_input          = total < opt.fsst12_sample_bytes;

  detail::fsst12_table table;
  std::vector<std::uint32_t> count1(detail::fsst12_table::max_codes);
  detail::u32_count_map count2(1u << 16);
  struct candidate {
    std::uint64_t val;
    std::uint64_t gain;
    unsigned len;
  };
  std::vector<candidate> cands;

  for (int frac : {8, 38, 68, 98, 128}) {
    bool const last  = frac == 128;
    std::fill(count1.begin(), count1.end(), 0u);
    count2.clear();
    for (std::size_t i = 0; i < lines; ++i) {
      if (frac < 128 && static_cast<int>(detail::mix64(i) & 127) > frac) continue;
      std::uint8_t const* p = sample.data() + line_off[i];
      std::size_t n         = line_off[i + 1] - line_off[i];
      std::uint32_t prev    = 0xFFFFFFFFu;
      while (n > 0) {
        std::uint64_t x;
        if (s_end - p >= 8) std::memcpy(&x, p, 8);
        else {
          x = 0;
          std::memcpy(&x, p, static_cast<std::size_t>(s_end - p));
        }
        auto const m = table.find(x, n);
        ++count1[m.first];
        if (m.second > 1) ++count1[p[0]];
        if (!last && prev != 0xFFFFFFFFu) {
          count2.add((prev << 12) | m.first);
          if (m.second > 1) count2.add((prev << 12) | p[0]);
        }
        prev = m.first;
        p += m.second;
        n -= m.second;
      }
    }

    // Candidates, gains summed over duplicates.
    bool const prune             = last && whole_input;
    std::uint64_t const min_count = prune ? 1 : std::max<std::uint64_t>(1, 5 * static_cast<std::uint64_t>(frac) / 128);
    cands.clear();
    for (std::size_t c = 256; c < table.size(); ++c)
      if (count1[c] >= min_count) cands.push_back({table.value(c), std::uint64_t{count1[c]} * table.length(c), table.length(c)});
    if (!last) {
      count2.for_each([&](std::uint32_t key, std::uint32_t cnt) {
        if (cnt < min_count) return;
        std::uint32_t const a = key >> 12, b = key & 0xFFFu;
        unsigned const la = table.length(a), lb = table.length(b);
        if (la + lb > 8) return;
        std::uint64_t const v = table.value(a) | (table.value(b) << (8 * la));
        cands.push_back({v, std::uint64_t{cnt} * (la + lb), la + lb});
      });
    }
    std::sort(cands.begin(), cands.end(), [](candidate const& a, candidate const& b) {
      return a.len != b.len ? a.len < b.len : a.val < b.val;
    });
    std::size_t w = 0;
    for (std::size_t i = 0; i < cands.size(); ++i) {
      if (w > 0 && cands[w - 1].len == cands[i].len && cands[w - 1].val == cands[i].val)
        cands[w - 1].gain += cands[i].gain;
      else
        cands[w++] = cands[i];
    }
    cands.resize(w);
    if (prune)
      cands.erase(std::remove_if(cands.begin(), cands.end(),
                                 [](candidate const& c) { return c.gain <= c.len + 1; }),
                  cands.end());
    std::sort(cands.begin(), cands.end(), [](candidate const& a, candidate const& b) {
      if (a.gain != b.gain) return a.gain > b.gain;
      if (a.len != b.len) return a.len > b.len;
      return detail::byte_swap64(a.val) < detail::byte_swap64(b.val);
    });
    table.reset();
    for (candidate const& c : cands) {
      if (table.size() >= detail::fsst12_table::max_codes) break;
      table.add(c.val, c.len);
    }
  }
  return table.to_dictionary();
}

/** @brief Trains a dictionary for `kind` (dispatches to train_onpair or train_fsst12). */
inline dictionary train(strings_view rows, codec kind, train_options const& opt = {})
{
  switch (kind) {
    case codec::onpair16: return train_onpair(rows, 16, opt);
    case codec::onpair12: return train_onpair(rows, 12, opt);
    case codec::fsst12: return train_fsst12(rows, opt);
  }
  throw logic_error("fastpair: train: unknown codec");
}

/**
 * @brief Encodes rows with one dictionary, as often as needed: the dictionary is validated and its
 * lookup tables are built once, in the constructor (≈ 5 ms for 65 536 tokens), instead of in every
 * call. Use it for a column written in chunks (row groups) with a shared dictionary. encode() is
 * const and reads only the tables, so several threads may call it on one encoder at once.
 *
 * Per row, greedy longest-prefix matching (tokens never span rows); codes packed at
 * code_bits(kind), row code/byte offsets and the sidecar. Matching is exact longest-prefix match
 * for all codecs. For FSST-12 dictionaries whose symbols fit the lossy 3-byte-prefix table (every
 * table train_fsst12 returns), FSST's greedy matcher is used, which on such tables returns the
 * same code as longest-prefix match, only faster.
 *
 * @code{.cpp}
 * fastpair::encoder const enc(fastpair::codec::onpair16, fastpair::train(sample, fastpair::codec::onpair16));
 * for (auto const& group : row_groups) write(enc.encode(group));
 * @endcode
 */
class encoder {
 public:
  /** @throw format_error if `dict` is not valid for `kind`. */
  encoder(codec kind, dictionary dict) : kind_(kind), dict_(std::move(dict))
  {
    if (kind_ == codec::fsst12) {  // the FSST table (≈ 150 KiB to fill) only where it can be used
      validate_dictionary(kind_, dict_);
      auto t = std::make_unique<detail::fsst12_table>();
      if (t->assign(dict_)) {
        fsst_ = std::move(t);
        return;
      }
    } else {
      // The matcher finds duplicate tokens as it is built (insert() returns false), so the
      // validation's own hash set of the tokens is skipped here: ≈ 1 % of a one-shot encode().
      detail::validate_dictionary_shape(kind_, dict_);
    }
    matcher_ = std::make_unique<detail::lpm_matcher>(dict_.size());
    std::uint8_t const* const dict_end = dict_.bytes.data() + dict_.bytes.size();
    for (std::size_t i = 0; i < dict_.size(); ++i)
      if (!matcher_->insert(dict_.data(i), dict_.length(i), static_cast<std::uint32_t>(i), dict_end))
        detail::fail_format("dictionary token " + detail::u64s(i), "duplicate token");
  }

  codec kind() const noexcept { return kind_; }
  dictionary const& dict() const noexcept { return dict_; }

  /**
   * @brief Encodes `rows` (the column's decoded bytes are rows.chars[offsets[0], offsets[n])).
   * @param sidecar_stride codes per sidecar batch (> 0)
   */
  compressed_column encode(strings_view rows, std::uint32_t sidecar_stride = default_sidecar_stride) const
  {
    FASTPAIR_EXPECTS(sidecar_stride > 0, "encode: sidecar_stride must be positive");
    compressed_column col;
    col.kind           = kind_;
    col.dict           = dict_;
    col.sidecar_stride = sidecar_stride;

    std::size_t const n_rows        = rows.num_rows;
    std::uint64_t const total       = rows.total_bytes();
    std::uint8_t const* const chars = detail::bytes_of(rows);
    std::uint8_t const* const end   = detail::end_of(rows);
    std::uint64_t const base        = n_rows ? rows.offsets[0] : 0;
    col.row_code_offsets.resize(n_rows + 1);
    col.row_byte_offsets.resize(n_rows + 1);
    col.row_code_offsets[0] = 0;
    col.row_byte_offsets[0] = 0;
    std::unique_ptr<std::uint16_t[]> codes(new std::uint16_t[total + 1]);
    std::uint64_t m = 0;

    for (std::size_t r = 0; r < n_rows; ++r) col.row_byte_offsets[r + 1] = rows.offsets[r + 1] - base;

    if (!matcher_) {
      m = detail::parse_rows(rows, chars, codes.get(), col.row_code_offsets.data(),
                             [&](std::uint8_t const* p, std::size_t n) {
                               std::uint64_t x;
                               if (end - p >= 8) std::memcpy(&x, p, 8);
                               else {
                                 x = 0;
                                 std::memcpy(&x, p, static_cast<std::size_t>(end - p));
                               }
                               return fsst_->find(x, n);
                             });
    } else {
      m = detail::lpm_parse_rows(rows, chars, end, *matcher_, codes.get(), col.row_code_offsets.data());
    }

    col.num_codes = m;
    col.codes     = pack_codes(kind_, codes.get(), m);
    std::vector<std::uint32_t> tlen(dict_.size());
    for (std::size_t i = 0; i < tlen.size(); ++i) tlen[i] = dict_.length(i);
    col.sidecar = detail::sidecar_from_rows(codes.get(), m, n_rows, col.row_code_offsets.data(), col.row_byte_offsets.data(),
                                            tlen.data(), sidecar_stride);
    return col;
  }

 private:
  codec kind_;
  dictionary dict_;
  std::unique_ptr<detail::fsst12_table> fsst_;    ///< FSST-12 fast path (when the table fits)
  std::unique_ptr<detail::lpm_matcher> matcher_;  ///< exact LPM otherwise
};

/**
 * @brief Encodes rows with a given dictionary: `encoder(kind, dict).encode(rows, sidecar_stride)`
 * (validates the dictionary and builds its tables on every call; keep an encoder to encode
 * several row groups with one dictionary).
 * @throw format_error if `dict` is not valid for `kind`
 */
inline compressed_column encode(strings_view rows, codec kind, dictionary const& dict,
                                std::uint32_t sidecar_stride = default_sidecar_stride)
{
  return encoder(kind, dict).encode(rows, sidecar_stride);
}

/**
 * @brief Renumbers a column's tokens by descending code frequency (ties: the old id), so that the
 * most used tokens get the smallest ids. The decoded bytes, row offsets and sidecar do not change.
 * FSST-12 keeps codes 0..255 (the byte literals, fixed by the format) and orders 256..N-1.
 *
 * The column is validated first (it may come from a file or another encoder): @throw format_error.
 *
 * Why: the GPU decoder gathers one dictionary entry per code. With hot tokens packed into a few
 * cache lines at the start of the planes, a warp's 32 gathers touch fewer distinct lines and hit
 * L1 more often (docs/DECODER.md, "Dictionary order").
 */
inline compressed_column order_tokens_by_frequency(compressed_column const& col)
{
  validate(col);
  std::size_t const n = col.dict.size();
  auto codes          = unpack_codes(col);
  std::vector<std::uint64_t> count(n, 0);
  for (std::uint16_t c : codes) ++count[c];
  std::size_t const fixed = col.kind == codec::fsst12 ? std::min<std::size_t>(256, n) : 0;
  std::vector<std::uint32_t> order(n);  // order[new id] = old id
  for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<std::uint32_t>(i);
  std::stable_sort(order.begin() + static_cast<std::ptrdiff_t>(fixed), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return count[a] > count[b]; });
  std::vector<std::uint16_t> new_id(n);
  compressed_column out = col;
  out.dict              = dictionary{};
  out.dict.bytes.reserve(col.dict.bytes.size());
  out.dict.offsets.reserve(n + 1);
  for (std::size_t i = 0; i < n; ++i) {
    new_id[order[i]] = static_cast<std::uint16_t>(i);
    out.dict.push_back(col.dict.token(order[i]));
  }
  for (auto& c : codes) c = new_id[c];  // in range: validated
  out.codes = pack_codes(col.kind, codes.data(), codes.size());
  return out;
}

/** @brief Trains a dictionary for `kind` on `rows` and encodes them: encode(rows, kind, train(...)). */
inline compressed_column compress(strings_view rows, codec kind, train_options const& opt = {})
{
  return encode(rows, kind, train(rows, kind, opt));
}

/** @brief What encode_auto chose, and why. */
struct auto_choice {
  codec kind = codec::onpair16;  ///< the chosen codec
  stored_size size;              ///< its stored size
  std::string reason;            ///< the with-rows stored size of every candidate and the rule
};

/**
 * @brief Compresses `rows` with OnPair-16, OnPair-12 and FSST-12 and returns the column with the
 * smallest stored size *including row metadata* (`column_stored_size(col).with_rows()`: dictionary
 * + packed codes + sidecar + row offsets). Ties go to the earlier of FSST-12, OnPair-12, OnPair-16
 * (the cheaper to decode). A 65 536-entry dictionary often costs more than it saves on small or
 * high-entropy columns, which this catches.
 * @param choice if not null, receives the chosen codec, its size and a one-line reason listing the
 *               sizes of all three candidates
 */
inline compressed_column encode_auto(strings_view rows, train_options const& opt = {},
                                     auto_choice* choice = nullptr)
{
  codec const kinds[] = {codec::fsst12, codec::onpair12, codec::onpair16};
  compressed_column best;
  stored_size best_size;
  bool have = false;
  std::string sizes;
  for (codec k : kinds) {
    compressed_column col = compress(rows, k, opt);
    stored_size const s   = column_stored_size(col);
    if (!sizes.empty()) sizes += ", ";
    sizes += std::string(codec_name(k)) + " " + std::to_string(s.with_rows()) + " B";
    if (!have || s.with_rows() < best_size.with_rows()) {
      best      = std::move(col);
      best_size = s;
      have      = true;
    }
  }
  if (choice) {
    choice->kind   = best.kind;
    choice->size   = best_size;
    choice->reason = std::string(codec_name(best.kind)) + ": smallest stored size with row metadata (" +
                     sizes + "; input " + std::to_string(rows.total_bytes()) + " B)";
  }
  return best;
}

}  // namespace fastpair
