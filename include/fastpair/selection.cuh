// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file selection.cuh
 * @brief Device-side selections: non-owning views of the three forms of predicates.hpp, in device
 * memory. Predicates on the GPU (predicates.cuh) write `device_bitmask`; selective decode
 * (select.cuh) reads any of the three. The GPU conversions at the end (to_row_ids,
 * to_row_ranges) turn one form into another with cub::DeviceSelect; mask_and / mask_or / mask_not
 * / mask_count combine and count bitmasks, as a query combines the predicates of one table.
 *
 * @code{.text}
 *  device_row_ids     rows[count], strictly increasing, < num_rows      (the seed paper's "Index")
 *  device_bitmask     words[ceil(num_rows / 64)], bit r % 64 of word r / 64 = row r; bits at or
 *                     past num_rows are zero                             ("Plain")
 *  device_row_ranges  ranges[count] half-open [begin, end), increasing, non-overlapping  ("RLE")
 * @endcode
 */
#pragma once

#include <fastpair/detail/cuda.cuh>
#include <fastpair/selection_views.hpp>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/std/bit>
#include <cuda/stream_ref>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstdint>

namespace fastpair {

// -------------------------------------------------------------------------------------------------
// GPU conversions between the forms. Each allocates its output and temporaries from `mr` on
// `stream` and synchronizes once (to read the number of rows or runs back). Precondition: a valid input (as documented on each
// view); an invalid one gives a meaningless result but no out-of-bounds access, because only the
// input arrays themselves are indexed. select.cuh validates before converting.
// -------------------------------------------------------------------------------------------------

/** @brief Owning device row ids (the result of to_row_ids). */
struct device_row_ids_buffer {
  device_buffer<std::uint64_t> rows;
  std::uint64_t count = 0;
  device_row_ids view() const noexcept { return {rows.data(), count}; }
};

/** @brief Owning device runs (the result of to_row_ranges); always canonical: non-empty runs,
 *  increasing, separated by at least one unselected row. */
struct device_row_ranges_buffer {
  device_buffer<row_range> ranges;
  std::uint64_t count = 0;
  device_row_ranges view() const noexcept { return {ranges.data(), count}; }
};

namespace detail {

/** Bit r of a device bitmask (r < num_rows). */
__host__ __device__ __forceinline__ bool mask_bit(std::uint64_t const* words, std::uint64_t r)
{
  return (words[r >> 6] >> (r & 63)) & 1u;
}
struct mask_is_set {
  std::uint64_t const* words;
  __host__ __device__ bool operator()(std::uint64_t r) const { return mask_bit(words, r); }
};
/** Row r opens a run of set bits. */
struct mask_run_first {
  std::uint64_t const* words;
  __host__ __device__ bool operator()(std::uint64_t r) const
  {
    return mask_bit(words, r) && (r == 0 || !mask_bit(words, r - 1));
  }
};
/** Row r closes a run of set bits. */
struct mask_run_last {
  std::uint64_t const* words;
  std::uint64_t num_rows;
  __host__ __device__ bool operator()(std::uint64_t r) const
  {
    return mask_bit(words, r) && (r + 1 == num_rows || !mask_bit(words, r + 1));
  }
};
/** Index i of a row id list opens a run of consecutive ids. */
struct ids_run_first {
  std::uint64_t const* rows;
  __host__ __device__ bool operator()(std::uint64_t i) const { return i == 0 || rows[i] != rows[i - 1] + 1; }
};
/** Index i of a row id list closes a run of consecutive ids. */
struct ids_run_last {
  std::uint64_t const* rows;
  std::uint64_t count;
  __host__ __device__ bool operator()(std::uint64_t i) const { return i + 1 == count || rows[i + 1] != rows[i] + 1; }
};

/** out[k] = [first[k], last[k] + 1), or through rows[] when `rows` is given (ids -> runs). */
FASTPAIR_KERNEL __launch_bounds__(256) void zip_runs_kernel(std::uint64_t const* first, std::uint64_t const* last,
                                                           std::uint64_t const* rows, std::uint64_t n, row_range* out)
{
  for (std::uint64_t k = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; k < n;
       k += std::uint64_t{gridDim.x} * blockDim.x) {
    std::uint64_t const b = rows ? rows[first[k]] : first[k];
    std::uint64_t const e = (rows ? rows[last[k]] : last[k]) + 1;
    out[k]                = {b, e};
  }
}

/** cub::DeviceSelect::If over the indices [0, n) into a new buffer of `capacity`, the count
 *  written to the device word `d_count`; stream-ordered, no synchronisation. */
template <class Pred>
device_buffer<std::uint64_t> select_indices_async(std::uint64_t n, std::uint64_t capacity, Pred pred,
                                                  std::uint64_t* d_count, cuda::stream_ref stream,
                                                  device_async_resource_ref mr)
{
  device_buffer<std::uint64_t> out(std::max<std::uint64_t>(capacity, 1), stream, mr);
  thrust::counting_iterator<std::uint64_t> idx(0);
  std::size_t temp_bytes = 0;
  FASTPAIR_CUDA_TRY(cub::DeviceSelect::If(nullptr, temp_bytes, idx, out.data(), d_count,
                                          static_cast<std::int64_t>(n), pred, stream.get()));
  device_buffer<unsigned char> temp(temp_bytes, stream, mr);
  FASTPAIR_CUDA_TRY(cub::DeviceSelect::If(temp.data(), temp_bytes, idx, out.data(), d_count,
                                          static_cast<std::int64_t>(n), pred, stream.get()));
  return out;
}

/** Word i of `a op b` (op: 0 and, 1 or, 2 not a); bits at or past num_rows cleared. */
FASTPAIR_KERNEL __launch_bounds__(256) void mask_combine_kernel(std::uint64_t const* a, std::uint64_t const* b,
                                                               std::uint64_t* out, std::uint64_t num_rows, int op)
{
  std::uint64_t const n    = (num_rows + 63) / 64;
  std::uint64_t const tail = num_rows % 64;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    std::uint64_t v = op == 0 ? (a[i] & b[i]) : op == 1 ? (a[i] | b[i]) : ~a[i];
    if (i == n - 1 && tail != 0) v &= (std::uint64_t{1} << tail) - 1;
    out[i] = v;
  }
}

inline void mask_combine(device_bitmask a, std::uint64_t const* b, std::uint64_t* out, int op,
                         cuda::stream_ref stream)
{
  std::uint64_t const n = a.num_words();
  if (n == 0) return;
  unsigned const grid = unsigned(std::min<std::uint64_t>((n + 255) / 256, 4096));
  mask_combine_kernel<<<grid, 256, 0, stream.get()>>>(a.words, b, out, a.num_rows, op);
  FASTPAIR_CUDA_TRY(cudaGetLastError());
}

struct popcount_word {
  __host__ __device__ std::uint64_t operator()(std::uint64_t w) const { return std::uint64_t(cuda::std::popcount(w)); }
};

/** Copies `n` device words to the host. @note synchronizes `stream`. */
inline void read_words(std::uint64_t* host, std::uint64_t const* device, std::size_t n, cuda::stream_ref stream)
{
  FASTPAIR_CUDA_TRY(cudaMemcpyAsync(host, device, n * sizeof(std::uint64_t), cudaMemcpyDeviceToHost, stream.get()));
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(stream.get()));
}

/** select_indices_async, then the count read back. @note synchronizes `stream`. */
template <class Pred>
device_buffer<std::uint64_t> select_indices(std::uint64_t n, std::uint64_t capacity, Pred pred, std::uint64_t& count,
                                            cuda::stream_ref stream, device_async_resource_ref mr)
{
  device_buffer<std::uint64_t> d_count(1, stream, mr);
  auto out = select_indices_async(n, capacity, pred, d_count.data(), stream, mr);
  read_words(&count, d_count.data(), 1, stream);
  return out;
}

/** Run starts and run ends (two selects over [0, n)), both counts read back in one synchronisation. */
struct selected_runs {
  device_buffer<std::uint64_t> first, last;
  std::uint64_t count = 0;
};
template <class FirstPred, class LastPred>
selected_runs select_runs(std::uint64_t n, std::uint64_t capacity, FirstPred first, LastPred last,
                          cuda::stream_ref stream, device_async_resource_ref mr)
{
  device_buffer<std::uint64_t> d_counts(2, stream, mr);
  selected_runs r;
  r.first = select_indices_async(n, capacity, first, d_counts.data(), stream, mr);
  r.last  = select_indices_async(n, capacity, last, d_counts.data() + 1, stream, mr);
  std::uint64_t counts[2] = {0, 0};
  read_words(counts, d_counts.data(), 2, stream);
  r.count = std::min(counts[0], counts[1]);
  return r;
}

inline device_row_ranges_buffer zip_runs(device_buffer<std::uint64_t> const& first,
                                         device_buffer<std::uint64_t> const& last, std::uint64_t const* rows,
                                         std::uint64_t n, cuda::stream_ref stream, device_async_resource_ref mr)
{
  device_row_ranges_buffer out{device_buffer<row_range>(n, stream, mr), n};
  if (n == 0) return out;
  unsigned const blocks = static_cast<unsigned>(std::min<std::uint64_t>((n + 255) / 256, 1u << 16));
  zip_runs_kernel<<<blocks, 256, 0, stream.get()>>>(first.data(), last.data(), rows, n, out.ranges.data());
  FASTPAIR_CUDA_TRY(cudaGetLastError());
  return out;
}

}  // namespace detail

/**
 * @brief Bitmask -> row ids (cub::DeviceSelect over the row indices). Bits at or past num_rows are
 * ignored. @note synchronizes `stream` once (the count); allocates the output (num_rows ids) and
 * temporaries from `mr` on `stream`.
 */
inline device_row_ids_buffer to_row_ids(device_bitmask m, cuda::stream_ref stream = {},
                                        device_async_resource_ref mr = default_device_resource())
{
  device_row_ids_buffer out;
  if (m.num_rows == 0) return out;
  out.rows = detail::select_indices(m.num_rows, m.num_rows, detail::mask_is_set{m.words}, out.count, stream, mr);
  return out;
}

/**
 * @brief Bitmask -> canonical runs (run starts and run ends selected separately, then zipped).
 * Bits at or past num_rows are ignored. @note synchronizes `stream` (once: the run count);
 * allocates the output and temporaries from `mr` on `stream`.
 */
inline device_row_ranges_buffer to_row_ranges(device_bitmask m, cuda::stream_ref stream = {},
                                              device_async_resource_ref mr = default_device_resource())
{
  if (m.num_rows == 0) return {};
  auto const runs = detail::select_runs(m.num_rows, (m.num_rows + 1) / 2,  // at most every other row opens a run
                                        detail::mask_run_first{m.words}, detail::mask_run_last{m.words, m.num_rows},
                                        stream, mr);
  return detail::zip_runs(runs.first, runs.last, nullptr, runs.count, stream, mr);
}

/**
 * @brief Row ids (strictly increasing) -> canonical runs of consecutive ids.
 * @note synchronizes `stream` (once: the run count); allocates the output and temporaries from
 * `mr` on `stream`.
 */
inline device_row_ranges_buffer to_row_ranges(device_row_ids ids, cuda::stream_ref stream = {},
                                              device_async_resource_ref mr = default_device_resource())
{
  if (ids.count == 0) return {};
  auto const runs = detail::select_runs(ids.count, ids.count, detail::ids_run_first{ids.rows},
                                        detail::ids_run_last{ids.rows, ids.count}, stream, mr);
  return detail::zip_runs(runs.first, runs.last, ids.rows, runs.count, stream, mr);
}

// -------------------------------------------------------------------------------------------------
// Combining bitmasks (the predicates of one table, ANDed or ORed as the query says). Each writes
// ceil(num_rows / 64) words to `out`, which may be one of the inputs; bits at or past num_rows
// come out zero. Stream-ordered, no synchronisation; fastpair::logic_error when the row counts differ.
// -------------------------------------------------------------------------------------------------

/** @brief out = a AND b. */
inline void mask_and(device_bitmask a, device_bitmask b, std::uint64_t* out, cuda::stream_ref stream = {})
{
  FASTPAIR_EXPECTS(a.num_rows == b.num_rows, "mask_and: masks of different row counts");
  detail::mask_combine(a, b.words, out, 0, stream);
}

/** @brief out = a OR b. */
inline void mask_or(device_bitmask a, device_bitmask b, std::uint64_t* out, cuda::stream_ref stream = {})
{
  FASTPAIR_EXPECTS(a.num_rows == b.num_rows, "mask_or: masks of different row counts");
  detail::mask_combine(a, b.words, out, 1, stream);
}

/** @brief out = NOT a (over the rows: bits at or past num_rows stay zero). */
inline void mask_not(device_bitmask a, std::uint64_t* out, cuda::stream_ref stream = {})
{
  detail::mask_combine(a, nullptr, out, 2, stream);
}

/**
 * @brief The number of selected rows (cub::DeviceReduce over the words' popcounts; bits at or past
 * num_rows must be zero, as every producer in the library leaves them). @note synchronizes `stream`
 * once; temporaries from `mr` on `stream`.
 */
inline std::uint64_t mask_count(device_bitmask m, cuda::stream_ref stream = {},
                                device_async_resource_ref mr = default_device_resource())
{
  std::uint64_t const n = m.num_words();
  if (n == 0) return 0;
  auto const in = thrust::make_transform_iterator(m.words, detail::popcount_word{});
  device_buffer<std::uint64_t> sum(1, stream, mr);
  std::size_t temp_bytes = 0;
  FASTPAIR_CUDA_TRY(cub::DeviceReduce::Sum(nullptr, temp_bytes, in, sum.data(), n, stream.get()));
  device_buffer<unsigned char> temp(temp_bytes, stream, mr);
  FASTPAIR_CUDA_TRY(cub::DeviceReduce::Sum(temp.data(), temp_bytes, in, sum.data(), n, stream.get()));
  std::uint64_t count = 0;
  detail::read_words(&count, sum.data(), 1, stream);
  return count;
}

}  // namespace fastpair
