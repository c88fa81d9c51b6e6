// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file tuning.cuh
 * @brief The automatic decode configuration: a small per-architecture table indexed by the
 * column's low-plane width W (device_column::low_plane_bytes(), chosen at preparation by
 * detail::auto_low_plane_bytes from the column's token lengths).
 *
 * Each entry names the measurement that justified it (GPU, data, the section of docs/BENCHMARKS.md
 * or docs/notes/decoder-history-2026-11.md).
 * Lookup is by the architecture of the code the device runs: sm_90 has measured entries, sm_100+
 * reuses them until measured, anything else (sm_80 included) gets the paper's configuration.
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
 * @brief Per-architecture default configuration for low-plane width W, dictionary read `G` and
 * emit `E`: which G and E suit a column is decided at run time (detail::choose_auto_reads), the
 * table gives the rest (K, H, T, B) per architecture.
 *
 * Fallback and sm_80: the paper's configuration whatever G and E (not measured by us on those GPUs).
 */
template <arch_bucket A, int W, gather_strategy G = gather_strategy::texture_low,
          emit_strategy E = emit_strategy::register_words>
struct default_config {
  using type = paper_config<W>;
};

/// sm_90: register_words K=8 T=256 B=3, the best of 41 configs on 8 columns x 3 codecs (H200,
/// docs/notes/decoder-history-2026-11.md "Issue 7 lever: fewer instructions" and "... streamed lengths").
template <int W, gather_strategy G, emit_strategy E>
struct default_config<arch_bucket::sm90, W, G, E> {
  using type = decode_config<8, W, 0, 256, 3, E, drain_strategy::lanes, G>;
};
/// sm_100+: not measured; the sm_90 entries until someone measures.
template <int W, gather_strategy G, emit_strategy E>
struct default_config<arch_bucket::sm100, W, G, E> : default_config<arch_bucket::sm90, W, G, E> {};

namespace detail {

/** The column's coded tokens average under 9 bytes and it has its length stream: the automatic
 *  config streams lengths rather than gathering them (when it has no fused codes). */
inline bool streams_lengths_pays_off(device_column const& col) noexcept
{
  return col.has_length_stream() && col.mean_token_length() < 9.0;
}

/** How the automatic config reads the dictionary and emits tokens for `col` (sm_90+). */
struct auto_reads {
  gather_strategy gather = gather_strategy::texture_low;
  emit_strategy emit     = emit_strategy::register_words;
};

/**
 * H200 (docs/notes/decoder-history-2026-11.md, "Issue 7 lever: short-token emit, fused codes, split stream"):
 * - a column with fused codes (OnPair-12, FSST-12) reads them (texture_low_fused): +0.1 … +5.5 %
 *   over streamed or gathered lengths on all 12 OnPair-12 columns;
 * - with W = 8 and no high plane (FSST-12) it also takes the short-token emit: +14 … +27 % over
 *   the W = 16 register_words config on all 12 FSST-12 columns;
 * - otherwise lengths are streamed where the coded tokens average under 9 bytes and gathered
 *   where they are longer (+0.5 … +27 % and −1.9 … −5.5 % for streaming, "streamed lengths").
 */
inline auto_reads choose_auto_reads(device_column const& col) noexcept
{
  bool const short_tokens = col.low_plane_bytes() == 8 && !col.has_high_plane();
  emit_strategy const emit = short_tokens ? emit_strategy::register_words_short : emit_strategy::register_words;
  if (col.has_fused_codes()) return {gather_strategy::texture_low_fused, emit};
  return {streams_lengths_pays_off(col) ? gather_strategy::texture_low_streamed : gather_strategy::texture_low, emit};
}

/** What with_auto_config passes on: the config (`type`) and the tuning bucket that chose it
 *  (`arch`, the kernel's ArchTag: launch_decode<type, arch>). */
template <arch_bucket A, class Config>
struct auto_choice {
  using type                = Config;
  static constexpr int arch = static_cast<int>(A);
};

/** Calls f(auto_choice<A, Config>{}) with the automatic config for `col` on architecture `A`. */
template <arch_bucket A, class F>
decltype(auto) with_default_config(device_column const& col, F&& f)
{
  using G        = gather_strategy;
  using E        = emit_strategy;
  auto const r   = choose_auto_reads(col);
  auto const run = [&](auto w, auto g, auto e) -> decltype(auto) {
    return f(auto_choice<A, typename default_config<A, decltype(w)::value, decltype(g)::value, decltype(e)::value>::type>{});
  };
  auto const by_gather = [&](auto w, auto e) -> decltype(auto) {
    switch (r.gather) {
      case G::texture_low_fused: return run(w, std::integral_constant<G, G::texture_low_fused>{}, e);
      case G::texture_low_streamed: return run(w, std::integral_constant<G, G::texture_low_streamed>{}, e);
      default: return run(w, std::integral_constant<G, G::texture_low>{}, e);
    }
  };
  constexpr std::integral_constant<E, E::register_words> words{};
  if (col.low_plane_bytes() == 16) return by_gather(std::integral_constant<int, 16>{}, words);
  if (r.emit == E::register_words_short)  // W = 8 without a high plane (FSST-12)
    return by_gather(std::integral_constant<int, 8>{}, std::integral_constant<E, E::register_words_short>{});
  return by_gather(std::integral_constant<int, 8>{}, words);
}

/** Runtime (bucket of the code the device runs, W) -> compile-time config -> f. */
template <class F>
decltype(auto) with_auto_config(device_column const& col, F&& f)
{
  if (table_bucket(current_arch_bucket()) == arch_bucket::sm90)
    return with_default_config<arch_bucket::sm90>(col, std::forward<F>(f));
  return with_default_config<arch_bucket::generic>(col, std::forward<F>(f));
}

/** The automatic config decodes the column's split stream (OnPair-12 with
 *  prepare_options::split_stream, on sm_90+) rather than its codes. */
inline bool uses_split_stream(device_column const& col)
{
  return col.has_split_stream() && table_bucket(current_arch_bucket()) == arch_bucket::sm90;
}

/** The config that decodes split streams (short-token emit, fused 13-bit codes). */
using split_stream_config = default_config<arch_bucket::sm90, 8, gather_strategy::texture_low_fused,
                                           emit_strategy::register_words_short>::type;

/** Launches the automatic config over rows [row_begin, row_end) of `col`, located at `rr`
 *  (device_column::locate_rows), into `out` (which holds exactly those rows' bytes); `launched`
 *  as for launch_decode. */
inline cudaError_t dispatch_auto(device_column const& col, std::uint64_t row_begin, std::uint64_t row_end,
                                 device_column::row_range const& rr, unsigned char* out, cuda::stream_ref stream,
                                 bool* launched = nullptr)
{
  std::uint64_t const bytes = rr.b1 - rr.b0;
  if (uses_split_stream(col)) {
    auto const& so = col.split_row_code_offsets();
    return launch_decode<split_stream_config, static_cast<int>(arch_bucket::sm90)>(
      col.split_view(), so[row_begin], so[row_end], out, rr.b0, bytes, stream, launched);
  }
  return with_auto_config(col, [&](auto tag) {
    using config = typename decltype(tag)::type;
    return launch_decode<config, decltype(tag)::arch>(col.view<config::low_plane_bytes>(), rr.c0, rr.c1, out, rr.b0,
                                                      bytes, stream, launched);
  });
}

/** dispatch_auto over rows [row_begin, row_end), located first (locate_rows: may synchronize). */
inline cudaError_t dispatch_auto(device_column const& col, std::uint64_t row_begin, std::uint64_t row_end,
                                 unsigned char* out, cuda::stream_ref stream, bool* launched = nullptr)
{
  return dispatch_auto(col, row_begin, row_end, col.locate_rows(row_begin, row_end, stream), out, stream, launched);
}

}  // namespace detail

/** @brief Name (config_name) of the configuration decode_column() picks for `col` on the current
 *  device, e.g. "k8.w16.h0.t256.b3.words.texls"; ".split" appended where it decodes the
 *  column's split stream. */
inline std::string auto_config_name(device_column const& col)
{
  if (detail::uses_split_stream(col)) return config_name<detail::split_stream_config>() + ".split";
  return detail::with_auto_config(col, [](auto tag) { return config_name<typename decltype(tag)::type>(); });
}

}  // namespace fastpair
