// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Seeded generators of synthetic compressed columns (dictionary + code stream) for decoder tests:
// chosen token-length mixes, uniform or Zipf codes, empty rows, any row count. Built directly from
// codes (no encoder), so every corner of the code space can be exercised.
#pragma once

#include <fastpair/format.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace fastpair::testing {

/** SplitMix64: tiny, portable, seeded. */
struct rng {
  std::uint64_t s;
  explicit rng(std::uint64_t seed) : s(seed) {}
  std::uint64_t next()
  {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z               = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z               = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return n ? next() % n : 0; }
  double uniform() { return (next() >> 11) * (1.0 / 9007199254740992.0); }
};

/** How token lengths of the generated extra tokens are drawn. */
struct length_mix {
  int min_len = 2;
  int max_len = 16;
};

/**
 * A dictionary with the 256 one-byte tokens (byte b at entry b) followed by `extra` unique tokens
 * whose lengths are uniform in [mix.min_len, mix.max_len] (clamped to the codec's limit).
 */
inline dictionary make_dictionary(codec kind, std::uint32_t extra, length_mix mix, std::uint64_t seed)
{
  dictionary d;
  for (int b = 0; b < 256; ++b) d.push_back(std::string(1, static_cast<char>(b)));
  extra = std::min<std::uint32_t>(extra, code_space(kind) - 256);
  int const max_len = std::min(mix.max_len, max_token_length(kind));
  int const min_len = std::max(2, std::min(mix.min_len, max_len));
  rng r(seed);
  std::set<std::string> seen;
  while (seen.size() < extra) {
    int const len = min_len + static_cast<int>(r.below(max_len - min_len + 1));
    std::string t(len, '\0');
    for (auto& ch : t) ch = static_cast<char>(r.below(256));
    if (seen.insert(t).second) d.push_back(t);
  }
  return d;
}

/** Builds a valid column (with sidecar) from per-row code lists. */
inline compressed_column column_from_codes(codec kind, dictionary dict,
                                     std::vector<std::vector<std::uint16_t>> const& rows,
                                     std::uint32_t stride = default_sidecar_stride)
{
  compressed_column col;
  col.kind           = kind;
  col.dict           = std::move(dict);
  col.sidecar_stride = stride;
  std::vector<std::uint16_t> codes;
  std::uint64_t bytes = 0;
  for (auto const& row : rows) {
    for (auto c : row) {
      codes.push_back(c);
      bytes += col.dict.length(c);
    }
    col.row_code_offsets.push_back(codes.size());
    col.row_byte_offsets.push_back(bytes);
  }
  col.num_codes = codes.size();
  col.codes     = pack_codes(kind, codes.data(), codes.size());
  std::vector<std::uint32_t> len(col.dict.size());
  for (std::size_t i = 0; i < len.size(); ++i) len[i] = col.dict.length(i);
  col.sidecar = compute_sidecar(codes.data(), codes.size(), len.data(), stride);
  return col;
}

/** What codes look like. */
struct code_mix {
  double zipf_s       = 0.0;   ///< 0 = uniform over the dictionary, else Zipf exponent
  double empty_rows   = 0.0;   ///< share of empty rows
  int max_row_codes   = 64;    ///< row length in codes is uniform in [1, max_row_codes]
  bool only_extra     = false; ///< draw only from the extra (multi-byte) tokens
};

/** A random column with `num_rows` rows over `dict`. */
inline compressed_column random_column(codec kind, dictionary dict, std::uint64_t num_rows, code_mix mix,
                                       std::uint64_t seed, std::uint32_t stride = default_sidecar_stride)
{
  rng r(seed);
  std::uint32_t const n  = static_cast<std::uint32_t>(dict.size());
  std::uint32_t const lo = mix.only_extra && n > 256 ? 256 : 0;
  std::uint32_t const range = n - lo;
  // Zipf by inverse CDF over a table (ranks permuted by a multiplicative hash so hot codes are spread).
  std::vector<double> cdf;
  if (mix.zipf_s > 0) {
    cdf.resize(range);
    double acc = 0;
    for (std::uint32_t i = 0; i < range; ++i) cdf[i] = (acc += 1.0 / std::pow(i + 1.0, mix.zipf_s));
    for (auto& v : cdf) v /= acc;
  }
  std::vector<std::vector<std::uint16_t>> rows(num_rows);
  for (auto& row : rows) {
    if (r.uniform() < mix.empty_rows) continue;
    std::uint64_t const len = 1 + r.below(mix.max_row_codes);
    row.resize(len);
    for (auto& c : row) {
      std::uint32_t idx;
      if (cdf.empty()) idx = static_cast<std::uint32_t>(r.below(range));
      else {
        idx = static_cast<std::uint32_t>(std::lower_bound(cdf.begin(), cdf.end(), r.uniform()) - cdf.begin());
        idx = std::min(idx, range - 1);
        idx = static_cast<std::uint32_t>((std::uint64_t{idx} * 2654435761u) % range);
      }
      c = static_cast<std::uint16_t>(lo + idx);
    }
  }
  return column_from_codes(kind, std::move(dict), rows, stride);
}

}  // namespace fastpair::testing
