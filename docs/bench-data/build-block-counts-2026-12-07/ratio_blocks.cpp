// Scratch: the version-2 file against dictionary + codes + sidecar (column_stored_size().paper()),
// with the row code counts as this commit stores them (in blocks of 1 024 rows with a directory
// where that is smaller) and, for comparison, in one width for the column (the format before it:
// the same file, section 4 = ceil(R x count_bits / 8) bytes). First 16 MiB of each shared column,
// every codec. Build from the repository root:
//   g++ -std=c++20 -O2 -Iinclude -Itests docs/bench-data/build-block-counts-2026-12-07/ratio_blocks.cpp -lzstd
//   FASTPAIR_DATA_DIR=../shared/data ./a.out
#include <fastpair/encode.hpp>
#include <fastpair/io.hpp>
#include <utils/data.hpp>

#include <cstdio>

using namespace fastpair;
int main()
{
  std::printf("| column | codec | rows | paper MB | counts B, one width | counts B, stored | directory | bits/row, stored | file / paper, one width | file / paper, stored | within 5 %% |\n");
  std::printf("|---|---|---:|---:|---:|---:|---|---:|---:|---:|---|\n");
  int met = 0, cells = 0;
  for (auto const& name : testing::shared_columns()) {
    auto rows = testing::load_shared_column(name, 16u << 20);
    for (codec c : {codec::onpair16, codec::onpair12, codec::fsst12}) {
      auto col = compress(rows, c);
      if (col.sidecar.empty()) compute_sidecar(col);
      double const paper = double(column_stored_size(col).paper());
      auto const counts  = detail::fpc2_counts_of(col);
      std::uint64_t sizes[6];
      detail::fpc2_section_sizes(col, counts, sizes);
      std::uint64_t const blocks = detail::fpc2::make_layout(sizes).file_bytes;
      sizes[4]                   = detail::fpc2::count_bytes(col.num_rows(), counts.bits);
      std::uint64_t const flat   = detail::fpc2::make_layout(sizes).file_bytes;
      bool const ok = blocks / paper <= 1.05;
      met += ok, ++cells;
      std::printf("| %s | %s | %zu | %.2f | %llu | %zu | %s | %.2f | %.3f | %.3f | %s |\n", name.c_str(), codec_name(c),
                  col.num_rows(), paper / 1e6, (unsigned long long)sizes[4], counts.bytes.size(), counts.directory ? "yes" : "no",
                  8.0 * counts.bytes.size() / col.num_rows(), flat / paper, blocks / paper, ok ? "yes" : "no");
      std::fflush(stdout);
      if (blocks != fpc_file_bytes(col)) std::printf("MISMATCH fpc_file_bytes\n");
    }
  }
  std::printf("\nwithin 5 %%: %d of %d cells\n", met, cells);
}
