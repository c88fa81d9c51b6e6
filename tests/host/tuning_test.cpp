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
  using fastpair::detail::auto_low_plane_bytes;
  // The paper's rule off sm_90: W = 16 iff more than 60 % of coded tokens exceed 8 bytes.
  for (auto a : {arch_bucket::generic, arch_bucket::sm80}) {
    CHECK(auto_low_plane_bytes(codec::onpair16, short_tokens, a) == 8);
    CHECK(auto_low_plane_bytes(codec::onpair16, long_tokens, a) == 16);
  }
  // sm_90 and newer (register_words everywhere): W = 8 only for OnPair-16 with at most 30 % of
  // the tokens longer than 8 B; OnPair-12 and FSST-12 always 16.
  fastpair::length_histogram mixed{}, boundary{};
  mixed[3]     = 60;
  mixed[12]    = 40;
  boundary[3]  = 70;
  boundary[12] = 30;
  for (auto a : {arch_bucket::sm90, arch_bucket::sm100}) {
    CHECK(auto_low_plane_bytes(codec::onpair16, short_tokens, a) == 8);
    CHECK(auto_low_plane_bytes(codec::onpair16, boundary, a) == 8);  // exactly 30 % > 8 B
    CHECK(auto_low_plane_bytes(codec::onpair16, mixed, a) == 16);    // 40 % > 8 B
    CHECK(auto_low_plane_bytes(codec::onpair16, long_tokens, a) == 16);
    CHECK(auto_low_plane_bytes(codec::onpair12, short_tokens, a) == 16);
    CHECK(auto_low_plane_bytes(codec::onpair12, long_tokens, a) == 16);
    CHECK(auto_low_plane_bytes(codec::fsst12, short_tokens, a) == 16);
  }
  // FSST-12 tokens fit the low plane: the paper's rule keeps W = 8 for them.
  for (auto a : {arch_bucket::generic, arch_bucket::sm80})
    CHECK(auto_low_plane_bytes(codec::fsst12, long_tokens, a) == 8);
}
