// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file fpc_checksums.hpp
 * @brief Recomputes the checksums of a (possibly corrupted) `.fpc` image in place, so that a test
 * or the fuzzer can change a field and still reach the checks that follow the checksums. Host only,
 * C++17 (the fuzz targets include it too). Shared by tests/host/io_test.cpp and fuzz/fpc_fuzz.cpp.
 */
#pragma once

#include <fastpair/io.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace fastpair::testing {

/** Version 2: the header checksum over [0, 88), then the fpc64p checksum of every section whose
 *  header and payload lie inside the image (walking the 16-byte aligned section chain). */
inline void fix_fpc_checksums_v2(std::vector<std::uint8_t>& b)
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

/** Either version, by the image's version field: version 1 has the header checksum over [0, 72)
 *  and an unaligned chain of sections, each with an fpc_checksum of its payload. */
inline void fix_fpc_checksums(std::vector<std::uint8_t>& b)
{
  using fastpair::detail::load_le64;
  using fastpair::detail::store_le64;
  if (b.size() >= 12 && fastpair::detail::load_le32(b.data() + 8) == fastpair::fpc_version_2)
    return fix_fpc_checksums_v2(b);
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

}  // namespace fastpair::testing
