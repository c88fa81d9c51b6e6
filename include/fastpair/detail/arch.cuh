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
 * The automatic W for a column on an architecture. sm_90+: 16 for the OnPair codecs (the
 * register_words kernel, best on every column with long tokens), except when at most 10 % of the
 * coded tokens exceed 8 bytes: then 8, where the staged kernel's split read wins (H200 report,
 * docs/BENCHMARKS.md Figure 4: zh_text / en_wiki / tpch_c_address OnPair-12 best staged W = 8
 * 697 / 759 / 430 GB/s vs best register_words W = 16 633 / 713 / 392). FSST-12: 8 (its tokens fit
 * the low plane). Elsewhere: the paper's rule, choose_low_plane_bytes().
 */
inline int auto_low_plane_bytes(codec kind, length_histogram const& h, arch_bucket a) noexcept
{
  if (max_token_length(kind) <= 8) return 8;
  if (a == arch_bucket::sm90 || a == arch_bucket::sm100) return share_longer_than(h, 8) <= 0.10 ? 8 : 16;
  return choose_low_plane_bytes(kind, h);
}

}  // namespace detail
}  // namespace fastpair
