// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// GPU output checks: a poisoned device string column with guard bytes around it (no write may
// leave the window) and an optional misaligned start, compared byte for byte with the CPU
// reference; check_decode runs decode_column into one.
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
 * A device string column for a GPU writer to fill, poisoned so that require_equal() sees every
 * byte it wrote: `chars_poison` in the chars and in `guard` bytes either side of them (the chars
 * start `misalign` bytes past a 256-byte boundary), `offsets_poison` in every offset byte and in
 * `offset_guards` slots either side of the offsets.
 */
template <class OffsetT>
class guarded_output {
 public:
  guarded_output(std::uint64_t rows, std::uint64_t bytes, unsigned misalign, cudaStream_t stream,
                 unsigned char chars_poison = poison, unsigned char offsets_poison = 0xFF,
                 std::size_t offset_guards = 0)
    : rows_(rows),
      bytes_(bytes),
      begin_(guard + misalign),
      chars_poison_(chars_poison),
      offsets_poison_(offsets_poison),
      offset_guards_(offset_guards),
      raw_(guard + misalign + bytes + guard, stream),
      offsets_(rows + 1 + 2 * offset_guards, stream)
  {
    FASTPAIR_CUDA_TRY(cudaMemsetAsync(raw_.data(), chars_poison, raw_.size(), stream));
    FASTPAIR_CUDA_TRY(cudaMemsetAsync(offsets_.data(), offsets_poison, offsets_.size() * sizeof(OffsetT), stream));
  }

  /** The output window: rows offsets (+1) and `bytes` chars. */
  string_column_view<OffsetT> view() noexcept
  {
    return {offsets_.data() + offset_guards_, reinterpret_cast<char*>(raw_.data() + begin_), rows_, bytes_};
  }

  /**
   * Copies the buffers back (synchronizes `stream`) and REQUIREs offsets and chars equal to
   * `expect`, and every guard byte and guard offset still poisoned. `offsets_written` false: a
   * decode without offsets (null out.offsets); every offset must still be poisoned.
   */
  void require_equal(host_strings const& expect, cudaStream_t stream, bool offsets_written = true) const
  {
    std::vector<unsigned char> h;
    std::vector<OffsetT> ho;
    download_and_check_guards(h, ho, stream);
    REQUIRE(rows_ + 1 == expect.offsets.size());
    REQUIRE(bytes_ == expect.chars.size());
    OffsetT const guard_offset = poisoned_offset();
    for (std::size_t i = 0; i < expect.offsets.size(); ++i)
      if (!offsets_written) {
        if (ho[offset_guards_ + i] != guard_offset) FAIL("offset " << i << " written by a decode without offsets");
      } else if (static_cast<std::uint64_t>(ho[offset_guards_ + i]) != expect.offsets[i])
        FAIL("offset " << i << ": " << ho[offset_guards_ + i] << " != " << expect.offsets[i]);
    if (bytes_ && std::memcmp(h.data() + begin_, expect.chars.data(), bytes_) != 0) {
      std::size_t i = 0;
      while (h[begin_ + i] == static_cast<unsigned char>(expect.chars[i])) ++i;
      FAIL("chars differ first at byte " << i << " of " << bytes_);
    }
    SUCCEED();
  }

  /** Copies the buffers back (synchronizes `stream`) and REQUIREs every guard byte and guard
   *  offset still poisoned, whatever the window holds (a refused input). */
  void require_guards_intact(cudaStream_t stream) const
  {
    std::vector<unsigned char> h;
    std::vector<OffsetT> ho;
    download_and_check_guards(h, ho, stream);
    SUCCEED();
  }

 private:
  OffsetT poisoned_offset() const
  {
    OffsetT o;
    std::memset(&o, offsets_poison_, sizeof o);
    return o;
  }
  void download_and_check_guards(std::vector<unsigned char>& h, std::vector<OffsetT>& ho, cudaStream_t stream) const
  {
    h.resize(raw_.size());
    ho.resize(offsets_.size());
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(h.data(), raw_.data(), h.size(), cudaMemcpyDeviceToHost, stream));
    FASTPAIR_CUDA_TRY(
      cudaMemcpyAsync(ho.data(), offsets_.data(), ho.size() * sizeof(OffsetT), cudaMemcpyDeviceToHost, stream));
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(stream));
    OffsetT const guard_offset = poisoned_offset();
    for (std::size_t i = 0; i < offset_guards_; ++i) {
      REQUIRE(ho[i] == guard_offset);
      REQUIRE(ho[ho.size() - 1 - i] == guard_offset);
    }
    for (std::size_t i = 0; i < begin_; ++i)
      if (h[i] != chars_poison_) FAIL("write before the output window at " << i);
    for (std::size_t i = begin_ + bytes_; i < h.size(); ++i)
      if (h[i] != chars_poison_) FAIL("write after the output window at +" << i - (begin_ + bytes_));
  }

  std::uint64_t rows_, bytes_;
  std::size_t begin_;
  unsigned char chars_poison_, offsets_poison_;
  std::size_t offset_guards_;
  device_buffer<unsigned char> raw_;
  device_buffer<OffsetT> offsets_;
};

/**
 * Decodes rows [r0, r1) of `dcol` with Config (auto_config for the default) into a guarded_output
 * whose chars start `misalign` bytes past a 256-byte boundary (and whose offsets have 4 guard
 * entries on each side), then REQUIREs no error bit set, offsets and chars equal to `expect` (the
 * CPU reference of the same rows) and guard bytes and offsets intact.
 */
template <class Config, class OffsetT = std::int64_t>
void check_decode(device_column const& dcol, host_strings const& expect, std::uint64_t r0, std::uint64_t r1,
                  unsigned misalign = 0, cudaStream_t stream = nullptr)
{
  guarded_output<OffsetT> out(r1 - r0, expect.chars.size(), misalign, stream, poison, 0xFF, 4);
  decode_column<Config>(dcol, r0, r1, out.view(), stream);
  REQUIRE(dcol.read_and_clear_errors(stream) == 0);
  out.require_equal(expect, stream);
}

}  // namespace fastpair::testing
