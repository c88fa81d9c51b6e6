// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Architecture buckets of the tuning table and the automatic low-plane width W.
#pragma once

#include <fastpair/format.hpp>

#include <cuda_runtime_api.h>

namespace fastpair {

/** @brief Architecture buckets of the tuning table (lookup newest first). */
enum class arch_bucket { generic, sm80, sm90, sm100 };

namespace detail {

/** Bucket of the current device. Returns generic on any CUDA error. Host queries only. */
inline arch_bucket current_arch_bucket() noexcept
{
  int dev = 0, major = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) return (void)cudaGetLastError(), arch_bucket::generic;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess)
    return (void)cudaGetLastError(), arch_bucket::generic;
  if (major >= 10) return arch_bucket::sm100;
  if (major == 9) return arch_bucket::sm90;
  if (major == 8) return arch_bucket::sm80;
  return arch_bucket::generic;
}

/**
 * The automatic W for a column on an architecture. sm_90+ (every auto config there is
 * register_words with texture gathers): 16, FSST-12 included (one 16-byte gather per code, no
 * high-plane test). H200, 2026-11-30 07:35 UTC (docs/BENCHMARKS.md, "Issue 7 lever: streamed
 * lengths"): with the automatic gathers W = 16 beat W = 8 on 31 of 36 cells, by 2.5 … 7.7 % on
 * urls, code_lines and tpch_c_address OnPair-16; W = 8 led by 1.8-1.9 % on en_wiki and zh_text
 * OnPair-16 only. (Before the texture gathers, W = 8 won on OnPair-16 text: "fewer instructions".)
 * Elsewhere: the paper's rule, choose_low_plane_bytes().
 */
inline int auto_low_plane_bytes(codec kind, length_histogram const& h, arch_bucket a) noexcept
{
  if (a == arch_bucket::sm90 || a == arch_bucket::sm100) return 16;
  if (max_token_length(kind) <= 8) return 8;
  return choose_low_plane_bytes(kind, h);
}

}  // namespace detail
}  // namespace fastpair
