// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file dsv.hpp
 * @brief Delimiter-separated raw text (CSV, TPC-H .tbl, ...) into string columns: the host side of
 * the ParPaRaw approach (issue 9).
 *
 * Host-only (compiles with g++ alone). Two parsers with the same output and the same errors:
 *
 * - `parse_dsv_reference()` : a plain sequential hand-written parser, the oracle.
 * - `parse_dsv_parallel()`  : the data-parallel algorithm a GPU version mirrors, run on the CPU
 *   over chunks of `chunk_bytes` (std::thread or one chunk after another):
 *   1. every chunk simulates the parser DFA (`dsv::machine`) from EVERY start state and keeps the
 *      state-transition vector (`dsv::transition_vector`, 7 states x 4 bits);
 *   2. an exclusive scan of the vectors under composition gives each chunk's true start state;
 *   3. every chunk walks its bytes from that state and counts fields, records, kept bytes;
 *   4. exclusive scans of the counts give each chunk its global field/record/byte indices;
 *   5. every chunk walks again and writes kept bytes, field ends and record ends;
 *   6. per record: field-count / trailing-delimiter checks; per column: lengths, an exclusive scan
 *      into offsets, and a gather of the bytes.
 *   No step is a sequential pass over the input. See docs/DSV.md for the DFA table and the policy.
 *
 * Error policy (both parsers, identical): the first error in input order is thrown as `dsv_error`
 * (a `format_error`) naming the byte offset and the 1-based record number (the header, when
 * present, is record 1). Syntax errors are strict: a quote inside an unquoted field, anything but
 * a delimiter / terminator / end after a closing quote, a CR not followed by LF (when `crlf`), a
 * record terminator inside quotes (when `!quoted_newlines`), an unterminated quote. Every record
 * must have the same number of fields: `expected_fields` when >= 0, else the first record's count.
 */
#pragma once

#include <fastpair/error.hpp>
#include <fastpair/format.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#if defined(__CUDACC__)
#define FASTPAIR_DSV_HD __host__ __device__
#else
#define FASTPAIR_DSV_HD
#endif

namespace fastpair {

/** @brief What the raw text looks like. The defaults are RFC 4180 CSV. */
struct dsv_dialect {
  char delimiter            = ',';   ///< field separator
  char quote                = '"';   ///< quote character; a field is quoted iff it starts with it
  bool doubled_quote_escape = true;  ///< "" inside a quoted field is one quote character
  bool crlf                 = true;  ///< accept CRLF and LF as record terminator (false: LF only, CR is data)
  bool header               = false; ///< the first record holds the field names
  bool quoted_newlines      = true;  ///< quoted fields may contain CR / LF (RFC 4180)
  int expected_fields       = -1;    ///< fields per record; -1: not fixed (the first record decides)
  bool trailing_delimiter   = false; ///< TPC-H .tbl: each record ends with the delimiter
};

/** @brief The TPC-H dbgen dialect: '|'-separated, a '|' after the last field, LF, no header. */
inline dsv_dialect tpch_dialect(int fields = -1)
{
  dsv_dialect d;
  d.delimiter          = '|';
  d.trailing_delimiter = true;
  d.expected_fields    = fields;
  return d;
}

/** @brief Why the input was rejected. */
enum class dsv_error_kind : std::uint8_t {
  none                          = 0,
  quote_in_unquoted_field       = 1,  ///< offset: the quote
  character_after_closing_quote = 2,  ///< offset: the character
  quote_after_closing_quote     = 3,  ///< offset: the second quote (only when !doubled_quote_escape)
  newline_in_quoted_field       = 4,  ///< offset: the CR or LF (only when !quoted_newlines)
  lone_carriage_return          = 5,  ///< offset: the CR
  unterminated_quote            = 6,  ///< offset: the opening quote of the unterminated field
  missing_trailing_delimiter    = 7,  ///< offset: first byte of the record
  wrong_field_count             = 8,  ///< offset: first byte of the record
};

/** @brief Human-readable description of an error kind. */
inline char const* dsv_error_kind_name(dsv_error_kind k) noexcept
{
  switch (k) {
    case dsv_error_kind::none: return "no error";
    case dsv_error_kind::quote_in_unquoted_field: return "quote character inside an unquoted field";
    case dsv_error_kind::character_after_closing_quote:
      return "character after a closing quote (expected delimiter, record terminator or end of input)";
    case dsv_error_kind::quote_after_closing_quote:
      return "quote after a closing quote (doubled-quote escapes are disabled)";
    case dsv_error_kind::newline_in_quoted_field:
      return "record terminator inside a quoted field (quoted_newlines is off)";
    case dsv_error_kind::lone_carriage_return: return "carriage return not followed by line feed";
    case dsv_error_kind::unterminated_quote: return "unterminated quoted field at end of input";
    case dsv_error_kind::missing_trailing_delimiter:
      return "record does not end with the delimiter (trailing_delimiter is on)";
    case dsv_error_kind::wrong_field_count: return "wrong number of fields";
  }
  return "unknown error";
}

/** @brief A DSV parse error: a `format_error` that also carries the kind, byte offset and 1-based
 *  record number (the header, when present, is record 1). */
struct dsv_error : format_error {
  dsv_error_kind kind;
  std::uint64_t offset;  ///< byte offset into the input (see dsv_error_kind for which byte)
  std::uint64_t record;  ///< 1-based record number, counting the header

  dsv_error(dsv_error_kind k, std::uint64_t off, std::uint64_t rec, std::string const& msg)
    : format_error(msg), kind(k), offset(off), record(rec)
  {
  }
};

namespace detail {
[[noreturn]] inline void throw_dsv_error(dsv_error_kind k, std::uint64_t offset, std::uint64_t record,
                                         std::uint64_t fields = 0, std::uint64_t expected = 0)
{
  std::string msg = "fastpair: DSV parse error at byte " + std::to_string(offset) + " (record " +
                    std::to_string(record) + "): " + dsv_error_kind_name(k);
  if (k == dsv_error_kind::wrong_field_count)
    msg += ": the record has " + std::to_string(fields) + " fields, expected " + std::to_string(expected);
  throw dsv_error(k, offset, record, msg);
}

inline void check_dialect(dsv_dialect const& d)
{
  FASTPAIR_EXPECTS(d.delimiter != d.quote, "DSV dialect: delimiter and quote must differ");
  FASTPAIR_EXPECTS(d.delimiter != '\n' && d.delimiter != '\r', "DSV dialect: delimiter must not be CR or LF");
  FASTPAIR_EXPECTS(d.quote != '\n' && d.quote != '\r', "DSV dialect: quote must not be CR or LF");
  FASTPAIR_EXPECTS(d.expected_fields >= -1, "DSV dialect: expected_fields must be >= -1");
}
}  // namespace detail

/** @brief A parsed table: one Arrow-style string column per field. */
struct dsv_table {
  std::vector<host_strings> columns;  ///< columns[j].row(i): field j of data record i (unquoted, unescaped)
  std::vector<std::string> header;    ///< the field names when dialect.header, else empty
  std::uint64_t num_records = 0;      ///< data records (the header not counted)

  std::size_t num_fields() const noexcept { return columns.size(); }

  friend bool operator==(dsv_table const& a, dsv_table const& b)
  {
    return a.num_records == b.num_records && a.header == b.header && a.columns == b.columns;
  }
  friend bool operator!=(dsv_table const& a, dsv_table const& b) { return !(a == b); }
};

// ------------------------------------------------------------------------------------------------
// The reference parser: sequential, hand-written, no DFA tables.
// ------------------------------------------------------------------------------------------------

/**
 * @brief Parses `input` one byte after another. The oracle for `parse_dsv_parallel()`.
 * @throw dsv_error (a format_error) on malformed input; logic_error on an invalid dialect.
 */
inline dsv_table parse_dsv_reference(std::string_view input, dsv_dialect const& d)
{
  detail::check_dialect(d);
  std::size_t const n = input.size();
  auto const is_cr    = [&](char c) { return d.crlf && c == '\r'; };

  dsv_table t;
  std::uint64_t record_no = 1;  // 1-based, counting the header
  std::size_t ncols       = d.expected_fields >= 0 ? static_cast<std::size_t>(d.expected_fields) : 0;
  bool ncols_known        = d.expected_fields >= 0;
  std::vector<std::string> fields;
  t.columns.resize(ncols);  // expected_fields columns even for an empty input

  auto finish_record = [&](std::size_t record_start) {
    if (d.trailing_delimiter) {
      if (fields.size() < 2 || !fields.back().empty())
        detail::throw_dsv_error(dsv_error_kind::missing_trailing_delimiter, record_start, record_no);
      fields.pop_back();
    }
    if (!ncols_known) {
      ncols       = fields.size();
      ncols_known = true;
    }
    if (fields.size() != ncols)
      detail::throw_dsv_error(dsv_error_kind::wrong_field_count, record_start, record_no, fields.size(), ncols);
    if (record_no == 1 && d.header) {
      t.header = fields;
      t.columns.resize(ncols);
    } else {
      if (t.columns.size() != ncols) t.columns.resize(ncols);
      for (std::size_t j = 0; j < ncols; ++j) t.columns[j].push_back(fields[j]);
      ++t.num_records;
    }
    ++record_no;
  };

  std::size_t i = 0;
  while (i < n) {  // one record per iteration
    std::size_t const record_start = i;
    fields.clear();
    for (;;) {  // one field per iteration
      std::string f;
      if (i < n && input[i] == d.quote) {
        std::size_t const open = i++;
        for (;;) {
          if (i == n) detail::throw_dsv_error(dsv_error_kind::unterminated_quote, open, record_no);
          char const c = input[i];
          if (c == d.quote) {
            if (d.doubled_quote_escape && i + 1 < n && input[i + 1] == d.quote) {
              f += d.quote;
              i += 2;
              continue;
            }
            ++i;  // the closing quote
            break;
          }
          if (!d.quoted_newlines && (c == '\n' || is_cr(c)))
            detail::throw_dsv_error(dsv_error_kind::newline_in_quoted_field, i, record_no);
          f += c;
          ++i;
        }
        if (i < n && input[i] != d.delimiter && input[i] != '\n' && !is_cr(input[i]))
          detail::throw_dsv_error(input[i] == d.quote ? dsv_error_kind::quote_after_closing_quote
                                                      : dsv_error_kind::character_after_closing_quote,
                                  i, record_no);
      } else {
        while (i < n && input[i] != d.delimiter && input[i] != '\n' && !is_cr(input[i])) {
          if (input[i] == d.quote)
            detail::throw_dsv_error(dsv_error_kind::quote_in_unquoted_field, i, record_no);
          f += input[i++];
        }
      }
      fields.push_back(std::move(f));
      // Here i == n or input[i] is a delimiter, CR (crlf) or LF.
      if (i == n) {
        finish_record(record_start);
        break;
      }
      if (input[i] == d.delimiter) {
        ++i;
        continue;  // the next field (possibly empty, possibly at the end of the input)
      }
      if (is_cr(input[i])) {
        if (i + 1 >= n || input[i + 1] != '\n')
          detail::throw_dsv_error(dsv_error_kind::lone_carriage_return, i, record_no);
        ++i;
      }
      ++i;  // the LF
      finish_record(record_start);
      break;
    }
  }
  return t;
}

// ------------------------------------------------------------------------------------------------
// The DFA and the transition vectors: plain data a GPU kernel can copy into constant memory.
// ------------------------------------------------------------------------------------------------
namespace dsv {

/** @brief Parser states. `record_start` is the start state; `failed` absorbs. */
enum state : std::uint8_t {
  record_start    = 0,  ///< at the first byte of a record
  field_start     = 1,  ///< after a delimiter
  unquoted        = 2,  ///< inside an unquoted field
  quoted          = 3,  ///< inside a quoted field
  quote_in_quoted = 4,  ///< after a quote inside a quoted field (closing, or first of a doubled pair)
  after_cr        = 5,  ///< after a CR outside quotes (crlf); only LF may follow
  failed          = 6,  ///< a syntax error happened; absorbing
  num_states      = 7,
};

/** @brief Byte classes. With `crlf == false` CR is `other`. */
enum symbol_class : std::uint8_t { delimiter = 0, quote = 1, cr = 2, lf = 3, other = 4, num_classes = 5 };

/** @brief Action bits of a transition; bits 4..7 hold a dsv_error_kind when entering `failed`. */
enum action_bits : std::uint8_t {
  emit       = 1,  ///< the byte is data of the current field
  end_field  = 2,  ///< the current field ends here (before this byte)
  end_record = 4,  ///< the current record ends here (always together with end_field)
  open_quote = 8,  ///< this byte opens a quoted field
};

FASTPAIR_DSV_HD constexpr dsv_error_kind action_error(std::uint8_t a) noexcept
{
  return static_cast<dsv_error_kind>(a >> 4);
}

/**
 * @brief For every start state, the end state after some bytes: 4 bits per state in a u32.
 * compose(a, b) is "a, then b"; it is associative with identity(), so an exclusive scan of the
 * chunks' vectors gives every chunk's start state as scan[c].get(record_start).
 */
struct transition_vector {
  std::uint32_t bits = 0;

  FASTPAIR_DSV_HD static constexpr transition_vector identity() noexcept
  {
    transition_vector t{};
    for (unsigned s = 0; s < num_states; ++s) t.bits |= std::uint32_t{s} << (4 * s);
    return t;
  }
  FASTPAIR_DSV_HD constexpr unsigned get(unsigned s) const noexcept { return (bits >> (4 * s)) & 0xFu; }
  FASTPAIR_DSV_HD constexpr void set(unsigned s, unsigned v) noexcept
  {
    bits = (bits & ~(std::uint32_t{0xF} << (4 * s))) | (std::uint32_t{v} << (4 * s));
  }
  friend FASTPAIR_DSV_HD constexpr bool operator==(transition_vector a, transition_vector b) noexcept
  {
    return a.bits == b.bits;
  }
};

/** @brief "first, then second": result[s] = second[first[s]]. Associative, not commutative. */
FASTPAIR_DSV_HD constexpr transition_vector compose(transition_vector first, transition_vector second) noexcept
{
  transition_vector r{};
  for (unsigned s = 0; s < num_states; ++s) r.set(s, second.get(first.get(s)));
  return r;
}

/** @brief The DFA of one dialect: byte classes, next states, actions, end-of-input actions. */
struct machine {
  std::uint8_t cls[256];
  std::uint8_t next[num_states][num_classes];
  std::uint8_t act[num_states][num_classes];
  std::uint8_t eof_act[num_states];  ///< actions when the input ends in a state
};

/** @brief Builds the DFA of a dialect (the table in docs/DSV.md). */
inline machine make_machine(dsv_dialect const& d)
{
  detail::check_dialect(d);
  machine m{};
  for (int b = 0; b < 256; ++b) m.cls[b] = other;
  m.cls[static_cast<unsigned char>(d.delimiter)] = delimiter;
  m.cls[static_cast<unsigned char>(d.quote)]     = quote;
  m.cls[static_cast<unsigned char>('\n')]        = lf;
  if (d.crlf) m.cls[static_cast<unsigned char>('\r')] = cr;

  auto const err = [](dsv_error_kind k) { return static_cast<std::uint8_t>(static_cast<unsigned>(k) << 4); };
  auto const set = [&](state s, symbol_class c, state to, std::uint8_t a) {
    m.next[s][c] = to;
    m.act[s][c]  = a;
  };
  std::uint8_t const end_both = end_field | end_record;
  for (state s : {record_start, field_start}) {  // at the first byte of a field
    set(s, delimiter, field_start, end_field);
    set(s, quote, quoted, open_quote);
    set(s, cr, after_cr, 0);
    set(s, lf, record_start, end_both);
    set(s, other, unquoted, emit);
  }
  set(unquoted, delimiter, field_start, end_field);
  set(unquoted, quote, failed, err(dsv_error_kind::quote_in_unquoted_field));
  set(unquoted, cr, after_cr, 0);
  set(unquoted, lf, record_start, end_both);
  set(unquoted, other, unquoted, emit);

  state const nl_to        = d.quoted_newlines ? quoted : failed;
  std::uint8_t const nl_act = d.quoted_newlines ? std::uint8_t{emit} : err(dsv_error_kind::newline_in_quoted_field);
  set(quoted, delimiter, quoted, emit);
  set(quoted, quote, quote_in_quoted, 0);
  set(quoted, cr, nl_to, nl_act);
  set(quoted, lf, nl_to, nl_act);
  set(quoted, other, quoted, emit);

  set(quote_in_quoted, delimiter, field_start, end_field);
  if (d.doubled_quote_escape)
    set(quote_in_quoted, quote, quoted, emit);  // the second quote of "" is the kept byte
  else
    set(quote_in_quoted, quote, failed, err(dsv_error_kind::quote_after_closing_quote));
  set(quote_in_quoted, cr, after_cr, 0);
  set(quote_in_quoted, lf, record_start, end_both);
  set(quote_in_quoted, other, failed, err(dsv_error_kind::character_after_closing_quote));

  // The error is reported at the CR, one byte before the byte that reveals it.
  for (symbol_class c : {delimiter, quote, cr, other}) set(after_cr, c, failed, err(dsv_error_kind::lone_carriage_return));
  set(after_cr, lf, record_start, end_both);

  for (int c = 0; c < num_classes; ++c) set(failed, static_cast<symbol_class>(c), failed, 0);

  m.eof_act[record_start]    = 0;  // a clean end (also the empty input)
  m.eof_act[field_start]     = end_both;
  m.eof_act[unquoted]        = end_both;
  m.eof_act[quote_in_quoted] = end_both;
  m.eof_act[quoted]          = err(dsv_error_kind::unterminated_quote);
  m.eof_act[after_cr]        = err(dsv_error_kind::lone_carriage_return);
  m.eof_act[failed]          = 0;
  return m;
}

/** @brief Step 1: the transition vector of bytes [begin, end), simulating all start states at once. */
inline transition_vector chunk_transition_vector(machine const& m, char const* data, std::size_t begin,
                                                 std::size_t end) noexcept
{
  std::uint8_t cur[num_states];
  for (unsigned s = 0; s < num_states; ++s) cur[s] = static_cast<std::uint8_t>(s);
  for (std::size_t p = begin; p < end; ++p) {
    std::uint8_t const c = m.cls[static_cast<unsigned char>(data[p])];
    for (unsigned s = 0; s < num_states; ++s) cur[s] = m.next[cur[s]][c];
  }
  transition_vector t{};
  for (unsigned s = 0; s < num_states; ++s) t.set(s, cur[s]);
  return t;
}

/**
 * @brief Steps 3 and 5: walks bytes [begin, end) from `start`, calling `visit(offset, action, byte)`
 * for every transition with a non-zero action, and, when `at_end`, once more for the end of input
 * with offset `size`. Returns the state reached (before the end-of-input action).
 */
template <class Visit>
inline unsigned walk_chunk(machine const& m, char const* data, std::size_t begin, std::size_t end,
                           std::size_t size, bool at_end, unsigned start, Visit&& visit)
{
  unsigned s = start;
  for (std::size_t p = begin; p < end; ++p) {
    std::uint8_t const c = m.cls[static_cast<unsigned char>(data[p])];
    std::uint8_t const a = m.act[s][c];
    if (a) visit(p, a, data[p]);
    s = m.next[s][c];
  }
  if (at_end && m.eof_act[s]) visit(size, m.eof_act[s], '\0');
  return s;
}

/** @brief Per-chunk results of step 3 (counting). */
struct chunk_counts {
  std::uint64_t fields  = 0;  ///< end_field events
  std::uint64_t records = 0;  ///< end_record events
  std::uint64_t bytes   = 0;  ///< emitted (kept) bytes
  std::uint64_t error_offset         = UINT64_MAX;  ///< where the first syntax error was detected
  std::uint64_t records_before_error = 0;
  std::uint64_t last_open_quote      = UINT64_MAX;  ///< offset of the last opening quote, if any
  dsv_error_kind error               = dsv_error_kind::none;
};

/** @brief Runs f(i) for i in [0, n) on up to `threads` std::threads (contiguous blocks). */
template <class F>
inline void parallel_for(std::size_t n, unsigned threads, F&& f)
{
  if (threads <= 1 || n <= 1) {
    for (std::size_t i = 0; i < n; ++i) f(i);
    return;
  }
  std::size_t const t = std::min<std::size_t>(threads, n);
  std::vector<std::thread> pool;
  pool.reserve(t);
  for (std::size_t k = 0; k < t; ++k)
    pool.emplace_back([&, k] {
      std::size_t const lo = n * k / t, hi = n * (k + 1) / t;
      for (std::size_t i = lo; i < hi; ++i) f(i);
    });
  for (auto& th : pool) th.join();
}

}  // namespace dsv

/** @brief How `parse_dsv_parallel` splits the work. */
struct dsv_parallel_options {
  std::size_t chunk_bytes = std::size_t{1} << 16;  ///< bytes per chunk (>= 1); tests use 1, 2, 3, 7 ...
  unsigned threads        = 0;                     ///< 0: hardware concurrency; 1: chunks run one after another
};

/**
 * @brief Parses `input` with the chunked transition-vector algorithm (steps in the file comment).
 * Same output and same errors as `parse_dsv_reference()` for every input and every chunk size.
 * @throw dsv_error (a format_error) on malformed input; logic_error on an invalid dialect/options.
 */
inline dsv_table parse_dsv_parallel(std::string_view input, dsv_dialect const& d,
                                    dsv_parallel_options const& opt = {})
{
  using namespace dsv;
  FASTPAIR_EXPECTS(opt.chunk_bytes >= 1, "parse_dsv_parallel: chunk_bytes must be >= 1");
  machine const m      = make_machine(d);
  char const* data     = input.data();
  std::size_t const n  = input.size();
  std::size_t const cb = opt.chunk_bytes;
  std::size_t const nc = n == 0 ? 1 : (n + cb - 1) / cb;  // one empty chunk carries the end of input
  unsigned const threads =
    opt.threads ? opt.threads : std::max(1u, std::thread::hardware_concurrency());
  auto const lo = [&](std::size_t c) { return std::min(n, c * cb); };
  auto const hi = [&](std::size_t c) { return std::min(n, (c + 1) * cb); };

  // 1. Transition vector per chunk (independent).
  std::vector<transition_vector> tv(nc);
  parallel_for(nc, threads, [&](std::size_t c) { tv[c] = chunk_transition_vector(m, data, lo(c), hi(c)); });

  // 2. Exclusive scan under composition -> each chunk's start state (cub::DeviceScan on the GPU).
  std::vector<std::uint8_t> start(nc);
  {
    transition_vector acc = transition_vector::identity();
    for (std::size_t c = 0; c < nc; ++c) {
      start[c] = static_cast<std::uint8_t>(acc.get(record_start));
      acc      = compose(acc, tv[c]);
    }
  }

  // 3. Count fields, records and kept bytes per chunk from its true start state.
  std::vector<chunk_counts> cnt(nc);
  parallel_for(nc, threads, [&](std::size_t c) {
    chunk_counts k;
    walk_chunk(m, data, lo(c), hi(c), n, c + 1 == nc, start[c], [&](std::size_t p, std::uint8_t a, char) {
      if (a & emit) ++k.bytes;
      if (a & end_field) ++k.fields;
      if (a & end_record) ++k.records;
      if (a & open_quote) k.last_open_quote = p;
      if (action_error(a) != dsv_error_kind::none && k.error == dsv_error_kind::none) {
        k.error                = action_error(a);
        k.error_offset         = p;
        k.records_before_error = k.records;
      }
    });
    cnt[c] = k;
  });

  // 4. Exclusive scans of the counts -> global field / record / byte bases per chunk.
  std::vector<std::uint64_t> field_base(nc), record_base(nc), byte_base(nc);
  std::uint64_t nfields = 0, nrecords = 0, nbytes = 0;
  for (std::size_t c = 0; c < nc; ++c) {
    field_base[c]  = nfields;
    record_base[c] = nrecords;
    byte_base[c]   = nbytes;
    nfields += cnt[c].fields;
    nrecords += cnt[c].records;
    nbytes += cnt[c].bytes;
  }
  // The first syntax error: at most one chunk sees a transition into `failed` (it absorbs).
  dsv_error_kind syntax           = dsv_error_kind::none;
  std::uint64_t syntax_offset     = 0;
  std::uint64_t syntax_record     = 0;
  std::uint64_t last_open_quote   = UINT64_MAX;
  for (std::size_t c = 0; c < nc; ++c) {
    if (cnt[c].last_open_quote != UINT64_MAX) last_open_quote = cnt[c].last_open_quote;
    if (cnt[c].error != dsv_error_kind::none && syntax == dsv_error_kind::none) {
      syntax        = cnt[c].error;
      syntax_offset = cnt[c].error_offset;
      syntax_record = record_base[c] + cnt[c].records_before_error + 1;
    }
  }
  if (syntax == dsv_error_kind::lone_carriage_return) syntax_offset -= 1;  // report the CR itself
  if (syntax == dsv_error_kind::unterminated_quote) syntax_offset = last_open_quote;

  // 5. Write kept bytes, field ends (in kept bytes) and record ends (in fields and input bytes).
  std::vector<char> kept(nbytes);
  std::vector<std::uint64_t> field_end(nfields);       // kept-byte offset where field f ends
  std::vector<std::uint64_t> record_fields(nrecords);  // fields completed at the end of record r
  std::vector<std::uint64_t> record_end(nrecords);     // input offset of record r's terminator (n at end)
  parallel_for(nc, threads, [&](std::size_t c) {
    std::uint64_t b = byte_base[c], f = field_base[c], r = record_base[c];
    walk_chunk(m, data, lo(c), hi(c), n, c + 1 == nc, start[c], [&](std::size_t p, std::uint8_t a, char byte) {
      if (a & emit) kept[b++] = byte;
      if (a & end_field) field_end[f++] = b;
      if (a & end_record) {
        record_fields[r] = f;
        record_end[r++]  = p;
      }
    });
  });

  // 6a. Per-record checks (a parallel min-reduction on the GPU): trailing delimiter, field count.
  auto const rec_first_field = [&](std::uint64_t r) { return r == 0 ? 0 : record_fields[r - 1]; };
  auto const field_len       = [&](std::uint64_t f) { return field_end[f] - (f == 0 ? 0 : field_end[f - 1]); };
  auto const rec_start       = [&](std::uint64_t r) { return r == 0 ? 0 : record_end[r - 1] + 1; };
  std::uint64_t const drop   = d.trailing_delimiter ? 1 : 0;
  std::uint64_t ncols        = 0;
  if (d.expected_fields >= 0)
    ncols = static_cast<std::uint64_t>(d.expected_fields);
  else if (nrecords > 0)
    ncols = record_fields[0] >= drop ? record_fields[0] - drop : 0;
  std::vector<std::uint64_t> bad(nrecords == 0 ? 1 : threads, UINT64_MAX);  // first bad record per block
  {
    std::size_t const blocks = bad.size();
    parallel_for(blocks, threads, [&](std::size_t k) {
      std::uint64_t const r0 = nrecords * k / blocks, r1 = nrecords * (k + 1) / blocks;
      for (std::uint64_t r = r0; r < r1; ++r) {
        std::uint64_t const raw = record_fields[r] - rec_first_field(r);
        bool const trailing_bad = d.trailing_delimiter && (raw < 2 || field_len(record_fields[r] - 1) != 0);
        if (trailing_bad || raw - drop != ncols) {
          bad[k] = r;
          break;
        }
      }
    });
  }
  std::uint64_t const first_bad = *std::min_element(bad.begin(), bad.end());
  if (first_bad != UINT64_MAX) {  // it precedes any syntax error: records stop at the first one
    std::uint64_t const raw = record_fields[first_bad] - rec_first_field(first_bad);
    if (d.trailing_delimiter && (raw < 2 || field_len(record_fields[first_bad] - 1) != 0))
      detail::throw_dsv_error(dsv_error_kind::missing_trailing_delimiter, rec_start(first_bad), first_bad + 1);
    detail::throw_dsv_error(dsv_error_kind::wrong_field_count, rec_start(first_bad), first_bad + 1,
                            raw - drop, ncols);
  }
  if (syntax != dsv_error_kind::none) detail::throw_dsv_error(syntax, syntax_offset, syntax_record);

  // 6b. Materialise: per column, lengths -> exclusive scan -> offsets, then gather the bytes.
  dsv_table t;
  std::uint64_t const first_data = d.header && nrecords > 0 ? 1 : 0;
  std::uint64_t const rows       = nrecords - first_data;
  t.num_records                  = rows;
  if (d.header && nrecords > 0)
    for (std::uint64_t j = 0; j < ncols; ++j) {
      std::uint64_t const f = rec_first_field(0) + j;
      t.header.emplace_back(kept.data() + (field_end[f] - field_len(f)), field_len(f));
    }
  t.columns.resize(ncols);  // 0 for an empty input unless expected_fields >= 0
  parallel_for(t.columns.size(), threads, [&](std::size_t j) {
    host_strings& col = t.columns[j];
    col.offsets.resize(rows + 1);
    std::uint64_t acc = 0;
    for (std::uint64_t i = 0; i < rows; ++i) {
      col.offsets[i] = acc;
      acc += field_len(rec_first_field(first_data + i) + j);
    }
    col.offsets[rows] = acc;
    col.chars.resize(acc);
    for (std::uint64_t i = 0; i < rows; ++i) {
      std::uint64_t const f = rec_first_field(first_data + i) + j;
      std::copy_n(kept.data() + (field_end[f] - field_len(f)), field_len(f), col.chars.data() + col.offsets[i]);
    }
  });
  return t;
}

}  // namespace fastpair
