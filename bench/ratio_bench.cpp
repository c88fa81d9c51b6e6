// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Compression ratios of the host encoders on every shared column (full files) x codec, one
// compress per benchmark. Counters:
//   paper      raw / (dictionary + packed codes + sidecar)            stored_size::paper()
//   with_rows  raw / (paper + u32 row code offsets + u32 row byte offsets)   stored_size::with_rows()
//   anchor     raw / (dictionary + packed codes)                      comparable to ANCHORS.md §2
//   anchor_r   raw / (dictionary + packed codes + 4 B per row)        ANCHORS.md §2 in brackets
//   anchor_o32 raw / (token bytes + u32 offsets (N+1) + packed codes)  the OnPair library's own
//              dictionary accounting (4 B per token instead of our 1 length byte)
// Run: FASTPAIR_DATA_DIR=../shared/data ./fastpair_bench_ratio
#include <fastpair/encode.hpp>

#include <benchmark/benchmark.h>

#include "utils/data.hpp"

#include <string>

namespace {

void bm_ratio(benchmark::State& state, std::string const& name, fastpair::codec kind)
{
  if (!fastpair::testing::have_column(name)) {
    state.SkipWithError("shared data missing: set FASTPAIR_DATA_DIR");
    return;
  }
  fastpair::host_strings const rows = fastpair::testing::load_column(name);
  fastpair::stored_size s;
  std::size_t tokens = 0;
  std::size_t token_bytes = 0;
  double mean_len = 0;
  for (auto _ : state) {
    auto col = fastpair::compress(rows, kind);
    s        = fastpair::column_stored_size(col);
    tokens   = col.dict.size();
    token_bytes = col.dict.bytes.size();
    mean_len = fastpair::mean_token_length(fastpair::token_length_histogram(col));
  }
  double const raw = static_cast<double>(rows.chars.size());
  state.counters["raw_MB"]    = raw / 1e6;
  state.counters["tokens"]    = static_cast<double>(tokens);
  state.counters["mean_tok"]  = mean_len;
  state.counters["paper"]     = raw / static_cast<double>(s.paper());
  state.counters["with_rows"] = raw / static_cast<double>(s.with_rows());
  state.counters["anchor"]    = raw / static_cast<double>(s.dictionary + s.codes);
  state.counters["anchor_o32"] =
    raw / static_cast<double>(token_bytes + 4 * (tokens + 1) + s.codes);
  state.counters["anchor_r"] =
    raw / static_cast<double>(s.dictionary + s.codes + 4 * (rows.num_rows() + 1));
}

int const registered = [] {
  for (std::string const& name : fastpair::testing::shared_columns())
    for (fastpair::codec kind : {fastpair::codec::onpair16, fastpair::codec::onpair12, fastpair::codec::fsst12})
      benchmark::RegisterBenchmark(("ratio/" + name + "/" + fastpair::codec_name(kind)).c_str(),
                                   [name, kind](benchmark::State& s) { bm_ratio(s, name, kind); })
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
  return 0;
}();

}  // namespace

BENCHMARK_MAIN();
