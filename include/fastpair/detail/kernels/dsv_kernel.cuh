// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file dsv_kernel.cuh
 * @brief The kernels of the GPU DSV parser (dsv.cuh), the ParPaRaw scheme on the DFA of dsv.hpp.
 *
 * Design note.
 * - Work unit: one thread owns one chunk of `chunk_bytes` (32) consecutive input bytes; a block of
 *   `block_threads` (256) threads owns one 8 KiB tile. A full chunk of 16-byte-aligned input is read
 *   with two 16-byte loads (a warp reads 1 KiB of contiguous input per pair of loads, the second
 *   load hits the sectors the first brought into L1); bytes are then taken from registers. Partial
 *   or misaligned chunks fall back to byte loads. Nothing is staged in shared memory.
 * - The DFA (`gpu_dfa`, kernel argument, so it lives in the constant bank): for each of the five
 *   byte classes one u32 of next states (nibble s = next state from s) and one u64 of actions
 *   (byte s = action from s). A byte is classified with four compares (no table lookup), then one
 *   shift+mask gives the next state of one simulated state.
 * - Kernels are templates (`Tag = void`) only so that the header can be included by several TUs.
 * - Pass 1 (`dsv_tv_kernel`): every thread simulates all 7 start states over its chunk in 7
 *   registers and writes its transition vector (7 nibbles in a u32). cub::DeviceScan::ExclusiveScan
 *   with dsv::compose (associative, not commutative; decoupled look-back) gives each chunk the
 *   vector of all bytes before it; its nibble 0 is the chunk's true start state.
 * - Pass 2 (`dsv_count_kernel`): every thread walks its chunk from its start state and counts
 *   end_field / end_record / emit actions (each <= 33, packed as bytes of one u32 per chunk); the
 *   block sums them (cub::BlockReduce) into one u64 triple per block, scanned by cub::DeviceScan.
 * - Pass 3 (`dsv_write_kernel`): cub::BlockScan of the packed counts + the block base gives every
 *   thread its first global field / record / kept-byte index; the thread walks again and writes
 *   field ends (kept-byte offsets, and input offsets for the boundaries API) and record ends. The
 *   thread that takes the (unique: `failed` absorbs) transition into `failed`, or applies an error
 *   at the end of input, stores kind/offset/record in the status block: one writer, no atomics.
 * - Checks (`dsv_check_kernel`): one thread per record; a bad record does one atomicMin on the
 *   status (bad records are rare, so there is no per-byte or per-record atomic traffic).
 * - Materialise: `dsv_lengths_kernel` (one thread per (row, column)), one cub::DeviceScan::
 *   InclusiveSum per column into Arrow offsets, then `dsv_scatter_kernel`: every thread walks its
 *   chunk a third time and stores its emitted bytes straight into the columns (no intermediate
 *   buffer of kept bytes: measured on the H200, reddit tiled to 1 GB, a kept buffer + a gather with
 *   a binary search per 32 kept bytes gave 35 GB/s materialised). Every record has the same number
 *   of fields (the check guarantees it), so field f is column f % fields_per_record of record
 *   f / fields_per_record; a 1 GB field is written by 31 M threads.
 */
#pragma once

#include <fastpair/detail/cuda.cuh>
#include <fastpair/dsv.hpp>

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include <cstdint>

namespace fastpair::detail::dsv_gpu {

constexpr int chunk_bytes   = 32;   ///< input bytes per thread
constexpr int block_threads = 256;  ///< threads per block (one 8 KiB tile)

/** @brief The DFA of dsv.hpp packed for registers (see the design note). */
struct gpu_dfa {
  std::uint32_t next[dsv::num_classes];  ///< nibble s: next state from s
  std::uint64_t act[dsv::num_classes];   ///< byte s: action from s
  std::uint64_t eof_act;                 ///< byte s: end-of-input action in s
  unsigned delimiter, quote, cr, lf;     ///< cr == 256 (never matches) when !crlf
};

/** @brief Packs dsv::make_machine(d) into a gpu_dfa (host). */
inline gpu_dfa make_gpu_dfa(dsv_dialect const& d)
{
  dsv::machine const m = dsv::make_machine(d);
  gpu_dfa g{};
  for (unsigned c = 0; c < dsv::num_classes; ++c)
    for (unsigned s = 0; s < dsv::num_states; ++s) {
      g.next[c] |= std::uint32_t{m.next[s][c]} << (4 * s);
      g.act[c] |= std::uint64_t{m.act[s][c]} << (8 * s);
    }
  for (unsigned s = 0; s < dsv::num_states; ++s) g.eof_act |= std::uint64_t{m.eof_act[s]} << (8 * s);
  g.delimiter = static_cast<unsigned char>(d.delimiter);
  g.quote     = static_cast<unsigned char>(d.quote);
  g.cr        = d.crlf ? 13u : 256u;
  g.lf        = 10u;
  return g;
}

/** @brief Per-chunk / per-block counts of actions. */
struct counts {
  std::uint64_t fields  = 0;
  std::uint64_t records = 0;
  std::uint64_t bytes   = 0;
};
struct counts_sum {
  __host__ __device__ counts operator()(counts const& a, counts const& b) const
  {
    return {a.fields + b.fields, a.records + b.records, a.bytes + b.bytes};
  }
};
__device__ inline counts unpack_counts(std::uint32_t p)
{
  return {p & 0xFFu, (p >> 8) & 0xFFu, (p >> 16) & 0xFFu};
}

/** @brief Scan operator on raw transition vectors: "a, then b". */
struct compose_op {
  __host__ __device__ std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const
  {
    return dsv::compose(dsv::transition_vector{a}, dsv::transition_vector{b}).bits;
  }
};

/** @brief Written by the device, read by the host after a parse (zeroed before). */
struct status {
  std::uint32_t error_kind;        ///< dsv_error_kind of the syntax error (0: none)
  std::uint32_t pad;
  std::uint64_t error_offset;      ///< offset of the byte whose transition failed (input-relative)
  std::uint64_t error_records;     ///< records completed before the syntax error
  std::uint64_t first_bad_record;  ///< UINT64_MAX: none (set to that before the check kernel)
  std::uint64_t num_columns;       ///< columns (fields per record minus the trailing one)
  std::uint64_t last_open_quote;   ///< error path only: max offset of an opening quote
  std::uint64_t consumed;          ///< one past the last complete record's terminator (0: none)
};

/** @brief The input bytes of chunk c in 8 little-endian words; returns how many are valid. */
__device__ __forceinline__ unsigned load_chunk(unsigned char const* in, std::uint64_t n, std::uint64_t c,
                                               std::uint32_t (&w)[chunk_bytes / 4])
{
  std::uint64_t const begin = c * chunk_bytes;
  unsigned const len = begin >= n ? 0u : n - begin >= chunk_bytes ? unsigned{chunk_bytes} : static_cast<unsigned>(n - begin);
  if (len == chunk_bytes && (reinterpret_cast<std::uintptr_t>(in) & 15u) == 0) {
    uint4 const a = __ldg(reinterpret_cast<uint4 const*>(in + begin));
    uint4 const b = __ldg(reinterpret_cast<uint4 const*>(in + begin) + 1);
    w[0] = a.x, w[1] = a.y, w[2] = a.z, w[3] = a.w, w[4] = b.x, w[5] = b.y, w[6] = b.z, w[7] = b.w;
    return len;
  }
#pragma unroll
  for (int i = 0; i < chunk_bytes / 4; ++i) w[i] = 0;
  for (unsigned k = 0; k < len; ++k) w[k / 4] |= std::uint32_t{__ldg(in + begin + k)} << (8 * (k % 4));
  return len;
}

__device__ __forceinline__ unsigned byte_at(std::uint32_t const (&w)[chunk_bytes / 4], int k)
{
  return (w[k / 4] >> (8 * (k % 4))) & 0xFFu;
}

/** @brief Class-selected next-state word and action word of byte b. */
__device__ __forceinline__ void lookup(gpu_dfa const& m, unsigned b, std::uint32_t& next, std::uint64_t& act)
{
  int const c = b == m.delimiter ? 0 : b == m.quote ? 1 : b == m.cr ? 2 : b == m.lf ? 3 : 4;
  next = c == 0 ? m.next[0] : c == 1 ? m.next[1] : c == 2 ? m.next[2] : c == 3 ? m.next[3] : m.next[4];
  act  = c == 0 ? m.act[0] : c == 1 ? m.act[1] : c == 2 ? m.act[2] : c == 3 ? m.act[3] : m.act[4];
}

/** Pass 1: tv[c] = transition vector of chunk c (all 7 start states simulated at once). */
template <class Tag = void>
FASTPAIR_KERNEL __launch_bounds__(block_threads) void dsv_tv_kernel(gpu_dfa m, unsigned char const* in,
                                                                    std::uint64_t n, std::uint64_t chunks,
                                                                    std::uint32_t* tv)
{
  std::uint64_t const c = std::uint64_t{blockIdx.x} * block_threads + threadIdx.x;
  if (c >= chunks) return;
  std::uint32_t w[chunk_bytes / 4];
  unsigned const len = load_chunk(in, n, c, w);
  unsigned s[dsv::failed];  // start states 0..5; `failed` (6) maps to itself
#pragma unroll
  for (unsigned i = 0; i < dsv::failed; ++i) s[i] = i;
#pragma unroll
  for (int k = 0; k < chunk_bytes; ++k) {
    if (static_cast<unsigned>(k) < len) {
      std::uint32_t next;
      std::uint64_t act;
      lookup(m, byte_at(w, k), next, act);
#pragma unroll
      for (unsigned i = 0; i < dsv::failed; ++i) s[i] = (next >> (4 * s[i])) & 0xFu;
    }
  }
  std::uint32_t v = std::uint32_t{dsv::failed} << (4 * dsv::failed);
#pragma unroll
  for (unsigned i = 0; i < dsv::failed; ++i) v |= s[i] << (4 * i);
  tv[c] = v;
}

/**
 * @brief Walks chunk c from its start state, calling visit(offset, action, byte) for every
 * non-zero action (and, for the last chunk when at_end, the end-of-input action at offset n).
 */
template <class Visit>
__device__ __forceinline__ void walk(gpu_dfa const& m, std::uint32_t const (&w)[chunk_bytes / 4], unsigned len,
                                     std::uint64_t begin, unsigned start, bool eof, std::uint64_t n, Visit&& visit)
{
  unsigned s = start;
#pragma unroll
  for (int k = 0; k < chunk_bytes; ++k) {
    if (static_cast<unsigned>(k) < len) {
      unsigned const b = byte_at(w, k);
      std::uint32_t next;
      std::uint64_t act;
      lookup(m, b, next, act);
      unsigned const a = static_cast<unsigned>(act >> (8 * s)) & 0xFFu;
      if (a) visit(begin + k, a, b);
      s = (next >> (4 * s)) & 0xFu;
    }
  }
  if (eof) {
    unsigned const a = static_cast<unsigned>(m.eof_act >> (8 * s)) & 0xFFu;
    if (a) visit(n, a, 0u);
  }
}

/** Pass 2: per-chunk packed counts and per-block sums (block_counts[blockIdx.x]). */
template <class Tag = void>
FASTPAIR_KERNEL __launch_bounds__(block_threads) void dsv_count_kernel(gpu_dfa m, unsigned char const* in,
                                                                       std::uint64_t n, std::uint64_t chunks,
                                                                       bool at_end, std::uint32_t const* start_tv,
                                                                       std::uint32_t* packed, counts* block_counts)
{
  using reduce_t = cub::BlockReduce<counts, block_threads>;
  __shared__ typename reduce_t::TempStorage tmp;
  std::uint64_t const c = std::uint64_t{blockIdx.x} * block_threads + threadIdx.x;
  counts k{};
  if (c < chunks) {
    std::uint32_t w[chunk_bytes / 4];
    unsigned const len = load_chunk(in, n, c, w);
    unsigned f = 0, r = 0, b = 0;
    walk(m, w, len, c * chunk_bytes, start_tv[c] & 0xFu, at_end && c + 1 == chunks, n,
         [&](std::uint64_t, unsigned a, unsigned) {
           b += a & dsv::emit;
           f += (a & dsv::end_field) ? 1u : 0u;
           r += (a & dsv::end_record) ? 1u : 0u;
         });
    packed[c] = f | (r << 8) | (b << 16);
    k         = {f, r, b};
  }
  counts const total = reduce_t(tmp).Reduce(k, counts_sum{});
  if (threadIdx.x == 0) block_counts[blockIdx.x] = total;
}

/** @brief Where pass 3 writes. Null pointers are skipped. */
struct write_targets {
  std::uint64_t* field_kept_end;   ///< [fields] kept-byte offset where field f ends
  std::uint64_t* field_input_end;  ///< [fields] input offset of field f's terminator (n at the end); may be null
  std::uint64_t* record_fields;    ///< [records] fields completed at the end of record r
  std::uint64_t* record_end;       ///< [records] input offset of record r's terminator (n at the end)
  status* st;
};

/** Pass 3: global indices by block scan + block base, then the writes (see the design note). */
template <class Tag = void>
FASTPAIR_KERNEL __launch_bounds__(block_threads) void dsv_write_kernel(gpu_dfa m, unsigned char const* in,
                                                                       std::uint64_t n, std::uint64_t chunks,
                                                                       bool at_end, std::uint32_t const* start_tv,
                                                                       std::uint32_t const* packed,
                                                                       counts const* block_base, write_targets out)
{
  using scan_t = cub::BlockScan<counts, block_threads>;
  __shared__ typename scan_t::TempStorage tmp;
  std::uint64_t const c = std::uint64_t{blockIdx.x} * block_threads + threadIdx.x;
  counts mine = c < chunks ? unpack_counts(packed[c]) : counts{};
  counts prefix;
  scan_t(tmp).ExclusiveScan(mine, prefix, block_base[blockIdx.x], counts_sum{});
  if (c >= chunks) return;
  std::uint32_t w[chunk_bytes / 4];
  unsigned const len = load_chunk(in, n, c, w);
  std::uint64_t b = prefix.bytes, f = prefix.fields, r = prefix.records;
  walk(m, w, len, c * chunk_bytes, start_tv[c] & 0xFu, at_end && c + 1 == chunks, n,
       [&](std::uint64_t p, unsigned a, unsigned) {
         if (a & dsv::emit) ++b;
         if (a & dsv::end_field) {
           out.field_kept_end[f] = b;
           if (out.field_input_end) out.field_input_end[f] = p;
           ++f;
         }
         if (a & dsv::end_record) {
           out.record_fields[r] = f;
           out.record_end[r]    = p;
           ++r;
         }
         if (a >> 4) {  // the unique transition into `failed` (or an end-of-input error)
           out.st->error_kind    = a >> 4;
           out.st->error_offset  = p;
           out.st->error_records = r;
         }
       });
}

/** Per-record checks: the first record with a missing trailing delimiter or a wrong field count. */
template <class Tag = void>
FASTPAIR_KERNEL __launch_bounds__(block_threads) void dsv_check_kernel(
  std::uint64_t const* record_fields, std::uint64_t const* field_kept_end, std::uint64_t const* record_ends,
  std::uint64_t records, std::int64_t expected_columns, bool trailing, status* st)
{
  std::uint64_t const drop = trailing ? 1 : 0;
  std::uint64_t ncols      = 0;
  if (expected_columns >= 0)
    ncols = static_cast<std::uint64_t>(expected_columns);
  else if (records > 0)
    ncols = record_fields[0] >= drop ? record_fields[0] - drop : 0;
  std::uint64_t const r = std::uint64_t{blockIdx.x} * block_threads + threadIdx.x;
  if (r == 0) st->num_columns = ncols;
  if (r >= records) return;
  if (r + 1 == records) st->consumed = record_ends[r] + 1;  // read back with the status: one sync fewer
  std::uint64_t const first = r == 0 ? 0 : record_fields[r - 1];
  std::uint64_t const last  = record_fields[r];  // one past the record's last field
  std::uint64_t const raw   = last - first;
  bool bad                  = raw - drop != ncols;
  if (trailing) {
    std::uint64_t const lf = last - 1;
    std::uint64_t const len = field_kept_end[lf] - (lf == 0 ? 0 : field_kept_end[lf - 1]);
    bad = bad || raw < 2 || len != 0;
  }
  if (bad) atomicMin(reinterpret_cast<unsigned long long*>(&st->first_bad_record), static_cast<unsigned long long>(r));
}

/** Error path only: the offset of the last opening quote (for unterminated_quote). */
template <class Tag = void>
FASTPAIR_KERNEL __launch_bounds__(block_threads) void dsv_last_quote_kernel(gpu_dfa m, unsigned char const* in,
                                                                            std::uint64_t n, std::uint64_t chunks,
                                                                            std::uint32_t const* start_tv, status* st)
{
  std::uint64_t const c = std::uint64_t{blockIdx.x} * block_threads + threadIdx.x;
  if (c >= chunks) return;
  std::uint32_t w[chunk_bytes / 4];
  unsigned const len = load_chunk(in, n, c, w);
  unsigned long long last = 0;
  bool found              = false;
  walk(m, w, len, c * chunk_bytes, start_tv[c] & 0xFu, false, n, [&](std::uint64_t p, unsigned a, unsigned) {
    if (a & dsv::open_quote) {
      last  = p;
      found = true;
    }
  });
  if (found) atomicMax(reinterpret_cast<unsigned long long*>(&st->last_open_quote), last);
}

/** @brief One output column for the scatter. */
struct column_target {
  std::int64_t* offsets;  ///< rows + 1 (Arrow)
  char* chars;
};

/** sizes[j] = t[j].offsets[rows]: every column's chars size, read back in one copy. */
template <class Tag = void>
FASTPAIR_KERNEL void dsv_column_sizes_kernel(column_target const* t, std::uint64_t rows, std::uint64_t ncols,
                                             std::int64_t* sizes)
{
  for (std::uint64_t j = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; j < ncols; j += blockDim.x * gridDim.x)
    sizes[j] = t[j].offsets[rows];
}

/** lens[j * rows + i] = kept length of field j of data row i. */
template <class Tag = void>
FASTPAIR_KERNEL __launch_bounds__(block_threads) void dsv_lengths_kernel(std::uint64_t const* field_kept_end,
                                                                         std::uint64_t rows, std::uint64_t ncols,
                                                                         std::uint64_t fields_per_record,
                                                                         std::uint64_t first_data, std::int64_t* lens)
{
  std::uint64_t const t = std::uint64_t{blockIdx.x} * block_threads + threadIdx.x;
  if (t >= rows * ncols) return;
  std::uint64_t const i = t / ncols, j = t % ncols;
  std::uint64_t const f = (first_data + i) * fields_per_record + j;
  lens[j * rows + i]    = static_cast<std::int64_t>(field_kept_end[f] - (f == 0 ? 0 : field_kept_end[f - 1]));
}

/**
 * Materialise: every thread walks its chunk once more from its start state (global field and
 * kept-byte index from the same block scan as pass 3) and stores each emitted byte straight into
 * its column: field f is column f % fields_per_record of record f / fields_per_record, at offset
 * (kept index - kept start of f) in that row. Bytes of the header and of a trailing partial record
 * (streaming) are skipped.
 */
template <class Tag = void>
FASTPAIR_KERNEL __launch_bounds__(block_threads) void dsv_scatter_kernel(
  gpu_dfa m, unsigned char const* in, std::uint64_t n, std::uint64_t chunks, std::uint32_t const* start_tv,
  std::uint32_t const* packed, counts const* block_base, std::uint64_t const* field_kept_end, std::uint64_t num_fields,
  std::uint64_t fields_per_record, std::uint64_t first_data, std::uint64_t records, std::uint64_t ncols,
  column_target const* cols)
{
  using scan_t = cub::BlockScan<counts, block_threads>;
  __shared__ typename scan_t::TempStorage tmp;
  std::uint64_t const c = std::uint64_t{blockIdx.x} * block_threads + threadIdx.x;
  counts mine = c < chunks ? unpack_counts(packed[c]) : counts{};
  counts prefix;
  scan_t(tmp).ExclusiveScan(mine, prefix, block_base[blockIdx.x], counts_sum{});
  if (c >= chunks || mine.bytes == 0) return;
  std::uint32_t w[chunk_bytes / 4];
  unsigned const len = load_chunk(in, n, c, w);
  std::uint64_t b = prefix.bytes, f = prefix.fields;
  char* dst   = nullptr;
  bool locate = true;  // dst must be recomputed for field f at kept index b
  walk(m, w, len, c * chunk_bytes, start_tv[c] & 0xFu, false, n, [&](std::uint64_t, unsigned a, unsigned byte) {
    if (a & dsv::emit) {
      if (locate) {
        locate = false;
        dst    = nullptr;
        std::uint64_t const rec = f / fields_per_record, j = f % fields_per_record;
        if (f < num_fields && rec >= first_data && rec < records && j < ncols) {
          std::uint64_t const fstart = f == 0 ? 0 : field_kept_end[f - 1];
          column_target const col    = cols[j];
          dst = col.chars + col.offsets[rec - first_data] + (b - fstart);
        }
      }
      if (dst) *dst++ = static_cast<char>(byte);
      ++b;
    }
    if (a & dsv::end_field) {
      ++f;
      locate = true;
    }
  });
}

}  // namespace fastpair::detail::dsv_gpu
