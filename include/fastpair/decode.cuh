// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file decode.cuh
 * @brief Host API of the GPU decoder: decode_column() (stream-ordered, no allocation, no
 * synchronisation, graph-capturable) and decompress() (allocating convenience that checks errors;
 * it allocates from the memory resource it is given, default_device_resource() by default).
 *
 * Output is Arrow-style: `offsets[num_rows + 1]` (int32 or int64, offsets[0] == 0) and `chars`.
 */
#pragma once

#include <fastpair/config.cuh>
#include <fastpair/detail/cuda.cuh>
#include <fastpair/detail/dispatch.cuh>
#include <fastpair/tuning.cuh>
#include <fastpair/device_column.cuh>
#include <fastpair/format.hpp>

#include <cuda/stream_ref>

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace fastpair {

/** @brief True for the two offset types of the output: int32 (Arrow utf8) and int64 (large_utf8). */
template <class T>
inline constexpr bool is_offset_type_v = std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t>;

/**
 * @brief The offset width, 32 or 64 bits, that a decode of `chars_bytes` chars needs: 32 while the
 * last offset fits int32_t (at most 2^31 - 1 bytes: Arrow utf8, cuDF's INT32 offsets), else 64
 * (large_utf8, cuDF's INT64 offsets). docs/ENGINES.md.
 */
constexpr int offset_bits_for(std::uint64_t chars_bytes) noexcept
{
  return chars_bytes <= static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()) ? 32 : 64;
}

/** @brief A mutable view of device output: `offsets[num_rows + 1]` and `chars[chars_capacity]`. */
template <class OffsetT>
struct string_column_view {
  // The offset type is checked where a view is written (detail::check_output), not here: a check
  // in the class body would fire while overload resolution merely considers decode_column
  // overloads whose OffsetT is deduced from an explicit Config argument.
  OffsetT* offsets             = nullptr;
  char* chars                  = nullptr;
  std::uint64_t num_rows       = 0;
  std::uint64_t chars_capacity = 0;
};

/** @brief Owning device strings returned by decompress() (its buffers free their memory through the
 *  resource they were allocated from, stream-ordered: offsets.memory_resource()). */
template <class OffsetT>
struct string_column {
  device_buffer<OffsetT> offsets;  ///< num_rows + 1
  device_buffer<char> chars;       ///< decoded bytes
  std::uint64_t num_rows = 0;

  string_column_view<OffsetT> view() noexcept
  {
    return {offsets.data(), chars.data(), num_rows, chars.size()};
  }
  /** @brief Copies to host Arrow-style strings (pageable std::vector: no device or pinned
   *  allocation). @note synchronizes `stream`. */
  host_strings to_host(cuda::stream_ref stream = {}) const
  {
    host_strings h;
    std::vector<OffsetT> off(num_rows + 1);
    h.chars.resize(chars.size());
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(off.data(), offsets.data(), off.size() * sizeof(OffsetT),
                                      cudaMemcpyDeviceToHost, stream.get()));
    if (!h.chars.empty())
      FASTPAIR_CUDA_TRY(cudaMemcpyAsync(h.chars.data(), chars.data(), h.chars.size(),
                                        cudaMemcpyDeviceToHost, stream.get()));
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(stream.get()));
    h.offsets.assign(off.begin(), off.end());
    return h;
  }
};

namespace detail {
/**
 * @brief The checks of a caller's output before a decode writes `rows` rows and `bytes` chars into
 * it: row count, chars capacity, non-null pointers (offsets may be null if `offsets_optional`),
 * and no int32 offset overflow.
 * `expected` and `size` word the messages ("expected" / "decoded size" for a decode,
 * "the selection" / "selected size" for a selective decode).
 * @throw logic_error naming the failed check.
 */
template <class OffsetT>
void check_output(string_column_view<OffsetT> const& out, std::uint64_t rows, std::uint64_t bytes,
                  char const* expected = "expected", char const* size = "decoded size", bool offsets_optional = false)
{
  static_assert(is_offset_type_v<OffsetT>, "offsets are int32 (Arrow utf8) or int64 (Arrow large_utf8)");
  FASTPAIR_EXPECTS(out.num_rows == rows, "output has " + std::to_string(out.num_rows) + " rows, " + expected +
                                           " " + std::to_string(rows));
  FASTPAIR_EXPECTS(out.chars_capacity >= bytes, "output chars capacity " + std::to_string(out.chars_capacity) +
                                                  " < " + size + " " + std::to_string(bytes));
  FASTPAIR_EXPECTS(offsets_optional || out.offsets != nullptr, "output offsets must not be null");
  FASTPAIR_EXPECTS(bytes == 0 || out.chars != nullptr, "output chars must not be null");
  if constexpr (std::is_same_v<OffsetT, std::int32_t>)
    FASTPAIR_EXPECTS(out.offsets == nullptr || bytes <= static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()),
                     std::string(size) + " " + std::to_string(bytes) + " overflows int32 offsets: use int64");
}

/** @throw decode_error naming the bits of a nonzero device error word (decode_error_bits). */
inline void throw_decode_errors(std::uint32_t e)
{
  if (e != 0)
    throw decode_error(std::string("fastpair: corrupt device data while decoding:") +
                       ((e & code_out_of_range) ? " a code >= the dictionary size;" : "") +
                       ((e & sidecar_mismatch) ? " the sidecar disagrees with the token lengths;" : "") +
                       ((e & kernel_not_built) ? " a kernel ran on an architecture it was not built for;" : ""));
}
}  // namespace detail

namespace detail {
template <class Config, class OffsetT>
void decode_located(device_column const& col, std::uint64_t row_begin, std::uint64_t row_end,
                    device_column::row_range const& rr, string_column_view<OffsetT> out, cuda::stream_ref stream);
}  // namespace detail

/**
 * @brief Decodes rows [row_begin, row_end) of `col` into `out` on `stream`.
 *
 * Asynchronous: no allocation, no synchronisation, capturable in a CUDA graph. Corrupt device data
 * sets bits in the column's error word (read with device_column::read_and_clear_errors); writes
 * never leave `out`.
 *
 * @code{.pseudo}
 * rows {"ab", "", "cda"} -> out.offsets {0, 2, 2, 5}, out.chars "abcda"
 * @endcode
 * `out.offsets` may be null: then only the chars are written (the paper's "bulk decompression").
 * Otherwise a second kernel writes them: from the column's compact row lengths (1-2 bytes read
 * per row; prepare_options::row_lengths_max_share), else copied from its 8-byte row offsets
 * (prepare_options::row_offsets), else derived from the codes and the stored row code counts
 * (detail/kernels/row_offsets_kernel.cuh: the codes are read a second time). It is launched after the decode and on sm_90+ runs beside it
 * (programmatic dependent launch); work queued after decode_column on `stream` still starts only
 * once both are done.
 *
 * Whole columns, and row ranges whose ends are multiples of device_column::row_index_rows(),
 * are located from the host copy of the row index: no synchronisation. Other ends are looked
 * up on the GPU first (device_column::locate_rows: 48 bytes from the column's resource and one
 * synchronisation of `stream`, which a CUDA graph capture cannot contain).
 * @tparam Config a decode_config, or auto_config (default) for the per-architecture choice
 * @param stream CUDA stream on which to perform the work
 * @throw logic_error if the column is not usable on the current device (device_column::check_usable:
 *        not prepared, or prepared on another device), the row range is invalid, out is too small (num_rows or chars_capacity),
 *        int32 offsets (if any) would overflow, Config's W does not match the column's, or Config reads
 *        something the column lacks (a length stream, fused codes; register_words_short on a
 *        column with a high plane).
 */
template <class Config = auto_config, class OffsetT>
void decode_column(device_column const& col, std::uint64_t row_begin, std::uint64_t row_end,
                   string_column_view<OffsetT> out, cuda::stream_ref stream = {})
{
  col.check_usable();
  detail::decode_located<Config>(col, row_begin, row_end, col.locate_rows(row_begin, row_end, stream), out, stream);
}

namespace detail {
/** decode_column over rows [row_begin, row_end) located at `rr` (device_column::locate_rows). */
template <class Config, class OffsetT>
void decode_located(device_column const& col, std::uint64_t row_begin, std::uint64_t row_end,
                    device_column::row_range const& rr, string_column_view<OffsetT> out, cuda::stream_ref stream)
{
  std::uint64_t const n_rows = row_end - row_begin;
  std::uint64_t const bytes  = rr.b1 - rr.b0;
  detail::check_output(out, n_rows, bytes, "expected", "decoded size", true);

  // The chars first, then the offsets pass, which on sm_90+ runs beside the decode (it needs
  // nothing from it; launch_offsets_pass).
  bool decoding = false;
  if (bytes != 0) {
    decode_rows<Config>(col, row_begin, row_end, rr, reinterpret_cast<unsigned char*>(out.chars), stream, &decoding);
  }
  if (out.offsets == nullptr) return;
  if (col.row_length_bytes() != 0)
    FASTPAIR_CUDA_TRY(detail::launch_row_offsets_from_lengths(col.device_row_lengths(), col.row_length_bytes(),
                                                              col.num_rows(), col.device_block_bytes(), row_begin,
                                                              row_end, rr.b0, col.decoded_bytes(), out.offsets,
                                                              decoding, stream));
  else if (col.has_row_offsets())
    FASTPAIR_CUDA_TRY(detail::launch_copy_offsets(col.device_row_byte_offsets() + row_begin, n_rows + 1,
                                                  out.offsets, decoding, stream));
  else if (col.low_plane_bytes() == 8)
    FASTPAIR_CUDA_TRY(detail::launch_row_offsets_from_codes(col.view<8>(), col.counts_view(), col.device_block_codes(),
                                                            col.device_block_bytes(), row_begin, row_end, rr.b0,
                                                            col.decoded_bytes(), out.offsets, decoding, stream));
  else
    FASTPAIR_CUDA_TRY(detail::launch_row_offsets_from_codes(col.view<16>(), col.counts_view(), col.device_block_codes(),
                                                            col.device_block_bytes(), row_begin, row_end, rr.b0,
                                                            col.decoded_bytes(), out.offsets, decoding, stream));
}

}  // namespace detail

/** @brief Decodes every row of `col` into `out`. @see decode_column(col, row_begin, row_end, out, stream) */
template <class Config = auto_config, class OffsetT>
void decode_column(device_column const& col, string_column_view<OffsetT> out, cuda::stream_ref stream = {})
{
  decode_column<Config>(col, 0, col.num_rows(), out, stream);
}

/**
 * @brief Allocates the output from `mr` on `stream`, decodes rows [row_begin, row_end), and
 * checks the device error word.
 * @note synchronizes `stream` (to read the error word). Allocates only the output (offsets and
 * chars, from `mr`; the column's own buffers were allocated by prepare).
 * @param mr the resource of the output's buffers (it must outlive them)
 * @throw decode_error if the device reported corrupt data; plus decode_column's exceptions.
 */
template <class OffsetT = std::int64_t, class Config = auto_config>
string_column<OffsetT> decompress(device_column const& col, std::uint64_t row_begin, std::uint64_t row_end,
                                  cuda::stream_ref stream = {}, device_async_resource_ref mr = default_device_resource())
{
  col.check_usable();
  col.check_rows(row_begin, row_end);
  string_column<OffsetT> out;
  out.num_rows = row_end - row_begin;
  out.offsets  = device_buffer<OffsetT>(out.num_rows + 1, stream, mr);
  device_column::row_range const rr = col.locate_rows(row_begin, row_end, stream);
  out.chars    = device_buffer<char>(rr.b1 - rr.b0, stream, mr);
  detail::decode_located<Config>(col, row_begin, row_end, rr, out.view(), stream);
  detail::throw_decode_errors(col.read_and_clear_errors(stream));
  return out;
}

/** @brief Allocates and decodes every row. @see decompress(col, row_begin, row_end, stream, mr) */
template <class OffsetT = std::int64_t, class Config = auto_config>
string_column<OffsetT> decompress(device_column const& col, cuda::stream_ref stream = {},
                                  device_async_resource_ref mr = default_device_resource())
{
  return decompress<OffsetT, Config>(col, 0, col.num_rows(), stream, mr);
}

namespace detail {

/** The preparation with the decode queued chunk by chunk (device_column's pipelined builders). */
struct prepare_pipeline {
  template <class OnChunk>
  static device_column host(void const* bytes, std::size_t size, cuda::stream_ref stream, prepare_options const& opt,
                            device_async_resource_ref mr, OnChunk&& on_chunk)
  {
    return device_column::fpc_host(bytes, size, stream, opt, mr, on_chunk, chunk_work::decodes_all);
  }
  template <class OnChunk>
  static device_column device(void const* bytes, std::size_t size, cuda::stream_ref stream, prepare_options const& opt,
                              device_async_resource_ref mr, OnChunk&& on_chunk)
  {
    return device_column::fpc_device(bytes, size, stream, opt, mr, on_chunk, chunk_work::decodes_all);
  }
};

/** Decoded bytes per row from which decode_fpc_* have the decode kernel write the row offsets
 *  itself (row_sink.cuh) rather than a pass beside it that reads the codes again
 *  (row_offsets_from_codes_kernel). The kernel's cost grows with the rows (a count and a scan per
 *  32 rows, a ballot and two shuffles per batch with a row start), the pass's with the codes. On
 *  the 12 shared columns (H100) the kernel won on the columns of 57 bytes per row or more; with
 *  the row windows of row_sink.cuh it still loses 3–23 % on tpch_o_clerk, tpch_l_shipinstruct and
 *  tpch_l_comment (12–27 bytes per row) and moves −4.3 … +2.9 % on tpch_c_address
 *  (docs/notes/offsets-in-decode-2026-12-07.md, docs/notes/row-hook-windows-2026-12-07.md). */
inline constexpr std::uint64_t offsets_in_decode_min_bytes_per_row = 48;

/** Whether decode_fpc_* have the decode kernel write the row offsets of `col` where one step holds
 *  it whole: rows long enough, fewer than 2^32 - 1 of them, and a register_words config. */
inline bool offsets_in_decode(device_column const& col, decode_policy const& policy)
{
  std::uint64_t const R = col.num_rows();
  return R != 0 && R < 0xFFFFFFFFu && col.decoded_bytes() >= offsets_in_decode_min_bytes_per_row * R &&
         with_policy_config(policy, [](auto tag) { return decltype(tag)::type::emits_words; });
}

/** What decode_fpc_host queues for each chunk the preparation places: the chars of its segments
 *  (the automatic config, written at their positions in the whole output), then the offsets of
 *  its rows, derived from the codes beside the decode. Where one chunk holds the whole column (an
 *  image in device memory, or one step from host memory), its rows are long
 *  (offsets_in_decode_min_bytes_per_row) and the automatic config has a register_words emit
 *  (sm_90+), the decode kernel writes the offsets itself, by a segment index of 8 bytes per sidecar
 *  segment (from `mr`, freed on return). */
template <class OffsetT>
struct decode_chunks {
  string_column_view<OffsetT> out;
  device_async_resource_ref mr;
  device_buffer<segment_row> segment_rows{};
  bool checked = false;
  bool errors_known   = false;  // the preparation read the error word after the last decode
  std::uint32_t errors = 0;

  void errors_read(std::uint32_t e) noexcept { errors = e, errors_known = true; }
  /** The decode's errors: as the preparation read them, else (a version-1 image) read now. */
  std::uint32_t final_errors(device_column const& col, cuda::stream_ref stream) const
  {
    return errors_known ? errors : col.read_and_clear_errors(stream);
  }

  void operator()(device_column const& col, ready_chunk const& c, cuda::stream_ref stream)
  {
    if (!checked) {  // the first chunk: the output is checked against the header
      check_output(out, col.num_rows(), col.decoded_bytes(), "the image has", "decoded size", true);
      checked = true;
    }
    bool decoding = false;
    std::uint64_t const M = col.num_codes(), R = col.num_rows();
    decode_policy const policy = select_policy(col);
    if (out.offsets != nullptr && c.code_begin == 0 && c.code_end == M && c.row_begin == 0 && c.row_end == R &&
        offsets_in_decode(col, policy)) {
      with_policy_config(policy, [&](auto tag) {
        using config = typename decltype(tag)::type;
        if constexpr (config::emits_words) {  // (offsets_in_decode) only these have the hook: WritesRows
          segment_rows = device_buffer<segment_row>((M + col.sidecar_stride() - 1) / col.sidecar_stride() + 1, stream, mr);
          FASTPAIR_CUDA_TRY(launch_segment_rows(col.counts_view(), col.device_block_codes(), M, col.sidecar_stride(),
                                                segment_rows.data(), stream));
          row_sink rows{};
          rows.out          = out.offsets;
          rows.wide         = std::is_same_v<OffsetT, std::int64_t>;
          rows.segment_rows = segment_rows.data();
          rows.counts       = col.counts_view();
          rows.num_codes    = M;
          rows.row_end      = R;
          launch_decode<config, decltype(tag)::arch, true>(col.view<config::low_plane_bytes>(), 0, M,
                                                           reinterpret_cast<unsigned char*>(out.chars), 0,
                                                           col.decoded_bytes(), stream, &decoding, rows);
        }
      });
      return;
    }
    if (col.decoded_bytes() != 0)
      decode_codes<auto_config>(col, c.code_begin, c.code_end, reinterpret_cast<unsigned char*>(out.chars), 0,
                                col.decoded_bytes(), stream, &decoding, &policy);
    if (out.offsets == nullptr || (c.row_end == c.row_begin && c.row_end != col.num_rows())) return;
    auto offsets = [&](auto v) {
      return launch_row_offsets_from_codes(v, col.counts_view(), col.device_block_codes(), col.device_block_bytes(),
                                           c.row_begin, c.row_end, 0, col.decoded_bytes(), out.offsets + c.row_begin,
                                           decoding, stream);
    };
    FASTPAIR_CUDA_TRY(col.low_plane_bytes() == 8 ? offsets(col.view<8>()) : offsets(col.view<16>()));
  }
};

}  // namespace detail

/**
 * @brief Prepares the column of a `.fpc` image in host memory (pinned or pageable) and decodes
 * all its rows into `out`: prepare_fpc_host and decode_column, pipelined. Each step of codes
 * (prepare_options::chunk_bytes) is decoded as soon as it is uploaded and its sidecar known, while
 * the next steps are still being copied, so the upload, the checks and the decode overlap.
 *
 * A stored sidecar is used as stored, also with prepare_options::validate: the decode itself checks
 * every code against the dictionary and every segment's decoded length against the sidecar, so
 * the content is checked without a pass of its own over the codes (prepare_fpc_host recomputes the
 * sidecar instead, because a prepared column must be checked before any decode).
 *
 * @code{.pseudo}
 * fastpair::fpc_header const h = fastpair::parse_fpc_header(bytes, size);   // rows, decoded size
 * // out: h.n_rows + 1 offsets (may be null: chars only), h.decoded chars, on the device
 * fastpair::decode_fpc_host(bytes, size, out, stream);                        // synchronizes `stream`
 * @endcode
 * Row offsets: where one step holds the whole column (from device memory always), its rows
 * average at least 48 decoded bytes and the automatic config is a register_words one (sm_90+), the
 * decode kernel writes them itself, by an index of 8 bytes per sidecar segment (from `mr`, freed
 * on return); otherwise a pass beside each step's decode derives them from the codes
 * (decode_column's).
 *
 * @return the prepared column, as prepare_fpc_host builds it but without the compact row lengths
 *         (build_row_lengths adds them) and, where the sidecar is stored, with the token-length
 *         histogram of the first step that chose the plane width (histogram()), for later
 *         decodes; destroy it if not needed.
 * @note Synchronizes `stream` twice (the preparation's checks, and with several steps the row index;
 *       the checks with the decode's error word).
 *       The image's checks are read at the end: an invalid image throws, and `out` then holds
 *       unspecified bytes (nothing is written outside it). `bytes` may be released when it returns.
 * @throw format_error naming what is wrong in an invalid image; decode_error if the decode
 *        reported corrupt data (a trusted stored sidecar: prepare_options::validate = false);
 *        logic_error if `out` does not fit the image (rows, chars capacity, int32 overflow) or on
 *        bad options; cuda_error; what `mr` throws.
 */
template <class OffsetT>
device_column decode_fpc_host(void const* bytes, std::size_t size, string_column_view<OffsetT> out,
                              cuda::stream_ref stream = {}, prepare_options const& opt = {},
                              device_async_resource_ref mr = default_device_resource())
{
  detail::decode_chunks<OffsetT> work{out, mr};
  device_column col = detail::prepare_pipeline::host(bytes, size, stream, opt, mr, work);
  detail::throw_decode_errors(work.final_errors(col, stream));
  return col;
}

/**
 * @brief decode_fpc_host for the bytes of a `.fpc` image already in device memory on the current
 * device (prepare_fpc_device, pipelined with the decode). Where the codes section is 16-byte
 * aligned in memory (it is at a multiple of 16 in the image: any image at the start of a
 * cudaMalloc'd buffer), the decode reads the codes where they are stored, while a second stream
 * copies them into the returned column; the caller's bytes may be released when it returns. With
 * prepare_options::borrow_codes nothing is copied: the returned column reads the codes in the
 * caller's bytes, which must then outlive it (a one-off decode: destroy the column first).
 * @note Synchronizes `stream` twice more than decode_fpc_host, first: to read the header, then the
 *       section headers (the dictionary is checked on the GPU).
 * @see decode_fpc_host
 */
template <class OffsetT>
device_column decode_fpc_device(void const* device_bytes, std::size_t size, string_column_view<OffsetT> out,
                                cuda::stream_ref stream = {}, prepare_options const& opt = {},
                                device_async_resource_ref mr = default_device_resource())
{
  detail::decode_chunks<OffsetT> work{out, mr};
  device_column col = detail::prepare_pipeline::device(device_bytes, size, stream, opt, mr, work);
  detail::throw_decode_errors(work.final_errors(col, stream));
  return col;
}

}  // namespace fastpair
