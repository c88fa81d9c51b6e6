// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file tuning.cuh
 * @brief The automatic decode configuration: a small per-architecture table indexed by the
 * column's low-plane width W (device_column::low_plane_bytes(), chosen at preparation by
 * detail::auto_low_plane_bytes) and its mean token length.
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

namespace fastpair {

/**
 * @brief Per-architecture default configuration for low-plane width W and a column's token
 * length class (`LongTokens`: mean decoded bytes per code >= 6).
 *
 * Fallback and sm_80: the paper's configuration (not measured by us on those GPUs).
 */
template <arch_bucket A, int W, bool LongTokens>
struct default_config {
  using type = paper_config<W>;
};

/// sm_90 (H200, 2026-11-29, 5 columns x 3 codecs tiled to 1 GB, 23 configs, docs/BENCHMARKS.md):
/// W = 16: register_words K=8 T=256 B=3 — best on every OnPair column (log_windows OnPair-16
/// 1724 GB/s vs 1298 for the paper's config) and >= 0.93 of the best on short-token text.
template <bool LongTokens>
struct default_config<arch_bucket::sm90, 16, LongTokens> {
  using type = decode_config<8, 16, 0, 256, 3, emit_strategy::register_words>;
};
/// W = 8, long tokens (a user-forced W = 8 on log-like data): register_words K=8 T=256 B=3,
/// 0.93 of the best on log_windows and tpch_l_comment (the paper's config: 0.75-0.87).
template <>
struct default_config<arch_bucket::sm90, 8, true> {
  using type = decode_config<8, 8, 0, 256, 3, emit_strategy::register_words>;
};
/// W = 8, short tokens (FSST-12, text): staged_bytes K=8 H=1 T=256 B=3, >= 0.97 of the best on
/// the FSST-12 and OnPair-12 text columns, where gathers, not stores, bound the decode.
template <>
struct default_config<arch_bucket::sm90, 8, false> {
  using type = decode_config<8, 8, 1, 256, 3>;
};
/// sm_100+: not measured; the sm_90 entries until someone measures.
template <int W, bool LongTokens>
struct default_config<arch_bucket::sm100, W, LongTokens> : default_config<arch_bucket::sm90, W, LongTokens> {};

namespace detail {

template <arch_bucket A, int W, bool L>
cudaError_t launch_default(device_column const& col, std::uint64_t c0, std::uint64_t c1, unsigned char* out,
                           std::uint64_t window_begin, std::uint64_t capacity, cuda::stream_ref stream)
{
  using config = typename default_config<A, W, L>::type;
  return launch_decode<config>(col.view<W>(), c0, c1, out, window_begin, capacity, stream);
}

template <arch_bucket A>
cudaError_t launch_default_for(device_column const& col, std::uint64_t c0, std::uint64_t c1, unsigned char* out,
                               std::uint64_t window_begin, std::uint64_t capacity, cuda::stream_ref stream)
{
  bool const long_tokens = col.mean_token_length() >= 6.0;
  if (col.low_plane_bytes() == 16)
    return long_tokens ? launch_default<A, 16, true>(col, c0, c1, out, window_begin, capacity, stream)
                       : launch_default<A, 16, false>(col, c0, c1, out, window_begin, capacity, stream);
  return long_tokens ? launch_default<A, 8, true>(col, c0, c1, out, window_begin, capacity, stream)
                     : launch_default<A, 8, false>(col, c0, c1, out, window_begin, capacity, stream);
}

/** Runtime (arch, W, token length class) -> compile-time config. */
inline cudaError_t dispatch_auto(device_column const& col, std::uint64_t c0, std::uint64_t c1, unsigned char* out,
                                 std::uint64_t window_begin, std::uint64_t capacity, cuda::stream_ref stream)
{
  switch (current_arch_bucket()) {
    case arch_bucket::sm100:
    case arch_bucket::sm90: return launch_default_for<arch_bucket::sm90>(col, c0, c1, out, window_begin, capacity, stream);
    default: return launch_default_for<arch_bucket::generic>(col, c0, c1, out, window_begin, capacity, stream);
  }
}

}  // namespace detail
}  // namespace fastpair
