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

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

// Version 2: the header checksum over [0, 88), then the fpc64p checksum of every section whose
// header and payload lie inside the input (walking the 16-byte aligned section chain).
void fix_checksums_v2(std::vector<std::uint8_t>& b)
{
  namespace fpc2 = fastpair::detail::fpc2;
  using fastpair::detail::load_le64;
  using fastpair::detail::store_le64;
  if (b.size() < fpc2::header_bytes) return;
  store_le64(b.data() + fpc2::at::checksum, fastpair::fpc_checksum(b.data(), fpc2::at::checksum));
  std::size_t pos = fpc2::header_bytes;
  while (pos <= b.size() && b.size() - pos >= fpc2::section_header_bytes) {
    std::uint64_t const sz = load_le64(b.data() + pos + 8);
    std::size_t const body = pos + fpc2::section_header_bytes;
    if (sz > b.size() - body) return;
    store_le64(b.data() + pos + 16, fpc2::section_checksum(b.data() + body, sz));
    pos = static_cast<std::size_t>(fpc2::align_up(body + sz));
  }
}

// Rewrites the header checksum and the checksum of every section whose header and payload lie
// inside the input (walking the section chain as the reader does), by the input's version field.
void fix_checksums(std::vector<std::uint8_t>& b)
{
  using fastpair::detail::load_le64;
  using fastpair::detail::store_le64;
  if (b.size() >= 12 && fastpair::detail::load_le32(b.data() + 8) == fastpair::fpc_version_2)
    return fix_checksums_v2(b);
  if (b.size() < fastpair::fpc_header_bytes) return;
  store_le64(b.data() + 72, fastpair::fpc_checksum(b.data(), 72));
  std::size_t pos = fastpair::fpc_header_bytes;
  while (b.size() - pos >= fastpair::fpc_section_header_bytes) {
    std::uint64_t const sz = load_le64(b.data() + pos + 8);
    std::size_t const body = pos + fastpair::fpc_section_header_bytes;
    if (sz > b.size() - body) return;
    store_le64(b.data() + pos + 16, fastpair::fpc_checksum(b.data() + body, sz));
    pos = body + sz;
  }
}

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
  fix_checksums(fixed);
  if (fixed.size() != size || (size && std::memcmp(fixed.data(), data, size) != 0))
    check_one(fixed.data(), fixed.size());
  return 0;
}
