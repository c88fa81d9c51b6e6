// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// GPU DSV parsing (dsv.cuh, issue 9) on the H200. reddit_posts.csv (header kept once, the records
// repeated whole) and tpch_lineitem.tbl tiled to >= FASTPAIR_BENCH_BYTES (default 1 GB):
//  - dsv/<file>/boundaries    device-resident input -> field/record boundaries (CUDA events);
//  - dsv/<file>/materialized  device-resident input -> one Arrow column per field (CUDA events);
//  - dsv/<file>/streamed[_materialized]/src:{pageable,pinned}/batch:<MiB>  host input -> (pinned
//    staging, pageable only) -> GPU, end to end (wall clock: two streams and a host thread; one
//    reused dsv_streamer), with pct_of_bound = rate / min(device-resident rate of the same output,
//    pinned H2D bandwidth), both measured earlier in the same process; a pageable source also gets
//    pct_of_pageable_bound = rate / min(device-resident rate, H2D bandwidth from pageable memory);
//  - host_copy/<file>         the pageable -> pinned staging memcpy alone (host threads, wall clock);
//  - h2d/{pinned,pageable}    host-to-device bandwidth of one batch from pinned or pageable
//                             memory (cudaMemcpyAsync, CUDA events);
//  - copy/<file>              a device-to-device copy of the tiled input (CUDA events).
// GB/s are input bytes per second; min and median over the iterations.
#include "common/suite.cuh"

#include <fastpair/dsv.cuh>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstring>
#include <memory>
#include <thread>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace fb = fastpair::bench;

namespace {

struct input {
  std::string host;  // pageable
  fastpair::device_buffer<char> dev;
  fastpair::dsv_dialect dialect;
};

std::map<std::string, double>& measured()  // rates (bytes/s, min time) for pct_of_bound
{
  static std::map<std::string, double> m;
  return m;
}

/** The raw file tiled to >= target bytes: the header (if any) once, then whole records repeated. */
input& get_input(std::string const& file)
{
  static std::map<std::string, std::unique_ptr<input>> cache;
  if (auto it = cache.find(file); it != cache.end()) return *it->second;
  auto in = std::make_unique<input>();
  bool const csv = file == "reddit_posts";
  in->dialect    = csv ? fastpair::dsv_dialect{} : fastpair::tpch_dialect(16);
  in->dialect.header = csv;
  std::string raw = fastpair::testing::read_zstd_file(fastpair::testing::data_dir() /
                                                      (file + (csv ? ".csv.zst" : ".tbl.zst")));
  if (!raw.empty() && raw.back() != '\n') raw += '\n';
  std::size_t body_at = 0;
  if (csv) {  // the end of the header record (its fields are not quoted)
    body_at = raw.find('\n') + 1;
    in->host = raw.substr(0, body_at);
  }
  std::string_view const body(raw.data() + body_at, raw.size() - body_at);
  while (in->host.size() < fb::target_bytes()) in->host.append(body);
  in->dev = fastpair::device_buffer<char>(in->host.size(), {});
  FASTPAIR_CUDA_TRY(cudaMemcpy(in->dev.data(), in->host.data(), in->host.size(), cudaMemcpyHostToDevice));
  return *cache.emplace(file, std::move(in)).first->second;
}

void set_rate_counters(benchmark::State& state, double bytes, std::vector<double> const& times)
{
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
  state.counters["GBps_min"]    = bytes / fb::min_of(times) / 1e9;
  state.counters["GBps_median"] = bytes / fb::median_of(times) / 1e9;
  state.counters["input_bytes"] = bytes;
}

void bench_boundaries(benchmark::State& state, std::string const& file)
{
  auto& in = get_input(file);
  std::uint64_t records = 0;
  auto times = fb::timed_loop(state, [&](cudaStream_t s) {
    auto const b = fastpair::parse_dsv_boundaries(in.dev.data(), in.host.size(), in.dialect, s);
    records      = b.num_records;
  });
  set_rate_counters(state, static_cast<double>(in.host.size()), times);
  state.counters["records"] = static_cast<double>(records);
  measured()["boundaries/" + file] = in.host.size() / fb::min_of(times);
}

void bench_materialized(benchmark::State& state, std::string const& file)
{
  auto& in = get_input(file);
  std::uint64_t records = 0;
  auto times = fb::timed_loop(state, [&](cudaStream_t s) {
    auto const t = fastpair::parse_dsv(in.dev.data(), in.host.size(), in.dialect, s);
    records      = t.num_records;
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));  // the gather is inside the timed region
  });
  set_rate_counters(state, static_cast<double>(in.host.size()), times);
  state.counters["records"]              = static_cast<double>(records);
  state.counters["pct_copy"]             = 100.0 * (in.host.size() / fb::min_of(times)) / fb::copy_rate(in.host.size());
  measured()["materialized/" + file]     = in.host.size() / fb::min_of(times);
}

std::size_t batch_bytes() { return static_cast<std::size_t>(fb::env_int("FASTPAIR_BENCH_DSV_BATCH", 64l << 20)); }

/** Host-to-device copy of one batch from pinned memory or from pageable memory (the driver then
 *  stages it itself): the two H2D bounds a streamed parse is compared with. */
void bench_h2d(benchmark::State& state, bool pinned)
{
  std::size_t const bytes = batch_bytes();
  std::vector<char> pageable;
  char* src = nullptr;
  if (pinned) FASTPAIR_CUDA_TRY(cudaMallocHost(reinterpret_cast<void**>(&src), bytes));
  else {
    pageable.resize(bytes);
    src = pageable.data();
  }
  std::memset(src, 1, bytes);
  fastpair::device_buffer<char> dst(bytes, {});
  auto times = fb::timed_loop(state, [&](cudaStream_t s) {
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(dst.data(), src, bytes, cudaMemcpyHostToDevice, s));
  });
  if (pinned) FASTPAIR_CUDA_TRY(cudaFreeHost(src));
  set_rate_counters(state, static_cast<double>(bytes), times);
  measured()[pinned ? "h2d" : "h2d_pageable"] = bytes / fb::min_of(times);
}

/** Pageable (the tiled std::string) or pinned (a pinned copy of it) host source. */
std::string_view host_source(input& in, bool pinned)
{
  if (!pinned) return in.host;
  static std::map<input*, char*> copies;  // freed at exit by the driver
  char*& p = copies[&in];
  if (!p) {
    FASTPAIR_CUDA_TRY(cudaMallocHost(reinterpret_cast<void**>(&p), in.host.size()));
    std::memcpy(p, in.host.data(), in.host.size());
  }
  return {p, in.host.size()};
}

void bench_streamed(benchmark::State& state, std::string const& file, bool materialize, bool pinned,
                    std::size_t batch)
{
  auto& in = get_input(file);
  fastpair::dsv_stream_options opt;
  opt.batch_bytes = batch;
  opt.materialize = materialize;
  opt.copy_threads = static_cast<unsigned>(fb::env_int("FASTPAIR_BENCH_DSV_COPY_THREADS", 0));
  fastpair::dsv_streamer streamer(opt);  // staging, windows and streams reused by every iteration
  std::string_view const src = host_source(in, pinned);
  std::uint64_t records      = 0;
  auto run = [&] {
    records = 0;
    streamer.parse(src, in.dialect, [&](fastpair::dsv_batch const& b) { records += b.boundaries->num_records; });
  };
  run();  // warm-up: allocates the pinned staging and the device windows
  std::vector<double> times;
  for (auto _ : state) {
    auto const t0 = std::chrono::steady_clock::now();
    run();
    double const sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    state.SetIterationTime(sec);
    times.push_back(sec);
  }
  double const bytes = static_cast<double>(in.host.size());
  set_rate_counters(state, bytes, times);
  state.counters["records"]     = static_cast<double>(records);
  state.counters["batch_bytes"] = static_cast<double>(opt.batch_bytes);
  double const device = measured()[(materialize ? "materialized/" : "boundaries/") + file];
  double const h2d    = measured()["h2d"];
  if (device > 0 && h2d > 0) {
    double const bound             = std::min(device, h2d);
    state.counters["bound_GBps"]   = bound / 1e9;
    state.counters["pct_of_bound"] = 100.0 * (bytes / fb::min_of(times)) / bound;
  }
  // A pageable source is also compared with what the driver's own copy from pageable memory gets.
  if (double const h2d_pageable = measured()["h2d_pageable"]; !pinned && device > 0 && h2d_pageable > 0) {
    double const bound                      = std::min(device, h2d_pageable);
    state.counters["pageable_bound_GBps"]   = bound / 1e9;
    state.counters["pct_of_pageable_bound"] = 100.0 * (bytes / fb::min_of(times)) / bound;
  }
}

/** Host memcpy bandwidth (pageable -> pinned, the staging step) with the streamer's thread count. */
void bench_host_copy(benchmark::State& state, std::string const& file)
{
  auto& in   = get_input(file);
  char* dst  = nullptr;
  std::size_t const bytes = std::min(in.host.size(), batch_bytes());
  FASTPAIR_CUDA_TRY(cudaMallocHost(reinterpret_cast<void**>(&dst), bytes));
  unsigned const threads = static_cast<unsigned>(fb::env_int("FASTPAIR_BENCH_DSV_COPY_THREADS", 0));
  unsigned const t       = threads ? threads : std::min(16u, std::max(1u, std::thread::hardware_concurrency()));
  std::vector<double> times;
  for (auto _ : state) {
    auto const t0 = std::chrono::steady_clock::now();
    fastpair::detail::parallel_memcpy(dst, in.host.data(), bytes, t);
    double const sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    state.SetIterationTime(sec);
    times.push_back(sec);
  }
  FASTPAIR_CUDA_TRY(cudaFreeHost(dst));
  set_rate_counters(state, static_cast<double>(bytes), times);
  state.counters["threads"] = t;
}

void bench_copy(benchmark::State& state, std::string const& file)
{
  auto& in = get_input(file);
  fastpair::device_buffer<char> dst(in.host.size(), {});
  auto times = fb::timed_loop(state, [&](cudaStream_t s) {
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(dst.data(), in.dev.data(), in.host.size(), cudaMemcpyDeviceToDevice, s));
  });
  set_rate_counters(state, static_cast<double>(in.host.size()), times);
}

}  // namespace

int main(int argc, char** argv)
{
  benchmark::Initialize(&argc, argv);
  if (!std::filesystem::exists(fastpair::testing::data_dir() / "reddit_posts.csv.zst")) {
    std::fprintf(stderr, "fastpair_bench_dsv: no reddit_posts.csv.zst in %s (set FASTPAIR_DATA_DIR)\n",
                 fastpair::testing::data_dir().c_str());
    return 2;
  }
  fb::add_machine_context();
  fb::keep_pool_memory();  // stream-ordered temporaries stay mapped between iterations
  int const iters = static_cast<int>(fb::env_int("FASTPAIR_BENCH_ITERS", 20));
  auto reg = [](std::string const& name, auto fn, int n) {
    benchmark::RegisterBenchmark(name.c_str(), fb::guarded(fn))->UseManualTime()->Iterations(n)->Unit(benchmark::kMillisecond);
  };
  reg("h2d/pinned", [](benchmark::State& s) { bench_h2d(s, true); }, iters);
  reg("h2d/pageable", [](benchmark::State& s) { bench_h2d(s, false); }, iters);
  for (auto const& file : fb::env_list("FASTPAIR_BENCH_DSV_FILES", "reddit_posts,tpch_lineitem")) {
    reg("copy/" + file, [file](benchmark::State& s) { bench_copy(s, file); }, iters);
    reg("dsv/" + file + "/boundaries", [file](benchmark::State& s) { bench_boundaries(s, file); }, iters);
    reg("dsv/" + file + "/materialized", [file](benchmark::State& s) { bench_materialized(s, file); }, iters);
    reg("host_copy/" + file, [file](benchmark::State& s) { bench_host_copy(s, file); }, iters);
    for (bool pinned : {false, true})
      for (bool mat : {false, true}) {
        std::string const name = "dsv/" + file + "/streamed" + (mat ? "_materialized" : "") +
                                 (pinned ? "/src:pinned" : "/src:pageable") + "/batch:" +
                                 std::to_string(batch_bytes() >> 20) + "MiB";
        reg(name, [file, mat, pinned](benchmark::State& s) { bench_streamed(s, file, mat, pinned, batch_bytes()); },
            iters / 2 + 1);
      }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
