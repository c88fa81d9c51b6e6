// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file dsv.cuh
 * @brief GPU parsing of delimiter-separated raw text (CSV, TPC-H .tbl, ...) into Arrow-style string
 * columns: the ParPaRaw scheme (issue 9) on the DFA of dsv.hpp. Same output and same errors as
 * `parse_dsv_reference()` for every input.
 *
 * - `parse_dsv_boundaries(bytes, n, dialect, stream)`: field and record boundaries in device memory
 *   (the cheap entry point: no kept bytes, no columns).
 * - `parse_dsv(bytes, n, dialect, stream)`: one `string_column<int64_t>` per field + header + count.
 * - `parse_dsv_streamed(host text, dialect, callback, options)`: input in host memory (pageable or
 *   pinned, any size): pinned staging, a copy stream and a compute stream, the copy of batch k+1
 *   overlapped with parsing batch k; a record cut by a batch end is carried into the next batch.
 *
 * Device memory (outputs, scratch, CUB temp storage, the streamer's windows) comes from the `mr`
 * argument of each entry point (default_device_resource() by default), the streamer's pinned
 * staging from its `host_mr` (default_host_resource()).
 *
 * No pass over the input is sequential: see detail/kernels/dsv_kernel.cuh and docs/DSV.md.
 * Errors: the first error in input order is thrown as `dsv_error` (kind, byte offset, 1-based
 * record number counting the header), exactly as the reference reports it.
 */
#pragma once

#include <fastpair/decode.cuh>
#include <fastpair/detail/cuda.cuh>
#include <fastpair/detail/kernels/dsv_kernel.cuh>
#include <fastpair/dsv.hpp>

#include <cub/device/device_scan.cuh>

#include <cuda/stream_ref>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace fastpair {

/**
 * @brief Field and record boundaries of parsed DSV bytes, in device memory. Offsets are relative
 * to the first parsed byte. Records include the header record when the dialect has one.
 */
struct dsv_boundaries {
  device_buffer<std::uint64_t> field_ends;       ///< [num_fields] input offset of field f's terminator (size at the end); empty from parse_dsv()
  device_buffer<std::uint64_t> field_kept_ends;  ///< [num_fields] end of field f in unquoted, unescaped bytes
  device_buffer<std::uint64_t> record_fields;    ///< [num_records] one past record r's last field
  device_buffer<std::uint64_t> record_ends;      ///< [num_records] input offset of record r's terminator (LF; size at the end)
  std::uint64_t num_fields        = 0;  ///< fields written (a batch cut mid-record also counts its partial fields)
  std::uint64_t num_records       = 0;  ///< complete records (header included)
  std::uint64_t num_columns       = 0;  ///< columns (fields per record minus the trailing one for trailing_delimiter)
  std::uint64_t kept_bytes        = 0;  ///< unquoted, unescaped bytes of all fields
  std::uint64_t consumed_bytes    = 0;  ///< one past the last record's terminator (streaming: where the carry starts)
};

/** @brief A parsed table in device memory: one Arrow large_utf8 column per field. */
struct device_dsv_table {
  std::vector<string_column<std::int64_t>> columns;  ///< columns[j]: field j of every data record
  std::vector<std::string> header;                   ///< field names when dialect.header, else empty
  std::uint64_t num_records = 0;                     ///< data records (the header not counted)

  std::size_t num_fields() const noexcept { return columns.size(); }

  /** @brief Copies to a host dsv_table (compare with parse_dsv_reference; pageable host memory, no
   *  device allocation). @note synchronizes `stream`. */
  dsv_table to_host(cuda::stream_ref stream = {}) const
  {
    dsv_table t;
    t.header      = header;
    t.num_records = num_records;
    for (auto const& c : columns) t.columns.push_back(c.to_host(stream));
    return t;
  }
};

namespace detail {

/** @brief Per-call settings of one parse over a device buffer (a whole input or one batch). */
struct dsv_pass_options {
  bool at_end                  = true;   ///< the bytes end the input (end-of-input actions apply)
  bool header                  = false;  ///< the first record of these bytes is the header
  std::int64_t expected_columns = -1;    ///< -1: the first record decides (+ dialect.expected_fields)
  bool input_ends              = true;   ///< write dsv_boundaries::field_ends
  std::uint64_t byte_base      = 0;      ///< input offset of the first byte (for error messages)
  std::uint64_t record_base    = 0;      ///< records before the first byte (for error messages)
};

/** @brief Temporary storage for one cub call, sized on demand. */
template <class Call>
void cub_call(Call&& call, cudaStream_t s, device_async_resource_ref mr)
{
  std::size_t bytes = 0;
  FASTPAIR_CUDA_TRY(call(nullptr, bytes));
  device_buffer<unsigned char> tmp(std::max<std::size_t>(bytes, 1), s, mr);
  FASTPAIR_CUDA_TRY(call(tmp.data(), bytes));
}

inline unsigned grid_for(std::uint64_t items, unsigned threads)
{
  std::uint64_t const g = (items + threads - 1) / threads;
  FASTPAIR_EXPECTS(g < (std::uint64_t{1} << 31), "DSV input too large for one launch");
  return static_cast<unsigned>(std::max<std::uint64_t>(g, 1));
}

template <class T>
T read_one(T const* p, cudaStream_t s)
{
  T v{};
  FASTPAIR_CUDA_TRY(cudaMemcpyAsync(&v, p, sizeof(T), cudaMemcpyDeviceToHost, s));
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
  return v;
}

/** @brief What dsv_materialize() reuses from the pass: the start states and the packed counts. */
struct dsv_scratch {
  dsv_gpu::gpu_dfa m{};
  unsigned char const* in = nullptr;
  std::uint64_t n = 0, chunks = 0;
  unsigned blocks = 0;
  device_buffer<std::uint32_t> start, packed;
  device_buffer<dsv_gpu::counts> block_base;
};

/**
 * @brief Passes 1-3 and the checks over `n` device bytes; throws the first error as dsv_error.
 * @note synchronizes `s` (twice: the totals, then the status with the last record's end).
 */
inline dsv_boundaries dsv_parse_pass(unsigned char const* in, std::uint64_t n, dsv_dialect const& d,
                                     dsv_pass_options const& opt, dsv_scratch* scratch, cudaStream_t s,
                                     device_async_resource_ref mr)
{
  using namespace dsv_gpu;
  gpu_dfa const m          = make_gpu_dfa(d);  // validates the dialect
  FASTPAIR_EXPECTS(n == 0 || in != nullptr, "parse_dsv: null input");
  std::uint64_t const chunks = std::max<std::uint64_t>(1, (n + chunk_bytes - 1) / chunk_bytes);
  unsigned const blocks      = grid_for(chunks, block_threads);

  // Pass 1 + scan: each chunk's start state.
  device_buffer<std::uint32_t> tv(chunks, s, mr), start(chunks, s, mr);
  dsv_tv_kernel<<<blocks, block_threads, 0, s>>>(m, in, n, chunks, tv.data());
  FASTPAIR_CUDA_TRY(cudaGetLastError());
  cub_call([&](void* t, std::size_t& b) {
    return cub::DeviceScan::ExclusiveScan(t, b, tv.data(), start.data(), compose_op{},
                                          dsv::transition_vector::identity().bits, chunks, s);
  }, s, mr);

  // Pass 2 + scan of the block sums (one extra zero entry gives the totals).
  device_buffer<std::uint32_t> packed(chunks, s, mr);
  device_buffer<counts> block_counts(blocks + 1, s, mr), block_base(blocks + 1, s, mr);
  FASTPAIR_CUDA_TRY(cudaMemsetAsync(block_counts.data() + blocks, 0, sizeof(counts), s));
  dsv_count_kernel<<<blocks, block_threads, 0, s>>>(m, in, n, chunks, opt.at_end, start.data(), packed.data(),
                                                     block_counts.data());
  FASTPAIR_CUDA_TRY(cudaGetLastError());
  cub_call([&](void* t, std::size_t& b) {
    return cub::DeviceScan::ExclusiveScan(t, b, block_counts.data(), block_base.data(), counts_sum{}, counts{},
                                          blocks + 1, s);
  }, s, mr);
  counts const total = read_one(block_base.data() + blocks, s);

  // Pass 3: the writes.
  dsv_boundaries out;
  out.num_fields      = total.fields;
  out.num_records     = total.records;
  out.kept_bytes      = total.bytes;
  out.field_kept_ends = device_buffer<std::uint64_t>(total.fields, s, mr);
  if (opt.input_ends) out.field_ends = device_buffer<std::uint64_t>(total.fields, s, mr);
  out.record_fields = device_buffer<std::uint64_t>(total.records, s, mr);
  out.record_ends   = device_buffer<std::uint64_t>(total.records, s, mr);
  device_buffer<status> st(1, s, mr);
  FASTPAIR_CUDA_TRY(cudaMemsetAsync(st.data(), 0, sizeof(status), s));
  FASTPAIR_CUDA_TRY(cudaMemsetAsync(&st.data()->first_bad_record, 0xFF, sizeof(std::uint64_t), s));
  write_targets const wt{out.field_kept_ends.data(), opt.input_ends ? out.field_ends.data() : nullptr,
                         out.record_fields.data(), out.record_ends.data(), st.data()};
  dsv_write_kernel<<<blocks, block_threads, 0, s>>>(m, in, n, chunks, opt.at_end, start.data(), packed.data(),
                                                     block_base.data(), wt);
  FASTPAIR_CUDA_TRY(cudaGetLastError());
  std::int64_t const expected = opt.expected_columns >= 0 ? opt.expected_columns : d.expected_fields;
  dsv_check_kernel<<<grid_for(total.records, block_threads), block_threads, 0, s>>>(
    out.record_fields.data(), out.field_kept_ends.data(), out.record_ends.data(), total.records, expected,
    d.trailing_delimiter, st.data());
  FASTPAIR_CUDA_TRY(cudaGetLastError());
  status h = read_one(st.data(), s);
  out.num_columns = h.num_columns;

  // The first error in input order: a bad completed record precedes any syntax error (records
  // stop at the first one, `failed` absorbs).
  if (h.first_bad_record != UINT64_MAX) {
    std::uint64_t const r     = h.first_bad_record;
    std::uint64_t const first = r == 0 ? 0 : read_one(out.record_fields.data() + r - 1, s);
    std::uint64_t const last  = read_one(out.record_fields.data() + r, s);
    std::uint64_t const begin = r == 0 ? 0 : read_one(out.record_ends.data() + r - 1, s) + 1;
    std::uint64_t const raw   = last - first;
    std::uint64_t const offset = opt.byte_base + begin, record = opt.record_base + r + 1;
    if (d.trailing_delimiter) {
      std::uint64_t const e1 = read_one(out.field_kept_ends.data() + last - 1, s);
      std::uint64_t const e0 = last >= 2 ? read_one(out.field_kept_ends.data() + last - 2, s) : 0;
      if (raw < 2 || e1 != e0) throw_dsv_error(dsv_error_kind::missing_trailing_delimiter, offset, record);
    }
    std::uint64_t const drop = d.trailing_delimiter ? 1 : 0;
    throw_dsv_error(dsv_error_kind::wrong_field_count, offset, record, raw - drop, h.num_columns);
  }
  if (h.error_kind != 0) {
    auto const kind      = static_cast<dsv_error_kind>(h.error_kind);
    std::uint64_t offset = h.error_offset;
    if (kind == dsv_error_kind::lone_carriage_return) offset -= 1;  // the CR itself
    if (kind == dsv_error_kind::unterminated_quote) {
      dsv_last_quote_kernel<<<blocks, block_threads, 0, s>>>(m, in, n, chunks, start.data(), st.data());
      FASTPAIR_CUDA_TRY(cudaGetLastError());
      offset = read_one(&st.data()->last_open_quote, s);
    }
    throw_dsv_error(kind, opt.byte_base + offset, opt.record_base + h.error_records + 1);
  }
  out.consumed_bytes = h.consumed;
  if (scratch) {
    scratch->m          = m;
    scratch->in         = in;
    scratch->n          = n;
    scratch->chunks     = chunks;
    scratch->blocks     = blocks;
    scratch->start      = std::move(start);
    scratch->packed     = std::move(packed);
    scratch->block_base = std::move(block_base);
  }
  return out;
}

/**
 * @brief Step 6, first half: a table whose column sizes are on their way to the host. The input
 * bytes, `b` and the scratch must stay alive until dsv_materialize_end() has launched the scatter.
 */
struct dsv_pending {
  device_dsv_table table;
  std::uint64_t rows = 0, ncols = 0, fpr = 0, first_data = 0;
  bool done = false;  ///< nothing left to do (no rows or no columns)
  std::vector<dsv_gpu::column_target> targets;
  device_buffer<dsv_gpu::column_target> d_targets;
  device_buffer<std::int64_t> d_sizes;
};

/**
 * @brief Every column's offsets (one cub InclusiveSum over all field lengths) and the sizes copied
 * to `host_sizes` (ncols entries; pinned memory keeps the copy asynchronous), all on `s`.
 * @note synchronizes `s` only for a header record (its bytes are parsed on the host).
 */
inline dsv_pending dsv_materialize_begin(dsv_boundaries const& b, dsv_scratch const& sc, dsv_dialect const& d,
                                         bool header, cudaStream_t s, std::int64_t* host_sizes,
                                         device_async_resource_ref mr)
{
  using namespace dsv_gpu;
  dsv_pending p;
  device_dsv_table& t = p.table;
  p.ncols             = b.num_columns;
  p.fpr               = p.ncols + (d.trailing_delimiter ? 1 : 0);
  p.first_data        = header && b.num_records > 0 ? 1 : 0;
  p.rows              = b.num_records - p.first_data;
  std::uint64_t const rows = p.rows, ncols = p.ncols;
  t.num_records       = rows;
  t.columns.resize(ncols);
  for (auto& c : t.columns) {
    c.num_rows = rows;
    c.offsets  = device_buffer<std::int64_t>(rows + 1, s, mr);
  }
  if (p.first_data) {  // the header record: parse its input bytes on the host with the reference
    std::uint64_t const end = std::min<std::uint64_t>(sc.n, read_one(b.record_ends.data(), s) + 1);
    std::string bytes(end, '\0');
    if (end) FASTPAIR_CUDA_TRY(cudaMemcpyAsync(bytes.data(), sc.in, end, cudaMemcpyDeviceToHost, s));
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
    dsv_dialect hd     = d;
    hd.header          = true;
    hd.expected_fields = static_cast<int>(ncols);
    t.header           = parse_dsv_reference(bytes, hd).header;
  }
  if (rows == 0 || ncols == 0) {
    for (auto& c : t.columns) {
      FASTPAIR_CUDA_TRY(cudaMemsetAsync(c.offsets.data(), 0, sizeof(std::int64_t), s));
      c.chars = device_buffer<char>(0, s, mr);
    }
    p.done = true;
    return p;
  }
  // Every column's offsets from one scan of all field lengths (column after column), then one
  // kernel that subtracts each column's base and gathers the column sizes for one copy back.
  p.targets.resize(ncols);
  for (std::uint64_t j = 0; j < ncols; ++j) p.targets[j] = {t.columns[j].offsets.data(), nullptr};
  p.d_targets = device_buffer<column_target>(ncols, s, mr);
  p.d_sizes   = device_buffer<std::int64_t>(ncols, s, mr);
  FASTPAIR_CUDA_TRY(cudaMemcpyAsync(p.d_targets.data(), p.targets.data(), ncols * sizeof(column_target),
                                    cudaMemcpyHostToDevice, s));
  std::uint64_t const items = rows * ncols;
  FASTPAIR_EXPECTS(items <= static_cast<std::uint64_t>(INT64_MAX), "parse_dsv: too many fields");
  device_buffer<std::int64_t> running(items, s, mr);
  dsv_lengths_kernel<<<grid_for(items, block_threads), block_threads, 0, s>>>(b.field_kept_ends.data(), rows, ncols,
                                                                             p.fpr, p.first_data, running.data());
  FASTPAIR_CUDA_TRY(cudaGetLastError());
  cub_call([&](void* tmp, std::size_t& bytes) {  // in place
    return cub::DeviceScan::InclusiveSum(tmp, bytes, running.data(), running.data(), static_cast<std::int64_t>(items), s);
  }, s, mr);
  dsv_offsets_kernel<<<grid_for((rows + 1) * ncols, block_threads), block_threads, 0, s>>>(
    running.data(), rows, ncols, p.d_targets.data(), p.d_sizes.data());
  FASTPAIR_CUDA_TRY(cudaGetLastError());
  FASTPAIR_CUDA_TRY(cudaMemcpyAsync(host_sizes, p.d_sizes.data(), ncols * sizeof(std::int64_t),
                                    cudaMemcpyDeviceToHost, s));
  return p;
}

/**
 * @brief Step 6, second half: allocates the chars of every column (sizes in `host_sizes`, which
 * the caller has waited for) and launches the scatter of the field bytes into them on `s` (a
 * third walk over the input, no intermediate buffer).
 */
inline device_dsv_table dsv_materialize_end(dsv_pending&& p, dsv_boundaries const& b, dsv_scratch const& sc,
                                            std::int64_t const* host_sizes, cudaStream_t s,
                                            device_async_resource_ref mr)
{
  using namespace dsv_gpu;
  if (p.done) return std::move(p.table);
  device_dsv_table& t = p.table;
  for (std::uint64_t j = 0; j < p.ncols; ++j) {
    t.columns[j].chars = device_buffer<char>(static_cast<std::size_t>(host_sizes[j]), s, mr);
    p.targets[j].chars = t.columns[j].chars.data();
  }
  FASTPAIR_CUDA_TRY(cudaMemcpyAsync(p.d_targets.data(), p.targets.data(), p.ncols * sizeof(column_target),
                                    cudaMemcpyHostToDevice, s));
  if (b.kept_bytes > 0) {
    dsv_scatter_kernel<<<sc.blocks, block_threads, 0, s>>>(sc.m, sc.in, sc.n, sc.chunks, sc.start.data(),
                                                           sc.packed.data(), sc.block_base.data(),
                                                           b.field_kept_ends.data(), b.num_fields, p.fpr,
                                                           p.first_data, b.num_records, p.ncols,
                                                           p.d_targets.data());
    FASTPAIR_CUDA_TRY(cudaGetLastError());
  }
  // p.targets (pageable) was staged by cudaMemcpyAsync before it returned; d_targets is freed
  // stream-ordered after the scatter.
  return std::move(p.table);
}

/**
 * @brief Step 6 in one call: dsv_materialize_begin, the sizes read back, dsv_materialize_end.
 * @note synchronizes `s` (to size each column's chars; and for a header record).
 */
inline device_dsv_table dsv_materialize(dsv_boundaries const& b, dsv_scratch const& sc, dsv_dialect const& d,
                                        bool header, cudaStream_t s, device_async_resource_ref mr)
{
  std::vector<std::int64_t> sizes(std::max<std::uint64_t>(b.num_columns, 1));
  dsv_pending p = dsv_materialize_begin(b, sc, d, header, s, sizes.data(), mr);
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
  return dsv_materialize_end(std::move(p), b, sc, sizes.data(), s, mr);
}

/**
 * @brief The windows of a streamed input of `n` bytes in batches of `B`: window w is
 * [edges[w], edges[w + 1]). B bytes each, except that an input of at least 8 B starts with windows
 * of B/8, B/4, B/2 and ends with B/2, B/4, B/8: nothing overlaps the first window's copy or the
 * last window's parse, so they are kept short. An empty input is one empty window.
 */
inline std::vector<std::size_t> dsv_window_edges(std::size_t n, std::size_t B)
{
  std::vector<std::size_t> e{0};
  int const ramp = n >= 8 * B && B >= 8 ? 3 : 0;
  for (int i = ramp; i > 0; --i) e.push_back(e.back() + (B >> i));
  std::size_t tail = 0;
  for (int i = 1; i <= ramp; ++i) tail += B >> i;
  while (n - e.back() > tail) e.push_back(std::min(e.back() + B, n - tail));
  for (int i = 1; i <= ramp; ++i) e.push_back(e.back() + (B >> i));
  if (e.size() == 1) e.push_back(0);
  return e;
}

/** @brief Copies [0, n) of `src` into `dst` with up to `threads` host threads. */
inline void parallel_memcpy(void* dst, void const* src, std::size_t n, unsigned threads)
{
  std::size_t const piece = std::size_t{4} << 20;
  std::size_t const parts = std::max<std::size_t>(1, std::min<std::size_t>(threads, (n + piece - 1) / piece));
  dsv::parallel_for(parts, static_cast<unsigned>(parts), [&](std::size_t k) {
    std::size_t const lo = n * k / parts, hi = n * (k + 1) / parts;
    std::memcpy(static_cast<char*>(dst) + lo, static_cast<char const*>(src) + lo, hi - lo);
  });
}

}  // namespace detail

/**
 * @brief Parses `n` device bytes to field and record boundaries (no columns).
 *
 * @code{.pseudo}
 * "a,b\nc,d\n" -> field_ends {1, 3, 5, 7}, field_kept_ends {1, 2, 3, 4}, record_fields {2, 4},
 *                 record_ends {3, 7}, num_columns 2
 * @endcode
 * @param stream CUDA stream on which to perform the work
 * @param mr the resource of the boundaries' buffers (it must outlive them) and of the temporaries
 * @note synchronizes `stream` (the output sizes and the error status are read back).
 * @throw dsv_error (a format_error) on malformed input, naming byte offset and record number;
 *        logic_error on an invalid dialect; cuda_error.
 */
inline dsv_boundaries parse_dsv_boundaries(char const* bytes, std::uint64_t n, dsv_dialect const& d,
                                           cuda::stream_ref stream = {},
                                           device_async_resource_ref mr = default_device_resource())
{
  detail::dsv_pass_options opt;
  opt.header = d.header;
  return detail::dsv_parse_pass(reinterpret_cast<unsigned char const*>(bytes), n, d, opt, nullptr, stream.get(), mr);
}

/**
 * @brief Parses `n` device bytes into one Arrow large_utf8 column per field (unquoted, doubled
 * quotes collapsed), the header names and the number of data records: the output of
 * parse_dsv_reference() in device memory.
 *
 * @code{.pseudo}
 * "x,\"a\"\"b\"\n1,\n" -> columns[0] {"x", "1"}, columns[1] {"a\"b", ""}, num_records 2
 * @endcode
 * @param stream CUDA stream on which to perform the work
 * @param mr the resource of the columns' buffers (it must outlive them) and of the temporaries
 * @note synchronizes `stream` several times (sizes, error status, column sizes); the last kernel
 *       may still run when it returns (stream-ordered).
 * @throw dsv_error (a format_error) on malformed input; logic_error on an invalid dialect; cuda_error.
 */
inline device_dsv_table parse_dsv(char const* bytes, std::uint64_t n, dsv_dialect const& d,
                                  cuda::stream_ref stream = {},
                                  device_async_resource_ref mr = default_device_resource())
{
  detail::dsv_pass_options opt;
  opt.header     = d.header;
  opt.input_ends = false;
  detail::dsv_scratch scratch;
  dsv_boundaries const b =
    detail::dsv_parse_pass(reinterpret_cast<unsigned char const*>(bytes), n, d, opt, &scratch, stream.get(), mr);
  return detail::dsv_materialize(b, scratch, d, d.header, stream.get(), mr);
}

/** @brief How parse_dsv_streamed() cuts and copies. */
struct dsv_stream_options {
  std::size_t batch_bytes = std::size_t{256} << 20;  ///< input bytes per host-to-device batch (>= 1)
  bool materialize        = true;                    ///< build columns per batch (else boundaries only)
  unsigned copy_threads   = 0;  ///< host threads copying pageable input to pinned staging (0: min(16, cores))
};

/** @brief One parsed batch, handed to the parse_dsv_streamed() callback. */
struct dsv_batch {
  std::uint64_t input_offset = 0;          ///< input offset of the batch's first byte (boundaries are relative to it)
  std::uint64_t first_record = 0;          ///< data records (header not counted) before this batch
  dsv_boundaries const* boundaries = nullptr;  ///< complete records of the batch (+ a partial one, not in num_records)
  device_dsv_table const* table    = nullptr;  ///< the batch's columns when materialize, else null
  /// The stream the batch's device data are ready on: queue work that reads them here; they are
  /// freed on it after the callback returns.
  cudaStream_t stream = nullptr;
};

/**
 * @brief Parses text in host memory (pageable or pinned, any size, also larger than the GPU) in
 * batches of `batch_bytes`: a producer thread copies batch k+1 into one of two pinned staging
 * buffers (pageable input only, with `copy_threads` host threads) and issues its host-to-device
 * copy on a copy stream while batch k is parsed on a compute stream. The bytes after the last
 * complete record of a batch are carried (device to device) in front of the next batch, so a
 * record may span any number of batches. With `materialize`, batch k's columns are built on a
 * third stream and handed to the callback after batch k + 1 is parsed, so the GPU materialises one
 * batch while it parses the next (three device parse buffers). The callback's device work belongs
 * on `dsv_batch::stream` (the third stream), which the parse stream never waits for. An input of
 * at least 8 batches starts and ends with windows of 1/8, 1/4 and 1/2 batch (dsv_window_edges):
 * the first copy and the last parse, which nothing overlaps, are short.
 *
 * Keeps its streams, events, pinned staging and device windows between calls to parse() (pinning
 * hundreds of MB costs far more than copying them): reuse one streamer for many inputs.
 *
 * Memory: every device allocation (windows, parse buffers, each batch's boundaries, scratch and
 * columns) comes from `mr`, the pinned staging (two batches, pageable input only) and the column
 * sizes read back from `host_mr` (a pinned resource keeps the copies asynchronous; a pageable one
 * works, with synchronous copies). Both must outlive the streamer. The streamer creates three
 * streams of its own (cudaStreamNonBlocking); parse() and the destructor synchronize them.
 */
class dsv_streamer {
 public:
  explicit dsv_streamer(dsv_stream_options const& opt = {}, device_async_resource_ref mr = default_device_resource(),
                        host_resource_ref host_mr = default_host_resource())
    : opt_(opt), mr_(mr), host_mr_(host_mr)
  {
    FASTPAIR_EXPECTS(opt.batch_bytes >= 1, "dsv_streamer: batch_bytes must be >= 1");
    FASTPAIR_CUDA_TRY(cudaStreamCreateWithFlags(&copy_, cudaStreamNonBlocking));
    FASTPAIR_CUDA_TRY(cudaStreamCreateWithFlags(&compute_, cudaStreamNonBlocking));
    FASTPAIR_CUDA_TRY(cudaStreamCreateWithFlags(&mat_, cudaStreamNonBlocking));
    for (int i = 0; i < 2; ++i) {
      FASTPAIR_CUDA_TRY(cudaEventCreateWithFlags(&copied_[i], cudaEventDisableTiming));
      FASTPAIR_CUDA_TRY(cudaEventCreateWithFlags(&consumed_[i], cudaEventDisableTiming));
      FASTPAIR_CUDA_TRY(cudaEventCreateWithFlags(&sized_[i], cudaEventDisableTiming));
    }
    for (auto& e : scattered_) FASTPAIR_CUDA_TRY(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  }
  dsv_streamer(dsv_streamer const&)            = delete;
  dsv_streamer& operator=(dsv_streamer const&) = delete;
  /** @brief Blocks: waits for the streamer's own streams, frees its buffers through its resources
   *  (the default pinned resource's cudaFreeHost may synchronize the device) and destroys its
   *  streams and events. */
  ~dsv_streamer()
  {
    (void)cudaStreamSynchronize(copy_);
    (void)cudaStreamSynchronize(mat_);
    (void)cudaStreamSynchronize(compute_);
    for (auto& b : window_) b = device_buffer<char>();
    for (auto& b : parse_) b = device_buffer<char>();
    (void)cudaStreamSynchronize(compute_);
    for (int i = 0; i < 2; ++i) {
      if (staging_[i]) host_mr_.deallocate(staging_[i], staging_bytes_, host_alignment);
      if (sizes_[i]) host_mr_.deallocate(sizes_[i], sizes_cap_[i] * sizeof(std::int64_t), host_alignment);
      (void)cudaEventDestroy(copied_[i]);
      (void)cudaEventDestroy(consumed_[i]);
      (void)cudaEventDestroy(sized_[i]);
    }
    for (auto& e : scattered_) (void)cudaEventDestroy(e);
    (void)cudaStreamDestroy(copy_);
    (void)cudaStreamDestroy(compute_);
    (void)cudaStreamDestroy(mat_);
  }

  /**
   * @brief Parses `input`; `callback(dsv_batch const&)` is called once per batch in input order
   * (a batch may hold no complete record). Returns when every batch is parsed.
   * @note Blocks: synchronizes the streamer's own streams (per batch, and before it returns), never
   * a stream of the caller's. Allocates from the streamer's resources: windows and parse buffers
   * (kept), each batch's device data (freed on dsv_batch::stream after its callback), staging
   * (kept; grown when a larger batch needs it).
   * @throw dsv_error for the first error in input order, as parse_dsv(); logic_error; cuda_error.
   */
  template <class Callback>
  void parse(std::string_view input, dsv_dialect const& d, Callback&& callback)
  {
    (void)detail::dsv_gpu::make_gpu_dfa(d);  // validates the dialect before the producer starts
    std::size_t const n    = input.size();
    std::size_t const B    = opt_.batch_bytes;
    std::vector<std::size_t> const edges = detail::dsv_window_edges(n, B);
    std::size_t const nwin               = edges.size() - 1;
    unsigned const threads =
      opt_.copy_threads ? opt_.copy_threads : std::min(16u, std::max(1u, std::thread::hardware_concurrency()));
    cudaPointerAttributes attr{};
    bool const src_pinned = n > 0 && cudaPointerGetAttributes(&attr, input.data()) == cudaSuccess &&
                            attr.type == cudaMemoryTypeHost;
    (void)cudaGetLastError();
    reserve(std::min(B, std::max<std::size_t>(n, 1)), !src_pinned && n > 0);

    // Producer: window w -> staging[w % 2] -> window_[w % 2] on the copy stream.
    std::mutex mu;
    std::condition_variable cv;
    std::size_t issued = 0, consumed = 0;
    bool stop          = false;
    std::exception_ptr producer_error;
    std::thread producer([&] {
      try {
        for (std::size_t w = 0; w < nwin; ++w) {
          int const slot = static_cast<int>(w % 2);
          {
            std::unique_lock<std::mutex> lk(mu);
            cv.wait(lk, [&] { return stop || w < 2 || consumed + 1 >= w; });  // window w-2 consumed (recorded)
            if (stop) return;
          }
          std::size_t const lo = edges[w], len = edges[w + 1] - lo;
          char const* src = input.data() + lo;
          if (len > 0 && !src_pinned) {
            if (w >= 2) FASTPAIR_CUDA_TRY(cudaEventSynchronize(copied_[slot]));  // staging slot free
            detail::parallel_memcpy(staging_[slot], src, len, threads);
            src = staging_[slot];
          }
          if (w >= 2) FASTPAIR_CUDA_TRY(cudaStreamWaitEvent(copy_, consumed_[slot], 0));
          if (len > 0)
            FASTPAIR_CUDA_TRY(cudaMemcpyAsync(window_[slot].data(), src, len, cudaMemcpyHostToDevice, copy_));
          FASTPAIR_CUDA_TRY(cudaEventRecord(copied_[slot], copy_));
          {
            std::lock_guard<std::mutex> lk(mu);
            issued = w + 1;
          }
          cv.notify_all();
        }
      } catch (...) {
        std::lock_guard<std::mutex> lk(mu);
        producer_error = std::current_exception();
        issued         = nwin + 1;  // wake the consumer
        cv.notify_all();
      }
    });
    auto stop_producer = [&] {
      {
        std::lock_guard<std::mutex> lk(mu);
        stop = true;
      }
      cv.notify_all();
      if (producer.joinable()) producer.join();
      (void)cudaStreamSynchronize(copy_);  // no copy into a window outlives this call
    };

    // Batch k is parsed on compute_ (host syncs: totals, status); its materialisation runs on
    // mat_ in two halves: the first (lengths, offsets, column sizes to pinned memory) right after
    // the parse, the second (chars, scatter) and the callback after batch k + 1 is parsed. So the
    // GPU materialises batch k on mat_ while it parses batch k + 2 on compute_. Three parse
    // buffers: batch k's input is read by its scatter while batches k + 1 and k + 2 are copied in.
    std::optional<in_flight> pending;
    std::uint64_t data_records = 0;  // data records of the batches parsed so far
    auto deliver = [&] {  // the second half of `pending`'s materialisation, then its callback
      in_flight& f = *pending;
      device_dsv_table table;
      if (opt_.materialize) {
        FASTPAIR_CUDA_TRY(cudaEventSynchronize(sized_[f.sizes_slot]));
        table = detail::dsv_materialize_end(std::move(f.mat), f.b, f.scratch, sizes_[f.sizes_slot], mat_, mr_);
        FASTPAIR_CUDA_TRY(cudaEventRecord(scattered_[f.buffer], mat_));
      }
      // The batch is complete on mat_ (its parse finished before anything of it was queued there):
      // the callback's work goes there, and the batch's buffers are freed there after it. The
      // parse stream never waits for a scatter or a callback (otherwise each batch's scatter runs
      // alone between two parses, docs/DSV.md).
      dsv_batch const batch{f.byte_base, f.first_record, &f.b, opt_.materialize ? &table : nullptr, mat_};
      callback(batch);
      f.free_on(mat_);
      table = device_dsv_table();
      pending.reset();
    };
    try {
      int cur                    = 0;
      std::size_t carry          = 0;
      std::uint64_t record_base  = 0;  // records (header included) before the parse buffer
      std::int64_t ncols_known   = d.expected_fields;
      for (std::size_t w = 0; w < nwin; ++w) {
        int const slot = static_cast<int>(w % 2);
        {
          std::unique_lock<std::mutex> lk(mu);
          cv.wait(lk, [&] { return issued > w; });
          if (producer_error) std::rethrow_exception(producer_error);
        }
        std::size_t const lo = edges[w], len = edges[w + 1] - lo;
        std::size_t const need = carry + len;
        if (parse_[cur].size() < need) {  // grow, keeping the carry
          device_buffer<char> bigger(std::max(need, std::min(n, 2 * B)), compute_, mr_);
          if (carry)
            FASTPAIR_CUDA_TRY(cudaMemcpyAsync(bigger.data(), parse_[cur].data(), carry, cudaMemcpyDeviceToDevice, compute_));
          parse_[cur] = std::move(bigger);
        }
        FASTPAIR_CUDA_TRY(cudaStreamWaitEvent(compute_, copied_[slot], 0));
        if (len)
          FASTPAIR_CUDA_TRY(cudaMemcpyAsync(parse_[cur].data() + carry, window_[slot].data(), len,
                                            cudaMemcpyDeviceToDevice, compute_));
        FASTPAIR_CUDA_TRY(cudaEventRecord(consumed_[slot], compute_));
        {
          std::lock_guard<std::mutex> lk(mu);
          consumed = w + 1;
        }
        cv.notify_all();

        detail::dsv_pass_options po;
        po.at_end           = w + 1 == nwin;
        po.header           = d.header && record_base == 0;
        po.expected_columns = ncols_known;
        po.input_ends       = true;
        po.byte_base        = lo - carry;
        po.record_base      = record_base;
        in_flight next;
        try {
          next.b = detail::dsv_parse_pass(reinterpret_cast<unsigned char const*>(parse_[cur].data()), need, d, po,
                                          opt_.materialize ? &next.scratch : nullptr, compute_, mr_);
        } catch (...) {
          if (pending) deliver();  // every batch before the error reaches the callback
          throw;
        }
        dsv_boundaries const& b = next.b;
        if (b.num_records > 0 && ncols_known < 0) ncols_known = static_cast<std::int64_t>(b.num_columns);
        next.byte_base    = po.byte_base;
        next.first_record = data_records;
        next.buffer       = cur;
        next.sizes_slot   = static_cast<int>(w % 2);
        data_records += b.num_records - (po.header && b.num_records > 0 ? 1 : 0);
        record_base += b.num_records;
        if (pending) deliver();  // batch w - 1
        if (opt_.materialize) {
          // b and the scratch were written on compute_, which dsv_parse_pass has synchronised.
          reserve_sizes(next.sizes_slot, b.num_columns);
          next.mat = detail::dsv_materialize_begin(b, next.scratch, d, po.header, mat_, sizes_[next.sizes_slot], mr_);
          FASTPAIR_CUDA_TRY(cudaEventRecord(sized_[next.sizes_slot], mat_));
        }
        std::size_t const next_carry = po.at_end ? 0 : need - b.consumed_bytes;
        int const other              = (cur + 1) % 3;
        if (next_carry) {
          std::size_t const next_len = w + 2 < edges.size() ? edges[w + 2] - edges[w + 1] : 0;
          // parse_[other] was batch w - 2's input: its scatter must be done before it is overwritten.
          FASTPAIR_CUDA_TRY(cudaStreamWaitEvent(compute_, scattered_[other], 0));
          if (parse_[other].size() < next_carry + next_len)
            parse_[other] = device_buffer<char>(next_carry + std::max(next_len, B), compute_, mr_);
          FASTPAIR_CUDA_TRY(cudaMemcpyAsync(parse_[other].data(), parse_[cur].data() + b.consumed_bytes, next_carry,
                                            cudaMemcpyDeviceToDevice, compute_));
        } else {
          FASTPAIR_CUDA_TRY(cudaStreamWaitEvent(compute_, scattered_[other], 0));
        }
        cur   = other;
        carry = next_carry;
        pending.emplace(std::move(next));
      }
      if (pending) deliver();
      FASTPAIR_CUDA_TRY(cudaStreamSynchronize(compute_));
      FASTPAIR_CUDA_TRY(cudaStreamSynchronize(mat_));
    } catch (...) {
      (void)cudaStreamSynchronize(compute_);  // nothing queued still reads what `pending` owns
      (void)cudaStreamSynchronize(mat_);
      pending.reset();
      stop_producer();
      throw;
    }
    stop_producer();
  }

 private:
  /** Device windows of `bytes`, and pinned staging when the input is pageable (kept if large enough). */
  void reserve(std::size_t bytes, bool staging)
  {
    if (window_[0].size() < bytes) {
      FASTPAIR_CUDA_TRY(cudaStreamSynchronize(copy_));
      for (auto& w : window_) w = device_buffer<char>(bytes, compute_, mr_);
      FASTPAIR_CUDA_TRY(cudaStreamSynchronize(compute_));  // the windows exist before the copy stream uses them
    }
    if (staging && staging_bytes_ < bytes) {
      for (auto& s : staging_) {
        if (s) host_mr_.deallocate(s, staging_bytes_, host_alignment);
        s = nullptr;
      }
      staging_bytes_ = bytes;  // the size of every non-null staging buffer
      try {
        for (auto& s : staging_) s = static_cast<char*>(host_mr_.allocate(bytes, host_alignment));
      } catch (...) {
        for (auto& s : staging_) {
          if (s) host_mr_.deallocate(s, bytes, host_alignment);
          s = nullptr;
        }
        staging_bytes_ = 0;
        throw;
      }
    }
  }

  /** A parsed batch whose materialisation and callback are still to come. */
  struct in_flight {
    dsv_boundaries b;
    detail::dsv_scratch scratch;
    detail::dsv_pending mat;
    std::uint64_t byte_base = 0, first_record = 0;
    int buffer = 0, sizes_slot = 0;  // parse_[buffer] holds its input; sizes_[sizes_slot] its column sizes

    /** Frees the boundaries and the scratch (allocated on the parse stream) on `s`, after its work. */
    void free_on(cudaStream_t s)
    {
      for (auto* u64 : {&b.field_ends, &b.field_kept_ends, &b.record_fields, &b.record_ends}) u64->set_stream(s);
      scratch.start.set_stream(s);
      scratch.packed.set_stream(s);
      scratch.block_base.set_stream(s);
    }
  };

  /** Pinned room for `ncols` column sizes in slot `i` (kept between batches and calls). */
  void reserve_sizes(int i, std::uint64_t ncols)
  {
    if (sizes_cap_[i] >= std::max<std::uint64_t>(ncols, 1)) return;
    if (sizes_[i]) host_mr_.deallocate(sizes_[i], sizes_cap_[i] * sizeof(std::int64_t), host_alignment);
    sizes_[i]     = nullptr;
    sizes_cap_[i] = 0;
    std::uint64_t const cap = std::max<std::uint64_t>(ncols, 64);
    sizes_[i]     = static_cast<std::int64_t*>(host_mr_.allocate(cap * sizeof(std::int64_t), host_alignment));
    sizes_cap_[i] = cap;
  }

  static constexpr std::size_t host_alignment = alignof(std::max_align_t);

  dsv_stream_options opt_;
  device_async_resource_ref mr_;
  host_resource_ref host_mr_;
  cudaStream_t copy_ = nullptr, compute_ = nullptr, mat_ = nullptr;
  cudaEvent_t copied_[2] = {nullptr, nullptr}, consumed_[2] = {nullptr, nullptr};
  cudaEvent_t sized_[2]  = {nullptr, nullptr};           // column sizes of a batch copied back
  cudaEvent_t scattered_[3] = {nullptr, nullptr, nullptr};  // the scatter reading parse_[i] is done
  char* staging_[2]          = {nullptr, nullptr};
  std::size_t staging_bytes_ = 0;
  std::int64_t* sizes_[2]        = {nullptr, nullptr};
  std::uint64_t sizes_cap_[2]    = {0, 0};
  device_buffer<char> window_[2];
  device_buffer<char> parse_[3];
};

/** @brief A one-shot dsv_streamer: `dsv_streamer(opt, mr, host_mr).parse(input, d, callback)`.
 *  @see dsv_streamer */
template <class Callback>
void parse_dsv_streamed(std::string_view input, dsv_dialect const& d, Callback&& callback,
                        dsv_stream_options const& opt = {}, device_async_resource_ref mr = default_device_resource(),
                        host_resource_ref host_mr = default_host_resource())
{
  dsv_streamer(opt, mr, host_mr).parse(input, d, std::forward<Callback>(callback));
}

/**
 * @brief parse_dsv_streamed() into a host dsv_table (each batch's columns copied back and appended):
 * for tests and small inputs; the same result as parse_dsv_reference().
 */
inline dsv_table parse_dsv_streamed_to_host(std::string_view input, dsv_dialect const& d, dsv_stream_options opt = {},
                                            device_async_resource_ref mr = default_device_resource(),
                                            host_resource_ref host_mr = default_host_resource())
{
  opt.materialize = true;
  dsv_table t;
  bool have_columns = false;
  if (d.expected_fields >= 0) {
    t.columns.resize(static_cast<std::size_t>(d.expected_fields));
    have_columns = true;
  }
  parse_dsv_streamed(input, d, [&](dsv_batch const& b) {
    dsv_table part = b.table->to_host(b.stream);
    if (!part.header.empty()) t.header = part.header;
    if (b.boundaries->num_records == 0) return;
    if (!have_columns) {
      t.columns.resize(part.columns.size());
      have_columns = true;
    }
    for (std::size_t j = 0; j < part.columns.size(); ++j) {
      host_strings& dst       = t.columns[j];
      host_strings const& src = part.columns[j];
      std::uint64_t const base = dst.chars.size();
      dst.chars.insert(dst.chars.end(), src.chars.begin(), src.chars.end());
      for (std::size_t i = 1; i < src.offsets.size(); ++i) dst.offsets.push_back(base + src.offsets[i]);
    }
    t.num_records += part.num_records;
  }, opt, mr, host_mr);
  return t;
}

}  // namespace fastpair
