// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Selective decode (select.cuh) against decode-then-filter, on real columns tiled to >= 1 GB:
//   select/<column>/<codec>/<pattern>/<selectivity>/<strategy>
//       pattern: ids (random row ids, Bernoulli per row) or range (one contiguous run mid-column);
//       strategy: selective (filter-then-materialise), dense (full decode into a temporary + copy
//       of the selected rows), auto (what select_strategy::automatic picks). The plan is built
//       outside the timed region; the timed call is decode_selected(col, plan, out, stream, s).
//   plan/<column>/<codec>/<pattern>/<selectivity>     make_select_plan (synchronizes: host gaps
//       between its kernels are included)
//   full/<column>/<codec>                              decode_column of every row (reference)
//   copy/<column>/<codec>                              device-to-device copy of the decoded size
// After the run a summary goes to stderr: per column and pattern the dense / selective time ratio
// at every selectivity, the measured crossover (first selectivity at which dense is not slower),
// and the acceptance line (selective at 1 % >= 10x faster than dense).
// Environment: FASTPAIR_BENCH_COLUMNS, FASTPAIR_BENCH_CODECS (default onpair16),
// FASTPAIR_BENCH_SELECTIVITIES (percent, comma list), FASTPAIR_BENCH_ITERS (default 20),
// FASTPAIR_BENCH_BYTES, FASTPAIR_BENCH_SOURCE_BYTES, FASTPAIR_DATA_DIR.
// Every case reads one column prepared with prepare_options::row_offsets (select.cuh needs the
// 8-byte row offsets), the full decode and the dense path included.
#include "common/fixture.cuh"
#include "common/suite.cuh"
#include "utils/generators.hpp"

#include <fastpair/predicates.hpp>
#include <fastpair/select.cuh>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace fb = fastpair::bench;
using fastpair::codec;
using fastpair::select_strategy;

namespace {

/** A selection of the tiled column on the device, in the form the pattern names. */
struct bench_selection {
  fastpair::device_buffer<std::uint64_t> ids;
  fastpair::device_buffer<fastpair::row_range> range;
  fastpair::select_plan plan;
};

/** Builds (host), uploads and plans the selection; cached per column, pattern and selectivity. */
bench_selection& get_selection(fb::prepared& p, std::string const& pattern, double pct)
{
  static std::map<std::string, std::unique_ptr<bench_selection>> cache;
  std::string const key = p.name + "/" + pattern + "/" + std::to_string(pct);
  if (auto it = cache.find(key); it != cache.end()) return *it->second;
  auto s                = std::make_unique<bench_selection>();
  std::uint64_t const n = p.dcol.num_rows();
  double const share    = pct / 100.0;
  if (pattern == "ids") {
    fastpair::testing::rng r(static_cast<std::uint64_t>(pct * 1000) + 17);
    std::vector<std::uint64_t> rows;
    rows.reserve(static_cast<std::size_t>(n * share * 1.01) + 16);
    for (std::uint64_t i = 0; i < n; ++i)
      if (share >= 1.0 || r.uniform() < share) rows.push_back(i);
    s->ids = fastpair::device_buffer<std::uint64_t>(rows.size(), {});
    if (!rows.empty())
      FASTPAIR_CUDA_TRY(cudaMemcpy(s->ids.data(), rows.data(), rows.size() * 8, cudaMemcpyHostToDevice));
    s->plan = fastpair::make_select_plan(p.dcol, fastpair::device_row_ids{s->ids.data(), rows.size()});
  } else {
    std::uint64_t const len   = std::min<std::uint64_t>(n, static_cast<std::uint64_t>(n * share + 0.5));
    fastpair::row_range const rr{(n - len) / 2, (n - len) / 2 + len};
    s->range = fastpair::device_buffer<fastpair::row_range>(1, {});
    FASTPAIR_CUDA_TRY(cudaMemcpy(s->range.data(), &rr, sizeof rr, cudaMemcpyHostToDevice));
    s->plan = fastpair::make_select_plan(p.dcol, fastpair::device_row_ranges{s->range.data(), 1});
  }
  return *cache.emplace(key, std::move(s)).first->second;
}

/** "0.1pct", "20pct": selectivity in benchmark names. */
std::string pct_label(double pct)
{
  char buf[32];
  std::snprintf(buf, sizeof buf, "%gpct", pct);
  return buf;
}

/** Min times of the select benchmarks, for the summary: key -> strategy name -> seconds. */
std::map<std::string, std::map<std::string, double>>& results()
{
  static std::map<std::string, std::map<std::string, double>> r;
  return r;
}

/** Min time of decode_column over every row, per column/codec (the plain full decode). */
std::map<std::string, double>& full_times()
{
  static std::map<std::string, double> r;
  return r;
}

void bench_select(benchmark::State& state, std::string const& column, codec kind, std::string const& pattern,
                  double pct, select_strategy strategy)
{
  auto& p    = fb::get_column(column, kind, 0, fb::accelerators::offsets());  // select.cuh reads the row offsets
  auto& sel  = get_selection(p, pattern, pct);
  auto const& plan = sel.plan;
  fastpair::string_column_view<std::int64_t> out{p.offsets.data(), p.chars.data(), plan.num_rows(), p.chars.size()};
  auto times = fb::timed_loop(state, [&](cudaStream_t s) { fastpair::decode_selected(p.dcol, plan, out, s, strategy); });
  if (p.dcol.read_and_clear_errors() != 0) state.SkipWithError("device error word set");
  // Correctness gate for the selective path: equal to the dense path's output.
  if (strategy == select_strategy::selective && plan.bytes() > 0) {
    fastpair::device_buffer<std::int64_t> off2(plan.num_rows() + 1, {});
    fastpair::device_buffer<char> chars2(plan.bytes(), {});
    fastpair::decode_selected(p.dcol, plan, fastpair::string_column_view<std::int64_t>{off2.data(), chars2.data(), plan.num_rows(), plan.bytes()},
                              {}, select_strategy::decode_then_filter);
    if (fb::device_mismatches(p.chars.data(), chars2.data(), plan.bytes()) != 0 ||
        fb::device_mismatches(p.offsets.data(), off2.data(), (plan.num_rows() + 1) * 8) != 0)
      state.SkipWithError("selective output differs from decode-then-filter");
  }
  double const tmin = fb::min_of(times), tmed = fb::median_of(times);
  double const bytes = static_cast<double>(plan.bytes());
  state.SetBytesProcessed(static_cast<std::int64_t>(plan.bytes()) * state.iterations());
  state.counters["ms_min"]         = tmin * 1e3;
  state.counters["ms_median"]      = tmed * 1e3;
  state.counters["sel_GBps_min"]   = bytes / tmin / 1e9;
  state.counters["logical_GBps"]   = static_cast<double>(p.dcol.decoded_bytes()) / tmin / 1e9;
  state.counters["selectivity"]    = plan.selectivity();
  state.counters["rows"]           = static_cast<double>(plan.num_rows());
  state.counters["runs"]           = static_cast<double>(plan.pieces().count);
  state.counters["dense_chosen"]   = plan.resolve(strategy) == select_strategy::decode_then_filter;
  state.counters["pct_copy"]       = 100.0 * (bytes / tmin) / fb::copy_rate(p.dcol.decoded_bytes());
  results()[column + "/" + fastpair::codec_name(kind) + "/" + pattern][std::to_string(pct) + "|" +
                                                                       fastpair::strategy_name(strategy)] = tmin;
}

void bench_plan(benchmark::State& state, std::string const& column, codec kind, std::string const& pattern, double pct)
{
  auto& p   = fb::get_column(column, kind, 0, fb::accelerators::offsets());  // select.cuh reads the row offsets
  auto& sel = get_selection(p, pattern, pct);
  std::uint64_t const n = sel.plan.num_rows();
  auto times = fb::timed_loop(state, [&](cudaStream_t s) {
    if (pattern == "ids") (void)fastpair::make_select_plan(p.dcol, fastpair::device_row_ids{sel.ids.data(), n}, s);
    else (void)fastpair::make_select_plan(p.dcol, fastpair::device_row_ranges{sel.range.data(), 1}, s);
  });
  state.counters["ms_min"]    = fb::min_of(times) * 1e3;
  state.counters["ms_median"] = fb::median_of(times) * 1e3;
  state.counters["rows"]      = static_cast<double>(n);
}

void bench_full(benchmark::State& state, std::string const& column, codec kind)
{
  auto& p    = fb::get_column(column, kind, 0, fb::accelerators::offsets());  // select.cuh reads the row offsets
  auto times = fb::timed_loop(state, [&](cudaStream_t s) { fastpair::decode_column(p.dcol, p.out(), s); });
  if (p.dcol.read_and_clear_errors() != 0) state.SkipWithError("device error word set");
  fb::set_decode_counters(state, p, times);
  state.counters["ms_min"]    = fb::min_of(times) * 1e3;
  state.counters["ms_median"] = fb::median_of(times) * 1e3;
  full_times()[column + "/" + fastpair::codec_name(kind)] = fb::min_of(times);
}

/** The summary on stderr (see the file comment). */
void print_summary(std::vector<double> const& pcts)
{
  std::fprintf(stderr, "\n# selective decode summary (min times; speedup = dense / selective)\n");
  for (auto const& [key, m] : results()) {
    std::fprintf(stderr, "%-40s", key.c_str());
    double crossover = -1;
    for (double pct : pcts) {
      auto const s = m.find(std::to_string(pct) + "|selective"), d = m.find(std::to_string(pct) + "|dense");
      if (s == m.end() || d == m.end()) continue;
      double const speedup = d->second / s->second;
      std::fprintf(stderr, "  %g%%: %.3f/%.3f ms x%.1f", pct, s->second * 1e3, d->second * 1e3, speedup);
      if (crossover < 0 && speedup <= 1.0) crossover = pct;
    }
    if (crossover < 0) std::fprintf(stderr, "  crossover: > largest measured\n");
    else std::fprintf(stderr, "  crossover: <= %g%%\n", crossover);
    auto const s1 = m.find(std::to_string(1.0) + "|selective"), d1 = m.find(std::to_string(1.0) + "|dense");
    if (s1 != m.end() && d1 != m.end()) {
      // Against decode-then-filter, and (stricter) against decode_column alone, with no filter.
      auto const full   = full_times().find(key.substr(0, key.rfind('/')));
      double const vs_f = full == full_times().end() ? 0.0 : full->second / s1->second;
      std::fprintf(stderr, "ACCEPT %s 1%% selective vs full decode + filter: x%.1f %s (vs decode_column alone: x%.1f)\n",
                   key.c_str(), d1->second / s1->second, d1->second / s1->second >= 10.0 ? "PASS" : "FAIL", vs_f);
    }
  }
}

}  // namespace

int main(int argc, char** argv)
{
  benchmark::Initialize(&argc, argv);
  fb::require_data("fastpair_bench_select");
  fb::add_machine_context();
  fb::keep_pool_memory();  // decode_selected allocates its temporaries stream-ordered

  int const iters = static_cast<int>(fb::env_int("FASTPAIR_BENCH_ITERS", 20));
  std::vector<double> pcts;
  for (auto const& s : fb::env_list("FASTPAIR_BENCH_SELECTIVITIES", "0.1,1,10,20,50,100")) pcts.push_back(std::stod(s));
  auto reg = [iters](std::string const& name, auto fn) {
    benchmark::RegisterBenchmark(name.c_str(), fb::guarded(fn))
      ->UseManualTime()->Iterations(iters)->Unit(benchmark::kMillisecond);
  };
  for (auto const& column : fb::env_list("FASTPAIR_BENCH_COLUMNS", "log_windows,tpch_l_comment,en_wiki,urls")) {
    for (auto const& cname : fb::env_list("FASTPAIR_BENCH_CODECS", "onpair16")) {
      codec const kind         = fastpair::parse_codec(cname);
      std::string const prefix = column + "/" + cname;
      reg("full/" + prefix, [column, kind](benchmark::State& s) { bench_full(s, column, kind); });
      reg("copy/" + prefix, [column, kind](benchmark::State& s) { fb::bench_copy(s, column, kind, fb::accelerators::offsets()); });
      for (std::string pattern : {"ids", "range"}) {
        for (double pct : pcts) {
          std::string const at = prefix + "/" + pattern + "/" + pct_label(pct);
          for (auto strategy : {select_strategy::selective, select_strategy::decode_then_filter, select_strategy::automatic})
            reg("select/" + at + "/" + fastpair::strategy_name(strategy), [=](benchmark::State& s) {
              bench_select(s, column, kind, pattern, pct, strategy);
            });
          reg("plan/" + at, [=](benchmark::State& s) { bench_plan(s, column, kind, pattern, pct); });
        }
      }
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  print_summary(pcts);
  benchmark::Shutdown();
  return 0;
}
