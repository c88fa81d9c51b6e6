// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Integration: every column of ../shared/data (first ~2 MB) x every codec round trips through the
// host encoder and the CPU reference decoder. Fails, naming FASTPAIR_DATA_DIR, when the data is absent.
#include <fastpair/encode.hpp>
#include <fastpair/reference.hpp>
#include <fastpair/validate.hpp>

#include <catch2/catch.hpp>

#include "utils/data.hpp"

#include <string>

namespace {
constexpr std::size_t max_bytes_per_column = std::size_t{2} << 20;
}

TEST_CASE("encode: every shared data column round trips with every codec", "[encode][data]")
{
  namespace ft = fastpair::testing;
  for (std::string const& name : ft::shared_columns()) {
    INFO("column " << name << " in " << ft::data_dir().string());
    fastpair::host_strings const rows = ft::load_shared_column(name, max_bytes_per_column);
    REQUIRE(rows.num_rows() > 0);
    for (fastpair::codec kind : {fastpair::codec::onpair16, fastpair::codec::onpair12, fastpair::codec::fsst12}) {
      INFO("codec " << fastpair::codec_name(kind));
      fastpair::compressed_column const col = fastpair::compress(rows, kind);
      REQUIRE_NOTHROW(fastpair::validate(col));
      fastpair::host_strings const back = fastpair::decode_reference(col);
      REQUIRE(back.offsets == rows.offsets);
      REQUIRE(back.chars == rows.chars);
      double const ratio = static_cast<double>(rows.chars.size()) /
                           static_cast<double>(fastpair::column_stored_size(col).paper());
      CHECK(ratio > 0.9);  // even tpch_c_address stays near 1
    }
  }
}
