// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file planes.hpp
 * @brief Host preparation of the GPU decode tables (host-only; the upload is in device_column.cuh).
 *
 * @code{.text}
 *  entry e (all code_space(codec) entries, unused ones zero)
 *   lo plane  [e*W      .. e*W+W)        first W bytes of token e        (W = 8 or 16)
 *   hi plane  [e*(16-W) .. e*(16-W)+16-W) bytes W..15 of token e         (absent for W = 16)
 *   lengths   byte e/2, nibble e%2 (low nibble = even e) = len(e) - 1
 * @endcode
 *
 * The planes are sized to the full code space so a stray code can never address outside them,
 * and have fixed strides so a token's address is computed from its code with no offset lookup.
 */
#pragma once

#include <fastpair/error.hpp>
#include <fastpair/format.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

namespace fastpair {

/** @brief Fixed-stride dictionary planes for one low-plane width W (host copy). */
struct dictionary_planes {
  int low_plane_bytes      = 8;  ///< W: 8 or 16
  std::uint32_t entries    = 0;  ///< code_space(codec): rows in every plane
  std::uint32_t num_tokens = 0;  ///< real dictionary entries; codes >= num_tokens are corrupt
  std::vector<std::uint8_t> lo;       ///< entries * W bytes
  std::vector<std::uint8_t> hi;       ///< entries * (16 - W) bytes (empty when W == 16 or FSST-12)
  std::vector<std::uint8_t> lengths;  ///< entries / 2 bytes, nibble = len - 1
};

/**
 * @brief Builds the planes of a (validated) dictionary for low-plane width `w`.
 * @throw logic_error if `w` is not 8 or 16, or FSST-12 is asked for W = 16 with 9+ byte tokens.
 */
inline dictionary_planes build_planes(codec kind, dictionary const& d, int w)
{
  FASTPAIR_EXPECTS(w == 8 || w == 16, "low plane width W must be 8 or 16");
  FASTPAIR_EXPECTS(d.size() <= code_space(kind), "dictionary larger than the code space");
  dictionary_planes p;
  p.low_plane_bytes = w;
  p.entries         = code_space(kind);
  p.num_tokens      = static_cast<std::uint32_t>(d.size());
  p.lo.assign(std::size_t{p.entries} * w, 0);
  // FSST-12 tokens fit in 8 bytes: no high plane at all.
  if (max_token_length(kind) > w) p.hi.assign(std::size_t{p.entries} * (16 - w), 0);
  p.lengths.assign(p.entries / 2, 0);
  for (std::uint32_t e = 0; e < p.num_tokens; ++e) {
    std::uint32_t const len = d.length(e);
    FASTPAIR_EXPECTS(len >= 1 && len <= std::uint32_t(max_token_length(kind)),
                     "token length outside the codec's range (validate the column first)");
    std::uint32_t const n_lo = len < std::uint32_t(w) ? len : std::uint32_t(w);
    std::memcpy(&p.lo[std::size_t{e} * w], d.data(e), n_lo);
    if (len > std::uint32_t(w)) std::memcpy(&p.hi[std::size_t{e} * (16 - w)], d.data(e) + w, len - w);
    p.lengths[e / 2] |= static_cast<std::uint8_t>((len - 1) << (4 * (e & 1)));
  }
  return p;
}

}  // namespace fastpair
