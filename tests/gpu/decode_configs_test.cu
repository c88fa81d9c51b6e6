// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Byte-for-byte equality of the GPU decoder with the CPU reference over a covering set of configs:
// every value of every knob (K 1..8, W 8/16, H 0..K, T 64..512, B 1..8) appears at least once for
// the paper's staged_bytes strategy, and K 4..8, W 8/16, T 64..512, B 1..8 for register_words;
// the gather strategies global, texture_low and texture_low_streamed with W 8 and 16 (texture_low:
// groups 0, 2, 3; texture_low_streamed: group 1 with K = 8, whose lengths load as whole words, and
// group 2 with K = 7, which loads them byte by byte).
// Group 4 covers what only applies to some codecs, on OnPair-12 and FSST-12 columns:
// texture_low_fused (dictionaries of <= 4 096 entries) with W 8 and 16 and K 4, 7, 8, and the
// register_words_short emit (tokens of <= 8 bytes: FSST-12) with the fused, streamed and global
// reads.
// The list is split into groups, one executable each (FASTPAIR_TEST_CONFIG_GROUP), so nvcc's
// time and memory stay bounded on 2-core machines.
#include "utils/generators.hpp"
#include "utils/gpu_check.cuh"

#include <fastpair/fastpair.cuh>

#include <catch2/catch.hpp>

#ifndef FASTPAIR_TEST_CONFIG_GROUP
#define FASTPAIR_TEST_CONFIG_GROUP 0
#endif

using fastpair::decode_config;
constexpr auto words = fastpair::emit_strategy::register_words;
[[maybe_unused]] constexpr auto texlo = fastpair::gather_strategy::texture_low;
[[maybe_unused]] constexpr auto texls = fastpair::gather_strategy::texture_low_streamed;
[[maybe_unused]] constexpr auto texlf = fastpair::gather_strategy::texture_low_fused;
[[maybe_unused]] constexpr auto global = fastpair::gather_strategy::global;
[[maybe_unused]] constexpr auto swords = fastpair::emit_strategy::register_words_short;
/// The paper's emit (staged_bytes): the kernel of every K, and the only one that uses H.
template <int K, int W, int H, int T, int B>
using staged = decode_config<K, W, H, T, B, fastpair::emit_strategy::staged_bytes>;
// clang-format off
#if FASTPAIR_TEST_CONFIG_GROUP == 0
using cfg_a = staged<1, 8, 0, 64, 1>; using cfg_b = staged<6, 8, 1, 256, 4>; using cfg_c = staged<6, 16, 1, 256, 4>;
using cfg_d = decode_config<4, 16, 0, 256, 4, words, texlo>; using cfg_e = decode_config<4, 8, 0, 64, 1, words>;
#elif FASTPAIR_TEST_CONFIG_GROUP == 1
using cfg_a = staged<2, 16, 2, 128, 2>; using cfg_b = staged<3, 8, 3, 256, 3>; using cfg_c = staged<8, 8, 8, 64, 8>;
using cfg_d = decode_config<8, 8, 0, 256, 3, words, texls>; using cfg_e = decode_config<8, 16, 0, 128, 5, words>;
#elif FASTPAIR_TEST_CONFIG_GROUP == 2
using cfg_a = staged<4, 8, 2, 512, 1>; using cfg_b = staged<5, 8, 5, 64, 5>; using cfg_c = staged<7, 8, 7, 128, 6>;
using cfg_d = decode_config<5, 8, 0, 128, 2, words, texlo>; using cfg_e = decode_config<7, 16, 0, 256, 6, words, texls>;
#elif FASTPAIR_TEST_CONFIG_GROUP == 4
using cfg_a = decode_config<8, 8, 0, 256, 3, swords, texlf>; using cfg_b = decode_config<8, 16, 0, 256, 3, words, texlf>;
using cfg_c = decode_config<5, 8, 0, 128, 4, swords, texls>; using cfg_d = decode_config<7, 8, 0, 64, 2, words, texlf>;
using cfg_e = decode_config<4, 8, 0, 512, 1, swords, global>;
#else
using cfg_a = staged<8, 16, 0, 256, 2>; using cfg_b = staged<4, 16, 4, 128, 7>; using cfg_c = staged<8, 8, 6, 512, 2>;
using cfg_d = decode_config<6, 16, 0, 512, 1, words, texlo>; using cfg_e = decode_config<6, 8, 0, 128, 8, words, texlo>;
#endif
#define FASTPAIR_CONFIGS cfg_a, cfg_b, cfg_c, cfg_d, cfg_e
// clang-format on

namespace ft = fastpair::testing;
using fastpair::codec;

namespace {
template <class Config>
fastpair::device_column prepare(fastpair::compressed_column const& col)
{
  fastpair::prepare_options opt;
  opt.low_plane_bytes = Config::low_plane_bytes;
  // The accelerators are opt-in: build what Config reads (streamed lengths, fused codes), and
  // only that, so that every other config is checked on the lean default column.
  opt.length_stream = Config::streams_lengths;
  opt.fused_codes   = Config::fused_codes;
  return fastpair::device_column::prepare(col, {}, opt);
}

template <class Config>
void check_all_rows(fastpair::compressed_column const& col)
{
  auto const dcol   = prepare<Config>(col);
  auto const expect = fastpair::decode_reference(col);
  ft::check_decode<Config, std::int64_t>(dcol, expect, 0, col.num_rows());
  ft::check_decode<Config, std::int32_t>(dcol, expect, 0, col.num_rows(), 3);
}

/** Partial batches: sidecar strides that are not multiples of 32*K (tokens of 1..max_len bytes). */
template <class Config>
void check_partial_batches(codec kind, int max_len, std::uint64_t seed)
{
  auto d = ft::make_dictionary(kind, 500, {1, max_len}, seed);
  for (std::uint32_t stride : {1u, 31u, 33u, 100u, 777u, 5000u})
    check_all_rows<Config>(ft::random_column(kind, d, 400, {0.0, 0.1, 30}, seed + 1 + stride, stride));
}

/** Tiny columns: no rows, only empty rows, one row of one code, one long row. */
template <class Config>
void check_tiny_columns(codec kind, int max_len, std::uint64_t seed)
{
  auto d = ft::make_dictionary(kind, 100, {2, max_len}, seed);
  check_all_rows<Config>(ft::column_from_codes(kind, d, {}));
  check_all_rows<Config>(ft::column_from_codes(kind, d, {{}, {}, {}}));
  check_all_rows<Config>(ft::column_from_codes(kind, d, {{300}}));
  check_all_rows<Config>(ft::random_column(kind, d, 1, {0.0, 0.0, 20000}, seed + 1));
}
}  // namespace

#if FASTPAIR_TEST_CONFIG_GROUP == 4
// Configs for some codecs only: the short-token emit needs tokens of <= 8 bytes (FSST-12), the
// fused codes a dictionary of <= 4 096 entries (OnPair-12, FSST-12).
TEMPLATE_TEST_CASE("decode of 12-bit columns matches the CPU reference", "[gpu][decode]", FASTPAIR_CONFIGS)
{
  INFO("config " << fastpair::config_name<TestType>());
  SECTION("FSST-12: uniform codes, lengths 1..8, 10% empty rows")
  {
    auto d = ft::make_dictionary(codec::fsst12, 3800, {2, 8}, 31);
    check_all_rows<TestType>(ft::random_column(codec::fsst12, d, 3000, {0.0, 0.1, 80}, 32));
  }
  SECTION("FSST-12: Zipf codes; only 8-byte tokens; only 1-byte tokens")
  {
    auto d = ft::make_dictionary(codec::fsst12, 3000, {2, 8}, 33);
    check_all_rows<TestType>(ft::random_column(codec::fsst12, d, 2000, {1.1, 0.05, 120}, 34));
    auto d8 = ft::make_dictionary(codec::fsst12, 2000, {8, 8}, 35);
    check_all_rows<TestType>(ft::random_column(codec::fsst12, d8, 1500, {0.0, 0.02, 40, true}, 36));
    check_all_rows<TestType>(ft::random_column(codec::fsst12, ft::make_dictionary(codec::fsst12, 0, {2, 8}, 37), 1500,
                                               {0.0, 0.0, 60}, 38));
  }
  SECTION("FSST-12: partial batches (sidecar strides that are not multiples of 32*K)")
  {
    check_partial_batches<TestType>(codec::fsst12, 8, 39);
  }
  SECTION("FSST-12: tiny columns (no rows, only empty rows, one code, one long row)")
  {
    check_tiny_columns<TestType>(codec::fsst12, 8, 41);
  }
  SECTION("FSST-12: row ranges at every output alignment")
  {
    auto d          = ft::make_dictionary(codec::fsst12, 3000, {1, 8}, 43);
    auto const col  = ft::random_column(codec::fsst12, d, 600, {0.0, 0.1, 20}, 44, 128);
    auto const dcol = prepare<TestType>(col);
    for (std::uint64_t r0 = 0; r0 < 40; ++r0) {
      std::uint64_t const r1 = std::min<std::uint64_t>(col.num_rows(), r0 + 1 + (r0 * 37) % 300);
      ft::check_decode<TestType>(dcol, fastpair::decode_reference(col, r0, r1), r0, r1, static_cast<unsigned>(r0 % 16));
    }
  }
  if constexpr (!TestType::short_tokens) {
    SECTION("OnPair-12: lengths 1..16, 16-byte tokens, lengths straddling 8, partial batches")
    {
      auto d = ft::make_dictionary(codec::onpair12, 3800, {2, 16}, 45);
      check_all_rows<TestType>(ft::random_column(codec::onpair12, d, 2000, {1.1, 0.05, 120}, 46));
      auto d16 = ft::make_dictionary(codec::onpair12, 2000, {16, 16}, 47);
      check_all_rows<TestType>(ft::random_column(codec::onpair12, d16, 1500, {0.0, 0.02, 40, true}, 48));
      auto d7 = ft::make_dictionary(codec::onpair12, 1000, {7, 10}, 49);
      check_all_rows<TestType>(ft::random_column(codec::onpair12, d7, 1500, {0.0, 0.0, 60, true}, 50));
      for (std::uint32_t stride : {1u, 33u, 777u})
        check_all_rows<TestType>(ft::random_column(codec::onpair12, d, 400, {0.0, 0.1, 30}, 51 + stride, stride));
    }
  }
}
#else
TEMPLATE_TEST_CASE("decode matches the CPU reference on generated columns", "[gpu][decode]", FASTPAIR_CONFIGS)
{
  INFO("config " << fastpair::config_name<TestType>());
  SECTION("uniform codes, OnPair-16, lengths 2..16, 10% empty rows")
  {
    auto d = ft::make_dictionary(codec::onpair16, 6000, {2, 16}, 1);
    check_all_rows<TestType>(ft::random_column(codec::onpair16, d, 3000, {0.0, 0.1, 80}, 2));
  }
  SECTION("Zipf codes, OnPair-12")
  {
    auto d = ft::make_dictionary(codec::onpair12, 3800, {2, 16}, 3);
    check_all_rows<TestType>(ft::random_column(codec::onpair12, d, 2000, {1.1, 0.05, 120}, 4));
  }
  SECTION("all-short tokens, FSST-12")
  {
    auto d = ft::make_dictionary(codec::fsst12, 3000, {2, 4}, 5);
    check_all_rows<TestType>(ft::random_column(codec::fsst12, d, 2500, {0.0, 0.0, 50}, 6));
  }
  SECTION("all 16-byte tokens")
  {
    auto d = ft::make_dictionary(codec::onpair16, 2000, {16, 16}, 7);
    fastpair::testing::code_mix m{0.0, 0.02, 40, true};
    check_all_rows<TestType>(ft::random_column(codec::onpair16, d, 1500, m, 8));
  }
  SECTION("lengths straddling W (7..10 and 15..16)")
  {
    auto d1 = ft::make_dictionary(codec::onpair12, 1000, {7, 10}, 9);
    check_all_rows<TestType>(ft::random_column(codec::onpair12, d1, 1500, {0.0, 0.0, 60, true}, 10));
    auto d2 = ft::make_dictionary(codec::onpair16, 1000, {15, 16}, 11);
    check_all_rows<TestType>(ft::random_column(codec::onpair16, d2, 1500, {0.0, 0.0, 60}, 12));
  }
  SECTION("partial batches: sidecar strides that are not multiples of 32*K")
  {
    check_partial_batches<TestType>(codec::onpair16, 16, 13);
  }
  SECTION("tiny columns: no rows, only empty rows, one row of one code, one long row")
  {
    check_tiny_columns<TestType>(codec::onpair16, 16, 15);
  }
}

TEMPLATE_TEST_CASE("decode of row ranges at every output alignment", "[gpu][decode]", FASTPAIR_CONFIGS)
{
  INFO("config " << fastpair::config_name<TestType>());
  auto d         = ft::make_dictionary(codec::onpair16, 3000, {1, 16}, 21);
  auto const col = ft::random_column(codec::onpair16, d, 600, {0.0, 0.1, 20}, 22, 128);
  auto const dcol = prepare<TestType>(col);
  for (std::uint64_t r0 = 0; r0 < 40; ++r0) {
    std::uint64_t const r1 = std::min<std::uint64_t>(col.num_rows(), r0 + 1 + (r0 * 37) % 300);
    auto const expect      = fastpair::decode_reference(col, r0, r1);
    ft::check_decode<TestType>(dcol, expect, r0, r1, static_cast<unsigned>(r0 % 16));
  }
  // Empty range and the last row alone.
  ft::check_decode<TestType>(dcol, fastpair::decode_reference(col, 5, 5), 5, 5);
  auto const n = col.num_rows();
  ft::check_decode<TestType>(dcol, fastpair::decode_reference(col, n - 1, n), n - 1, n, 7);
}
#endif
