// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Host encoder throughput (single core): encode MB/s of input per codec on shared columns (encode(),
// and encode_reuse/ = one fastpair::encoder reused, OnPair codecs), and
// training time on a 15 % sample of a 64 MB column built by tiling the shared columns.
// Run: FASTPAIR_DATA_DIR=../shared/data ./fastpair_bench_encode
#include <fastpair/encode.hpp>

#include <benchmark/benchmark.h>

#include "utils/data.hpp"

#include <map>
#include <string>

namespace {

fastpair::host_strings const& column(std::string const& name)
{
  static std::map<std::string, fastpair::host_strings> cache;
  auto it = cache.find(name);
  if (it == cache.end()) it = cache.emplace(name, fastpair::testing::load_column(name)).first;
  return it->second;
}

/** 64 MB of rows: the shared columns concatenated, repeated until 64 MB. */
fastpair::host_strings const& column_64mb()
{
  static fastpair::host_strings const rows = [] {
    fastpair::host_strings out;
    std::size_t const target = std::size_t{64} << 20;
    while (out.chars.size() < target) {
      for (std::string const& name : fastpair::testing::shared_columns()) {
        fastpair::host_strings const& c = column(name);
        for (std::size_t r = 0; r < c.num_rows() && out.chars.size() < target; ++r) out.push_back(c.row(r));
      }
    }
    return out;
  }();
  return rows;
}

void bm_encode(benchmark::State& state, std::string const& name, fastpair::codec kind)
{
  if (!fastpair::testing::have_column(name)) {
    state.SkipWithError("shared data missing: set FASTPAIR_DATA_DIR");
    return;
  }
  fastpair::host_strings const& rows = column(name);
  fastpair::dictionary const dict    = fastpair::train(rows, kind);
  for (auto _ : state) {
    auto col = fastpair::encode(rows, kind, dict);
    benchmark::DoNotOptimize(col.codes.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * rows.chars.size()));
  state.counters["input_MB"] = static_cast<double>(rows.chars.size()) / 1e6;
}

/** The same with one fastpair::encoder built before timing (dictionary validated and tables built
 *  once, as when a column is written in row groups with a shared dictionary). */
void bm_encode_reuse(benchmark::State& state, std::string const& name, fastpair::codec kind)
{
  if (!fastpair::testing::have_column(name)) {
    state.SkipWithError("shared data missing: set FASTPAIR_DATA_DIR");
    return;
  }
  fastpair::host_strings const& rows = column(name);
  fastpair::encoder const enc(kind, fastpair::train(rows, kind));
  for (auto _ : state) {
    auto col = enc.encode(rows);
    benchmark::DoNotOptimize(col.codes.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * rows.chars.size()));
  state.counters["input_MB"] = static_cast<double>(rows.chars.size()) / 1e6;
}

void bm_train_64mb(benchmark::State& state, fastpair::codec kind)
{
  if (!fastpair::testing::have_column("urls")) {
    state.SkipWithError("shared data missing: set FASTPAIR_DATA_DIR");
    return;
  }
  fastpair::host_strings const& rows = column_64mb();
  std::size_t tokens = 0;
  for (auto _ : state) {
    auto dict = fastpair::train(rows, kind);
    tokens    = dict.size();
    benchmark::DoNotOptimize(dict.bytes.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * rows.chars.size()));
  state.counters["tokens"]   = static_cast<double>(tokens);
  state.counters["input_MB"] = static_cast<double>(rows.chars.size()) / 1e6;
}

int const registered = [] {
  for (std::string const& name : fastpair::testing::shared_columns())  // all 12 shared columns
    for (fastpair::codec kind : {fastpair::codec::onpair16, fastpair::codec::onpair12, fastpair::codec::fsst12})
      benchmark::RegisterBenchmark((std::string("encode/") + name + "/" + fastpair::codec_name(kind)).c_str(),
                                   [name, kind](benchmark::State& s) { bm_encode(s, name, kind); })
        ->Unit(benchmark::kMillisecond)
        ->MinTime(0.5);
  for (std::string const& name : fastpair::testing::shared_columns())
    for (fastpair::codec kind : {fastpair::codec::onpair16, fastpair::codec::onpair12})
      benchmark::RegisterBenchmark((std::string("encode_reuse/") + name + "/" + fastpair::codec_name(kind)).c_str(),
                                   [name, kind](benchmark::State& s) { bm_encode_reuse(s, name, kind); })
        ->Unit(benchmark::kMillisecond)
        ->MinTime(0.5);
  for (fastpair::codec kind : {fastpair::codec::onpair16, fastpair::codec::onpair12, fastpair::codec::fsst12})
    benchmark::RegisterBenchmark((std::string("train_64MB/") + fastpair::codec_name(kind)).c_str(),
                                 [kind](benchmark::State& s) { bm_train_64mb(s, kind); })
      ->Unit(benchmark::kMillisecond)
      ->Iterations(3);
  return 0;
}();

}  // namespace

BENCHMARK_MAIN();
