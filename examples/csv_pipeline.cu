// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Raw CSV to a compressed column and back: parse the CSV on the GPU (dsv.cuh), take one column,
// train + encode it on the host (OnPair-16), store it as .fpc, read it back, decode it on the GPU,
// and check that the decoded column equals the parsed one byte for byte.
//
// Usage: fastpair_example_csv_pipeline [FILE.csv [COLUMN_INDEX]]
//   Without arguments, a generated CSV (header, quoted fields with commas, doubled quotes and
//   newlines, CRLF, UTF-8) is used and column 2 is taken. Exits non-zero on a mismatch; without a
//   GPU it prints "skipped" and exits 0.
#include "example_common.hpp"

#include <fastpair/dsv.cuh>
#include <fastpair/fastpair.cuh>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {
/** A CSV with a header, an id, a level and a free-text message (quoted when it needs to be). */
std::string sample_csv(std::size_t rows)
{
  fastpair::host_strings const msgs = example::sample_rows(rows);
  std::string csv = "id,level,message\r\n";
  for (std::size_t i = 0; i < rows; ++i) {
    std::string m(msgs.row(i));
    if (i % 7 == 0) m += ", with a comma";
    if (i % 11 == 0) m += " and \"quotes\"";
    if (i % 13 == 0) m += "\nand a second line";
    bool const quote = m.find_first_of(",\"\n") != std::string::npos;
    std::string field;
    if (quote) {
      field = "\"";
      for (char c : m) field += c == '"' ? std::string("\"\"") : std::string(1, c);
      field += "\"";
    } else {
      field = m;
    }
    csv += std::to_string(i) + "," + (i % 5 == 0 ? "WARN" : "INFO") + "," + field + "\r\n";
  }
  return csv;
}
}  // namespace

int main(int argc, char** argv)
{
  if (example::gpus_or_skip("csv_pipeline") == 0) return 0;
  try {
    std::string text;
    if (argc > 1) {
      std::ifstream f(argv[1], std::ios::binary);
      if (!f) throw std::runtime_error(std::string("cannot open ") + argv[1]);
      text.assign(std::istreambuf_iterator<char>(f), {});
    } else {
      text = sample_csv(100000);
    }
    std::size_t const column = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 2;
    std::string const path   = (std::filesystem::temp_directory_path() / "fastpair_csv_pipeline.fpc").string();

    cudaStream_t stream;
    FASTPAIR_CUDA_TRY(cudaStreamCreate(&stream));
    bool ok = false;
    {
      // 1. Raw bytes to the GPU, parse into one Arrow column per field.
      fastpair::device_buffer<char> raw(text.size(), stream);
      FASTPAIR_CUDA_TRY(cudaMemcpyAsync(raw.data(), text.data(), text.size(), cudaMemcpyHostToDevice, stream));
      fastpair::dsv_dialect dialect;  // RFC 4180
      dialect.header                = true;
      fastpair::device_dsv_table const table = fastpair::parse_dsv(raw.data(), text.size(), dialect, stream);
      if (column >= table.num_fields()) throw std::runtime_error("column index out of range");
      fastpair::host_strings const parsed = table.columns[column].to_host(stream);

      // 2. Train + encode on the host, store as .fpc.
      fastpair::compressed_column const col = fastpair::compress(parsed, fastpair::codec::onpair16);
      fastpair::write_fpc(path, col);

      // 3. The file's bytes become the device column (checked on the GPU); decode and compare
      // with the parsed column.
      std::vector<std::uint8_t> const bytes = example::read_bytes(path);
      fastpair::device_column const dcol = fastpair::device_column::prepare_fpc_host(bytes.data(), bytes.size(), stream);
      fastpair::host_strings const decoded = fastpair::decompress(dcol, stream).to_host(stream);
      ok = decoded == parsed;
      std::printf("csv_pipeline: %zu bytes of CSV, %llu records x %zu fields parsed on the GPU; column %zu "
                  "('%s'): %zu bytes -> %llu bytes compressed (.fpc) -> GPU decode: %s\n",
                  text.size(), static_cast<unsigned long long>(table.num_records), table.num_fields(), column,
                  column < table.header.size() ? table.header[column].c_str() : "?", parsed.chars.size(),
                  static_cast<unsigned long long>(std::filesystem::file_size(path)),
                  ok ? "matches the parsed column" : "MISMATCH");
    }
    FASTPAIR_CUDA_TRY(cudaStreamDestroy(stream));
    std::filesystem::remove(path);
    return ok ? 0 : 1;
  } catch (std::exception const& e) {
    std::fprintf(stderr, "csv_pipeline: %s\n", e.what());
    return 1;
  }
}
