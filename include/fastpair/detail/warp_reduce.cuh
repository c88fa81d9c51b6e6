// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Full-warp reductions of 32-bit values: the redux.sync instruction (__reduce_*_sync) on sm_80+,
// five butterfly shuffles before. Every lane gets the result; all 32 lanes must take part.
#pragma once

#include <nv/target>

#include <cstdint>

namespace fastpair::detail {

/** Sum of `v` over the 32 lanes of the warp (modulo 2^32). */
__device__ __forceinline__ std::uint32_t warp_sum(std::uint32_t v)
{
  NV_IF_TARGET(NV_PROVIDES_SM_80, (return __reduce_add_sync(0xFFFFFFFFu, v);), (
    for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(0xFFFFFFFFu, v, d);
    return v;
  ))
}

/** Bitwise OR of `v` over the 32 lanes of the warp. */
__device__ __forceinline__ std::uint32_t warp_or(std::uint32_t v)
{
  NV_IF_TARGET(NV_PROVIDES_SM_80, (return __reduce_or_sync(0xFFFFFFFFu, v);), (
    for (int d = 16; d > 0; d >>= 1) v |= __shfl_xor_sync(0xFFFFFFFFu, v, d);
    return v;
  ))
}

}  // namespace fastpair::detail
