// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Shared pieces of the GPU benchmarks (Google Benchmark, manual time):
//  - an L2 flush before every timed iteration (memset of 3x the L2 size), outside the timed region;
//  - CUDA-event timing of each iteration; min and median reported as counters next to the mean
//    (the paper reports the min);
//  - the real columns of ../shared/data encoded with each codec and tiled to >= 1 GB of output;
//  - the device-to-device copy of the same size, measured in the same binary, for % of copy.
#pragma once

#include "utils/data.hpp"

#include <fastpair/encode.hpp>
#include <fastpair/fastpair.cuh>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

namespace fastpair::bench {

/** A byte count from the environment, also in floating-point notation ("4e9"); `fallback` if unset. */
inline std::uint64_t env_bytes(char const* var, std::uint64_t fallback)
{
  char const* e = std::getenv(var);
  return e ? static_cast<std::uint64_t>(std::strtod(e, nullptr)) : fallback;
}
/** Bytes of decoded output each benchmark column is tiled to (env FASTPAIR_BENCH_BYTES). */
inline std::uint64_t target_bytes() { return env_bytes("FASTPAIR_BENCH_BYTES", 1'000'000'000ull); }
/** Most host memory a tiled benchmark column may take (env FASTPAIR_BENCH_MAX_HOST_BYTES, default
 *  32 GB): tiled_column_bytes() is checked against it before tiling. */
inline std::uint64_t max_tile_host_bytes() { return env_bytes("FASTPAIR_BENCH_MAX_HOST_BYTES", 32'000'000'000ull); }
/** Text bytes of each shared column used to train and encode (env FASTPAIR_BENCH_SOURCE_BYTES). */
inline std::size_t source_bytes()
{
  return env_bytes("FASTPAIR_BENCH_SOURCE_BYTES", 4u << 20);  // the first 4 MiB, as in ANCHORS.md §1
}

/** A benchmark input: the tiled column on the device, its stats, and an output buffer. */
struct prepared {
  std::string name;
  compressed_column source;  // untiled
  device_column dcol;
  device_buffer<std::int64_t> offsets;
  device_buffer<char> chars;
  device_buffer<char> reference;  // the CPU reference decode of `source` (one tile), on the device
  double mean_token = 0, share_le8 = 0, ratio = 0;
  string_column_view<std::int64_t> out() { return {offsets.data(), chars.data(), dcol.num_rows(), chars.size()}; }
};

/** The encoded (untiled) column `name` with codec `kind`, cached; `name` may end in ":exact" or
 *  ":bytes" (dictionary-order A/B, see below). */
inline compressed_column const& get_source(std::string const& name, codec kind)
{
  static std::map<std::string, compressed_column> cache;
  std::string const key = name + "/" + codec_name(kind);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  // Dictionary-order A/B: "<column>:exact" = the column with its tokens renumbered by their exact
  // frequency (order_tokens_by_frequency); "<column>:bytes" = trained with token_order::bytes.
  auto const suffix = [&](std::string const& sfx) {
    return name.size() > sfx.size() && name.compare(name.size() - sfx.size(), sfx.size(), sfx) == 0;
  };
  if (suffix(":exact"))
    return cache.emplace(key, order_tokens_by_frequency(get_source(name.substr(0, name.size() - 6), kind)))
      .first->second;
  train_options opt;
  std::string base = name;
  if (suffix(":bytes")) {
    opt.order = token_order::bytes;
    base      = name.substr(0, name.size() - 6);
  }
  auto const rows = testing::load_column(base, source_bytes());
  return cache.emplace(key, compress(rows, kind, opt)).first->second;
}

/** The W the paper's rule picks for a column (W = 16 iff > 60 % of coded tokens exceed 8 bytes). */
inline int paper_w(std::string const& name, codec kind)
{
  auto const& src = get_source(name, kind);
  return paper_low_plane_bytes(kind, token_length_histogram(src));
}

/** The decode-time accelerators of a prepared benchmark column (prepare_options: all off = the
 *  library's lean default; prepare_options::row_lengths_max_share stays the library's default). */
struct accelerators {
  bool length_stream = false, fused_codes = false, split_stream = false, row_offsets = false;
  /** Row offsets only: what selective decode and the predicates need. */
  static accelerators offsets() { return {false, false, false, true}; }
  /** "" for none, else "+ls", "+fc", "+ss", "+ro" joined (a cache-key and name suffix). */
  std::string suffix() const
  {
    return std::string(length_stream ? "+ls" : "") + (fused_codes ? "+fc" : "") + (split_stream ? "+ss" : "") +
           (row_offsets ? "+ro" : "");
  }
  void apply(prepare_options& o) const
  {
    o.length_stream = length_stream;
    o.fused_codes   = fused_codes;
    o.split_stream  = split_stream;
    o.row_offsets   = row_offsets;
  }
};

/** The accelerators a fixed decode_config reads (the length stream of texture_low_streamed, the
 *  fused codes of texture_low_fused); none for auto_config, which uses what the column has. */
template <class Config>
accelerators accelerators_for()
{
  accelerators a;
  if constexpr (!std::is_same_v<Config, auto_config>) {
    a.length_stream = Config::streams_lengths;
    a.fused_codes   = Config::fused_codes;
  }
  return a;
}

/** Loads (once) column `name` encoded with `kind`, tiled to target_bytes(), prepared with W `w`
 *  (0 = automatic for this GPU) and the accelerators `acc` (default: none, the library's lean
 *  default). Verifies one GPU decode against the CPU reference of the untiled column. Columns are
 *  cached by resolved W and accelerators, so the automatic and an explicit equal W share one. */
inline prepared& get_column(std::string const& name, codec kind, int w = 0, accelerators acc = {})
{
  static std::map<std::string, std::unique_ptr<prepared>> cache;
  auto const& src = get_source(name, kind);
  auto const hist = token_length_histogram(src);
  if (w == 0) w = detail::tuned_low_plane_bytes(kind, hist, detail::current_arch_bucket());
  std::string const key = name + "/" + codec_name(kind) + "/w" + std::to_string(w) + acc.suffix();
  if (auto it = cache.find(key); it != cache.end()) return *it->second;
  auto p    = std::make_unique<prepared>();
  p->name   = key;
  p->source = src;
  // Tiled columns hold 16 bytes of row offsets per row: check the host memory before building.
  if (std::uint64_t const host = tiled_column_bytes(p->source, target_bytes()); host > max_tile_host_bytes())
    throw std::runtime_error("benchmark input " + key + ": tiling to " + std::to_string(target_bytes()) +
                             " decoded bytes would take " + std::to_string(host) + " bytes of host memory, more than the limit of " +
                             std::to_string(max_tile_host_bytes()) + " (FASTPAIR_BENCH_MAX_HOST_BYTES)");
  auto const tiled = tile_column(p->source, target_bytes());
  prepare_options opt;
  opt.low_plane_bytes = w;
  opt.validate        = false;  // tiled from a column the encoder produced; validated below by decoding
  acc.apply(opt);
  p->dcol    = device_column::prepare(tiled, {}, opt);
  p->offsets = device_buffer<std::int64_t>(p->dcol.num_rows() + 1, {});
  p->chars   = device_buffer<char>(p->dcol.decoded_bytes(), {});
  p->mean_token = mean_token_length(hist);
  p->share_le8  = 1.0 - share_longer_than(hist, 8);
  p->ratio      = static_cast<double>(src.decoded_bytes()) / static_cast<double>(column_stored_size(src).paper());
  // Correctness gate: the first copy of the tile must equal the CPU reference.
  decode_column(p->dcol, p->out(), {});
  std::vector<char> head(p->source.decoded_bytes());
  FASTPAIR_CUDA_TRY(cudaMemcpy(head.data(), p->chars.data(), head.size(), cudaMemcpyDeviceToHost));
  auto const ref = decode_reference(p->source).chars;
  if (head != ref || p->dcol.read_and_clear_errors() != 0)
    throw std::runtime_error("benchmark input " + key + ": GPU decode differs from the CPU reference");
  p->reference = device_buffer<char>(ref.size(), {});
  if (!ref.empty()) FASTPAIR_CUDA_TRY(cudaMemcpy(p->reference.data(), ref.data(), ref.size(), cudaMemcpyHostToDevice));
  return *cache.emplace(key, std::move(p)).first->second;
}

/** Flushes the L2 by writing a scratch buffer of 3x its size. */
inline void flush_l2(cudaStream_t s)
{
  static device_buffer<char> scratch = [] {
    int dev = 0, l2 = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev);
    return device_buffer<char>(std::size_t(3) * std::max(l2, 1 << 20), {});
  }();
  FASTPAIR_CUDA_TRY(cudaMemsetAsync(scratch.data(), 0, scratch.size(), s));
}

/** Times `fn(stream)` once per benchmark iteration with CUDA events (L2 flushed first) and sets
 *  the manual time; returns the per-iteration seconds. */
template <class Fn>
std::vector<double> timed_loop(benchmark::State& state, Fn&& fn)
{
  cudaStream_t s = nullptr;
  cudaEvent_t a, b;
  FASTPAIR_CUDA_TRY(cudaEventCreate(&a));
  FASTPAIR_CUDA_TRY(cudaEventCreate(&b));
  fn(s);  // warm-up
  std::vector<double> times;
  for (auto _ : state) {
    flush_l2(s);
    FASTPAIR_CUDA_TRY(cudaEventRecord(a, s));
    fn(s);
    FASTPAIR_CUDA_TRY(cudaEventRecord(b, s));
    FASTPAIR_CUDA_TRY(cudaEventSynchronize(b));
    float ms = 0;
    FASTPAIR_CUDA_TRY(cudaEventElapsedTime(&ms, a, b));
    state.SetIterationTime(ms * 1e-3);
    times.push_back(ms * 1e-3);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return times;
}

/**
 * Keeps freed memory in the device's default pool (release threshold = max). The library
 * allocates its temporaries stream-ordered (cudaMallocAsync); with the default threshold (0) every
 * synchronisation hands them back to the driver and the next call maps them again. Callers that
 * run many decodes, selections or parses should do the same (docs/DSV.md, docs/SELECTIVE.md).
 */
inline void keep_pool_memory()
{
  cudaMemPool_t pool;
  int dev = 0;
  FASTPAIR_CUDA_TRY(cudaGetDevice(&dev));
  FASTPAIR_CUDA_TRY(cudaDeviceGetDefaultMemPool(&pool, dev));
  std::uint64_t keep = ~std::uint64_t{0};
  FASTPAIR_CUDA_TRY(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
}

inline double min_of(std::vector<double> v) { return v.empty() ? 0 : *std::min_element(v.begin(), v.end()); }
inline double median_of(std::vector<double> v)
{
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

/** One-direction device-to-device copy rate (bytes/s, min time) of `bytes`, cached per size. */
inline double copy_rate(std::uint64_t bytes)
{
  static std::map<std::uint64_t, double> cache;
  if (auto it = cache.find(bytes); it != cache.end()) return it->second;
  device_buffer<char> src(bytes, {}), dst(bytes, {});
  FASTPAIR_CUDA_TRY(cudaMemset(src.data(), 1, bytes));
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  double best = 1e30;
  for (int i = 0; i < 30; ++i) {
    flush_l2(nullptr);
    cudaEventRecord(a);
    cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    best = std::min(best, ms * 1e-3);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return cache[bytes] = bytes / best;
}

/** Sets the standard counters: decoded GB/s (min and median time), codes/s, % of copy, % of the
 *  HBM roofline B_copy * L / (L + c) with B_copy counting read + write and c = 2 code bytes. */
inline void set_decode_counters(benchmark::State& state, prepared const& p, std::vector<double> const& times)
{
  double const bytes = static_cast<double>(p.dcol.decoded_bytes());
  double const codes = static_cast<double>(p.dcol.num_codes());
  double const tmin = min_of(times), tmed = median_of(times);
  double const copy = copy_rate(p.dcol.decoded_bytes());
  double const roof = 2 * copy * p.mean_token / (p.mean_token + 2.0);
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
  state.SetItemsProcessed(static_cast<std::int64_t>(codes) * state.iterations());
  state.counters["GBps_min"]    = bytes / tmin / 1e9;
  state.counters["GBps_median"] = bytes / tmed / 1e9;
  state.counters["in_GBps"]     = codes * 2 / tmin / 1e9;
  state.counters["pct_copy"]    = 100.0 * (bytes / tmin) / copy;
  state.counters["pct_roof"]    = 100.0 * (bytes / tmin) / roof;
  state.counters["mean_tok"]    = p.mean_token;
  state.counters["le8"]         = p.share_le8;
  state.counters["ratio"]       = p.ratio;
  state.counters["W"]           = p.dcol.low_plane_bytes();
  state.counters["row_B"]       = bytes / static_cast<double>(p.dcol.num_rows());  // mean decoded row
}

/** The device-to-device copy of a column's decoded size, timed like a decode (GBps counters);
 *  `acc`: which prepared column to copy from (the one the other cases of the binary read). */
inline void bench_copy(benchmark::State& state, std::string const& column, codec kind, accelerators acc = {})
{
  auto& p = get_column(column, kind, 0, acc);
  std::uint64_t const bytes = p.dcol.decoded_bytes();
  device_buffer<char> dst(bytes, {});
  auto times = timed_loop(state, [&](cudaStream_t s) {
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(dst.data(), p.chars.data(), bytes, cudaMemcpyDeviceToDevice, s));
  });
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
  state.counters["GBps_min"]    = bytes / min_of(times) / 1e9;
  state.counters["GBps_median"] = bytes / median_of(times) / 1e9;
}

}  // namespace fastpair::bench
