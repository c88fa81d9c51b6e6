// Scratch: .fpc v1 / v2 file sizes against dictionary + codes + sidecar, 16 MiB of each shared column.
#include <fastpair/encode.hpp>
#include <fastpair/io.hpp>
#include <utils/data.hpp>
#include <cstdio>
using namespace fastpair;
int main() {
  std::printf("| column | codec | decoded MB | dict+codes+sidecar MB | v2 file MB | v2 / paper | v1 file MB | ratio v2 | ratio v1 |\n|---|---|---|---|---|---|---|---|---|\n");
  for (auto const& name : testing::shared_columns()) {
    auto rows = testing::load_shared_column(name, 16u << 20);
    for (codec c : {codec::onpair16, codec::onpair12, codec::fsst12}) {
      auto col = compress(rows, c);
      if (col.sidecar.empty()) compute_sidecar(col);
      auto s = column_stored_size(col);
      double v2 = fpc_file_bytes(col, 2), v1 = fpc_file_bytes(col, 1), dec = col.decoded_bytes();
      std::printf("| %s | %s | %.2f | %.2f | %.2f | %.3f | %.2f | %.2f | %.2f |\n", name.c_str(), codec_name(c), dec / 1e6,
                  s.paper() / 1e6, v2 / 1e6, v2 / s.paper(), v1 / 1e6, dec / v2, dec / v1);
      std::fflush(stdout);
    }
  }
}
