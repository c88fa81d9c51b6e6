// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Host launch layer (CUB's dispatch layer, scaled down): grid size, shared memory, launch.
// Returns cudaError_t so it can be used inside graph capture and noexcept paths.
#pragma once

#include <fastpair/config.cuh>
#include <fastpair/detail/cuda.cuh>
#include <fastpair/detail/kernels/decode_kernel.cuh>
#include <fastpair/detail/kernels/row_offsets_kernel.cuh>
#include <fastpair/detail/warp_decode.cuh>

#include <cuda/stream_ref>

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace fastpair::detail {

/** Dynamic shared memory of one block of Config. */
template <class Config>
constexpr int block_smem_bytes()
{
  return warp_smem<Config>::bytes * Config::warps_per_block;
}

/**
 * Blocks of `kernel` (decode_kernel<Config, W, ArchTag>) that fit on the current device at once
 * (occupancy x SMs), cached per device.
 * The first call on a device also raises the kernel's dynamic shared-memory limit there when it
 * needs more than 48 KiB. Host calls only: no synchronisation, allowed during stream capture.
 */
template <class Config, int ArchTag, class Kernel>
cudaError_t resident_blocks(Kernel kernel, int smem, int& out) noexcept
{
  static std::atomic<int> cache[64] = {};
  int dev = 0;
  if (cudaError_t e = cudaGetDevice(&dev); e != cudaSuccess) return e;
  if (dev < 64 && (out = cache[dev].load(std::memory_order_relaxed)) > 0) return cudaSuccess;
  if (smem > 48 * 1024)
    if (cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem); e != cudaSuccess)
      return e;
  int per_sm = 0, sms = 0;
  if (cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, Config::threads_per_block, smem);
      e != cudaSuccess)
    return e;
  if (cudaError_t e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev); e != cudaSuccess) return e;
  out = std::max(1, per_sm * sms);
  if (dev < 64) cache[dev].store(out, std::memory_order_relaxed);
  return cudaSuccess;
}

/**
 * Launches the decode kernel over the segments that hold codes [c0, c1), writing the decoded
 * positions [window_begin, window_begin + capacity) to out[0, capacity). `launched` (if given)
 * says whether a kernel went onto the stream (none for an empty code range). `ArchTag`: any_arch
 * (a kernel built for every architecture), or the tuning bucket of an automatic config.
 */
template <class Config, int ArchTag = any_arch, int W>
cudaError_t launch_decode(column_view<W> const& col, std::uint64_t c0, std::uint64_t c1, unsigned char* out,
                          std::uint64_t window_begin, std::uint64_t capacity, cuda::stream_ref stream,
                          bool* launched = nullptr) noexcept
{
  static_assert(Config::low_plane_bytes == W, "config W must match the column view's W");
  if (launched != nullptr) *launched = false;
  if (c1 <= c0) return cudaSuccess;
  // Texture gathers need the view's texture objects, streamed lengths its length stream, fused
  // codes its fused code stream; the short-token emit a column without tokens over 8 bytes.
  constexpr gather_strategy G = Config::gather;
  if ((G != gather_strategy::global && col.lo_tex == 0) || (G == gather_strategy::texture && col.lengths_tex == 0) ||
      (Config::streams_lengths && col.code_lengths == nullptr) || (Config::fused_codes && col.code_words == nullptr) ||
      (!Config::fused_codes && col.codes == nullptr))  // a split view has fused codes only
    return cudaErrorInvalidResourceHandle;
  if (Config::short_tokens && col.hi != nullptr) return cudaErrorInvalidValue;
  std::uint64_t const s0 = c0 / col.sidecar_stride;
  std::uint64_t const s1 = (c1 + col.sidecar_stride - 1) / col.sidecar_stride;
  std::uint64_t const blocks = (s1 - s0 + Config::warps_per_block - 1) / Config::warps_per_block;
  constexpr int smem = block_smem_bytes<Config>();
  auto kernel        = decode_kernel<Config, W, ArchTag>;
  int resident       = 0;
  if (cudaError_t e = resident_blocks<Config, ArchTag>(kernel, smem, resident); e != cudaSuccess) return e;
  std::uint64_t const grid = std::min<std::uint64_t>(blocks, static_cast<std::uint64_t>(resident));
  kernel<<<static_cast<unsigned>(grid), Config::threads_per_block, smem, stream.get()>>>(
    col, s0, s1, out, window_begin, capacity);
  cudaError_t const e = cudaGetLastError();
  if (launched != nullptr) *launched = e == cudaSuccess;
  return e;
}

/**
 * Launches an offsets pass (a kernel that ends with wait_for_primary_grid). `beside_decode`: the
 * decode kernel was the last launch on `stream`; the pass needs nothing from it, so on sm_90+ it
 * is launched with programmatic stream serialization and fills SMs beside the decode instead of
 * waiting for it (+0.5 … +10.8 % with int64 offsets, H200, docs/notes/decoder-history-2026-11.md "Issue 7: the
 * offsets pass beside the decode"). Its block 0 waits for the decode before the pass ends, so work
 * after it on the stream still sees the decode done. Kernel code older than sm_90 (no trigger, no
 * wait) gets a plain launch; which code the device runs is looked up once per device and kernel.
 */
template <class... Params, class... Args>
cudaError_t launch_offsets_pass(void (*kernel)(Params...), unsigned blocks, unsigned threads, bool beside_decode,
                                cuda::stream_ref stream, Args... args) noexcept
{
  cudaLaunchAttribute attr{};
  attr.id                                         = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t cfg{};
  cfg.gridDim  = dim3(blocks);
  cfg.blockDim = dim3(threads);
  cfg.stream   = stream.get();
  cfg.attrs    = &attr;
  cfg.numAttrs = 0;
  if (beside_decode) {
    static std::atomic<int> sm90_code[64] = {};  // per device: 0 unknown, 1 no, 2 yes
    int dev = 0;
    if (cudaError_t e = cudaGetDevice(&dev); e != cudaSuccess) return e;
    int known = dev < 64 ? sm90_code[dev].load(std::memory_order_relaxed) : 0;
    if (known == 0) {
      cudaFuncAttributes fa{};
      if (cudaError_t e = cudaFuncGetAttributes(&fa, kernel); e != cudaSuccess) return e;
      known = fa.binaryVersion >= 90 ? 2 : 1;
      if (dev < 64) sm90_code[dev].store(known, std::memory_order_relaxed);
    }
    if (known == 2) cfg.numAttrs = 1;
  }
  return cudaLaunchKernelEx(&cfg, kernel, static_cast<Params>(args)...);
}

/** Writes out[i] = row_byte_offsets[i] - row_byte_offsets[0] for i < n (launch_offsets_pass). */
template <class OffsetT>
cudaError_t launch_copy_offsets(std::uint64_t const* row_byte_offsets, std::uint64_t n, OffsetT* out,
                                bool beside_decode, cuda::stream_ref stream) noexcept
{
  if (n == 0) return cudaSuccess;
  unsigned const blocks = static_cast<unsigned>(std::min<std::uint64_t>((n + 255) / 256, 65535));
  return launch_offsets_pass(copy_offsets_kernel<OffsetT>, blocks, 256, beside_decode, stream, row_byte_offsets, n,
                             out);
}

/** Writes the offsets of rows [row_begin, row_end] minus b0 (row_end - row_begin + 1 entries)
 *  from the codes (row_offsets_kernel.cuh; launch_offsets_pass). */
template <class OffsetT, int W>
cudaError_t launch_row_offsets_from_codes(column_view<W> const& col, row_counts_view counts,
                                          std::uint64_t const* block_codes, std::uint64_t const* block_bytes,
                                          std::uint64_t row_begin, std::uint64_t row_end, std::uint64_t b0,
                                          std::uint64_t total, OffsetT* out, bool beside_decode,
                                          cuda::stream_ref stream) noexcept
{
  auto const blocks = static_cast<unsigned>(row_end / row_block_rows - row_begin / row_block_rows + 1);
  return launch_offsets_pass(row_offsets_from_codes_kernel<OffsetT, W>, blocks, 256, beside_decode, stream, col, counts,
                             block_codes, block_bytes, row_begin, row_end, b0, total, out);
}

/** The same offsets from the compact row lengths (`length_bytes` = 1 or 2 per row). */
template <class OffsetT>
cudaError_t launch_row_offsets_from_lengths(void const* lengths, int length_bytes, std::uint64_t num_rows,
                                            std::uint64_t const* block_bytes, std::uint64_t row_begin,
                                            std::uint64_t row_end, std::uint64_t b0, std::uint64_t total, OffsetT* out,
                                            bool beside_decode, cuda::stream_ref stream) noexcept
{
  auto const blocks = static_cast<unsigned>(row_end / row_block_rows - row_begin / row_block_rows + 1);
  if (length_bytes == 1)
    return launch_offsets_pass(row_offsets_from_lengths_kernel<std::uint8_t, OffsetT>, blocks, 256, beside_decode,
                               stream, static_cast<std::uint8_t const*>(lengths), num_rows, block_bytes, row_begin,
                               row_end, b0, total, out);
  return launch_offsets_pass(row_offsets_from_lengths_kernel<std::uint16_t, OffsetT>, blocks, 256, beside_decode,
                             stream, static_cast<std::uint16_t const*>(lengths), num_rows, block_bytes, row_begin,
                             row_end, b0, total, out);
}

}  // namespace fastpair::detail
