// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// The paper's parameter studies, repeated on our GPU with the paper's kernel (staged_bytes emit;
// Figure 4 also with the register_words emit):
//   sweep/fig2/<column>/<codec>/cfg:<name>   K = 1..8 x T in {64, 128, 256} x B in {1, 4, 8}, W = 8, H = 1
//                                            (paper Figure 2: Loghub Windows, OnPair-12)
//   sweep/fig3/<column>/<codec>/cfg:<name>   K = 1..8 x H = 0..3 (H <= K) x B in {1, 4, 8}, T = 256, W = 8
//                                            (paper Figure 3: same column)
//   sweep/fig4/<column>/<codec>/cfg:<name>   a small (K, H, T, B) set for W = 8 and for W = 16 on every
//                                            column, for the paper's emit and for register_words;
//                                            the report takes the best of each (W, emit) and plots
//                                            W8/W16 against the share of tokens <= 8 bytes
//                                            (paper Figure 4: OnPair-16 and OnPair-12)
// Every entry carries the standard decode counters plus the kernel's registers, local memory
// (spills), dynamic shared memory and resident blocks per SM (cudaOccupancy...), and K/W/H/T/B.
//
// Environment: FASTPAIR_SWEEP (comma list of fig2,fig3,fig4; default all three),
// FASTPAIR_SWEEP_COLUMN / FASTPAIR_SWEEP_CODEC (fig2/fig3 input; default log_windows / onpair12),
// FASTPAIR_BENCH_COLUMNS (fig4; default all twelve), FASTPAIR_SWEEP_CODECS (fig4; default
// onpair16,onpair12), FASTPAIR_BENCH_ITERS (default 100), plus fixture.cuh's variables.
// FASTPAIR_SWEEP_LIST=1 prints "study config K W H T B smem" for every registered config and exits
// without touching a GPU (used by scripts/sweep-registers.sh).
#include "common/suite.cuh"

#include <cstdio>
#include <set>
#include <utility>

namespace fb = fastpair::bench;
using fastpair::codec;
using fastpair::decode_config;
/// The paper's emit (staged_bytes), the one that uses H: the configs of the paper's sweeps.
template <int K, int W, int H, int T, int B>
using staged = decode_config<K, W, H, T, B, fastpair::emit_strategy::staged_bytes>;
constexpr auto words = fastpair::emit_strategy::register_words;

namespace {

template <class... Configs>
struct config_list {};

template <class... A, class... B>
constexpr config_list<A..., B...> concat(config_list<A...>, config_list<B...>)
{
  return {};
}

// ---- Figure 2: K x T x B at W = 8, H = 1 --------------------------------------------------------
template <int T, int B, int... K>
using fig2_row = config_list<staged<K, 8, 1, T, B>...>;
template <int T, int B>
using fig2_ks = fig2_row<T, B, 1, 2, 3, 4, 5, 6, 7, 8>;
using fig2_configs = decltype(concat(
  concat(concat(fig2_ks<64, 1>{}, fig2_ks<64, 4>{}), concat(fig2_ks<64, 8>{}, fig2_ks<128, 1>{})),
  concat(concat(fig2_ks<128, 4>{}, fig2_ks<128, 8>{}),
         concat(concat(fig2_ks<256, 1>{}, fig2_ks<256, 4>{}), fig2_ks<256, 8>{}))));

// ---- Figure 3: K x H at T = 256, W = 8, B in {1, 4, 8} --------------------------------------------
template <int B>
using fig3_b = config_list<
  staged<1, 8, 0, 256, B>, staged<1, 8, 1, 256, B>,                                   //
  staged<2, 8, 0, 256, B>, staged<2, 8, 1, 256, B>, staged<2, 8, 2, 256, B>,  //
  staged<3, 8, 0, 256, B>, staged<3, 8, 1, 256, B>, staged<3, 8, 2, 256, B>,
  staged<3, 8, 3, 256, B>,  //
  staged<4, 8, 0, 256, B>, staged<4, 8, 1, 256, B>, staged<4, 8, 2, 256, B>,
  staged<4, 8, 3, 256, B>,  //
  staged<5, 8, 0, 256, B>, staged<5, 8, 1, 256, B>, staged<5, 8, 2, 256, B>,
  staged<5, 8, 3, 256, B>,  //
  staged<6, 8, 0, 256, B>, staged<6, 8, 1, 256, B>, staged<6, 8, 2, 256, B>,
  staged<6, 8, 3, 256, B>,  //
  staged<7, 8, 0, 256, B>, staged<7, 8, 1, 256, B>, staged<7, 8, 2, 256, B>,
  staged<7, 8, 3, 256, B>,  //
  staged<8, 8, 0, 256, B>, staged<8, 8, 1, 256, B>, staged<8, 8, 2, 256, B>,
  staged<8, 8, 3, 256, B>>;
using fig3_configs = decltype(concat(concat(fig3_b<1>{}, fig3_b<4>{}), fig3_b<8>{}));

// ---- Figure 4: W = 8 vs W = 16, best of a small set each ------------------------------------------
using fig4_configs = config_list<
  staged<4, 8, 1, 256, 4>, staged<6, 8, 1, 256, 4>, staged<6, 8, 0, 256, 4>,
  staged<8, 8, 1, 256, 2>, staged<8, 8, 1, 256, 3>, staged<4, 8, 1, 512, 2>,
  staged<4, 16, 0, 256, 4>, staged<6, 16, 0, 256, 4>, staged<6, 16, 0, 128, 8>,
  staged<8, 16, 0, 256, 2>, staged<8, 16, 0, 256, 3>, staged<4, 16, 0, 512, 2>,
  // the register_words emit (DESIGN.md §6), same W question
  decode_config<4, 8, 0, 256, 4, words>, decode_config<8, 8, 0, 256, 2, words>, decode_config<8, 8, 0, 256, 3, words>,
  decode_config<4, 16, 0, 256, 4, words>, decode_config<8, 16, 0, 256, 2, words>, decode_config<8, 16, 0, 256, 3, words>>;

template <class C>
void bench_sweep(benchmark::State& state, std::string const& column, codec kind)
{
  constexpr int W = C::low_plane_bytes;
  auto& p         = fb::get_column(column, kind, W, fb::accelerators_for<C>());
  auto times = fb::timed_loop(state, [&](cudaStream_t s) { fastpair::decode_column<C>(p.dcol, p.out(), s); });
  if (p.dcol.read_and_clear_errors() != 0) state.SkipWithError("device error word set");
  fb::set_decode_counters(state, p, times);
  fb::set_launch_counters(state, fastpair::detail::decode_kernel<C>, C::threads_per_block,
                          fastpair::detail::block_smem_bytes<C>());
  state.counters["K"] = C::tokens_per_thread;
  state.counters["H"] = C::hoisted_rounds;
  state.counters["T"] = C::threads_per_block;
  state.counters["B"] = C::min_blocks_per_sm;
  state.counters["words"] = C::emit == fastpair::emit_strategy::register_words ? 1 : 0;
}

bool list_only() { return std::getenv("FASTPAIR_SWEEP_LIST") != nullptr; }

template <class... Configs>
void register_study(config_list<Configs...>, std::string const& study, std::string const& column, codec kind,
                    int iters, int only_w = 0)
{
  auto reg = [&](auto tag) {
    using C = typename decltype(tag)::type;
    if (only_w != 0 && C::low_plane_bytes != only_w) return;
    if (list_only()) {
      std::printf("%s %s %d %d %d %d %d %d\n", study.c_str(), fastpair::config_name<C>().c_str(), C::tokens_per_thread,
                  C::low_plane_bytes, C::hoisted_rounds, C::threads_per_block, C::min_blocks_per_sm,
                  fastpair::detail::block_smem_bytes<C>());
      return;
    }
    std::string const name =
      "sweep/" + study + "/" + column + "/" + fastpair::codec_name(kind) + "/cfg:" + fastpair::config_name<C>();
    benchmark::RegisterBenchmark(name.c_str(), fb::guarded([column, kind](benchmark::State& s) { bench_sweep<C>(s, column, kind); }))
      ->UseManualTime()
      ->Iterations(iters)
      ->Unit(benchmark::kMillisecond);
  };
  (reg(std::common_type<Configs>{}), ...);
}

}  // namespace

int main(int argc, char** argv)
{
  benchmark::Initialize(&argc, argv);
  auto const studies = fb::env_list("FASTPAIR_SWEEP", "fig2,fig3,fig4");
  std::set<std::string> const want(studies.begin(), studies.end());
  int const iters = static_cast<int>(fb::env_int("FASTPAIR_BENCH_ITERS", 100));
  if (list_only()) {
    std::printf("study config K W H T B smem\n");
    register_study(fig2_configs{}, "fig2", "", codec::onpair12, 0);
    register_study(fig3_configs{}, "fig3", "", codec::onpair12, 0);
    register_study(fig4_configs{}, "fig4", "", codec::onpair12, 0);
    return 0;
  }
  fb::require_data("fastpair_bench_sweeps");
  fb::add_machine_context();
  std::string const col = fb::env_list("FASTPAIR_SWEEP_COLUMN", "log_windows").at(0);
  codec const kind      = fastpair::parse_codec(fb::env_list("FASTPAIR_SWEEP_CODEC", "onpair12").at(0));
  // Figures 2 and 3 use the low plane W = 8 whatever the column's automatic choice.
  if (want.count("fig2")) register_study(fig2_configs{}, "fig2", col, kind, iters);
  if (want.count("fig3")) register_study(fig3_configs{}, "fig3", col, kind, iters);
  if (want.count("fig4"))
    for (auto const& column : fb::env_list("FASTPAIR_BENCH_COLUMNS", fb::all_columns_csv()))
      for (auto const& cname : fb::env_list("FASTPAIR_SWEEP_CODECS", "onpair16,onpair12"))
        for (int w : {8, 16}) register_study(fig4_configs{}, "fig4", column, fastpair::parse_codec(cname), iters, w);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
