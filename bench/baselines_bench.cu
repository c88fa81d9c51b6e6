// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// The report's main table: per column and codec, in ONE process and on the SAME tiled (>= 1 GB of
// output) column, our decoder next to its reference points:
//   decode/<column>/<codec>/cfg:auto     the automatic configuration (what decode_column() runs)
//   decode/<column>/<codec>/cfg:paper    the paper-faithful reference (K=6, H=1, T=256, B=4, W by the
//                                        paper's rule: 16 iff > 60 % of tokens exceed 8 bytes)
//   naive/<column>/<codec>               a "ported CPU decoder" on the GPU: one thread per row
//                                        (column prepared with the 8-byte row offsets),
//                                        offset-table lookup per token, then byte reads and byte
//                                        writes straight to global memory (kernel below, not in
//                                        the library); its whole output is compared with ours
//   cpu/<column>/<codec>                 the CPU reference decoder's loop on all host cores
//   copy/<column>/<codec>                a device-to-device copy of the same output size
// Names match decode_bench.cu's where they overlap, so the report treats both files alike.
//
// With FASTPAIR_BENCH_PROFILE=1 only profile/<column>/<codec>/cfg:{auto,paper} are registered: one
// decode launch each between cudaProfilerStart/Stop, for `ncu --profile-from-start off`
// (scripts/ncu-counters.sh).
//
// Environment: FASTPAIR_BENCH_COLUMNS (default: all twelve shared columns), FASTPAIR_BENCH_CODECS,
// FASTPAIR_BENCH_ITERS (GPU timings, default 100), FASTPAIR_BENCH_CPU_ITERS (default 10),
// FASTPAIR_BENCH_CPU_THREADS (default: all hardware threads), FASTPAIR_BENCH_BYTES,
// FASTPAIR_BENCH_SOURCE_BYTES, FASTPAIR_DATA_DIR.
#include "common/suite.cuh"

#include <fastpair/reference.hpp>

#include <cuda_profiler_api.h>

#include <chrono>
#include <cstring>
#include <thread>

namespace fb = fastpair::bench;
using fastpair::codec;

namespace {

// ---------------------------------------------------------------------------------------------
// Naive GPU decoder: what a straightforward port of a CPU FSST-style decoder looks like. Thread r
// decodes row r: for each code, read the token's [begin, end) from a dictionary offset table, then
// copy the token byte by byte from the concatenated dictionary bytes to the output. No shared
// memory, no coalescing, no vector loads or stores.
__global__ void naive_decode_kernel(fastpair::code_stream codes, std::uint64_t const* row_code_offsets,
                                    std::uint64_t const* row_byte_offsets, std::uint32_t const* dict_offsets,
                                    unsigned char const* dict_bytes, std::uint64_t num_rows, std::int64_t* out_offsets,
                                    unsigned char* out_chars)
{
  std::uint64_t const r = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (r > num_rows) return;
  out_offsets[r] = static_cast<std::int64_t>(row_byte_offsets[r]);
  if (r == num_rows) return;
  unsigned char* dst = out_chars + row_byte_offsets[r];
  for (std::uint64_t j = row_code_offsets[r], e = row_code_offsets[r + 1]; j < e; ++j) {
    std::uint32_t const c = codes[j];
    for (std::uint32_t k = dict_offsets[c], ke = dict_offsets[c + 1]; k < ke; ++k) *dst++ = dict_bytes[k];
  }
}

struct naive_inputs {
  fastpair::device_buffer<std::uint32_t> dict_offsets;
  fastpair::device_buffer<unsigned char> dict_bytes;
};

template <class T>
fastpair::device_buffer<T> upload(std::vector<T> const& h)
{
  fastpair::device_buffer<T> d(h.size(), {});
  FASTPAIR_CUDA_TRY(cudaMemcpy(d.data(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

void launch_naive(fb::prepared& p, naive_inputs const& in, std::int64_t* offsets, unsigned char* chars, cudaStream_t s)
{
  std::uint64_t const rows = p.dcol.num_rows();
  // The codes as the column keeps them: u16 (OnPair-16) or packed 12-bit (OnPair-12, FSST-12).
  fastpair::code_stream const codes = p.dcol.low_plane_bytes() == 16
                                        ? fastpair::code_stream{p.dcol.view<16>().codes, p.dcol.view<16>().code_bits}
                                        : fastpair::code_stream{p.dcol.view<8>().codes, p.dcol.view<8>().code_bits};
  unsigned const blocks = static_cast<unsigned>((rows + 1 + 255) / 256);
  naive_decode_kernel<<<blocks, 256, 0, s>>>(codes, p.dcol.device_row_code_offsets(), p.dcol.device_row_byte_offsets(),
                                             in.dict_offsets.data(), in.dict_bytes.data(), rows, offsets, chars);
  FASTPAIR_CUDA_TRY(cudaGetLastError());
}

void bench_naive(benchmark::State& state, std::string const& column, codec kind)
{
  // The naive kernel reads the 8-byte row code and byte offsets (prepare_options::row_offsets).
  auto& p = fb::get_column(column, kind, 0, fb::accelerators::offsets());
  naive_inputs in;
  in.dict_offsets     = upload(p.source.dict.offsets);
  std::vector<unsigned char> bytes(p.source.dict.bytes.begin(), p.source.dict.bytes.end());
  bytes.push_back(0);  // never empty
  in.dict_bytes = upload(bytes);
  fastpair::device_buffer<unsigned char> chars(p.dcol.decoded_bytes(), {});
  fastpair::device_buffer<std::int64_t> offsets(p.dcol.num_rows() + 1, {});

  // Correctness, once: the naive output must equal ours on every byte of the tiled column (ours
  // was compared with the CPU reference on the first tile by get_column).
  fastpair::decode_column(p.dcol, p.out(), {});
  launch_naive(p, in, offsets.data(), chars.data(), nullptr);
  FASTPAIR_CUDA_TRY(cudaDeviceSynchronize());
  if (auto const bad = fb::device_mismatches(chars.data(), p.chars.data(), p.dcol.decoded_bytes()); bad != 0) {
    state.SkipWithError(("naive decoder differs from fastpair on " + std::to_string(bad) + " bytes").c_str());
    return;
  }
  auto times = fb::timed_loop(state, [&](cudaStream_t s) { launch_naive(p, in, offsets.data(), chars.data(), s); });
  fb::set_decode_counters(state, p, times);
  state.counters["verified_bytes"] = static_cast<double>(p.dcol.decoded_bytes());
}

// ---------------------------------------------------------------------------------------------
// The CPU reference decoder's inner loop (reference.hpp: packed codes read one by one, a fixed
// 16-byte copy from a 16-byte-stride dictionary, advance by the token length) on all host cores.
// The tiled column is `reps` copies of the source column, so the threads split the tiled rows
// into contiguous ranges and decode them from the source's packed codes.
struct cpu_decoder {
  fastpair::compressed_column const* src = nullptr;
  std::vector<std::uint8_t> table, len;
  std::uint64_t reps = 0;
  std::vector<char> out;  // reps * decoded + 16 bytes of slack

  explicit cpu_decoder(fastpair::compressed_column const& col, std::uint64_t tiled_bytes) : src(&col)
  {
    std::size_t const n = col.dict.size();
    table.assign(n * 16, 0);
    len.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      len[i] = static_cast<std::uint8_t>(col.dict.length(i));
      std::memcpy(&table[i * 16], col.dict.data(i), len[i]);
    }
    reps = tiled_bytes / col.decoded_bytes();
    out.resize(tiled_bytes + 16);
    std::memset(out.data(), 0, out.size());  // fault the pages in before timing
  }

  /** Decodes tiled rows [g0, g1). */
  void run_rows(std::uint64_t g0, std::uint64_t g1)
  {
    std::uint64_t const R = src->num_rows(), D = src->decoded_bytes();
    std::uint8_t const* packed = src->codes.data();
    codec const kind           = src->kind;
    // Over-copying past this thread's range would race with the next thread: the last tokens
    // (those within 16 bytes of the range end) are copied exactly.
    char* const end = out.data() + (g1 / R) * D + src->row_byte_offsets[g1 % R];
    while (g0 < g1) {
      std::uint64_t const r = g0 / R, i0 = g0 % R, i1 = std::min<std::uint64_t>(R, i0 + (g1 - g0));
      char* dst = out.data() + r * D + src->row_byte_offsets[i0];
      for (std::uint64_t j = src->row_code_offsets[i0], e = src->row_code_offsets[i1]; j < e; ++j) {
        std::uint32_t const c = fastpair::code_at(kind, packed, j);
        if (dst + 16 <= end) std::memcpy(dst, &table[std::size_t{c} * 16], 16);
        else std::memcpy(dst, &table[std::size_t{c} * 16], len[c]);
        dst += len[c];
      }
      g0 += i1 - i0;
    }
  }

  void run(unsigned threads)
  {
    std::uint64_t const total = reps * src->num_rows();
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back([this, t, threads, total] { run_rows(total * t / threads, total * (t + 1) / threads); });
    for (auto& th : pool) th.join();
  }
};

void bench_cpu(benchmark::State& state, std::string const& column, codec kind)
{
  auto& p = fb::get_column(column, kind);
  unsigned const threads =
    static_cast<unsigned>(fb::env_int("FASTPAIR_BENCH_CPU_THREADS", std::max(1u, std::thread::hardware_concurrency())));
  cpu_decoder dec(p.source, p.dcol.decoded_bytes());
  dec.run(threads);  // warm-up, then verify the first and last tile against decode_reference
  auto const ref = fastpair::decode_reference(p.source).chars;
  std::uint64_t const D = p.source.decoded_bytes();
  if (dec.reps * D != p.dcol.decoded_bytes() || std::memcmp(dec.out.data(), ref.data(), D) != 0 ||
      std::memcmp(dec.out.data() + (dec.reps - 1) * D, ref.data(), D) != 0) {
    state.SkipWithError("CPU decoder output differs from decode_reference");
    return;
  }
  std::vector<double> times;
  for (auto _ : state) {
    auto const t0 = std::chrono::steady_clock::now();
    dec.run(threads);
    double const s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    state.SetIterationTime(s);
    times.push_back(s);
  }
  fb::set_decode_counters(state, p, times);
  state.counters["threads"] = threads;
}

template <class Config>
void bench_config(benchmark::State& state, std::string const& column, codec kind)
{
  auto& p    = fb::get_column(column, kind);
  auto times = fb::timed_loop(state, [&](cudaStream_t s) { fastpair::decode_column<Config>(p.dcol, p.out(), s); });
  if (p.dcol.read_and_clear_errors() != 0) state.SkipWithError("device error word set");
  fb::set_decode_counters(state, p, times);
  if constexpr (std::is_same_v<Config, fastpair::auto_config>) state.SetLabel(fastpair::auto_config_name(p.dcol));
  else state.SetLabel(fastpair::config_name<Config>());
}

template <class Config>
void bench_config_w(benchmark::State& state, std::string const& column, codec kind)
{
  auto& p    = fb::get_column(column, kind, Config::low_plane_bytes);
  auto times = fb::timed_loop(state, [&](cudaStream_t s) { fastpair::decode_column<Config>(p.dcol, p.out(), s); });
  if (p.dcol.read_and_clear_errors() != 0) state.SkipWithError("device error word set");
  fb::set_decode_counters(state, p, times);
  state.SetLabel(fastpair::config_name<Config>());
}

// The paper's config with the paper's W rule (W = 16 iff > 60 % of tokens exceed 8 bytes), which
// may differ from the automatic W; the column is then prepared a second time with that W.
void bench_paper(benchmark::State& state, std::string const& column, codec kind)
{
  if (fb::paper_w(column, kind) == 16) bench_config_w<fastpair::paper_config<16>>(state, column, kind);
  else bench_config_w<fastpair::paper_config<8>>(state, column, kind);
}


// One decode launch inside cudaProfilerStart/Stop (for ncu --profile-from-start off).
template <class Config>
void profile_config(benchmark::State& state, std::string const& column, codec kind, int w = 0)
{
  auto& p = fb::get_column(column, kind, w);  // includes the correctness gate (outside the profiled range)
  FASTPAIR_CUDA_TRY(cudaDeviceSynchronize());
  for (auto _ : state) {
    FASTPAIR_CUDA_TRY(cudaProfilerStart());
    fastpair::decode_column<Config>(p.dcol, p.out(), {});
    FASTPAIR_CUDA_TRY(cudaDeviceSynchronize());
    FASTPAIR_CUDA_TRY(cudaProfilerStop());
  }
  if (p.dcol.read_and_clear_errors() != 0) state.SkipWithError("device error word set");
  if constexpr (std::is_same_v<Config, fastpair::auto_config>) state.SetLabel(fastpair::auto_config_name(p.dcol));
  else state.SetLabel(fastpair::config_name<Config>());
  state.counters["decoded_bytes"] = static_cast<double>(p.dcol.decoded_bytes());
  state.counters["num_codes"]     = static_cast<double>(p.dcol.num_codes());
  state.counters["mean_tok"]      = p.mean_token;
  state.counters["le8"]           = p.share_le8;
  state.counters["W"]             = p.dcol.low_plane_bytes();
}

void profile_paper(benchmark::State& state, std::string const& column, codec kind)
{
  if (fb::paper_w(column, kind) == 16) profile_config<fastpair::paper_config<16>>(state, column, kind, 16);
  else profile_config<fastpair::paper_config<8>>(state, column, kind, 8);
}

}  // namespace

int main(int argc, char** argv)
{
  benchmark::Initialize(&argc, argv);
  fb::require_data("fastpair_bench_baselines");
  fb::add_machine_context();
  bool const profile   = std::getenv("FASTPAIR_BENCH_PROFILE") != nullptr;
  int const iters      = static_cast<int>(fb::env_int("FASTPAIR_BENCH_ITERS", 100));
  int const cpu_iters  = static_cast<int>(fb::env_int("FASTPAIR_BENCH_CPU_ITERS", 10));
  auto reg = [](std::string const& name, auto fn, int n) {
    benchmark::RegisterBenchmark(name.c_str(), fb::guarded(fn))->UseManualTime()->Iterations(n)->Unit(benchmark::kMillisecond);
  };
  for (auto const& column : fb::env_list("FASTPAIR_BENCH_COLUMNS", fb::all_columns_csv())) {
    for (auto const& cname : fb::env_list("FASTPAIR_BENCH_CODECS", "onpair16,onpair12,fsst12")) {
      codec const kind         = fastpair::parse_codec(cname);
      std::string const prefix = column + "/" + cname;
      if (profile) {
        reg("profile/" + prefix + "/cfg:auto",
            [column, kind](benchmark::State& s) { profile_config<fastpair::auto_config>(s, column, kind); }, 1);
        reg("profile/" + prefix + "/cfg:paper", [column, kind](benchmark::State& s) { profile_paper(s, column, kind); }, 1);
        continue;
      }
      reg("decode/" + prefix + "/cfg:auto",
          [column, kind](benchmark::State& s) { bench_config<fastpair::auto_config>(s, column, kind); }, iters);
      reg("decode/" + prefix + "/cfg:paper", [column, kind](benchmark::State& s) { bench_paper(s, column, kind); }, iters);
      reg("naive/" + prefix, [column, kind](benchmark::State& s) { bench_naive(s, column, kind); }, iters);
      reg("cpu/" + prefix, [column, kind](benchmark::State& s) { bench_cpu(s, column, kind); }, cpu_iters);
      reg("copy/" + prefix, [column, kind](benchmark::State& s) { fb::bench_copy(s, column, kind); }, iters);
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
