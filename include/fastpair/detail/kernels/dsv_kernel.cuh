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
 * - Materialise: `dsv_lengths_kernel` (one thread per field, reads in input order) writes the
 *   field lengths column after column; one in-place cub::DeviceScan::InclusiveSum over all of them;
 *   `dsv_offsets_kernel` (one thread per offset) subtracts each column's base into its Arrow
 *   offsets and gathers the column sizes. One scan, not one per column: ncu on the H200, a 16.7 MB
 *   lineitem input (16 columns), 117 of 508 us of kernel time went to 16 launch-bound scans, a
 *   fixed cost that every streamed batch paid. (Reading the lengths through a transform iterator in
 *   column order instead of the lengths kernel was 9 % slower on 1 GB of lineitem: strided reads.)
 *   Then `dsv_scatter_kernel`: every thread walks its chunk a third time and records its actions in
 *   shared memory, and each warp stores its emitted bytes into the columns 32 consecutive input
 *   bytes at a time (see the kernel). No intermediate buffer of kept bytes: measured on the H200,
 *   reddit tiled to 1 GB, a kept buffer + a gather with a binary search per 32 kept bytes gave
 *   35 GB/s materialised. Every record has the same number of fields (the check guarantees it), so
 *   field f is column f % fields_per_record of record f / fields_per_record.
 */
#pragma once

#include <fastpair/detail/cuda.cuh>
#include <fastpair/detail/dsv_machine.hpp>

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
  // Unrolled with constant indices, so that w stays in registers (a loop to `len` put it in local
  // memory for every chunk: a 32-byte stack frame in all four walking kernels).
#pragma unroll
  for (int k = 0; k < chunk_bytes; ++k)
    if (static_cast<unsigned>(k) < len) w[k / 4] |= std::uint32_t{__ldg(in + begin + k)} << (8 * (k % 4));
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

/** @brief Chunk c's own counts and the counts of all input before it (passes 3 and 4). */
struct chunk_counts {
  counts mine, prefix;
};
/** Block scan of the packed counts + the block's base; every thread of the block must call it. */
__device__ __forceinline__ chunk_counts chunk_prefix(std::uint32_t const* packed, counts const* block_base,
                                                     std::uint64_t chunks, std::uint64_t c)
{
  using scan_t = cub::BlockScan<counts, block_threads>;
  __shared__ typename scan_t::TempStorage tmp;
  chunk_counts r{c < chunks ? unpack_counts(packed[c]) : counts{}, counts{}};
  scan_t(tmp).ExclusiveScan(r.mine, r.prefix, block_base[blockIdx.x], counts_sum{});
  return r;
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
  std::uint64_t const c = std::uint64_t{blockIdx.x} * block_threads + threadIdx.x;
  auto const [mine, prefix] = chunk_prefix(packed, block_base, chunks, c);
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

/** lens[j * rows + i] = kept length of field j of data row i (column after column). */
template <class Tag = void>
FASTPAIR_KERNEL __launch_bounds__(block_threads) void dsv_lengths_kernel(std::uint64_t const* field_kept_end,
                                                                         std::uint64_t rows, std::uint64_t ncols,
                                                                         std::uint64_t fields_per_record,
                                                                         std::uint64_t first_data, std::int64_t* lens)
{
  std::uint64_t const t = std::uint64_t{blockIdx.x} * block_threads + threadIdx.x;
  if (t >= rows * ncols) return;
  std::uint64_t const i = t / ncols, j = t % ncols;  // consecutive threads read consecutive fields
  std::uint64_t const f = (first_data + i) * fields_per_record + j;
  lens[j * rows + i]    = static_cast<std::int64_t>(field_kept_end[f] - (f == 0 ? 0 : field_kept_end[f - 1]));
}

/**
 * Arrow offsets of every column from the inclusive scan of dsv_lengths_kernel's output: thread
 * k = j * (rows + 1) + r writes t[j].offsets[r] (the running sum of column j up to row r) and, for
 * r = rows, sizes[j] (the column's chars size, read back in one copy).
 */
template <class Tag = void>
FASTPAIR_KERNEL __launch_bounds__(block_threads) void dsv_offsets_kernel(std::int64_t const* running,
                                                                         std::uint64_t rows, std::uint64_t ncols,
                                                                         column_target const* t, std::int64_t* sizes)
{
  std::uint64_t const k = std::uint64_t{blockIdx.x} * block_threads + threadIdx.x;
  if (k >= (rows + 1) * ncols) return;
  std::uint64_t const j = k / (rows + 1), r = k % (rows + 1);
  std::int64_t const base = j == 0 ? 0 : running[j * rows - 1];
  std::int64_t const v    = r == 0 ? 0 : running[j * rows + r - 1] - base;
  t[j].offsets[r]         = v;
  if (r == rows) sizes[j] = v;
}

/**
 * Column base of field f whose first kept byte has kept index `fstart`: the destination of kept
 * byte k of the field is base + k; `no_column` if the field goes to no column (header, the
 * trailing delimiter's empty field, a partial record at a batch end).
 */
constexpr std::int64_t no_column = INT64_MIN;
__device__ __forceinline__ std::int64_t field_base(std::uint64_t f, std::uint64_t fstart, std::uint64_t num_fields,
                                                   std::uint64_t fields_per_record, std::uint64_t first_data,
                                                   std::uint64_t records, std::uint64_t ncols,
                                                   column_target const* cols)
{
  std::uint64_t const rec = f / fields_per_record, j = f % fields_per_record;
  if (f >= num_fields || rec < first_data || rec >= records || j >= ncols) return no_column;
  column_target const col = cols[j];
  return reinterpret_cast<std::int64_t>(col.chars + col.offsets[rec - first_data]) - static_cast<std::int64_t>(fstart);
}

/**
 * Materialise: field f is column f % fields_per_record of record f / fields_per_record, at offset
 * (kept index - kept start of f) in that row; bytes of the header and of a trailing partial record
 * (streaming) are skipped. Two phases per warp (32 chunks = 1 KiB of input):
 * 1. every thread walks its chunk once more from its start state and records each byte's emit /
 *    end-of-field action in shared memory;
 * 2. the lanes look up the column position (field_base) of every field that starts in or runs
 *    into the warp's 1 KiB, one field per lane at a time, into a per-warp table in shared memory
 *    (independent loads, consecutive field ends);
 * 3. the warp goes over its 1 KiB in 32 steps of 32 consecutive bytes, lane i taking byte i of the
 *    step: ballots of the actions give each byte its kept index and field, the first byte of each
 *    field in a step reads the field's position from the table and shares it by shuffle, and the
 *    lanes store 32 consecutive input bytes into (mostly) consecutive column bytes: one or two
 *    sectors per warp store.
 * Storing each byte from the thread that walked it (the previous version) touched 32 sectors per
 * warp store: ncu on the H200, 72 MB of reddit_posts: L2 throughput 82 %, 724 us, 53 % of the
 * whole parse. Looking the fields up inside the 32 steps serialised their latency (lineitem,
 * ~7-byte fields: 9 % slower than the previous version); looking them up during the walk of step 1
 * (32 inlined copies) was slower still.
 */
template <class Tag = void>
FASTPAIR_KERNEL __launch_bounds__(block_threads) void dsv_scatter_kernel(
  gpu_dfa m, unsigned char const* in, std::uint64_t n, std::uint64_t chunks, std::uint32_t const* start_tv,
  std::uint32_t const* packed, counts const* block_base, std::uint64_t const* field_kept_end, std::uint64_t num_fields,
  std::uint64_t fields_per_record, std::uint64_t first_data, std::uint64_t records, std::uint64_t ncols,
  column_target const* cols)
{
  constexpr unsigned warps = block_threads / 32, table = 256;  // fields per warp with a table entry
  __shared__ std::uint32_t actions[block_threads * chunk_bytes / 4];  // one action byte per input byte
  __shared__ std::int64_t bases[warps][table];  // field_base of field f0 + i of the warp
  std::uint64_t const c     = std::uint64_t{blockIdx.x} * block_threads + threadIdx.x;
  auto const [mine, prefix] = chunk_prefix(packed, block_base, chunks, c);
  constexpr unsigned full = 0xFFFFFFFFu;
  if (!__any_sync(full, c < chunks && mine.bytes > 0)) return;  // the warp emits nothing
  unsigned const lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  auto const lookup_field = [&](std::uint64_t f) {
    return field_base(f, f == 0 ? 0 : field_kept_end[f - 1], num_fields, fields_per_record, first_data, records,
                      ncols, cols);
  };

  // Phase 1: the actions of this thread's chunk (emit and end-of-field only).
#pragma unroll
  for (int i = 0; i < chunk_bytes / 4; ++i) actions[threadIdx.x * (chunk_bytes / 4) + i] = 0;
  auto* const act = reinterpret_cast<unsigned char*>(actions + (threadIdx.x - lane) * (chunk_bytes / 4));
  if (c < chunks && (mine.bytes | mine.fields) != 0) {
    std::uint32_t w[chunk_bytes / 4];
    unsigned const len = load_chunk(in, n, c, w);
    std::uint64_t const begin = c * chunk_bytes;
    walk(m, w, len, begin, start_tv[c] & 0xFu, false, n, [&](std::uint64_t p, unsigned a, unsigned) {
      act[lane * chunk_bytes + (p - begin)] = static_cast<unsigned char>(a & (dsv::emit | dsv::end_field));
    });
  }
  // Phase 2: fields f0 .. f0 + fields of the warp (the last one may run on past the warp).
  std::uint64_t const f0     = __shfl_sync(full, prefix.fields, 0);
  std::uint64_t const fields = __shfl_sync(full, prefix.fields + mine.fields, 31) - f0 + 1;
  unsigned const tabled      = fields < table ? static_cast<unsigned>(fields) : table;
  for (unsigned i = lane; i < tabled; i += 32) bases[warp][i] = lookup_field(f0 + i);
  __syncwarp();

  // Phase 3: 32 consecutive bytes per step.
  std::uint64_t kept = __shfl_sync(full, prefix.bytes, 0);  // kept index of the step's first byte
  std::uint64_t f    = f0;                                   // field of the step's first byte
  std::uint64_t const first = (c - lane) * chunk_bytes;      // input offset of the warp's first byte
  std::uint64_t carried_f   = UINT64_MAX;                    // field of the last byte emitted so far
  std::int64_t carried_base = no_column;
  unsigned const lower      = (1u << lane) - 1u;  // lanes before this one
  for (unsigned step = 0; step < 32; ++step) {
    unsigned const a     = act[step * 32 + lane];
    bool const e         = (a & dsv::emit) != 0;
    unsigned const emask = __ballot_sync(full, e);
    unsigned const fmask = __ballot_sync(full, (a & dsv::end_field) != 0);
    if (emask != 0) {
      std::uint64_t const my_f = f + __popc(fmask & lower);  // field ends strictly before this byte
      std::uint64_t const my_k = kept + __popc(emask & lower);
      // A field's first emitted byte in this step fetches its position: no emitting lane before it
      // in the step and a new field, or a field end between the previous emitting lane and it.
      unsigned const before = emask & lower;
      bool leader           = false;
      if (e) {
        if (before == 0) {
          leader = my_f != carried_f;
        } else {
          unsigned const pe = 31u - static_cast<unsigned>(__clz(before));
          leader            = (fmask & lower & ~((1u << pe) - 1u)) != 0;
        }
      }
      std::int64_t base = no_column;
      if (leader) base = my_f - f0 < tabled ? bases[warp][my_f - f0] : lookup_field(my_f);
      unsigned const lmask       = __ballot_sync(full, leader) & (lower | (1u << lane));
      std::int64_t const from    = __shfl_sync(full, base, lmask ? 31 - __clz(lmask) : 0);
      std::int64_t const my_base = lmask ? from : carried_base;
      std::uint64_t const x      = first + step * 32 + lane;
      if (e && my_base != no_column && x < n)
        *reinterpret_cast<char*>(my_base + static_cast<std::int64_t>(my_k)) = static_cast<char>(__ldg(in + x));
      unsigned const last = 31u - static_cast<unsigned>(__clz(emask));
      carried_f    = __shfl_sync(full, my_f, last);
      carried_base = __shfl_sync(full, my_base, last);
    }
    kept += __popc(emask);
    f += __popc(fmask);
  }
}

}  // namespace fastpair::detail::dsv_gpu
