// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file device_column.cuh
 * @brief `device_column`: a compressed column prepared for the GPU (planes, u16 codes, sidecar,
 * row offsets, error word in device memory).
 *
 * Preparation is the one place that allocates and copies; decoding (decode.cuh) does neither.
 * Every device allocation of a column comes from the memory resource given to prepare() (and
 * kept: memory_resource()), and goes back to it stream-ordered when the column is destroyed.
 */
#pragma once

#include <fastpair/detail/arch.cuh>
#include <fastpair/detail/cuda.cuh>
#include <fastpair/detail/kernels/decode_kernel.cuh>
#include <fastpair/detail/warp_decode.cuh>
#include <fastpair/format.hpp>
#include <fastpair/planes.hpp>
#include <fastpair/validate.hpp>

#include <cub/device/device_scan.cuh>
#include <cuda/stream_ref>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace fastpair {

/** @brief Options of device_column::prepare. */
struct prepare_options {
  int low_plane_bytes = 0;  ///< W: 8 or 16; 0 = automatic for the current GPU (detail::auto_low_plane_bytes)
  /// Validate the host column's content first (validate(): codes in range, row and sidecar sums;
  /// recommended for untrusted input). The structural checks (validate_structure()) run either way.
  bool validate       = true;
  bool regenerate_sidecar = false;  ///< ignore a stored sidecar and compute it on the GPU
  /// Build the per-code length stream (num_codes / 2 bytes of device memory) that
  /// gather_strategy::texture_low_streamed reads. Without it decode_column refuses those configs
  /// (logic_error; launch_decode returns cudaErrorInvalidResourceHandle) and the automatic config
  /// gathers lengths instead.
  bool length_stream = true;
  /// For dictionaries of at most 4 096 entries (OnPair-12, FSST-12): build the fused code stream
  /// (2 bytes per code: code and token length in one 16-bit word) that
  /// gather_strategy::texture_low_fused reads. Without it decode_column refuses those configs
  /// (logic_error; launch_decode returns cudaErrorInvalidResourceHandle) and the automatic config
  /// does not use them.
  bool fused_codes = true;
  /// Build the split stream where it pays (detail::auto_split_stream: OnPair-12 columns of
  /// mostly short tokens, on sm_90+): every token longer than 8 bytes becomes two codes
  /// (build_split_stream in planes.hpp), so the short-token emit can decode the column, and the
  /// automatic config decodes that stream. Costs 2 bytes per split code and 68 KiB of planes.
  bool split_stream = true;
  /// Keep every row's decoded length in 1 byte (all rows of at most 255 bytes) or 2 bytes (of at
  /// most 65 535), so that decode_column writes the output offsets reading 1-2 bytes per row
  /// instead of 8 (detail::row_offsets_kernel). Not built where a row is longer.
  bool row_lengths = true;
};

/**
 * @brief A compressed column resident in device memory, ready for decode_column().
 *
 * @code{.pseudo}
 * auto dcol = fastpair::device_column::prepare(col, stream);  // validate, build planes, upload
 * fastpair::decode_column(dcol, out_view, stream);            // async, no allocation
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
   * @brief An upper estimate of the device memory prepare(col, stream, opt) keeps on the current
   * device: codes, planes, sidecar, row offsets, and the length stream, fused codes, split
   * stream and row lengths where prepare builds them (not counting the allocator's rounding).
   */
  static std::uint64_t device_bytes(compressed_column const& col, prepare_options const& opt = {})
  {
    std::uint64_t const n = col.num_codes, rows = col.num_rows();
    std::uint64_t bytes   = 2 * n + std::uint64_t{code_space(col.kind)} * 17 + 2 * 256 +  // codes, planes (+ alignment)
                          (col.sidecar_entries() + 2) * 8 + 2 * (rows + 1) * 8 + 4;      // sidecar, row offsets, error
    if (opt.length_stream) bytes += (n + 7) / 8 * 4 + 16;
    if (opt.row_lengths) bytes += rows * static_cast<std::uint64_t>(row_length_bytes_for(col.row_byte_offsets));
    if (opt.fused_codes && code_space(col.kind) <= 4096) bytes += 2 * n + 16;
    if (opt.split_stream && col.kind == codec::onpair12) {
      auto const h = token_length_histogram(col);
      if (detail::auto_split_stream(col.kind, h, detail::current_arch_bucket())) {
        std::uint64_t long_codes = 0;
        for (int len = 9; len <= 16; ++len) long_codes += h[len];
        std::uint64_t const words = n + long_codes;
        bytes += 2 * words + (words / std::max<std::uint32_t>(col.sidecar_stride, 1) + 2) * 8 + 8192 * 8 + 4096 + 256;
      }
    }
    return bytes;
  }

  /**
   * @brief Validates `col`, builds the planes for W, widens the codes to u16 and uploads
   * everything on `stream`. If the column has no sidecar (or `opt.regenerate_sidecar`), the
   * sidecar is computed on the GPU (per-segment length sums + cub::DeviceScan).
   * @note Allocates every device buffer of the column from `mr` on `stream` (kept by the column,
   * which frees them through it); host buffers are copied before return (pageable copies, which
   * CUDA may stage by waiting for `stream`: no explicit synchronisation); the upload and the GPU
   * builds are ordered on `stream`. To decode on another stream, make it wait for `stream` first
   * (an event, or a synchronisation): a cudaStreamNonBlocking stream does not wait for the legacy
   * default stream, which is `stream`'s default.
   * @param mr the resource of every device allocation (it must outlive the column)
   * @throw format_error if the column is invalid; logic_error on bad options; cuda_error; what `mr` throws.
   */
  static device_column prepare(compressed_column const& col, cuda::stream_ref stream = {},
                               prepare_options const& opt = {},
                               device_async_resource_ref mr = default_device_resource())
  {
    if (opt.validate) validate(col);
    else validate_structure(col);  // always: what keeps the host and device reads in bounds
    device_column d;
    d.mr_ = mr;
    FASTPAIR_CUDA_TRY(cudaGetDevice(&d.device_));
    d.kind_       = col.kind;
    d.num_codes_  = col.num_codes;
    d.num_tokens_ = static_cast<std::uint32_t>(col.dict.size());
    d.stride_     = col.sidecar_stride;
    FASTPAIR_EXPECTS(d.stride_ > 0, "sidecar stride must be positive");
    d.row_byte_offsets_host_ = col.row_byte_offsets;
    d.row_code_offsets_host_ = col.row_code_offsets;
    d.histogram_             = token_length_histogram(col);
    int const w = opt.low_plane_bytes ? opt.low_plane_bytes
                                      : detail::auto_low_plane_bytes(col.kind, d.histogram_, detail::current_arch_bucket());
    FASTPAIR_EXPECTS(w == 8 || w == 16, "low_plane_bytes must be 0 (auto), 8 or 16");
    d.w_ = w;
    dictionary_planes const planes = build_planes(col.kind, col.dict, w);
    auto const codes               = unpack_codes(col);

    d.codes_       = detail::upload(codes, stream, mr);
    d.lo_ptr_      = detail::upload_texture_aligned(planes.lo, d.lo_, stream, mr);
    d.hi_          = detail::upload(planes.hi, stream, mr);
    d.lengths_ptr_ = detail::upload_texture_aligned(planes.lengths, d.lengths_, stream, mr);
    // Texture objects over the low plane and the lengths, for the texture gather strategies
    // (config.cuh, gather_strategy): one element per entry (W bytes) and per byte.
    auto const u32 = cudaChannelFormatKindUnsigned;
    d.lo_tex_      = texture_object(d.lo_ptr_, planes.lo.size(),
                                    w == 16 ? cudaCreateChannelDesc(32, 32, 32, 32, u32) : cudaCreateChannelDesc(32, 32, 0, 0, u32),
                                    stream);
    d.lengths_tex_ = texture_object(d.lengths_ptr_, planes.lengths.size(), cudaCreateChannelDesc(8, 0, 0, 0, u32), stream);
    d.row_byte_offsets_ = detail::upload(col.row_byte_offsets, stream, mr);
    d.row_code_offsets_ = detail::upload(col.row_code_offsets, stream, mr);
    if (opt.row_lengths) d.upload_row_lengths(stream);
    d.error_   = device_buffer<std::uint32_t>(1, stream, mr);
    FASTPAIR_CUDA_TRY(cudaMemsetAsync(d.error_.data(), 0, sizeof(std::uint32_t), stream.get()));

    std::uint64_t const nseg = col.sidecar_entries();
    if (!col.sidecar.empty() && !opt.regenerate_sidecar) {
      std::vector<std::uint64_t> sc(col.sidecar);
      sc.push_back(col.decoded_bytes());  // end sentinel: the last segment's end check
      d.sidecar_ = detail::upload(sc, stream, mr);
    } else {
      d.sidecar_ = device_buffer<std::uint64_t>(nseg + 1, stream, mr);
      d.regenerate_sidecar(stream);
    }
    if (opt.length_stream) d.build_length_stream(stream);
    if (opt.fused_codes && code_space(col.kind) <= 4096) d.build_fused_codes(stream);
    if (opt.split_stream && detail::auto_split_stream(col.kind, d.histogram_, detail::current_arch_bucket())) {
      split_stream s = build_split_stream(col, codes, d.stride_);
      d.split_words_            = detail::upload(s.words, stream, mr);
      d.split_sidecar_          = detail::upload(s.sidecar, stream, mr);
      d.split_lo_ptr_           = detail::upload_texture_aligned(s.planes.lo, d.split_lo_, stream, mr);
      d.split_lengths_          = detail::upload(s.planes.lengths, stream, mr);
      d.split_lo_tex_           = texture_object(d.split_lo_ptr_, s.planes.lo.size(),
                                                 cudaCreateChannelDesc(32, 32, 0, 0, cudaChannelFormatKindUnsigned), stream);
      d.split_num_codes_        = s.words.size();
      d.split_num_tokens_       = s.planes.num_tokens;
      d.split_row_code_offsets_ = std::move(s.row_code_offsets);
    }
    return d;
  }

  /** @brief Bytes per row of the compact row lengths (prepare_options::row_lengths): 1 or 2,
   *  0 if the column has none (turned off, no rows, or a row longer than 65 535 bytes). */
  int row_length_bytes() const noexcept { return row_length_bytes_; }
  /** @brief Device pointer to row r's compact length (row_length_bytes() bytes each), r >= 0;
   *  null without row lengths. */
  void const* device_row_lengths(std::uint64_t r = 0) const noexcept
  {
    return row_lengths_.data() ? row_lengths_.data() + r * row_length_bytes_ : nullptr;
  }

  /** @brief The bytes per row of compact row lengths for these row offsets: 1, 2, or 0 (a row
   *  longer than 65 535 bytes). */
  static int row_length_bytes_for(std::vector<std::uint64_t> const& row_byte_offsets) noexcept
  {
    std::uint64_t longest = 0;
    for (std::size_t r = 1; r < row_byte_offsets.size(); ++r)
      longest = std::max(longest, row_byte_offsets[r] - row_byte_offsets[r - 1]);
    return longest <= 0xFFu ? 1 : longest <= 0xFFFFu ? 2 : 0;
  }

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
    v.lengths         = split_lengths_.data();
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
    std::uint64_t const nseg = num_segments();
    device_buffer<std::uint64_t> seg_bytes(nseg + 1, stream, mr);
    FASTPAIR_CUDA_TRY(cudaMemsetAsync(seg_bytes.data(), 0, (nseg + 1) * sizeof(std::uint64_t), stream.get()));
    if (nseg > 0) {
      unsigned const blocks = static_cast<unsigned>(std::min<std::uint64_t>((nseg + 7) / 8, 65535));  // 8 warps a block
      launch_on_view([&](auto v) { detail::segment_lengths_kernel<<<blocks, 256, 0, stream.get()>>>(v, seg_bytes.data()); });
    }
    std::size_t temp_bytes = 0;
    FASTPAIR_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, seg_bytes.data(),
                                                     sidecar_.data(), nseg + 1, stream.get()));
    device_buffer<unsigned char> temp(temp_bytes, stream, mr);
    FASTPAIR_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, seg_bytes.data(),
                                                     sidecar_.data(), nseg + 1, stream.get()));
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
    v.codes          = codes_.data();
    v.lo             = lo_ptr_;
    v.hi             = hi_.data();
    v.lengths        = lengths_ptr_;
    v.sidecar        = sidecar_.data();
    v.num_codes      = num_codes_;
    v.num_tokens     = num_tokens_;
    v.sidecar_stride = stride_;
    v.error          = const_cast<std::uint32_t*>(error_.data());
    v.lo_tex         = lo_tex_.get();
    v.lengths_tex    = lengths_tex_.get();
    v.code_lengths   = reinterpret_cast<std::uint8_t const*>(code_lengths_.data());
    v.code_words     = code_words_.data();
    return v;
  }

  codec kind() const noexcept { return kind_; }
  int low_plane_bytes() const noexcept { return w_; }
  std::uint64_t num_codes() const noexcept { return num_codes_; }
  std::uint64_t num_rows() const noexcept { return row_byte_offsets_host_.size() - 1; }
  std::uint64_t num_segments() const noexcept { return (num_codes_ + stride_ - 1) / stride_; }
  std::uint32_t sidecar_stride() const noexcept { return stride_; }
  std::uint64_t decoded_bytes() const noexcept { return row_byte_offsets_host_.back(); }
  /** @brief Decoded bytes of rows [row_begin, row_end) (host value, no synchronisation). */
  std::uint64_t decoded_bytes(std::uint64_t row_begin, std::uint64_t row_end) const
  {
    check_rows(row_begin, row_end);
    return row_byte_offsets_host_[row_end] - row_byte_offsets_host_[row_begin];
  }
  /** @brief Mean decoded bytes per code. */
  double mean_token_length() const noexcept { return fastpair::mean_token_length(histogram_); }
  /** @brief Token-length histogram of the coded stream (used for the automatic config). */
  length_histogram const& histogram() const noexcept { return histogram_; }
  std::vector<std::uint64_t> const& row_code_offsets() const noexcept { return row_code_offsets_host_; }
  std::vector<std::uint64_t> const& row_byte_offsets() const noexcept { return row_byte_offsets_host_; }
  /** @brief Device pointer to the row byte offsets (num_rows + 1 entries). */
  std::uint64_t const* device_row_byte_offsets() const noexcept { return row_byte_offsets_.data(); }
  /** @brief Device pointer to the row code offsets (num_rows + 1 entries): row r's codes are
   *  view().codes[off[r], off[r + 1]) (used by selective decode and the predicates). */
  std::uint64_t const* device_row_code_offsets() const noexcept { return row_code_offsets_.data(); }

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
  /** Uploads the compact row lengths (prepare_options::row_lengths), if every row fits 2 bytes. */
  void upload_row_lengths(cuda::stream_ref stream)
  {
    auto const& off   = row_byte_offsets_host_;
    row_length_bytes_ = off.size() < 2 ? 0 : row_length_bytes_for(off);  // no rows: nothing to keep
    if (row_length_bytes_ == 0) return;
    std::vector<std::uint8_t> bytes((off.size() - 1) * row_length_bytes_);
    for (std::size_t r = 0; r + 1 < off.size(); ++r) {
      auto const len = static_cast<std::uint16_t>(off[r + 1] - off[r]);
      if (row_length_bytes_ == 1) bytes[r] = static_cast<std::uint8_t>(len);
      else std::memcpy(&bytes[2 * r], &len, 2);  // little-endian u16, as the kernel reads it
    }
    row_lengths_ = detail::upload(bytes, stream, mr_);
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
  std::uint32_t num_tokens_ = 0;
  std::uint32_t stride_     = default_sidecar_stride;
  length_histogram histogram_{};
  std::vector<std::uint64_t> row_byte_offsets_host_{0};
  std::vector<std::uint64_t> row_code_offsets_host_{0};
  device_buffer<std::uint16_t> codes_, code_words_;
  device_buffer<std::uint8_t> lo_, hi_, lengths_;  // lo_ and lengths_ hold the aligned lo_ptr_, lengths_ptr_
  std::uint8_t const* lo_ptr_      = nullptr;
  std::uint8_t const* lengths_ptr_ = nullptr;
  device_buffer<std::uint64_t> sidecar_, row_byte_offsets_, row_code_offsets_;
  device_buffer<std::uint32_t> error_, code_lengths_;
  device_buffer<std::uint8_t> row_lengths_;  // prepare_options::row_lengths
  int row_length_bytes_ = 0;
  // the split stream (prepare_options::split_stream)
  device_buffer<std::uint16_t> split_words_;
  device_buffer<std::uint64_t> split_sidecar_;
  device_buffer<std::uint8_t> split_lo_, split_lengths_;
  std::uint8_t const* split_lo_ptr_ = nullptr;
  std::uint64_t split_num_codes_    = 0;
  std::uint32_t split_num_tokens_   = 0;
  std::vector<std::uint64_t> split_row_code_offsets_;
  texture_object lo_tex_, lengths_tex_, split_lo_tex_;  // declared last: destroyed before the memory they read
};

}  // namespace fastpair
