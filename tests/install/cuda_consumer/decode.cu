// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// The GPU decoder from an installed fastpair: prepare a column, decompress it, compare.
#include <fastpair/fastpair.cuh>

#include <cstdio>
#include <exception>

bool gpu_round_trip(fastpair::compressed_column const& col, fastpair::host_strings const& expect)
{
  try {
    fastpair::host_strings got;
    {
      fastpair::device_column const dcol = fastpair::device_column::prepare(col, {});
      got = fastpair::decompress(dcol, {}).to_host({});
    }
    return got == expect;
  } catch (std::exception const& e) {
    std::printf("cuda consumer: GPU decode: %s\n", e.what());
    return false;
  }
}
