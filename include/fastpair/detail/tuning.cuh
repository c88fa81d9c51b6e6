// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file tuning.cuh
 * @brief The automatic decode configuration: a small per-architecture table indexed by the
 * column's low-plane width W (device_column::low_plane_bytes(), chosen at preparation by
 * detail::auto_low_plane_bytes from the column's token lengths).
 *
 * Each entry records the measurement that justified it (GPU, data, date). Lookup is by compute
 * capability, newest first: sm_100+, sm_90, sm_80, then a generic fallback.
 */
#pragma once

#include <fastpair/config.cuh>
#include <fastpair/detail/arch.cuh>
#include <fastpair/detail/cuda.cuh>
#include <fastpair/detail/dispatch.cuh>
#include <fastpair/device_column.cuh>

#include <cuda/stream_ref>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

namespace fastpair {

/**
 * @brief Per-architecture default configuration for low-plane width W; `ShortTokens`: the
 * column's coded tokens average under 9 bytes and it has a length stream
 * (detail::streams_lengths_pays_off).
 *
 * Fallback and sm_80: the paper's configuration (not measured by us on those GPUs).
 */
template <arch_bucket A, int W, bool ShortTokens = false>
struct default_config {
  using type = paper_config<W>;
};

/// sm_90: register_words K=8 T=256 B=3 (H200, 2026-11-30: 8 columns x 3 codecs tiled to 1 GB,
/// 25 configs, docs/BENCHMARKS.md "Issue 7 lever: fewer instructions"; re-swept with texture
/// gathers, 16 more configs, "Issue 7 lever: streamed lengths"), with the low-plane gathers
/// through the texture pipe (+0.5 … +30 % on 34 of 36 cells, "dictionary gathers through the
/// texture pipe"). Columns of short tokens take their lengths from the per-code length stream
/// instead of gathering them: +0.5 … +27 % on all 26 cells with a mean token of at most
/// 8.4 bytes, −1.9 … −5.5 % on the 10 cells of 9.6 bytes and more, hence the 9-byte threshold.
template <int W, bool ShortTokens>
struct default_config<arch_bucket::sm90, W, ShortTokens> {
  using type = decode_config<8, W, 0, 256, 3, emit_strategy::register_words, drain_strategy::lanes,
                             ShortTokens ? gather_strategy::texture_low_streamed : gather_strategy::texture_low>;
};
/// sm_100+: not measured; the sm_90 entries until someone measures.
template <int W, bool ShortTokens>
struct default_config<arch_bucket::sm100, W, ShortTokens> : default_config<arch_bucket::sm90, W, ShortTokens> {};

namespace detail {

/** The column's coded tokens average under 9 bytes and it has its length stream: the automatic
 *  config streams lengths rather than gathering them (default_config). */
inline bool streams_lengths_pays_off(device_column const& col) noexcept
{
  return col.has_length_stream() && col.mean_token_length() < 9.0;
}

/** Calls f(std::common_type<Config>{}) with the automatic config for `col` on architecture `a`. */
template <arch_bucket A, class F>
decltype(auto) with_default_config(device_column const& col, F&& f)
{
  bool const s = streams_lengths_pays_off(col);
  if (col.low_plane_bytes() == 16)
    return s ? f(std::common_type<typename default_config<A, 16, true>::type>{})
             : f(std::common_type<typename default_config<A, 16>::type>{});
  return s ? f(std::common_type<typename default_config<A, 8, true>::type>{})
           : f(std::common_type<typename default_config<A, 8>::type>{});
}

/** Runtime (arch of the current device, W) -> compile-time config -> f. */
template <class F>
decltype(auto) with_auto_config(device_column const& col, F&& f)
{
  switch (current_arch_bucket()) {
    case arch_bucket::sm100:
    case arch_bucket::sm90: return with_default_config<arch_bucket::sm90>(col, std::forward<F>(f));
    default: return with_default_config<arch_bucket::generic>(col, std::forward<F>(f));
  }
}

/** Launches the automatic config. */
inline cudaError_t dispatch_auto(device_column const& col, std::uint64_t c0, std::uint64_t c1, unsigned char* out,
                                 std::uint64_t window_begin, std::uint64_t capacity, cuda::stream_ref stream)
{
  return with_auto_config(col, [&](auto tag) {
    using config = typename decltype(tag)::type;
    return launch_decode<config>(col.view<config::low_plane_bytes>(), c0, c1, out, window_begin, capacity, stream);
  });
}

}  // namespace detail

/** @brief Name (config_name) of the configuration decode_column() picks for `col` on the current
 *  device, e.g. "k8.w16.h0.t256.b3.words.texls". */
inline std::string auto_config_name(device_column const& col)
{
  return detail::with_auto_config(col, [](auto tag) { return config_name<typename decltype(tag)::type>(); });
}

}  // namespace fastpair
