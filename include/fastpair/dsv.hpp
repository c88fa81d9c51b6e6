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

#include <fastpair/detail/dsv_machine.hpp>
#include <fastpair/dsv_dialect.hpp>
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

namespace fastpair {

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
