// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file dsv_machine.hpp
 * @brief The DSV parser's DFA (`dsv::machine`), its state-transition vectors and the chunk walk:
 * plain data and loops shared by the host parsers (dsv.hpp) and the GPU kernels
 * (kernels/dsv_kernel.cuh). The dialect and error kinds come from dsv_dialect.hpp.
 */
#pragma once

#include <fastpair/dsv_dialect.hpp>
#include <fastpair/error.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

namespace fastpair {

namespace detail {
/** @throw logic_error naming what is wrong in `d` (delimiter and quote equal or CR / LF, ...). */
inline void check_dialect(dsv_dialect const& d)
{
  FASTPAIR_EXPECTS(d.delimiter != d.quote, "DSV dialect: delimiter and quote must differ");
  FASTPAIR_EXPECTS(d.delimiter != '\n' && d.delimiter != '\r', "DSV dialect: delimiter must not be CR or LF");
  FASTPAIR_EXPECTS(d.quote != '\n' && d.quote != '\r', "DSV dialect: quote must not be CR or LF");
  FASTPAIR_EXPECTS(d.expected_fields >= -1, "DSV dialect: expected_fields must be >= -1");
}
}  // namespace detail

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

}  // namespace fastpair
