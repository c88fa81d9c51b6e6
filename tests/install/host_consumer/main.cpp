// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// A C++-only downstream program (g++, no CUDA): compress a column on the host, write it to .fpc
// bytes and back, decode it with the CPU reference decoder and compare.
#include <fastpair/fastpair.hpp>

#include <cstdio>
#include <string>

int main()
{
  fastpair::host_strings rows;
  for (int i = 0; i < 2000; ++i)
    rows.push_back("https://example.com/item/" + std::to_string(i % 97) + "?page=" + std::to_string(i));
  rows.push_back("");
  bool ok = true;
  for (fastpair::codec kind : {fastpair::codec::onpair16, fastpair::codec::onpair12, fastpair::codec::fsst12}) {
    fastpair::compressed_column const col  = fastpair::compress(rows, kind);
    fastpair::compressed_column const back = fastpair::deserialize(fastpair::serialize(col));
    bool const same = fastpair::decode_reference(back) == rows;
    std::printf("host consumer: %s: %zu rows: %s\n", fastpair::codec_name(kind), rows.num_rows(),
                same ? "round trip ok" : "MISMATCH");
    ok = ok && same;
  }
  return ok ? 0 : 1;
}
