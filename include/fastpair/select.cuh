// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file select.cuh
 * @brief Selective decode (late materialisation): decode only the selected rows of a column into a
 * compact Arrow-style output, in row order. The selection comes in any of the three device forms of
 * selection.cuh (row ids, bitmask, row ranges). docs/SELECTIVE.md has the design and figures.
 *
 * @code{.pseudo}
 * rows {"ab", "", "cda", "x"}, selection row ids {0, 2}
 *   -> out.offsets {0, 2, 5}, out.chars "abcda"
 * @endcode
 *
 * Two steps, both usable on their own:
 *  - make_select_plan(col, sel): validates the selection on the GPU, turns it into runs of rows and
 *    scans their sizes. It synchronizes the stream once (row ids, ranges; a bitmask: twice) to read
 *    the validation result and the totals back, and is the size query (plan.num_rows(), plan.bytes()).
 *  - decode_selected(col, plan, out): stream-ordered, no synchronisation; allocates temporaries on
 *    the stream (the compact codes, or the whole decoded column for the dense strategy).
 * decode_selected(col, sel, out) and decompress_selected(col, sel) do both. Every allocation (the
 * plan, the temporaries, decompress_selected's output) comes from the `mr` argument (last,
 * default_device_resource() by default).
 *
 * Errors. An invalid selection (row id >= num_rows, ids not strictly increasing, a range with
 * begin > end or end > num_rows, overlapping or unsorted ranges, a bitmask over a different
 * number of rows) throws fastpair::logic_error from make_select_plan, before any selected row id
 * is used as an index. Bitmask bits at or past num_rows are ignored. Corrupt column data is
 * reported through the column's error word, as for decode_column.
 */
#pragma once

#include <fastpair/decode.cuh>
#include <fastpair/detail/cuda.cuh>
#include <fastpair/detail/dispatch.cuh>
#include <fastpair/detail/kernels/decode_kernel.cuh>
#include <fastpair/detail/kernels/select_kernel.cuh>
#include <fastpair/tuning.cuh>
#include <fastpair/device_column.cuh>
#include <fastpair/selection.cuh>

#include <cub/device/device_memcpy.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/stream_ref>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

namespace fastpair {

/**
 * @brief How decode_selected materialises the rows. The automatic choice is `selective`: it beat
 * decode-then-filter at every selectivity measured up to 50 % on four columns (H200,
 * fastpair_bench_select, docs/SELECTIVE.md), and where every row is selected both decode the one
 * run directly. decode_then_filter stays as the reference the selective path is measured against.
 */
enum class select_strategy {
  automatic,           ///< selective (the measured winner)
  selective,           ///< filter-then-materialise: gather the selected codes, decode only those
  decode_then_filter,  ///< decode the whole column into a temporary, then copy the selected rows out
};

/** @brief True for the three device selection forms of selection.cuh. */
template <class Sel>
inline constexpr bool is_device_selection_v = std::is_same_v<Sel, device_row_ids> ||
                                              std::is_same_v<Sel, device_bitmask> ||
                                              std::is_same_v<Sel, device_row_ranges>;

/** @brief Name of a strategy ("auto", "selective", "dense"), for logs and benchmark labels. */
inline char const* strategy_name(select_strategy s) noexcept
{
  return s == select_strategy::selective ? "selective" : s == select_strategy::decode_then_filter ? "dense" : "auto";
}

/**
 * @brief A validated selection of one column: its runs of rows on the device and their scanned
 * sizes. Made by make_select_plan; only valid with the column it was made for.
 */
class select_plan {
 public:
  select_plan() = default;
  /** @brief Selected rows (output rows). */
  std::uint64_t num_rows() const noexcept { return totals_.rows; }
  /** @brief Decoded bytes of the selected rows (output chars). */
  std::uint64_t bytes() const noexcept { return totals_.bytes; }
  /** @brief Codes of the selected rows. */
  std::uint64_t num_codes() const noexcept { return totals_.codes; }
  /** @brief Selected rows / column rows (0 for an empty column). */
  double selectivity() const noexcept { return column_rows_ ? double(totals_.rows) / double(column_rows_) : 0.0; }
  /** @brief The selection as canonical-or-not runs of rows (device memory owned by the plan). */
  device_row_ranges pieces() const noexcept { return {pieces_.data(), num_pieces_}; }
  /** @brief True if the selection is one run of consecutive rows (then single_run() is it). */
  bool contiguous() const noexcept { return num_pieces_ == 1; }
  /** @brief The one run of a contiguous() plan (host copy). */
  row_range single_run() const noexcept { return single_; }
  /** @brief The strategy `s` resolves to for this plan (automatic -> selective). */
  select_strategy resolve(select_strategy s) const noexcept
  {
    return s == select_strategy::automatic ? select_strategy::selective : s;
  }

 private:
  friend struct select_plan_access;

  device_buffer<row_range> pieces_;
  std::uint64_t num_pieces_ = 0;
  device_buffer<detail::piece_sums> sums_;  // num_pieces + 1
  detail::piece_sums totals_{};
  row_range single_{};  // pieces_[0] when num_pieces_ == 1
  std::uint64_t column_rows_ = 0;
};

/** @brief Builds plans and reads their device sums (for make_select_plan and decode_selected). */
struct select_plan_access {
  static detail::piece_sums const* sums(select_plan const& p) noexcept { return p.sums_.data(); }

  /**
   * Scans the sizes of `pieces` (runs of `col`'s rows, clamped to the column; slots past the run
   * count hold empty runs), then reads back in ONE synchronisation the validation word `error`
   * (may be null), the run count (`num`, or null: every slot is a run), the totals and the first
   * run. Throws logic_error naming the problem if `error` is set: the plan is then discarded, and
   * the clamping kept every read of the row offsets in bounds.
   */
  static select_plan build(device_column const& col, device_buffer<row_range> pieces, std::uint64_t slots,
                           std::uint32_t const* error, std::uint64_t const* num, char const* form,
                           cuda::stream_ref stream, device_async_resource_ref mr)
  {
    select_plan plan;
    plan.column_rows_ = col.num_rows();
    plan.pieces_      = std::move(pieces);
    plan.sums_        = device_buffer<detail::piece_sums>(slots + 1, stream, mr);
    thrust::counting_iterator<std::uint64_t> j(0);
    auto sizes = thrust::make_transform_iterator(
      j, detail::piece_size_of{plan.pieces_.data(), slots, col.device_row_byte_offsets(), col.device_row_code_offsets()});
    std::size_t temp_bytes = 0;
    FASTPAIR_CUDA_TRY(cub::DeviceScan::ExclusiveScan(nullptr, temp_bytes, sizes, plan.sums_.data(),
                                                     detail::piece_sums_plus{}, detail::piece_sums{}, slots + 1,
                                                     stream.get()));
    {
      device_buffer<unsigned char> temp(temp_bytes, stream, mr);
      FASTPAIR_CUDA_TRY(cub::DeviceScan::ExclusiveScan(temp.data(), temp_bytes, sizes, plan.sums_.data(),
                                                       detail::piece_sums_plus{}, detail::piece_sums{}, slots + 1,
                                                       stream.get()));
    }
    device_buffer<detail::plan_readback> d_back(1, stream, mr);
    detail::finish_plan_kernel<<<1, 1, 0, stream.get()>>>(error, num, slots + 1, plan.sums_.data(),
                                                          plan.pieces_.data(), d_back.data());
    FASTPAIR_CUDA_TRY(cudaGetLastError());
    detail::plan_readback back;
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(&back, d_back.data(), sizeof back, cudaMemcpyDeviceToHost, stream.get()));
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(stream.get()));
    FASTPAIR_EXPECTS(!(back.error & detail::select_row_out_of_range),
                     std::string("invalid ") + form + " selection: a row lies outside the column (or a range has begin > end)");
    FASTPAIR_EXPECTS(!(back.error & detail::select_not_increasing),
                     std::string("invalid ") + form +
                       " selection: row ids must be strictly increasing / ranges sorted and non-overlapping");
    plan.num_pieces_ = back.num_pieces;
    plan.totals_     = back.totals;
    plan.single_     = back.first;
    return plan;
  }
};

namespace detail {

inline unsigned grid_for(std::uint64_t n)
{
  return static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>((n + 255) / 256, 1u << 16)));
}

/** A zeroed selection error word on `stream`. */
inline device_buffer<std::uint32_t> error_word(cuda::stream_ref stream, device_async_resource_ref mr)
{
  device_buffer<std::uint32_t> err(1, stream, mr);
  FASTPAIR_CUDA_TRY(cudaMemsetAsync(err.data(), 0, sizeof(std::uint32_t), stream.get()));
  return err;
}

/** Row ids: validated and cut into runs on the GPU, one synchronisation in all. */
inline select_plan plan_of(device_column const& col, device_row_ids sel, cuda::stream_ref stream,
                           device_async_resource_ref mr)
{
  FASTPAIR_EXPECTS(sel.count == 0 || sel.rows != nullptr, "row id selection with a null pointer");
  auto err = error_word(stream, mr);
  device_buffer<std::uint64_t> d_num(1, stream, mr);
  device_buffer<row_range> pieces(sel.count, stream, mr);
  if (sel.count) {
    validate_row_ids_kernel<<<grid_for(sel.count), 256, 0, stream.get()>>>(sel, col.num_rows(), err.data());
    FASTPAIR_CUDA_TRY(cudaGetLastError());
    auto const first = select_indices_async(sel.count, sel.count, ids_run_first{sel.rows}, d_num.data(), stream, mr);
    id_runs_kernel<<<grid_for(sel.count), 256, 0, stream.get()>>>(first.data(), d_num.data(), sel, col.num_rows(),
                                                                  pieces.data());
    FASTPAIR_CUDA_TRY(cudaGetLastError());
  } else {
    FASTPAIR_CUDA_TRY(cudaMemsetAsync(d_num.data(), 0, sizeof(std::uint64_t), stream.get()));
  }
  return select_plan_access::build(col, std::move(pieces), sel.count, err.data(), d_num.data(), "row id", stream, mr);
}

/** Ranges: validated and clamped on the GPU, one synchronisation in all. */
inline select_plan plan_of(device_column const& col, device_row_ranges sel, cuda::stream_ref stream,
                           device_async_resource_ref mr)
{
  FASTPAIR_EXPECTS(sel.count == 0 || sel.ranges != nullptr, "range selection with a null pointer");
  auto err = error_word(stream, mr);
  device_buffer<row_range> pieces(sel.count, stream, mr);
  if (sel.count) {
    validate_ranges_kernel<<<grid_for(sel.count), 256, 0, stream.get()>>>(sel, col.num_rows(), err.data());
    clamp_ranges_kernel<<<grid_for(sel.count), 256, 0, stream.get()>>>(sel, col.num_rows(), pieces.data());
    FASTPAIR_CUDA_TRY(cudaGetLastError());
  }
  return select_plan_access::build(col, std::move(pieces), sel.count, err.data(), nullptr, "range", stream, mr);
}

/** Bitmask: its runs of set bits (one synchronisation for their count), then the plan (one more). */
inline select_plan plan_of(device_column const& col, device_bitmask sel, cuda::stream_ref stream,
                           device_async_resource_ref mr)
{
  FASTPAIR_EXPECTS(sel.num_rows == col.num_rows(), "invalid bitmask selection: it covers " +
                                                     std::to_string(sel.num_rows) + " rows, the column has " +
                                                     std::to_string(col.num_rows()));
  FASTPAIR_EXPECTS(sel.num_rows == 0 || sel.words != nullptr, "bitmask selection with a null pointer");
  device_row_ranges_buffer runs = to_row_ranges(sel, stream, mr);
  return select_plan_access::build(col, std::move(runs.ranges), runs.count, nullptr, nullptr, "bitmask", stream, mr);
}

/** cub::DeviceMemcpy::Batched over the pieces. */
inline void copy_pieces(std::uint64_t num_pieces, piece_source src, piece_destination dst, piece_copy_bytes size,
                        cuda::stream_ref stream, device_async_resource_ref mr)
{
  if (num_pieces == 0) return;
  thrust::counting_iterator<std::uint64_t> j(0);
  auto in   = thrust::make_transform_iterator(j, src);
  auto out  = thrust::make_transform_iterator(j, dst);
  auto len  = thrust::make_transform_iterator(j, size);
  std::size_t temp_bytes = 0;
  FASTPAIR_CUDA_TRY(cub::DeviceMemcpy::Batched(nullptr, temp_bytes, in, out, len,
                                               static_cast<std::int64_t>(num_pieces), stream.get()));
  device_buffer<unsigned char> temp(temp_bytes, stream, mr);
  FASTPAIR_CUDA_TRY(cub::DeviceMemcpy::Batched(temp.data(), temp_bytes, in, out, len,
                                               static_cast<std::int64_t>(num_pieces), stream.get()));
}

/** piece_starts_kernel over `num_pieces` runs (none: nothing to do). */
inline void launch_piece_starts(piece_sums const* sums, std::uint64_t num_pieces, piece_key key, std::uint64_t block,
                                std::uint64_t* start, cuda::stream_ref stream)
{
  if (num_pieces == 0) return;
  piece_starts_kernel<<<grid_for(num_pieces), 256, 0, stream.get()>>>(sums, num_pieces, key, block, start);
  FASTPAIR_CUDA_TRY(cudaGetLastError());
}

/** Filter-then-materialise: gather the selected codes into a compact stream with its own sidecar
 *  (one kernel), decode it with the ordinary decode kernel. */
inline void decode_selected_codes(device_column const& col, select_plan const& plan, unsigned char* chars,
                                  cuda::stream_ref stream, device_async_resource_ref mr)
{
  std::uint64_t const n_codes = plan.num_codes();
  auto const* sums            = select_plan_access::sums(plan);
  device_row_ranges const pcs = plan.pieces();
  auto run = [&](auto tag) {
    // The compact stream has no per-code length stream nor fused codes: gather the lengths.
    using config = typename with_gathered_lengths<typename decltype(tag)::type>::type;
    // The compact stream's sidecar stride: one batch of the decoding config per segment.
    constexpr int chunks        = config::tokens_per_thread;
    std::uint64_t const stride  = 32 * chunks;
    std::uint64_t const nseg    = (n_codes + stride - 1) / stride;
    // One allocation: the compact stream's sidecar (nseg + 1 u64), the segments' first runs
    // (nseg u64), then the codes (u16).
    device_buffer<std::uint64_t> scratch(2 * nseg + 1 + (n_codes + 3) / 4, stream, mr);
    std::uint64_t* const sidecar   = scratch.data();
    std::uint64_t* const seg_start = sidecar + nseg + 1;
    auto* const codes              = reinterpret_cast<std::uint16_t*>(seg_start + nseg);
    launch_piece_starts(sums, pcs.count, piece_key::codes, stride, seg_start, stream);
    auto v                = col.view<config::low_plane_bytes>();
    unsigned const blocks = static_cast<unsigned>(std::min<std::uint64_t>((nseg + 7) / 8, 1u << 20));
    gather_compact_kernel<chunks><<<std::max(blocks, 1u), 256, 0, stream.get()>>>(
      v, col.device_row_code_offsets(), col.device_row_byte_offsets(), pcs.ranges, sums, pcs.count, seg_start, codes,
      sidecar);
    FASTPAIR_CUDA_TRY(cudaGetLastError());
    v.codes          = codes;
    v.code_bits      = 16;       // the compact stream is u16
    v.code_lengths   = nullptr;  // the column's streams describe its own codes, not these
    v.code_words     = nullptr;
    v.num_codes      = n_codes;
    v.sidecar        = sidecar;
    v.sidecar_stride = static_cast<std::uint32_t>(stride);
    launch_decode<config, decltype(tag)::arch>(v, 0, n_codes, chars, 0, plan.bytes(), stream);
  };
  with_auto_config(col, run);
}

/** Rows [r.begin, r.end) decoded straight into `chars`, as decode_column does for a row range. */
inline void decode_run(device_column const& col, row_range r, unsigned char* chars, cuda::stream_ref stream)
{
  decode_rows<auto_config>(col, r.begin, r.end, col.locate_rows(r.begin, r.end, stream), chars, stream);
}

/** Decode-then-filter: decode every code into a temporary, copy the pieces' bytes out. */
inline void decode_selected_dense(device_column const& col, select_plan const& plan, unsigned char* chars,
                                  cuda::stream_ref stream, device_async_resource_ref mr)
{
  if (plan.num_rows() == col.num_rows()) return decode_run(col, {0, col.num_rows()}, chars, stream);  // nothing to filter
  device_buffer<unsigned char> all(col.decoded_bytes(), stream, mr);
  decode_run(col, {0, col.num_rows()}, all.data(), stream);
  device_row_ranges const pcs = plan.pieces();
  copy_pieces(pcs.count, piece_source{all.data(), pcs.ranges, col.device_row_byte_offsets(), 1},
              piece_destination{chars, select_plan_access::sums(plan), false},
              piece_copy_bytes{pcs.ranges, col.device_row_byte_offsets(), 1}, stream, mr);
}

}  // namespace detail

/**
 * @brief Validates `sel` for `col` and computes, on the GPU, where every selected row goes.
 *
 * This is the size query: plan.num_rows() and plan.bytes() size the output of decode_selected.
 * @code{.pseudo}
 * rows {"ab", "", "cda", "x"}, ranges {[1, 3)} -> plan.num_rows() == 2, plan.bytes() == 3
 * @endcode
 * @tparam Sel device_row_ids, device_bitmask or device_row_ranges
 * @param stream CUDA stream on which to perform the work
 * @param mr the resource of the plan's device buffers (kept by the plan: it must outlive it) and
 *        of the temporaries
 * @note synchronizes `stream` (validation result, run count, totals; a bitmask: twice);
 *       allocates from `mr` on `stream`.
 * @throw logic_error if the selection is invalid for `col` (see the file comment); cuda_error.
 */
template <class Sel>
select_plan make_select_plan(device_column const& col, Sel sel, cuda::stream_ref stream = {},
                             device_async_resource_ref mr = default_device_resource())
{
  static_assert(is_device_selection_v<Sel>, "a selection is a device_row_ids, device_bitmask or device_row_ranges");
  col.check_usable();
  return detail::plan_of(col, sel, stream, mr);
}

/**
 * @brief Checks `sel` against `col` on the GPU (it builds and discards a plan, allocated from `mr`).
 * @note synchronizes `stream`. @throw logic_error naming the problem.
 */
template <class Sel>
void validate_selection(device_column const& col, Sel sel, cuda::stream_ref stream = {},
                        device_async_resource_ref mr = default_device_resource())
{
  (void)make_select_plan(col, sel, stream, mr);
}

/**
 * @brief Decodes the rows of `plan` into `out` (plan.num_rows() rows, plan.bytes() chars).
 *
 * Stream-ordered and without synchronisation; allocates temporaries from `mr` on `stream`
 * (selective: the compact codes and their sidecar, ~2 bytes per selected code; dense: the whole
 * decoded column), freed stream-ordered before it returns.
 * Writes only out.offsets[0, num_rows] and out.chars[0, plan.bytes()).
 * @param stream CUDA stream on which to perform the work
 * @param mr the resource of the temporaries
 * @throw logic_error if `out` is too small, int32 offsets would overflow, or pointers are null.
 */
template <class OffsetT>
void decode_selected(device_column const& col, select_plan const& plan, string_column_view<OffsetT> out,
                     cuda::stream_ref stream = {}, select_strategy strategy = select_strategy::automatic,
                     device_async_resource_ref mr = default_device_resource())
{
  col.check_usable();
  std::uint64_t const rows = plan.num_rows(), bytes = plan.bytes();
  detail::check_output(out, rows, bytes, "the selection", "selected size");

  device_row_ranges const pcs = plan.pieces();
  auto const* sums            = select_plan_access::sums(plan);
  // The first run of every 256 output rows (a plan of one run needs none).
  device_buffer<std::uint64_t> row_start(pcs.count > 1 ? (rows + 255) / 256 : 0, stream, mr);
  if (pcs.count > 1) detail::launch_piece_starts(sums, pcs.count, detail::piece_key::rows, 256, row_start.data(), stream);
  unsigned const offset_blocks = static_cast<unsigned>((rows + 1 + 255) / 256);  // one thread per offset
  detail::select_offsets_kernel<OffsetT><<<offset_blocks, 256, 0, stream.get()>>>(
    col.device_row_byte_offsets(), pcs.ranges, sums, pcs.count, rows, pcs.count > 1 ? row_start.data() : nullptr,
    out.offsets);
  FASTPAIR_CUDA_TRY(cudaGetLastError());
  if (bytes == 0) return;
  auto* const chars = reinterpret_cast<unsigned char*>(out.chars);
  if (plan.resolve(strategy) == select_strategy::selective) {
    // One run of rows needs no gather: decode its window directly (what decode_column does).
    if (plan.contiguous()) detail::decode_run(col, plan.single_run(), chars, stream);
    else detail::decode_selected_codes(col, plan, chars, stream, mr);
  } else {
    detail::decode_selected_dense(col, plan, chars, stream, mr);
  }
}

/**
 * @brief make_select_plan + decode_selected (the plan and the temporaries from `mr`).
 * @note synchronizes `stream` while planning (not after the decode). @throw as both.
 */
template <class OffsetT, class Sel, std::enable_if_t<is_device_selection_v<Sel>, int> = 0>
void decode_selected(device_column const& col, Sel sel, string_column_view<OffsetT> out, cuda::stream_ref stream = {},
                     select_strategy strategy = select_strategy::automatic,
                     device_async_resource_ref mr = default_device_resource())
{
  decode_selected(col, make_select_plan(col, sel, stream, mr), out, stream, strategy, mr);
}

/**
 * @brief Allocates the output, decodes the selected rows and checks the column's error word.
 * @code{.pseudo}
 * decompress_selected(dcol, device_row_ids{d_rows, 2}) -> string_column with 2 rows
 * @endcode
 * @note synchronizes `stream` (planning, then the error word); the output, the plan and the
 *       temporaries come from `mr`. @throw decode_error on corrupt device data; plus the above.
 */
template <class OffsetT = std::int64_t, class Sel, std::enable_if_t<is_device_selection_v<Sel>, int> = 0>
string_column<OffsetT> decompress_selected(device_column const& col, Sel sel, cuda::stream_ref stream = {},
                                           select_strategy strategy = select_strategy::automatic,
                                           device_async_resource_ref mr = default_device_resource())
{
  select_plan const plan = make_select_plan(col, sel, stream, mr);
  string_column<OffsetT> out;
  out.num_rows = plan.num_rows();
  out.offsets  = device_buffer<OffsetT>(out.num_rows + 1, stream, mr);
  out.chars    = device_buffer<char>(plan.bytes(), stream, mr);
  decode_selected(col, plan, out.view(), stream, strategy, mr);
  if (std::uint32_t const e = col.read_and_clear_errors(stream); e != 0)
    throw decode_error(std::string("fastpair: corrupt device data while decoding selected rows:") +
                       ((e & code_out_of_range) ? " a code >= the dictionary size;" : "") +
                       ((e & sidecar_mismatch) ? " the row offsets disagree with the token lengths;" : ""));
  return out;
}

}  // namespace fastpair
