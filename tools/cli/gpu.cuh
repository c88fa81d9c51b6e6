// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// GPU side of the `fastpair` tool: device discovery, decoding a .fpc column on the GPU, and the
// decode benchmark (CUDA events, L2 flush before every run, min and median, beside a
// device-to-device copy of the same size measured in the same process).
//
// The timing method is the one of bench/common/fixture.cuh (which is tied to Google Benchmark's
// State, so it is not included here): L2 flushed by a memset of 3x its size outside the timed
// region, per-run CUDA events, GB/s = decoded bytes / time, copy = one-direction cudaMemcpyAsync
// device to device of the decoded size.
#pragma once

#include "args.hpp"
#include "progress.hpp"

#include <fastpair/fastpair.cuh>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace fastpair::cli {

/** Number of usable CUDA devices; 0 with the reason in `why` when there is none. */
inline int cuda_device_count(std::string* why) { return fastpair::detail::usable_device_count(why); }

/** Selects device `dev` (checked against the count). @throw usage_error, cuda_error. */
inline void select_device(int dev, int count)
{
  if (dev < 0 || dev >= count)
    throw usage_error("--device " + std::to_string(dev) + ": this machine has " + std::to_string(count) +
                      " CUDA device(s), numbered 0.." + std::to_string(count - 1));
  FASTPAIR_CUDA_TRY(cudaSetDevice(dev));
}

/** "NVIDIA H200 (sm_90, 132 SMs, 139.8 GiB)". */
inline std::string device_description(int dev)
{
  cudaDeviceProp p{};
  FASTPAIR_CUDA_TRY(cudaGetDeviceProperties(&p, dev));
  char buf[320];
  std::snprintf(buf, sizeof buf, "%s (sm_%d%d, %d SMs, %.1f GiB, L2 %.0f MiB)", p.name, p.major, p.minor,
                p.multiProcessorCount, static_cast<double>(p.totalGlobalMem) / (1ull << 30),
                static_cast<double>(p.l2CacheSize) / (1 << 20));
  return buf;
}

/** An owned CUDA stream, destroyed last (declare it before the buffers that use it). */
class owned_stream {
 public:
  owned_stream() { FASTPAIR_CUDA_TRY(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~owned_stream()
  {
    (void)cudaStreamSynchronize(s_);
    (void)cudaStreamDestroy(s_);
  }
  owned_stream(owned_stream const&)            = delete;
  owned_stream& operator=(owned_stream const&) = delete;
  cudaStream_t get() const noexcept { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

/** A pair of CUDA events timing one region on a stream. */
class event_timer {
 public:
  event_timer()
  {
    FASTPAIR_CUDA_TRY(cudaEventCreate(&a_));
    FASTPAIR_CUDA_TRY(cudaEventCreate(&b_));
  }
  ~event_timer()
  {
    (void)cudaEventDestroy(a_);
    (void)cudaEventDestroy(b_);
  }
  event_timer(event_timer const&)            = delete;
  event_timer& operator=(event_timer const&) = delete;
  void start(cudaStream_t s) { FASTPAIR_CUDA_TRY(cudaEventRecord(a_, s)); }
  void stop(cudaStream_t s) { FASTPAIR_CUDA_TRY(cudaEventRecord(b_, s)); }
  /** Seconds between start and stop. @note synchronizes the stop event. */
  double seconds()
  {
    FASTPAIR_CUDA_TRY(cudaEventSynchronize(b_));
    float ms = 0;
    FASTPAIR_CUDA_TRY(cudaEventElapsedTime(&ms, a_, b_));
    return ms * 1e-3;
  }

 private:
  cudaEvent_t a_ = nullptr, b_ = nullptr;
};

/** Throws a readable error when the device lacks the memory a step needs. */
inline void require_device_memory(std::uint64_t need, char const* what)
{
  std::size_t free_b = 0, total_b = 0;
  FASTPAIR_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
  if (need > free_b)
    throw std::runtime_error(std::string(what) + " needs about " + human_bytes(static_cast<double>(need)) +
                             " of device memory, but only " + human_bytes(static_cast<double>(free_b)) +
                             " is free: decode a row range (--rows) or use a smaller --tile-bytes");
}

/** Device bytes of a prepared column plus an int64 output of rows [r0, r1), roughly. */
inline std::uint64_t device_bytes_needed(compressed_column const& col, std::uint64_t r0, std::uint64_t r1)
{
  return device_column::device_bytes(col) + (col.row_byte_offsets[r1] - col.row_byte_offsets[r0]) +
         (r1 - r0 + 1) * 8 + (64u << 20);
}

/** Device bytes that preparing a stored .fpc image of `file_bytes` bytes takes, roughly (from
 *  its header alone): the stored sections, the codes widened to u16, the planes, temporaries. */
inline std::uint64_t device_bytes_to_prepare(fpc_header const& h, std::uint64_t file_bytes)
{
  return file_bytes + 2 * h.num_codes + std::uint64_t{code_space(h.kind)} * 17 + (64u << 20);
}


/** What decode_on_gpu measured. */
struct gpu_decode_result {
  host_strings rows;
  int low_plane_bytes = 8;
  std::string config;
  double prepare_s = 0, kernel_s = 0, download_s = 0;
  double pipelined_s = 0;  ///< decode_fpc_on_gpu of a whole column: preparation and decode in one call (else 0)
};

/** Decodes rows [r0, r1) of a prepared column (decode_column, automatic config, timed with CUDA
 *  events), checks the error word and downloads the rows into `res`. */
inline void decode_prepared(device_column const& dcol, std::uint64_t r0, std::uint64_t r1, owned_stream const& stream,
                            gpu_decode_result& res)
{
  using clock = std::chrono::steady_clock;
  res.low_plane_bytes = dcol.low_plane_bytes();
  res.config          = fastpair::auto_config_name(dcol);

  std::uint64_t const bytes = dcol.decoded_bytes(r0, r1, stream.get());
  require_device_memory(bytes + (r1 - r0 + 1) * 8 + (16u << 20), "the decoded rows");
  string_column<std::int64_t> out;
  out.num_rows = r1 - r0;
  out.offsets  = device_buffer<std::int64_t>(out.num_rows + 1, stream.get());
  out.chars    = device_buffer<char>(bytes, stream.get());
  event_timer timer;
  timer.start(stream.get());
  decode_column(dcol, r0, r1, out.view(), stream.get());
  timer.stop(stream.get());
  res.kernel_s = timer.seconds();
  if (std::uint32_t const e = dcol.read_and_clear_errors(stream.get()); e != 0)
    throw decode_error("the GPU decoder reported corrupt device data (error word 0x" + [&] {
      char b[16];
      std::snprintf(b, sizeof b, "%x", e);
      return std::string(b);
    }() + ")");
  auto const t1 = clock::now();
  {
    progress bar("downloading from the GPU", 0);
    res.rows = out.to_host(stream.get());
  }
  res.download_s = std::chrono::duration<double>(clock::now() - t1).count();
}

/**
 * @brief Decodes rows [r0, r1) of a validated column on the current device into host strings:
 * prepare (upload), decode_column with the automatic config (timed with CUDA events), error word
 * check, download.
 * @throw decode_error if the device reports corrupt data; cuda_error; std::runtime_error if the
 *        device memory is too small.
 */
inline gpu_decode_result decode_on_gpu(compressed_column const& col, std::uint64_t r0, std::uint64_t r1, int w)
{
  using clock = std::chrono::steady_clock;
  require_device_memory(device_bytes_needed(col, r0, r1), "decoding this column on the GPU");
  owned_stream stream;
  gpu_decode_result res;
  auto const t0 = clock::now();
  prepare_options opt;
  opt.low_plane_bytes = w;
  opt.validate        = false;  // read_fpc validated the column
  device_column dcol;
  {
    progress bar("uploading to the GPU", 0);
    dcol = device_column::prepare(col, stream.get(), opt);
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(stream.get()));
  }
  res.prepare_s = std::chrono::duration<double>(clock::now() - t0).count();
  decode_prepared(dcol, r0, r1, stream, res);
  return res;
}

/**
 * @brief Decodes rows [r0, r1) of a stored .fpc image (`bytes`, in pinned or pageable host
 * memory, not validated on the host) on the current device. The whole column goes through
 * decode_fpc_host: upload, checks and decode pipelined in steps (`pipelined_s` is that call, host
 * clock to its end); a row range through device_column::prepare_fpc_host and then decode_column
 * (`prepare_s`, then `kernel_s` from CUDA events). The host parses only header and dictionary; a
 * version-1 image is read on the host.
 * @throw format_error naming what is wrong in an invalid image; decode_error; cuda_error;
 *        std::runtime_error if the device memory is too small.
 */
inline gpu_decode_result decode_fpc_on_gpu(std::uint8_t const* bytes, std::size_t size, fpc_header const& h,
                                           std::uint64_t r0, std::uint64_t r1, int w)
{
  using clock = std::chrono::steady_clock;
  owned_stream stream;
  gpu_decode_result res;
  prepare_options opt;
  opt.low_plane_bytes = w;  // validate (default): the image's content is checked on the GPU
  if (r0 == 0 && r1 == h.n_rows) {
    require_device_memory(device_bytes_to_prepare(h, size) + h.decoded + (h.n_rows + 1) * 8,
                          "decoding this column on the GPU");
    string_column<std::int64_t> out;
    out.num_rows = h.n_rows;
    out.offsets  = device_buffer<std::int64_t>(out.num_rows + 1, stream.get());
    out.chars    = device_buffer<char>(h.decoded, stream.get());
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(stream.get()));
    auto const t0 = clock::now();
    {
      progress bar("decoding on the GPU (upload, checks and decode pipelined)", 0);
      device_column const dcol = decode_fpc_host(bytes, size, out.view(), stream.get(), opt);
      res.low_plane_bytes      = dcol.low_plane_bytes();
      res.config               = fastpair::auto_config_name(dcol);
    }
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(stream.get()));
    res.pipelined_s = std::chrono::duration<double>(clock::now() - t0).count();
    auto const t1   = clock::now();
    {
      progress bar("downloading from the GPU", 0);
      res.rows = out.to_host(stream.get());
    }
    res.download_s = std::chrono::duration<double>(clock::now() - t1).count();
    return res;
  }
  require_device_memory(device_bytes_to_prepare(h, size), "preparing this column on the GPU");
  auto const t0 = clock::now();
  device_column dcol;
  {
    progress bar("preparing on the GPU (upload and checks)", 0);
    dcol = device_column::prepare_fpc_host(bytes, size, stream.get(), opt);
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(stream.get()));
  }
  res.prepare_s = std::chrono::duration<double>(clock::now() - t0).count();
  decode_prepared(dcol, r0, r1, stream, res);
  return res;
}

inline double min_of(std::vector<double> const& v) { return v.empty() ? 0 : *std::min_element(v.begin(), v.end()); }
inline double median_of(std::vector<double> v)
{
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

/** Options of run_benchmark. */
struct bench_options {
  int runs               = 20;
  std::uint64_t min_bytes = 0;  ///< tile to at least this many decoded bytes (0 = no tiling)
  bool flush_l2          = true;
  bool verify            = true;
  int low_plane_bytes    = 0;   ///< 0 = automatic
  int offset_bits        = 64;
};

/** What run_benchmark measured. */
struct bench_result {
  std::string device, config;
  int low_plane_bytes = 8;
  std::uint64_t reps = 1, rows = 0, codes = 0, decoded_bytes = 0;
  std::vector<double> decode_s, copy_s;
  bool verified = false;
};

/**
 * @brief GPU decode benchmark of a validated column: optional tiling, one verified decode, then
 * `runs` timed decodes and `runs` timed device-to-device copies of the decoded size.
 * @throw check_failed if the verification decode differs from the CPU reference.
 */
inline bench_result run_benchmark(compressed_column const& source, bench_options const& o)
{
  bench_result res;
  int dev = 0;
  FASTPAIR_CUDA_TRY(cudaGetDevice(&dev));
  res.device = device_description(dev);

  compressed_column tiled_storage;
  compressed_column const* col = &source;
  if (o.min_bytes > source.decoded_bytes() && source.decoded_bytes() > 0) {
    std::uint64_t const max_host = 32'000'000'000ull;  // tiled columns hold 16 B of row offsets per row
    if (std::uint64_t const host = tiled_column_bytes(source, o.min_bytes); host > max_host)
      throw usage_error("tiling to " + human_bytes(static_cast<double>(o.min_bytes)) + " would build a column of " +
                        human_bytes(static_cast<double>(host)) + " in host memory, more than the limit of " +
                        human_bytes(static_cast<double>(max_host)) + ": use a smaller --tile-bytes");
    progress bar("tiling to " + human_bytes(static_cast<double>(o.min_bytes)), 0);
    tiled_storage = tile_column(source, o.min_bytes, max_host);
    col           = &tiled_storage;
  }
  res.reps          = source.decoded_bytes() ? col->decoded_bytes() / source.decoded_bytes() : 1;
  res.rows          = col->num_rows();
  res.codes         = col->num_codes;
  res.decoded_bytes = col->decoded_bytes();
  if (o.offset_bits == 32 && res.decoded_bytes > 0x7FFFFFFFull)
    throw usage_error("the decoded size " + std::to_string(res.decoded_bytes) +
                      " B does not fit int32 offsets: use --offset-bits 64");
  require_device_memory(device_bytes_needed(*col, 0, col->num_rows()) + res.decoded_bytes,
                        "benchmarking this column (column + output + copy target)");

  owned_stream stream;
  cudaStream_t const s = stream.get();
  prepare_options opt;
  opt.low_plane_bytes = o.low_plane_bytes;
  opt.validate        = false;  // validated by read_fpc, or tiled from a validated column
  device_column dcol;
  {
    progress bar("uploading to the GPU", 0);
    dcol = device_column::prepare(*col, s, opt);
  }
  res.low_plane_bytes = dcol.low_plane_bytes();
  res.config          = fastpair::auto_config_name(dcol);

  std::uint64_t const bytes = res.decoded_bytes;
  device_buffer<char> chars(bytes, s), copy_dst(bytes, s);
  device_buffer<std::int64_t> off64(o.offset_bits == 64 ? res.rows + 1 : 0, s);
  device_buffer<std::int32_t> off32(o.offset_bits == 32 ? res.rows + 1 : 0, s);
  auto decode = [&] {
    if (o.offset_bits == 64)
      decode_column(dcol, string_column_view<std::int64_t>{off64.data(), chars.data(), res.rows, bytes}, s);
    else
      decode_column(dcol, string_column_view<std::int32_t>{off32.data(), chars.data(), res.rows, bytes}, s);
  };

  decode();  // warm-up and verification run
  if (std::uint32_t const e = dcol.read_and_clear_errors(s); e != 0)
    throw decode_error("the GPU decoder reported corrupt device data (error word " + std::to_string(e) + ")");
  if (o.verify) {
    progress bar("verifying against the CPU reference", 0);
    host_strings const expect = decode_reference(source, 0, source.num_rows(), false);
    std::vector<char> h(bytes);
    if (bytes) FASTPAIR_CUDA_TRY(cudaMemcpyAsync(h.data(), chars.data(), bytes, cudaMemcpyDeviceToHost, s));
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
    std::uint64_t const one = source.decoded_bytes();
    for (std::uint64_t r = 0; r < res.reps; ++r)
      if (one && std::memcmp(h.data() + r * one, expect.chars.data(), one) != 0)
        throw check_failed("GPU decode of copy " + std::to_string(r) + " of the column differs from the CPU reference");
    res.verified = true;
  }

  // L2 flush scratch: 3x the L2 size, memset outside the timed region.
  int l2 = 0;
  FASTPAIR_CUDA_TRY(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  device_buffer<char> scratch(o.flush_l2 ? std::size_t(3) * std::max(l2, 1 << 20) : 0, s);
  auto flush = [&] {
    if (o.flush_l2) FASTPAIR_CUDA_TRY(cudaMemsetAsync(scratch.data(), 0, scratch.size(), s));
  };
  event_timer timer;
  {
    progress bar("timing " + std::to_string(o.runs) + " decodes", 0);
    for (int i = 0; i < o.runs; ++i) {
      flush();
      timer.start(s);
      decode();
      timer.stop(s);
      res.decode_s.push_back(timer.seconds());
    }
  }
  if (std::uint32_t const e = dcol.read_and_clear_errors(s); e != 0)
    throw decode_error("the GPU decoder reported corrupt device data (error word " + std::to_string(e) + ")");
  if (bytes) {
    progress bar("timing " + std::to_string(o.runs) + " device-to-device copies", 0);
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(copy_dst.data(), chars.data(), bytes, cudaMemcpyDeviceToDevice, s));  // warm-up
    for (int i = 0; i < o.runs; ++i) {
      flush();
      timer.start(s);
      FASTPAIR_CUDA_TRY(cudaMemcpyAsync(copy_dst.data(), chars.data(), bytes, cudaMemcpyDeviceToDevice, s));
      timer.stop(s);
      res.copy_s.push_back(timer.seconds());
    }
  }
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
  return res;
}

}  // namespace fastpair::cli
