// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Stored sizes of one string column with every codec and with encode_auto, for
// scripts/tpch-ratios.py (the TPC-H ratio table beside Parquet and zstd, issue #27 item 1).
//
// Usage: fastpair_tpch_sizes VALUES_FILE   (one value per line, the column in row order)
// Output: "<codec>\t<.fpc v2 file bytes>" for onpair16, onpair12, fsst12, then
//         "auto\t<chosen codec>\t<.fpc v2 file bytes>", then "decoded\t<bytes>\trows\t<rows>".
#include <fastpair/encode.hpp>
#include <fastpair/io.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>

int main(int argc, char** argv)
try {
  if (argc != 2) throw std::runtime_error("usage: fastpair_tpch_sizes VALUES_FILE");
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) throw std::runtime_error(std::string("cannot read ") + argv[1]);
  fastpair::host_strings rows;
  for (std::string v; std::getline(in, v);) rows.push_back(v);
  for (fastpair::codec k : {fastpair::codec::onpair16, fastpair::codec::onpair12, fastpair::codec::fsst12})
    std::printf("%s\t%llu\n", fastpair::codec_name(k),
                static_cast<unsigned long long>(fastpair::fpc_file_bytes(fastpair::compress(rows, k))));
  fastpair::auto_choice why;
  fastpair::compressed_column const best = fastpair::encode_auto(rows, {}, &why);
  std::printf("auto\t%s\t%llu\n", fastpair::codec_name(why.kind),
              static_cast<unsigned long long>(fastpair::fpc_file_bytes(best)));
  std::printf("decoded\t%llu\trows\t%llu\n", static_cast<unsigned long long>(rows.chars.size()),
              static_cast<unsigned long long>(rows.num_rows()));
  return 0;
} catch (std::exception const& e) {
  std::cerr << "fastpair_tpch_sizes: " << e.what() << "\n";
  return 2;
}
