// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Architecture buckets of the tuning table, the code version the device runs, and the automatic
// low-plane width W.
#pragma once

#include <fastpair/config.cuh>
#include <fastpair/format.hpp>

#include <cub/util_device.cuh>

#include <cuda_runtime_api.h>

namespace fastpair {

namespace detail {

/** The bucket of code built for virtual architecture `arch` (__CUDA_ARCH__ / 10, e.g. 90). */
__host__ __device__ constexpr arch_bucket bucket_of_arch(int arch) noexcept
{
  return arch >= 100 ? arch_bucket::sm100 : arch >= 90 ? arch_bucket::sm90 : arch_bucket::generic;
}

/** The bucket whose tuning-table entries a bucket uses (tuning.cuh): sm_100+ takes the
 *  sm_90 entries. */
__host__ __device__ constexpr arch_bucket table_bucket(arch_bucket a) noexcept
{
  return a == arch_bucket::sm100 || a == arch_bucket::sm90 ? arch_bucket::sm90 : arch_bucket::generic;
}

/**
 * The bucket of the kernel code the current device runs: the virtual architecture that code was
 * built from (cub::PtxVersion, cached per device), which is not always the device's own (an sm_90
 * GPU runs sm_80 PTX when the binary holds nothing newer). The automatic config and the kernels'
 * per-architecture bodies (decode_kernel) key on this, so the two always agree. Generic on any
 * CUDA error. Host queries only.
 */
inline arch_bucket current_arch_bucket() noexcept
{
  int ptx = 0;
  if (cub::PtxVersion(ptx) != cudaSuccess) return (void)cudaGetLastError(), arch_bucket::generic;
  return bucket_of_arch(ptx / 10);
}

/**
 * The automatic W for a column on an architecture. sm_90+ (every auto config there is
 * register_words with texture gathers):
 * - 8 for FSST-12, whose tokens fit 8 bytes: no high plane, so the automatic config takes the
 *   short-token emit (+14 … +27 % over W = 16 on all 12 FSST-12 columns, H200,
 *   docs/notes/decoder-history-2026-11.md "Issue 7 lever: short-token emit, fused codes, split stream");
 * - 8 for OnPair-16 columns where more than 86 % of the coded tokens are at most 8 bytes and the
 *   mean token is at least 3 bytes (en_wiki, zh_text: the 65 536-entry low plane halves to
 *   512 KiB; W = 8 ahead by 2–13 % there, W = 16 ahead by 7–8 % on urls, code_lines and
 *   tpch_c_address: H200, docs/notes/decoder-history-2026-11.md "Issue 7 lever: streamed lengths");
 * - 16 otherwise, OnPair-12 included (one 16-byte gather per code, no high-plane test; with fused
 *   codes W = 16 led W = 8 on 10 of 12 OnPair-12 columns and trailed by <= 0.5 % on the others).
 * Elsewhere: the paper's rule, paper_low_plane_bytes().
 */
inline int tuned_low_plane_bytes(codec kind, length_histogram const& h, arch_bucket a) noexcept
{
  if (a == arch_bucket::sm90 || a == arch_bucket::sm100)
    return kind == codec::fsst12 ||
               (kind == codec::onpair16 && share_longer_than(h, 8) < 0.14 && mean_token_length(h) >= 3.0)
             ? 8
             : 16;
  if (max_token_length(kind) <= 8) return 8;
  return paper_low_plane_bytes(kind, h);
}

/**
 * Whether device_column::prepare builds the split stream of a column (prepare_options::
 * split_stream; build_split_stream in planes.hpp), which the automatic config then decodes with
 * the short-token emit: on sm_90+ for OnPair-12 columns with fewer than 20 % of the coded tokens
 * longer than 8 bytes. H200 (docs/notes/decoder-history-2026-11.md, "Issue 7 lever: short-token
 * emit, fused codes, split stream"),
 * split stream vs fused codes: +5.0 … +15.9 % on the 5 OnPair-12 columns with at most 11 % long
 * tokens (zh_text 965 → 1105, en_wiki 1095 → 1251 GB/s), −8.3 … −21.7 % on the 7 with 34 % or
 * more; the threshold lies between the two groups.
 */
inline bool tuned_split_stream(codec kind, length_histogram const& h, arch_bucket a) noexcept
{
  return (a == arch_bucket::sm90 || a == arch_bucket::sm100) && kind == codec::onpair12 && share_longer_than(h, 8) < 0.2;
}

}  // namespace detail
}  // namespace fastpair
