// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// GPU predicates on the compressed form (predicates.cuh) versus decode-then-compare on the GPU.
//
//  codes/<column>/<codec>/<pred>     device_literal_set / device_like_predicate::evaluate (the
//                                    predicate is prepared once, outside the timed region)
//  decode_cmp/<column>/<codec>/<pred> decode_column into a preallocated output + one compare
//                                    kernel (a thread per row on the decoded bytes), timed together
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

/** Decoded-bytes comparison, a thread per row: equality with any of `count` literals
 *  (chars / offsets), or LIKE prefix / substring of literal 0. Writes 32-bit halves of the mask. */
__global__ void compare_kernel(std::int64_t const* offsets, char const* chars, std::uint64_t num_rows,
                               char const* lit_chars, std::uint64_t const* lit_offsets, int count, int mode,
                               std::uint32_t* mask32)
{
  std::uint64_t const r = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  bool hit              = false;
  if (r < num_rows) {
    char const* s         = chars + offsets[r];
    std::uint64_t const n = static_cast<std::uint64_t>(offsets[r + 1] - offsets[r]);
    for (int i = 0; i < count && !hit; ++i) {
      char const* l         = lit_chars + lit_offsets[i];
      std::uint64_t const m = lit_offsets[i + 1] - lit_offsets[i];
      if (mode == 0) {  // equality
        if (n != m) continue;
        bool same = true;
        for (std::uint64_t k = 0; same && k < m; ++k) same = s[k] == l[k];
        hit = same;
      } else if (mode == 1) {  // prefix
        bool same = n >= m;
        for (std::uint64_t k = 0; same && k < m; ++k) same = s[k] == l[k];
        hit = same;
      } else {  // substring (naive)
        for (std::uint64_t a = 0; !hit && a + m <= n; ++a) {
          bool same = true;
          for (std::uint64_t k = 0; same && k < m; ++k) same = s[a + k] == l[k];
          hit = same;
        }
      }
    }
  }
  unsigned const bits = __ballot_sync(0xFFFFFFFFu, hit);
  if (threadIdx.x % 32 == 0 && r < num_rows) mask32[r / 32] = bits;
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

  // Decode-then-compare: literals as bytes on the device.
  std::string chars;
  std::vector<std::uint64_t> offs{0};
  for (auto const& o : ops) {
    chars += o;
    offs.push_back(chars.size());
  }
  fastpair::device_buffer<char> d_chars(chars.size() + 1, {});
  fastpair::device_buffer<std::uint64_t> d_offs(offs.size(), {});
  FASTPAIR_CUDA_TRY(cudaMemcpy(d_chars.data(), chars.data(), chars.size(), cudaMemcpyHostToDevice));
  FASTPAIR_CUDA_TRY(cudaMemcpy(d_offs.data(), offs.data(), offs.size() * sizeof(std::uint64_t), cudaMemcpyHostToDevice));
  int const mode = p == pred::prefix ? 1 : p == pred::substring ? 2 : 0;
  auto run_decode_compare = [&](cudaStream_t s, std::uint64_t* out) {
    fastpair::decode_column(col.dcol, col.out(), s);
    FASTPAIR_CUDA_TRY(cudaMemsetAsync(out, 0, words * sizeof(std::uint64_t), s));
    unsigned const blocks = static_cast<unsigned>((R + 255) / 256);
    compare_kernel<<<blocks, 256, 0, s>>>(col.offsets.data(), col.chars.data(), R, d_chars.data(), d_offs.data(),
                                          static_cast<int>(ops.size()), mode, reinterpret_cast<std::uint32_t*>(out));
    FASTPAIR_CUDA_TRY(cudaGetLastError());
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
