// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file prepare_kernel.cuh
 * @brief The kernels of the GPU preparation (device_column::prepare_fpc_*): they turn the stored
 * sections of a `.fpc` version-2 image, uploaded as they are (the codes stay packed as stored), into the device column, and check
 * them at memory bandwidth so that the host never touches a code or a row.
 *
 * Design. The stored row metadata is one bit-packed code count per row (detail/fpc_v2.hpp). The
 * device keeps it as stored and adds a row index of one entry per row_block_rows rows (code
 * position and decoded position of the block's first row): 16 bytes per 1 024 rows. Everything a
 * decode needs per row is derived from these and the codes when it is needed
 * (row_offsets_from_codes_kernel in row_offsets_kernel.cuh), which is what keeps the prepared column
 * about the size of the stored one. The dictionary planes are built here too, from the stored
 * dictionary sections copied as they are. The codes arrive in steps (device_column.cuh): the
 * checksum, histogram, sidecar and row-index kernels take ranges, and the sidecar scan carries
 * its running total from step to step. Checks report through a `prepare_report` in device memory
 * that the host reads at the end of the preparation (the counts' check once the row index is
 * built, before anything follows it):
 *   - section checksums (a sum of per-word hashes, so any grid order gives the same sum);
 *   - the counts: every prefix of the block sums <= num_codes, and the total == num_codes
 *     (a wrapped sum cannot pass: a prefix would exceed num_codes first);
 *   - codes < the dictionary size (the sidecar pass, segment_lengths_kernel, sets the error word);
 *   - the decoded size against the header, and a stored sidecar against the recomputed one;
 *   - for an image in device memory, the dictionary's shape (check_dictionary_kernel) and its
 *     sections' checksums, so that the host reads the dictionary only to name a problem.
 * The passes that build the opt-in decode-time streams of a prepared column (code_lengths_kernel,
 * fused_codes_kernel) are at the end.
 */
#pragma once

#include <fastpair/detail/cuda.cuh>
#include <fastpair/detail/fpc_v2.hpp>
#include <fastpair/detail/row_sink.cuh>
#include <fastpair/detail/warp_decode.cuh>
#include <fastpair/detail/warp_decode_words.cuh>
#include <fastpair/detail/warp_reduce.cuh>

#include <cub/block/block_reduce.cuh>

#include <cstdint>

namespace fastpair::detail {

/** Rows per entry of the device row index. */
inline constexpr std::uint64_t row_block_rows = 1024;

/** What the preparation kernels found (device memory; read once by the host). */
struct prepare_report {
  std::uint64_t checksum_sum[3] = {};  ///< codes, row_code_counts, sidecar: the sums of word_hash
  std::uint64_t histogram[17]   = {};  ///< codes of each token length 1..16
  std::uint64_t sample[17]      = {};  ///< the same over the first codes only (the plane width's sample)
  std::uint32_t flags           = 0;   ///< prepare_flag bits
  std::uint32_t duplicate       = 0;   ///< ~i for the first token i equal to an earlier one, or 0
  /// A dictionary checked on the GPU (check_dictionary_kernel): the sums of word_hash of sections 1
  /// (token lengths) and 2 (token bytes), and the token lengths' total.
  std::uint64_t dict_sum[3] = {};
  unsigned long long dict_bytes_seen[4] = {};  ///< bit b: some one-byte token is byte b
};

enum prepare_flag : std::uint32_t {
  counts_exceed_codes    = 1u,  ///< a prefix of the row code counts passes num_codes
  stored_sidecar_differs = 2u,  ///< a stored sidecar entry disagrees with the token lengths
  dictionary_shape_bad   = 4u,  ///< a token length outside 1..max, or FSST-12's codes < 256 not the bytes
  count_directory_bad    = 8u,  ///< a block of the row code counts: width, values' place or the section's size
};

static_assert(row_block_rows == fpc2::count_block_rows, "a row index block is a block of the stored counts");

/** sum += the word hashes of bytes [0, n) of `data` (8-byte aligned), `data` being word
 *  `first_word` of its section (a section checksummed in pieces: the sums add up); where
 *  `copy_to` (8-byte aligned) is not null, the bytes are also copied there: one read of a section
 *  that is both copied and checked. */
FASTPAIR_KERNEL __launch_bounds__(256) void section_checksum_kernel(std::uint8_t const* data, std::uint64_t n,
                                                                    std::uint64_t* sum, std::uint64_t first_word = 0,
                                                                    std::uint8_t* copy_to = nullptr)
{
  using reduce_t = cub::BlockReduce<std::uint64_t, 256>;
  __shared__ typename reduce_t::TempStorage temp;
  std::uint64_t const full = n / 8;
  std::uint64_t s          = 0;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < full;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    std::uint64_t const w = __ldcs(reinterpret_cast<unsigned long long const*>(data) + i);
    if (copy_to != nullptr) reinterpret_cast<std::uint64_t*>(copy_to)[i] = w;
    s += fpc2::word_hash(w, first_word + i);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0 && n % 8 != 0) {  // the last partial word, byte by byte
    std::uint64_t w = 0;
    for (std::uint64_t b = n % 8; b-- > 0;) {
      w = w << 8 | data[8 * full + b];
      if (copy_to != nullptr) copy_to[8 * full + b] = data[8 * full + b];
    }
    s += fpc2::word_hash(w, first_word + full);
  }
  std::uint64_t const total = reduce_t(temp).Sum(s);
  if (threadIdx.x == 0 && total != 0) atomicAdd(reinterpret_cast<unsigned long long*>(sum), total);
}

/** block_codes[k] = codes of rows [k·RB, (k+1)·RB), one warp per block, saturated at num_codes + 1
 *  (anything above num_codes is an error, and saturation keeps the later scan from wrapping).
 *  Lane 0 also checks the block's directory entry, where there is one (fpc2::block_counts): its width at most
 *  count_bits, its values right after the previous block's, and, for the last block, the
 *  section's size; a failure sets count_directory_bad. */
FASTPAIR_KERNEL __launch_bounds__(256) void block_code_sums_kernel(row_counts_view counts, std::uint64_t num_codes,
                                                                   std::uint64_t* block_codes, std::uint64_t blocks,
                                                                   prepare_report* report)
{
  unsigned const lane        = threadIdx.x & 31u;
  std::uint64_t const nwarps = std::uint64_t{gridDim.x} * (blockDim.x / 32);
  std::uint64_t const cap    = num_codes + 1;
  for (std::uint64_t k = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; k < blocks; k += nwarps) {
    std::uint64_t const r0 = k * row_block_rows;
    std::uint64_t const r1 = min(r0 + row_block_rows, counts.num_rows);
    fpc2::count_block const b = counts.block(k);
    std::uint64_t s           = 0;
    for (std::uint64_t r = r0 + lane; r < r1; r += 32) s = min(s + min(counts.count(b, r - r0), cap), cap);
    for (int d = 16; d > 0; d /= 2) s = min(s + __shfl_down_sync(0xFFFFFFFFu, s, d), cap);  // <= 2 cap: no wrap
    if (lane == 0) block_codes[k] = s;
    if (lane == 0 && counts.blocks > 0 && counts.entry_problem(k, counts.num_rows) != fpc2::block_counts::no_problem)
      atomicOr(&report->flags, count_directory_bad);
  }
}

/** After the exclusive scan of block_code_sums_kernel's sums: every prefix <= num_codes and the
 *  last == num_codes, or the counts are corrupt. */
FASTPAIR_KERNEL __launch_bounds__(256) void check_block_codes_kernel(std::uint64_t const* block_codes,
                                                                     std::uint64_t blocks, std::uint64_t num_codes,
                                                                     prepare_report* report)
{
  for (std::uint64_t k = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; k <= blocks;
       k += std::uint64_t{gridDim.x} * blockDim.x)
    if (block_codes[k] > num_codes || (k == blocks && block_codes[k] != num_codes))
      atomicOr(&report->flags, counts_exceed_codes);
}

/** The dictionary's shape, as validate_dictionary_shape checks it on the host, for a dictionary
 *  that only the GPU holds: the lengths' total, lengths outside 1..max_len and FSST-12's rule
 *  (code b < 256 is the byte b) into the report, and which bytes have a one-byte token. Token
 *  offsets are the exclusive sums of the lengths; reads of the bytes stay below dict_bytes. */
FASTPAIR_KERNEL __launch_bounds__(256) void check_dictionary_kernel(std::uint8_t const* lengths, std::uint32_t const* offsets,
                                                                    std::uint8_t const* bytes, std::uint64_t dict_bytes,
                                                                    std::uint32_t num_tokens, std::uint32_t max_len,
                                                                    bool fsst, prepare_report* report)
{
  using reduce_t = cub::BlockReduce<std::uint64_t, 256>;
  __shared__ typename reduce_t::TempStorage temp;
  __shared__ unsigned long long seen[4];
  if (threadIdx.x < 4) seen[threadIdx.x] = 0;
  __syncthreads();
  std::uint64_t sum = 0;
  bool bad          = false;
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < num_tokens; i += gridDim.x * blockDim.x) {
    std::uint32_t const len = lengths[i];
    std::uint64_t const off = offsets[i];
    bool const one_byte     = len == 1 && off < dict_bytes;
    std::uint32_t const b   = one_byte ? bytes[off] : 256u;
    sum += len;
    if (one_byte) atomicOr(&seen[b / 64], 1ull << (b % 64));
    bad = bad || len < 1 || len > max_len || (fsst && i < 256 && b != i);
  }
  std::uint64_t const total = reduce_t(temp).Sum(sum);
  bool const any_bad        = __syncthreads_or(bad);  // also orders the seen[] updates before their reads
  if (threadIdx.x == 0 && total != 0) atomicAdd(reinterpret_cast<unsigned long long*>(&report->dict_sum[2]), total);
  if (threadIdx.x == 0 && any_bad) atomicOr(&report->flags, dictionary_shape_bad);
  if (threadIdx.x < 4 && seen[threadIdx.x] != 0) atomicOr(&report->dict_bytes_seen[threadIdx.x], seen[threadIdx.x]);
}

/** Calls f(code) for each code i in [begin, end) that thread t of nt owns. The codes go eight at a
 *  time from the first multiple of 8, read by load_consecutive_codes's vector loads (16 bytes of
 *  u16 codes, 12 of packed ones); the few before it and after the last eight, one by one. The
 *  passes over every code are bound by their instructions per code, not by memory (ncu: one code
 *  per thread and step took 80+ warp instructions per 32 codes in the sidecar pass). */
template <class F>
__device__ __forceinline__ void for_each_code(std::uint16_t const* codes, std::uint32_t bits, std::uint64_t begin,
                                              std::uint64_t end, std::uint64_t t, std::uint64_t nt, F&& f)
{
  code_stream const cs{codes, bits};
  std::uint64_t const a = min((begin + 7) & ~std::uint64_t{7}, end);  // the first eight's start
  std::uint64_t const b = max(a, end & ~std::uint64_t{7});             // the last eight's end
  for (std::uint64_t i = begin + t; i < a; i += nt) f(cs[i]);
  for (std::uint64_t g = a / 8 + t; g < b / 8; g += nt) {
    std::uint32_t code[8];
    load_consecutive_codes<8, true>(codes, 8 * g, end, code, bits);
#pragma unroll
    for (int k = 0; k < 8; ++k) f(code[k]);
  }
  for (std::uint64_t i = b + t; i < end; i += nt) f(cs[i]);
}

/** Token length of code c (entry 0's for a code outside the dictionary, as the decoder reads it). */
template <int W>
__device__ __forceinline__ std::uint32_t token_length(column_view<W> const& col, std::uint32_t c)
{
  if (c >= col.num_tokens) c = 0;
  return col.entry_nibble(c) + 1;
}

/** The decoded position of code c (<= num_codes): its segment's sidecar entry plus the lengths
 *  of the codes before it in the segment, summed by one warp. */
template <int W>
__device__ __forceinline__ std::uint64_t warp_code_position(column_view<W> const& col, std::uint64_t c, unsigned lane)
{
  std::uint64_t const seg = c / col.sidecar_stride, first = seg * col.sidecar_stride;
  std::uint32_t sum = 0;  // < stride * 16 / 32 per lane
  for_each_code(col.codes, col.code_bits, first, c, lane, 32, [&](std::uint32_t k) { sum += token_length(col, k); });
  return col.sidecar[seg] + warp_sum(sum & 0xFFFFu) + (std::uint64_t{warp_sum(sum >> 16)} << 16);
}

/** block_bytes[k] = the decoded position of row k·RB's first code, k in [k_first, k_last]. */
template <int W>
FASTPAIR_KERNEL __launch_bounds__(256) void block_bytes_kernel(column_view<W> col, std::uint64_t const* block_codes,
                                                               std::uint64_t k_first, std::uint64_t k_last,
                                                               std::uint64_t* block_bytes)
{
  unsigned const lane        = threadIdx.x & 31u;
  std::uint64_t const nwarps = std::uint64_t{gridDim.x} * (blockDim.x / 32);
  for (std::uint64_t k = k_first + (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; k <= k_last; k += nwarps) {
    std::uint64_t const c = min(block_codes[k], col.num_codes);  // clamped: corrupt counts are reported, not followed
    std::uint64_t const p = warp_code_position(col, c, lane);
    if (lane == 0) block_bytes[k] = p;
  }
}

/** Token-length histogram of codes [c_begin, c_end) (codes outside the dictionary are not counted). */
template <int W>
FASTPAIR_KERNEL __launch_bounds__(256) void length_histogram_kernel(column_view<W> col, std::uint64_t* histogram,
                                                                    std::uint64_t c_begin, std::uint64_t c_end)
{
  __shared__ unsigned int bins[17];
  if (threadIdx.x < 17) bins[threadIdx.x] = 0;
  __syncthreads();
  for_each_code(col.codes, col.code_bits, c_begin, c_end, std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x,
                std::uint64_t{gridDim.x} * blockDim.x, [&](std::uint32_t c) {
                  if (c < col.num_tokens) atomicAdd(&bins[col.entry_nibble(c) + 1], 1u);
                });
  __syncthreads();
  if (threadIdx.x < 17 && bins[threadIdx.x] != 0)
    atomicAdd(reinterpret_cast<unsigned long long*>(histogram + threadIdx.x), bins[threadIdx.x]);
}

/** Flags a stored sidecar entry that differs from the recomputed one. */
FASTPAIR_KERNEL __launch_bounds__(256) void compare_sidecar_kernel(std::uint64_t const* stored,
                                                                   std::uint64_t const* computed, std::uint64_t n,
                                                                   prepare_report* report)
{
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    if (stored[i] != computed[i]) atomicOr(&report->flags, stored_sidecar_differs);
}

/** out[r] = count of row r, r < num_rows, and out[num_rows] = 0 (the input of the row code
 *  offsets' exclusive scan). */
FASTPAIR_KERNEL __launch_bounds__(256) void unpack_counts_kernel(row_counts_view counts, std::uint64_t* out)
{
  for (std::uint64_t r = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; r <= counts.num_rows;
       r += std::uint64_t{gridDim.x} * blockDim.x)
    out[r] = r < counts.num_rows ? counts.count(r) : 0;
}

/** The dictionary planes of planes.hpp built on the GPU from the stored dictionary (one u8 length
 *  per token, the token bytes concatenated, `offsets` = the exclusive sums of the lengths): entry e
 *  < `entries` gets its first W bytes in lo[e·W ..), bytes W..15 in hi[e·(16 − W) ..) (if hi), zeros
 *  past its length and for e >= num_tokens. Lengths are clamped to 16 and reads to `dict_bytes`
 *  (the host has checked the dictionary; this keeps every read in bounds regardless). */
FASTPAIR_KERNEL __launch_bounds__(256) void dictionary_planes_kernel(std::uint8_t const* lengths,
                                                                     std::uint32_t const* offsets,
                                                                     std::uint8_t const* bytes, std::uint64_t dict_bytes,
                                                                     std::uint32_t num_tokens, std::uint32_t entries,
                                                                     int w, std::uint8_t* lo, std::uint8_t* hi)
{
  for (std::uint32_t e = blockIdx.x * blockDim.x + threadIdx.x; e < entries; e += gridDim.x * blockDim.x) {
    std::uint64_t const off = e < num_tokens ? offsets[e] : 0;
    std::uint64_t const len = e < num_tokens ? min(std::uint64_t{min(std::uint32_t{lengths[e]}, 16u)}, dict_bytes - min(off, dict_bytes)) : 0;
    for (int b = 0; b < 16; ++b) {
      std::uint8_t const v = b < len ? bytes[off + b] : std::uint8_t{0};
      if (b < w) lo[std::uint64_t{e} * w + b] = v;
      else if (hi != nullptr) hi[std::uint64_t{e} * (16 - w) + (b - w)] = v;
    }
  }
}

/** The length plane (planes.hpp): byte i holds len(2i) − 1 in its low nibble and len(2i + 1) − 1
 *  in its high one, zero for entries >= num_tokens (lengths clamped to 1..16). */
FASTPAIR_KERNEL __launch_bounds__(256) void length_plane_kernel(std::uint8_t const* lengths, std::uint32_t num_tokens,
                                                                std::uint32_t entries, std::uint8_t* out)
{
  auto nibble = [&](std::uint32_t e) -> std::uint32_t {
    return e < num_tokens ? min(max(std::uint32_t{lengths[e]}, 1u), 16u) - 1 : 0u;
  };
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < entries / 2; i += gridDim.x * blockDim.x)
    out[i] = static_cast<std::uint8_t>(nibble(2 * i) | nibble(2 * i + 1) << 4);
}

/** The dictionary's uniqueness test (validate_dictionary's, on the GPU, so that the host never
 *  hashes 65 536 tokens): an open-addressing table of u64 slots, each (fingerprint, length,
 *  token + 1). Token t's length is clamped to 1..16 and its reads to `dict_bytes`, so the pass is
 *  safe before the host has checked the dictionary's shape. */
struct token_table {
  std::uint8_t const* lengths  = nullptr;  ///< one u8 per token
  std::uint32_t const* offsets = nullptr;  ///< exclusive sums of the lengths
  std::uint8_t const* bytes    = nullptr;
  std::uint64_t dict_bytes     = 0;
  std::uint32_t num_tokens     = 0;
  int table_bits               = 0;        ///< 2^table_bits >= 2 num_tokens slots, zeroed
  unsigned long long* slots    = nullptr;

  static constexpr unsigned long long index_mask = 0x7FFFFFFull;  // token + 1: 27 bits; length: 5 above

  __device__ std::uint32_t window(std::uint32_t t, std::uint64_t& lo, std::uint64_t& hi) const
  {
    std::uint32_t const len = min(max(std::uint32_t{lengths[t]}, 1u), 16u);
    std::uint64_t const off = offsets[t];
    lo = hi = 0;
    for (std::uint32_t b = 0; b < len; ++b) {
      std::uint64_t const v = off + b < dict_bytes ? bytes[off + b] : 0;
      if (b < 8) lo |= v << (8 * b);
      else hi |= v << (8 * (b - 8));
    }
    return len;
  }
  /** Token t's key (fingerprint | length | t + 1), its first slot, and its window. */
  __device__ unsigned long long key(std::uint32_t t, std::uint64_t& slot, std::uint64_t& lo, std::uint64_t& hi) const
  {
    std::uint32_t const len = window(t, lo, hi);
    std::uint64_t const h   = (lo ^ (hi * 0xC2B2AE3D27D4EB4Full) ^ (std::uint64_t{len} << 59)) * 0x9E3779B97F4A7C15ull;
    slot                    = h >> (64 - table_bits);
    return ((h << 24) & 0xFFFFFFFF00000000ull) | (std::uint64_t{len} << 27) | (t + 1);
  }
  /** Whether slot entry e holds a token equal to the one of key `mine` and window (lo, hi). */
  __device__ bool same(unsigned long long e, unsigned long long mine, std::uint64_t lo, std::uint64_t hi) const
  {
    if ((e & ~index_mask) != (mine & ~index_mask)) return false;
    std::uint64_t lo2 = 0, hi2 = 0;
    window(static_cast<std::uint32_t>(e & index_mask) - 1, lo2, hi2);
    return lo2 == lo && hi2 == hi;
  }
};

/** Pass 1: every token into the table; equal tokens share one slot, which keeps the smallest
 *  index (their keys differ only there, so atomicMin picks it). */
FASTPAIR_KERNEL __launch_bounds__(256) void insert_tokens_kernel(token_table t)
{
  std::uint64_t const mask = (std::uint64_t{1} << t.table_bits) - 1;
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < t.num_tokens; i += gridDim.x * blockDim.x) {
    std::uint64_t k = 0, lo = 0, hi = 0;
    unsigned long long const mine = t.key(i, k, lo, hi);
    for (;; k = (k + 1) & mask) {
      unsigned long long const prev = atomicCAS(t.slots + k, 0ull, mine);
      if (prev == 0) break;
      if (t.same(prev, mine, lo, hi)) {
        atomicMin(t.slots + k, mine);
        break;
      }
    }
  }
}

/** Pass 2: a token whose slot holds a smaller index equals an earlier token; the smallest such
 *  index (the one validate_dictionary names) goes to report->duplicate as its complement. */
FASTPAIR_KERNEL __launch_bounds__(256) void find_duplicate_tokens_kernel(token_table t, prepare_report* report)
{
  std::uint64_t const mask = (std::uint64_t{1} << t.table_bits) - 1;
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < t.num_tokens; i += gridDim.x * blockDim.x) {
    std::uint64_t k = 0, lo = 0, hi = 0;
    unsigned long long const mine = t.key(i, k, lo, hi);
    for (;; k = (k + 1) & mask) {
      unsigned long long const e = t.slots[k];
      if (e == 0) break;  // not reached: pass 1 placed every token
      if (t.same(e, mine, lo, hi)) {
        if (e != mine) atomicMax(&report->duplicate, ~i);
        break;
      }
    }
  }
}

/** The code and decoded positions of rows `rows[0..n)` (one block per row): row r's first code is
 *  block_codes[r / RB] plus the counts before it in its block, its decoded position that code's
 *  (warp_code_position). out[2i] = code, out[2i + 1] = byte position. */
template <int W>
FASTPAIR_KERNEL __launch_bounds__(32) void row_positions_kernel(column_view<W> col, row_counts_view counts,
                                                                std::uint64_t const* block_codes,
                                                                std::uint64_t const* rows, std::uint64_t* out)
{
  unsigned const lane   = threadIdx.x;
  std::uint64_t const r = rows[blockIdx.x];
  std::uint64_t const k = r / row_block_rows;
  std::uint64_t s       = 0;
  for (std::uint64_t i = k * row_block_rows + lane; i < r; i += 32) s += counts.count(i);
  for (int d = 16; d > 0; d /= 2) s += __shfl_down_sync(0xFFFFFFFFu, s, d);
  s = __shfl_sync(0xFFFFFFFFu, s, 0);
  std::uint64_t const c = min(block_codes[k] + s, col.num_codes);
  std::uint64_t const p = warp_code_position(col, c, lane);
  if (lane == 0) {
    out[2 * blockIdx.x]     = c;
    out[2 * blockIdx.x + 1] = p;
  }
}

/** Sidecar pre-pass: seg_bytes[s] = decoded bytes of segment s, s in [seg_begin, seg_end) (one
 *  warp per segment, grid-stride over the segments, the codes read by for_each_code). Codes that
 *  are out of range count as entry 0, as in the decoder, and set the error word. A segment may
 *  decode to more than 4 GiB (strides up to 2^32 - 1 codes): each lane's sum fits 32 bits (at most
 *  2^27 codes of 16 bytes), the warp's sum is taken in 64.
 *  `Histogram` (strides up to fused_histogram_max_stride only) also adds the token-length
 *  histogram of the codes in the dictionary, so that no other pass reads the codes for it: one
 *  shared-memory atomic per code into the warp's own 16 bins (fewer instructions than counting in
 *  registers), added to `histogram` once per block. A warp's bins count at most the codes of its
 *  segments: below 2^32 for any column that fits in device memory (the launch's grid has
 *  min(segments / 8, 65 535) blocks, and a segment at most 65 535 codes). */
inline constexpr std::uint64_t fused_histogram_max_stride = 65535;

template <int W, bool Histogram>
FASTPAIR_KERNEL __launch_bounds__(256) void segment_lengths_kernel(column_view<W> col, std::uint64_t* seg_bytes,
                                                                   std::uint64_t seg_begin, std::uint64_t seg_end,
                                                                   std::uint64_t* histogram)
{
  __shared__ unsigned int bins[8][16];  // [warp][token length - 1]
  unsigned const lane = threadIdx.x & 31u, warp = threadIdx.x / 32;
  if constexpr (Histogram) {
    if (threadIdx.x < 8 * 16) bins[threadIdx.x / 16][threadIdx.x % 16] = 0;
    __syncthreads();
  }
  std::uint64_t const nwarps = std::uint64_t{gridDim.x} * (blockDim.x / 32);
  for (std::uint64_t seg = seg_begin + (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; seg < seg_end;
       seg += nwarps) {
    std::uint64_t const c_begin = seg * col.sidecar_stride;
    std::uint64_t const c_end   = min(c_begin + col.sidecar_stride, col.num_codes);
    std::uint32_t sum = 0, errors = 0;  // sum: token lengths - 1; the codes' count is added below
    for_each_code(col.codes, col.code_bits, c_begin, c_end, lane, 32, [&](std::uint32_t c) {
      bool const in_range = c < col.num_tokens;
      if (!in_range) errors = code_out_of_range;
      std::uint32_t const k = col.entry_nibble(in_range ? c : 0u);
      sum += k;
      if (Histogram && in_range) atomicAdd(&bins[warp][k], 1u);
    });
    // 32-bit reductions of the low and high halves: each half's warp sum fits 32 bits.
    std::uint64_t const total = warp_sum(sum & 0xFFFFu) + (std::uint64_t{warp_sum(sum >> 16)} << 16) + (c_end - c_begin);
    errors = warp_or(errors);
    if (lane == 0) {
      seg_bytes[seg] = total;
      if (errors) atomicOr(col.error, errors);
    }
  }
  if constexpr (Histogram) {
    __syncthreads();
    if (threadIdx.x < 16) {
      unsigned long long v = 0;
#pragma unroll
      for (int w = 0; w < 8; ++w) v += bins[w][threadIdx.x];
      if (v != 0) atomicAdd(reinterpret_cast<unsigned long long*>(histogram + threadIdx.x + 1), v);
    }
  }
}

/** The per-code length stream (column_view::code_lengths): word t holds the length-1 nibbles of
 *  codes 8t .. 8t+7 (code 8t in bits 0..3). Out-of-range codes take entry 0's length, as the
 *  decoder reads entry 0 for them. */
template <int W>
FASTPAIR_KERNEL __launch_bounds__(256) void code_lengths_kernel(column_view<W> col, std::uint32_t* out, std::uint64_t words)
{
  for (std::uint64_t t = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; t < words;
       t += std::uint64_t{gridDim.x} * blockDim.x) {
    std::uint32_t word = 0;
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      std::uint64_t const i = 8 * t + k;
      std::uint32_t c       = i < col.num_codes ? load_code(col, i) : 0u;
      if (c >= col.num_tokens) c = 0;
      word |= col.entry_nibble(c) << (4 * k);
    }
    out[t] = word;
  }
}

/** The fused code stream (column_view::code_words) of a dictionary of at most 4 096 entries:
 *  word i = code i (12 bits) | (token length - 1) << 12. An out-of-range code keeps its value
 *  (the decoder detects and clamps it) and takes entry 0's length, as the decoder reads entry 0. */
template <int W>
FASTPAIR_KERNEL __launch_bounds__(256) void fused_codes_kernel(column_view<W> col, std::uint16_t* out)
{
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < col.num_codes;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    std::uint32_t const raw = load_code(col, i);
    if (raw > 0xFFFu) atomicOr(col.error, code_out_of_range);  // not from a 12-bit stream: cannot be fused
    std::uint32_t const c = raw & 0xFFFu;
    std::uint32_t const e = c < col.num_tokens ? c : 0u;
    out[i] = static_cast<std::uint16_t>(c | (col.entry_nibble(e) << 12));
  }
}

}  // namespace fastpair::detail
