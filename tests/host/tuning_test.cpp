// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// The automatic low-plane width per architecture (host logic, no GPU needed).
#include <fastpair/detail/arch.cuh>

#include <catch2/catch.hpp>

using fastpair::arch_bucket;
using fastpair::codec;

TEST_CASE("automatic W per architecture", "[tuning]")
{
  fastpair::length_histogram short_tokens{}, long_tokens{};
  short_tokens[3] = 90;
  short_tokens[12] = 10;
  long_tokens[3]  = 30;
  long_tokens[12] = 70;
  using fastpair::detail::tuned_low_plane_bytes;
  // The paper's rule off sm_90: W = 16 iff more than 60 % of coded tokens exceed 8 bytes.
  CHECK(tuned_low_plane_bytes(codec::onpair16, short_tokens, arch_bucket::generic) == 8);
  CHECK(tuned_low_plane_bytes(codec::onpair16, long_tokens, arch_bucket::generic) == 16);
  // sm_80 and older are generic
  CHECK(fastpair::detail::bucket_of_arch(80) == arch_bucket::generic);
  CHECK(fastpair::detail::bucket_of_arch(89) == arch_bucket::generic);
  CHECK(fastpair::detail::bucket_of_arch(90) == arch_bucket::sm90);
  CHECK(fastpair::detail::bucket_of_arch(120) == arch_bucket::sm100);
  // sm_90 and newer (register_words with texture gathers everywhere): W = 8 for FSST-12 (the
  // short-token emit) and for OnPair-16 with more than 86 % of the tokens at most 8 B and a mean
  // of at least 3 B; 16 otherwise.
  fastpair::length_histogram tiny{}, urls_like{};
  tiny[1]       = 60;  // mean 1.4 B, all short
  tiny[2]       = 40;
  urls_like[4]  = 84;  // 16 % > 8 B
  urls_like[12] = 16;
  for (auto a : {arch_bucket::sm90, arch_bucket::sm100}) {
    CHECK(tuned_low_plane_bytes(codec::onpair16, short_tokens, a) == 8);  // 10 % > 8 B, mean 3.9 B
    CHECK(tuned_low_plane_bytes(codec::onpair16, urls_like, a) == 16);
    CHECK(tuned_low_plane_bytes(codec::onpair16, tiny, a) == 16);
    CHECK(tuned_low_plane_bytes(codec::onpair16, long_tokens, a) == 16);
    for (auto const& h : {short_tokens, long_tokens, tiny}) {
      CHECK(tuned_low_plane_bytes(codec::onpair12, h, a) == 16);
      CHECK(tuned_low_plane_bytes(codec::fsst12, h, a) == 8);
    }
  }
  // FSST-12 tokens fit the low plane: the paper's rule keeps W = 8 for them.
  CHECK(tuned_low_plane_bytes(codec::fsst12, long_tokens, arch_bucket::generic) == 8);
}
