// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Instantiating a user-defined decode configuration and timing it against the automatic one.
//
// decode_config<K, W, H, T, B[, Emit, Gather]> fixes the decoder's shape at compile time
// (config.cuh documents each knob). W must equal the prepared column's low-plane width, so a program that accepts any
// column instantiates its config for both W = 8 and W = 16 and picks one at run time.
//
// Usage: fastpair_example_custom_config [COLUMN.fpc]
//   Without an argument, a generated sample column (~40 MB decoded) is used. A column that fits in
//   the L2 cache measures launch overhead more than the decoder: pass a large .fpc (or use
//   `fastpair bench --tile`) for HBM-bound numbers. Without a GPU it prints "skipped" and exits 0.
#include "example_common.hpp"

#include <fastpair/fastpair.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

// A user configuration with the paper's emit strategy (the sixth, optional parameter): 4 codes
// per lane (K), 2 hoisted rounds (H), 128 threads per block (T), at least 8 blocks per SM (B).
// W comes from the column.
template <int W>
using my_config =
  fastpair::decode_config</*K*/ 4, W, /*H*/ 2, /*T*/ 128, /*B*/ 8, fastpair::emit_strategy::staged_bytes>;

// Other knobs with the default emit strategy (register_words): each lane owns K consecutive codes
// and assembles 32-bit words in registers (H is unused; needs K >= 4).
template <int W>
using my_words_config = fastpair::decode_config</*K*/ 8, W, /*H*/ 0, /*T*/ 128, /*B*/ 4>;

namespace {

/** Decodes `dcol` with Config `runs` times and returns the fastest time in seconds; checks the
 *  output against `expect` after the first run. */
template <class Config>
double time_config(fastpair::device_column const& dcol, fastpair::host_strings const& expect, cudaStream_t s,
                   bool* ok, int runs = 10)
{
  fastpair::device_buffer<std::int64_t> offsets(dcol.num_rows() + 1, s);
  fastpair::device_buffer<char> chars(dcol.decoded_bytes(), s);
  fastpair::string_column_view<std::int64_t> out{offsets.data(), chars.data(), dcol.num_rows(), chars.size()};

  fastpair::decode_column<Config>(dcol, out, s);  // first run: check it
  std::vector<char> h(chars.size());
  if (!h.empty()) FASTPAIR_CUDA_TRY(cudaMemcpyAsync(h.data(), chars.data(), h.size(), cudaMemcpyDeviceToHost, s));
  *ok = dcol.read_and_clear_errors(s) == 0 && h == expect.chars;  // read_and_clear_errors synchronizes

  cudaEvent_t a, b;
  FASTPAIR_CUDA_TRY(cudaEventCreate(&a));
  FASTPAIR_CUDA_TRY(cudaEventCreate(&b));
  double best = 1e30;
  for (int i = 0; i < runs; ++i) {
    FASTPAIR_CUDA_TRY(cudaEventRecord(a, s));
    fastpair::decode_column<Config>(dcol, out, s);
    FASTPAIR_CUDA_TRY(cudaEventRecord(b, s));
    FASTPAIR_CUDA_TRY(cudaEventSynchronize(b));
    float ms = 0;
    FASTPAIR_CUDA_TRY(cudaEventElapsedTime(&ms, a, b));
    best = std::min(best, ms * 1e-3);
  }
  FASTPAIR_CUDA_TRY(cudaEventDestroy(a));
  FASTPAIR_CUDA_TRY(cudaEventDestroy(b));
  *ok = *ok && dcol.read_and_clear_errors(s) == 0;
  return best;
}

template <int W>
bool compare(fastpair::device_column const& dcol, fastpair::host_strings const& expect, cudaStream_t s)
{
  double const bytes = static_cast<double>(dcol.decoded_bytes());
  bool ok_auto = false, ok_paper = false, ok_mine = false, ok_words = false;
  double const t_auto  = time_config<fastpair::auto_config>(dcol, expect, s, &ok_auto);
  double const t_paper = time_config<fastpair::paper_config<W>>(dcol, expect, s, &ok_paper);
  double const t_mine  = time_config<my_config<W>>(dcol, expect, s, &ok_mine);
  double const t_words = time_config<my_words_config<W>>(dcol, expect, s, &ok_words);
  auto line = [&](char const* what, std::string const& name, double t, bool ok) {
    std::printf("  %-8s %-22s %9.3f ms  %8.1f GB/s  %s\n", what, name.c_str(), t * 1e3, bytes / t / 1e9,
                ok ? "ok" : "MISMATCH");
  };
  line("auto", "(per-architecture)", t_auto, ok_auto);
  line("paper", fastpair::config_name<fastpair::paper_config<W>>(), t_paper, ok_paper);
  line("custom", fastpair::config_name<my_config<W>>(), t_mine, ok_mine);
  line("custom", fastpair::config_name<my_words_config<W>>(), t_words, ok_words);
  return ok_auto && ok_paper && ok_mine && ok_words;
}

}  // namespace

int main(int argc, char** argv)
{
  if (example::gpus_or_skip("custom_config") == 0) return 0;
  try {
    std::vector<std::uint8_t> const bytes =
      argc > 1 ? example::read_bytes(argv[1])
               : fastpair::serialize(fastpair::compress(example::sample_rows(500000), fastpair::codec::onpair16));
    fastpair::host_strings const expect = fastpair::decode_reference(fastpair::deserialize(bytes.data(), bytes.size()));
    cudaStream_t s;
    FASTPAIR_CUDA_TRY(cudaStreamCreate(&s));
    bool ok = false;
    {
      fastpair::device_column const dcol = fastpair::device_column::prepare_fpc_host(bytes.data(), bytes.size(), s);
      std::printf("custom_config: %s, %llu rows, %.1f MB decoded, W = %d (min of 10 runs, L2 warm)\n",
                  fastpair::codec_name(dcol.kind()), static_cast<unsigned long long>(dcol.num_rows()),
                  static_cast<double>(dcol.decoded_bytes()) / 1e6, dcol.low_plane_bytes());
      // W is a run-time property of the column and a compile-time property of the config.
      ok = dcol.low_plane_bytes() == 16 ? compare<16>(dcol, expect, s) : compare<8>(dcol, expect, s);
    }
    FASTPAIR_CUDA_TRY(cudaStreamDestroy(s));
    std::printf("custom_config: %s\n", ok ? "all outputs match the CPU reference" : "MISMATCH");
    return ok ? 0 : 1;
  } catch (std::exception const& e) {
    std::fprintf(stderr, "custom_config: %s\n", e.what());
    return 1;
  }
}
