// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// GPU predicates on the compressed form (predicates.cuh) versus decode-then-compare on the GPU.
//
//  codes/<column>/<codec>/<pred>     device_literal_set / device_like_predicate::evaluate (the
//                                    predicate is prepared once, outside the timed region)
//  decode_cmp/<column>/<codec>/<pred> decode_column into a preallocated output + one match
//                                    kernel (common/decoded_match.cuh: a thread per row on the
//                                    decoded bytes), timed together
//  copy/<column>/<codec>             device-to-device copy of the decoded size, same process
//
// pred: eq (one literal: a row of the column), in10 (ten rows), prefix (the first bytes of a row),
// substring (a few bytes from the middle of a row). Columns are tiled to >= 1 GB decoded
// (fixture.cuh get_column), prepared with prepare_options::row_offsets (the predicates read the
// 8-byte row offsets; decode_cmp decodes the same column). Counters: rows_per_s and logical GB/s (decoded bytes of the column
// / time) at the min and median time, selected rows. Both methods' bitmasks are compared once
// before timing (the benchmark fails on a difference).
// Env: FASTPAIR_BENCH_COLUMNS, FASTPAIR_BENCH_CODECS (default onpair16), FASTPAIR_BENCH_ITERS
// (default 30), plus fixture.cuh's FASTPAIR_BENCH_BYTES / FASTPAIR_BENCH_SOURCE_BYTES.
#include "common/decoded_match.cuh"
#include "common/suite.cuh"

#include <fastpair/predicates.cuh>

#include <string>
#include <vector>

namespace fb = fastpair::bench;
using fastpair::codec;

namespace {

enum class pred { eq, in10, prefix, substring };

char const* pred_name(pred p)
{
  switch (p) {
    case pred::eq: return "eq";
    case pred::in10: return "in10";
    case pred::prefix: return "prefix";
    case pred::substring: return "substring";
  }
  return "?";
}

/** The literals (eq, in10) or the single pattern (prefix, substring) of `p`, from the untiled
 *  source column: deterministic rows spread over the column. */
std::vector<std::string> operands(fastpair::compressed_column const& src, pred p)
{
  fastpair::host_strings const rows = fastpair::decode_reference(src);
  std::uint64_t const R             = rows.num_rows();
  auto row = [&](std::uint64_t i) { return std::string(rows.row((i * 7919 + R / 3) % R)); };
  std::vector<std::string> out;
  if (p == pred::eq) out.push_back(row(0));
  if (p == pred::in10)
    for (std::uint64_t i = 0; i < 10; ++i) out.push_back(row(i));
  if (p == pred::prefix || p == pred::substring) {
    std::string r = row(0);
    for (std::uint64_t i = 1; r.size() < 8 && i < 100; ++i) r = row(i);
    if (p == pred::prefix) out.push_back(r.substr(0, std::min<std::size_t>(r.size(), 6)));
    else out.push_back(r.substr(r.size() / 2, std::min<std::size_t>(r.size() - r.size() / 2, 4)));
  }
  return out;
}

void bench_predicate(benchmark::State& state, std::string const& column, codec kind, pred p, bool on_codes)
{
  auto& col                 = fb::get_column(column, kind, 0, fb::accelerators::offsets());  // predicates read the row offsets
  std::uint64_t const R     = col.dcol.num_rows();
  std::uint64_t const words = (R + 63) / 64;
  auto const ops            = operands(col.source, p);
  std::vector<std::string_view> views(ops.begin(), ops.end());

  // On codes: compiled and uploaded once.
  fastpair::device_literal_set lits;
  fastpair::device_like_predicate like;
  if (p == pred::eq || p == pred::in10) lits = fastpair::device_literal_set::prepare(col.source, views, {});
  else
    like = fastpair::device_like_predicate::prepare(
      col.source, p == pred::prefix ? fastpair::like_kind::prefix : fastpair::like_kind::substring, ops[0], {});
  auto run_codes = [&](cudaStream_t s, std::uint64_t* out) {
    if (p == pred::eq || p == pred::in10) lits.evaluate(col.dcol, out, s);
    else like.evaluate(col.dcol, out, s);
  };

  // Decode-then-compare: the literals matched on the decoded bytes (decoded_match.cuh).
  fb::decoded_matcher match;
  for (auto const& o : ops) match.add_literal(o, p != pred::substring, p == pred::eq || p == pred::in10);
  match.upload();
  auto run_decode_compare = [&](cudaStream_t s, std::uint64_t* out) {
    fastpair::decode_column(col.dcol, col.out(), s);
    match.evaluate(col.offsets.data(), col.chars.data(), R, out, s);
  };

  // Correctness gate: both methods give the same mask.
  fastpair::device_buffer<std::uint64_t> a(words, {}), b(words, {});
  run_codes(nullptr, a.data());
  run_decode_compare(nullptr, b.data());
  FASTPAIR_CUDA_TRY(cudaDeviceSynchronize());
  if (fb::device_mismatches(a.data(), b.data(), words * sizeof(std::uint64_t)) != 0)
    throw std::runtime_error("predicate on codes differs from decode-then-compare on " + col.name);
  std::vector<std::uint64_t> h(words);
  FASTPAIR_CUDA_TRY(cudaMemcpy(h.data(), a.data(), words * sizeof(std::uint64_t), cudaMemcpyDeviceToHost));
  std::uint64_t selected = 0;
  for (std::uint64_t w : h) selected += static_cast<std::uint64_t>(__builtin_popcountll(w));

  auto const times = fb::timed_loop(state, [&](cudaStream_t s) {
    if (on_codes) run_codes(s, a.data());
    else run_decode_compare(s, a.data());
  });
  double const bytes = static_cast<double>(col.dcol.decoded_bytes());
  double const tmin = fb::min_of(times), tmed = fb::median_of(times);
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
  state.SetItemsProcessed(static_cast<std::int64_t>(R) * state.iterations());
  state.counters["GBps_min"]       = bytes / tmin / 1e9;
  state.counters["GBps_median"]    = bytes / tmed / 1e9;
  state.counters["rows_per_s_min"] = static_cast<double>(R) / tmin;
  state.counters["rows_per_s_med"] = static_cast<double>(R) / tmed;
  state.counters["rows"]           = static_cast<double>(R);
  state.counters["selected"]       = static_cast<double>(selected);
  state.counters["pct_copy"]       = 100.0 * (bytes / tmin) / fb::copy_rate(col.dcol.decoded_bytes());
  if (!on_codes) return;
  state.counters["literals"] = static_cast<double>(ops.size());
  if (p == pred::prefix || p == pred::substring) {
    state.counters["states"]      = like.num_states();
    state.counters["table_bytes"] = static_cast<double>(like.table_bytes());
  }
}

}  // namespace

int main(int argc, char** argv)
{
  benchmark::Initialize(&argc, argv);
  fb::require_data("fastpair_bench_predicates");
  fb::add_machine_context();
  fb::keep_pool_memory();  // stream-ordered temporaries stay mapped between iterations
  int const iters = static_cast<int>(fb::env_int("FASTPAIR_BENCH_ITERS", 30));
  auto reg = [iters](std::string const& name, auto fn) {
    benchmark::RegisterBenchmark(name.c_str(), fb::guarded(fn))->UseManualTime()->Iterations(iters)->Unit(benchmark::kMillisecond);
  };
  for (auto const& column :
       fb::env_list("FASTPAIR_BENCH_COLUMNS", "tpch_l_shipinstruct,tpch_o_clerk,log_windows,urls,en_wiki")) {
    for (auto const& cname : fb::env_list("FASTPAIR_BENCH_CODECS", "onpair16")) {
      codec const kind      = fastpair::parse_codec(cname);
      std::string const tag = column + "/" + cname;
      for (pred p : {pred::eq, pred::in10, pred::prefix, pred::substring}) {
        reg("codes/" + tag + "/" + pred_name(p), [=](benchmark::State& s) { bench_predicate(s, column, kind, p, true); });
        reg("decode_cmp/" + tag + "/" + pred_name(p),
            [=](benchmark::State& s) { bench_predicate(s, column, kind, p, false); });
      }
      reg("copy/" + tag, [=](benchmark::State& s) { fb::bench_copy(s, column, kind, fb::accelerators::offsets()); });
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
