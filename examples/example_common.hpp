// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Small helpers shared by the examples: a deterministic sample column, a file's bytes and a GPU
// check. Not part of the library.
#pragma once

#include <fastpair/format.hpp>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace example {

/** Number of CUDA devices; prints "<name>: no CUDA device: skipped" and returns 0 if none. */
inline int gpus_or_skip(char const* name)
{
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    (void)cudaGetLastError();
    std::printf("%s: no CUDA device: skipped\n", name);
    return 0;
  }
  return n;
}

/** The bytes of a file (a stored `.fpc` image: device_column::prepare_fpc_host reads them). */
inline std::vector<std::uint8_t> read_bytes(std::string const& path)
{
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot open " + path);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

/** A deterministic log-like column of `rows` rows (with empty rows and UTF-8), about 75 B a row. */
inline fastpair::host_strings sample_rows(std::size_t rows)
{
  static char const* const levels[]   = {"INFO", "INFO", "INFO", "WARN", "DEBUG", "ERROR"};
  static char const* const services[] = {"api-gateway", "billing", "search", "auth", "café-ünïcode"};
  fastpair::host_strings out;
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  char line[256];
  for (std::size_t i = 0; i < rows; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;  // xorshift64
    if (i % 53 == 0) {
      out.push_back("");
      continue;
    }
    int const n = std::snprintf(line, sizeof line, "2026-04-%02u %02u:%02u:%02u %s [%s] request %llu took %u ms",
                                unsigned(i % 28 + 1), unsigned(x % 24), unsigned((x >> 8) % 60),
                                unsigned((x >> 16) % 60), levels[(x >> 24) % 6], services[(x >> 32) % 5],
                                static_cast<unsigned long long>((x >> 40) % 1000000), unsigned((x >> 20) % 900));
    out.push_back(std::string(line, static_cast<std::size_t>(n)));
  }
  return out;
}

}  // namespace example
