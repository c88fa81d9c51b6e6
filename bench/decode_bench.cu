// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// GPU decode throughput on the real columns of ../shared/data (first 4 MiB of each, encoded with
// each codec, tiled to >= 1 GB of output), side by side in one run:
//   decode/<column>/<codec>/cfg:auto    the automatic configuration (what decode_column() runs) on
//                                       the default (lean) prepared column, chars and int64 row
//                                       offsets
//   decode/<column>/<codec>/cfg:paper   the paper's configuration (K=6, H=1, T=256, B=4, W by the
//                                       paper's rule: 16 iff > 60 % of tokens exceed 8 bytes)
//   chars/<column>/<codec>/cfg:{auto,paper}  the same, chars only (null offsets: the paper's bulk
//                                       decompression, as the authors' kernels in ANCHORS.md)
//   decode/<column>/<codec>/cfg:<name>  the tuning sweep (FASTPAIR_BENCH_SWEEP=1); configs that read
//                                       the length stream or the fused codes get a column
//                                       prepared with that accelerator
//   copy/<column>/<codec>               a device-to-device copy of the same output size
// Environment: FASTPAIR_BENCH_COLUMNS (comma list; a name may end in ":bytes" or ":exact" for the
// dictionary-order A/B, see common/fixture.cuh), FASTPAIR_BENCH_CODECS (comma list),
// FASTPAIR_BENCH_BYTES, FASTPAIR_BENCH_SOURCE_BYTES, FASTPAIR_DATA_DIR.
#include "common/suite.cuh"

#include <sstream>

namespace fb = fastpair::bench;
using fastpair::codec;
using fastpair::decode_config;
/// The paper's emit (staged_bytes), the one that uses H: the configs of the paper's sweeps.
template <int K, int W, int H, int T, int B>
using staged = decode_config<K, W, H, T, B, fastpair::emit_strategy::staged_bytes>;
constexpr auto words  = fastpair::emit_strategy::register_words;
constexpr auto swords = fastpair::emit_strategy::register_words_short;
using G              = fastpair::gather_strategy;

namespace {


template <class Config>
constexpr int config_w()
{
  if constexpr (std::is_same_v<Config, fastpair::auto_config>) return 0;  // automatic W
  else return Config::low_plane_bytes;
}

/** Times decode_column<Config>: chars and int64 offsets, or the chars only (`chars_only`: null
 *  offsets, the paper's bulk decompression and what ANCHORS.md's kernels measure). */
template <class Config>
void bench_config(benchmark::State& state, std::string const& column, codec kind, bool chars_only = false)
{
  auto& p  = fb::get_column(column, kind, config_w<Config>(), fb::accelerators_for<Config>());
  auto out = p.out();
  if (chars_only) out.offsets = nullptr;
  auto times = fb::timed_loop(state, [&](cudaStream_t s) { fastpair::decode_column<Config>(p.dcol, out, s); });
  if (p.dcol.read_and_clear_errors() != 0) state.SkipWithError("device error word set");
  else if (fb::output_mismatches(p) != 0) state.SkipWithError("decoded output differs from the CPU reference");
  fb::set_decode_counters(state, p, times);
}

/** The paper's config with the paper's W rule (resolved when the benchmark runs). */
void bench_paper(benchmark::State& state, std::string const& column, codec kind, bool chars_only = false)
{
  if (fb::paper_w(column, kind) == 16) bench_config<fastpair::paper_config<16>>(state, column, kind, chars_only);
  else bench_config<fastpair::paper_config<8>>(state, column, kind, chars_only);
}


// The tuning sweep: K x T x B x H around the paper's point, both W.
template <class... Configs>
struct config_list {};
using sweep_configs = config_list<
  // staged_bytes (the paper's strategy) around the paper's point
  staged<4, 8, 1, 256, 4>, staged<6, 8, 0, 256, 4>, staged<6, 8, 1, 128, 8>,
  staged<8, 8, 1, 256, 3>, staged<8, 8, 1, 256, 4>, staged<6, 16, 0, 128, 8>,
  staged<8, 16, 0, 256, 3>,
  // register_words
  decode_config<8, 8, 0, 128, 4, words>, decode_config<8, 8, 0, 128, 6, words>, decode_config<8, 8, 0, 256, 2, words>,
  decode_config<8, 8, 0, 256, 3, words>, decode_config<6, 8, 0, 128, 4, words>, decode_config<4, 8, 0, 128, 8, words>,
  decode_config<8, 8, 0, 64, 8, words>, decode_config<8, 16, 0, 128, 4, words>, decode_config<8, 16, 0, 128, 6, words>,
  decode_config<8, 16, 0, 256, 2, words>, decode_config<8, 16, 0, 256, 3, words>, decode_config<6, 16, 0, 128, 4, words>,
  decode_config<4, 16, 0, 128, 8, words>, decode_config<8, 16, 0, 64, 8, words>,
  // register_words with texture gathers: which reads go through which pipe, and K, T, B again
  decode_config<8, 8, 0, 256, 3, words, G::texture_low>, decode_config<8, 8, 0, 256, 3, words, G::texture_low_streamed>,
  decode_config<8, 8, 0, 128, 6, words, G::texture_low>, decode_config<6, 8, 0, 256, 4, words, G::texture_low>,
  decode_config<8, 8, 0, 128, 6, words, G::texture_low_streamed>, decode_config<8, 8, 0, 128, 8, words, G::texture_low>,
  decode_config<8, 16, 0, 256, 3, words, G::texture_low>,
  decode_config<8, 16, 0, 256, 3, words, G::texture_low_streamed>,
  decode_config<6, 16, 0, 256, 4, words, G::texture_low>,
  decode_config<6, 16, 0, 256, 4, words, G::texture_low_streamed>,
  decode_config<8, 16, 0, 128, 8, words, G::texture_low>,
  // short-token emit (FSST-12 at W = 8) and fused 12-bit code words (OnPair-12, FSST-12)
  decode_config<8, 8, 0, 256, 3, swords, G::texture_low_streamed>,
  decode_config<8, 8, 0, 256, 4, swords, G::texture_low_streamed>,
  decode_config<8, 8, 0, 128, 8, swords, G::texture_low_streamed>,
  decode_config<8, 8, 0, 256, 3, swords, G::texture_low_fused>,
  decode_config<8, 8, 0, 256, 4, swords, G::texture_low_fused>,
  decode_config<8, 8, 0, 256, 3, words, G::texture_low_fused>,
  decode_config<8, 16, 0, 256, 3, words, G::texture_low_fused>>;

/** Whether Config can decode a `kind` column at all (the short-token emit needs tokens of at most
 *  8 bytes, the fused code words a dictionary of at most 4 096 entries). */
template <class C>
bool applies(codec kind)
{
  return (!C::short_tokens || fastpair::max_token_length(kind) <= 8) &&
         (!C::fused_codes || fastpair::code_space(kind) <= 4096);
}

template <class... Configs>
void register_sweep(config_list<Configs...>, std::string const& prefix, std::string const& column, codec kind, int w)
{
  auto reg = [&](auto tag) {
    using C = typename decltype(tag)::type;
    if (C::low_plane_bytes != w || !applies<C>(kind)) return;
    benchmark::RegisterBenchmark((prefix + "cfg:" + fastpair::config_name<C>()).c_str(),
                                 [column, kind](benchmark::State& s) { bench_config<C>(s, column, kind); })
      ->UseManualTime()->Iterations(100)->Unit(benchmark::kMillisecond);
  };
  (reg(std::common_type<Configs>{}), ...);
}

}  // namespace

int main(int argc, char** argv)
{
  benchmark::Initialize(&argc, argv);
  if (!fastpair::testing::have_column("log_windows")) {
    std::fprintf(stderr, "fastpair_bench_decode: no data in %s (set FASTPAIR_DATA_DIR)\n",
                 fastpair::testing::data_dir().c_str());
    return 2;
  }
  bool const sweep = std::getenv("FASTPAIR_BENCH_SWEEP") != nullptr;
  for (auto const& column : fb::env_list("FASTPAIR_BENCH_COLUMNS", "log_windows,tpch_l_comment,urls,en_wiki,zh_text")) {
    for (auto const& cname : fb::env_list("FASTPAIR_BENCH_CODECS", "onpair16,onpair12,fsst12")) {
      codec const kind = fastpair::parse_codec(cname);
      std::string const prefix = column + "/" + cname + "/";
      // decode/: chars + int64 offsets (what decode_column does for a dataframe); chars/: the
      // chars only (null offsets)
      for (bool const chars_only : {false, true}) {
        std::string const family = chars_only ? "chars/" : "decode/";
        benchmark::RegisterBenchmark((family + prefix + "cfg:auto").c_str(), [column, kind, chars_only](benchmark::State& s) {
          bench_config<fastpair::auto_config>(s, column, kind, chars_only);
        })->UseManualTime()->Iterations(100)->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark((family + prefix + "cfg:paper").c_str(), [column, kind, chars_only](benchmark::State& s) {
          bench_paper(s, column, kind, chars_only);
        })->UseManualTime()->Iterations(100)->Unit(benchmark::kMillisecond);
      }
      if (sweep)
        for (int w : {8, 16}) register_sweep(sweep_configs{}, "decode/" + prefix, column, kind, w);
      benchmark::RegisterBenchmark(("copy/" + prefix).c_str(),
                                   [column, kind](benchmark::State& s) { fb::bench_copy(s, column, kind); })
        ->UseManualTime()->Iterations(100)->Unit(benchmark::kMillisecond);
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
