// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file predicate_kernel.cuh
 * @brief Kernels of the GPU predicates (predicates.cuh): equality / IN on codes and LIKE through
 * token transition tables. The host reference of both is predicates.hpp; results are identical.
 *
 * Output: one warp per 64-row bitmask word. Lane l decides rows 64w + l and 64w + 32 + l, two
 * `__ballot_sync` give the word's halves and lane 0 stores it, so every word (the last one's bits
 * past num_rows included, as zero) is written exactly once, with no atomics and no pre-clear.
 * Warps stride over the words (grid-stride loop, warp-uniform bounds, so the full-mask ballots are
 * legal).
 *
 * Equality / IN (`equal_kernel`): the literals' codes are concatenated, sorted by decoded byte
 * length. A row first binary-searches its byte length (row_byte_offsets: neighbouring lanes share
 * the 8-byte loads, so this is ~8 B of traffic per row), then only rows with a literal's length
 * read their code offsets, compare code counts and finally codes (u16 loads of the widened codes).
 *
 * LIKE (`like_kernel`): a row is walked from start() with one table lookup per code,
 * T[code * S + q] (S automaton states, u8 entries when S <= 256 else u16; the table lives in
 * global memory and is read through the read-only path, so it stays in L1/L2: a 4 096-token x
 * 16-state u8 table is 64 KiB, OnPair-16 x 16 states 1 MiB, far below the H200's 50 MiB L2).
 * A walk stops at an absorbing state (prefix: accepted or dead; substring: accepted), so prefix
 * rows cost at most pattern-length codes whatever their length. Rows shorter than the pattern
 * are rejected from their byte length without reading a code.
 * Long rows: a lane walks its rows only when they have at most `like_long_row_codes` codes; the
 * longer ones (substring / suffix, S <= like_map_states) are taken by the whole warp afterwards,
 * one at a time: the row is cut into 32 contiguous pieces per window of at most 32 x 64 codes,
 * each lane computes its piece's state map (all S states stepped until their images coincide;
 * on text a byte absent from the pattern merges every KMP state, so this costs ~1 lookup per code
 * after the first few), and the window's state is threaded through the 32 maps with 32 shuffles.
 * So one very long row costs its warp ~(codes / 32) lookups instead of stalling a lane for
 * `codes` lookups while 31 idle. Patterns with more states walk every row in a lane (correct,
 * just not balanced).
 */
#pragma once

#include <fastpair/detail/cuda.cuh>
#include <fastpair/detail/warp_decode.cuh>

#include <cstdint>

namespace fastpair::detail {

/** @brief Threads per block of the predicate kernels (8 warps = 8 words of 64 rows). */
constexpr int predicate_threads = 256;
/** @brief Rows with more codes than this go to the warp path of like_kernel (when enabled). */
constexpr std::uint64_t like_long_row_codes = 64;
/** @brief Largest number of automaton states the warp path keeps as a per-lane state map. */
constexpr std::uint32_t like_map_states = 32;
/** @brief Codes per lane per window of the warp path (a window is 32 x this many codes). */
constexpr std::uint64_t like_piece_codes = 64;

/** @brief The literals of an equality / IN predicate in device memory, sorted by byte length. */
struct literal_set_view {
  std::uint16_t const* codes        = nullptr;  ///< all literals' codes, concatenated
  std::uint64_t const* code_offsets = nullptr;  ///< count + 1 entries: literal i is codes[off[i], off[i+1])
  std::uint64_t const* bytes        = nullptr;  ///< decoded byte length of each literal, ascending
  std::uint32_t count               = 0;
};

/** @brief The rows of a column as the predicates read them. */
struct predicate_rows {
  code_stream codes;  ///< the column's codes (device_column::view().codes, code_bits)
  std::uint64_t const* row_byte_offsets = nullptr;  ///< num_rows + 1
  std::uint64_t const* row_code_offsets = nullptr;  ///< num_rows + 1
  std::uint64_t num_rows                = 0;
};

/** @brief A LIKE token table in device memory (State = u8 or u16). */
template <class State>
struct like_table_view {
  State const* table        = nullptr;  ///< num_tokens x num_states, token-major
  std::uint32_t num_states  = 1;
  std::uint32_t num_tokens  = 1;
  std::uint32_t accept      = 0;        ///< the accepting state (walks start at 0; 0 == accept: every row)
  std::uint64_t min_bytes   = 0;        ///< rows shorter than this never match (not walked)
  std::uint32_t moving      = 0;        ///< states below this move; states >= it are absorbing (suffix: S)
  bool stops_at_absorbing   = false;    ///< prefix / substring: a walk may stop at an absorbing state

  __device__ bool absorbing(std::uint32_t q) const noexcept { return stops_at_absorbing && q >= moving; }
  /** @brief One lookup. Codes are < num_tokens in a validated column; a code past the table is
   *  clamped so that even an unvalidated column cannot read out of bounds. */
  __device__ std::uint32_t step(std::uint32_t q, std::uint32_t code) const noexcept
  {
    code = code < num_tokens ? code : num_tokens - 1;
    return __ldg(table + std::size_t{code} * num_states + q);
  }
};

/** @brief True if row r equals one of the literals (byte length, then code count, then codes). */
__device__ inline bool row_in_literal_set(literal_set_view const& lits, predicate_rows const& rows, std::uint64_t r)
{
  std::uint64_t const b = rows.row_byte_offsets[r + 1] - rows.row_byte_offsets[r];
  std::uint32_t lo = 0, hi = lits.count;  // lower_bound of b in the sorted lengths
  while (lo < hi) {
    std::uint32_t const mid = lo + (hi - lo) / 2;
    if (__ldg(lits.bytes + mid) < b) lo = mid + 1;
    else hi = mid;
  }
  if (lo == lits.count || __ldg(lits.bytes + lo) != b) return false;
  std::uint64_t const c0 = rows.row_code_offsets[r];
  std::uint64_t const n  = rows.row_code_offsets[r + 1] - c0;
  for (std::uint32_t i = lo; i < lits.count && __ldg(lits.bytes + i) == b; ++i) {
    std::uint64_t const l0 = __ldg(lits.code_offsets + i);
    if (__ldg(lits.code_offsets + i + 1) - l0 != n) continue;
    bool same = true;
    for (std::uint64_t k = 0; same && k < n; ++k) same = rows.codes[c0 + k] == __ldg(lits.codes + l0 + k);
    if (same) return true;
  }
  return false;
}

/** @brief Bitmask of `col IN literals` (one literal: equality). One warp per 64-row word. */
FASTPAIR_KERNEL __launch_bounds__(predicate_threads) void equal_kernel(literal_set_view lits, predicate_rows rows,
                                                                       std::uint64_t* words)
{
  unsigned const lane       = threadIdx.x % 32;
  std::uint64_t const nwords = (rows.num_rows + 63) / 64;
  std::uint64_t const warps  = std::uint64_t{gridDim.x} * (predicate_threads / 32);
  for (std::uint64_t w = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; w < nwords; w += warps) {
    std::uint64_t const ra = w * 64 + lane, rb = ra + 32;
    bool const a           = ra < rows.num_rows && row_in_literal_set(lits, rows, ra);
    bool const b           = rb < rows.num_rows && row_in_literal_set(lits, rows, rb);
    std::uint64_t const lo = __ballot_sync(0xFFFFFFFFu, a);
    std::uint64_t const hi = __ballot_sync(0xFFFFFFFFu, b);
    if (lane == 0) words[w] = lo | (hi << 32);
  }
}

/** @brief The state after codes [j0, j1) from q, one lane, stopping at an absorbing state. */
template <class State>
__device__ std::uint32_t like_walk(like_table_view<State> const& t, code_stream codes, std::uint64_t j0,
                                   std::uint64_t j1, std::uint32_t q)
{
  for (std::uint64_t j = j0; j < j1 && !t.absorbing(q); ++j) q = t.step(q, codes[j]);
  return q;
}

/**
 * @brief The state after codes [j0, j1) from q, the whole warp cooperating (q and the range are
 * warp-uniform; every lane returns the same state). Needs t.num_states <= like_map_states.
 */
template <class State>
__device__ std::uint32_t like_walk_warp(like_table_view<State> const& t, code_stream codes, std::uint64_t j0,
                                        std::uint64_t j1, std::uint32_t q, unsigned lane)
{
  std::uint32_t const F = t.moving <= like_map_states ? t.moving : like_map_states;  // moving states
  State img[like_map_states];
  for (std::uint64_t w0 = j0; w0 < j1 && !t.absorbing(q);) {
    std::uint64_t const left = j1 - w0;
    std::uint64_t per        = (left + 31) / 32;
    if (per > like_piece_codes) per = like_piece_codes;
    std::uint64_t const a = w0 + lane * per < j1 ? w0 + lane * per : j1;
    std::uint64_t const b = a + per < j1 ? a + per : j1;
    // This lane's piece map: img[s] for the moving states s < F until they all coincide, then the
    // single image x (absorbing states map to themselves).
    for (std::uint32_t s = 0; s < F; ++s) img[s] = static_cast<State>(s);
    bool merged     = F <= 1;
    std::uint32_t x = 0;
    for (std::uint64_t j = a; j < b; ++j) {
      std::uint32_t const c = codes[j];
      if (merged) {
        if (t.absorbing(x)) break;
        x = t.step(x, c);
        continue;
      }
      bool same = true;
      for (std::uint32_t s = 0; s < F; ++s) {
        img[s] = static_cast<State>(t.step(img[s], c));
        same   = same && img[s] == img[0];
      }
      if (same) {
        merged = true;
        x      = img[0];
      }
    }
    // Thread q through the 32 maps in lane order (q is uniform; lane k's answer is taken).
    for (unsigned k = 0; k < 32; ++k) {
      std::uint32_t const mine = q >= F ? q : (merged ? x : static_cast<std::uint32_t>(img[q]));
      q                        = __shfl_sync(0xFFFFFFFFu, mine, static_cast<int>(k));
    }
    w0 += per * 32 < left ? per * 32 : left;
  }
  return q;
}

/**
 * @brief Bitmask of a LIKE pattern. One warp per 64-row word; short rows are walked by their lane,
 * long ones (when `warp_long_rows`) by the whole warp afterwards, one row at a time.
 */
template <class State>
FASTPAIR_KERNEL __launch_bounds__(predicate_threads) void like_kernel(like_table_view<State> t, predicate_rows rows,
                                                                      bool warp_long_rows, std::uint64_t* words)
{
  unsigned const lane        = threadIdx.x % 32;
  std::uint64_t const nwords = (rows.num_rows + 63) / 64;
  std::uint64_t const warps  = std::uint64_t{gridDim.x} * (predicate_threads / 32);
  for (std::uint64_t w = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; w < nwords; w += warps) {
    bool hit[2]  = {false, false};
    bool defer[2] = {false, false};
    for (int h = 0; h < 2; ++h) {
      std::uint64_t const r = w * 64 + h * 32 + lane;
      if (r >= rows.num_rows) continue;
      if (rows.row_byte_offsets[r + 1] - rows.row_byte_offsets[r] < t.min_bytes) continue;  // too short
      std::uint64_t const j0 = rows.row_code_offsets[r], j1 = rows.row_code_offsets[r + 1];
      if (warp_long_rows && j1 - j0 > like_long_row_codes) defer[h] = true;
      else hit[h] = like_walk(t, rows.codes, j0, j1, 0) == t.accept;
    }
    for (int h = 0; h < 2; ++h) {
      for (unsigned long_rows = __ballot_sync(0xFFFFFFFFu, defer[h]); long_rows; long_rows &= long_rows - 1) {
        unsigned const owner   = static_cast<unsigned>(__ffs(static_cast<int>(long_rows)) - 1);
        std::uint64_t const r  = w * 64 + h * 32 + owner;
        std::uint64_t const j0 = rows.row_code_offsets[r], j1 = rows.row_code_offsets[r + 1];
        std::uint32_t const q  = like_walk_warp(t, rows.codes, j0, j1, 0, lane);
        if (lane == owner) hit[h] = q == t.accept;
      }
    }
    std::uint64_t const lo = __ballot_sync(0xFFFFFFFFu, hit[0]);
    std::uint64_t const hi = __ballot_sync(0xFFFFFFFFu, hit[1]);
    if (lane == 0) words[w] = lo | (hi << 32);
  }
}

}  // namespace fastpair::detail
