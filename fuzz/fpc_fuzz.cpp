// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the untrusted-input path: .fpc reader -> validator -> CPU reference decoder
// -> GPU table preparation, for both versions of the format (1 and 2). Any input must either throw
// fastpair::format_error or yield a column that decodes, builds its planes and re-serialises, in
// the input's version, to exactly the input bytes. Anything else (a crash, a sanitizer report,
// another exception, a mismatch) is a finding.
//
// Every input is tried twice: as is, and with its header and section checksums recomputed, so that
// mutations also get past the checksums and reach the size checks, the validator and the decoder.
#include <fastpair/io.hpp>
#include <fastpair/planes.hpp>
#include <fastpair/reference.hpp>

#include "../tests/utils/fpc_checksums.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

// The header and section checksums recomputed in place (both versions).
using fastpair::testing::fix_fpc_checksums;

void check_one(std::uint8_t const* data, std::size_t size)
{
  fastpair::compressed_column col;
  try {
    col = fastpair::deserialize(data, size);
  } catch (fastpair::format_error const&) {
    return;  // rejected: the expected outcome for almost every input
  }
  // Accepted: everything downstream must work without throwing.
  fastpair::host_strings const all = fastpair::decode_reference(col, 0, col.num_rows(), false);
  if (all.num_rows() != col.num_rows() || all.chars.size() != col.decoded_bytes()) std::abort();
  if (col.num_rows() > 0) {
    std::uint64_t const mid = col.num_rows() / 2;
    fastpair::host_strings const part = fastpair::decode_reference(col, mid, col.num_rows());
    if (part.chars.size() != col.decoded_bytes() - col.row_byte_offsets[mid]) std::abort();
    if (!part.chars.empty() &&
        std::memcmp(part.chars.data(), all.chars.data() + col.row_byte_offsets[mid],
                    part.chars.size()) != 0)
      std::abort();
  }
  for (int w : {8, 16}) {
    fastpair::dictionary_planes const p = fastpair::build_planes(col.kind, col.dict, w);
    if (p.entries != fastpair::code_space(col.kind)) std::abort();
  }
  (void)fastpair::token_length_histogram(col);
  // Accepted, so the version field is 1 or 2: the image is written again in that version.
  std::uint32_t const version = fastpair::detail::load_le32(data + 8);
  if (fastpair::fpc_file_bytes(col, version) != size) std::abort();
  std::vector<std::uint8_t> const again = fastpair::serialize(col, version);
  if (again.size() != size || std::memcmp(again.data(), data, size) != 0) {
    std::fprintf(stderr, "re-serialised bytes differ from an accepted input\n");
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)
{
  check_one(data, size);
  std::vector<std::uint8_t> fixed(data, data + size);
  fix_fpc_checksums(fixed);
  if (fixed.size() != size || (size && std::memcmp(fixed.data(), data, size) != 0))
    check_one(fixed.data(), fixed.size());
  return 0;
}
