// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Writes the seed corpus of the .fpc fuzzer: small valid files of each codec (with and without a
// sidecar, empty column, empty rows, long tokens). Usage: make_corpus <output folder>
#include <fastpair/io.hpp>

#include "../tests/utils/columns.hpp"

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
    write_fpc(dir + "/" + n + "_text.fpc", make_text_column(c, extra, rows, 4));
    write_fpc(dir + "/" + n + "_nosidecar.fpc", make_text_column(c, extra, rows, 4, false));
    write_fpc(dir + "/" + n + "_empty.fpc", make_column(c, {}, {}));
    write_fpc(dir + "/" + n + "_emptyrows.fpc", make_column(c, {"ab"}, {{}, {256, 97}, {}}, 1));
  }
  return 0;
}
