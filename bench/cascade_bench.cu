// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// GPU decode throughput of row-level cascades next to the plain column, on the few-distinct shared
// columns (first 4 MiB, tiled to >= 1 GB of decoded output), side by side in one run:
//   cascade/<column>/<codec>/plain     decode_column of the plain compressed column (auto config)
//   cascade/<column>/<codec>/indices   decode_column of the cascade with one packed id per row
//   cascade/<column>/<codec>/runs      decode_column of the cascade with runs
//   copy/<column>/<codec>              a device-to-device copy of the same output size
// Each timed iteration is one full decode (offsets + chars; the cascade's includes decoding its
// distinct rows), the L2 flushed before it; counters GBps_min / GBps_median (decoded bytes),
// rows_per_s, pct_copy, ratio_rows (raw / stored size with row metadata).
// Environment: FASTPAIR_BENCH_COLUMNS (default tpch_o_clerk,tpch_l_shipinstruct),
// FASTPAIR_BENCH_CODECS (default onpair16,fsst12), FASTPAIR_BENCH_BYTES, FASTPAIR_BENCH_SOURCE_BYTES,
// FASTPAIR_DATA_DIR.
#include "common/suite.cuh"

#include <fastpair/cascade.cuh>

#include <map>
#include <memory>

namespace fb = fastpair::bench;
using fastpair::cascade_layout;
using fastpair::codec;

namespace {

/** Repeats a cascade's rows until its decoded size reaches `min_bytes` (as tile_column does for a
 *  plain column: same source rows, so the same number of copies and the same decoded size). */
fastpair::cascaded_column tile_cascade(fastpair::cascaded_column const& c, std::uint64_t min_bytes)
{
  std::uint64_t const bytes = fastpair::cascade_decoded_bytes(c);
  if (bytes == 0 || bytes >= min_bytes) return c;
  std::uint64_t const reps = (min_bytes + bytes - 1) / bytes;
  auto repeat = [reps](fastpair::packed_ints const& p) {
    std::vector<std::uint32_t> v(p.count * reps);
    for (std::uint64_t i = 0; i < p.count; ++i) v[i] = p[i];
    for (std::uint64_t r = 1; r < reps; ++r) std::copy(v.begin(), v.begin() + p.count, v.begin() + r * p.count);
    return fastpair::packed_ints::pack(v, p.bits);
  };
  fastpair::cascaded_column t;
  t.distinct = c.distinct;
  t.num_rows = c.num_rows * reps;
  t.layout   = c.layout;
  t.ids      = repeat(c.ids);
  if (c.layout == cascade_layout::runs) t.run_lengths = repeat(c.run_lengths);
  return t;
}

struct prepared_cascade {
  fastpair::device_cascaded_column dcol;
  fastpair::device_buffer<std::int64_t> offsets;
  fastpair::device_buffer<char> chars;
  double ratio_rows = 0;
  fastpair::string_column_view<std::int64_t> out()
  {
    return {offsets.data(), chars.data(), dcol.num_rows(), chars.size()};
  }
};

/** The cascade of column `name` (first source_bytes()) with `kind` and `layout`, tiled and
 *  prepared once; the first copy of one GPU decode is checked against decode_reference. */
prepared_cascade& get_cascade(std::string const& name, codec kind, cascade_layout layout)
{
  static std::map<std::string, std::unique_ptr<prepared_cascade>> cache;
  std::string const key = name + "/" + fastpair::codec_name(kind) + "/" + fastpair::cascade_layout_name(layout);
  if (auto it = cache.find(key); it != cache.end()) return *it->second;
  auto const rows = fastpair::testing::load_column(name, fb::source_bytes());
  auto const src  = fastpair::compress_cascade(rows, kind, layout);
  auto p          = std::make_unique<prepared_cascade>();
  p->ratio_rows   = static_cast<double>(rows.chars.size()) /
                  static_cast<double>(fastpair::cascade_stored_size(src).with_rows());
  fastpair::prepare_options opt;
  opt.validate = false;  // built and tiled here from a validated source; checked below by decoding
  fastpair::validate(src);
  p->dcol    = fastpair::device_cascaded_column::prepare(tile_cascade(src, fb::target_bytes()), {}, opt);
  p->offsets = fastpair::device_buffer<std::int64_t>(p->dcol.num_rows() + 1, {});
  p->chars   = fastpair::device_buffer<char>(p->dcol.decoded_bytes(), {});
  fastpair::decode_column(p->dcol, p->out(), {});
  std::vector<char> head(rows.chars.size());
  FASTPAIR_CUDA_TRY(cudaMemcpy(head.data(), p->chars.data(), head.size(), cudaMemcpyDeviceToHost));
  if (head != rows.chars || p->dcol.read_and_clear_errors() != 0)
    throw std::runtime_error("benchmark input " + key + ": GPU decode differs from the input rows");
  return *cache.emplace(key, std::move(p)).first->second;
}

void set_counters(benchmark::State& state, std::uint64_t bytes, std::uint64_t rows, double ratio_rows,
                  std::vector<double> const& times)
{
  double const tmin = fb::min_of(times), tmed = fb::median_of(times);
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
  state.SetItemsProcessed(static_cast<std::int64_t>(rows) * state.iterations());
  state.counters["GBps_min"]    = bytes / tmin / 1e9;
  state.counters["GBps_median"] = bytes / tmed / 1e9;
  state.counters["rows_per_s"]  = rows / tmin;
  state.counters["pct_copy"]    = 100.0 * (bytes / tmin) / fb::copy_rate(bytes);
  state.counters["ratio_rows"]  = ratio_rows;
}

void bench_plain(benchmark::State& state, std::string const& column, codec kind)
{
  auto& p    = fb::get_column(column, kind);
  auto times = fb::timed_loop(state, [&](cudaStream_t s) { fastpair::decode_column(p.dcol, p.out(), s); });
  if (p.dcol.read_and_clear_errors() != 0) state.SkipWithError("device error word set");
  double const ratio_rows = static_cast<double>(p.source.decoded_bytes()) /
                            static_cast<double>(fastpair::column_stored_size(p.source).with_rows());
  set_counters(state, p.dcol.decoded_bytes(), p.dcol.num_rows(), ratio_rows, times);
}

void bench_cascade(benchmark::State& state, std::string const& column, codec kind, cascade_layout layout)
{
  auto& p    = get_cascade(column, kind, layout);
  auto times = fb::timed_loop(state, [&](cudaStream_t s) { fastpair::decode_column(p.dcol, p.out(), s); });
  if (p.dcol.read_and_clear_errors() != 0) state.SkipWithError("device error word set");
  set_counters(state, p.dcol.decoded_bytes(), p.dcol.num_rows(), p.ratio_rows, times);
  state.counters["distinct"] = static_cast<double>(p.dcol.num_distinct());
  state.counters["runs"]     = static_cast<double>(p.dcol.num_runs());
}

}  // namespace

int main(int argc, char** argv)
{
  benchmark::Initialize(&argc, argv);
  fb::require_data("fastpair_bench_cascade");
  fb::add_machine_context();
  fb::keep_pool_memory();  // stream-ordered temporaries stay mapped between iterations
  for (auto const& column : fb::env_list("FASTPAIR_BENCH_COLUMNS", "tpch_o_clerk,tpch_l_shipinstruct")) {
    for (auto const& cname : fb::env_list("FASTPAIR_BENCH_CODECS", "onpair16,fsst12")) {
      codec const kind         = fastpair::parse_codec(cname);
      std::string const prefix = column + "/" + cname + "/";
      auto reg = [](std::string const& name, auto fn) {
        benchmark::RegisterBenchmark(name.c_str(), fb::guarded(fn))
          ->UseManualTime()
          ->Iterations(50)
          ->Unit(benchmark::kMillisecond);
      };
      reg("cascade/" + prefix + "plain", [column, kind](benchmark::State& s) { bench_plain(s, column, kind); });
      for (auto layout : {cascade_layout::indices, cascade_layout::runs})
        reg("cascade/" + prefix + fastpair::cascade_layout_name(layout),
            [column, kind, layout](benchmark::State& s) { bench_cascade(s, column, kind, layout); });
      reg("copy/" + prefix, [column, kind](benchmark::State& s) { fb::bench_copy(s, column, kind); });
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
