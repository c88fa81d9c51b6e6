// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file column_view.cuh
 * @brief What a kernel reads of a prepared column: `column_view<W>` (device_column::view<W>()),
 * the code stream reader (`code_stream`, `load_code`) and the bits of the device error word
 * (`decode_error_bits`). For custom kernels over a prepared column; the library's kernels take the
 * same view. Depends only on the CUDA runtime.
 */
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace fastpair {

/** @brief Bits of the device error word. */
enum decode_error_bits : std::uint32_t {
  code_out_of_range = 1u,  ///< a code was >= the dictionary size
  sidecar_mismatch  = 2u,  ///< a segment's decoded length disagreed with the sidecar
  /// a decode kernel ran on code of an architecture it was not built for (a library bug: the host
  /// picks kernels by detail::current_arch_bucket, the kernels compile their body for that bucket)
  kernel_not_built = 4u,
};

/**
 * @brief A non-owning, trivially copyable view of a column prepared for the GPU with low-plane
 * width W (see device_column). All pointers are device pointers.
 */
template <int W>
struct column_view {
  static constexpr int low_plane_bytes = W;
  /// The codes: u16 each (code_bits = 16), or packed 12 bits each as stored (code_bits = 12:
  /// code j in bits [12j, 12j + 12) of the little-endian byte stream; read them with load_code).
  std::uint16_t const* codes     = nullptr;
  std::uint8_t const* lo         = nullptr;  ///< [entries * W]
  std::uint8_t const* hi         = nullptr;  ///< [entries * (16 - W)], may be null if no token > W
  /// Entry lengths: token length - 1 of dictionary entry e in bits 4(e mod 2) .. +3 of byte e / 2
  /// (entries / 2 bytes; entry_nibble reads them). Not the per-code length stream (code_lengths)
  /// nor the rows' lengths (device_column::row_length_bytes).
  std::uint8_t const* entry_lengths = nullptr;
  std::uint64_t const* sidecar   = nullptr;  ///< [num_segments + 1]
  std::uint64_t num_codes        = 0;
  std::uint32_t num_tokens       = 0;  ///< codes >= num_tokens are corrupt
  std::uint32_t sidecar_stride   = 0;  ///< S, codes per segment
  std::uint32_t* error           = nullptr;  ///< device error word (decode_error_bits)
  /// Texture object over `lo` (one element = one W-byte entry), made by device_column::prepare;
  /// read by the configs with a texture gather_strategy.
  cudaTextureObject_t lo_tex = 0;
  /// The per-code length stream: token length - 1 of code i in bits 4(i mod 8) .. +3 of 32-bit
  /// word i / 8, zero-padded by 16 bytes; made by device_column::prepare (null if
  /// prepare_options::length_stream was false); read by gather_strategy::texture_low_streamed.
  std::uint8_t const* code_lengths = nullptr;
  /// The fused code stream of a dictionary of at most 4 096 entries: code i in bits 0..11 and its
  /// token length - 1 in bits 12..15 of word i; made by device_column::prepare for OnPair-12 and
  /// FSST-12 columns (null otherwise, or if prepare_options::fused_codes was false); read by
  /// gather_strategy::texture_low_fused.
  std::uint16_t const* code_words = nullptr;
  /// Bits of a `code_words` word that hold the code; the rest hold the length - 1: 12 for the
  /// fused stream of a 12-bit column, 13 for its split stream (device_column::split_view).
  std::uint32_t fused_code_bits = 12;
  std::uint32_t code_bits       = 16;  ///< how `codes` is stored: 16 (u16) or 12 (packed)

  /// Token length - 1 (0..15) of dictionary entry `e` (< the plane's entries), from entry_lengths.
  __device__ __forceinline__ std::uint32_t entry_nibble(std::uint32_t e) const
  {
    return (__ldg(entry_lengths + (e >> 1)) >> ((e & 1u) * 4)) & 0xFu;
  }

  __host__ __device__ std::uint64_t num_segments() const
  {
    return (num_codes + sidecar_stride - 1) / sidecar_stride;
  }
};

/** @brief Code i of a stream stored as u16 (bits = 16) or packed 12-bit (bits = 12): what every
 *  kernel that reads single codes goes through (the vector loads of the words emitter are in
 *  load_consecutive_codes). */
struct code_stream {
  std::uint16_t const* codes = nullptr;
  std::uint32_t bits         = 16;
  __device__ __forceinline__ std::uint32_t operator[](std::uint64_t i) const
  {
    if (bits == 12) {
      auto const* p          = reinterpret_cast<std::uint8_t const*>(codes) + i + (i >> 1);  // byte 1.5 i
      std::uint32_t const v  = __ldg(p) | std::uint32_t{__ldg(p + 1)} << 8;
      return (i & 1u) ? v >> 4 : v & 0xFFFu;
    }
    return __ldg(codes + i);
  }
};

/** @brief Code i of the column (load_code(col, i) == code_stream{col.codes, col.code_bits}[i]). */
template <int W>
__device__ __forceinline__ std::uint32_t load_code(column_view<W> const& col, std::uint64_t i)
{
  return code_stream{col.codes, col.code_bits}[i];
}

}  // namespace fastpair
