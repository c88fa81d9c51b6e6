// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file predicates.hpp
 * @brief Host reference of predicates evaluated on the compressed form (issue 8, item 2) and the
 * three selection representations they produce. Nothing here decodes a row.
 *
 * Host-only (compiles with g++ alone, C++17). The GPU versions are in predicates.cuh; this header
 * is their oracle and their blueprint (docs/PREDICATES.md):
 *
 * @code{.text}
 *  selection            sorted row ids                       ("Index" encoding of the seed paper)
 *  selection_bitmask    u64 words, bit r of word r/64 = row r  ("Plain" boolean column)
 *  selection_ranges     sorted half-open [begin, end) runs     ("RLE" of the mask)
 *
 *  select_equal / select_in       encode the literal(s) with the column's dictionary (encode()),
 *                                 compare byte length, code count, then codes
 *  select_equal_bytes             compare token bytes against the literal (any parse)
 *  select_prefix / _substring /   a byte automaton of the pattern (prefix chain or KMP), lifted to
 *  _suffix (LIKE 'p%', '%p%',     a token table T[code][state] = state after the token's bytes;
 *  '%p')                          a row is one lookup per code
 *  select_like_chunked            the same, with the code stream cut into fixed chunks (as GPU
 *                                 threads would): per-chunk state maps, combined by a scan
 * @endcode
 *
 * Preconditions: the column is valid (validate() it if untrusted); only O(1) size checks are made.
 * select_equal / select_in also need the column's codes to be the parse `encode()` produces for
 * its dictionary (true for every column this library encodes; check a foreign one with
 * has_canonical_parse(), or use select_equal_bytes).
 */
#pragma once

#include <fastpair/encode.hpp>
#include <fastpair/error.hpp>
#include <fastpair/format.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace fastpair {

// -------------------------------------------------------------------------------------------------
// Selections
// -------------------------------------------------------------------------------------------------

/** @brief Selected rows as strictly increasing row ids (the seed paper's "Index" encoding). */
struct selection {
  std::vector<std::uint64_t> rows;
  friend bool operator==(selection const& a, selection const& b) { return a.rows == b.rows; }
};

/** @brief Selected rows as a bitmask: bit (r % 64) of words[r / 64] is row r; ceil(num_rows/64)
 *  words; bits at or past num_rows are zero. */
struct selection_bitmask {
  std::vector<std::uint64_t> words;
  std::uint64_t num_rows = 0;

  selection_bitmask() = default;
  /** @brief An all-clear mask over `n` rows. */
  explicit selection_bitmask(std::uint64_t n) : words((n + 63) / 64, 0), num_rows(n) {}
  bool test(std::uint64_t r) const noexcept { return (words[r >> 6] >> (r & 63)) & 1u; }
  void set(std::uint64_t r) noexcept { words[r >> 6] |= std::uint64_t{1} << (r & 63); }
  /** @brief Number of selected rows. */
  std::uint64_t count() const noexcept
  {
    std::uint64_t n = 0;
    for (std::uint64_t w : words) n += static_cast<std::uint64_t>(__builtin_popcountll(w));
    return n;
  }
  friend bool operator==(selection_bitmask const& a, selection_bitmask const& b)
  {
    return a.num_rows == b.num_rows && a.words == b.words;
  }
};

/** @brief Selected rows as half-open runs [begin, end) (the "RLE" of the mask). Canonical form
 *  (what every function here returns): non-empty runs, increasing, separated by at least one
 *  unselected row. */
struct selection_ranges {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  friend bool operator==(selection_ranges const& a, selection_ranges const& b)
  {
    return a.ranges == b.ranges;
  }
};

/** @brief True if the ids are strictly increasing and < num_rows. */
inline bool is_valid(selection const& s, std::uint64_t num_rows) noexcept
{
  for (std::size_t i = 0; i < s.rows.size(); ++i)
    if (s.rows[i] >= num_rows || (i > 0 && s.rows[i] <= s.rows[i - 1])) return false;
  return true;
}

/** @brief True if the mask has ceil(num_rows/64) words and no bit at or past num_rows. */
inline bool is_valid(selection_bitmask const& m) noexcept
{
  if (m.words.size() != (m.num_rows + 63) / 64) return false;
  if ((m.num_rows & 63) && (m.words.back() >> (m.num_rows & 63)) != 0) return false;
  return true;
}

/** @brief True if every run has begin <= end <= num_rows and runs are sorted without overlap
 *  (empty and adjacent runs are accepted as input; see selection_ranges for the canonical form). */
inline bool is_valid(selection_ranges const& s, std::uint64_t num_rows) noexcept
{
  std::uint64_t prev_end = 0;
  for (auto const& [b, e] : s.ranges) {
    if (b > e || e > num_rows || b < prev_end) return false;
    prev_end = e;
  }
  return true;
}

/** @brief Number of selected rows. */
inline std::uint64_t count(selection const& s) noexcept { return s.rows.size(); }
inline std::uint64_t count(selection_bitmask const& m) noexcept { return m.count(); }
inline std::uint64_t count(selection_ranges const& s) noexcept
{
  std::uint64_t n = 0;
  for (auto const& [b, e] : s.ranges) n += e - b;
  return n;
}

/** @brief Row ids -> bitmask over `num_rows` rows. @throw logic_error if !is_valid(s, num_rows). */
inline selection_bitmask to_bitmask(selection const& s, std::uint64_t num_rows)
{
  FASTPAIR_EXPECTS(is_valid(s, num_rows), "selection: row ids must be strictly increasing and < num_rows");
  selection_bitmask m(num_rows);
  for (std::uint64_t r : s.rows) m.set(r);
  return m;
}

/** @brief Runs -> bitmask over `num_rows` rows (whole words at a time inside a run).
 *  @throw logic_error if !is_valid(s, num_rows). */
inline selection_bitmask to_bitmask(selection_ranges const& s, std::uint64_t num_rows)
{
  FASTPAIR_EXPECTS(is_valid(s, num_rows), "selection_ranges: runs must be sorted, non-overlapping, within num_rows");
  selection_bitmask m(num_rows);
  for (auto const& [b, e] : s.ranges) {
    std::uint64_t r = b;
    while (r < e && (r & 63)) m.set(r++);
    for (; r + 64 <= e; r += 64) m.words[r >> 6] = ~std::uint64_t{0};
    while (r < e) m.set(r++);
  }
  return m;
}

/** @brief Bitmask -> row ids. @throw logic_error if !is_valid(m). */
inline selection to_rows(selection_bitmask const& m)
{
  FASTPAIR_EXPECTS(is_valid(m), "selection_bitmask: wrong word count or bits past num_rows");
  selection s;
  s.rows.reserve(m.count());
  for (std::size_t w = 0; w < m.words.size(); ++w)
    for (std::uint64_t x = m.words[w]; x; x &= x - 1)
      s.rows.push_back(w * 64 + static_cast<std::uint64_t>(__builtin_ctzll(x)));
  return s;
}

/** @brief Runs -> row ids. @throw logic_error if !is_valid(s, num_rows). */
inline selection to_rows(selection_ranges const& s, std::uint64_t num_rows)
{
  FASTPAIR_EXPECTS(is_valid(s, num_rows), "selection_ranges: runs must be sorted, non-overlapping, within num_rows");
  selection out;
  out.rows.reserve(count(s));
  for (auto const& [b, e] : s.ranges)
    for (std::uint64_t r = b; r < e; ++r) out.rows.push_back(r);
  return out;
}

/** @brief Row ids -> canonical runs. @throw logic_error if the ids are not strictly increasing. */
inline selection_ranges to_ranges(selection const& s)
{
  FASTPAIR_EXPECTS(is_valid(s, ~std::uint64_t{0}), "selection: row ids must be strictly increasing");
  selection_ranges out;
  for (std::uint64_t r : s.rows) {
    if (!out.ranges.empty() && out.ranges.back().second == r) ++out.ranges.back().second;
    else out.ranges.emplace_back(r, r + 1);
  }
  return out;
}

/** @brief Bitmask -> canonical runs (skips zero and all-ones words whole). @throw logic_error if
 *  !is_valid(m). */
inline selection_ranges to_ranges(selection_bitmask const& m)
{
  FASTPAIR_EXPECTS(is_valid(m), "selection_bitmask: wrong word count or bits past num_rows");
  selection_ranges out;
  bool open            = false;
  std::uint64_t begin  = 0;
  for (std::size_t w = 0; w < m.words.size(); ++w) {
    std::uint64_t const x = m.words[w];
    if ((x == 0 && !open) || (x == ~std::uint64_t{0} && open)) continue;
    for (unsigned b = 0; b < 64; ++b) {
      bool const on = (x >> b) & 1u;
      if (on != open) {
        if (on) begin = w * 64 + b;
        else out.ranges.emplace_back(begin, w * 64 + b);
        open = on;
      }
    }
  }
  if (open) out.ranges.emplace_back(begin, m.num_rows);
  return out;
}

/** @brief Runs -> canonical runs (drops empty runs, merges adjacent ones). */
inline selection_ranges canonical(selection_ranges const& s, std::uint64_t num_rows)
{
  FASTPAIR_EXPECTS(is_valid(s, num_rows), "selection_ranges: runs must be sorted, non-overlapping, within num_rows");
  selection_ranges out;
  for (auto const& [b, e] : s.ranges) {
    if (b == e) continue;
    if (!out.ranges.empty() && out.ranges.back().second == b) out.ranges.back().second = e;
    else out.ranges.emplace_back(b, e);
  }
  return out;
}

// -------------------------------------------------------------------------------------------------
// Shared helpers
// -------------------------------------------------------------------------------------------------

namespace detail {

/** @brief O(1) structural checks every predicate makes before reading a column. */
inline void expect_column_shape(compressed_column const& col)
{
  FASTPAIR_EXPECTS(!col.row_code_offsets.empty() &&
                     col.row_code_offsets.size() == col.row_byte_offsets.size() &&
                     col.row_code_offsets.back() == col.num_codes &&
                     col.codes.size() >= packed_code_bytes(col.kind, col.num_codes),
                   "predicate: malformed column (validate() it first)");
}

inline std::uint64_t row_bytes(compressed_column const& col, std::uint64_t r) noexcept
{
  return col.row_byte_offsets[r + 1] - col.row_byte_offsets[r];
}

inline std::uint64_t max_row_bytes(compressed_column const& col) noexcept
{
  std::uint64_t m = 0;
  for (std::size_t r = 0; r < col.num_rows(); ++r) m = std::max(m, row_bytes(col, r));
  return m;
}

}  // namespace detail

// -------------------------------------------------------------------------------------------------
// Equality and IN-lists on codes
// -------------------------------------------------------------------------------------------------

/** @brief A literal as the column's encoder parses it: its codes and its byte length. */
struct encoded_literal {
  std::vector<std::uint16_t> codes;
  std::uint64_t bytes = 0;
  friend bool operator==(encoded_literal const& a, encoded_literal const& b)
  {
    return a.bytes == b.bytes && a.codes == b.codes;
  }
};

/**
 * @brief Encodes literals with the column's dictionary by calling `encode()` on a column whose rows
 * are the literals. Rows are parsed independently from their start by a deterministic function of
 * the row's bytes (greedy longest-prefix match; for FSST-12 tables FSST's greedy matcher, which
 * only looks at the row's own bytes), so a row equal to a literal has exactly the literal's codes.
 * @throw format_error if the column's dictionary is not valid for its codec.
 */
inline std::vector<encoded_literal> encode_literals(compressed_column const& col,
                                                    std::vector<std::string_view> const& literals)
{
  host_strings rows;
  for (std::string_view l : literals) rows.push_back(l);
  compressed_column const enc = encode(rows, col.kind, col.dict);
  auto const codes            = unpack_codes(enc);
  std::vector<encoded_literal> out(literals.size());
  for (std::size_t i = 0; i < literals.size(); ++i) {
    out[i].codes.assign(codes.begin() + static_cast<std::ptrdiff_t>(enc.row_code_offsets[i]),
                        codes.begin() + static_cast<std::ptrdiff_t>(enc.row_code_offsets[i + 1]));
    out[i].bytes = literals[i].size();
  }
  return out;
}

/** @brief encode_literals for one literal. */
inline encoded_literal encode_literal(compressed_column const& col, std::string_view literal)
{
  return encode_literals(col, {literal}).front();
}

/** @brief True if row r's codes are exactly `lit.codes` (byte length compared first). */
inline bool row_equals(compressed_column const& col, std::uint64_t r, encoded_literal const& lit) noexcept
{
  if (detail::row_bytes(col, r) != lit.bytes) return false;
  std::uint64_t const c0 = col.row_code_offsets[r];
  if (col.row_code_offsets[r + 1] - c0 != lit.codes.size()) return false;
  for (std::size_t k = 0; k < lit.codes.size(); ++k)
    if (code_at(col.kind, col.codes.data(), c0 + k) != lit.codes[k]) return false;
  return true;
}

/**
 * @brief `col = literal` on the codes: rows whose byte length, code count and codes equal the
 * literal's encoding. Needs the canonical parse (see the file comment). `""` selects empty rows.
 */
inline selection_bitmask select_equal(compressed_column const& col, std::string_view literal)
{
  detail::expect_column_shape(col);
  encoded_literal const lit = encode_literal(col, literal);
  selection_bitmask m(col.num_rows());
  for (std::uint64_t r = 0; r < col.num_rows(); ++r)
    if (row_equals(col, r, lit)) m.set(r);
  return m;
}

/**
 * @brief `col IN (literals...)` on the codes: each row whose byte length is the length of some
 * literal has its code sequence looked up in a hash set of the literals' code sequences.
 * Duplicates are fine; an empty list selects nothing.
 */
inline selection_bitmask select_in(compressed_column const& col,
                                   std::vector<std::string_view> const& literals)
{
  detail::expect_column_shape(col);
  selection_bitmask m(col.num_rows());
  if (literals.empty()) return m;
  auto const lits = encode_literals(col, literals);
  std::unordered_set<std::u16string> keys;
  std::unordered_set<std::uint64_t> lengths;
  std::uint64_t max_codes = 0;
  for (auto const& l : lits) {
    keys.emplace(l.codes.begin(), l.codes.end());
    lengths.insert(l.bytes);
    max_codes = std::max<std::uint64_t>(max_codes, l.codes.size());
  }
  std::u16string key;
  for (std::uint64_t r = 0; r < col.num_rows(); ++r) {
    if (!lengths.count(detail::row_bytes(col, r))) continue;
    std::uint64_t const c0 = col.row_code_offsets[r], c1 = col.row_code_offsets[r + 1];
    if (c1 - c0 > max_codes) continue;
    key.resize(static_cast<std::size_t>(c1 - c0));
    for (std::uint64_t j = c0; j < c1; ++j)
      key[static_cast<std::size_t>(j - c0)] = static_cast<char16_t>(code_at(col.kind, col.codes.data(), j));
    if (keys.count(key)) m.set(r);
  }
  return m;
}

/**
 * @brief `col = literal` comparing each candidate row's token bytes with the literal in place
 * (no decode buffer). Correct for any parse, including columns from other encoders.
 */
inline selection_bitmask select_equal_bytes(compressed_column const& col, std::string_view literal)
{
  detail::expect_column_shape(col);
  selection_bitmask m(col.num_rows());
  for (std::uint64_t r = 0; r < col.num_rows(); ++r) {
    if (detail::row_bytes(col, r) != literal.size()) continue;
    std::size_t pos = 0;
    bool same       = true;
    for (std::uint64_t j = col.row_code_offsets[r]; same && j < col.row_code_offsets[r + 1]; ++j) {
      std::uint32_t const c = code_at(col.kind, col.codes.data(), j);
      std::uint32_t const n = col.dict.length(c);
      same = std::memcmp(col.dict.data(c), literal.data() + pos, n) == 0;
      pos += n;
    }
    if (same) m.set(r);
  }
  return m;
}

/**
 * @brief True if the column's codes and row offsets are exactly what `encode()` produces for its
 * decoded rows and dictionary (the precondition of select_equal / select_in). O(column): decodes
 * and re-encodes.
 */
inline bool has_canonical_parse(compressed_column const& col)
{
  detail::expect_column_shape(col);
  host_strings rows;
  rows.offsets.assign(col.row_byte_offsets.begin(), col.row_byte_offsets.end());
  rows.chars.reserve(col.decoded_bytes());
  for (std::uint64_t j = 0; j < col.num_codes; ++j) {
    std::string_view const t = col.dict.token(code_at(col.kind, col.codes.data(), j));
    rows.chars.insert(rows.chars.end(), t.begin(), t.end());
  }
  compressed_column const re = encode(rows, col.kind, col.dict, col.sidecar_stride);
  return re.row_code_offsets == col.row_code_offsets && re.num_codes == col.num_codes &&
         unpack_codes(re) == unpack_codes(col);
}

// -------------------------------------------------------------------------------------------------
// LIKE: byte automata lifted to token tables
// -------------------------------------------------------------------------------------------------

/** @brief Which LIKE form a pattern matcher evaluates. */
enum class like_kind : std::uint8_t {
  prefix,     ///< LIKE 'p%'  : the row starts with p
  substring,  ///< LIKE '%p%' : p occurs in the row
  suffix,     ///< LIKE '%p'  : the row ends with p
};

/** @brief Options of like_matcher. */
struct like_options {
  /** @brief Largest token table (N tokens x S states x 2 bytes) to build; larger ones (or S >
   *  65 535) fall back to walking each token's bytes (one memcmp per code for prefix, KMP with
   *  failure links for substring/suffix). 64 MiB holds OnPair-16 (65 536 tokens) with patterns of
   *  up to 510 bytes, and the 4 096-token codecs up to 8 190 bytes. 0 forces the fallback. */
  std::size_t max_table_bytes = std::size_t{64} << 20;
};

/**
 * @brief A LIKE pattern compiled against a column's dictionary.
 *
 * The byte automaton has S states:
 * @code{.text}
 *  prefix     S = m+2   state q <= m: the row's first q bytes equal p[0..q); m accepts (absorbing);
 *                       m+1 is dead (absorbing): a byte differed
 *  substring  S = m+1   KMP: q = longest prefix of p that is a suffix of the bytes read;
 *                       m accepts and is made absorbing (a match anywhere latches)
 *  suffix     S = m+1   KMP without the latch: after m comes the failure transition; the row
 *                       matches iff it ENDS in state m
 * @endcode
 * In every case a row matches iff the state after its last byte is accept() (start() for an empty
 * row), and the token table holds T[code * S + q] = state after feeding token `code`'s bytes from
 * state q. A row is then one lookup per code (walk() stops early on an absorbing state).
 */
class like_matcher {
 public:
  /** @brief Compiles `pattern` against `col.dict`. The matcher keeps a pointer to the dictionary
   *  (read when there is no table): it must not outlive the column. */
  like_matcher(compressed_column const& col, like_kind kind, std::string_view pattern,
               like_options const& opt = {})
    : like_matcher(col.dict, kind, pattern, opt)
  {
  }

  like_matcher(dictionary const& dict, like_kind kind, std::string_view pattern,
               like_options const& opt = {})
    : dict_(&dict), kind_(kind), pattern_(pattern)
  {
    std::uint64_t const m = pattern_.size();
    states_               = kind_ == like_kind::prefix ? m + 2 : m + 1;
    // KMP failure links (substring / suffix): fail_[q] = longest proper border of p[0..q).
    if (kind_ != like_kind::prefix) {
      fail_.assign(m + 1, 0);
      for (std::size_t q = 1, k = 0; q < m; ++q) {
        while (k > 0 && pattern_[q] != pattern_[k]) k = fail_[k];
        if (pattern_[q] == pattern_[k]) ++k;
        fail_[q + 1] = static_cast<std::uint32_t>(k);
      }
      // Strong links (Knuth's "next"): skip borders followed by the same byte, which must fail
      // again. Bounds a fallback chain by O(log m) from ANY state (p = "aaaa": one hop, not q).
      next_.assign(m, 0);
      for (std::size_t q = 1; q < m; ++q)
        next_[q] = pattern_[fail_[q]] != pattern_[q] ? fail_[q] : next_[fail_[q]];
    }
    std::uint64_t const n = dict.size();
    if (states_ <= 0xFFFFu && n * states_ * 2 <= opt.max_table_bytes) build_table();
  }

  like_kind kind() const noexcept { return kind_; }
  std::string_view pattern() const noexcept { return pattern_; }
  /** @brief Number of automaton states S. */
  std::uint32_t num_states() const noexcept { return static_cast<std::uint32_t>(states_); }
  std::uint32_t start() const noexcept { return 0; }
  std::uint32_t accept() const noexcept { return static_cast<std::uint32_t>(pattern_.size()); }
  /** @brief True for a state no input leaves (prefix: accept and dead; substring: accept). */
  bool absorbing(std::uint32_t q) const noexcept
  {
    if (kind_ == like_kind::prefix) return q >= accept();
    return kind_ == like_kind::substring && q == accept();
  }
  /** @brief True if the token table was built (else step() walks token bytes). */
  bool has_table() const noexcept { return !table_.empty(); }
  /** @brief The token table, N x S entries, token-major: T[code * S + q]. Empty without table. */
  std::vector<std::uint16_t> const& table() const noexcept { return table_; }
  /** @brief Bytes the token table occupies. */
  std::size_t table_bytes() const noexcept { return table_.size() * sizeof(std::uint16_t); }

  /** @brief The state after token `code`'s bytes from state q (one lookup with the table). */
  std::uint32_t step(std::uint32_t q, std::uint32_t code) const noexcept
  {
    if (!table_.empty()) return table_[std::size_t{code} * states_ + q];
    return step_bytes(q, dict_->data(code), dict_->length(code));
  }

  /** @brief The state after feeding `len` raw bytes from state q (no table). */
  std::uint32_t step_bytes(std::uint32_t q, std::uint8_t const* p, std::size_t len) const noexcept
  {
    std::uint32_t const m = accept();
    if (kind_ == like_kind::prefix) {
      if (q >= m) return q;  // accept or dead: absorbing
      std::size_t const k = std::min<std::size_t>(len, m - q);
      if (k && std::memcmp(p, pattern_.data() + q, k) != 0) return m + 1;
      return q + static_cast<std::uint32_t>(k);
    }
    if (m == 0) return q;  // the empty pattern: state 0 accepts and stays
    for (std::size_t i = 0; i < len; ++i) {
      if (q == m) {
        if (kind_ == like_kind::substring) return q;
        q = fail_[m];
      }
      auto const b = static_cast<char>(p[i]);
      while (q > 0 && pattern_[q] != b) q = next_[q];
      if (pattern_[q] == b) ++q;  // q < m here; with m == 0, q == m was handled above
    }
    return q;
  }

  /** @brief The final state of codes [j0, j1) of `col` from state q, stopping at an absorbing
   *  state. */
  std::uint32_t walk(compressed_column const& col, std::uint64_t j0, std::uint64_t j1,
                     std::uint32_t q) const noexcept
  {
    for (std::uint64_t j = j0; j < j1 && !absorbing(q); ++j) q = step(q, code_at(col.kind, col.codes.data(), j));
    return q;
  }

  /** @brief True if row r matches (shortcut: rows shorter than the pattern never match). */
  bool row_matches(compressed_column const& col, std::uint64_t r) const noexcept
  {
    if (detail::row_bytes(col, r) < pattern_.size()) return false;
    return walk(col, col.row_code_offsets[r], col.row_code_offsets[r + 1], start()) == accept();
  }

 private:
  void build_table()
  {
    std::uint32_t const S = static_cast<std::uint32_t>(states_);
    std::uint32_t const m = accept();
    // Byte DFA, S x 256, from the definitions above (KMP: row q copies the row of the restart
    // state X and overrides the pattern byte).
    std::vector<std::uint16_t> dfa(std::size_t{S} * 256);
    auto at = [&](std::uint32_t q, unsigned b) -> std::uint16_t& { return dfa[std::size_t{q} * 256 + b]; };
    if (kind_ == like_kind::prefix) {
      for (std::uint32_t q = 0; q < S; ++q)
        for (unsigned b = 0; b < 256; ++b)
          at(q, b) = static_cast<std::uint16_t>(q >= m ? q : (static_cast<std::uint8_t>(pattern_[q]) == b ? q + 1 : m + 1));
    } else {
      std::uint32_t x = 0;
      for (unsigned b = 0; b < 256; ++b) at(0, b) = 0;
      if (m > 0) at(0, static_cast<std::uint8_t>(pattern_[0])) = 1;
      for (std::uint32_t q = 1; q <= m; ++q) {
        for (unsigned b = 0; b < 256; ++b) at(q, b) = at(x, b);
        if (q < m) {
          auto const pb = static_cast<std::uint8_t>(pattern_[q]);
          at(q, pb)     = static_cast<std::uint16_t>(q + 1);
          x             = at(x, pb);
        }
      }
      if (kind_ == like_kind::substring)
        for (unsigned b = 0; b < 256; ++b) at(m, b) = static_cast<std::uint16_t>(m);
    }
    // Token table: every token from every state (N x S x token length DFA steps).
    std::size_t const n = dict_->size();
    table_.resize(n * S);
    for (std::size_t c = 0; c < n; ++c) {
      std::uint8_t const* p  = dict_->data(c);
      std::uint32_t const ln = dict_->length(c);
      std::uint16_t* row     = table_.data() + c * S;
      for (std::uint32_t q = 0; q < S; ++q) {
        std::uint32_t s = q;
        for (std::uint32_t i = 0; i < ln; ++i) s = dfa[std::size_t{s} * 256 + p[i]];
        row[q] = static_cast<std::uint16_t>(s);
      }
    }
  }

  dictionary const* dict_;
  like_kind kind_;
  std::string pattern_;
  std::uint64_t states_ = 1;
  std::vector<std::uint32_t> fail_, next_;
  std::vector<std::uint16_t> table_;
};

/** @brief Rows matching a compiled LIKE pattern: one sequential walk per row. */
inline selection_bitmask select_like(compressed_column const& col, like_matcher const& lm)
{
  detail::expect_column_shape(col);
  selection_bitmask m(col.num_rows());
  for (std::uint64_t r = 0; r < col.num_rows(); ++r)
    if (lm.row_matches(col, r)) m.set(r);
  return m;
}

/** @brief Rows matching `kind` of `pattern`, compiled on the fly (the matcher skips the table
 *  when the pattern is longer than every row: nothing but an empty pattern can then match). */
inline selection_bitmask select_like(compressed_column const& col, like_kind kind,
                                     std::string_view pattern, like_options opt = {})
{
  detail::expect_column_shape(col);
  if (!pattern.empty() && pattern.size() > detail::max_row_bytes(col)) return selection_bitmask(col.num_rows());
  return select_like(col, like_matcher(col, kind, pattern, opt));
}

/** @brief LIKE 'pattern%'. */
inline selection_bitmask select_prefix(compressed_column const& col, std::string_view pattern,
                                       like_options opt = {})
{
  return select_like(col, like_kind::prefix, pattern, opt);
}
/** @brief LIKE '%pattern%'. */
inline selection_bitmask select_substring(compressed_column const& col, std::string_view pattern,
                                          like_options opt = {})
{
  return select_like(col, like_kind::substring, pattern, opt);
}
/** @brief LIKE '%pattern'. */
inline selection_bitmask select_suffix(compressed_column const& col, std::string_view pattern,
                                       like_options opt = {})
{
  return select_like(col, like_kind::suffix, pattern, opt);
}

/**
 * @brief A byte automaton lifted to a token table: what like_pattern and like_prefix_set share.
 * A row matches iff the walk from start() over its codes ends in accept(); a walk stops at an
 * absorbing state. Rows shorter than min_bytes() never match (not walked).
 */
class byte_automaton {
 public:
  std::uint32_t num_states() const noexcept { return states_; }
  std::uint32_t start() const noexcept { return start_; }
  std::uint32_t accept() const noexcept { return accept_; }
  bool absorbing(std::uint32_t q) const noexcept { return absorbing_[q] != 0; }
  bool has_table() const noexcept { return !table_.empty(); }
  /** @brief The token table (tokens x states, token-major; empty when it would exceed
   *  like_options::max_table_bytes): what the GPU predicate uploads. */
  std::vector<std::uint32_t> const& table() const noexcept { return table_; }
  /** @brief No shorter row matches. */
  std::size_t min_bytes() const noexcept { return min_bytes_; }

  /** @brief The state after `len` raw bytes from state q (the byte automaton). */
  std::uint32_t step_bytes(std::uint32_t q, std::uint8_t const* p, std::size_t len) const noexcept
  {
    for (std::size_t i = 0; i < len && !absorbing(q); ++i) q = dfa_[std::size_t{q} * 256 + p[i]];
    return q;
  }
  /** @brief The state after token `code` from state q (one lookup with the table). */
  std::uint32_t step(std::uint32_t q, std::uint32_t code) const noexcept
  {
    if (!table_.empty()) return table_[std::size_t{code} * states_ + q];
    return step_bytes(q, dict_->data(code), dict_->length(code));
  }
  /** @brief True if row r of `col` (whose dictionary this was compiled against) matches. */
  bool row_matches(compressed_column const& col, std::uint64_t r) const noexcept
  {
    if (detail::row_bytes(col, r) < min_bytes_) return false;
    std::uint32_t q = start_;
    for (std::uint64_t j = col.row_code_offsets[r]; j < col.row_code_offsets[r + 1] && !absorbing(q); ++j)
      q = step(q, code_at(col.kind, col.codes.data(), j));
    return q == accept_;
  }

 protected:
  explicit byte_automaton(dictionary const& dict) : dict_(&dict) {}

  /** Every token from every state, where the table fits (after dfa_ and absorbing_ are set). */
  void build_table(like_options const& opt)
  {
    std::size_t const n = dict_->size();
    if (n * states_ * sizeof(std::uint32_t) > opt.max_table_bytes) return;
    table_.resize(n * states_);
    for (std::size_t c = 0; c < n; ++c)
      for (std::uint32_t q = 0; q < states_; ++q) table_[c * states_ + q] = step_bytes(q, dict_->data(c), dict_->length(c));
  }

  dictionary const* dict_;
  std::uint32_t states_ = 0, start_ = 0, accept_ = 0;
  std::size_t min_bytes_ = 0;
  std::vector<std::uint8_t> absorbing_;
  std::vector<std::uint32_t> dfa_;    // states x 256
  std::vector<std::uint32_t> table_;  // tokens x states
};

/**
 * @brief A LIKE pattern of any number of `%`-separated parts ('%special%requests%', 'a%b', 'abc'),
 * compiled to one byte automaton over the parts and lifted to a token table like like_matcher.
 * Host only (the GPU predicates take like_matcher's three forms).
 *
 * Parts in order: the first is anchored at the row's start unless the pattern starts with '%', the
 * last at its end unless the pattern ends with '%'; the parts between are found in order, each at
 * its earliest occurrence after the previous one (leftmost matching, which finds an occurrence
 * sequence whenever one exists). Per part, from a base state b:
 * @code{.text}
 *  anchored start   b + q: the first q bytes matched; a differing byte -> dead (absorbing)
 *  floating         KMP states b + q (q < m), full match -> the next part's first state
 *  anchored end     KMP states b + 0 .. b + m without the latch; the row matches iff it ends in b + m
 *  no '%' at all    the anchored-start states, then one state that any further byte kills
 * @endcode
 * After the last floating or anchored-start part, an absorbing accept state. '%' is the only
 * wildcard: a pattern with '_' (one character) or an escape is refused (logic_error), not matched
 * literally.
 */
class like_pattern : public byte_automaton {
 public:
  /** @brief Compiles `pattern` against `dict` (kept by pointer: it must outlive the matcher). */
  like_pattern(dictionary const& dict, std::string_view pattern, like_options const& opt = {}) : byte_automaton(dict)
  {
    FASTPAIR_EXPECTS(pattern.find('_') == std::string_view::npos && pattern.find('\\') == std::string_view::npos,
                     "like_pattern: only '%' is supported as a wildcard ('_' and escapes are not)");
    std::vector<std::string_view> parts;
    for (std::size_t b = 0;;) {
      std::size_t const e = pattern.find('%', b);
      parts.push_back(pattern.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
      if (e == std::string_view::npos) break;
      b = e + 1;
    }
    bool const exact = parts.size() == 1, start_anchored = !parts.front().empty(),
               end_anchored = parts.size() > 1 && !parts.back().empty();
    for (auto const part : parts) min_bytes_ += part.size();
    // States: the parts' states in order, then accept (absorbing, or the exact pattern's end
    // state), then dead.
    struct seg {
      std::string_view p;
      char kind;  // 's' anchored start (or exact), 'f' floating, 'e' anchored end
      std::uint32_t base;
    };
    std::vector<seg> segs;
    std::uint32_t n_states = 0;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (parts[i].empty()) continue;
      char const kind = (i == 0 && start_anchored) ? 's' : (i + 1 == parts.size() && end_anchored) ? 'e' : 'f';
      segs.push_back({parts[i], kind, n_states});
      n_states += static_cast<std::uint32_t>(parts[i].size()) + (kind == 'e' ? 1 : 0);
    }
    std::uint32_t const fin = n_states, dead = n_states + 1;
    states_ = n_states + 2;
    absorbing_.assign(states_, 0);
    absorbing_[dead] = 1;
    if (!exact) absorbing_[fin] = 1;
    accept_ = (!segs.empty() && segs.back().kind == 'e') ? segs.back().base + static_cast<std::uint32_t>(segs.back().p.size()) : fin;
    start_  = segs.empty() ? fin : segs.front().base;
    dfa_.assign(std::size_t{states_} * 256, 0);
    auto at = [&](std::uint32_t q, unsigned b) -> std::uint32_t& { return dfa_[std::size_t{q} * 256 + b]; };
    for (std::size_t k = 0; k < segs.size(); ++k) {
      seg const& g        = segs[k];
      auto const m        = static_cast<std::uint32_t>(g.p.size());
      std::uint32_t const next = k + 1 < segs.size() ? segs[k + 1].base : fin;
      auto byte = [&](std::uint32_t q) { return static_cast<std::uint8_t>(g.p[q]); };
      if (g.kind == 's') {
        for (std::uint32_t q = 0; q < m; ++q) {
          for (unsigned b = 0; b < 256; ++b) at(g.base + q, b) = dead;
          at(g.base + q, byte(q)) = q + 1 == m ? next : g.base + q + 1;
        }
        continue;
      }
      // KMP rows: row q copies the row of the restart state x and overrides the pattern byte.
      std::uint32_t const rows = g.kind == 'e' ? m + 1 : m;
      std::uint32_t x          = 0;  // local restart state
      for (unsigned b = 0; b < 256; ++b) at(g.base, b) = g.base;
      at(g.base, byte(0)) = (m == 1 && g.kind == 'f') ? next : g.base + 1;
      for (std::uint32_t q = 1; q < rows; ++q) {
        for (unsigned b = 0; b < 256; ++b) at(g.base + q, b) = at(g.base + x, b);
        if (q < m) {
          at(g.base + q, byte(q)) = (q + 1 == m && g.kind == 'f') ? next : g.base + q + 1;
          x                       = at(g.base + x, byte(q)) - g.base;  // < q + 1 <= m - 1 + 1: inside
        }
      }
    }
    for (unsigned b = 0; b < 256; ++b) {
      at(fin, b)  = exact ? dead : fin;
      at(dead, b) = dead;
    }
    build_table(opt);
  }
};

/** @brief `col LIKE pattern` for any pattern of `%`-separated parts (like_pattern), on the codes. */
inline selection_bitmask select_like_pattern(compressed_column const& col, std::string_view pattern,
                                             like_options const& opt = {})
{
  detail::expect_column_shape(col);
  like_pattern const lp(col.dict, pattern, opt);
  selection_bitmask m(col.num_rows());
  for (std::uint64_t r = 0; r < col.num_rows(); ++r)
    if (lp.row_matches(col, r)) m.set(r);
  return m;
}

/**
 * @brief `col LIKE 'p1%' OR col LIKE 'p2%' OR ...` as one automaton (SQL's
 * `substring(col, 1, k) IN ('p1', 'p2', ...)` when every prefix has k bytes): the trie of the
 * prefixes, then accept and dead (both absorbing), lifted to a token table as like_pattern. A row
 * is one walk instead of one per prefix. States: the trie's inner nodes 0 .. accept() - 1 (0 is
 * the root), accept(), accept() + 1 (dead); a prefix that extends another is absorbed by it, and
 * an empty prefix (or none at all: nothing matches) is handled exactly.
 */
class like_prefix_set : public byte_automaton {
 public:
  /** @brief Compiles `prefixes` against `dict` (kept by pointer: it must outlive the matcher). */
  like_prefix_set(dictionary const& dict, std::vector<std::string_view> const& prefixes, like_options const& opt = {})
    : byte_automaton(dict)
  {
    // The trie's inner nodes, children by byte: `leaf` marks "a prefix ends here".
    constexpr std::uint32_t none = 0xFFFFFFFFu, leaf = 0xFFFFFFFEu;
    std::vector<std::array<std::uint32_t, 256>> child(1);
    child[0].fill(none);
    bool root_accepts = false;
    min_bytes_        = prefixes.empty() ? 0 : SIZE_MAX;
    for (std::string_view p : prefixes) {
      min_bytes_ = std::min(min_bytes_, p.size());
      root_accepts = root_accepts || p.empty();
      for (std::size_t i = 0, q = 0; i < p.size(); ++i) {
        auto const b          = static_cast<std::uint8_t>(p[i]);
        std::uint32_t const c = child[q][b];
        if (c == leaf) break;  // a shorter prefix already ends here and absorbs this one
        if (i + 1 == p.size()) {
          child[q][b] = leaf;  // absorbs any longer prefix below (its nodes become unreachable)
          break;
        }
        if (c != none) {
          q = c;
          continue;
        }
        child[q][b] = static_cast<std::uint32_t>(child.size());
        q           = child.size();
        child.emplace_back().fill(none);
      }
    }
    if (root_accepts) child.clear();  // every row matches: the start state is the accept state
    accept_ = static_cast<std::uint32_t>(child.size());
    states_ = accept_ + 2;
    // Every walk starts at 0: the root, or accept itself when a prefix is empty. Without prefixes
    // the root has no child and nothing matches (not even the empty row: the root does not accept).
    dfa_.assign(std::size_t{states_} * 256, accept_ + 1);  // dead unless a child or accept
    for (std::uint32_t q = 0; q < accept_; ++q)
      for (unsigned b = 0; b < 256; ++b) {
        std::uint32_t const c = child[q][b];
        if (c != none) dfa_[std::size_t{q} * 256 + b] = c == leaf ? accept_ : c;
      }
    for (unsigned b = 0; b < 256; ++b) dfa_[std::size_t{accept_} * 256 + b] = accept_;
    absorbing_.assign(states_, 0);
    absorbing_[accept_] = absorbing_[accept_ + 1] = 1;  // accept, dead
    build_table(opt);
  }
};

/** @brief Rows starting with any of `prefixes` (like_prefix_set: one walk per row), on the codes. */
inline selection_bitmask select_prefix_in(compressed_column const& col, std::vector<std::string_view> const& prefixes,
                                          like_options const& opt = {})
{
  detail::expect_column_shape(col);
  like_prefix_set const ps(col.dict, prefixes, opt);
  selection_bitmask m(col.num_rows());
  for (std::uint64_t r = 0; r < col.num_rows(); ++r)
    if (ps.row_matches(col, r)) m.set(r);
  return m;
}

// -------------------------------------------------------------------------------------------------
// Splitting rows across threads: state maps composed by a scan
// -------------------------------------------------------------------------------------------------

/** @brief A function from automaton states to states: to[q] for q < S. Maps compose
 *  associatively, so a row cut into pieces is the composition of its pieces' maps. */
struct state_map {
  std::vector<std::uint32_t> to;
  friend bool operator==(state_map const& a, state_map const& b) { return a.to == b.to; }
};

/** @brief The identity on S states. */
inline state_map identity_map(std::uint32_t S)
{
  state_map f;
  f.to.resize(S);
  for (std::uint32_t q = 0; q < S; ++q) f.to[q] = q;
  return f;
}

/** @brief The constant map q -> s on S states (a row that starts inside a chunk forgets the
 *  incoming state). */
inline state_map constant_map(std::uint32_t S, std::uint32_t s) { return state_map{std::vector<std::uint32_t>(S, s)}; }

/** @brief `first` then `then`: q -> then.to[first.to[q]]. Associative. */
inline state_map compose(state_map const& first, state_map const& then)
{
  state_map f;
  f.to.resize(first.to.size());
  for (std::size_t q = 0; q < first.to.size(); ++q) f.to[q] = then.to[first.to[q]];
  return f;
}

/**
 * @brief The map of codes [j0, j1) of `col`. Every state is pushed through the codes, but only
 * DISTINCT images are stepped: states merge quickly on real text (a byte absent from the pattern
 * sends every KMP state to 0; prefix states die), so after a few codes a step costs one lookup,
 * not S. The images are deduplicated (and the S slots re-pointed through a remap) only when their
 * number at least halves, so the bookkeeping is O(S log S) per map plus O(distinct) per code.
 */
inline state_map codes_map(like_matcher const& lm, compressed_column const& col, std::uint64_t j0,
                           std::uint64_t j1)
{
  std::uint32_t const S = lm.num_states();
  state_map f           = identity_map(S);  // f.to[q] = slot of q's image, until the end
  std::vector<std::uint32_t> img = f.to;   // images, one per slot
  std::vector<std::uint32_t> stamp(S, 0xFFFFFFFFu), remap;
  for (std::uint64_t j = j0; j < j1; ++j) {
    std::uint32_t const c = code_at(col.kind, col.codes.data(), j);
    for (auto& s : img) s = lm.step(s, c);
    if (img.size() == 1) continue;
    // Count distinct images (stamp[state] = its new slot); commit only if they at least halve.
    std::size_t k = 0;
    for (std::uint32_t s : img)
      if (stamp[s] == 0xFFFFFFFFu) stamp[s] = static_cast<std::uint32_t>(k++);
    if (2 * k <= img.size()) {
      remap.resize(img.size());
      std::vector<std::uint32_t> next(k);
      for (std::size_t i = 0; i < img.size(); ++i) {
        remap[i]             = stamp[img[i]];
        next[stamp[img[i]]]  = img[i];
      }
      for (auto& slot : f.to) slot = remap[slot];
      img.swap(next);
    }
    for (std::uint32_t s : img) stamp[s] = 0xFFFFFFFFu;
  }
  for (auto& slot : f.to) slot = img[slot];
  return f;
}

/**
 * @brief select_like with the code stream cut into chunks of `chunk_codes` codes regardless of
 * rows, the way a GPU kernel would give each thread (or warp) a fixed share of codes even when
 * row lengths vary wildly. Two phases:
 *
 *  1. per chunk, independently: rows that START in the chunk are walked from start(); those that
 *     also end in it are decided. The codes before the first row start (the tail of a row begun in
 *     an earlier chunk) are summarised by their state_map, S lookups per code. The chunk's
 *     carry map F_c is the map of the row leaving the chunk: that state_map when no row starts in
 *     the chunk, else the constant map to the state the last started row reached.
 *  2. carry_in(c) = (F_{c-1} o ... o F_0)(start()) -- an exclusive scan of an associative
 *     operator (done left to right here; a GPU does it with a decoupled look-back scan). Each
 *     chunk's leading row tail is then decided from its map applied to carry_in.
 *
 * Rows with no codes are decided from start() alone. The result equals select_like exactly.
 */
inline selection_bitmask select_like_chunked(compressed_column const& col, like_matcher const& lm,
                                             std::uint64_t chunk_codes)
{
  detail::expect_column_shape(col);
  FASTPAIR_EXPECTS(chunk_codes > 0, "select_like_chunked: chunk_codes must be positive");
  std::uint64_t const R = col.num_rows(), M = col.num_codes;
  auto const& rco       = col.row_code_offsets;
  selection_bitmask out(R);
  bool const empty_matches = lm.start() == lm.accept();
  for (std::uint64_t r = 0; r < R; ++r)
    if (rco[r] == rco[r + 1] && empty_matches) out.set(r);

  std::uint64_t const chunks = (M + chunk_codes - 1) / chunk_codes;
  struct summary {
    std::uint64_t head_row = 0;  // row owning the chunk's first code
    bool head_is_tail      = false;  // that row began in an earlier chunk
    bool head_ends         = false;  // ... and ends in this chunk
    state_map head;                  // map of the tail codes (when head_is_tail)
    bool started           = false;  // some row starts in this chunk
    std::uint32_t out_state = 0;     // state of the last started row at chunk end (if it continues)
  };
  std::vector<summary> sum(chunks);
  // Phase 1: independent per chunk.
  for (std::uint64_t c = 0; c < chunks; ++c) {
    std::uint64_t const j0 = c * chunk_codes, j1 = std::min(j0 + chunk_codes, M);
    summary& s             = sum[c];
    // Row with rco[r] <= j0 < rco[r+1] (upper_bound skips empty rows).
    std::uint64_t r = static_cast<std::uint64_t>(std::upper_bound(rco.begin(), rco.end(), j0) - rco.begin()) - 1;
    s.head_row      = r;
    std::uint64_t j = j0;
    if (rco[r] < j0) {
      s.head_is_tail = true;
      std::uint64_t const e = std::min(rco[r + 1], j1);
      s.head                = codes_map(lm, col, j0, e);
      s.head_ends           = rco[r + 1] <= j1;
      j                     = e;
      ++r;
    }
    for (; j < j1; ++r) {  // rows starting at j (skip empty ones)
      if (rco[r + 1] == rco[r]) continue;
      std::uint64_t const e = std::min(rco[r + 1], j1);
      std::uint32_t const q = lm.walk(col, j, e, lm.start());
      if (rco[r + 1] <= j1) {
        if (q == lm.accept()) out.set(r);
      } else {
        s.started   = true;
        s.out_state = q;
      }
      j = e;
    }
  }
  // Phase 2: exclusive scan of the carry maps (only single states travel left to right).
  std::uint32_t carry = lm.start();
  for (std::uint64_t c = 0; c < chunks; ++c) {
    summary const& s = sum[c];
    std::uint32_t const in = carry;
    if (s.head_is_tail) {
      std::uint32_t const q = s.head.to[in];
      if (s.head_ends && q == lm.accept()) out.set(s.head_row);
      carry = q;  // meaningful only when the row continues (no row started and !head_ends)
    }
    if (s.started) carry = s.out_state;
  }
  return out;
}

}  // namespace fastpair
