// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// The TPC-H string predicates on the GPU at scale (issue #27 item 4), per query and codec:
//
//  codes/<query>/<codec>          every `where` op on the compressed codes (tpch/tpch_ops.cuh
//                                 gpu_predicate: compiled and uploaded once, outside the timed
//                                 region; `compile_ms` reports that host step), ANDed on the device
//  decode_filter/<query>/<codec>  decode_column of every `where` column into a preallocated
//                                 chars + int64 offsets output, then the same ops on the decoded
//                                 bytes (common/decoded_match.cuh), ANDed
//  materialize/<query>/<codec>    decompress_selected of each materialised column at the query's
//                                 mask (planning, allocation from the kept pool, decode)
//  copy/<query>/<codec>           device-to-device copy of the `where` columns' decoded bytes
//
// GB/s = decoded bytes of the `where` columns / time (min and median of the iterations, CUDA
// events, L2 flushed before each); rows_per_s likewise. Before timing, the mask on codes must
// equal the mask of decode-then-filter (the benchmark fails otherwise); `selected` is its
// popcount, which scripts/tpch-bench.py checks against DuckDB's count.
//
// Input (written by scripts/tpch-bench.py):
//   FASTPAIR_TPCH_DIR      folder of <column>.<codec>.fpc files
//   FASTPAIR_TPCH_QUERIES  tab-separated: "query <name> <table>", then its "where <column> <op>
//                          <arg>..." and "materialize <column>" lines (ops: tpch/tpch_ops.cuh)
//   FASTPAIR_BENCH_CODECS  (default onpair16), FASTPAIR_BENCH_ITERS (default 20)
#include "common/decoded_match.cuh"
#include "common/suite.cuh"
#include "tpch/tpch_ops.cuh"

#include <fastpair/select.cuh>

#include <chrono>
#include <fstream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace fb = fastpair::bench;
namespace ft = fastpair::tpch;

namespace {

struct where_op {
  std::string column, op;
  std::vector<std::string> args;
};
struct query {
  std::string name, table;
  std::vector<where_op> where;
  std::vector<std::string> shown;
};

std::vector<query> read_queries(std::string const& path)
{
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read FASTPAIR_TPCH_QUERIES=" + path);
  std::vector<query> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    auto f = ft::split_tabs(line);
    if (f[0] == "query" && f.size() == 3) out.push_back({f[1], f[2], {}, {}});
    else if (out.empty()) throw std::runtime_error("queries file: a line before the first `query`: " + line);
    else if (f[0] == "where" && f.size() >= 3) out.back().where.push_back({f[1], f[2], {f.begin() + 3, f.end()}});
    else if (f[0] == "materialize" && f.size() == 2) out.back().shown.push_back(f[1]);
    else throw std::runtime_error("queries file: bad line: " + line);
  }
  return out;
}

/** A stored column, read once, prepared on the GPU (row offsets on), with room for its decode. */
struct tpch_column {
  fastpair::compressed_column host;
  fastpair::device_column dev;
  fastpair::device_buffer<std::int64_t> offsets;
  fastpair::device_buffer<char> chars;
};

tpch_column& get(std::string const& column, std::string const& codec)
{
  static std::map<std::string, std::unique_ptr<tpch_column>> cache;
  std::string const path = std::string(std::getenv("FASTPAIR_TPCH_DIR")) + "/" + column + "." + codec + ".fpc";
  auto& c                = cache[path];
  if (!c) {
    fastpair::compressed_column host = fastpair::read_fpc(path);
    fastpair::device_column dev      = ft::prepare_for_predicates(host);
    std::uint64_t const rows = host.num_rows(), bytes = host.decoded_bytes();
    c = std::make_unique<tpch_column>(tpch_column{std::move(host), std::move(dev),
                                                  fastpair::device_buffer<std::int64_t>(rows + 1, {}),
                                                  fastpair::device_buffer<char>(std::max<std::uint64_t>(bytes, 1), {})});
  }
  return *c;
}

/** The decode-then-filter matcher of one op (the same semantics as gpu_predicate). */
fb::decoded_matcher matcher_of(where_op const& w)
{
  fb::decoded_matcher m;
  std::string const& op = w.op;
  if (op == "eq" || op == "ne" || op == "in")
    for (auto const& a : w.args) m.add_literal(a, true, true);
  else if (op == "prefix" || op == "not_prefix" || op == "prefix_in")
    for (auto const& a : w.args) m.add_literal(a, true, false);
  else if (op == "suffix") m.add_literal(w.args.at(0), false, true);
  else if (op == "substring") m.add_literal(w.args.at(0), false, false);
  else if (op == "like" || op == "not_like") m.add_like(w.args.at(0));
  else throw std::runtime_error("unknown op '" + op + "'");
  m.set_negate(op == "ne" || op == "not_prefix" || op == "not_like");
  m.upload();
  return m;
}

enum class method { codes, decode_filter, materialize, copy };

void bench_query(benchmark::State& state, query const& q, std::string const& codec, method how)
{
  std::vector<tpch_column*> cols;
  for (auto const& w : q.where) cols.push_back(&get(w.column, codec));
  std::uint64_t const rows = cols.front()->host.num_rows();
  double where_bytes       = 0;
  for (auto* c : cols) {
    if (c->host.num_rows() != rows) throw std::runtime_error(q.name + ": `where` columns of different row counts");
    where_bytes += static_cast<double>(c->host.decoded_bytes());
  }
  std::uint64_t const words = (rows + 63) / 64;

  auto const t0 = std::chrono::steady_clock::now();
  std::vector<ft::gpu_predicate> preds;
  for (std::size_t i = 0; i < q.where.size(); ++i) preds.emplace_back(cols[i]->host, cols[i]->dev, q.where[i].op, q.where[i].args);
  FASTPAIR_CUDA_TRY(cudaDeviceSynchronize());
  double const compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::vector<fb::decoded_matcher> matchers;
  for (auto const& w : q.where) matchers.push_back(matcher_of(w));

  fastpair::device_buffer<std::uint64_t> mask(words, {}), part(words, {}), check(words, {});
  fastpair::device_bitmask const m{mask.data(), rows};
  auto on_codes = [&](cudaStream_t s, std::uint64_t* out) {
    for (std::size_t i = 0; i < preds.size(); ++i) {
      auto const r = preds[i].evaluate(i == 0 ? out : part.data(), s);
      if (i > 0) fastpair::mask_and({out, rows}, r, out, s);
    }
  };
  auto decode_filter = [&](cudaStream_t s, std::uint64_t* out) {
    for (std::size_t i = 0; i < cols.size(); ++i) {
      auto& c = *cols[i];
      fastpair::decode_column(c.dev, fastpair::string_column_view<std::int64_t>{c.offsets.data(), c.chars.data(), rows, c.chars.size()}, s);
      matchers[i].evaluate(c.offsets.data(), c.chars.data(), rows, i == 0 ? out : part.data(), s);
      if (i > 0) fastpair::mask_and({out, rows}, {part.data(), rows}, out, s);
    }
  };

  // Correctness gate: both methods give the same mask.
  on_codes(nullptr, mask.data());
  decode_filter(nullptr, check.data());
  FASTPAIR_CUDA_TRY(cudaDeviceSynchronize());
  for (auto* c : cols)
    if (c->dev.read_and_clear_errors() != 0) throw std::runtime_error(q.name + ": the decode reported corrupt data");
  if (fb::device_mismatches(mask.data(), check.data(), words * sizeof(std::uint64_t)) != 0)
    throw std::runtime_error(q.name + ": the mask on codes differs from decode-then-filter");
  std::uint64_t const selected = fastpair::mask_count(m);

  std::vector<tpch_column*> shown;
  double shown_bytes = 0;
  for (auto const& c : q.shown) shown.push_back(&get(c, codec));
  std::vector<double> times;
  if (how == method::codes) times = fb::timed_loop(state, [&](cudaStream_t s) { on_codes(s, mask.data()); });
  if (how == method::decode_filter) times = fb::timed_loop(state, [&](cudaStream_t s) { decode_filter(s, check.data()); });
  if (how == method::materialize) {
    for (auto* c : shown) {
      auto const out = fastpair::decompress_selected(c->dev, m);
      if (out.num_rows != selected) throw std::runtime_error(q.name + ": decompress_selected returned another row count");
      shown_bytes += static_cast<double>(out.chars.size());
    }
    times = fb::timed_loop(state, [&](cudaStream_t s) {
      for (auto* c : shown) (void)fastpair::decompress_selected(c->dev, m, s);
    });
    state.counters["out_MB"]         = shown_bytes / 1e6;
    state.counters["out_GBps_min"]   = shown_bytes / fb::min_of(times) / 1e9;
    state.counters["out_GBps_median"] = shown_bytes / fb::median_of(times) / 1e9;
  }
  if (how == method::copy) {
    fastpair::device_buffer<char> dst(static_cast<std::size_t>(where_bytes), {});
    times = fb::timed_loop(state, [&](cudaStream_t s) {
      std::size_t at = 0;
      for (auto* c : cols) {
        FASTPAIR_CUDA_TRY(cudaMemcpyAsync(dst.data() + at, c->chars.data(), c->host.decoded_bytes(), cudaMemcpyDeviceToDevice, s));
        at += c->host.decoded_bytes();
      }
    });
  }
  double const tmin = fb::min_of(times), tmed = fb::median_of(times);
  state.counters["GBps_min"]       = where_bytes / tmin / 1e9;
  state.counters["GBps_median"]    = where_bytes / tmed / 1e9;
  state.counters["rows_per_s_min"] = static_cast<double>(rows) / tmin;
  state.counters["rows_per_s_med"] = static_cast<double>(rows) / tmed;
  state.counters["ms_min"]         = tmin * 1e3;
  state.counters["ms_median"]      = tmed * 1e3;
  state.counters["rows"]           = static_cast<double>(rows);
  state.counters["where_MB"]       = where_bytes / 1e6;
  state.counters["selected"]       = static_cast<double>(selected);
  if (how == method::codes) state.counters["compile_ms"] = compile_ms;
  double device_bytes = 0;
  for (auto* c : cols) device_bytes += static_cast<double>(c->dev.device_bytes());
  state.counters["where_device_MB"] = device_bytes / 1e6;
}

}  // namespace

int main(int argc, char** argv)
{
  benchmark::Initialize(&argc, argv);
  char const* dir = std::getenv("FASTPAIR_TPCH_DIR");
  char const* qf  = std::getenv("FASTPAIR_TPCH_QUERIES");
  if (!dir || !*dir || !qf || !*qf) {
    std::fprintf(stderr, "fastpair_bench_tpch: set FASTPAIR_TPCH_DIR and FASTPAIR_TPCH_QUERIES (scripts/tpch-bench.py does)\n");
    return 2;
  }
  fb::add_machine_context();
  fb::keep_pool_memory();
  static std::vector<query> const queries = read_queries(qf);
  int const iters = static_cast<int>(fb::env_int("FASTPAIR_BENCH_ITERS", 20));
  auto reg = [iters](std::string const& name, auto fn) {
    benchmark::RegisterBenchmark(name.c_str(), fb::guarded(fn))->UseManualTime()->Iterations(iters)->Unit(benchmark::kMillisecond);
  };
  for (auto const& codec : fb::env_list("FASTPAIR_BENCH_CODECS", "onpair16"))
    for (auto const& q : queries) {
      std::string const tag = q.name + "/" + codec;
      reg("codes/" + tag, [&q, codec](benchmark::State& s) { bench_query(s, q, codec, method::codes); });
      reg("decode_filter/" + tag, [&q, codec](benchmark::State& s) { bench_query(s, q, codec, method::decode_filter); });
      if (!q.shown.empty())
        reg("materialize/" + tag, [&q, codec](benchmark::State& s) { bench_query(s, q, codec, method::materialize); });
      reg("copy/" + tag, [&q, codec](benchmark::State& s) { bench_query(s, q, codec, method::copy); });
    }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
