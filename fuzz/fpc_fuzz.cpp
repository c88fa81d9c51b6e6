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
// Each also has its row code counts read as the GPU kernels read them before any check (version 2).
#include <fastpair/io.hpp>
#include <fastpair/planes.hpp>
#include <fastpair/reference.hpp>

#include "../tests/utils/fpc_checksums.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

// The header and section checksums recomputed in place (both versions).
using fastpair::testing::fix_fpc_checksums;

// What the GPU kernels may do before an image's counts are checked: read row code counts through
// fpc2::block_counts over section 4 as a device column holds it (size / 8 + 2 words, zero-padded),
// whatever its directory says, and check each directory entry. Under the fuzzer's
// AddressSanitizer, any read outside those words is a finding.
void read_counts_as_the_gpu_does(std::uint8_t const* data, std::size_t size)
{
  namespace fpc2 = fastpair::detail::fpc2;
  fastpair::fpc_header h;
  try {
    h = fastpair::parse_fpc_header(data, size);
  } catch (fastpair::format_error const&) {
    return;
  }
  if (h.version != fastpair::fpc_version_2) return;
  std::uint64_t const n = h.layout.size[fpc2::row_code_counts], at = h.layout.payload_at[fpc2::row_code_counts];
  if (at > size || n > size - at) return;  // the GPU path uploads only images of the header's size
  std::vector<std::uint64_t> words(static_cast<std::size_t>(n / 8 + 2), 0);
  if (n) std::memcpy(words.data(), data + at, static_cast<std::size_t>(n));
  fpc2::block_counts const v{words.data(), n,
                             h.count_directory ? fpc2::count_directory_bytes(h.n_rows, h.count_bits) / 16 : 0,
                             h.count_base, h.count_bits};
  std::uint64_t const R = h.n_rows, first = std::min<std::uint64_t>(R, 1u << 14);
  std::uint64_t sum = 0;  // bounded work per input: the first rows and the last ones
  for (std::uint64_t r = 0; r < first; ++r) sum += v.count(r);
  for (std::uint64_t r = R - std::min<std::uint64_t>(R - first, 1u << 12); r < R; ++r) sum += v.count(r);
  // The directory's check, as block_code_sums_kernel runs it: every entry, whatever the others say.
  for (std::uint64_t k = 0; k < std::min<std::uint64_t>(v.blocks, 1u << 12); ++k) sum += v.entry_problem(k, R);
  if (sum == 0x5eed5eed5eed5eedull) std::fputc(' ', stderr);  // keeps the reads
}

void check_one(std::uint8_t const* data, std::size_t size)
{
  read_counts_as_the_gpu_does(data, size);
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
