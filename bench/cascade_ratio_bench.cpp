// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Compression ratios of row-level cascades next to the plain columns, on every shared column
// (full files) x codec. One benchmark per column x codec (Iterations(1)); counters:
//   distinct          distinct rows D;  runs: runs of equal rows
//   plain_paper       raw / column_stored_size(plain).paper()      (dictionary + codes + sidecar)
//   plain_rows        raw / column_stored_size(plain).with_rows()  (+ u32/u64 row code and byte offsets)
//   idx_paper/_rows   the cascade with one packed id per row, cascade_stored_size paper()/with_rows()
//   runs_paper/_rows  the cascade with runs (packed ids + packed run lengths)
//   chosen            what encode_cascade keeps: 0 plain, 1 cascade+indices, 2 cascade+runs
// After the run it prints the same numbers as a Markdown table (docs/CASCADES.md).
// The cascade is built for every column here (compress_cascade), whatever its cardinality, so
// the table shows what it would cost; encode_cascade skips it above max_distinct_share.
// Run: FASTPAIR_DATA_DIR=../shared/data ./fastpair_bench_cascade_ratio [--benchmark_filter=...]
// FASTPAIR_RATIO_MAX_BYTES limits the text per column (default: whole file).
#include <fastpair/cascade.hpp>

#include <benchmark/benchmark.h>

#include "utils/data.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct row {
  std::string column, codec;
  double raw_mb = 0;
  std::uint64_t rows = 0, distinct = 0, runs = 0;
  double plain_paper = 0, plain_rows = 0, idx_paper = 0, idx_rows = 0, runs_paper = 0, runs_rows = 0;
  int chosen = 0;
};
std::vector<row> results;

std::size_t max_bytes()
{
  char const* e = std::getenv("FASTPAIR_RATIO_MAX_BYTES");
  return e && *e ? std::strtoull(e, nullptr, 10) : SIZE_MAX;
}

void bm_cascade_ratio(benchmark::State& state, std::string const& name, fastpair::codec kind)
{
  if (!fastpair::testing::have_column(name)) {
    state.SkipWithError("shared data missing: set FASTPAIR_DATA_DIR");
    return;
  }
  fastpair::host_strings const rows = fastpair::testing::load_column(name, max_bytes());
  row r;
  for (auto _ : state) {
    auto const plain = fastpair::column_stored_size(fastpair::compress(rows, kind));
    fastpair::distinct_rows d;
    fastpair::find_distinct(rows, ~std::uint64_t{0}, d);
    auto const distinct = fastpair::compress(d.values, kind);
    auto const idx  = fastpair::cascade_stored_size(fastpair::make_cascade(distinct, d.ids, fastpair::cascade_layout::indices));
    auto const runc = fastpair::make_cascade(distinct, d.ids, fastpair::cascade_layout::runs);
    auto const run  = fastpair::cascade_stored_size(runc);
    double const raw = static_cast<double>(rows.chars.size());
    r = {name, fastpair::codec_name(kind), raw / 1e6, rows.num_rows(), d.values.num_rows(), runc.num_runs(),
         raw / plain.paper(), raw / plain.with_rows(), raw / idx.paper(), raw / idx.with_rows(),
         raw / run.paper(), raw / run.with_rows(), 0};
    // encode_cascade's rule (max_distinct_share 0.5, smallest with_rows, ties to plain then indices).
    bool const eligible = d.values.num_rows() <= rows.num_rows() / 2;
    std::uint64_t best = plain.with_rows();
    if (eligible && idx.with_rows() < best) best = idx.with_rows(), r.chosen = 1;
    if (eligible && run.with_rows() < best) r.chosen = 2;
  }
  state.counters["raw_MB"]      = r.raw_mb;
  state.counters["distinct"]    = static_cast<double>(r.distinct);
  state.counters["runs"]        = static_cast<double>(r.runs);
  state.counters["plain_paper"] = r.plain_paper;
  state.counters["plain_rows"]  = r.plain_rows;
  state.counters["idx_paper"]   = r.idx_paper;
  state.counters["idx_rows"]    = r.idx_rows;
  state.counters["runs_paper"]  = r.runs_paper;
  state.counters["runs_rows"]   = r.runs_rows;
  state.counters["chosen"]      = r.chosen;
  results.push_back(r);
}

int const registered = [] {
  for (std::string const& name : fastpair::testing::shared_columns())
    for (fastpair::codec kind : {fastpair::codec::onpair16, fastpair::codec::onpair12, fastpair::codec::fsst12})
      benchmark::RegisterBenchmark(("cascade_ratio/" + name + "/" + fastpair::codec_name(kind)).c_str(),
                                   [name, kind](benchmark::State& s) { bm_cascade_ratio(s, name, kind); })
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
  return 0;
}();

}  // namespace

int main(int argc, char** argv)
{
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  char const* chosen_name[] = {"plain", "cascade+indices", "cascade+runs"};
  std::printf("\n| column | codec | raw MB | rows | distinct | runs | plain paper | plain w/ rows | "
              "cascade idx paper | cascade idx w/ rows | cascade runs paper | cascade runs w/ rows | chosen |\n");
  std::printf("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n");
  for (auto const& r : results)
    std::printf("| %s | %s | %.1f | %llu | %llu | %llu | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %s |\n",
                r.column.c_str(), r.codec.c_str(), r.raw_mb, static_cast<unsigned long long>(r.rows),
                static_cast<unsigned long long>(r.distinct), static_cast<unsigned long long>(r.runs), r.plain_paper,
                r.plain_rows, r.idx_paper, r.idx_rows, r.runs_paper, r.runs_rows, chosen_name[r.chosen]);
  return 0;
}
