// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file error.hpp
 * @brief Exceptions and the checking macros used by every public host function.
 *
 * - `fastpair::logic_error`  a precondition on the arguments was violated (`FASTPAIR_EXPECTS`).
 * - `fastpair::format_error` untrusted input (a file, caller buffers, a sidecar) is malformed; the
 *                            message names the field and the offending value.
 * - `fastpair::cuda_error`   a CUDA runtime call failed (`FASTPAIR_CUDA_TRY`, only in `.cuh` code).
 * - `fastpair::decode_error` the device reported corrupt data while decoding (device error word).
 */
#pragma once

#include <stdexcept>
#include <string>

namespace fastpair {

/** @brief Thrown when a precondition on a function's arguments does not hold. */
struct logic_error : std::logic_error {
  using std::logic_error::logic_error;
};

/** @brief Thrown when untrusted input (a file, a column, a caller buffer) is malformed. */
struct format_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/** @brief Thrown when a CUDA runtime call fails. */
struct cuda_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/** @brief Thrown when the decoder's device error word reports corrupt device data. */
struct decode_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

namespace detail {
[[noreturn]] inline void throw_logic_error(char const* cond, std::string const& msg, char const* file,
                                           int line)
{
  throw logic_error(std::string("fastpair: ") + msg + " (" + cond + " failed at " + file + ":" +
                    std::to_string(line) + ")");
}
}  // namespace detail

}  // namespace fastpair

/**
 * @brief Checks a side-effect-free precondition; throws `fastpair::logic_error` with `msg` otherwise.
 */
#define FASTPAIR_EXPECTS(cond, msg)                                                   \
  do {                                                                                \
    if (!(cond)) ::fastpair::detail::throw_logic_error(#cond, (msg), __FILE__, __LINE__); \
  } while (0)
