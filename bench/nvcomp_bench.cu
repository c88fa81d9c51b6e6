// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Optional comparison with NVIDIA nvCOMP's general-purpose GPU codecs (LZ4, Snappy, Zstd, GDeflate,
// ANS) on the SAME tiled columns as the FastPair benchmarks. Built only when CMake finds nvCOMP
// (FASTPAIR_NVCOMP_ROOT; scripts/fetch-nvcomp.sh unpacks the PyPI wheel nvidia-libnvcomp-cu13
// into .nvcomp/).
//
//   nvcomp/<column>/<algo>/chunk:<bytes>
//
// Per column: the column is encoded and tiled to >= 1 GB exactly as in fixture.cuh, decoded once
// by fastpair (checked against the CPU reference there) to obtain the raw tiled bytes in device
// memory; those bytes are cut into fixed-size chunks (default 64 KiB, nvCOMP's recommended size)
// and compressed on the GPU with each algorithm's default options. The timed region is one
// nvcompBatched<Algo>DecompressAsync of all chunks (L2 flushed before each iteration, CUDA
// events, as for our decoder); the output is compared with the raw bytes once. Counters: decoded
// GB/s (min/median), % of copy, compression ratio (raw bytes / sum of compressed chunk bytes),
// the one-off GPU compression rate. Since every chunk is much smaller than one copy of the
// source column (4 MiB), the tiling does not inflate the ratio.
//
// Environment: FASTPAIR_BENCH_COLUMNS (default: all twelve), FASTPAIR_NVCOMP_ALGOS (default
// lz4,snappy,zstd,gdeflate,ans), FASTPAIR_NVCOMP_CHUNKS (comma list of chunk bytes, default 65536),
// FASTPAIR_BENCH_ITERS (default 100), plus fixture.cuh's variables.
#include "common/suite.cuh"

#include <nvcomp/ans.h>
#include <nvcomp/gdeflate.h>
#include <nvcomp/lz4.h>
#include <nvcomp/snappy.h>
#include <nvcomp/version.h>
#include <nvcomp/zstd.h>

#include <chrono>

namespace fb = fastpair::bench;
using fastpair::codec;

namespace {

#define FASTPAIR_NVCOMP_TRY(call)                                                                   \
  do {                                                                                              \
    nvcompStatus_t const st_ = (call);                                                              \
    if (st_ != nvcompSuccess)                                                                       \
      throw std::runtime_error(std::string(#call) + " failed with nvcompStatus " + std::to_string(int(st_))); \
  } while (0)

// nvCOMP's batched C API has the same signatures for every algorithm; one trait per algorithm.
#define FASTPAIR_NVCOMP_ALGO(Trait, Name, str)                                                                    \
  struct Trait {                                                                                                  \
    static constexpr char const* name = str;                                                                      \
    static nvcompBatched##Name##CompressOpts_t copts() { return nvcompBatched##Name##CompressDefaultOpts; }       \
    static nvcompBatched##Name##DecompressOpts_t dopts() { return nvcompBatched##Name##DecompressDefaultOpts; }   \
    static constexpr auto compress_align   = nvcompBatched##Name##CompressGetRequiredAlignments;                  \
    static constexpr auto compress_temp    = nvcompBatched##Name##CompressGetTempSize;                            \
    static constexpr auto max_out_chunk    = nvcompBatched##Name##CompressGetMaxOutputChunkSize;                  \
    static constexpr auto compress         = nvcompBatched##Name##CompressAsync;                                  \
    static constexpr auto decompress_align = nvcompBatched##Name##DecompressGetRequiredAlignments;                \
    static constexpr auto decompress_temp  = nvcompBatched##Name##DecompressGetTempSize;                          \
    static constexpr auto decompress       = nvcompBatched##Name##DecompressAsync;                                \
  };
FASTPAIR_NVCOMP_ALGO(lz4_algo, LZ4, "lz4")
FASTPAIR_NVCOMP_ALGO(snappy_algo, Snappy, "snappy")
FASTPAIR_NVCOMP_ALGO(zstd_algo, Zstd, "zstd")
FASTPAIR_NVCOMP_ALGO(gdeflate_algo, Gdeflate, "gdeflate")
FASTPAIR_NVCOMP_ALGO(ans_algo, ANS, "ans")
#undef FASTPAIR_NVCOMP_ALGO

std::size_t round_up(std::size_t x, std::size_t a) { return (x + a - 1) / a * a; }

template <class T>
fastpair::device_buffer<T> upload(std::vector<T> const& h)
{
  fastpair::device_buffer<T> d(h.size(), {});
  FASTPAIR_CUDA_TRY(cudaMemcpy(d.data(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

bool all_success(fastpair::device_buffer<nvcompStatus_t> const& st)
{
  std::vector<nvcompStatus_t> h(st.size());
  FASTPAIR_CUDA_TRY(cudaMemcpy(h.data(), st.data(), h.size() * sizeof(nvcompStatus_t), cudaMemcpyDeviceToHost));
  for (auto s : h)
    if (s != nvcompSuccess) return false;
  return true;
}

template <class Algo>
void bench_nvcomp(benchmark::State& state, std::string const& column, std::size_t chunk)
{
  codec const src_codec = fastpair::parse_codec(fb::env_list("FASTPAIR_NVCOMP_SOURCE_CODEC", "onpair16").at(0));
  auto& p = fb::get_column(column, src_codec);
  fastpair::decode_column(p.dcol, p.out(), {});  // raw tiled bytes in p.chars
  FASTPAIR_CUDA_TRY(cudaDeviceSynchronize());
  std::uint64_t const bytes = p.dcol.decoded_bytes();
  auto const* raw           = reinterpret_cast<unsigned char const*>(p.chars.data());
  std::size_t const n       = (bytes + chunk - 1) / chunk;
  cudaStream_t const s      = nullptr;

  // Chunk tables.
  std::vector<void const*> h_in(n);
  std::vector<std::size_t> h_in_bytes(n);
  for (std::size_t i = 0; i < n; ++i) {
    h_in[i]       = raw + i * chunk;
    h_in_bytes[i] = std::min<std::uint64_t>(chunk, bytes - i * chunk);
  }
  auto d_in       = upload(h_in);
  auto d_in_bytes = upload(h_in_bytes);

  // Compress (GPU, default options), once.
  auto const copts = Algo::copts();
  nvcompAlignmentRequirements_t ca{};
  FASTPAIR_NVCOMP_TRY(Algo::compress_align(copts, &ca));
  std::size_t max_out = 0, ctemp_bytes = 0;
  FASTPAIR_NVCOMP_TRY(Algo::max_out_chunk(chunk, copts, &max_out));
  FASTPAIR_NVCOMP_TRY(Algo::compress_temp(n, chunk, copts, &ctemp_bytes, bytes, s));
  std::size_t const slot = round_up(max_out, std::max<std::size_t>(256, ca.output));
  fastpair::device_buffer<unsigned char> comp(n * slot, {});
  fastpair::device_buffer<unsigned char> ctemp(std::max<std::size_t>(ctemp_bytes, 1), {});
  std::vector<void*> h_comp(n);
  for (std::size_t i = 0; i < n; ++i) h_comp[i] = comp.data() + i * slot;
  auto d_comp = upload(h_comp);
  fastpair::device_buffer<std::size_t> d_comp_bytes(n, {});
  fastpair::device_buffer<nvcompStatus_t> d_status(n, {});
  auto const t0 = std::chrono::steady_clock::now();
  FASTPAIR_NVCOMP_TRY(Algo::compress(d_in.data(), d_in_bytes.data(), chunk, n, ctemp.data(), ctemp_bytes,
                                     d_comp.data(), d_comp_bytes.data(), copts, d_status.data(), s));
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
  double const compress_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!all_success(d_status)) {
    state.SkipWithError("nvCOMP compression reported a chunk error");
    return;
  }
  std::vector<std::size_t> h_comp_bytes(n);
  FASTPAIR_CUDA_TRY(cudaMemcpy(h_comp_bytes.data(), d_comp_bytes.data(), n * sizeof(std::size_t), cudaMemcpyDeviceToHost));
  double comp_total = 0;
  for (auto b : h_comp_bytes) comp_total += static_cast<double>(b);

  // Decompress into a separate buffer.
  auto const dopts = Algo::dopts();
  nvcompAlignmentRequirements_t da{};
  FASTPAIR_NVCOMP_TRY(Algo::decompress_align(dopts, &da));
  std::size_t dtemp_bytes = 0;
  FASTPAIR_NVCOMP_TRY(Algo::decompress_temp(n, chunk, dopts, &dtemp_bytes, bytes, s));
  fastpair::device_buffer<unsigned char> dtemp(std::max<std::size_t>(dtemp_bytes, 1), {});
  fastpair::device_buffer<unsigned char> out(bytes, {});
  std::vector<void*> h_out(n);
  for (std::size_t i = 0; i < n; ++i) h_out[i] = out.data() + i * chunk;
  auto d_out = upload(h_out);
  fastpair::device_buffer<std::size_t> d_out_bytes(n, {});
  auto run = [&](cudaStream_t st) {
    FASTPAIR_NVCOMP_TRY(Algo::decompress(d_comp.data(), d_comp_bytes.data(), d_in_bytes.data(), d_out_bytes.data(), n,
                                         dtemp.data(), dtemp_bytes, d_out.data(), dopts, d_status.data(), st));
  };
  run(s);
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
  if (!all_success(d_status)) {
    state.SkipWithError("nvCOMP decompression reported a chunk error");
    return;
  }
  if (auto const bad = fb::device_mismatches(out.data(), raw, bytes); bad != 0) {
    state.SkipWithError(("nvCOMP output differs from the raw column on " + std::to_string(bad) + " bytes").c_str());
    return;
  }

  auto times = fb::timed_loop(state, run);
  double const tmin = fb::min_of(times), tmed = fb::median_of(times);
  double const copy = fb::copy_rate(bytes);
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
  state.counters["GBps_min"]         = bytes / tmin / 1e9;
  state.counters["GBps_median"]      = bytes / tmed / 1e9;
  state.counters["pct_copy"]         = 100.0 * (bytes / tmin) / copy;
  state.counters["ratio"]            = static_cast<double>(bytes) / comp_total;
  state.counters["compress_GBps"]    = bytes / compress_s / 1e9;
  state.counters["chunk_bytes"]      = static_cast<double>(chunk);
  state.counters["verified_bytes"]   = static_cast<double>(bytes);
}

template <class Algo>
void register_algo(std::string const& algo, std::string const& column, std::size_t chunk, int iters)
{
  if (algo != Algo::name) return;
  std::string const name = "nvcomp/" + column + "/" + algo + "/chunk:" + std::to_string(chunk);
  benchmark::RegisterBenchmark(name.c_str(), fb::guarded([column, chunk](benchmark::State& s) { bench_nvcomp<Algo>(s, column, chunk); }))
    ->UseManualTime()
    ->Iterations(iters)
    ->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv)
{
  benchmark::Initialize(&argc, argv);
  fb::require_data("fastpair_bench_nvcomp");
  fb::add_machine_context();
  benchmark::AddCustomContext("nvcomp_version", std::to_string(NVCOMP_VER_MAJOR) + "." + std::to_string(NVCOMP_VER_MINOR) +
                                                  "." + std::to_string(NVCOMP_VER_PATCH) + "." +
                                                  std::to_string(NVCOMP_VER_BUILD));
  int const iters = static_cast<int>(fb::env_int("FASTPAIR_BENCH_ITERS", 100));
  for (auto const& column : fb::env_list("FASTPAIR_BENCH_COLUMNS", fb::all_columns_csv()))
    for (auto const& algo : fb::env_list("FASTPAIR_NVCOMP_ALGOS", "lz4,snappy,zstd,gdeflate,ans"))
      for (auto const& c : fb::env_list("FASTPAIR_NVCOMP_CHUNKS", "65536")) {
        std::size_t const chunk = std::stoull(c);
        register_algo<lz4_algo>(algo, column, chunk, iters);
        register_algo<snappy_algo>(algo, column, chunk, iters);
        register_algo<zstd_algo>(algo, column, chunk, iters);
        register_algo<gdeflate_algo>(algo, column, chunk, iters);
        register_algo<ans_algo>(algo, column, chunk, iters);
      }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
