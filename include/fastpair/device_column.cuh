// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file device_column.cuh
 * @brief `device_column`: a compressed column prepared for the GPU (the codes as stored, the row
 * code counts, a row index, sidecar, planes, error word in device memory), built on the GPU from
 * the stored bytes of a `.fpc` image (prepare_fpc_host / prepare_fpc_device) or from an
 * in-memory compressed_column (prepare).
 *
 * Preparation is the one place that allocates and copies; decoding (decode.cuh) does neither.
 * Every device allocation of a column comes from the memory resource given to prepare() (and
 * kept: memory_resource()), and goes back to it stream-ordered when the column is destroyed.
 */
#pragma once

#include <fastpair/detail/arch.cuh>
#include <fastpair/detail/cuda.cuh>
#include <fastpair/detail/dispatch.cuh>
#include <fastpair/detail/fpc_v2.hpp>
#include <fastpair/detail/kernels/decode_kernel.cuh>
#include <fastpair/detail/kernels/prepare_kernel.cuh>
#include <fastpair/detail/warp_decode.cuh>
#include <fastpair/format.hpp>
#include <fastpair/io.hpp>
#include <fastpair/planes.hpp>
#include <fastpair/prepare_options.hpp>
#include <fastpair/validate.hpp>

#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <cuda/stream_ref>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace fastpair {

class device_column;
class fpc_streamer;
namespace detail {
struct prepare_pipeline;  // decode.cuh: preparation with the decode queued chunk by chunk

/** Codes [code_begin, code_end) (whole sidecar segments) and the positions of rows [row_begin,
 *  row_end] that a pipelined preparation has just placed on the device: work queued on its stream
 *  from then on may read them (and what earlier chunks placed). */
struct ready_chunk {
  std::uint64_t code_begin = 0, code_end = 0, row_begin = 0, row_end = 0;
};
/** The preparation's own work only. */
struct no_chunk_work {
  void operator()(device_column const&, ready_chunk const&, cuda::stream_ref) const noexcept {}
  /** After the last chunk's work (chunk_work::decodes_all only): the error word as it was read
   *  then, since cleared. */
  void errors_read(std::uint32_t) const noexcept {}
};
/** What the chunk work of a preparation from stored sections does (device_column::prepare_sections). */
enum class chunk_work {
  /// nothing the preparation relies on: it checks the content itself and builds the compact row lengths
  none,
  /// a decode of every segment with the column's checks (decode_fpc_*): a stored sidecar is used
  /// as stored and checked by that decode, the histogram stays the sample's, no row lengths
  decodes_all,
};

/** A column's sidecar computed as its codes arrive: the lengths of the segments now complete
 *  (segment_lengths_kernel, which also flags codes outside the dictionary), then a scan that
 *  carries the running total from step to step. Its buffers come from `mr` on `stream`. */
class sidecar_scan {
 public:
  sidecar_scan() = default;
  /** For `nseg` > 0 segments, written to sidecar[0 .. nseg]. */
  sidecar_scan(std::uint64_t nseg, std::uint64_t* sidecar, cuda::stream_ref stream, device_async_resource_ref mr)
    : sidecar_(sidecar),
      seg_bytes_(nseg + 1, stream, mr),
      carry_(1, stream, mr)  // sidecar[segments done]
  {
    // zeroed: each step's scan also loads the entry past its segments (not summed, written later)
    FASTPAIR_CUDA_TRY(cudaMemsetAsync(seg_bytes_.data(), 0, (nseg + 1) * 8, stream.get()));
    FASTPAIR_CUDA_TRY(cudaMemsetAsync(carry_.data(), 0, 8, stream.get()));
    FASTPAIR_CUDA_TRY(cub::DeviceScan::ExclusiveScan(nullptr, temp_bytes_, seg_bytes_.data(), sidecar_, cuda::std::plus<>{},
                                                     cub::FutureValue<std::uint64_t>(carry_.data()), nseg + 1, stream.get()));
    temp_ = device_buffer<unsigned char>(temp_bytes_, stream, mr);
  }
  /** sidecar[seg_begin .. seg_end] from the lengths of segments [seg_begin, seg_end) of `v` (and
   *  their token-length histogram into `histogram`, if not null). */
  template <int W>
  void add(column_view<W> const& v, std::uint64_t seg_begin, std::uint64_t seg_end, std::uint64_t* histogram,
           cuda::stream_ref stream)
  {
    if (seg_end <= seg_begin) return;
    cudaStream_t const st = stream.get();
    std::uint64_t const m = seg_end - seg_begin;
    auto const blocks = static_cast<unsigned>(std::min<std::uint64_t>((m + 7) / 8, 65535));
    if (histogram != nullptr)
      segment_lengths_kernel<W, true><<<blocks, 256, 0, st>>>(v, seg_bytes_.data(), seg_begin, seg_end, histogram);
    else
      segment_lengths_kernel<W, false><<<blocks, 256, 0, st>>>(v, seg_bytes_.data(), seg_begin, seg_end, nullptr);
    // sidecar[seg_begin .. seg_end] = carry + exclusive sums (seg_bytes[seg_end] is not summed)
    FASTPAIR_CUDA_TRY(cub::DeviceScan::ExclusiveScan(temp_.data(), temp_bytes_, seg_bytes_.data() + seg_begin,
                                                     sidecar_ + seg_begin, cuda::std::plus<>{},
                                                     cub::FutureValue<std::uint64_t>(carry_.data()), m + 1, st));
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(carry_.data(), sidecar_ + seg_end, 8, cudaMemcpyDeviceToDevice, st));
  }
  /** The device bytes it holds. */
  std::uint64_t bytes() const noexcept { return seg_bytes_.size() * 8 + carry_.size() * 8 + temp_.size(); }

 private:
  std::uint64_t* sidecar_ = nullptr;
  device_buffer<std::uint64_t> seg_bytes_, carry_;
  device_buffer<unsigned char> temp_;
  std::size_t temp_bytes_ = 0;
};
}  // namespace detail

/**
 * @brief A compressed column resident in device memory, ready for decode_column().
 *
 * @code{.pseudo}
 * auto dcol = fastpair::device_column::prepare_fpc_host(bytes, size, stream);  // stored .fpc bytes
 * fastpair::decode_column(dcol, out_view, stream);                            // async, no allocation
 * @endcode
 *
 * Lifetime: the destructor does not block. The device memory goes back to its resource on the
 * preparation stream (stream-ordered), and the texture objects of the texture gathers are
 * destroyed once the work queued on that stream before the destruction has finished (an event;
 * release_deferred_resources()). Work that reads the column on other streams must be ordered
 * before its destruction (an event the preparation stream waits for), and the memory resource
 * must outlive the column.
 */
class device_column {
 public:
  device_column() = default;

  /**
   * @brief An upper estimate of the device memory prepare(col, stream, opt) keeps (not counting
   * the allocator's rounding) on a GPU of architecture bucket `arch` (which decides whether the
   * split stream applies: sm_90+); device_bytes() of the prepared column is the exact figure.
   */
  static std::uint64_t device_bytes(compressed_column const& col, prepare_options const& opt = {},
                                    arch_bucket arch = detail::current_arch_bucket())
  {
    std::uint64_t const n = col.num_codes, rows = col.num_rows();
    std::uint64_t const count_bytes = detail::fpc2_count_plan_of(col).size;
    std::uint64_t const blocks      = (rows + detail::row_block_rows - 1) / detail::row_block_rows + 1;
    std::uint64_t bytes = (opt.borrow_codes ? 0 : packed_code_bytes(col.kind, n) + 1) + std::uint64_t{code_space(col.kind)} * 17 + 2 * 512 +  // codes, planes (+ alignment)
                          (col.sidecar_entries() + 1) * 8 + (count_bytes / 8 + 2) * 8 + 2 * blocks * 8 + 4;
    if (opt.length_stream) bytes += (n + 7) / 8 * 4 + 16;
    if (opt.fused_codes && code_space(col.kind) <= 4096) bytes += 2 * n + 16;
    if (opt.row_offsets) bytes += 2 * (rows + 1) * 8;
    if (rows > 0) {  // the compact row lengths, where prepare builds them
      std::uint64_t longest = 0;
      for (std::uint64_t r = 0; r < rows; ++r) longest = std::max(longest, col.row_byte_offsets[r + 1] - col.row_byte_offsets[r]);
      std::uint64_t const per_row = longest <= 0xFF ? 1 : longest <= 0xFFFF ? 2 : 0;
      double const stored = stored_bytes_of(col.dict.size(), col.dict.bytes.size(), packed_code_bytes(col.kind, n), count_bytes,
                                            col.sidecar_entries());
      if (per_row && double(rows) <= opt.row_lengths_max_share * stored && double(rows * per_row) <= opt.row_lengths_max_share * stored)
        bytes += rows * per_row;
    }
    if (opt.split_stream && col.kind == codec::onpair12) {
      auto const h = token_length_histogram(col);
      if (detail::tuned_split_stream(col.kind, h, arch)) {
        std::uint64_t long_codes = 0;
        for (int len = 9; len <= 16; ++len) long_codes += h[len];
        std::uint64_t const words = n + long_codes;
        bytes += 2 * words + (words / std::max<std::uint32_t>(col.sidecar_stride, 1) + 2) * 8 + 8192 * 8 + 4096 + 512;
      }
    }
    return bytes;
  }

  /** @brief The device bytes the column holds: the sum of its allocations' sizes (what it asked
   *  its memory resource for), accelerators included; borrowed codes (borrows_codes()) are not. */
  std::uint64_t device_bytes() const noexcept
  {
    return bytes_of(codes_) + bytes_of(code_words_) + bytes_of(lo_) + bytes_of(hi_) + bytes_of(entry_lengths_) +
           bytes_of(sidecar_) + bytes_of(row_byte_offsets_) + bytes_of(row_code_offsets_) + bytes_of(error_) +
           bytes_of(code_lengths_) + bytes_of(count_words_) + bytes_of(block_codes_) + bytes_of(block_bytes_) +
           bytes_of(split_words_) + bytes_of(split_sidecar_) + bytes_of(split_lo_) + bytes_of(split_lengths_) +
           bytes_of(row_lengths_);
  }

  /**
   * @brief Prepares an in-memory column: checks it on the host (validate(), or validate_structure()
   * with prepare_options::validate = false), bit-packs its row code counts, uploads codes, counts
   * and sidecar on `stream` and builds the rest on the GPU as prepare_fpc_host does.
   * @note Synchronizes `stream` once (to read the token-length histogram and the row index), and
   * once more where it builds the compact row lengths;
   * allocates every device buffer from `mr` (kept by the column, which frees them through it).
   * @param mr the resource of every device allocation (it must outlive the column)
   * @throw format_error if the column is invalid; logic_error on bad options; cuda_error; what `mr` throws.
   */
  static device_column prepare(compressed_column const& col, cuda::stream_ref stream = {},
                               prepare_options const& opt = {},
                               device_async_resource_ref mr = default_device_resource())
  {
    if (opt.validate) validate(col);
    else validate_structure(col);  // always: what keeps the host and device reads in bounds
    detail::fpc2_counts const counts = detail::fpc2_counts_of(col);  // as version 2 stores them
    stored_sections s;
    s.kind            = col.kind;
    s.num_codes       = col.num_codes;
    s.num_rows        = col.num_rows();
    s.decoded_bytes   = col.decoded_bytes();
    s.stride          = col.sidecar_stride;
    s.count_bits      = counts.bits;
    s.count_base      = counts.base;
    s.count_directory = counts.directory;
    s.codes           = col.codes.data();
    s.counts          = counts.bytes.data();
    s.count_bytes     = counts.bytes.size();
    s.sidecar         = col.sidecar.empty() ? nullptr : col.sidecar.data();
    s.sidecar_entries = col.sidecar.size();
    s.validate        = false;  // validate() has checked the content on the host
    std::vector<std::uint8_t> token_lengths(col.dict.size());
    for (std::uint32_t e = 0; e < col.dict.size(); ++e) token_lengths[e] = static_cast<std::uint8_t>(col.dict.length(e));
    s.dict_lengths    = token_lengths.data();
    s.dict_bytes      = reinterpret_cast<std::uint8_t const*>(col.dict.bytes.data());
    s.num_tokens      = col.dict.size();
    s.dict_byte_count = col.dict.bytes.size();
    device_column d   = prepare_sections(
      s, [&]() -> dictionary const& { return col.dict; }, cudaMemcpyHostToDevice, stream, opt, mr, detail::no_chunk_work{}, detail::chunk_work::none);
    if (opt.split_stream && detail::tuned_split_stream(col.kind, d.histogram_, detail::current_arch_bucket()))
      d.upload_split_stream(col, stream);
    return d;
  }

  /**
   * @brief Prepares a column from the bytes of a `.fpc` image in host memory (pinned or pageable):
   * the host parses the header and the dictionary; codes, row code counts and sidecar are
   * uploaded as they are stored and checked and expanded on the GPU (docs/FORMAT.md §3). A
   * version-1 image is read on the host (deserialize) and prepared with prepare(col).
   *
   * The codes are copied in steps of prepare_options::chunk_bytes on a second stream; each step
   * is checked and indexed on `stream` while the next ones are copied. The plane width W is
   * chosen from the token lengths of the first 1/16 of the codes (at least 4 MiB: the first step
   * by default; histogram() is the whole column's).
   * @note Synchronizes `stream` twice (once the row index and the first step are there, and at
   * the end to read the checks), and once more where it builds the compact row lengths (the
   * longest row). The bytes may be released when it returns.
   * @throw format_error naming what is wrong in an invalid image; logic_error on bad options;
   *        cuda_error; what `mr` throws.
   */
  static device_column prepare_fpc_host(void const* bytes, std::size_t size, cuda::stream_ref stream = {},
                                        prepare_options const& opt = {},
                                        device_async_resource_ref mr = default_device_resource())
  {
    return fpc_host(bytes, size, stream, opt, mr, detail::no_chunk_work{}, detail::chunk_work::none);
  }

  /**
   * @brief Prepares a column from the bytes of a `.fpc` version-2 image already in device memory
   * on the current device (as a GPUDirect Storage / cuFile read leaves them): the header and the
   * section headers are copied to the host; the dictionary is checked on the GPU (on the host,
   * copied there, if the image is not 8-byte aligned in memory, or to name what is wrong); codes,
   * counts and sidecar are copied device to device and checked on the GPU. The caller's buffer
   * is not kept, unless prepare_options::borrow_codes: then the column reads the codes in the
   * caller's buffer, which must outlive it, and holds no copy of them. A version-1 image is copied
   * to the host and read there. Pipelined as prepare_fpc_host.
   * @note Synchronizes `stream` (to read the header, the section headers, the preparation's checks,
   *       then the last checks, after a second stream's copy of the row index to the host).
   * @throw format_error naming what is wrong (a buffer shorter than the header says, ...);
   *        logic_error; cuda_error; what `mr` throws.
   */
  static device_column prepare_fpc_device(void const* device_bytes, std::size_t size, cuda::stream_ref stream = {},
                                          prepare_options const& opt = {},
                                          device_async_resource_ref mr = default_device_resource())
  {
    return fpc_device(device_bytes, size, stream, opt, mr, detail::no_chunk_work{}, detail::chunk_work::none);
  }

  /** @brief Bytes per row of the compact row lengths (prepare_options::row_lengths_max_share):
   *  1 or 2, 0 if the column has none. */
  int row_length_bytes() const noexcept { return row_length_bytes_; }
  /** @brief Device pointer to the compact row lengths (row_length_bytes() bytes per row), or null. */
  void const* device_row_lengths() const noexcept { return row_lengths_.data(); }

  /**
   * @brief Builds the compact row lengths on the GPU (what prepare does where they cost at most
   * prepare_options::row_lengths_max_share of the stored bytes): 1 byte per row if every row is
   * at most 255 bytes long, 2 if at most 65 535; none (row_length_bytes() stays 0) otherwise.
   * @note Synchronizes `stream` (to read the longest row); temporaries (8 bytes per row) are
   * allocated from `mr` and freed stream-ordered.
   */
  void build_row_lengths(cuda::stream_ref stream = {}) { build_row_lengths(stream, mr_); }
  /** @brief build_row_lengths(stream), allocating from `mr` (which must outlive the column). */
  void build_row_lengths(cuda::stream_ref stream, device_async_resource_ref mr, double max_bytes_per_row = 2.0);

  /** @brief True if the column has the 8-byte row offsets (prepare_options::row_offsets). */
  bool has_row_offsets() const noexcept { return row_code_offsets_.data() != nullptr; }

  /** @brief True if the column reads its codes from the image it was prepared from
   *  (prepare_options::borrow_codes), which must outlive it. */
  bool borrows_codes() const noexcept { return num_codes_ > 0 && codes_.data() == nullptr && window_codes_ != nullptr; }

  /**
   * @brief Builds the 8-byte row code offsets and row byte offsets on the GPU (what prepare does
   * with prepare_options::row_offsets): 16 bytes per row from `mr`. Asynchronous (no
   * synchronisation); temporaries are freed stream-ordered.
   */
  void build_row_offsets(cuda::stream_ref stream = {}) { build_row_offsets(stream, mr_); }
  /** @brief build_row_offsets(stream), allocating from `mr` (which must outlive the column). */
  void build_row_offsets(cuda::stream_ref stream, device_async_resource_ref mr);

  /** @brief True if the column has the split stream (prepare_options::split_stream). */
  bool has_split_stream() const noexcept { return split_lo_ptr_ != nullptr; }

  /**
   * @brief The view of the split stream (build_split_stream): W = 8, no high plane, codes only
   * in `code_words` (13 code bits), for register_words_short configs with texture_low_fused.
   * Its rows start at split_row_code_offsets(). @throw logic_error without a split stream.
   */
  column_view<8> split_view() const
  {
    check_usable();
    FASTPAIR_EXPECTS(has_split_stream(), "the column has no split stream (prepare_options::split_stream, OnPair-12)");
    column_view<8> v;
    v.lo              = split_lo_ptr_;
    v.entry_lengths   = split_lengths_.data();
    v.sidecar         = split_sidecar_.data();
    v.num_codes       = split_num_codes_;
    v.num_tokens      = split_num_tokens_;
    v.sidecar_stride  = stride_;
    v.error           = const_cast<std::uint32_t*>(error_.data());
    v.lo_tex          = split_lo_tex_.get();
    v.code_words      = split_words_.data();
    v.fused_code_bits = split_code_bits;
    return v;
  }
  /** @brief Row r's first code in the split stream, r in [0, num_rows()] (host copy). */
  std::vector<std::uint64_t> const& split_row_code_offsets() const noexcept { return split_row_code_offsets_; }

  /** @brief True if the column's planes have a high plane: W = 8 and the codec allows tokens of
   *  more than 8 bytes (OnPair). Without one, register_words_short configs can decode it. */
  bool has_high_plane() const noexcept { return hi_.data() != nullptr; }

  /** @brief True if the column has the fused code stream (prepare_options::fused_codes). */
  bool has_fused_codes() const noexcept { return code_words_.data() != nullptr; }

  /**
   * @brief Builds the fused code stream on the GPU (what prepare() does for OnPair-12 and
   * FSST-12 columns unless prepare_options::fused_codes is false): word i holds code i in bits
   * 0..11 and its token length - 1 in bits 12..15, 16 zero bytes of padding past the end.
   * Asynchronous (no synchronisation); allocates the stream (2 bytes per code) on `stream` from
   * the column's memory_resource(). @throw logic_error if the codec has more than 4 096 codes.
   */
  void build_fused_codes(cuda::stream_ref stream = {}) { build_fused_codes(stream, mr_); }
  /** @brief build_fused_codes(stream), allocating from `mr` (which must outlive the column). */
  void build_fused_codes(cuda::stream_ref stream, device_async_resource_ref mr)
  {
    check_usable();
    FASTPAIR_EXPECTS(code_space(kind_) <= 4096, "fused codes need a dictionary of at most 4096 entries");
    code_words_ = device_buffer<std::uint16_t>(num_codes_ + 8, stream, mr);
    FASTPAIR_CUDA_TRY(cudaMemsetAsync(code_words_.data(), 0, (num_codes_ + 8) * sizeof(std::uint16_t), stream.get()));
    if (num_codes_ > 0) {
      unsigned const blocks = static_cast<unsigned>(std::min<std::uint64_t>((num_codes_ + 255) / 256, 4096));
      launch_on_view([&](auto v) { detail::fused_codes_kernel<<<blocks, 256, 0, stream.get()>>>(v, code_words_.data()); });
    }
  }

  /** @brief True if the column has the per-code length stream (prepare_options::length_stream). */
  bool has_length_stream() const noexcept { return code_lengths_.data() != nullptr; }

  /**
   * @brief Builds the per-code length stream on the GPU (what prepare() does unless
   * prepare_options::length_stream is false): 4 bits per code, 8 codes per 32-bit word, 16 zero
   * bytes of padding past the end. Asynchronous (no synchronisation); allocates the stream
   * (half a byte per code) on `stream` from the column's memory_resource().
   */
  void build_length_stream(cuda::stream_ref stream = {}) { build_length_stream(stream, mr_); }
  /** @brief build_length_stream(stream), allocating from `mr` (which must outlive the column). */
  void build_length_stream(cuda::stream_ref stream, device_async_resource_ref mr)
  {
    check_usable();
    std::uint64_t const words = (num_codes_ + 7) / 8;
    code_lengths_             = device_buffer<std::uint32_t>(words + 4, stream, mr);
    FASTPAIR_CUDA_TRY(cudaMemsetAsync(code_lengths_.data(), 0, (words + 4) * sizeof(std::uint32_t), stream.get()));
    if (words > 0) {
      unsigned const blocks = static_cast<unsigned>(std::min<std::uint64_t>((words + 255) / 256, 4096));
      launch_on_view([&](auto v) {
        detail::code_lengths_kernel<<<blocks, 256, 0, stream.get()>>>(v, code_lengths_.data(), words);
      });
    }
  }

  /**
   * @brief Recomputes the sidecar on the GPU from the codes and lengths (what prepare() does for a
   * column stored without one). Asynchronous (no synchronisation); allocates temporaries (the
   * segment lengths and CUB temp storage, freed stream-ordered before it returns) on `stream`
   * from the column's memory_resource().
   */
  void regenerate_sidecar(cuda::stream_ref stream = {}) { regenerate_sidecar(stream, mr_); }
  /** @brief regenerate_sidecar(stream), its temporaries allocated from `mr`. */
  void regenerate_sidecar(cuda::stream_ref stream, device_async_resource_ref mr)
  {
    check_usable();
    if (w_ == 8) regenerate_sidecar_on(view<8>(), stream, mr);
    else regenerate_sidecar_on(view<16>(), stream, mr);
  }

  /** @brief True once prepare() built the column (false for a default-constructed or moved-from one). */
  bool prepared() const noexcept { return error_.data() != nullptr; }
  /** @brief The CUDA device the column was prepared on (-1 if not prepared). */
  int device() const noexcept { return device_; }
  /** @brief The memory resource the column's device memory came from (prepare's `mr`); the
   *  build_* methods allocate from it by default. */
  device_async_resource_ref memory_resource() const noexcept { return mr_; }

  /**
   * @brief Checks that the column can be read on the current device: it is prepared, and the
   * current device is the one it was prepared on. Every function that launches work on the
   * column calls it first, so misuse is an exception rather than a launch that fails (or faults
   * and ends the CUDA context).
   * @throw logic_error naming the problem
   */
  void check_usable() const
  {
    FASTPAIR_EXPECTS(prepared(), "the device_column is not prepared (default-constructed or moved from): "
                                 "build it with device_column::prepare");
    int current = -1;
    FASTPAIR_CUDA_TRY(cudaGetDevice(&current));
    FASTPAIR_EXPECTS(current == device_, "the device_column was prepared on device " + std::to_string(device_) +
                                           " and is used on device " + std::to_string(current) +
                                           ": make device " + std::to_string(device_) + " current (cudaSetDevice)");
  }

  /** @brief The view for low-plane width W. @throw logic_error if W differs from low_plane_bytes(),
   *  or the column is not usable here (check_usable). */
  template <int W>
  column_view<W> view() const
  {
    check_usable();
    FASTPAIR_EXPECTS(W == w_, "config W (" + std::to_string(W) + ") does not match the column's low plane width (" +
                                std::to_string(w_) + ")");
    column_view<W> v;
    v.codes          = window_codes_ != nullptr ? window_codes_ : codes_.data();
    v.code_bits      = static_cast<std::uint32_t>(code_bits(kind_));
    v.lo             = lo_ptr_;
    v.hi             = hi_.data();
    v.entry_lengths  = entry_lengths_ptr_;
    v.sidecar        = sidecar_.data();
    v.num_codes      = num_codes_;
    v.num_tokens     = num_tokens_;
    v.sidecar_stride = stride_;
    v.error          = const_cast<std::uint32_t*>(error_.data());
    v.lo_tex         = lo_tex_.get();
    v.code_lengths   = reinterpret_cast<std::uint8_t const*>(code_lengths_.data());
    v.code_words     = code_words_.data();
    return v;
  }

  codec kind() const noexcept { return kind_; }
  int low_plane_bytes() const noexcept { return w_; }
  std::uint64_t num_codes() const noexcept { return num_codes_; }
  std::uint64_t num_rows() const noexcept { return num_rows_; }
  std::uint64_t num_segments() const noexcept { return (num_codes_ + stride_ - 1) / stride_; }
  std::uint32_t sidecar_stride() const noexcept { return stride_; }
  std::uint64_t decoded_bytes() const noexcept { return decoded_bytes_; }

  /** @brief Where rows [row_begin, row_end) lie: codes [c0, c1), decoded bytes [b0, b1). */
  struct row_range {
    std::uint64_t c0 = 0, c1 = 0, b0 = 0, b1 = 0;
  };
  /**
   * @brief The code and byte bounds of rows [row_begin, row_end). Ends that are multiples of
   * row_index_rows() (or the column's end) come from the host copy of the row index; any other
   * end is looked up on the GPU (with the row offsets accelerator: read from them).
   * @note For an end that is not a multiple of row_index_rows(), allocates 48 bytes from the
   * column's resource and synchronizes `stream`. @throw logic_error on an invalid range.
   */
  row_range locate_rows(std::uint64_t row_begin, std::uint64_t row_end, cuda::stream_ref stream = {}) const
  {
    check_rows(row_begin, row_end);
    row_range rr;
    std::uint64_t pending[2] = {}, n = 0;
    auto at_index = [&](std::uint64_t r, std::uint64_t& c, std::uint64_t& b) {
      if (r == num_rows_) c = num_codes_, b = decoded_bytes_;
      else if (r % detail::row_block_rows == 0) c = block_codes_host_[r / detail::row_block_rows], b = block_bytes_host_[r / detail::row_block_rows];
      else return false;
      return true;
    };
    if (!at_index(row_begin, rr.c0, rr.b0)) pending[n++] = row_begin;
    if (!at_index(row_end, rr.c1, rr.b1)) pending[n++] = row_end;
    if (n == 0) return rr;
    check_usable();
    std::uint64_t found[4] = {};
    device_buffer<std::uint64_t> d(6, stream, mr_);
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(d.data(), pending, sizeof pending, cudaMemcpyHostToDevice, stream.get()));
    if (has_row_offsets()) {
      for (std::uint64_t i = 0; i < n; ++i) {
        FASTPAIR_CUDA_TRY(cudaMemcpyAsync(d.data() + 2 + 2 * i, row_code_offsets_.data() + pending[i], 8, cudaMemcpyDeviceToDevice, stream.get()));
        FASTPAIR_CUDA_TRY(cudaMemcpyAsync(d.data() + 3 + 2 * i, row_byte_offsets_.data() + pending[i], 8, cudaMemcpyDeviceToDevice, stream.get()));
      }
    } else {
      launch_on_view([&](auto v) {
        detail::row_positions_kernel<<<static_cast<unsigned>(n), 32, 0, stream.get()>>>(v, counts_view(), block_codes_.data(), d.data(), d.data() + 2);
      });
    }
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(found, d.data() + 2, 2 * n * sizeof(std::uint64_t), cudaMemcpyDeviceToHost, stream.get()));
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(stream.get()));
    std::uint64_t i = 0;
    if (!at_index(row_begin, rr.c0, rr.b0)) rr.c0 = found[0], rr.b0 = found[1], i = 1;
    if (!at_index(row_end, rr.c1, rr.b1)) rr.c1 = found[2 * i], rr.b1 = found[2 * i + 1];
    return rr;
  }
  /** @brief Rows per entry of the row index: row ranges whose ends are multiples of it (or the
   *  column's end) are located without touching the device. */
  static constexpr std::uint64_t row_index_rows() noexcept { return detail::row_block_rows; }

  /** @brief Decoded bytes of rows [row_begin, row_end) (locate_rows: may synchronize `stream`). */
  std::uint64_t decoded_bytes(std::uint64_t row_begin, std::uint64_t row_end, cuda::stream_ref stream = {}) const
  {
    row_range const rr = locate_rows(row_begin, row_end, stream);
    return rr.b1 - rr.b0;
  }
  /** @brief Mean decoded bytes per code. */
  double mean_token_length() const noexcept { return fastpair::mean_token_length(histogram_); }
  /** @brief Token-length histogram of the coded stream (used for the automatic config). */
  length_histogram const& histogram() const noexcept { return histogram_; }
  /** @brief Device pointer to the row byte offsets (num_rows + 1 entries).
   *  @throw logic_error without the row offsets accelerator (prepare_options::row_offsets). */
  std::uint64_t const* device_row_byte_offsets() const
  {
    expect_row_offsets();
    return row_byte_offsets_.data();
  }
  /** @brief Device pointer to the row code offsets (num_rows + 1 entries): row r's codes are
   *  view().codes[off[r], off[r + 1]) (used by selective decode and the predicates).
   *  @throw logic_error without the row offsets accelerator (prepare_options::row_offsets). */
  std::uint64_t const* device_row_code_offsets() const
  {
    expect_row_offsets();
    return row_code_offsets_.data();
  }
  /** @brief The stored row code counts and the row index, as the kernels read them. */
  detail::row_counts_view counts_view() const noexcept
  {
    detail::row_counts_view v;
    v.words    = count_words_.data();
    v.size     = count_size_;
    v.blocks   = count_directory_ ? detail::fpc2::count_directory_bytes(num_rows_, count_bits_) / 16 : 0;
    v.base     = count_base_;
    v.bits     = count_bits_;
    v.num_rows = num_rows_;
    return v;
  }
  /** @brief Device row index: entry k = the first code of row k·row_index_rows() (ceil(num_rows /
   *  row_index_rows()) + 1 entries, the last = num_codes). */
  std::uint64_t const* device_block_codes() const noexcept { return block_codes_.data(); }
  /** @brief Device row index: entry k = the decoded position of row k·row_index_rows(). */
  std::uint64_t const* device_block_bytes() const noexcept { return block_bytes_.data(); }

  /**
   * @brief Reads the device error word (decode_error_bits) and clears it.
   * @note synchronizes `stream` (the word is copied to the host; no allocation).
   */
  std::uint32_t read_and_clear_errors(cuda::stream_ref stream = {}) const
  {
    check_usable();
    std::uint32_t h = 0;
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(&h, error_.data(), sizeof h, cudaMemcpyDeviceToHost, stream.get()));
    FASTPAIR_CUDA_TRY(cudaMemsetAsync(const_cast<std::uint32_t*>(error_.data()), 0, sizeof h, stream.get()));
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(stream.get()));
    return h;
  }

  /** @throw logic_error if [row_begin, row_end) is not a valid row range. */
  void check_rows(std::uint64_t row_begin, std::uint64_t row_end) const
  {
    FASTPAIR_EXPECTS(row_begin <= row_end && row_end <= num_rows(),
                     "row range [" + std::to_string(row_begin) + ", " + std::to_string(row_end) +
                       ") outside the column's " + std::to_string(num_rows()) + " rows");
  }

 private:
  friend struct detail::prepare_pipeline;
  friend class fpc_streamer;  // fpc_streamer.cuh: a column whose codes are a window at a time

  /** prepare_fpc_host, with on_chunk(column, chunk, stream) called as the chunks of codes and rows
   *  are placed (detail::ready_chunk; in order, covering all; the column is usable for launches
   *  but not yet checked); `work` says what on_chunk does (detail::chunk_work). */
  template <class OnChunk>
  static device_column fpc_host(void const* bytes, std::size_t size, cuda::stream_ref stream, prepare_options const& opt,
                                device_async_resource_ref mr, OnChunk&& on_chunk, detail::chunk_work work)
  {
    auto const* p = static_cast<std::uint8_t const*>(bytes);
    FASTPAIR_EXPECTS(p != nullptr || size == 0, "prepare_fpc_host: null bytes");
    fpc_header const h = parse_fpc_header(p, size);
    if (h.version == 1) return whole(prepare(deserialize(p, size), stream, validated(opt), mr), on_chunk, stream);  // deserialize validates
    check_image_size(h, size);
    std::uint64_t sums[detail::fpc2::num_sections + 1] = {};
    for (std::uint32_t id = 1; id <= detail::fpc2::num_sections; ++id)
      sums[id] = check_section(h, id, p + h.layout.header_at[id]);
    dictionary dict;
    auto read_dictionary = [&]() -> dictionary const& {
      return dict = detail::read_fpc_dictionary_shape(h, p + h.layout.payload_at[1], p + h.layout.payload_at[2], sums[1],
                                                      sums[2]);
    };
    return prepare_sections(sections_of(h, p, sums, opt.validate), read_dictionary, cudaMemcpyHostToDevice, stream, opt, mr, on_chunk, work);
  }


  /** prepare_fpc_device, with on_chunk and work as for fpc_host. */
  template <class OnChunk>
  static device_column fpc_device(void const* device_bytes, std::size_t size, cuda::stream_ref stream,
                                  prepare_options const& opt, device_async_resource_ref mr, OnChunk&& on_chunk,
                                  detail::chunk_work work)
  {
    auto const* p = static_cast<std::uint8_t const*>(device_bytes);
    FASTPAIR_EXPECTS(p != nullptr || size == 0, "prepare_fpc_device: null bytes");
    std::vector<std::uint8_t> head(std::min<std::size_t>(size, detail::fpc2::header_bytes));
    copy_to_host(head.data(), p, head.size(), stream);
    fpc_header const h = parse_fpc_header(head.data(), head.size());
    if (h.version == 1) {
      FASTPAIR_EXPECTS(!opt.borrow_codes, "prepare_options::borrow_codes: a version-1 image stores its codes in another "
                                          "form than the kernels read; it is copied and converted (borrow_codes = false)");
      std::vector<std::uint8_t> all(size);
      copy_to_host(all.data(), p, size, stream);
      return whole(prepare(deserialize(all.data(), size), stream, validated(opt), mr), on_chunk, stream);  // deserialize validates
    }
    check_image_size(h, size);
    // The five section headers (32 bytes each): one synchronisation.
    constexpr std::uint32_t ns = detail::fpc2::num_sections;
    std::uint8_t sec[ns][detail::fpc2::section_header_bytes];
    for (std::uint32_t id = 1; id <= ns; ++id)
      copy_to_host(sec[id - 1], p + h.layout.header_at[id], sizeof sec[0], stream, id == ns);
    std::uint64_t sums[ns + 1] = {};
    for (std::uint32_t id = 1; id <= ns; ++id) sums[id] = check_section(h, id, sec[id - 1]);
    // The dictionary is checked on the GPU where its sections are 8-byte aligned in memory (their
    // checksums read words), and read on the host only to name what is wrong; else it is copied
    // to the host and checked there first.
    stored_sections s = sections_of(h, p, sums, opt.validate);
    s.dictionary_on_gpu = reinterpret_cast<std::uintptr_t>(p) % 8 == 0;
    std::vector<std::uint8_t> dict_host;  // sections 1 and 2, as stored
    dictionary dict;
    auto read_dictionary = [&]() -> dictionary const& {
      return dict = detail::read_fpc_dictionary_shape(h, dict_host.data(), dict_host.data() + s.num_tokens, sums[1], sums[2]);
    };
    auto download_dictionary = [&] {
      dict_host.resize(s.num_tokens + s.dict_byte_count);
      copy_to_host(dict_host.data(), s.dict_lengths, s.num_tokens, stream, false);
      copy_to_host(dict_host.data() + s.num_tokens, s.dict_bytes, s.dict_byte_count, stream);
    };
    if (!s.dictionary_on_gpu) download_dictionary();
    auto dictionary_of = [&]() -> dictionary const& {
      if (dict_host.empty()) download_dictionary();  // the GPU's checks failed: the host names the problem
      return read_dictionary();
    };
    return prepare_sections(s, dictionary_of, cudaMemcpyDeviceToDevice, stream, opt, mr, on_chunk, work);
  }


  /** A column prepared on the host (version 1): on_chunk once, over all of it. */
  template <class OnChunk>
  static device_column whole(device_column d, OnChunk&& on_chunk, cuda::stream_ref stream)
  {
    on_chunk(d, detail::ready_chunk{0, d.num_codes_, 0, d.num_rows_}, stream);
    return d;
  }

  /** The big sections of a column (host or device pointers) and the counts that describe them. */
  struct stored_sections {
    codec kind                 = codec::onpair16;
    std::uint64_t num_codes = 0, num_rows = 0, decoded_bytes = 0, count_base = 0, count_bytes = 0, sidecar_entries = 0;
    std::uint32_t stride       = default_sidecar_stride;
    int count_bits             = 0;
    bool count_directory       = false;  ///< section 4 has a directory of count blocks
    std::uint8_t const* codes  = nullptr;  ///< packed_code_bytes(kind, num_codes) bytes
    std::uint8_t const* counts = nullptr;  ///< count_bytes bytes
    std::uint64_t const* sidecar = nullptr;  ///< sidecar_entries entries, or null
    std::uint8_t const* dict_lengths = nullptr;  ///< num_tokens bytes: each token's length
    std::uint8_t const* dict_bytes   = nullptr;  ///< dict_byte_count bytes: the tokens
    std::uint64_t num_tokens = 0, dict_byte_count = 0;
    bool validate              = false;      ///< check the checksums and the content on the GPU
    bool check_unique          = false;      ///< the dictionary's uniqueness test, on the GPU
    /// The dictionary's checksums and shape checked on the GPU (dict_* point to device memory,
    /// 8-byte aligned); dictionary_of() is then called only if they fail, to name the problem.
    bool dictionary_on_gpu     = false;
    std::uint64_t dict_checksum[2] = {};     ///< stored checksums of the token lengths and bytes
    std::uint64_t checksum[3]  = {};         ///< stored checksums of codes, counts, sidecar
  };

  template <class T>
  static std::uint64_t bytes_of(device_buffer<T> const& b) noexcept
  {
    return b.size() * sizeof(T);
  }
  static void copy_to_host(void* dst, void const* src, std::size_t n, cuda::stream_ref stream, bool sync = true)
  {
    if (n > 0) FASTPAIR_CUDA_TRY(cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToHost, stream.get()));
    if (sync) FASTPAIR_CUDA_TRY(cudaStreamSynchronize(stream.get()));
  }
  static void check_image_size(fpc_header const& h, std::size_t size)
  {
    if (size != h.layout.file_bytes)
      throw format_error("fastpair: invalid .fpc: file size: " + std::to_string(size) + " bytes, the header describes " +
                         std::to_string(h.layout.file_bytes));
  }
  /** Checks section `id`'s header; returns its stored checksum. */
  static std::uint64_t check_section(fpc_header const& h, std::uint32_t id, std::uint8_t const* section_header)
  {
    return check_fpc_section_header(h, id, section_header).checksum;
  }
  static stored_sections sections_of(fpc_header const& h, std::uint8_t const* image, std::uint64_t const (&sums)[6],
                                     bool validate)
  {
    stored_sections s;
    s.kind            = h.kind;
    s.num_codes       = h.num_codes;
    s.num_rows        = h.n_rows;
    s.decoded_bytes   = h.decoded;
    s.stride          = h.stride;
    s.count_bits      = h.count_bits;
    s.count_base      = h.count_base;
    s.count_directory = h.count_directory;
    s.count_bytes     = h.layout.size[detail::fpc2::row_code_counts];
    s.codes           = image + h.layout.payload_at[detail::fpc2::codes];
    s.counts          = image + h.layout.payload_at[detail::fpc2::row_code_counts];
    s.sidecar         = h.has_sidecar ? reinterpret_cast<std::uint64_t const*>(image + h.layout.payload_at[detail::fpc2::sidecar]) : nullptr;
    s.sidecar_entries = h.n_sidecar;
    s.dict_lengths    = image + h.layout.payload_at[detail::fpc2::dict_lengths];
    s.dict_bytes      = image + h.layout.payload_at[detail::fpc2::dict_bytes];
    s.num_tokens      = h.n_tok;
    s.dict_byte_count = h.dict_bytes;
    s.validate        = validate;
    s.check_unique    = true;  // read_fpc_dictionary_shape leaves it to the GPU
    s.checksum[0] = sums[3], s.checksum[1] = sums[4], s.checksum[2] = sums[5];
    s.dict_checksum[0] = sums[1], s.dict_checksum[1] = sums[2];
    return s;
  }

  /** The stored bytes the row lengths' share is measured against: dictionary (bytes + a length
   *  byte per token), packed codes, row code counts, sidecar. */
  static double stored_bytes_of(std::uint64_t num_tokens, std::uint64_t dict_bytes, std::uint64_t packed,
                                std::uint64_t count_bytes, std::uint64_t sidecar_entries) noexcept
  {
    return double(dict_bytes + num_tokens + packed + count_bytes + 8 * sidecar_entries);
  }

  /** `opt` for a column deserialize() has already validated. */
  static prepare_options validated(prepare_options opt) noexcept
  {
    opt.validate = false;
    return opt;
  }

  /** Builds the column from stored sections. The sections' copies are queued first; then
   *  `dictionary_of()` (returning `dictionary const&`, throwing what is wrong) gives the dictionary,
   *  so that the host reads and checks it while the copies run; with s.dictionary_on_gpu the GPU
   *  checks it and dictionary_of() is called only if those checks fail. If anything throws, the
   *  stream is synchronized first (the copies read the caller's bytes). */
  template <class DictionaryOf, class OnChunk>
  static device_column prepare_sections(stored_sections const& s, DictionaryOf&& dictionary_of, cudaMemcpyKind copy,
                                        cuda::stream_ref stream, prepare_options const& opt,
                                        device_async_resource_ref mr, OnChunk&& on_chunk, detail::chunk_work work);

  // The steps of prepare_sections that do not read the codes (the streamer, fpc_streamer.cuh,
  // shares them).
  /** A column with the counts of `s`, its row code counts' buffer (zeroed, + two zero words:
   *  fpc2::block_counts reads pairs), sidecar buffer (num_segments() + 1 entries), entry lengths' buffer and error
   *  word (zeroed), allocated on `stream` from `mr`. */
  static device_column shell_of(stored_sections const& s, cuda::stream_ref stream, device_async_resource_ref mr);
  /** Blocks of 256 threads for `items` items of `per_block` each, at most 8 192. */
  static unsigned grid_of(std::uint64_t items, std::uint64_t per_block = 256) noexcept
  {
    return static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>((items + per_block - 1) / per_block, 8192)));
  }
  /** From the dictionary's device copy (`dict_dev`: the lengths, then the bytes): the entry
   *  lengths (allocated), the tokens' offsets in the bytes (`dict_offsets`, N + 1 entries), and with
   *  s.check_unique the uniqueness test into report->duplicate. */
  void index_dictionary(stored_sections const& s, std::uint8_t const* dict_dev, std::uint32_t* dict_offsets,
                        detail::prepare_report* report, cuda::stream_ref stream, device_async_resource_ref mr);
  /** The row index's code positions (block_codes_, blocks + 1 entries) from the stored counts, and
   *  their check into report->flags; returns the number of row blocks. */
  std::uint64_t build_block_codes(detail::prepare_report* report, cuda::stream_ref stream, device_async_resource_ref mr);
  /** Whether the GPU's checks of a dictionary (stored_sections::dictionary_on_gpu) pass. */
  static bool dictionary_passed(detail::prepare_report const& r, stored_sections const& s) noexcept
  {
    bool all_bytes = true;
    for (unsigned long long w : r.dict_bytes_seen) all_bytes = all_bytes && w == ~0ull;
    return all_bytes && !(r.flags & detail::dictionary_shape_bad) && r.dict_sum[2] == s.dict_byte_count &&
           detail::fpc2::finish_checksum(r.dict_sum[0], s.num_tokens) == s.dict_checksum[0] &&
           detail::fpc2::finish_checksum(r.dict_sum[1], s.dict_byte_count) == s.dict_checksum[1];
  }
  /** Throws the format_error of a duplicate token or counts that do not add up to `num_codes`. */
  static void check_index_report(detail::prepare_report const& r, std::uint64_t num_codes);
  /** The dictionary planes of width `w` (and the low plane's texture object) from its device copy. */
  void build_planes(int w, std::uint8_t const* dict_dev, std::uint32_t const* dict_offsets, std::uint64_t dict_bytes,
                    cuda::stream_ref stream, device_async_resource_ref mr);

  /** Builds and uploads the split stream of `col` (host; prepare_options::split_stream). */
  void upload_split_stream(compressed_column const& col, cuda::stream_ref stream)
  {
    split_stream s            = build_split_stream(col, unpack_codes(col), stride_);
    split_words_              = detail::upload(s.words, stream, mr_);
    split_sidecar_            = detail::upload(s.sidecar, stream, mr_);
    split_lo_ptr_             = detail::upload_texture_aligned(s.planes.lo, split_lo_, stream, mr_);
    split_lengths_            = detail::upload(s.planes.entry_lengths, stream, mr_);
    split_lo_tex_             = texture_object(split_lo_ptr_, s.planes.lo.size(),
                                               cudaCreateChannelDesc(32, 32, 0, 0, cudaChannelFormatKindUnsigned), stream);
    split_num_codes_          = s.words.size();
    split_num_tokens_         = s.planes.num_tokens;
    split_row_code_offsets_   = std::move(s.row_code_offsets);
  }

  /** The sidecar of `v`'s codes into sidecar_ (detail::sidecar_scan), and the error word's
   *  code_out_of_range for codes outside the dictionary. */
  template <int W>
  void regenerate_sidecar_on(column_view<W> const& v, cuda::stream_ref stream, device_async_resource_ref mr)
  {
    std::uint64_t const nseg = num_segments();
    if (nseg == 0) FASTPAIR_CUDA_TRY(cudaMemsetAsync(sidecar_.data(), 0, sizeof(std::uint64_t), stream.get()));
    else detail::sidecar_scan(nseg, sidecar_.data(), stream, mr).add(v, 0, nseg, nullptr, stream);
    FASTPAIR_CUDA_TRY(cudaGetLastError());
  }

  void expect_row_offsets() const
  {
    FASTPAIR_EXPECTS(has_row_offsets(), "the device_column has no row offsets: prepare it with "
                                        "prepare_options::row_offsets = true, or call build_row_offsets()");
  }

  /** Calls launch(view<W>()) for the column's W (a kernel launch), then checks the launch. */
  template <class F>
  void launch_on_view(F&& launch) const
  {
    if (w_ == 8) launch(view<8>());
    else launch(view<16>());
    FASTPAIR_CUDA_TRY(cudaGetLastError());
  }

  codec kind_               = codec::onpair16;
  int device_               = -1;  // the CUDA device of prepare()
  int w_                    = 8;
  device_async_resource_ref mr_ = default_device_resource();  // prepare()'s resource
  std::uint64_t num_codes_  = 0;
  std::uint64_t num_rows_   = 0;
  std::uint64_t decoded_bytes_ = 0;
  std::uint64_t count_base_ = 0;
  std::uint64_t count_size_ = 0;  // bytes of the stored counts (section 4)
  bool count_directory_     = false;  // section 4 has a directory of count blocks
  int count_bits_           = 0;
  std::uint32_t num_tokens_ = 0;
  std::uint32_t stride_     = default_sidecar_stride;
  length_histogram histogram_{};
  std::vector<std::uint64_t> block_codes_host_{0}, block_bytes_host_{0};  // the row index (host copy)
  device_buffer<std::uint16_t> codes_, code_words_;
  // Codes read from elsewhere, addressed with the column's code indices: fpc_streamer's current
  // window (its first byte is code w's for some w; nothing reads a code outside it), the stored
  // codes of a one-off decode from device memory (prepare_sections), until it returns, or the
  // codes of a device image for the column's life (prepare_options::borrow_codes: codes_ empty).
  std::uint16_t const* window_codes_ = nullptr;
  device_buffer<std::uint8_t> lo_, hi_, entry_lengths_;  // lo_ and entry_lengths_ hold the aligned lo_ptr_, entry_lengths_ptr_
  std::uint8_t const* lo_ptr_      = nullptr;
  std::uint8_t const* entry_lengths_ptr_ = nullptr;
  device_buffer<std::uint64_t> sidecar_, row_byte_offsets_, row_code_offsets_;
  device_buffer<std::uint64_t> count_words_, block_codes_, block_bytes_;  // stored counts, row index
  device_buffer<std::uint32_t> error_, code_lengths_;
  device_buffer<std::uint8_t> row_lengths_;  // compact row lengths (prepare_options::row_lengths_max_share)
  int row_length_bytes_ = 0;
  // the split stream (prepare_options::split_stream)
  device_buffer<std::uint16_t> split_words_;
  device_buffer<std::uint64_t> split_sidecar_;
  device_buffer<std::uint8_t> split_lo_, split_lengths_;
  std::uint8_t const* split_lo_ptr_ = nullptr;
  std::uint64_t split_num_codes_    = 0;
  std::uint32_t split_num_tokens_   = 0;
  std::vector<std::uint64_t> split_row_code_offsets_;
  texture_object lo_tex_, split_lo_tex_;  // declared last: destroyed before the memory they read
};


template <class DictionaryOf, class OnChunk>
inline device_column device_column::prepare_sections(stored_sections const& s, DictionaryOf&& dictionary_of,
                                                     cudaMemcpyKind copy, cuda::stream_ref stream,
                                                     prepare_options const& opt, device_async_resource_ref mr,
                                                     OnChunk&& on_chunk, detail::chunk_work work)
{
  using namespace detail;
  FASTPAIR_EXPECTS(opt.low_plane_bytes == 0 || opt.low_plane_bytes == 8 || opt.low_plane_bytes == 16,
                   "low_plane_bytes must be 0 (auto), 8 or 16");
  FASTPAIR_EXPECTS(s.stride > 0, "sidecar stride must be positive");
  cudaStream_t const st = stream.get();
  device_column d = shell_of(s, stream, mr);
  std::uint64_t const n = s.num_codes, S = s.stride, bits = static_cast<std::uint64_t>(code_bits(s.kind));
  auto grid = [](std::uint64_t items, std::uint64_t per_block = 256) { return grid_of(items, per_block); };

  // The codes go up in chunks of whole 4 KiB pages (a 16-byte aligned load of a landed code never
  // reaches into a chunk still in flight); chunk j is checked and indexed (and on_chunk's work
  // runs) on `stream` while the next chunks are copied on a second stream.
  std::uint64_t const packed = packed_code_bytes(s.kind, n);
  // Automatic: 1/16 of the codes (at least 4 MiB) from host memory; one step from device memory,
  // whose copy takes a fraction of the decode (steps would add their launches and no overlap).
  std::uint64_t const want = opt.chunk_bytes ? opt.chunk_bytes
                             : copy == cudaMemcpyDeviceToDevice ? packed
                                                                : std::max<std::uint64_t>(packed / 16, std::uint64_t{4} << 20);
  std::uint64_t const chunk  = std::max<std::uint64_t>(4096, (std::min<std::uint64_t>(want, packed) + 4095) & ~std::uint64_t{4095});
  std::uint64_t const chunks = std::max<std::uint64_t>(1, (packed + chunk - 1) / chunk);
  auto chunk_begin = [&](std::uint64_t j) { return std::min(j * chunk, packed); };
  auto codes_in    = [&](std::uint64_t b) { return b == packed ? n : b * 8 / bits; };  // complete in bytes [0, b)
  // The plane width W is chosen from the token lengths of the first codes: 1/16 of them (at least
  // 4 MiB), which is the first step from host memory, whatever the source and the step size.
  std::uint64_t const sample_bytes =
    std::min(packed, (std::max<std::uint64_t>(packed / 16, std::uint64_t{4} << 20) + 4095) & ~std::uint64_t{4095});
  std::uint64_t const sample_chunk = sample_bytes > 0 ? (sample_bytes - 1) / chunk : 0;  // the step that completes it

  // 1. Allocations (on `stream`), then the stored sections' copies on the lane, queued before
  // anything reads the dictionary: the host parses and checks it while they run.
  // Borrowed codes (prepare_options::borrow_codes) are read where the image stores them.
  bool const borrow = opt.borrow_codes;
  FASTPAIR_EXPECTS(!borrow || copy == cudaMemcpyDeviceToDevice,
                   "prepare_options::borrow_codes: the image must be in device memory (prepare_fpc_device, decode_fpc_device)");
  FASTPAIR_EXPECTS(!borrow || reinterpret_cast<std::uintptr_t>(s.codes) % 16 == 0,
                   "prepare_options::borrow_codes: the image's codes section must be 16-byte aligned in memory (place "
                   "the image at a 16-byte aligned address)");
  if (!borrow) d.codes_ = device_buffer<std::uint16_t>((packed + 1) / 2, stream, mr);
  std::uint64_t const nseg = d.num_segments();
  // A stored sidecar is used as stored when it is trusted, or when the chunk work decodes every
  // segment: the decode checks each segment's decoded length against it (sidecar_mismatch) and
  // each code against the dictionary (code_out_of_range), which is the check a recomputed sidecar
  // would make, without a pass of its own over the codes.
  bool const decodes_all   = work == chunk_work::decodes_all;
  bool const use_stored    = s.sidecar != nullptr && !opt.regenerate_sidecar && (!s.validate || decodes_all);
  bool const checked_by_decode = use_stored && s.validate;
  if (!use_stored && nseg == 0) FASTPAIR_CUDA_TRY(cudaMemsetAsync(d.sidecar_.data(), 0, 8, st));
  device_buffer<std::uint64_t> stored_sidecar;  // the stored one, compared with the recomputed one
  if (!use_stored && s.sidecar != nullptr && s.validate)
    stored_sidecar = device_buffer<std::uint64_t>(s.sidecar_entries, stream, mr);
  // The stored dictionary (lengths, then bytes), from which the GPU builds the planes.
  std::uint64_t const N = s.num_tokens;
  device_buffer<std::uint8_t> dict_dev(N + s.dict_byte_count + 1, stream, mr);
  device_buffer<std::uint32_t> dict_offsets(N + 1, stream, mr);
  // Pageable sources are copied chunk by chunk as the loop below reaches them (each copy returns
  // once staged, so the chunks before it are being checked meanwhile); pinned and device ones are
  // all queued now.
  bool async_source = copy == cudaMemcpyDeviceToDevice;
  if (!async_source && packed > 0) {
    cudaPointerAttributes where{};
    if (cudaPointerGetAttributes(&where, s.codes) == cudaSuccess) async_source = where.type == cudaMemoryTypeHost;
    else (void)cudaGetLastError();  // not an error of the caller's: copied as pageable
  }
  // What the GPU checks report (detail::prepare_report), zeroed before the lane starts.
  device_buffer<prepare_report> report(1, stream, mr);
  FASTPAIR_CUDA_TRY(cudaMemsetAsync(report.data(), 0, sizeof(prepare_report), st));
  auto sum_of = [&](int i) { return reinterpret_cast<std::uint64_t*>(report.data()) + i; };  // checksum_sum[i]
  copy_lane lane(stream, chunks);  // waits for the allocations; its destructor for the copies
  cudaStream_t const ls = lane.lane();
  // A one-off decode of codes already on the device reads them where they are stored (16-byte
  // aligned, as the decode's vector loads need; the section's padding holds what those loads read
  // past its end), while the lane copies them into the column for later use: nothing waits for
  // that copy but the return. The small sections then go up on `stream` itself.
  bool const in_place = (decodes_all || borrow) && copy == cudaMemcpyDeviceToDevice && packed > 0 &&
                        reinterpret_cast<std::uintptr_t>(s.codes) % 16 == 0;
  if (in_place) d.window_codes_ = reinterpret_cast<std::uint16_t const*>(s.codes);
  cudaStream_t const small = in_place ? st : ls;
  // Then kernels on `stream` read the caller's bytes (the codes in place, the dictionary's checksums):
  // if anything throws, they end first.
  struct drain_on_throw {
    cudaStream_t stream;
    bool on;
    int exceptions = std::uncaught_exceptions();
    ~drain_on_throw()
    {
      if (on && std::uncaught_exceptions() > exceptions)
        (void)detail::call_keeping_last_error([&] { return cudaStreamSynchronize(stream); });
    }
  } const drain{st, in_place || s.dictionary_on_gpu};
  // The codes' checksum (a sum over words, in any order): codes in device memory are hashed by the
  // kernel that copies them into the column (one read of them, on the lane); codes from host
  // memory on `stream` once each step has landed (step 4).
  bool const fused_copy = s.validate && copy == cudaMemcpyDeviceToDevice && reinterpret_cast<std::uintptr_t>(s.codes) % 8 == 0;
  auto codes_at = [&](std::uint64_t a) { return reinterpret_cast<std::uint8_t*>(d.codes_.data()) + a; };
  auto copy_chunk = [&](std::uint64_t j) {
    std::uint64_t const a = chunk_begin(j), b = chunk_begin(j + 1);
    if (borrow) {  // nothing to copy: the checksum alone, beside the decode
      if (b > a && s.validate) section_checksum_kernel<<<grid((b - a) / 8 + 1), 256, 0, ls>>>(s.codes + a, b - a, sum_of(0), a / 8);
    } else if (b > a && fused_copy)
      section_checksum_kernel<<<grid((b - a) / 8 + 1), 256, 0, ls>>>(s.codes + a, b - a, sum_of(0), a / 8, codes_at(a));
    else if (b > a) FASTPAIR_CUDA_TRY(cudaMemcpyAsync(codes_at(a), s.codes + a, b - a, copy, ls));
    lane.record(j);
  };
  if (N) FASTPAIR_CUDA_TRY(cudaMemcpyAsync(dict_dev.data(), s.dict_lengths, N, copy, small));
  if (s.dict_byte_count) FASTPAIR_CUDA_TRY(cudaMemcpyAsync(dict_dev.data() + N, s.dict_bytes, s.dict_byte_count, copy, small));
  if (s.count_bytes) FASTPAIR_CUDA_TRY(cudaMemcpyAsync(d.count_words_.data(), s.counts, s.count_bytes, copy, small));
  if (use_stored) {
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(d.sidecar_.data(), s.sidecar, nseg * 8, copy, small));
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(d.sidecar_.data() + nseg, &d.decoded_bytes_, 8, cudaMemcpyHostToDevice, small));
  } else if (stored_sidecar.data() != nullptr) {
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(stored_sidecar.data(), s.sidecar, s.sidecar_entries * 8, copy, small));
  }
  // Steps copied so far: all of them from pinned and device memory; from pageable memory the
  // ones the plane width's sample needs now, the others as the loop of step 4 reaches them.
  // In place, nothing waits for the lane's copies (or hashes) before step 5: they start after the
  // passes of step 3, which they would otherwise crowd off the GPU while the host waits for them.
  std::uint64_t copied = in_place ? 0 : async_source ? chunks : sample_chunk + 1;
  for (std::uint64_t j = 0; j < copied; ++j) copy_chunk(j);

  // 2. The GPU passes that need no checked dictionary are queued first; the host checks the
  // dictionary's shape while they and the copies run (step 3). The planes are built from the
  // dictionary's device copy on the GPU: no plane upload queues behind the codes' copies.
  column_view<8> v;  // what the preparation kernels read: codes, lengths, sidecar
  v.codes          = in_place ? d.window_codes_ : d.codes_.data();
  v.code_bits      = static_cast<std::uint32_t>(bits);
  v.entry_lengths  = d.entry_lengths_ptr_;
  v.num_codes      = n;
  v.num_tokens     = d.num_tokens_;
  v.sidecar_stride = s.stride;
  v.error          = d.error_.data();
  v.sidecar        = d.sidecar_.data();

  // 3. Once the dictionary, the counts, the sidecar and the sample's steps are here: the
  // dictionary's uniqueness test, the other sections' checks, the row index (block k's first
  // code: an exclusive scan of the blocks' counts), and the sample's token-length histogram, which
  // picks the plane width W. Then the dictionary's checks (on the GPU, or the host's while the GPU
  // runs), and one synchronisation.
  if (!in_place) lane.wait(stream, sample_chunk);
  d.index_dictionary(s, dict_dev.data(), dict_offsets.data(), report.data(), stream, mr);
  if (s.validate && s.count_bytes)
    section_checksum_kernel<<<grid(s.count_bytes / 8 + 1), 256, 0, st>>>(
      reinterpret_cast<std::uint8_t const*>(d.count_words_.data()), s.count_bytes, sum_of(1));
  if (stored_sidecar.data() != nullptr || checked_by_decode)
    section_checksum_kernel<<<grid(s.sidecar_entries), 256, 0, st>>>(
      reinterpret_cast<std::uint8_t const*>(checked_by_decode ? d.sidecar_.data() : stored_sidecar.data()),
      s.sidecar_entries * 8, sum_of(2));
  std::uint64_t const blocks = d.build_block_codes(report.data(), stream, mr);
  std::uint64_t const sample_end = codes_in(sample_bytes);
  if (sample_end) length_histogram_kernel<<<grid(sample_end, 4096), 256, 0, st>>>(v, report.data()->sample, 0, sample_end);
  FASTPAIR_CUDA_TRY(cudaGetLastError());
  if (s.dictionary_on_gpu) {  // what the host would check, read where the image stores it
    section_checksum_kernel<<<grid(N / 8 + 1), 256, 0, st>>>(s.dict_lengths, N, &report.data()->dict_sum[0]);
    section_checksum_kernel<<<grid(s.dict_byte_count / 8 + 1), 256, 0, st>>>(s.dict_bytes, s.dict_byte_count,
                                                                             &report.data()->dict_sum[1]);
    check_dictionary_kernel<<<grid(N), 256, 0, st>>>(dict_dev.data(), dict_offsets.data(), dict_dev.data() + N,
                                                     s.dict_byte_count, d.num_tokens_, max_token_length(s.kind),
                                                     s.kind == codec::fsst12, report.data());
  }
  FASTPAIR_CUDA_TRY(cudaGetLastError());
  if (in_place) {
    lane.follow(stream);
    for (; copied < chunks; ++copied) copy_chunk(copied);
  }
  if (!s.dictionary_on_gpu) {  // if it throws, ~copy_lane waits for the copies
    dictionary const& dict = dictionary_of();
    FASTPAIR_EXPECTS(dict.size() == N && dict.bytes.size() == s.dict_byte_count, "dictionary sections and header disagree");
  }
  prepare_report r;
  d.block_codes_host_.resize(blocks + 1);
  d.block_bytes_host_.resize(blocks + 1);
  // The row index's host copy (8 bytes per row block each): its code positions now where step 4
  // places several chunks by them, else both beside the last chunk's work (step 5).
  bool const index_now = chunks > 1;
  FASTPAIR_CUDA_TRY(cudaMemcpyAsync(&r, report.data(), sizeof r, cudaMemcpyDeviceToHost, st));
  if (index_now)
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(d.block_codes_host_.data(), d.block_codes_.data(), (blocks + 1) * 8,
                                      cudaMemcpyDeviceToHost, st));
  std::uint64_t first_entry = 0;  // a sidecar checked by the decode: its entry 0, which no segment's check covers
  if (checked_by_decode) FASTPAIR_CUDA_TRY(cudaMemcpyAsync(&first_entry, d.sidecar_.data(), 8, cudaMemcpyDeviceToHost, st));
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(st));
  auto fail = [](std::string const& what) { throw format_error("fastpair: invalid .fpc: " + what); };
  if (s.dictionary_on_gpu && !dictionary_passed(r, s)) {
    (void)dictionary_of();  // the host's checks name what is wrong
    fail("dictionary: rejected by the GPU's checks, accepted by the host's");  // a bug of either
  }
  check_index_report(r, n);
  if (checked_by_decode) {  // before any decode reads it; its checksum first, so that damage is named as such
    std::uint64_t const computed = fpc2::finish_checksum(r.checksum_sum[2], s.sidecar_entries * 8);
    if (computed != s.checksum[2])
      fail("section 5 (sidecar): checksum stored " + std::to_string(s.checksum[2]) + " != computed " + std::to_string(computed));
    if (first_entry != 0) fail("sidecar: entry 0 is " + std::to_string(first_entry) + ", not 0");
  }
  for (int len = 1; len <= 16; ++len) d.histogram_[len] = r.sample[len];  // the sample's, until all are counted
  int const w = opt.low_plane_bytes ? opt.low_plane_bytes : tuned_low_plane_bytes(s.kind, d.histogram_, current_arch_bucket());
  d.build_planes(w, dict_dev.data(), dict_offsets.data(), s.dict_byte_count, stream, mr);

  // 4. Chunk by chunk (from host memory, its codes' checksum first): the sidecar of the segments
  // now complete (stored, or recomputed by a scan that carries its running total from chunk to
  // chunk) and the token-length histogram (in the sidecar's pass where there is one, else its
  // own); the row index's positions of the row blocks whose first code is now placed; then
  // on_chunk over the newly complete segments and row blocks.
  bool const fused_histogram = !use_stored && S <= fused_histogram_max_stride;
  // The whole column's histogram: free in the sidecar's pass; a pass of its own is not worth it
  // to a one-off decode, which keeps the sample's.
  bool const full_histogram = fused_histogram || !decodes_all;
  d.block_bytes_ = device_buffer<std::uint64_t>(blocks + 1, stream, mr);
  sidecar_scan scan;
  if (!use_stored && nseg > 0) scan = sidecar_scan(nseg, d.sidecar_.data(), stream, mr);
  std::uint64_t seg_done = 0, codes_done = 0, block_done = 0, row_done = 0;
  for (std::uint64_t j = 0; j < chunks; ++j) {
    bool const last = j + 1 == chunks;
    if (j > 0) {
      if (j >= copied) copy_chunk(copied++);
      if (!in_place) lane.wait(stream, j);
    }
    if (s.validate && !fused_copy) {  // the step's codes have landed: their checksum
      std::uint64_t const a = chunk_begin(j), b = chunk_begin(j + 1);
      if (b > a) section_checksum_kernel<<<grid((b - a) / 8 + 1), 256, 0, st>>>(codes_at(a), b - a, sum_of(0), a / 8);
    }
    std::uint64_t const landed = codes_in(chunk_begin(j + 1));
    if (full_histogram && !fused_histogram && landed > codes_done)
      length_histogram_kernel<<<grid(landed - codes_done, 4096), 256, 0, st>>>(v, report.data()->histogram, codes_done, landed);
    codes_done = landed;
    // Segments [seg_done, seg_end) are complete: the positions of the codes before `placed` are known.
    std::uint64_t const seg_end = last ? nseg : landed / S;
    std::uint64_t const placed  = last ? n : seg_end * S;
    if (seg_end > seg_done && !use_stored) {
      scan.add(v, seg_done, seg_end, fused_histogram ? report.data()->histogram : nullptr, stream);
      std::uint64_t const compared = std::min(seg_end, s.sidecar_entries);
      if (stored_sidecar.data() != nullptr && compared > seg_done)
        compare_sidecar_kernel<<<grid(compared - seg_done), 256, 0, st>>>(
          stored_sidecar.data() + seg_done, d.sidecar_.data() + seg_done, compared - seg_done, report.data());
    }
    // Row blocks whose first code is placed (block_codes is monotone and ends at n: checked above).
    // A block whose first code is `placed` reads sidecar[seg_end]: a recomputed sidecar has no
    // entry before its first segment is complete.
    std::uint64_t const block_end =
      last                          ? blocks + 1
      : seg_end == 0 && !use_stored ? 0
                                    : static_cast<std::uint64_t>(std::upper_bound(d.block_codes_host_.begin(),
                                                                                  d.block_codes_host_.end(), placed) -
                                                                 d.block_codes_host_.begin());
    if (block_end > block_done)
      block_bytes_kernel<<<grid(block_end - block_done, 8), 256, 0, st>>>(v, d.block_codes_.data(), block_done,
                                                                          block_end - 1, d.block_bytes_.data());
    FASTPAIR_CUDA_TRY(cudaGetLastError());
    std::uint64_t const row_end = block_end > 0 ? std::min((block_end - 1) * row_block_rows, s.num_rows) : 0;
    if (last) lane.follow(stream);  // the row index is complete: the lane copies it to the host (step 5)
    if (last || seg_end > seg_done || row_end > row_done)
      on_chunk(d, ready_chunk{seg_done * S, placed, row_done, row_end}, stream);
    seg_done   = seg_end;
    row_done   = row_end;
    block_done = std::max(block_done, block_end);
  }

  // 5. The row index's host copy on the lane, beside the last chunk's work (a copy to pageable
  // memory returns once done); then one synchronisation: the checks and the whole histogram.
  if (!index_now)
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(d.block_codes_host_.data(), d.block_codes_.data(), (blocks + 1) * 8,
                                      cudaMemcpyDeviceToHost, ls));
  FASTPAIR_CUDA_TRY(cudaMemcpyAsync(d.block_bytes_host_.data(), d.block_bytes_.data(), (blocks + 1) * 8,
                                    cudaMemcpyDeviceToHost, ls));
  lane.wait(stream, chunks - 1);  // the column's codes and their checksum (in place: the decode did not wait)
  std::uint32_t errors = 0;
  std::uint64_t total  = 0;
  FASTPAIR_CUDA_TRY(cudaMemcpyAsync(&r, report.data(), sizeof r, cudaMemcpyDeviceToHost, st));
  FASTPAIR_CUDA_TRY(cudaMemcpyAsync(&errors, d.error_.data(), sizeof errors, cudaMemcpyDeviceToHost, st));
  // The chunk work's decodes have all run by then: their errors too (no synchronisation of its own).
  if (decodes_all) FASTPAIR_CUDA_TRY(cudaMemsetAsync(d.error_.data(), 0, sizeof errors, st));
  FASTPAIR_CUDA_TRY(cudaMemcpyAsync(&total, d.sidecar_.data() + nseg, 8, cudaMemcpyDeviceToHost, st));
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(st));
  if (!borrow) d.window_codes_ = nullptr;  // every read of the caller's codes is done: the column reads its own
  if (s.validate) {  // the checksums first: a damaged section is named as such
    char const* names[3]         = {"section 3 (codes)", "section 4 (row_code_counts)", "section 5 (sidecar)"};
    std::uint64_t const sizes[3] = {packed, s.count_bytes, s.sidecar_entries * 8};
    for (int i = 0; i < 3; ++i) {
      if (i == 2 && s.sidecar == nullptr) continue;
      std::uint64_t const computed = fpc2::finish_checksum(r.checksum_sum[i], sizes[i]);
      if (computed != s.checksum[i])
        fail(std::string(names[i]) + ": checksum stored " + std::to_string(s.checksum[i]) + " != computed " + std::to_string(computed));
    }
    if (errors & code_out_of_range) fail("codes: a code is >= the dictionary size " + std::to_string(d.num_tokens_));
    if (checked_by_decode && (errors & sidecar_mismatch))  // the sidecar's last entry is the header's total
      fail("sidecar: a stored entry disagrees with the token lengths, or decoded_bytes (the header's " +
           std::to_string(s.decoded_bytes) + ") does");
    if (total != s.decoded_bytes)
      fail("decoded_bytes: the header says " + std::to_string(s.decoded_bytes) + ", the codes decode to " + std::to_string(total));
    if (r.flags & stored_sidecar_differs) fail("sidecar: a stored entry disagrees with the token lengths");
  } else if (!use_stored && total != s.decoded_bytes) {
    // A recomputed sidecar gives the codes' decoded size for free: it must be the header's, which
    // sizes every output. (A trusted stored sidecar ends with the header's size; a decode then
    // reports any disagreement as sidecar_mismatch, and never writes past its output.)
    fail("decoded_bytes: the header says " + std::to_string(s.decoded_bytes) + ", the codes decode to " + std::to_string(total));
  }
  if (full_histogram)
    for (int len = 1; len <= 16; ++len) d.histogram_[len] = r.histogram[len];
  if (decodes_all) on_chunk.errors_read(errors);

  if (opt.length_stream) d.build_length_stream(stream);
  if (opt.fused_codes && code_space(s.kind) <= 4096) d.build_fused_codes(stream);
  if (opt.row_offsets) d.build_row_offsets(stream);
  // The compact row lengths where 1 byte per row is within the share of the stored bytes.
  double const stored = stored_bytes_of(N, s.dict_byte_count, packed, s.count_bytes, s.sidecar_entries);
  if (!decodes_all && s.num_rows > 0 && double(s.num_rows) <= opt.row_lengths_max_share * stored)
    d.build_row_lengths(stream, mr, opt.row_lengths_max_share * stored / double(s.num_rows));
  return d;
}

inline device_column device_column::shell_of(stored_sections const& s, cuda::stream_ref stream,
                                            device_async_resource_ref mr)
{
  device_column d;
  d.mr_ = mr;
  FASTPAIR_CUDA_TRY(cudaGetDevice(&d.device_));
  d.kind_          = s.kind;
  d.num_codes_     = s.num_codes;
  d.num_rows_      = s.num_rows;
  d.decoded_bytes_ = s.decoded_bytes;
  d.count_bits_    = s.count_bits;
  d.count_base_    = s.count_base;
  d.count_size_    = s.count_bytes;
  d.count_directory_ = s.count_directory;
  d.stride_        = s.stride;
  d.num_tokens_    = static_cast<std::uint32_t>(s.num_tokens);
  d.count_words_   = device_buffer<std::uint64_t>(s.count_bytes / 8 + 2, stream, mr);
  FASTPAIR_CUDA_TRY(cudaMemsetAsync(d.count_words_.data(), 0, d.count_words_.size() * 8, stream.get()));
  d.sidecar_           = device_buffer<std::uint64_t>(d.num_segments() + 1, stream, mr);
  d.entry_lengths_ptr_ = detail::alloc_texture_aligned(code_space(s.kind) / 2, d.entry_lengths_, stream, mr);
  d.error_             = device_buffer<std::uint32_t>(1, stream, mr);
  FASTPAIR_CUDA_TRY(cudaMemsetAsync(d.error_.data(), 0, sizeof(std::uint32_t), stream.get()));
  return d;
}

inline void device_column::index_dictionary(stored_sections const& s, std::uint8_t const* dict_dev,
                                            std::uint32_t* dict_offsets, detail::prepare_report* report,
                                            cuda::stream_ref stream, device_async_resource_ref mr)
{
  using namespace detail;
  cudaStream_t const st       = stream.get();
  std::uint64_t const N       = s.num_tokens;
  std::uint32_t const entries = code_space(kind_);
  length_plane_kernel<<<grid_of(entries / 2), 256, 0, st>>>(dict_dev, num_tokens_, entries,
                                                             const_cast<std::uint8_t*>(entry_lengths_ptr_));
  if (N) {  // the tokens' offsets in the dictionary bytes (the planes' input)
    std::size_t temp_bytes = 0;
    FASTPAIR_CUDA_TRY(cub::DeviceScan::ExclusiveScan(nullptr, temp_bytes, dict_dev, dict_offsets, cuda::std::plus<>{},
                                                     std::uint32_t{0}, N, st));
    device_buffer<unsigned char> temp(temp_bytes, stream, mr);
    FASTPAIR_CUDA_TRY(cub::DeviceScan::ExclusiveScan(temp.data(), temp_bytes, dict_dev, dict_offsets, cuda::std::plus<>{},
                                                     std::uint32_t{0}, N, st));
  }
  if (s.check_unique && N) {
    token_table t{dict_dev, dict_offsets, dict_dev + N, s.dict_byte_count, num_tokens_};
    while ((std::uint64_t{1} << t.table_bits) < 2 * N) ++t.table_bits;
    device_buffer<unsigned long long> slots(std::size_t{1} << t.table_bits, stream, mr);
    FASTPAIR_CUDA_TRY(cudaMemsetAsync(slots.data(), 0, slots.size() * sizeof(unsigned long long), st));
    t.slots = slots.data();
    insert_tokens_kernel<<<grid_of(N), 256, 0, st>>>(t);
    find_duplicate_tokens_kernel<<<grid_of(N), 256, 0, st>>>(t, report);
  }
  FASTPAIR_CUDA_TRY(cudaGetLastError());
}

inline std::uint64_t device_column::build_block_codes(detail::prepare_report* report, cuda::stream_ref stream,
                                                      device_async_resource_ref mr)
{
  using namespace detail;
  cudaStream_t const st      = stream.get();
  std::uint64_t const blocks = (num_rows_ + row_block_rows - 1) / row_block_rows;
  {
    device_buffer<std::uint64_t> sums(blocks + 1, stream, mr);
    FASTPAIR_CUDA_TRY(cudaMemsetAsync(sums.data(), 0, (blocks + 1) * 8, st));
    if (blocks) block_code_sums_kernel<<<grid_of(blocks, 8), 256, 0, st>>>(counts_view(), num_codes_, sums.data(), blocks, report);
    block_codes_ = device_buffer<std::uint64_t>(blocks + 1, stream, mr);
    std::size_t temp_bytes = 0;
    FASTPAIR_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, sums.data(), block_codes_.data(), blocks + 1, st));
    device_buffer<unsigned char> temp(temp_bytes, stream, mr);
    FASTPAIR_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, sums.data(), block_codes_.data(), blocks + 1, st));
  }
  check_block_codes_kernel<<<grid_of(blocks + 1), 256, 0, st>>>(block_codes_.data(), blocks, num_codes_, report);
  FASTPAIR_CUDA_TRY(cudaGetLastError());
  return blocks;
}

inline void device_column::check_index_report(detail::prepare_report const& r, std::uint64_t num_codes)
{
  if (r.duplicate != 0)
    throw format_error("fastpair: invalid .fpc: dictionary token " + std::to_string(~r.duplicate) + ": duplicate token");
  if (r.flags & detail::count_directory_bad)
    throw format_error("fastpair: invalid .fpc: section 4 (row_code_counts): its block directory is inconsistent (a "
                       "width above count_bits, a block's values not right after the previous block's, or a size "
                       "that the widths do not give)");
  if (r.flags & detail::counts_exceed_codes)  // checked before anything follows the row index
    throw format_error("fastpair: invalid .fpc: row_code_counts: the rows' code counts do not add up to num_codes " +
                       std::to_string(num_codes));
}

inline void device_column::build_planes(int w, std::uint8_t const* dict_dev, std::uint32_t const* dict_offsets,
                                        std::uint64_t dict_bytes, cuda::stream_ref stream, device_async_resource_ref mr)
{
  std::uint32_t const entries = code_space(kind_);
  w_                          = w;
  lo_ptr_ = detail::alloc_texture_aligned(std::size_t{entries} * w, lo_, stream, mr);
  if (max_token_length(kind_) > w) hi_ = device_buffer<std::uint8_t>(std::size_t{entries} * (16 - w), stream, mr);
  detail::dictionary_planes_kernel<<<grid_of(entries), 256, 0, stream.get()>>>(
    dict_dev, dict_offsets, dict_dev + num_tokens_, dict_bytes, num_tokens_, entries, w, const_cast<std::uint8_t*>(lo_ptr_),
    hi_.data());
  FASTPAIR_CUDA_TRY(cudaGetLastError());
  // A texture object over the low plane, for the texture gather strategies (config.cuh,
  // gather_strategy): one element per entry (W bytes).
  auto const u32 = cudaChannelFormatKindUnsigned;
  lo_tex_        = texture_object(lo_ptr_, std::size_t{entries} * w,
                                  w == 16 ? cudaCreateChannelDesc(32, 32, 32, 32, u32) : cudaCreateChannelDesc(32, 32, 0, 0, u32),
                                  stream);
}

inline void device_column::build_row_lengths(cuda::stream_ref stream, device_async_resource_ref mr,
                                             double max_bytes_per_row)
{
  check_usable();
  std::uint64_t const rows = num_rows_;
  if (rows == 0) return;
  cudaStream_t const st = stream.get();
  device_buffer<std::uint64_t> off(rows + 1, stream, mr);
  device_buffer<unsigned long long> longest(1, stream, mr);
  FASTPAIR_CUDA_TRY(cudaMemsetAsync(longest.data(), 0, sizeof(unsigned long long), st));
  launch_on_view([&](auto v) {
    FASTPAIR_CUDA_TRY(detail::launch_row_offsets_from_codes(v, counts_view(), block_codes_.data(), block_bytes_.data(), 0,
                                                            rows, 0, decoded_bytes_, off.data(), false, stream));
  });
  unsigned const blocks = static_cast<unsigned>(std::min<std::uint64_t>((rows + 255) / 256, 8192));
  detail::longest_row_kernel<<<blocks, 256, 0, st>>>(off.data(), rows, longest.data());
  FASTPAIR_CUDA_TRY(cudaGetLastError());
  unsigned long long h = 0;
  FASTPAIR_CUDA_TRY(cudaMemcpyAsync(&h, longest.data(), sizeof h, cudaMemcpyDeviceToHost, st));
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(st));
  int const width = h <= 0xFFu ? 1 : h <= 0xFFFFu ? 2 : 0;
  if (width == 0 || double(width) > max_bytes_per_row) return;
  row_lengths_ = device_buffer<std::uint8_t>(rows * width, stream, mr);
  if (width == 1) detail::row_lengths_kernel<<<blocks, 256, 0, st>>>(off.data(), rows, row_lengths_.data());
  else detail::row_lengths_kernel<<<blocks, 256, 0, st>>>(off.data(), rows, reinterpret_cast<std::uint16_t*>(row_lengths_.data()));
  FASTPAIR_CUDA_TRY(cudaGetLastError());
  row_length_bytes_ = width;
}

inline void device_column::build_row_offsets(cuda::stream_ref stream, device_async_resource_ref mr)
{
  check_usable();
  cudaStream_t const st = stream.get();
  std::uint64_t const rows = num_rows_;
  row_code_offsets_        = device_buffer<std::uint64_t>(rows + 1, stream, mr);
  {
    device_buffer<std::uint64_t> counts(rows + 1, stream, mr);
    unsigned const blocks = static_cast<unsigned>(std::min<std::uint64_t>((rows + 256) / 256, 8192));
    detail::unpack_counts_kernel<<<blocks, 256, 0, st>>>(counts_view(), counts.data());
    FASTPAIR_CUDA_TRY(cudaGetLastError());
    std::size_t temp_bytes = 0;
    FASTPAIR_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, counts.data(), row_code_offsets_.data(), rows + 1, st));
    device_buffer<unsigned char> temp(temp_bytes, stream, mr);
    FASTPAIR_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, counts.data(), row_code_offsets_.data(), rows + 1, st));
  }
  device_buffer<std::uint64_t> bytes(rows + 1, stream, mr);
  launch_on_view([&](auto v) {
    FASTPAIR_CUDA_TRY(detail::launch_row_offsets_from_codes(v, counts_view(), block_codes_.data(), block_bytes_.data(), 0,
                                                            rows, 0, decoded_bytes_, bytes.data(), false, stream));
  });
  row_byte_offsets_ = std::move(bytes);
}

}  // namespace fastpair
