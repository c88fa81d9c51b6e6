// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file cascade.hpp
 * @brief Row-level cascades: a column with few distinct values stored as a FastPair-compressed
 * column of its distinct rows plus bit-width-reduced row -> distinct-id indices, optionally
 * run-length encoded (the "composite encodings" of the SQL-on-compressed-data seed, applied to
 * strings).
 *
 * Host-only (compiles with g++ alone). Layout:
 *
 * @code{.text}
 *  distinct     compressed_column of the D distinct rows, id = order of first appearance
 *  indices      ids[num_rows] packed at b = bit_width(D - 1) bits           (layout::indices)
 *  runs         ids[R] and (length - 1)[R] packed at their own bit widths  (layout::runs)
 *               run k covers rows [sum of lengths before k, ... + length_k)
 *  packing      value i occupies bits [i*b, i*b + b) of u32 words, LSB first; b in 0..32
 *               (b = 0: every value is 0 and no word is stored)
 * @endcode
 *
 * Row offsets are not stored: row r's length is the length of distinct row ids[r], so the only
 * row metadata is the distinct column's own offsets (D + 1 entries), counted bit-width reduced.
 *
 * Relation to encode.hpp: `encode_auto(rows, opt, &choice)` is unchanged (it returns a plain
 * compressed_column). `encode_auto_cascade(rows, opt, copt, &why)` runs the same plain candidates and
 * the cascades over the same codecs and returns an `any_column` holding a cascade only when its
 * stored size with row metadata is smaller than the best plain column's.
 */
#pragma once

#include <fastpair/encode.hpp>
#include <fastpair/error.hpp>
#include <fastpair/format.hpp>
#include <fastpair/reference.hpp>
#include <fastpair/validate.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace fastpair {

// -------------------------------------------------------------------------------------------------
// Bit-width-reduced unsigned integers
// -------------------------------------------------------------------------------------------------

/** @brief Number of bits needed to store `v` (0 for 0). */
constexpr int bit_width_of(std::uint64_t v) noexcept
{
  int b = 0;
  while (v) {
    ++b;
    v >>= 1;
  }
  return b;
}

/** @brief `count` unsigned values of `bits` bits each (0..32), packed LSB first into u32 words. */
struct packed_ints {
  std::uint32_t bits  = 0;
  std::uint64_t count = 0;
  std::vector<std::uint32_t> words;  ///< words_for(bits, count) words; unused high bits are zero

  /** @brief u32 words needed for `count` values of `bits` bits. */
  static constexpr std::uint64_t words_for(std::uint32_t bits, std::uint64_t count) noexcept
  {
    return (count * bits + 31) / 32;
  }
  /** @brief Stored bytes (the size a file would hold): ceil(count * bits / 8). */
  std::uint64_t stored_bytes() const noexcept { return (count * bits + 7) / 8; }

  /** @brief Value i (unchecked: i < count, words sized as words_for). */
  std::uint32_t operator[](std::uint64_t i) const noexcept
  {
    if (bits == 0) return 0;
    std::uint64_t const bit = i * bits;
    std::uint64_t const w   = bit >> 5;
    unsigned const off      = static_cast<unsigned>(bit & 31);
    std::uint64_t v         = words[w] >> off;
    if (off + bits > 32) v |= std::uint64_t{words[w + 1]} << (32 - off);
    return static_cast<std::uint32_t>(v & (bits == 32 ? 0xFFFFFFFFull : ((1ull << bits) - 1)));
  }

  /** @brief Packs `values` at the smallest width that holds their maximum. */
  static packed_ints pack(std::vector<std::uint32_t> const& values)
  {
    std::uint32_t mx = 0;
    for (std::uint32_t v : values) mx = v > mx ? v : mx;
    return pack(values, static_cast<std::uint32_t>(bit_width_of(mx)));
  }
  /** @brief Packs `values` at `bits` bits each (every value must fit). */
  static packed_ints pack(std::vector<std::uint32_t> const& values, std::uint32_t bits)
  {
    FASTPAIR_EXPECTS(bits <= 32, "packed_ints: bits must be 0..32");
    packed_ints p;
    p.bits  = bits;
    p.count = values.size();
    p.words.assign(words_for(bits, p.count), 0);
    if (bits == 0) return p;
    for (std::uint64_t i = 0; i < p.count; ++i) {
      FASTPAIR_EXPECTS(bits == 32 || values[i] < (1ull << bits), "packed_ints: value does not fit");
      std::uint64_t const bit = i * bits;
      std::uint64_t const w   = bit >> 5;
      unsigned const off      = static_cast<unsigned>(bit & 31);
      std::uint64_t const v   = std::uint64_t{values[i]} << off;
      p.words[w] |= static_cast<std::uint32_t>(v);
      if (off + bits > 32) p.words[w + 1] |= static_cast<std::uint32_t>(v >> 32);
    }
    return p;
  }
  friend bool operator==(packed_ints const& a, packed_ints const& b)
  {
    return a.bits == b.bits && a.count == b.count && a.words == b.words;
  }
};

// -------------------------------------------------------------------------------------------------
// The cascaded column
// -------------------------------------------------------------------------------------------------

/** @brief How rows map to distinct ids. */
enum class cascade_layout : std::uint8_t {
  indices = 1,  ///< one packed id per row
  runs    = 2,  ///< runs of equal ids: one packed id and one packed (length - 1) per run
};

/** @brief "indices" or "runs". */
inline char const* cascade_layout_name(cascade_layout l) noexcept
{
  return l == cascade_layout::runs ? "runs" : "indices";
}

/**
 * @brief A string column stored as its distinct rows (a compressed_column) plus per-row ids.
 *
 * Invariants (checked by validate(cascaded_column)): `distinct` is a valid column; layout indices:
 * ids.count == num_rows and run_lengths is empty; layout runs: run_lengths.count == ids.count and
 * the run lengths (stored minus one) sum to num_rows; every id < distinct.num_rows(); bit widths
 * <= 32 and word counts consistent with them.
 */
struct cascaded_column {
  compressed_column distinct;                       ///< the D distinct rows, in order of first appearance
  std::uint64_t num_rows = 0;                       ///< rows of the column
  cascade_layout layout  = cascade_layout::indices;  ///< indices or runs
  packed_ints ids;                                  ///< distinct id per row (indices) or per run (runs)
  packed_ints run_lengths;                          ///< runs only: length - 1 of each run

  std::uint64_t num_distinct() const noexcept { return distinct.num_rows(); }
  std::uint64_t num_runs() const noexcept { return layout == cascade_layout::runs ? ids.count : num_rows; }
};

/** @brief Stored sizes of a cascaded column (see cascade_stored_size for what is counted). */
struct cascade_size {
  stored_size distinct;           ///< the distinct column; its row_metadata counted bit-width reduced
  std::uint64_t ids         = 0;  ///< packed ids
  std::uint64_t run_lengths = 0;  ///< packed run lengths (runs layout)
  /** @brief Paper definition: distinct dictionary + codes + sidecar + packed ids and run lengths. */
  std::uint64_t paper() const noexcept { return distinct.paper() + ids + run_lengths; }
  /** @brief Plus the distinct column's row offsets (the only row metadata a cascade has). */
  std::uint64_t with_rows() const noexcept { return paper() + distinct.row_metadata; }
};

/**
 * @brief The stored size of a cascade, counted like column_stored_size: the distinct column's
 * dictionary (token bytes + 1 length byte per token), packed codes and sidecar (8 B per entry);
 * ids and run lengths at their packed size ceil(count * bits / 8); row metadata = the distinct
 * column's D + 1 code offsets and D + 1 byte offsets, each array at bit_width(its last value)
 * bits per entry (not the 4 or 8 B of column_stored_size: the cascade's metadata is
 * bit-width reduced). A few header words (counts, widths) are not counted, as for plain columns.
 */
inline cascade_size cascade_stored_size(cascaded_column const& c) noexcept
{
  cascade_size s;
  s.distinct = column_stored_size(c.distinct);
  std::uint64_t const entries = c.distinct.num_rows() + 1;
  std::uint64_t const bits    = static_cast<std::uint64_t>(bit_width_of(c.distinct.num_codes)) +
                             static_cast<std::uint64_t>(bit_width_of(c.distinct.decoded_bytes()));
  s.distinct.row_metadata = (entries * bits + 7) / 8;
  s.ids                   = c.ids.stored_bytes();
  s.run_lengths           = c.run_lengths.stored_bytes();
  return s;
}

namespace detail {
inline void check_packed(std::string const& field, packed_ints const& p)
{
  if (p.bits > 32) fail_format(field + ".bits", u64s(p.bits) + " > 32");
  if (p.count > (std::uint64_t{1} << 58)) fail_format(field + ".count", u64s(p.count) + " too large");
  if (p.words.size() != packed_ints::words_for(p.bits, p.count))
    fail_format(field + ".words", u64s(p.words.size()) + " words, expected " +
                                    u64s(packed_ints::words_for(p.bits, p.count)) + " for " + u64s(p.count) +
                                    " values of " + u64s(p.bits) + " bits");
}
}  // namespace detail

/**
 * @brief Validates an untrusted cascaded column. Each check only reads what the previous ones
 * proved in range, so no access is out of bounds.
 * @throw format_error naming the field and the offending value.
 */
inline void validate(cascaded_column const& c)
{
  using detail::fail_format;
  using detail::u64s;
  if (c.layout != cascade_layout::indices && c.layout != cascade_layout::runs)
    fail_format("cascade.layout", u64s(static_cast<std::uint8_t>(c.layout)) + " (expected 1 indices or 2 runs)");
  validate(c.distinct);
  detail::check_packed("cascade.ids", c.ids);
  std::uint64_t const d = c.distinct.num_rows();
  if (c.layout == cascade_layout::indices) {
    if (c.ids.count != c.num_rows)
      fail_format("cascade.ids.count", u64s(c.ids.count) + " != num_rows " + u64s(c.num_rows));
    if (c.run_lengths.count != 0 || !c.run_lengths.words.empty())
      fail_format("cascade.run_lengths", "present in the indices layout");
  } else {
    detail::check_packed("cascade.run_lengths", c.run_lengths);
    if (c.run_lengths.count != c.ids.count)
      fail_format("cascade.run_lengths.count", u64s(c.run_lengths.count) + " != run count " + u64s(c.ids.count));
    std::uint64_t sum = 0;
    for (std::uint64_t k = 0; k < c.run_lengths.count; ++k) {
      sum += std::uint64_t{c.run_lengths[k]} + 1;
      if (sum > c.num_rows)
        fail_format("cascade.run_lengths[" + u64s(k) + "]", "runs cover more than num_rows " + u64s(c.num_rows));
    }
    if (sum != c.num_rows)
      fail_format("cascade.run_lengths", "sum " + u64s(sum) + " != num_rows " + u64s(c.num_rows));
  }
  for (std::uint64_t i = 0; i < c.ids.count; ++i)
    if (c.ids[i] >= d)
      fail_format("cascade.ids[" + u64s(i) + "]", "value " + u64s(c.ids[i]) + " >= distinct count " + u64s(d));
}

/** @brief Calls `fn(row_begin, row_end, id)` for each run of equal ids, in row order (indices
 *  layout: one call per row). The column must be valid. */
template <class Fn>
void for_each_run(cascaded_column const& c, Fn&& fn)
{
  if (c.layout == cascade_layout::indices) {
    for (std::uint64_t r = 0; r < c.num_rows; ++r) fn(r, r + 1, c.ids[r]);
    return;
  }
  std::uint64_t r = 0;
  for (std::uint64_t k = 0; k < c.ids.count; ++k) {
    std::uint64_t const len = std::uint64_t{c.run_lengths[k]} + 1;
    fn(r, r + len, c.ids[k]);
    r += len;
  }
}

/** @brief Decoded bytes of a valid cascade (sum of its rows' lengths). */
inline std::uint64_t cascade_decoded_bytes(cascaded_column const& c)
{
  auto const& off = c.distinct.row_byte_offsets;
  std::uint64_t total = 0;
  for_each_run(c, [&](std::uint64_t b, std::uint64_t e, std::uint32_t id) { total += (e - b) * (off[id + 1] - off[id]); });
  return total;
}

/**
 * @brief Decodes a cascade on the CPU: the distinct rows with decode_reference, then a gather.
 * @code{.pseudo}
 * distinct {"ab", ""}, ids {0, 0, 1, 0} -> offsets {0, 2, 4, 4, 6}, chars "ababab"
 * @endcode
 * @param validate_first validate first (default); pass false only for a validated column.
 * @throw format_error if the column is invalid.
 */
inline host_strings decode_reference(cascaded_column const& c, bool validate_first = true)
{
  if (validate_first) validate(c);
  host_strings const d = decode_reference(c.distinct, 0, c.distinct.num_rows(), false);
  host_strings out;
  out.offsets.reserve(c.num_rows + 1);
  out.chars.reserve(cascade_decoded_bytes(c));
  for_each_run(c, [&](std::uint64_t b, std::uint64_t e, std::uint32_t id) {
    std::string_view const v = d.row(id);
    for (std::uint64_t r = b; r < e; ++r) out.push_back(v);
  });
  return out;
}

// -------------------------------------------------------------------------------------------------
// Building
// -------------------------------------------------------------------------------------------------

/** @brief Options of the cascade builders. */
struct cascade_options {
  /** @brief Build no cascade when distinct rows exceed this share of all rows (0..1): with that
   *  many distinct values the distinct column alone is about as large as the plain column. */
  double max_distinct_share = 0.5;
  bool allow_indices = true;  ///< consider the indices layout
  bool allow_runs    = true;  ///< consider the runs layout
};

/** @brief The distinct rows of a column (first-appearance order) and each row's id. */
struct distinct_rows {
  host_strings values;
  std::vector<std::uint32_t> ids;  ///< one per input row
};

/**
 * @brief Finds the distinct rows; stops early (returns false) once more than `max_distinct` are
 * found. Deterministic: ids follow the order of first appearance.
 */
inline bool find_distinct(strings_view rows, std::uint64_t max_distinct, distinct_rows& out)
{
  out = {};
  out.ids.resize(rows.num_rows);
  std::unordered_map<std::string_view, std::uint32_t> seen;
  seen.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(max_distinct, rows.num_rows) + 1));
  for (std::size_t r = 0; r < rows.num_rows; ++r) {
    auto const [it, fresh] = seen.try_emplace(rows.row(r), static_cast<std::uint32_t>(seen.size()));
    if (fresh) {
      if (seen.size() > max_distinct || seen.size() > 0xFFFFFFFFull) return false;
      out.values.push_back(rows.row(r));
    }
    out.ids[r] = it->second;
  }
  return true;
}

/** @brief Builds the cascade of `layout` over an already encoded distinct column. */
inline cascaded_column make_cascade(compressed_column distinct, std::vector<std::uint32_t> const& ids,
                                    cascade_layout layout)
{
  cascaded_column c;
  c.num_rows = ids.size();
  c.layout   = layout;
  std::uint32_t const id_bits =
    static_cast<std::uint32_t>(bit_width_of(distinct.num_rows() ? distinct.num_rows() - 1 : 0));
  if (layout == cascade_layout::indices) {
    c.ids = packed_ints::pack(ids, id_bits);
  } else {
    std::vector<std::uint32_t> run_ids, run_len;  // lengths stored minus one, runs cut at 2^32
    for (std::size_t r = 0; r < ids.size();) {
      std::size_t e = r + 1;
      while (e < ids.size() && ids[e] == ids[r] && e - r < 0xFFFFFFFFull + 1) ++e;
      run_ids.push_back(ids[r]);
      run_len.push_back(static_cast<std::uint32_t>(e - r - 1));
      r = e;
    }
    c.ids         = packed_ints::pack(run_ids, id_bits);
    c.run_lengths = packed_ints::pack(run_len);
  }
  c.distinct = std::move(distinct);
  return c;
}

/** @brief Builds a cascade of `rows` with `kind` for the distinct column (always, whatever the
 *  cardinality; for a choice use encode_cascade). */
inline cascaded_column compress_cascade(strings_view rows, codec kind, cascade_layout layout,
                                        train_options const& opt = {})
{
  distinct_rows d;
  find_distinct(rows, ~std::uint64_t{0}, d);
  return make_cascade(compress(d.values, kind, opt), d.ids, layout);
}

/** @brief A column that is either plain or a cascade (what the auto encoders return). */
struct any_column {
  std::variant<compressed_column, cascaded_column> value;

  bool is_cascade() const noexcept { return std::holds_alternative<cascaded_column>(value); }
  compressed_column const& plain() const { return std::get<compressed_column>(value); }
  cascaded_column const& cascade() const { return std::get<cascaded_column>(value); }
  std::uint64_t num_rows() const noexcept
  {
    return is_cascade() ? std::get<cascaded_column>(value).num_rows : std::get<compressed_column>(value).num_rows();
  }
  /** @brief Stored size with row metadata (column_stored_size or cascade_stored_size). */
  std::uint64_t stored_with_rows() const noexcept
  {
    return is_cascade() ? cascade_stored_size(cascade()).with_rows() : column_stored_size(plain()).with_rows();
  }
  std::uint64_t stored_paper() const noexcept
  {
    return is_cascade() ? cascade_stored_size(cascade()).paper() : column_stored_size(plain()).paper();
  }
};

/** @brief Validates either alternative. @throw format_error */
inline void validate(any_column const& c)
{
  if (c.is_cascade()) validate(c.cascade());
  else validate(c.plain());
}

/** @brief Decodes either alternative on the CPU. @throw format_error */
inline host_strings decode_reference(any_column const& c)
{
  return c.is_cascade() ? decode_reference(c.cascade()) : decode_reference(c.plain());
}

namespace detail {
/** Picks the smallest of `plain` and the cascades of `d` over `distinct`, by with_rows(); ties go
 *  to plain, then indices (cheaper to decode). Appends the candidates' sizes to `sizes`. */
inline any_column pick_smallest(compressed_column plain, distinct_rows const* d, compressed_column const* distinct,
                                cascade_options const& copt, std::string& sizes, std::string& winner)
{
  any_column best{std::move(plain)};
  std::uint64_t best_size = best.stored_with_rows();
  sizes += "plain " + std::to_string(best_size) + " B";
  winner = "plain";
  if (!d) return best;
  for (cascade_layout l : {cascade_layout::indices, cascade_layout::runs}) {
    if ((l == cascade_layout::indices && !copt.allow_indices) || (l == cascade_layout::runs && !copt.allow_runs)) continue;
    cascaded_column c     = make_cascade(*distinct, d->ids, l);
    std::uint64_t const s = cascade_stored_size(c).with_rows();
    sizes += std::string(", cascade+") + cascade_layout_name(l) + " " + std::to_string(s) + " B";
    if (s < best_size) {
      best_size  = s;
      best.value = std::move(c);
      winner     = std::string("cascade+") + cascade_layout_name(l);
    }
  }
  return best;
}

inline bool distinct_for_cascade(strings_view rows, cascade_options const& copt, distinct_rows& d, std::string& note)
{
  FASTPAIR_EXPECTS(copt.max_distinct_share >= 0.0 && copt.max_distinct_share <= 1.0,
                   "cascade_options: max_distinct_share must be in [0, 1]");
  auto const limit = static_cast<std::uint64_t>(copt.max_distinct_share * static_cast<double>(rows.num_rows));
  if ((!copt.allow_indices && !copt.allow_runs) || rows.num_rows == 0) {
    note = "no cascade considered";
    return false;
  }
  if (!find_distinct(rows, limit, d)) {
    note = "no cascade: more than " + std::to_string(limit) + " distinct rows (max_distinct_share " +
           std::to_string(copt.max_distinct_share) + ")";
    return false;
  }
  note = std::to_string(d.values.num_rows()) + " distinct of " + std::to_string(rows.num_rows) + " rows";
  return true;
}
}  // namespace detail

/**
 * @brief Encodes `rows` with codec `kind` as the smallest (stored size with row metadata) of:
 * the plain column, the cascade with indices and the cascade with runs (the distinct column also
 * uses `kind`). Cascades are only tried when distinct rows are at most
 * `copt.max_distinct_share` of the rows. Ties go to the plain column, then to indices.
 * @param why if not null, receives the winner, every candidate's size and the distinct count.
 */
inline any_column encode_cascade(strings_view rows, codec kind, train_options const& opt = {},
                                 cascade_options const& copt = {}, std::string* why = nullptr)
{
  distinct_rows d;
  std::string note, sizes, winner;
  bool const try_cascade = detail::distinct_for_cascade(rows, copt, d, note);
  compressed_column distinct;
  if (try_cascade) distinct = compress(d.values, kind, opt);
  any_column best = detail::pick_smallest(compress(rows, kind, opt), try_cascade ? &d : nullptr, &distinct, copt,
                                          sizes, winner);
  if (why) *why = winner + " (" + codec_name(kind) + "): smallest stored size with row metadata (" + sizes + "; " + note + ")";
  return best;
}

/**
 * @brief encode_auto with cascades: the plain candidate is encode_auto(rows, opt) (smallest of
 * FSST-12, OnPair-12, OnPair-16), the cascades' distinct column is encode_auto(distinct rows, opt).
 * A cascade is returned only when its stored size with row metadata is strictly smaller than the
 * plain column's; otherwise the result holds exactly what encode_auto returns.
 * @param why if not null, receives the winner, the candidates' sizes and both encode_auto reasons.
 */
inline any_column encode_auto_cascade(strings_view rows, train_options const& opt = {},
                                      cascade_options const& copt = {}, std::string* why = nullptr)
{
  distinct_rows d;
  std::string note, sizes, winner;
  bool const try_cascade = detail::distinct_for_cascade(rows, copt, d, note);
  auto_choice plain_why, distinct_why;
  compressed_column plain = encode_auto(rows, opt, &plain_why);
  compressed_column distinct;
  if (try_cascade) distinct = encode_auto(d.values, opt, &distinct_why);
  any_column best = detail::pick_smallest(std::move(plain), try_cascade ? &d : nullptr, &distinct, copt, sizes, winner);
  if (why) {
    *why = winner + ": smallest stored size with row metadata (" + sizes + "; " + note + "); plain: " + plain_why.reason;
    if (try_cascade) *why += "; distinct rows: " + distinct_why.reason;
  }
  return best;
}

}  // namespace fastpair
