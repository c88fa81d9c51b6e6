// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Decode on the GPU and compare byte for byte with the CPU reference decoder, with a poisoned
// output, guard bytes around it (no write may leave the window) and an optional misaligned start.
#pragma once

#include <fastpair/fastpair.cuh>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace fastpair::testing {

constexpr unsigned char poison = 0xA5;
constexpr std::size_t guard    = 64;

/**
 * Decodes rows [r0, r1) of `dcol` with Config (auto_config for the default) into a poisoned buffer
 * whose chars start `misalign` bytes past a 256-byte boundary, then REQUIREs offsets and chars equal
 * to `expect` (the CPU reference of the same rows), guard bytes intact and no error bit set.
 */
template <class Config, class OffsetT = std::int64_t>
void check_decode(device_column const& dcol, host_strings const& expect, std::uint64_t r0, std::uint64_t r1,
                  unsigned misalign = 0, cudaStream_t stream = nullptr)
{
  std::uint64_t const bytes = expect.chars.size();
  std::size_t const total   = guard + misalign + bytes + guard;
  device_buffer<unsigned char> raw(total, stream);
  device_buffer<OffsetT> offsets(r1 - r0 + 1, stream);
  FASTPAIR_CUDA_TRY(cudaMemsetAsync(raw.data(), poison, total, stream));
  FASTPAIR_CUDA_TRY(cudaMemsetAsync(offsets.data(), 0xFF, offsets.size() * sizeof(OffsetT), stream));
  string_column_view<OffsetT> out{offsets.data(), reinterpret_cast<char*>(raw.data() + guard + misalign), r1 - r0, bytes};
  decode_column<Config>(dcol, r0, r1, out, stream);
  std::vector<unsigned char> h(total);
  std::vector<OffsetT> ho(offsets.size());
  FASTPAIR_CUDA_TRY(cudaMemcpyAsync(h.data(), raw.data(), total, cudaMemcpyDeviceToHost, stream));
  FASTPAIR_CUDA_TRY(cudaMemcpyAsync(ho.data(), offsets.data(), ho.size() * sizeof(OffsetT), cudaMemcpyDeviceToHost, stream));
  std::uint32_t const errors = dcol.read_and_clear_errors(stream);
  REQUIRE(errors == 0);
  REQUIRE(ho.size() == expect.offsets.size());
  for (std::size_t i = 0; i < ho.size(); ++i)
    if (static_cast<std::uint64_t>(ho[i]) != expect.offsets[i]) FAIL("offset " << i << ": " << ho[i] << " != " << expect.offsets[i]);
  for (std::size_t i = 0; i < guard + misalign; ++i)
    if (h[i] != poison) FAIL("write before the output window at " << i);
  for (std::size_t i = guard + misalign + bytes; i < total; ++i)
    if (h[i] != poison) FAIL("write after the output window at +" << i - (guard + misalign + bytes));
  if (bytes && std::memcmp(h.data() + guard + misalign, expect.chars.data(), bytes) != 0) {
    std::size_t i = 0;
    while (h[guard + misalign + i] == static_cast<unsigned char>(expect.chars[i])) ++i;
    FAIL("chars differ first at byte " << i << " of " << bytes);
  }
  SUCCEED();
}

}  // namespace fastpair::testing
