// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// CPU reference decoder throughput, single core: decoded MB/s of decode_reference() (validation
// excluded: the column is validated once outside the loop) per codec on shared columns.
// Run: FASTPAIR_DATA_DIR=../shared/data ./fastpair_bench_reference
#include <fastpair/encode.hpp>
#include <fastpair/reference.hpp>

#include <benchmark/benchmark.h>

#include "utils/data.hpp"

#include <map>
#include <string>

namespace {

fastpair::compressed_column const& column(std::string const& name, fastpair::codec kind)
{
  static std::map<std::string, fastpair::compressed_column> cache;
  std::string const key = name + "/" + fastpair::codec_name(kind);
  auto it = cache.find(key);
  if (it == cache.end()) {
    auto const rows = fastpair::testing::load_column(name, std::size_t{16} << 20);
    it              = cache.emplace(key, fastpair::compress(rows, kind)).first;
    fastpair::validate(it->second);
  }
  return it->second;
}

void bm_reference(benchmark::State& state, std::string const& name, fastpair::codec kind)
{
  auto const& col = column(name, kind);
  for (auto _ : state) {
    auto out = fastpair::decode_reference(col, 0, col.num_rows(), /*validate_first=*/false);
    benchmark::DoNotOptimize(out.chars.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(col.decoded_bytes()) * state.iterations());
  state.counters["mean_tok"] = fastpair::mean_token_length(fastpair::token_length_histogram(col));
}

}  // namespace

int main(int argc, char** argv)
{
  benchmark::Initialize(&argc, argv);
  if (!fastpair::testing::have_column("log_windows")) {
    std::fprintf(stderr, "fastpair_bench_reference: no data in %s (set FASTPAIR_DATA_DIR)\n",
                 fastpair::testing::data_dir().c_str());
    return 2;
  }
  for (std::string const name : {"log_windows", "log_spark", "tpch_l_comment", "urls", "en_wiki", "zh_text"})
    for (auto kind : {fastpair::codec::onpair16, fastpair::codec::onpair12, fastpair::codec::fsst12})
      benchmark::RegisterBenchmark(("reference/" + name + "/" + fastpair::codec_name(kind)).c_str(),
                                   [name, kind](benchmark::State& s) { bm_reference(s, name, kind); })
        ->Unit(benchmark::kMillisecond)
        ->MinTime(0.5);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
