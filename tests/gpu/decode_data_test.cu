// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Every column of ../shared/data with all three codecs: the GPU decode (automatic config and the
// paper's config, whole column and a row range) equals the input and the CPU reference byte for
// byte. Fails with a clear message when the data folder is absent.
#include "utils/data.hpp"
#include "utils/gpu_check.cuh"

#include <fastpair/encode.hpp>
#include <fastpair/fastpair.cuh>

#include <catch2/catch.hpp>

#include <cstdlib>

namespace ft = fastpair::testing;
using fastpair::codec;

TEST_CASE("GPU decode of every shared column and codec equals the input", "[gpu][data]")
{
  std::size_t const max_bytes = ft::test_source_bytes(std::size_t{1} << 20);  // sanitizer runs use less
  for (auto const& name : ft::shared_columns()) {
    auto const rows = ft::load_shared_column(name, max_bytes);
    for (auto kind : {codec::onpair16, codec::onpair12, codec::fsst12}) {
      INFO(name << " " << fastpair::codec_name(kind));
      auto const col  = fastpair::compress(rows, kind);
      auto const dcol = fastpair::device_column::prepare(col);
      auto const ref  = fastpair::decode_reference(col);
      REQUIRE(ref == rows);
      ft::check_decode<fastpair::auto_config>(dcol, ref, 0, col.num_rows());
      if (dcol.low_plane_bytes() == 8)
        ft::check_decode<fastpair::paper_config<8>, std::int32_t>(dcol, ref, 0, col.num_rows(), 5);
      else
        ft::check_decode<fastpair::paper_config<16>, std::int32_t>(dcol, ref, 0, col.num_rows(), 5);
      std::uint64_t const r0 = col.num_rows() / 3, r1 = col.num_rows() / 2;
      ft::check_decode<fastpair::auto_config>(dcol, fastpair::decode_reference(col, r0, r1), r0, r1, 9);
    }
  }
}
