// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file fpc_streamer.cuh
 * @brief `fpc_streamer`: decodes the column of a `.fpc` image in host memory row group by row
 * group through a bounded amount of device memory, for columns (and decoded strings) larger than
 * the GPU's free memory, or scans that should not hold a whole column on the device.
 *
 * Design. The device holds what is small per row or code and needed throughout: the row code
 * counts as stored, the row index (16 bytes per 1 024 rows), the sidecar (8 bytes per segment),
 * the dictionary and its planes, i.e. the lean device_column without its codes. The codes pass
 * through two windows: group g's codes are copied host to device on a copy stream into window
 * g mod 2 while group g - 1 is checked, decoded and consumed on the compute stream. A group is a
 * run of whole row blocks of the row index, so its rows' first codes and decoded positions come
 * from the row index; its window starts at the sidecar segment of its first code (rounded down
 * to 32 codes, a 16-byte boundary of the packed stream) and ends with the segment of its last
 * code, which is every code its kernels read: the decode of its segments, the offsets derived from
 * the codes (row_offsets_kernel.cuh), and the row index's positions of its blocks. The kernels are
 * those of device_column; a window is the column's code stream seen through a pointer that maps
 * the column's code indices onto the window (device_column::window_codes_).
 *
 * Checks. Everything prepare_fpc_host checks, in this order: the header, the dictionary and the
 * counts before the first group; per group, before its callback, the codes (each below the
 * dictionary size) and the sidecar (a stored one is checked by the decode itself, segment by
 * segment; a missing one is computed as the groups arrive), and the group's decoded size; the
 * codes' checksum, which covers the whole section, after the last group (a damaged code that still
 * decodes is then reported by decode() after the callbacks have run).
 */
#pragma once

#include <fastpair/decode.cuh>
#include <fastpair/device_column.cuh>
#include <fastpair/io.hpp>

#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <cuda/stream_ref>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace fastpair {

/** @brief How fpc_streamer cuts a column into row groups. */
struct fpc_stream_options {
  /// Packed code bytes per row group (>= 1). A group is a run of whole row blocks
  /// (device_column::row_index_rows() rows) whose codes add up to at most this, and at least one
  /// block. The first three groups take 1/8, 1/4 and 1/2 of it, so that the first copy, which
  /// nothing overlaps, is short. The device holds two groups' codes and two decoded groups.
  std::uint64_t group_code_bytes = std::uint64_t{64} << 20;
  /// Check the image's content as prepare_options::validate does (checksums, codes below the
  /// dictionary size, the sidecar, the decoded size). The structural checks run either way; without
  /// these, a decode that finds corrupt data throws decode_error before the group's callback.
  bool validate = true;
  /// W: 8 or 16; 0 = automatic (detail::tuned_low_plane_bytes, from the first group's token lengths).
  int low_plane_bytes = 0;
};

/** @brief One decoded row group, handed to the fpc_streamer::decode() callback. */
template <class OffsetT>
struct fpc_group {
  std::uint64_t index     = 0;  ///< 0, 1, ... in row order
  std::uint64_t first_row = 0;  ///< the column's row that is the group's row 0
  /// The group's rows on the device, Arrow layout: column.num_rows + 1 offsets from 0, and the chars
  /// (column.chars_capacity >= chars_bytes).
  string_column_view<OffsetT> column{};
  std::uint64_t chars_bytes = 0;  ///< decoded bytes of the group
  /// The stream the group is ready on. Queue the work that reads it here (or make this stream wait
  /// for it): the group's buffers are written again by group index + 2, on this stream.
  cudaStream_t stream = nullptr;
};

/**
 * @brief Decodes `.fpc` images in host memory (pinned, or pageable at the driver's pageable copy
 * rate) one row group at a time, so that neither the codes nor the decoded strings of the whole
 * column need to fit on the device.
 *
 * @code{.pseudo}
 * fastpair::fpc_streamer streamer({.group_code_bytes = 256 << 20});
 * streamer.decode(bytes, size, [&](fastpair::fpc_group<std::int64_t> const& g) {
 *   consume<<<..., g.stream>>>(g.column.offsets, g.column.chars, g.column.num_rows);  // the rows g.first_row + i
 * });
 * @endcode
 *
 * Memory: every device allocation comes from `mr` (the column's rows and dictionary, two windows of
 * codes, two decoded groups, temporaries) and goes back to it when decode() returns;
 * last_device_bytes() says how much the last decode() held at most. The streamer creates two
 * streams of its own (cudaStreamNonBlocking); decode() and the destructor synchronize them, never
 * a stream of the caller's. Use a streamer on one host thread at a time.
 */
class fpc_streamer {
 public:
  explicit fpc_streamer(fpc_stream_options const& opt = {}, device_async_resource_ref mr = default_device_resource())
    : opt_(opt), mr_(mr)
  {
    FASTPAIR_EXPECTS(opt.group_code_bytes >= 1, "fpc_streamer: group_code_bytes must be >= 1");
    FASTPAIR_EXPECTS(opt.low_plane_bytes == 0 || opt.low_plane_bytes == 8 || opt.low_plane_bytes == 16,
                     "fpc_streamer: low_plane_bytes must be 0 (auto), 8 or 16");
    try {
      FASTPAIR_CUDA_TRY(cudaStreamCreateWithFlags(&copy_, cudaStreamNonBlocking));
      FASTPAIR_CUDA_TRY(cudaStreamCreateWithFlags(&compute_, cudaStreamNonBlocking));
      for (int i = 0; i < 2; ++i) {
        FASTPAIR_CUDA_TRY(cudaEventCreateWithFlags(&copied_[i], cudaEventDisableTiming));
        FASTPAIR_CUDA_TRY(cudaEventCreateWithFlags(&released_[i], cudaEventDisableTiming));
      }
    } catch (...) {
      release();
      throw;
    }
  }
  fpc_streamer(fpc_streamer const&)            = delete;
  fpc_streamer& operator=(fpc_streamer const&) = delete;
  /** @brief Blocks: waits for the streamer's streams, then destroys them and its events. */
  ~fpc_streamer() { release(); }

  /**
   * @brief Decodes every row of the `.fpc` image `bytes[0, size)` (host memory); calls
   * `callback(fpc_group<OffsetT> const&)` once per row group, in row order, after the group passed
   * its checks. Returns when every group is decoded and the image's last checks passed. A
   * version-1 image is read on the host (deserialize) and stored as version 2 first.
   * @tparam OffsetT int64_t (Arrow large_utf8) or int32_t (utf8: every group's chars must fit)
   * @note Blocks: synchronizes the streamer's streams twice per group (to read the group's decoded
   *       size, then the checks of its decode) and before it returns.
   * @throw format_error naming what is wrong in an invalid image (after the callbacks of the groups
   *        before the damage; a wrong codes' checksum after all of them); decode_error without
   *        `validate` if a decode reports corrupt data; logic_error if a group's chars overflow
   *        int32 offsets; cuda_error; what `mr` or the callback throws.
   */
  template <class OffsetT = std::int64_t, class Callback>
  void decode(void const* bytes, std::size_t size, Callback&& callback);

  /** @brief The most device memory the last decode() held at once (its allocations' sizes). */
  std::uint64_t last_device_bytes() const noexcept { return last_device_bytes_; }

 private:
  /** Row blocks [k0, k1) with codes [c0, c1), read through the window of codes [w0, w1). */
  struct group_plan {
    std::uint64_t k0 = 0, k1 = 0, c0 = 0, c1 = 0, w0 = 0, w1 = 0;
  };
  static std::vector<group_plan> plan_groups(device_column const& d, std::uint64_t group_code_bytes);
  /** Synchronizes the streamer's streams when it goes out of scope. */
  struct drain {
    fpc_streamer const* self;
    ~drain()
    {
      (void)cudaStreamSynchronize(self->copy_);
      (void)cudaStreamSynchronize(self->compute_);
    }
  };

  void release() noexcept
  {
    for (cudaStream_t s : {copy_, compute_})
      if (s != nullptr) (void)detail::call_keeping_last_error([&] { return cudaStreamSynchronize(s); });
    for (int i = 0; i < 2; ++i) {
      if (copied_[i] != nullptr) (void)cudaEventDestroy(copied_[i]);
      if (released_[i] != nullptr) (void)cudaEventDestroy(released_[i]);
      copied_[i] = released_[i] = nullptr;
    }
    for (cudaStream_t* s : {&copy_, &compute_})
      if (*s != nullptr) (void)cudaStreamDestroy(*s), *s = nullptr;
  }

  fpc_stream_options opt_;
  device_async_resource_ref mr_;
  cudaStream_t copy_ = nullptr, compute_ = nullptr;
  cudaEvent_t copied_[2] = {}, released_[2] = {};
  std::uint64_t last_device_bytes_ = 0;
};

inline std::vector<fpc_streamer::group_plan> fpc_streamer::plan_groups(device_column const& d,
                                                                       std::uint64_t group_code_bytes)
{
  auto const& bc             = d.block_codes_host_;  // blocks + 1 entries, the last = num_codes
  std::uint64_t const blocks = bc.size() - 1, S = d.stride_, n = d.num_codes_;
  std::uint64_t const bits   = static_cast<std::uint64_t>(code_bits(d.kind_));
  auto bytes_of = [&](std::uint64_t c0, std::uint64_t c1) { return (c1 * bits + 7) / 8 - c0 * bits / 8; };
  std::vector<group_plan> plan;
  for (std::uint64_t k0 = 0; k0 < blocks;) {
    std::uint64_t const g      = plan.size();
    std::uint64_t const target = std::max<std::uint64_t>(1, g < 3 ? group_code_bytes >> (3 - g) : group_code_bytes);
    std::uint64_t k1           = k0 + 1;
    while (k1 < blocks && bytes_of(bc[k0], bc[k1 + 1]) <= target) ++k1;
    group_plan p;
    p.k0 = k0, p.k1 = k1, p.c0 = bc[k0], p.c1 = bc[k1];
    p.w0 = p.c0 / S * S / 32 * 32;               // a 16-byte boundary of the packed stream
    p.w1 = std::min(n, (p.c1 + S - 1) / S * S);  // the end of the last code's segment
    plan.push_back(p);
    k0 = k1;
  }
  return plan;
}

template <class OffsetT, class Callback>
void fpc_streamer::decode(void const* bytes, std::size_t size, Callback&& callback)
{
  using namespace detail;
  static_assert(is_offset_type_v<OffsetT>, "offsets are int32 (Arrow utf8) or int64 (Arrow large_utf8)");
  auto const* p = static_cast<std::uint8_t const*>(bytes);
  FASTPAIR_EXPECTS(p != nullptr || size == 0, "fpc_streamer: null bytes");
  fpc_header const h = parse_fpc_header(p, size);
  if (h.version == 1) {  // read and checked on the host, then streamed as version 2
    std::vector<std::uint8_t> const v2 = serialize(deserialize(p, size));
    decode<OffsetT>(v2.data(), v2.size(), std::forward<Callback>(callback));
    return;
  }
  device_column::check_image_size(h, size);
  std::uint64_t sums[fpc2::num_sections + 1] = {};
  for (std::uint32_t id = 1; id <= fpc2::num_sections; ++id)
    sums[id] = device_column::check_section(h, id, p + h.layout.header_at[id]);
  device_column::stored_sections const s = device_column::sections_of(h, p, sums, opt_.validate);
  dictionary const dict = read_fpc_dictionary_shape(h, p + h.layout.payload_at[fpc2::dict_lengths],
                                                    p + h.layout.payload_at[fpc2::dict_bytes], sums[1], sums[2]);
  FASTPAIR_EXPECTS(dict.size() == s.num_tokens && dict.bytes.size() == s.dict_byte_count,
                   "dictionary sections and header disagree");
  auto fail = [](std::string const& what) { throw format_error("fastpair: invalid .fpc: " + what); };

  // Whatever happens below, no copy of this call is in flight when it returns or throws: the
  // copies read the caller's bytes (synchronized last, on leaving) and the copy stream writes the
  // windows (synchronized before they are freed, by a second drain declared after them).
  drain const on_exit{this};
  cudaStream_t const st = compute_;
  cuda::stream_ref const stream{st};
  device_async_resource_ref const mr = mr_;

  // 1. The column without its codes: counts, sidecar (stored), dictionary, row index.
  device_column d = device_column::shell_of(s, stream, mr);
  std::uint64_t const n = s.num_codes, S = s.stride, N = s.num_tokens, nseg = d.num_segments();
  std::uint64_t const packed = packed_code_bytes(s.kind, n);
  if (s.count_bytes) FASTPAIR_CUDA_TRY(cudaMemcpyAsync(d.count_words_.data(), s.counts, s.count_bytes, cudaMemcpyHostToDevice, st));
  bool const use_stored = s.sidecar != nullptr;  // else computed group by group
  std::uint64_t const total_host = s.decoded_bytes;
  if (use_stored) {
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(d.sidecar_.data(), s.sidecar, nseg * 8, cudaMemcpyHostToDevice, st));
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(d.sidecar_.data() + nseg, &total_host, 8, cudaMemcpyHostToDevice, st));
  } else {
    FASTPAIR_CUDA_TRY(cudaMemsetAsync(d.sidecar_.data(), 0, 8, st));
  }
  device_buffer<std::uint8_t> dict_dev(N + s.dict_byte_count + 1, stream, mr);
  device_buffer<std::uint32_t> dict_offsets(N + 1, stream, mr);
  if (N) FASTPAIR_CUDA_TRY(cudaMemcpyAsync(dict_dev.data(), s.dict_lengths, N, cudaMemcpyHostToDevice, st));
  if (s.dict_byte_count)
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(dict_dev.data() + N, s.dict_bytes, s.dict_byte_count, cudaMemcpyHostToDevice, st));
  device_buffer<prepare_report> report(1, stream, mr);
  FASTPAIR_CUDA_TRY(cudaMemsetAsync(report.data(), 0, sizeof(prepare_report), st));
  auto sum_of = [&](int i) { return reinterpret_cast<std::uint64_t*>(report.data()) + i; };  // checksum_sum[i]
  d.index_dictionary(s, dict_dev.data(), dict_offsets.data(), report.data(), stream, mr);
  if (s.validate && s.count_bytes)
    section_checksum_kernel<<<device_column::grid_of(s.count_bytes / 8 + 1), 256, 0, st>>>(
      reinterpret_cast<std::uint8_t const*>(d.count_words_.data()), s.count_bytes, sum_of(1));
  if (s.validate && use_stored && s.sidecar_entries)
    section_checksum_kernel<<<device_column::grid_of(s.sidecar_entries), 256, 0, st>>>(
      reinterpret_cast<std::uint8_t const*>(d.sidecar_.data()), s.sidecar_entries * 8, sum_of(2));
  std::uint64_t const blocks = d.build_block_codes(report.data(), stream, mr);
  FASTPAIR_CUDA_TRY(cudaGetLastError());
  prepare_report r;
  d.block_codes_host_.resize(blocks + 1);
  FASTPAIR_CUDA_TRY(cudaMemcpyAsync(&r, report.data(), sizeof r, cudaMemcpyDeviceToHost, st));
  FASTPAIR_CUDA_TRY(cudaMemcpyAsync(d.block_codes_host_.data(), d.block_codes_.data(), (blocks + 1) * 8, cudaMemcpyDeviceToHost, st));
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(st));
  device_column::check_index_report(r, n);
  if (s.validate) {
    char const* names[2]         = {"section 4 (row_code_counts)", "section 5 (sidecar)"};
    std::uint64_t const sizes[2] = {s.count_bytes, s.sidecar_entries * 8};
    for (int i = 1; i <= 2; ++i) {
      if (i == 2 && !use_stored) continue;
      std::uint64_t const computed = fpc2::finish_checksum(r.checksum_sum[i], sizes[i - 1]);
      if (computed != s.checksum[i])
        fail(std::string(names[i - 1]) + ": checksum stored " + std::to_string(s.checksum[i]) + " != computed " +
             std::to_string(computed));
    }
  }
  std::uint64_t first = 0;  // a stored sidecar's entry 0 (host memory, read bytewise: any alignment)
  if (use_stored && nseg > 0) std::memcpy(&first, s.sidecar, 8);
  if (s.validate && first != 0) fail("sidecar: entry 0 is " + std::to_string(first) + ", not 0");
  d.block_bytes_ = device_buffer<std::uint64_t>(blocks + 1, stream, mr);
  std::vector<group_plan> const plan = plan_groups(d, opt_.group_code_bytes);
  std::uint64_t const bits           = static_cast<std::uint64_t>(code_bits(s.kind));
  auto byte_of  = [&](std::uint64_t c) { return c * bits / 8; };  // code c's first byte (c a multiple of 32)
  auto byte_end = [&](std::uint64_t c) { return c == n ? packed : (c * bits + 7) / 8; };  // past code c - 1
  std::uint64_t window_bytes = 16;
  for (group_plan const& g : plan) window_bytes = std::max(window_bytes, byte_end(g.w1) - byte_of(g.w0) + 16);

  // 2. The windows, the sidecar's temporaries, the decoded groups (grown as groups need).
  device_buffer<std::uint8_t> window[2];
  for (auto& w : window) w = device_buffer<std::uint8_t>(plan.empty() ? 0 : window_bytes, stream, mr);
  drain const windows_released{this};
  sidecar_scan scan;  // the sidecar of an image stored without one, group by group
  if (!use_stored && nseg > 0) scan = sidecar_scan(nseg, d.sidecar_.data(), stream, mr);
  device_buffer<char> chars[2];
  device_buffer<OffsetT> offsets[2];
  auto held = [&] {
    std::uint64_t b = d.device_bytes() + dict_dev.size() + dict_offsets.size() * 4 + sizeof(prepare_report) + scan.bytes();
    for (int i = 0; i < 2; ++i) b += window[i].size() + chars[i].size() + offsets[i].size() * sizeof(OffsetT);
    return b;
  };
  last_device_bytes_ = held();

  // Group g's codes into window g mod 2 on the copy stream, once the group before last is done with it.
  FASTPAIR_CUDA_TRY(cudaEventRecord(released_[0], st));
  FASTPAIR_CUDA_TRY(cudaEventRecord(released_[1], st));
  auto upload = [&](std::size_t g) {
    int const slot = static_cast<int>(g % 2);
    FASTPAIR_CUDA_TRY(cudaStreamWaitEvent(copy_, released_[slot], 0));
    std::uint64_t const a = byte_of(plan[g].w0), b = byte_end(plan[g].w1);
    if (b > a) FASTPAIR_CUDA_TRY(cudaMemcpyAsync(window[slot].data(), s.codes + a, b - a, cudaMemcpyHostToDevice, copy_));
    FASTPAIR_CUDA_TRY(cudaEventRecord(copied_[slot], copy_));
  };
  auto use_window = [&](std::size_t g) {  // the column's codes are group g's window from now on
    FASTPAIR_CUDA_TRY(cudaStreamWaitEvent(st, copied_[g % 2], 0));
    // A pointer below the window's allocation, never read below it: the kernels read codes
    // [w0, w1) of the group only (the design note).
    d.window_codes_ = reinterpret_cast<std::uint16_t const*>(window[g % 2].data() - byte_of(plan[g].w0));
  };
  if (plan.size() > 0) upload(0);
  if (plan.size() > 1) upload(1);

  // 3. The plane width from the first group's token lengths, and the planes.
  if (!plan.empty()) {
    use_window(0);
    column_view<8> const v = d.view<8>();  // W is chosen below: the histogram reads codes and entry lengths only
    if (plan[0].w1 > plan[0].w0)
      length_histogram_kernel<<<device_column::grid_of(plan[0].w1 - plan[0].w0, 4096), 256, 0, st>>>(
        v, report.data()->sample, plan[0].w0, plan[0].w1);
    FASTPAIR_CUDA_TRY(cudaGetLastError());
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(&r, report.data(), sizeof r, cudaMemcpyDeviceToHost, st));
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(st));
    for (int len = 1; len <= 16; ++len) d.histogram_[len] = r.sample[len];
  }
  int const w = opt_.low_plane_bytes ? opt_.low_plane_bytes : tuned_low_plane_bytes(s.kind, d.histogram_, current_arch_bucket());
  d.build_planes(w, dict_dev.data(), dict_offsets.data(), s.dict_byte_count, stream, mr);

  // 4. Group by group: checksum of its new codes, the sidecar of its new segments (if not stored),
  // the row index's positions of its blocks; its decoded size (one synchronisation); its decode
  // into the group's buffers; the decode's checks (one synchronisation); the callback.
  std::uint64_t hashed = 0, seg_done = 0, b0 = 0;
  for (std::size_t g = 0; g < plan.size(); ++g) {
    group_plan const& q = plan[g];
    bool const last     = g + 1 == plan.size();
    int const slot      = static_cast<int>(g % 2);
    if (g > 0) use_window(g);
    std::uint64_t const hash_end = last ? packed : byte_end(q.w1) / 8 * 8;  // the window's whole words
    if (s.validate && hash_end > hashed)
      section_checksum_kernel<<<device_column::grid_of((hash_end - hashed) / 8 + 1), 256, 0, st>>>(
        window[slot].data() + (hashed - byte_of(q.w0)), hash_end - hashed, sum_of(0), hashed / 8);
    std::uint64_t const seg_end = last ? nseg : q.w1 / S;
    d.launch_on_view([&](auto v) {
      if (!use_stored) scan.add(v, seg_done, seg_end, nullptr, stream);
      std::uint64_t const k_first = g == 0 ? 0 : q.k0 + 1;
      block_bytes_kernel<<<device_column::grid_of(q.k1 + 1 - k_first, 8), 256, 0, st>>>(v, d.block_codes_.data(), k_first,
                                                                                          q.k1, d.block_bytes_.data());
    });
    seg_done = seg_end;
    hashed   = std::max(hashed, hash_end);
    std::uint64_t b1 = 0;
    std::uint32_t errors = 0;
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(&b1, d.block_bytes_.data() + q.k1, 8, cudaMemcpyDeviceToHost, st));
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(&errors, d.error_.data(), 4, cudaMemcpyDeviceToHost, st));
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(st));
    if ((errors & code_out_of_range) && s.validate) fail("codes: a code is >= the dictionary size " + std::to_string(N));
    if (b1 < b0 || b1 > s.decoded_bytes || (last && b1 != s.decoded_bytes))
      fail("decoded_bytes: the header says " + std::to_string(s.decoded_bytes) + ", the codes of rows before " +
           std::to_string(std::min(q.k1 * row_block_rows, s.num_rows)) + " decode to " + std::to_string(b1));

    std::uint64_t const r0 = q.k0 * row_block_rows, r1 = std::min(q.k1 * row_block_rows, s.num_rows);
    std::uint64_t const group_bytes = b1 - b0;
    if (chars[slot].size() < group_bytes) {  // the old buffer goes back first: never both at once
      chars[slot] = device_buffer<char>();
      chars[slot] = device_buffer<char>(group_bytes, stream, mr);
    }
    if (offsets[slot].size() < r1 - r0 + 1) {
      offsets[slot] = device_buffer<OffsetT>();
      offsets[slot] = device_buffer<OffsetT>(r1 - r0 + 1, stream, mr);
    }
    last_device_bytes_ = std::max(last_device_bytes_, held());
    string_column_view<OffsetT> const out{offsets[slot].data(), chars[slot].data(), r1 - r0, chars[slot].size()};
    decode_located<auto_config>(d, r0, r1, device_column::row_range{q.c0, q.c1, b0, b1}, out, stream);
    std::uint32_t const e = d.read_and_clear_errors(stream);
    if (e != 0 && s.validate) {
      if (e & code_out_of_range) fail("codes: a code is >= the dictionary size " + std::to_string(N));
      if (e & sidecar_mismatch) fail("sidecar: a stored entry disagrees with the token lengths");
    }
    throw_decode_errors(e);
    callback(fpc_group<OffsetT>{g, r0, out, group_bytes, st});
    FASTPAIR_CUDA_TRY(cudaEventRecord(released_[slot], st));
    if (g + 2 < plan.size()) upload(g + 2);
    b0 = b1;
  }

  // 5. The codes' checksum, which needed every group.
  if (s.validate) {
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(&r, report.data(), sizeof r, cudaMemcpyDeviceToHost, st));
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(st));
    std::uint64_t const computed = fpc2::finish_checksum(r.checksum_sum[0], packed);
    if (computed != s.checksum[0])
      fail("section 3 (codes): checksum stored " + std::to_string(s.checksum[0]) + " != computed " + std::to_string(computed));
  }
}

/** @brief fpc_streamer(opt, mr).decode<OffsetT>(bytes, size, callback): one image, one streamer. */
template <class OffsetT = std::int64_t, class Callback>
void decode_fpc_streamed(void const* bytes, std::size_t size, Callback&& callback, fpc_stream_options const& opt = {},
                         device_async_resource_ref mr = default_device_resource())
{
  fpc_streamer(opt, mr).decode<OffsetT>(bytes, size, std::forward<Callback>(callback));
}

}  // namespace fastpair
