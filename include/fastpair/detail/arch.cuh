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
 * register_words): 8 for OnPair-16 columns where at most 30 % of the coded tokens exceed 8 bytes
 * (its 65 536-entry plane halves to 512 KiB, so more gathers hit L1), otherwise 16, FSST-12
 * included (one 16-byte gather per code, no high-plane test). H200 sweep of 2026-11-30
 * (docs/BENCHMARKS.md, "Issue 7 lever: fewer instructions"): W = 8 vs 16 register_words on OnPair-16
 * zh_text 854 / 770, en_wiki 882 / 827, urls 917 / 894 GB/s; tpch_l_comment (46 % of tokens
 * > 8 B) 1224 / 1311; FSST-12 and OnPair-12 W = 16 ahead by 0 … 8 %. Elsewhere: the paper's rule,
 * choose_low_plane_bytes().
 */
inline int auto_low_plane_bytes(codec kind, length_histogram const& h, arch_bucket a) noexcept
{
  if (a == arch_bucket::sm90 || a == arch_bucket::sm100)
    return kind == codec::onpair16 && share_longer_than(h, 8) <= 0.30 ? 8 : 16;
  if (max_token_length(kind) <= 8) return 8;
  return choose_low_plane_bytes(kind, h);
}

}  // namespace detail
}  // namespace fastpair
