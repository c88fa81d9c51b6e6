// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file dsv_dialect.hpp
 * @brief What DSV raw text looks like (`dsv_dialect`) and why a parse rejects it
 * (`dsv_error_kind`): the base types that the host parsers (dsv.hpp) and the GPU parser
 * (dsv.cuh, detail/kernels/dsv_kernel.cuh) share. Host-only types; no dependency.
 */
#pragma once

#include <cstdint>

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

}  // namespace fastpair
