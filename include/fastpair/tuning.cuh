// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file tuning.cuh
 * @brief The automatic decode configuration (auto_config) and the one path from a column to the
 * decode kernel.
 *
 * The automatic configuration is chosen in two steps: select_policy() picks a decode_policy for
 * the column and the architecture of the code the device runs (the dictionary read, the emit,
 * whether to decode the split stream; W is the column's, chosen at preparation by
 * detail::tuned_low_plane_bytes), and tuned_config<A, W, G, E> gives the rest of the config
 * (K, H, T, B) per architecture. Each rule and entry names the measurement behind it (GPU, figure,
 * the section of docs/notes/decoder-history-2026-11.md). sm_90 has measured entries, sm_100+
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
 * @brief The tuning table: the automatic configuration on architecture bucket `A` for low-plane
 * width W, dictionary read `G` and emit `E` (which G and E suit a column: select_policy).
 * Generic (sm_80 and older, not measured by us): the paper's configuration whatever G and E.
 */
template <arch_bucket A, int W, gather_strategy G = gather_strategy::texture_low,
          emit_strategy E = emit_strategy::register_words>
struct tuned_config {
  using type = paper_config<W>;
};

/// sm_90: K=8 T=256 B=3, the best of 41 configs on 8 columns x 3 codecs (H200,
/// docs/notes/decoder-history-2026-11.md "Issue 7 lever: fewer instructions" and "... streamed lengths").
template <int W, gather_strategy G, emit_strategy E>
struct tuned_config<arch_bucket::sm90, W, G, E> {
  using type = decode_config<8, W, 0, 256, 3, E, G>;
};
/// sm_100+: not measured; the sm_90 entries until someone measures.
template <int W, gather_strategy G, emit_strategy E>
struct tuned_config<arch_bucket::sm100, W, G, E> : tuned_config<arch_bucket::sm90, W, G, E> {};

/// @deprecated the former name of tuned_config
template <arch_bucket A, int W, gather_strategy G = gather_strategy::texture_low,
          emit_strategy E = emit_strategy::register_words>
using default_config [[deprecated("use fastpair::tuned_config")]] = tuned_config<A, W, G, E>;

/**
 * @brief How the automatic configuration decodes a column on one architecture (select_policy):
 * the read and emit strategies for the column's own codes, and whether whole rows are decoded
 * from its split stream instead.
 */
struct decode_policy {
  arch_bucket arch    = arch_bucket::generic;  ///< the tuning table's bucket (table_bucket)
  int low_plane_bytes = 16;                    ///< W, the column's
  gather_strategy gather = gather_strategy::global;
  emit_strategy emit     = emit_strategy::staged_bytes;
  /// whole rows are decoded from the column's split stream (OnPair-12, prepare_options::
  /// split_stream) with the short-token emit; code ranges and compact streams read the codes
  bool split_stream = false;
};

/**
 * @brief The automatic decode policy for `col` on architecture bucket `arch`. On sm_90+ (H200,
 * docs/notes/decoder-history-2026-11.md, "Issue 7 lever: short-token emit, fused codes, split
 * stream" and "streamed lengths"):
 * - a column with fused codes (OnPair-12, FSST-12) reads them (texture_low_fused): +0.1 … +5.5 %
 *   over streamed or gathered lengths on all 12 OnPair-12 columns;
 * - with W = 8 and no high plane (FSST-12) it also takes the short-token emit: +14 … +27 % over
 *   the W = 16 register_words config on all 12 FSST-12 columns;
 * - otherwise lengths are streamed where the column has its length stream and the coded tokens
 *   average under 9 bytes, gathered where they are longer (+0.5 … +27 % and −1.9 … −5.5 % for
 *   streaming);
 * - a column with a split stream decodes it: +5.0 … +15.9 % on the OnPair-12 columns it is built
 *   for (detail::tuned_split_stream).
 * Elsewhere: the paper's configuration (LSU gathers, staged_bytes).
 */
inline decode_policy select_policy(device_column const& col, arch_bucket arch) noexcept
{
  decode_policy p;
  p.arch            = detail::table_bucket(arch);
  p.low_plane_bytes = col.low_plane_bytes();
  if (p.arch != arch_bucket::sm90) return p;
  bool const short_tokens = p.low_plane_bytes == 8 && !col.has_high_plane();
  p.emit                  = short_tokens ? emit_strategy::register_words_short : emit_strategy::register_words;
  p.gather                = col.has_fused_codes()                                     ? gather_strategy::texture_low_fused
                            : col.has_length_stream() && col.mean_token_length() < 9.0 ? gather_strategy::texture_low_streamed
                                                                                       : gather_strategy::texture_low;
  p.split_stream = col.has_split_stream();
  return p;
}

/** @brief select_policy for the architecture of the kernel code the current device runs. */
inline decode_policy select_policy(device_column const& col) noexcept
{
  return select_policy(col, detail::current_arch_bucket());
}

namespace detail {

/** What with_policy_config passes on: the config (`type`) and the tuning bucket that chose it
 *  (`arch`, the kernel's ArchTag: launch_decode<type, arch>). */
template <arch_bucket A, class Config>
struct policy_config {
  using type                = Config;
  static constexpr int arch = static_cast<int>(A);
};

/** The config that decodes split streams (short-token emit, fused 13-bit codes). */
using split_stream_config =
  tuned_config<arch_bucket::sm90, 8, gather_strategy::texture_low_fused, emit_strategy::register_words_short>::type;

/** Calls f(policy_config<bucket, Config>{}) with the config of `p` for the column's own codes:
 *  runtime (bucket, W, gather, emit) -> compile-time config. */
template <class F>
decltype(auto) with_policy_config(decode_policy const& p, F&& f)
{
  using G = gather_strategy;
  using E = emit_strategy;
  if (p.arch != arch_bucket::sm90) {  // the paper's config: W only
    if (p.low_plane_bytes == 16) return f(policy_config<arch_bucket::generic, tuned_config<arch_bucket::generic, 16>::type>{});
    return f(policy_config<arch_bucket::generic, tuned_config<arch_bucket::generic, 8>::type>{});
  }
  auto const run = [&](auto w, auto g, auto e) -> decltype(auto) {
    return f(policy_config<arch_bucket::sm90,
                           typename tuned_config<arch_bucket::sm90, decltype(w)::value, decltype(g)::value,
                                                 decltype(e)::value>::type>{});
  };
  auto const by_gather = [&](auto w, auto e) -> decltype(auto) {
    switch (p.gather) {
      case G::texture_low_fused: return run(w, std::integral_constant<G, G::texture_low_fused>{}, e);
      case G::texture_low_streamed: return run(w, std::integral_constant<G, G::texture_low_streamed>{}, e);
      default: return run(w, std::integral_constant<G, G::texture_low>{}, e);
    }
  };
  constexpr std::integral_constant<E, E::register_words> words{};
  if (p.low_plane_bytes == 16) return by_gather(std::integral_constant<int, 16>{}, words);
  if (p.emit == E::register_words_short)  // W = 8 without a high plane (FSST-12)
    return by_gather(std::integral_constant<int, 8>{}, std::integral_constant<E, E::register_words_short>{});
  return by_gather(std::integral_constant<int, 8>{}, words);
}

/** with_policy_config for the automatic policy of `col` on the current device. */
template <class F>
decltype(auto) with_auto_config(device_column const& col, F&& f)
{
  return with_policy_config(select_policy(col), std::forward<F>(f));
}

/**
 * The one path from a column to the decode kernel: launches Config over codes [c0, c1) of `col`,
 * writing decoded positions [window_begin, window_begin + capacity) to `out` (launch_decode).
 * Config is a decode_config, or auto_config for the automatic choice (`policy` if the caller has
 * selected it already, else select_policy(col)).
 * @throw logic_error if Config's W is not the column's or Config reads what the column lacks.
 */
template <class Config>
void decode_codes(device_column const& col, std::uint64_t c0, std::uint64_t c1, unsigned char* out,
                  std::uint64_t window_begin, std::uint64_t capacity, cuda::stream_ref stream,
                  bool* launched = nullptr, decode_policy const* policy = nullptr)
{
  if constexpr (std::is_same_v<Config, auto_config>) {
    with_policy_config(policy ? *policy : select_policy(col), [&](auto tag) {
      using config = typename decltype(tag)::type;
      launch_decode<config, decltype(tag)::arch>(col.view<config::low_plane_bytes>(), c0, c1, out, window_begin,
                                                 capacity, stream, launched);
    });
  } else {
    static_assert(is_decode_config<Config>::value, "Config must be a fastpair::decode_config or fastpair::auto_config");
    launch_decode<Config>(col.view<Config::low_plane_bytes>(), c0, c1, out, window_begin, capacity, stream, launched);
  }
}

/** decode_codes for rows [row_begin, row_end) of `col`, located at `rr` (device_column::locate_rows),
 *  into `out` (which holds exactly those rows' bytes). The automatic config decodes the column's
 *  split stream where its policy says so (decode_policy::split_stream), an explicit Config the
 *  codes. The automatic policy is selected once per call. */
template <class Config>
void decode_rows(device_column const& col, std::uint64_t row_begin, std::uint64_t row_end,
                 device_column::row_range const& rr, unsigned char* out, cuda::stream_ref stream,
                 bool* launched = nullptr)
{
  std::uint64_t const bytes = rr.b1 - rr.b0;
  if constexpr (std::is_same_v<Config, auto_config>) {
    decode_policy const p = select_policy(col);
    if (p.split_stream) {
      auto const& so = col.split_row_code_offsets();
      launch_decode<split_stream_config, static_cast<int>(arch_bucket::sm90)>(
        col.split_view(), so[row_begin], so[row_end], out, rr.b0, bytes, stream, launched);
      return;
    }
    decode_codes<auto_config>(col, rr.c0, rr.c1, out, rr.b0, bytes, stream, launched, &p);
  } else {
    decode_codes<Config>(col, rr.c0, rr.c1, out, rr.b0, bytes, stream, launched);
  }
}

}  // namespace detail

/** @brief Name (config_name) of the configuration decode_column() picks for `col` on the current
 *  device, e.g. "k8.w16.h0.t256.b3.words.texls"; ".split" appended where it decodes the
 *  column's split stream. */
inline std::string auto_config_name(device_column const& col)
{
  decode_policy const p = select_policy(col);
  if (p.split_stream) return config_name<detail::split_stream_config>() + ".split";
  return detail::with_policy_config(p, [](auto tag) { return config_name<typename decltype(tag)::type>(); });
}

}  // namespace fastpair
