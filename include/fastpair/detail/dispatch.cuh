// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Host launch layer (CUB's dispatch layer, scaled down): the one check of what a decode config
// reads, grid size, shared memory, launch. The choice of the config (automatic or explicit) is
// tuning.cuh's; everything that decodes a column launches through launch_decode.
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
 * Blocks of `kernel` (decode_kernel<Config, ArchTag>) that fit on the current device at once
 * (occupancy x SMs), cached per device.
 * The first call on a device also raises the kernel's dynamic shared-memory limit there when it
 * needs more than 48 KiB. Host calls only: no synchronisation, allowed during stream capture.
 */
template <class Config, int ArchTag, bool WritesRows, class Kernel>
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
 * What Config reads that the view `v` lacks, or nullptr: the one check of a decode's
 * requirements. Texture gathers need the low plane's texture object, streamed lengths the
 * per-code length stream, fused codes the fused code stream, the others the codes (a split-stream
 * view has fused codes only); the short-token emit a view without a high plane (no token over
 * 8 bytes).
 */
template <class Config>
char const* missing_for(config_view<Config> const& v) noexcept
{
  if (Config::gather != gather_strategy::global && v.lo_tex == 0)
    return "reads the low plane through a texture object, which the view does not have";
  if (Config::streams_lengths && v.code_lengths == nullptr)
    return "reads the per-code length stream; the column was prepared without it (prepare_options::length_stream)";
  if (Config::fused_codes && v.code_words == nullptr)
    return "reads fused codes, which only OnPair-12 and FSST-12 columns have (prepare_options::fused_codes)";
  if (!Config::fused_codes && v.codes == nullptr) return "reads the codes, which a split-stream view does not have";
  if (Config::short_tokens && v.hi != nullptr)
    return "(register_words_short) decodes only columns without tokens of more than 8 bytes (FSST-12)";
  return nullptr;
}

/**
 * Launches the decode kernel over the segments that hold codes [c0, c1) of `v`, writing the
 * decoded positions [window_begin, window_begin + capacity) to out[0, capacity). `launched` (if
 * given) says whether a kernel went onto the stream (none for an empty code range). `ArchTag`:
 * any_arch (a kernel built for every architecture), or the tuning bucket of an automatic config.
 * `WritesRows` (register_words configs only): the kernel also writes the offsets of `rows`.
 * Host calls only: no synchronisation, allowed during stream capture.
 * @throw logic_error naming what Config reads that `v` lacks (missing_for); cuda_error
 */
template <class Config, int ArchTag = any_arch, bool WritesRows = false>
void launch_decode(config_view<Config> const& v, std::uint64_t c0, std::uint64_t c1, unsigned char* out,
                   std::uint64_t window_begin, std::uint64_t capacity, cuda::stream_ref stream,
                   bool* launched = nullptr, row_sink const& rows = {})
{
  static_assert(!WritesRows || Config::emits_words, "only a register_words emit writes row offsets");
  if (launched != nullptr) *launched = false;
  if (char const* m = missing_for<Config>(v)) throw logic_error("fastpair: config " + config_name<Config>() + " " + m);
  if (c1 <= c0) return;
  std::uint64_t const s0     = c0 / v.sidecar_stride;
  std::uint64_t const s1     = (c1 + v.sidecar_stride - 1) / v.sidecar_stride;
  std::uint64_t const blocks = (s1 - s0 + Config::warps_per_block - 1) / Config::warps_per_block;
  constexpr int smem         = block_smem_bytes<Config>();
  auto kernel                = decode_kernel<Config, ArchTag, WritesRows>;
  int resident               = 0;
  FASTPAIR_CUDA_TRY((resident_blocks<Config, ArchTag, WritesRows>(kernel, smem, resident)));
  std::uint64_t const grid = std::min<std::uint64_t>(blocks, static_cast<std::uint64_t>(resident));
  kernel<<<static_cast<unsigned>(grid), Config::threads_per_block, smem, stream.get()>>>(v, s0, s1, out, window_begin,
                                                                                         capacity, rows);
  FASTPAIR_CUDA_TRY(cudaGetLastError());
  if (launched != nullptr) *launched = true;
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

/** segment_rows[0 .. nseg] of a column of `counts.num_rows` (> 0) rows and `num_codes` codes in
 *  segments of `stride` (segment_rows_kernel). */
inline cudaError_t launch_segment_rows(row_counts_view counts, std::uint64_t const* block_codes, std::uint64_t num_codes,
                                       std::uint64_t stride, segment_row* out, cuda::stream_ref stream) noexcept
{
  auto const blocks = static_cast<unsigned>((counts.num_rows + row_block_rows - 1) / row_block_rows);
  // Zeroed first: where the counts do not add up to num_codes (an image the preparation refuses)
  // some entries are not written, and the decode reads them all.
  std::uint64_t const nseg = (num_codes + stride - 1) / stride;
  if (cudaError_t const e = cudaMemsetAsync(out, 0, (nseg + 1) * sizeof(segment_row), stream.get()); e != cudaSuccess)
    return e;
  segment_rows_kernel<<<blocks, 256, 0, stream.get()>>>(counts, block_codes, num_codes, stride, out);
  return cudaGetLastError();
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
