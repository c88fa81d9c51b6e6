// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file cascade.cuh
 * @brief GPU decode of row-level cascades (cascade.hpp), with the same Arrow output as
 * decode_column, and an `any_column` path so that callers need not care whether a column is plain
 * or a cascade.
 *
 * @code{.cpp}
 * fastpair::any_column col = fastpair::encode_auto_cascade(rows);          // host, once
 * auto dcol = fastpair::device_any_column::prepare(col, stream);           // upload
 * fastpair::string_column<std::int64_t> out = fastpair::decompress(dcol, stream);
 * @endcode
 *
 * Decoding a cascade: decode the distinct rows with decode_column (small), expand runs / read the
 * packed ids on the GPU, scan the rows' lengths into the output offsets (cub::DeviceScan) and
 * gather each row's bytes from the decoded distinct rows (detail/kernels/cascade_kernel.cuh).
 * The scratch (decoded distinct rows, expanded ids, CUB temp storage) is allocated by prepare()
 * (from its `mr`, like everything the cascade keeps) and owned by the device_cascaded_column: decode_column neither allocates nor synchronises, and
 * can be captured in a CUDA graph, but two decodes of the same prepared cascade must not run
 * concurrently on different streams (prepare one copy per stream for that).
 */
#pragma once

#include <fastpair/cascade.hpp>
#include <fastpair/decode.cuh>
#include <fastpair/detail/cuda.cuh>
#include <fastpair/detail/kernels/cascade_kernel.cuh>
#include <fastpair/device_column.cuh>

#include <cub/device/device_scan.cuh>
#include <cuda/stream_ref>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace fastpair {

namespace detail {
/** Exclusive sum of op(0..items) into out (query with temp == nullptr). */
template <class Op, class OutT>
cudaError_t scan_items(void* temp, std::size_t& temp_bytes, Op op, OutT* out, std::uint64_t items,
                       cuda::stream_ref stream) noexcept
{
  auto in = thrust::make_transform_iterator(thrust::counting_iterator<std::uint64_t>(0), op);
  return cub::DeviceScan::ExclusiveSum(temp, temp_bytes, in, out, items, stream.get());
}
}  // namespace detail

/**
 * @brief A cascaded column resident in device memory: the distinct rows as a device_column, the
 * packed ids (and run lengths), and the decode scratch.
 */
class device_cascaded_column {
 public:
  device_cascaded_column() = default;

  /**
   * @brief Validates `c` (unless opt.validate is false: only for cascades this library built;
   * an unvalidated corrupt cascade may be read out of bounds on the host), prepares the distinct column with
   * device_column::prepare(c.distinct, stream, opt, mr), uploads the packed ids / run lengths and
   * allocates the decode scratch, all on `stream` and from `mr` (which must outlive the column).
   * No explicit synchronisation (pageable uploads, as device_column::prepare).
   * @throw format_error if the cascade is invalid; logic_error on bad options; cuda_error.
   */
  static device_cascaded_column prepare(cascaded_column const& c, cuda::stream_ref stream = {},
                                        prepare_options const& opt = {},
                                        device_async_resource_ref mr = default_device_resource())
  {
    if (opt.validate) validate(c);
    device_cascaded_column d;
    prepare_options dopt = opt;
    dopt.validate        = false;  // validated above, with the rest of the cascade
    d.distinct_          = device_column::prepare(c.distinct, stream, dopt, mr);
    d.layout_            = c.layout;
    d.num_rows_          = c.num_rows;
    d.runs_              = c.num_runs();
    d.id_bits_           = c.ids.bits;
    d.len_bits_          = c.run_lengths.bits;
    d.decoded_bytes_     = cascade_decoded_bytes(c);
    d.ids_               = detail::upload(c.ids.words, stream, mr);
    d.error_             = device_buffer<std::uint32_t>(1, stream, mr);
    FASTPAIR_CUDA_TRY(cudaMemsetAsync(d.error_.data(), 0, sizeof(std::uint32_t), stream.get()));
    d.run_lengths_       = detail::upload(c.run_lengths.words, stream, mr);

    std::uint64_t const nd = c.distinct.num_rows();
    d.dist_offsets_ = device_buffer<std::int64_t>(nd + 1, stream, mr);
    d.dist_chars_   = device_buffer<char>(c.distinct.decoded_bytes(), stream, mr);
    if (c.layout == cascade_layout::runs) {
      d.expanded_ids_ = device_buffer<std::uint32_t>(c.num_rows, stream, mr);
      d.run_start_    = device_buffer<std::uint64_t>(d.runs_ + 1, stream, mr);
    }
    // CUB temp storage: the largest of the three scans decode_column may run.
    std::size_t need = 0, bytes = 0;
    auto const ids = d.id_reader();
    FASTPAIR_CUDA_TRY(detail::scan_items(nullptr, bytes, detail::row_length_op<std::int64_t>{ids, nullptr, c.num_rows, nd},
                                         static_cast<std::int64_t*>(nullptr), c.num_rows + 1, stream));
    need = std::max(need, bytes);
    FASTPAIR_CUDA_TRY(detail::scan_items(nullptr, bytes, detail::row_length_op<std::int32_t>{ids, nullptr, c.num_rows, nd},
                                         static_cast<std::int32_t*>(nullptr), c.num_rows + 1, stream));
    need = std::max(need, bytes);
    FASTPAIR_CUDA_TRY(detail::scan_items(nullptr, bytes, detail::run_length_op{{nullptr, 0}, d.runs_},
                                         static_cast<std::uint64_t*>(nullptr), d.runs_ + 1, stream));
    need     = std::max(need, bytes);
    // Never empty: CUB treats a null temp pointer as a size query and would run nothing.
    d.temp_  = device_buffer<unsigned char>(std::max<std::size_t>(need, 256), stream, mr);
    return d;
  }

  std::uint64_t num_rows() const noexcept { return num_rows_; }
  std::uint64_t decoded_bytes() const noexcept { return decoded_bytes_; }
  std::uint64_t num_distinct() const noexcept { return distinct_.num_rows(); }
  std::uint64_t num_runs() const noexcept { return runs_; }
  cascade_layout layout() const noexcept { return layout_; }
  /** @brief The distinct rows on the device (decode_column decodes them first). */
  device_column const& distinct() const noexcept { return distinct_; }
  /** @brief The memory resource of the cascade's device memory (prepare's `mr`). */
  device_async_resource_ref memory_resource() const noexcept { return distinct_.memory_resource(); }
  /**
   * @brief Reads and clears the error words: the distinct column's (decode_error_bits) and the
   * gather's (code_out_of_range for an id >= the distinct count, which only a cascade prepared
   * with validate = false can hold).
   * @note synchronizes `stream` (no allocation).
   */
  std::uint32_t read_and_clear_errors(cuda::stream_ref stream = {}) const
  {
    distinct_.check_usable();  // prepared, on its device
    std::uint32_t h = 0;
    std::uint32_t* const e = error_.data();
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(&h, e, sizeof h, cudaMemcpyDeviceToHost, stream.get()));
    FASTPAIR_CUDA_TRY(cudaMemsetAsync(e, 0, sizeof h, stream.get()));
    return h | distinct_.read_and_clear_errors(stream);  // synchronizes the stream
  }

  /**
   * @brief Decodes every row into `out` (Arrow layout, as decode_column of a plain column).
   * Asynchronous: no allocation, no synchronisation, graph-capturable; uses this object's scratch
   * (one decode at a time per object).
   * @throw logic_error if the object is not prepared or used on another device than its own, out is
   *        too small, its pointers are null, or int32 offsets would overflow.
   */
  template <class OffsetT>
  void decode(string_column_view<OffsetT> out, cuda::stream_ref stream = {}) const
  {
    // Prepared, and on its device (the distinct column says both), before any launch.
    FASTPAIR_EXPECTS(distinct_.prepared(), "the device_cascaded_column is not prepared (default-constructed or moved "
                                           "from): build it with device_cascaded_column::prepare");
    distinct_.check_usable();
    std::uint64_t const n = num_rows_, bytes = decoded_bytes_;
    detail::check_output(out, n, bytes);
    if (n == 0) {
      FASTPAIR_CUDA_TRY(cudaMemsetAsync(out.offsets, 0, sizeof(OffsetT), stream.get()));
      return;
    }
    // 1. The distinct rows (always int64 offsets: the scratch is shared by both output types).
    string_column_view<std::int64_t> dist{dist_offsets_.data(), dist_chars_.data(), distinct_.num_rows(),
                                          dist_chars_.size()};
    decode_column(distinct_, dist, stream);

    // 2. Row ids: packed (indices) or expanded from the runs.
    detail::packed_reader ids = id_reader();
    std::size_t temp_bytes    = temp_.size();
    void* const temp          = temp_.data();
    if (layout_ == cascade_layout::runs) {
      std::uint64_t* const start = run_start_.data();
      FASTPAIR_CUDA_TRY(detail::scan_items(temp, temp_bytes, detail::run_length_op{{run_lengths_.data(), len_bits_}, runs_},
                                           start, runs_ + 1, stream));
      constexpr int rows_per_lane = 8;
      std::uint64_t const warps   = (n + 32 * rows_per_lane - 1) / (32 * rows_per_lane);
      auto const blocks = static_cast<unsigned>(std::min<std::uint64_t>((warps + 7) / 8, 1u << 20));
      std::uint32_t* const expanded = expanded_ids_.data();
      detail::expand_runs_kernel<rows_per_lane><<<blocks, 256, 0, stream.get()>>>(ids, start, runs_, n, expanded);
      FASTPAIR_CUDA_TRY(cudaGetLastError());
      ids = {expanded, 32};
    }

    // 3. Offsets: exclusive sum of the rows' lengths (n + 1 items, the last one 0).
    temp_bytes = temp_.size();
    FASTPAIR_CUDA_TRY(detail::scan_items(temp, temp_bytes,
                                         detail::row_length_op<OffsetT>{ids, dist_offsets_.data(), n, num_distinct()}, out.offsets,
                                         n + 1, stream));

    // 4. Chars: a warp per tile of 32 rows.
    if (bytes == 0) return;
    std::uint64_t const tiles = (n + 31) / 32;
    auto const blocks = static_cast<unsigned>(std::min<std::uint64_t>((tiles + 7) / 8, 1u << 20));
    detail::gather_kernel<OffsetT><<<blocks, 256, 0, stream.get()>>>(
      ids, dist_offsets_.data(), num_distinct(), reinterpret_cast<unsigned char const*>(dist_chars_.data()),
      out.offsets, n, reinterpret_cast<unsigned char*>(out.chars), error_.data());
    FASTPAIR_CUDA_TRY(cudaGetLastError());
  }

 private:
  detail::packed_reader id_reader() const noexcept { return {ids_.data(), id_bits_}; }

  device_column distinct_;
  cascade_layout layout_       = cascade_layout::indices;
  std::uint64_t num_rows_      = 0;
  std::uint64_t runs_          = 0;
  std::uint32_t id_bits_       = 0;
  std::uint32_t len_bits_      = 0;
  std::uint64_t decoded_bytes_ = 0;
  device_buffer<std::uint32_t> ids_, run_lengths_;
  // Written by the const decode() (scratch, logically a cache) and by the kernels (error word).
  mutable device_buffer<std::uint32_t> error_;  // code_out_of_range from gather_kernel
  mutable device_buffer<std::int64_t> dist_offsets_;
  mutable device_buffer<char> dist_chars_;
  mutable device_buffer<std::uint32_t> expanded_ids_;
  mutable device_buffer<std::uint64_t> run_start_;
  mutable device_buffer<unsigned char> temp_;
};

/**
 * @brief Decodes every row of a cascade into `out` on `stream`; same contract as
 * decode_column(device_column, out, stream): asynchronous, no allocation, graph-capturable.
 * @code{.pseudo}
 * distinct {"ab", ""}, ids {0, 0, 1, 0} -> out.offsets {0, 2, 4, 4, 6}, out.chars "ababab"
 * @endcode
 * @throw logic_error if out is too small or int32 offsets would overflow.
 */
template <class OffsetT>
void decode_column(device_cascaded_column const& col, string_column_view<OffsetT> out, cuda::stream_ref stream = {})
{
  col.decode(out, stream);
}

namespace detail {
template <class Col>
void throw_if_device_errors(Col const& col, cuda::stream_ref stream)
{
  if (std::uint32_t const e = col.read_and_clear_errors(stream); e != 0)
    throw decode_error(std::string("fastpair: corrupt device data while decoding:") +
                       ((e & code_out_of_range) ? " a code >= the dictionary size;" : "") +
                       ((e & sidecar_mismatch) ? " the sidecar disagrees with the token lengths;" : ""));
}
}  // namespace detail

/**
 * @brief Allocates the output from `mr` on `stream`, decodes every row of a cascade and checks
 * the device error words.
 * @note synchronizes `stream`. Allocates only the output (the decode uses the cascade's scratch).
 * @throw decode_error if the device reported corrupt data; plus decode_column's exceptions.
 */
template <class OffsetT = std::int64_t>
string_column<OffsetT> decompress(device_cascaded_column const& col, cuda::stream_ref stream = {},
                                  device_async_resource_ref mr = default_device_resource())
{
  string_column<OffsetT> out;
  out.num_rows = col.num_rows();
  out.offsets  = device_buffer<OffsetT>(out.num_rows + 1, stream, mr);
  out.chars    = device_buffer<char>(col.decoded_bytes(), stream, mr);
  decode_column(col, out.view(), stream);
  detail::throw_if_device_errors(col, stream);
  return out;
}

/** @brief A prepared any_column: a device_column or a device_cascaded_column. */
class device_any_column {
 public:
  device_any_column() = default;

  /** @brief Prepares whichever alternative `c` holds, allocating from `mr`. @throw as the two prepare()s. */
  static device_any_column prepare(any_column const& c, cuda::stream_ref stream = {}, prepare_options const& opt = {},
                                   device_async_resource_ref mr = default_device_resource())
  {
    device_any_column d;
    if (c.is_cascade()) d.value_ = device_cascaded_column::prepare(c.cascade(), stream, opt, mr);
    else d.value_ = device_column::prepare(c.plain(), stream, opt, mr);
    return d;
  }
  bool is_cascade() const noexcept { return std::holds_alternative<device_cascaded_column>(value_); }
  device_column const& plain() const { return std::get<device_column>(value_); }
  device_cascaded_column const& cascade() const { return std::get<device_cascaded_column>(value_); }
  std::uint64_t num_rows() const { return is_cascade() ? cascade().num_rows() : plain().num_rows(); }
  std::uint64_t decoded_bytes() const { return is_cascade() ? cascade().decoded_bytes() : plain().decoded_bytes(); }
  /** @note synchronizes `stream` (no allocation). */
  std::uint32_t read_and_clear_errors(cuda::stream_ref stream = {}) const
  {
    return is_cascade() ? cascade().read_and_clear_errors(stream) : plain().read_and_clear_errors(stream);
  }

 private:
  std::variant<device_column, device_cascaded_column> value_;
};

/** @brief Decodes every row of a plain or cascaded column into `out` (auto_config for plain). */
template <class OffsetT>
void decode_column(device_any_column const& col, string_column_view<OffsetT> out, cuda::stream_ref stream = {})
{
  if (col.is_cascade()) decode_column(col.cascade(), out, stream);
  else decode_column(col.plain(), out, stream);
}

/**
 * @brief Allocates the output from `mr`, decodes every row of a plain or cascaded column and
 * checks the error word.
 * @note synchronizes `stream`.
 */
template <class OffsetT = std::int64_t>
string_column<OffsetT> decompress(device_any_column const& col, cuda::stream_ref stream = {},
                                  device_async_resource_ref mr = default_device_resource())
{
  if (col.is_cascade()) return decompress<OffsetT>(col.cascade(), stream, mr);
  return decompress<OffsetT>(col.plain(), stream, mr);
}

}  // namespace fastpair
