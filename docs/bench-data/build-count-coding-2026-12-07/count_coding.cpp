// Scratch (build machine, no GPU): what other codings of the row code counts would cost, 16 MiB of each shared column.
// g++ -O2 -std=c++20 -Iinclude -Itests count_coding.cpp -lzstd; FASTPAIR_DATA_DIR=../shared/data ./a.out
#include <fastpair/encode.hpp>
#include <fastpair/io.hpp>
#include <utils/data.hpp>
#include <cmath>
#include <cstdio>
#include <map>
using namespace fastpair;
static int bits_for(std::uint64_t v) { int b = 0; while ((1ull << b) <= v) ++b; return b; }
int main() {
  std::printf("| column | codec | rows | paper MB | v2 over paper | budget (5%%) | fixed bits/row | per-1024-block bits/row | per-64-block bits/row | order-0 entropy bits/row | v2 with per-1024-block widths / paper | counts at their order-0 entropy / paper |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (auto const& name : testing::shared_columns()) {
    auto rows = testing::load_shared_column(name, 16u << 20);
    for (codec c : {codec::onpair16, codec::onpair12, codec::fsst12}) {
      auto col = compress(rows, c);
      if (col.sidecar.empty()) compute_sidecar(col);
      double paper = column_stored_size(col).paper(), v2 = fpc_file_bytes(col, 2);
      auto const& o = col.row_code_offsets;
      std::uint64_t R = o.size() - 1, mn = ~0ull, mx = 0;
      std::map<std::uint64_t, std::uint64_t> hist;
      for (std::uint64_t r = 0; r < R; ++r) { auto n = o[r + 1] - o[r]; mn = std::min(mn, n); mx = std::max(mx, n); ++hist[n]; }
      double H = 0; for (auto [k, v] : hist) { double p = double(v) / R; H -= p * std::log2(p); }
      auto block = [&](std::uint64_t B) {
        double bits = 0;
        for (std::uint64_t b = 0; b < R; b += B) {
          std::uint64_t lo = ~0ull, hi = 0, e = std::min(R, b + B);
          for (std::uint64_t r = b; r < e; ++r) { auto n = o[r + 1] - o[r]; lo = std::min(lo, n); hi = std::max(hi, n); }
          bits += double(bits_for(hi - lo)) * (e - b) + 16;  // + width and base: 2 bytes per block
        }
        return bits / R;
      };
      double const b1024 = block(1024);
      std::printf("| %s | %s | %llu | %.2f | %.3f | %.3f | %d | %.2f | %.2f | %.2f | %.3f | %.3f |\n", name.c_str(), codec_name(c),
                  (unsigned long long)R, paper / 1e6, v2 / paper, 1.05, bits_for(mx - mn), b1024, block(64), H,
                  (v2 - (bits_for(mx - mn) - b1024) * R / 8) / paper, 1.0 + H * R / 8 / paper);
      std::fflush(stdout);
    }
  }
}
