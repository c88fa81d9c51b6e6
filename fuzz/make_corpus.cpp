// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Writes the seed corpus of the .fpc fuzzer: small valid files of each codec (with and without a
// sidecar, empty column, empty rows, long tokens), each in version 1 (<name>.fpc) and version 2
// (<name>_v2.fpc), plus version-2 columns of equal row counts (count_bits 0), of rows without
// codes, and of 2 100 rows whose three blocks of row code counts have different widths (one of
// them 0). Usage: make_corpus <output folder>
#include <fastpair/io.hpp>

#include "../tests/utils/columns.hpp"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <output folder>\n", argv[0]);
    return 2;
  }
  using namespace fastpair;
  using testing::make_column;
  using testing::make_text_column;
  std::string const dir = argv[1];
  std::filesystem::create_directories(dir);
  std::vector<std::string> const rows = {"GET /index.html HTTP/1.1", "", "GET /a.png HTTP/1.1",
                                         "POST /login HTTP/1.1 user=alice", "x"};
  std::vector<std::string> const short_tok = {"GET ", "HTTP/1.1", " /", "in", "dex", ".html", "png"};
  std::vector<std::string> const long_tok  = {"GET /index.html ", "HTTP/1.1", "POST /login HTTP",
                                              "user=", "alice"};
  for (codec c : {codec::onpair16, codec::onpair12, codec::fsst12}) {
    std::string const n = codec_name(c);
    auto const& extra   = c == codec::fsst12 ? short_tok : long_tok;
    auto both = [&](std::string const& name, compressed_column const& col) {
      write_fpc(dir + "/" + n + "_" + name + ".fpc", col, fpc_version_1);
      write_fpc(dir + "/" + n + "_" + name + "_v2.fpc", col, fpc_version_2);
    };
    both("text", make_text_column(c, extra, rows, 4));
    both("nosidecar", make_text_column(c, extra, rows, 4, false));
    both("empty", make_column(c, {}, {}));
    both("emptyrows", make_column(c, {"ab"}, {{}, {256, 97}, {}}, 1));
    write_fpc(dir + "/" + n + "_equalrows_v2.fpc", make_column(c, {"ab"}, {{97, 98}, {256, 97}, {98, 98}}, 2));
    write_fpc(dir + "/" + n + "_nocodes_v2.fpc", make_column(c, {}, {{}, {}, {}}));
    std::vector<std::vector<std::uint16_t>> blocks(2100);  // counts 0..1, all 3, 2..9
    for (std::size_t r = 0; r < blocks.size(); ++r)
      blocks[r].assign(r < 1024 ? r % 2 : r < 2048 ? 3 : 2 + r % 8, static_cast<std::uint16_t>(97 + r % 3));
    write_fpc(dir + "/" + n + "_blocks_v2.fpc", make_column(c, {"ab"}, blocks, 64));
  }
  return 0;
}
