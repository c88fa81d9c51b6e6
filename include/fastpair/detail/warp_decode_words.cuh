// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file warp_decode_words.cuh
 * @brief The register-words emit strategy (emit_strategy::register_words): one warp decodes one
 * sidecar segment, assembling output words in registers instead of storing byte by byte.
 *
 * Why. The paper's kernel is bound by the L1/LSU wavefront rate, and 57 % of its wavefronts are
 * byte-wide shared stores (the FastPair paper's profile of its kernel). Here each lane stores whole 32-bit words, so the shared
 * stores per decoded byte drop by about 4x on long tokens.
 *
 * Who does what, per batch of 32·K codes (same planes, sidecar and drain as warp_decode.cuh):
 *   1 input   lane ℓ owns the K CONSECUTIVE codes base + ℓK .. ℓK+K-1: one vector load (u16 x K;
 *             12-bit columns keep their codes packed as stored: three 4-byte loads per 8 codes)
 *   2 gather  per code: length nibble + W low-plane bytes; tokens longer than W (W = 8) read
 *             their high-plane bytes directly (no queue). Plane bytes past a token's length are
 *             zero, so tokens can be OR-ed into words without masking. Config::gather picks the
 *             pipe: LSU loads, or texture fetches for the low plane, which
 *             takes those wavefronts off the LSU data pipe that bounds this kernel. With
 *             texture_low_streamed the lengths are not gathered: the lane loads its K nibbles
 *             from the column's per-code length stream next to its codes (one 4-byte load for
 *             K = 8), which pays off on short tokens, where the gathers dominate. With
 *             texture_low_fused (dictionaries of <= 4 096 entries) the codes come from the fused
 *             stream, code and length in one 16-bit word: 2 bytes per code instead of 2.5.
 *   3 scan    one warp exclusive scan of the lanes' segment lengths (a lane's K tokens are one
 *             contiguous run of output)
 *   4 words   each token is funnel-shifted onto the lane's partial word; every completed aligned
 *             32-bit word is stored to the staging buffer with one 4-byte store. A token register
 *             is 16 bytes (4 words, up to 4 stores), or 8 bytes with emit_strategy::
 *             register_words_short (2 words, up to 2 stores; columns without tokens > 8 bytes)
 *   5 merge   a word straddling lanes ℓ-1 and ℓ: lane ℓ stored its part of it like any other word;
 *             it receives lane ℓ-1's trailing partial word with one shuffle and ORs it in (one
 *             shared read-modify-write per lane and batch, instead of a test on every store).
 *             K >= 4 guarantees a full lane's segment covers at least 4 bytes, so a word is
 *             shared by at most two lanes and every non-empty full lane completes its first word.
 *             The last non-empty lane stores its own trailing partial word; bytes of the stage
 *             outside [shift, shift + total) are never drained, so garbage there is harmless.
 *   6 drain   drain_stage: 16-byte aligned streaming stores by the lanes, byte-wise head/tail
 *
 * Every batch but a segment's last is `Full` (decode_batch_words<..., true>): no per-code bounds
 * tests. The decode issues close to the SM's instruction rate on long-token columns (ncu, H200:
 * 2.85 IPC of 4, 70 % issue slots busy on log_windows), so instructions per token matter.
 *
 * Rationale: docs/DECODER.md; the figures are in docs/notes/decoder-history-2026-11.md. The 8-byte
 * token registers of register_words_short beat the 16-byte ones on every FSST-12 column (H200,
 * "Issue 7 lever: short-token emit, fused codes, split stream"), which is also why OnPair-12
 * columns of short tokens are re-coded into a split stream (planes.hpp) rather than emitted
 * with a branch for their rare long tokens (that branch lost).
 */
#pragma once

#include <fastpair/config.cuh>
#include <fastpair/detail/warp_decode.cuh>

#include <cub/warp/warp_scan.cuh>

#include <cstdint>

namespace fastpair::detail {

/** Loads codes [idx0, idx0 + K) that are < c_end (others become 0) with the widest aligned loads;
 *  `AllValid`: the caller knows idx0 + K <= c_end. The 16-byte loads are cached in L2 only
 *  (`__ldcg`): codes are read once, and keeping them out of L1 leaves it to the dictionary
 *  (0 … +1.6 % on 15 column x codec cells, none lower; H200, docs/notes/decoder-history-2026-11.md). */
template <int K, bool AllValid = false>
__device__ __forceinline__ void load_consecutive_codes(std::uint16_t const* codes, std::uint64_t idx0,
                                                       std::uint64_t c_end, std::uint32_t (&code)[K],
                                                       std::uint32_t bits = 16)
{
  if (bits == 12) {  // packed as stored: 8 codes in 12 bytes, three 4-byte loads (warp-uniform branch)
    bool const full = AllValid || idx0 + K <= c_end;
    if (K % 8 == 0 && full && idx0 % 8 == 0) {
      auto const* p = reinterpret_cast<std::uint32_t const*>(reinterpret_cast<std::uint8_t const*>(codes) + idx0 / 8 * 12);
#pragma unroll
      for (int v = 0; v < K / 8; ++v) {
        std::uint32_t const w0 = __ldcg(p + 3 * v), w1 = __ldcg(p + 3 * v + 1), w2 = __ldcg(p + 3 * v + 2);
        code[8 * v]     = w0 & 0xFFFu;
        code[8 * v + 1] = (w0 >> 12) & 0xFFFu;
        code[8 * v + 2] = (w0 >> 24 | w1 << 8) & 0xFFFu;
        code[8 * v + 3] = (w1 >> 4) & 0xFFFu;
        code[8 * v + 4] = (w1 >> 16) & 0xFFFu;
        code[8 * v + 5] = (w1 >> 28 | w2 << 4) & 0xFFFu;
        code[8 * v + 6] = (w2 >> 8) & 0xFFFu;
        code[8 * v + 7] = w2 >> 20;
      }
    } else {
      code_stream const cs{codes, 12};
#pragma unroll
      for (int k = 0; k < K; ++k) code[k] = AllValid || idx0 + k < c_end ? cs[idx0 + k] : 0u;
    }
    return;
  }
  constexpr int V = K % 8 == 0 ? 8 : K % 4 == 0 ? 4 : K % 2 == 0 ? 2 : 1;  // codes per vector load
  std::uint16_t const* p = codes + idx0;
  bool const full        = AllValid || idx0 + K <= c_end;
  if (V > 1 && full && (reinterpret_cast<std::uintptr_t>(p) % (2 * V)) == 0) {
#pragma unroll
    for (int v = 0; v < K / V; ++v) {
      if constexpr (V == 8) {
        uint4 const x = __ldcg(reinterpret_cast<uint4 const*>(p) + v);
        std::uint32_t const w[4] = {x.x, x.y, x.z, x.w};
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          code[8 * v + 2 * i]     = w[i] & 0xFFFFu;
          code[8 * v + 2 * i + 1] = w[i] >> 16;
        }
      } else if constexpr (V == 4) {
        uint2 const x = __ldg(reinterpret_cast<uint2 const*>(p) + v);
        code[4 * v]     = x.x & 0xFFFFu;
        code[4 * v + 1] = x.x >> 16;
        code[4 * v + 2] = x.y & 0xFFFFu;
        code[4 * v + 3] = x.y >> 16;
      } else if constexpr (V == 2) {
        std::uint32_t const x = __ldg(reinterpret_cast<std::uint32_t const*>(p) + v);
        code[2 * v]     = x & 0xFFFFu;
        code[2 * v + 1] = x >> 16;
      }
    }
  } else {
#pragma unroll
    for (int k = 0; k < K; ++k) code[k] = AllValid || idx0 + k < c_end ? __ldg(p + k) : 0u;
  }
}

/** Token lengths of codes [idx0, idx0 + K) from the per-code length stream; codes at or past
 *  c_end get an unspecified length (the caller zeroes them) and their bytes are not read. */
template <int K, bool AllValid = false>
__device__ __forceinline__ void load_code_lengths(std::uint8_t const* nibs, std::uint64_t idx0, std::uint64_t c_end,
                                                  std::uint32_t (&len)[K])
{
  if (K % 8 == 0 && idx0 % 8 == 0) {
    std::uint32_t x[K / 8 > 0 ? K / 8 : 1] = {};
    if (AllValid || idx0 < c_end)  // the stream is padded by 16 bytes past its last word
#pragma unroll
      for (int v = 0; v < K / 8; ++v) x[v] = __ldcg(reinterpret_cast<std::uint32_t const*>(nibs + idx0 / 2) + v);
#pragma unroll
    for (int k = 0; k < K; ++k) len[k] = ((x[k / 8] >> (4 * (k % 8))) & 0xFu) + 1;
  } else {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      std::uint64_t const i = idx0 + k;
      len[k] = AllValid || i < c_end ? ((__ldg(nibs + i / 2) >> ((i & 1u) * 4)) & 0xFu) + 1 : 1u;
    }
  }
}

/** Asks L2 for the length-stream bytes of codes [idx0, idx0 + K): one lane per 128-byte line. */
template <int K>
__device__ __forceinline__ void prefetch_lengths_l2(std::uint8_t const* nibs, std::uint64_t idx0, std::uint64_t end,
                                                    unsigned lane)
{
  constexpr unsigned lanes_per_line = 256 / K;  // 128 bytes hold the nibbles of 256 codes
  if (lane % lanes_per_line == 0 && idx0 < end) asm volatile("prefetch.global.L2 [%0];" ::"l"(nibs + idx0 / 2));
}

/** Asks L2 for the 16 bytes of codes at codes[idx] (if idx < end): one line piece per lane, so a
 *  warp prefetches a whole batch. Latency lever (the decode is latency-bound; its A/B:
 *  docs/notes/decoder-history-2026-11.md, "L2 prefetch of the next batch's codes"). */
__device__ __forceinline__ void prefetch_codes_l2(std::uint16_t const* codes, std::uint64_t idx, std::uint64_t end,
                                                  std::uint32_t bits = 16)
{
  auto const* p = reinterpret_cast<std::uint8_t const*>(codes) + (bits == 12 ? idx + idx / 2 : 2 * idx);
  if (idx < end) asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
}

/** Code c's low-plane entry (W bytes): an LSU load, or a texture fetch (every texture strategy).
 *  Codes are < num_tokens <= 65 536 here, so int indices are exact. */
template <gather_strategy G, int W>
__device__ __forceinline__ typename lo_word<W>::type gather_low(column_view<W> const& col, std::uint32_t c)
{
  using lo_t = typename lo_word<W>::type;
  if constexpr (G == gather_strategy::global) return __ldg(reinterpret_cast<lo_t const*>(col.lo) + c);
  else return tex1Dfetch<lo_t>(col.lo_tex, static_cast<int>(c));
}

/** The stream the lanes read their codes from: the fused 16-bit code words (code + length) for
 *  gather_strategy::texture_low_fused, the plain codes otherwise. */
template <class Config>
__device__ __forceinline__ std::uint16_t const* code_source(config_view<Config> const& col)
{
  if constexpr (Config::fused_codes) return col.code_words;
  else return col.codes;
}

/** How code_source's stream stores a code: 16 bits (fused words, u16 codes) or 12 (packed). */
template <class Config>
__device__ __forceinline__ std::uint32_t code_bits_of(config_view<Config> const& col)
{
  if constexpr (Config::fused_codes) return 16;
  else return col.code_bits;
}

/**
 * One batch of 32·K codes starting at `base` (steps 1-6 of the design note); returns its decoded
 * bytes. `Full`: the whole batch lies before `c_end` (every batch of a segment but its last), so
 * the per-code bounds tests and the zeroing of codes past the segment compile away. `WritesRows`:
 * step 7 writes the offsets of the rows that start in the batch to `rows` (a kernel of its own:
 * the hook costs registers, and a runtime test of it slowed the plain decode); `c_begin`, the
 * segment's first code, is the origin of the row cursor's positions.
 */
template <class Config, bool Full, bool WritesRows>
__device__ __forceinline__ std::uint32_t decode_batch_words(config_view<Config> const& col, std::uint64_t base,
                                                            std::uint64_t c_end, std::uint64_t cursor,
                                                            unsigned char* out, std::uint64_t window_begin,
                                                            std::uint64_t capacity, unsigned char* smem, unsigned lane,
                                                            std::uint32_t& errors, row_sink const& rows, row_cursor& rc,
                                                            std::uint64_t c_begin)
{
  constexpr int K     = Config::tokens_per_thread;
  constexpr int W     = Config::low_plane_bytes;
  constexpr int BATCH = Config::codes_per_batch;
  constexpr int NT    = Config::short_tokens ? 2 : 4;  // 32-bit words of a token register
  constexpr bool LENGTHS_WITH_CODES = Config::streams_lengths || Config::fused_codes;
  using lo_t          = typename lo_word<W>::type;
  using scan_t        = cub::WarpScan<std::uint32_t>;

  // 1-2. input + gather -----------------------------------------------------------------------
  std::uint64_t const idx0       = base + std::uint64_t{lane} * K;
  std::uint16_t const* const src = code_source<Config>(col);
  std::uint32_t const bits       = code_bits_of<Config>(col);
  prefetch_codes_l2(src, idx0 + BATCH, c_end, bits);  // the next batch's codes, while this one runs
  if constexpr (Config::streams_lengths)  // and its lengths (K / 2 bytes per lane)
    prefetch_lengths_l2<K>(col.code_lengths, idx0 + BATCH, c_end, lane);
  std::uint32_t code[K];  // [K] blocked: lane ℓ owns codes base + ℓK + k
  load_consecutive_codes<K, Full>(src, idx0, c_end, code, bits);
  std::uint32_t len[K];
  if constexpr (Config::streams_lengths) load_code_lengths<K, Full>(col.code_lengths, idx0, c_end, len);
  if constexpr (Config::fused_codes)
#pragma unroll
    for (int k = 0; k < K; ++k) {
      len[k]  = (code[k] >> col.fused_code_bits) + 1;
      code[k] = code[k] & ((1u << col.fused_code_bits) - 1u);
    }
  std::uint32_t tok[K][NT];  // token bytes, little-endian words, zero past the length
  std::uint32_t seg_len = 0;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    std::uint32_t c = code[k];
    if (c >= col.num_tokens) {
      errors |= code_out_of_range;
      c = 0;
    }
    bool const valid = Full || idx0 + k < c_end;
    if constexpr (LENGTHS_WITH_CODES) {
      len[k] = valid ? len[k] : 0;
    } else {
      std::uint32_t const nib = col.entry_nibble(c);
      len[k]                  = valid ? nib + 1 : 0;
    }
    lo_t const lo = gather_low<Config::gather>(col, c);
    if constexpr (W == 16) {
      tok[k][0] = lo.x, tok[k][1] = lo.y, tok[k][2] = lo.z, tok[k][3] = lo.w;
    } else if constexpr (NT == 2) {  // register_words_short: no token exceeds the 8-byte plane
      tok[k][0] = lo.x, tok[k][1] = lo.y;
    } else {
      tok[k][0] = lo.x, tok[k][1] = lo.y, tok[k][2] = 0u, tok[k][3] = 0u;
      if (len[k] > 8) {
        uint2 const hi = __ldg(reinterpret_cast<uint2 const*>(col.hi) + c);
        tok[k][2]      = hi.x;
        tok[k][3]      = hi.y;
      }
    }
    if (!valid)  // past the segment: contributes nothing
#pragma unroll
      for (int i = 0; i < NT; ++i) tok[k][i] = 0u;
    seg_len += len[k];
  }

  // 3. scan -----------------------------------------------------------------------------------
  std::uint32_t off = 0, total = 0;
  typename scan_t::TempStorage scan_storage;  // shuffle-based: no shared memory is used
  scan_t(scan_storage).ExclusiveSum(seg_len, off, total);
  // For the row offsets after the drain (row_sink): the lane's token lengths - 1, in nibbles (K <= 8).
  std::uint32_t nibbles = 0;
  if constexpr (WritesRows)
#pragma unroll
    for (int k = 0; k < K; ++k) nibbles |= (len[k] != 0 ? len[k] - 1 : 0u) << (4 * k);
  std::int64_t const rel    = static_cast<std::int64_t>(cursor - window_begin);
  std::uint32_t const shift = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(out) + rel) & 15u;

  // 4. assemble words: every completed word is stored, the lane's first one included ----------
  unsigned char* const stage   = smem;  // 16-aligned
  std::uint32_t* const stage32 = reinterpret_cast<std::uint32_t*>(stage);
  std::uint32_t const p0     = shift + off;
  std::uint32_t const wfirst = p0 >> 2;
  std::uint32_t wi = wfirst, fill = p0 & 3u, cur = 0;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    // The token shifted by `fill` bytes onto the partial word: words w[0..NT], the last one
    // partial. A token of at most 4·NT bytes completes n <= NT of them.
    std::uint32_t const sh = 8 * fill;
    std::uint32_t w[NT + 1];
    w[0] = cur | (tok[k][0] << sh);
#pragma unroll
    for (int i = 1; i < NT; ++i) w[i] = __funnelshift_l(tok[k][i - 1], tok[k][i], sh);
    w[NT]                  = __funnelshift_l(tok[k][NT - 1], 0u, sh);
    std::uint32_t const n  = (fill + len[k]) >> 2;  // completed words, 0..NT
    // Predicated stores, no per-store test of "is this the shared first word": with that test
    // and its branches the emit was 54 % of the decode's instructions (ncu, docs/notes/decoder-history-2026-11.md).
#pragma unroll
    for (int i = 0; i < NT; ++i)
      if (n > std::uint32_t(i)) stage32[wi + i] = w[i];
    cur = w[NT];
#pragma unroll
    for (int i = NT - 1; i >= 0; --i) cur = n == std::uint32_t(i) ? w[i] : cur;
    wi += n;
    fill = (fill + len[k]) & 3u;
  }

  // 5. merge the word shared by neighbouring lanes ---------------------------------------------
  // Lane ℓ-1's trailing partial word `cur` holds the bytes of lane ℓ's first word before p0.
  // Bytes past a lane's run are zero (zero-padded planes), so the merge is an OR.
  std::uint32_t left = __shfl_up_sync(0xFFFFFFFFu, cur, 1);
  if (lane == 0) left = 0;  // lane 0's head bytes lie before `shift`: never drained
  std::uint32_t const next_len = __shfl_down_sync(0xFFFFFFFFu, seg_len, 1);
  bool const last_nonempty     = seg_len > 0 && (lane == 31 || next_len == 0);
  if (wi != wfirst) {  // the lane completed (and stored) its first word: always so for >= 4 bytes
    if ((p0 & 3u) != 0) stage32[wfirst] |= left;
    if (fill != 0 && last_nonempty) stage32[wi] = cur;
  } else if (seg_len > 0) {  // a run inside one word: only the partial lane of a segment's last batch
    stage32[wfirst] = cur | left;
  }
  __syncwarp();

  // 6. drain ----------------------------------------------------------------------------------
  drain_stage<true>(stage, shift, total, rel, out, capacity, lane);
  __syncwarp();

  // 7. the offsets of the rows that start in this batch (row_sink.cuh): code base + lK + k is at
  // lane l's off plus its tokens before k. After the drain, where the token registers are free.
  if constexpr (WritesRows)
    emit_rows(rows, rc, static_cast<std::uint32_t>(base - c_begin),
              static_cast<std::uint32_t>(min(base + BATCH, c_end) - c_begin), cursor, lane, [&](std::uint32_t i) {
      std::uint32_t const src = i / K, k = i % K;
      std::uint32_t const o = __shfl_sync(0xFFFFFFFFu, off, src);
      std::uint32_t const n = __shfl_sync(0xFFFFFFFFu, nibbles, src) & ((1u << (4 * k)) - 1u);  // k <= 7
      std::uint32_t const b = (n & 0x0F0F0F0Fu) + ((n >> 4) & 0x0F0F0F0Fu);                     // byte sums <= 30
      return o + k + ((b * 0x01010101u) >> 24);
    });
  return total;
}

/** @brief Decodes segment `seg` of `col` with one warp (register_words strategies); with
 *  `WritesRows`, also writes the offsets of the rows that start in it to `rows`. */
template <class Config, bool WritesRows>
__device__ __forceinline__ void warp_decode_segment_words(config_view<Config> const& col, std::uint64_t seg,
                                                          unsigned char* out, std::uint64_t window_begin,
                                                          std::uint64_t capacity, unsigned char* smem,
                                                          row_sink const& rows)
{
  constexpr int K     = Config::tokens_per_thread;
  constexpr int BATCH = Config::codes_per_batch;
  static_assert(K >= 4, "a lane's segment must cover at least one whole word");
  unsigned const lane = threadIdx.x & 31u;

  std::uint64_t const c_begin = seg * col.sidecar_stride;
  std::uint64_t const c_end   = min(c_begin + col.sidecar_stride, col.num_codes);
  std::uint64_t cursor        = col.sidecar[seg];
  std::uint32_t errors        = 0;
  row_cursor rc{};  // the rows whose offsets this warp writes (row_sink.cuh)
  if constexpr (WritesRows) rc = rows_of_segment(rows, seg, lane);

  for (std::uint64_t base = c_begin; base < c_end; base += BATCH) {
    if (base + BATCH <= c_end)  // warp-uniform
      cursor += decode_batch_words<Config, true, WritesRows>(col, base, c_end, cursor, out, window_begin, capacity, smem,
                                                    lane, errors, rows, rc, c_begin);
    else
      cursor += decode_batch_words<Config, false, WritesRows>(col, base, c_end, cursor, out, window_begin, capacity, smem,
                                                     lane, errors, rows, rc, c_begin);
  }

  if (lane == 0 && cursor != col.sidecar[seg + 1]) errors |= sidecar_mismatch;
  errors = warp_or(errors);
  if (lane == 0 && errors) atomicOr(col.error, errors);
}

}  // namespace fastpair::detail
