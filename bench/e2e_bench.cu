// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// End to end: from the stored bytes of a .fpc image to decoded strings on the GPU. Per column x
// codec, in ONE process and on the SAME column (the first 16 MiB of each shared column, encoded
// with each codec, tiled to >= 1 GB decoded as decode_bench.cu does, serialised as .fpc version 2):
//
//   e2e/<column>/<codec>/e2e_pinned       prepare_fpc_host(image in pinned host memory) + decode_column
//                                         (chars + int64 offsets, preallocated) + the column's
//                                         destruction, until the stream is synchronized
//   e2e/<column>/<codec>/e2e_pageable     the same from a pageable copy of the image
//   e2e/<column>/<codec>/e2e_device       prepare_fpc_device(image in device memory) + decode + destruction
//   e2e/<column>/<codec>/pipelined_pinned decode_fpc_host(pinned image) into the same output: the
//                                         preparation and the decode pipelined in steps of codes
//                                         (prepare_options::chunk_bytes), + the column's destruction
//   e2e/<column>/<codec>/pipelined_pageable  the same from the pageable copy
//   e2e/<column>/<codec>/pipelined_device decode_fpc_device(image in device memory)
//   e2e/<column>/<codec>/pipelined_device_borrow  the same with prepare_options::borrow_codes: the
//                                         column reads the image's codes, no copy of them
//   e2e/<column>/<codec>/streamed_pinned  fpc_streamer::decode(pinned image): row groups of
//                                         FASTPAIR_BENCH_GROUP_BYTES of codes (default 64 MiB) through
//                                         two windows and two decoded groups on the device; the
//                                         callback queues nothing (the checked warm-up run copies
//                                         each group into the output); dev_streamed = its
//                                         last_device_bytes(), groups = the number of groups
//   e2e/<column>/<codec>/streamed_pageable the same from the pageable copy
//   e2e/<column>/<codec>/prepare_only     prepare_fpc_host(pinned image) + destruction (default options:
//                                         the content is checked on the GPU)
//   e2e/<column>/<codec>/prepare_novalidate  the same with prepare_options::validate = false
//   e2e/<column>/<codec>/prepare_device   prepare_fpc_device(image in device memory) + destruction: what
//                                         e2e_device spends before its decode
//   e2e/<column>/<codec>/decode_only      decode_column of an already prepared default (lean) column,
//                                         chars + int64 offsets
//   e2e/<column>/<codec>/decode_only_old  the same on a column prepared as the library did by default
//                                         before the accelerators became opt-in (1c19e1f): length
//                                         stream + fused codes + split stream + 8-byte row offsets +
//                                         compact row lengths wherever rows fit 2 bytes
//                                         (row_lengths_max_share = 1e9): before/after
//   e2e/<column>/<codec>/decode_chars     decode_only without offsets (out.offsets = nullptr): the
//                                         chars alone, to show what the offsets cost each column
//   e2e/<column>/<codec>/decode_chars_old the same on the old defaults' column
//   e2e/<column>/<codec>/decode_paper     decode_only with the paper's kernel, paper_config<W>, on the
//                                         default column (W by the paper's rule, paper_low_plane_bytes:
//                                         a column of its own where that W differs from the default's)
//   e2e/<column>/<codec>/decode_paper_chars the same without offsets
//   e2e/<column>/<codec>/decode_<acc>     decode_only on the default column with one accelerator
//                                         added: ls (length stream), fc (fused codes; 12-bit
//                                         codecs), ss (split stream; OnPair-12 columns where the
//                                         automatic rule builds it, prepared from the in-memory
//                                         column), ro (8-byte row offsets), rl (compact row
//                                         lengths wherever rows fit 2 bytes): each one's gain
//   e2e/<column>/<codec>/decode_lean      decode_only on the column as decode_fpc_* returns it (no
//                                         compact row lengths: the offsets derived from the codes),
//                                         the decode inside pipelined_device, alone
//   e2e/<column>/<codec>/h2d_pinned       cudaMemcpyAsync of the image, pinned host -> device
//   e2e/<column>/<codec>/h2d_pageable     the same from the pageable copy
//   e2e/<column>/<codec>/d2d              device-to-device copy of the decoded size
//
// Timing: the L2 is flushed before every run (outside the timed region). e2e_* and prepare_* are
// timed on the host (steady clock from before prepare to after cudaStreamSynchronize): they
// include the host's parse of header and dictionary and prepare's own synchronisation. The
// column's destruction is inside the timed region (it is asynchronous: its memory goes back to
// the pool stream-ordered), so each run starts from the same pool state. decode_only, the copies
// use CUDA events around the work. The default pool keeps freed memory (release threshold max,
// fixture.cuh keep_pool_memory), as a service decoding many files would. One untimed warm-up run
// per case, whose output is checked against the CPU reference (chars and offsets) with the device
// error word; then FASTPAIR_BENCH_ITERS timed runs (default 5): counters at the min and median.
//
// Counters of every case: stored_bytes (the v2 file), v1_bytes (fpc_file_bytes(col, 1)),
// decoded_bytes, rows, file_ratio (decoded / v2 file), file_ratio_v1, dev_default (device_bytes()
// of the prepared default column), dev_length_stream, dev_fused_codes, dev_split_stream,
// dev_row_offsets, dev_row_lengths (row_lengths_max_share = 1e9) (that accelerator alone on top of
// the default; equal to dev_default where it does not apply: fused_applies, split_applies;
// rl_default / rl_old = row_length_bytes() of the default / old column), dev_old_defaults,
// dev_borrow_codes (the default with prepare_options::borrow_codes: without the codes the image
// holds), est_default / est_old_defaults
// (device_column::device_bytes(col, opt), the host estimate), ms_min, ms_median, GBps_min,
// GBps_median (decoded bytes / time; for h2d_*: stored bytes / time), h2d_pinned_GBps,
// decode_GBps (decode_only, min time), bound_GBps = min(decode_GBps, h2d_pinned_GBps x
// file_ratio) and pct_bound (e2e cases).
//
// Environment: FASTPAIR_BENCH_COLUMNS (default: all twelve shared columns), FASTPAIR_BENCH_CODECS
// (default onpair16,onpair12,fsst12), FASTPAIR_BENCH_ITERS (default 5), FASTPAIR_BENCH_BYTES
// (default 1e9), FASTPAIR_BENCH_SOURCE_BYTES (default here 16 MiB), FASTPAIR_DATA_DIR,
// FASTPAIR_BENCH_CHUNK_BYTES (prepare_options::chunk_bytes of the pipelined cases; default automatic),
// FASTPAIR_E2E_BUDGET_S (seconds since start after which the remaining cases are skipped with an
// error, so that a cut run still writes complete JSON; default none), FASTPAIR_BENCH_PROFILE (set:
// each case runs once more after its timed runs, between cudaProfilerStart and cudaProfilerStop,
// for `ncu --profile-from-start off`: every kernel of the case's path, one run).
// The columns are encoded in parallel (all host threads) before the first benchmark.
#include "common/suite.cuh"

#include <fastpair/fpc_streamer.cuh>
#include <fastpair/io.hpp>
#include <fastpair/reference.hpp>

#include <cuda_profiler_api.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace fb = fastpair::bench;
using fastpair::codec;
using fastpair::device_column;
using fastpair::prepare_options;

namespace {

/** The benchmark stream (non-blocking; created once). */
cudaStream_t bench_stream()
{
  static cudaStream_t s = [] {
    cudaStream_t t = nullptr;
    FASTPAIR_CUDA_TRY(cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking));
    return t;
  }();
  return s;
}


// ---- encoded sources: all cells encoded in parallel before the first benchmark ------------------

std::map<std::string, fastpair::compressed_column>& sources()
{
  static std::map<std::string, fastpair::compressed_column> m;
  return m;
}
std::string cell_key(std::string const& column, codec kind) { return column + "/" + fastpair::codec_name(kind); }

void encode_all(std::vector<std::pair<std::string, codec>> const& cells)
{
  auto const t0 = std::chrono::steady_clock::now();
  std::vector<fastpair::compressed_column> out(cells.size());
  std::vector<std::string> errors(cells.size());
  std::atomic<std::size_t> next{0};
  unsigned const threads = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), static_cast<unsigned>(cells.size())));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      for (std::size_t i; (i = next++) < cells.size();) {
        try {
          auto const rows = fastpair::testing::load_column(cells[i].first, fb::source_bytes());
          out[i]          = fastpair::compress(rows, cells[i].second);
        } catch (std::exception const& e) {
          errors[i] = e.what();
        }
      }
    });
  for (auto& th : pool) th.join();
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (!errors[i].empty()) {
      std::fprintf(stderr, "fastpair_bench_e2e: encoding %s failed: %s\n", cell_key(cells[i].first, cells[i].second).c_str(),
                   errors[i].c_str());
      continue;
    }
    sources()[cell_key(cells[i].first, cells[i].second)] = std::move(out[i]);
  }
  std::fprintf(stderr, "fastpair_bench_e2e: encoded %zu cells (%s bytes of each column) on %u threads in %.1f s\n",
               cells.size(), std::to_string(fb::source_bytes()).c_str(), threads,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

// ---- one cell: the stored image in three places, prepared columns, output, reference ------------

/** Offsets of a tiled column that differ from the reference: out[r] must be
 *  (r / R) * D + ref[r % R] for r < rows, and out[rows] the decoded size. */
__global__ void count_offset_mismatches_kernel(std::int64_t const* out, std::uint64_t rows, std::int64_t const* ref,
                                               std::uint64_t R, std::uint64_t D, unsigned long long* count)
{
  unsigned long long local = 0;
  for (std::uint64_t r = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; r <= rows;
       r += std::uint64_t{gridDim.x} * blockDim.x) {
    std::uint64_t const want = r == rows ? (rows / R) * D : (r / R) * D + static_cast<std::uint64_t>(ref[r % R]);
    local += static_cast<std::uint64_t>(out[r]) != want;
  }
  if (local) atomicAdd(count, local);
}

/** out[i] = in[i] + base, i < n: a streamed group's offsets placed in the whole column's. */
__global__ void shift_offsets_kernel(std::int64_t const* in, std::uint64_t n, std::int64_t base, std::int64_t* out)
{
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += std::uint64_t{gridDim.x} * blockDim.x)
    out[i] = in[i] + base;
}

struct cell {
  std::string key;
  codec kind = codec::onpair16;
  std::uint64_t stored = 0, v1 = 0, decoded = 0, rows = 0, src_rows = 0, src_decoded = 0;
  std::uint64_t est_default = 0, est_old = 0;
  std::uint64_t dev_default = 0, dev_ls = 0, dev_fc = 0, dev_ss = 0, dev_ro = 0, dev_rl = 0, dev_old = 0, dev_borrow = 0;
  bool fused_applies = false, split_applies = false;
  std::vector<std::uint8_t> pageable;  // the v2 image
  fastpair::host_buffer pinned;  // pinned (default_host_resource)
  fastpair::device_buffer<std::uint8_t> dbytes;
  device_column dflt, old;  // prepared once: the default column, the old defaults (decode_only*)
  device_column acc_ls, acc_fc, acc_ss, acc_ro, acc_rl;  // the default + one accelerator (decode_<acc>)
  device_column lean;  // without compact row lengths, as decode_fpc_* returns it (decode_lean)
  device_column paper_own;  // the default options with the paper's W, where it differs from dflt's
  int paper_w = 0;          // paper_low_plane_bytes of the source
  bool has_paper_own = false;
  device_column const& paper() const { return has_paper_own ? paper_own : dflt; }
  fastpair::device_buffer<std::int64_t> offsets;
  fastpair::device_buffer<char> chars;
  fastpair::device_buffer<char> ref_chars;          // one tile, CPU reference
  fastpair::device_buffer<std::int64_t> ref_offsets;  // one tile's row byte offsets
  // min times (s) of the rates the bounds use; 0 = not measured yet
  double h2d_pinned_s = 0, decode_s = 0;
  std::unique_ptr<fastpair::fpc_streamer> streamer;  // the streamed_* cases' (kept, as a service would)
  std::uint64_t dev_streamed = 0, groups = 0;

  fastpair::string_column_view<std::int64_t> out() { return {offsets.data(), chars.data(), rows, chars.size()}; }
  /** The chars alone: no offsets are written (clear_output's 0xFF must stay). */
  fastpair::string_column_view<std::int64_t> out_chars() { return {nullptr, chars.data(), rows, chars.size()}; }

  /** Differing chars and offsets bytes of the output against the reference (synchronizes); with
   *  `chars_only`, the offsets must still hold clear_output's pattern. */
  unsigned long long mismatches(bool chars_only = false)
  {
    fastpair::device_buffer<unsigned long long> cnt(1, {});
    FASTPAIR_CUDA_TRY(cudaMemset(cnt.data(), 0, sizeof(unsigned long long)));
    if (decoded)
      fb::count_tile_mismatches_kernel<<<132 * 16, 256>>>(chars.data(), decoded, ref_chars.data(), src_decoded, cnt.data());
    if (chars_only)
      fb::count_tile_mismatches_kernel<<<132 * 16, 256>>>(reinterpret_cast<char const*>(offsets.data()),
                                                          offsets.size() * 8, untouched_.data(), 8, cnt.data());
    else
      count_offset_mismatches_kernel<<<132 * 16, 256>>>(offsets.data(), rows, ref_offsets.data(), src_rows, src_decoded,
                                                        cnt.data());
    FASTPAIR_CUDA_TRY(cudaGetLastError());
    unsigned long long h = 0;
    FASTPAIR_CUDA_TRY(cudaMemcpy(&h, cnt.data(), sizeof h, cudaMemcpyDeviceToHost));
    return h;
  }
  /** Clears the output on `s` (so that a check cannot pass on an earlier run's output). */
  void clear_output(cudaStream_t s)
  {
    FASTPAIR_CUDA_TRY(cudaMemsetAsync(chars.data(), 0, chars.size(), s));
    FASTPAIR_CUDA_TRY(cudaMemsetAsync(offsets.data(), 0xFF, offsets.size() * sizeof(std::int64_t), s));
  }
  fastpair::device_buffer<char> untouched_;  // 8 bytes of 0xFF: clear_output's offsets pattern
};

/** Options with the given accelerators; `rl`: compact row lengths wherever rows fit 2 bytes
 *  (row_lengths_max_share = 1e9) instead of the default share. */
prepare_options with(bool ls, bool fc, bool ss, bool ro, bool rl = false)
{
  prepare_options o;
  o.length_stream = ls;
  o.fused_codes   = fc;
  o.split_stream  = ss;
  o.row_offsets   = ro;
  if (rl) o.row_lengths_max_share = 1e9;
  return o;
}
/** What device_column::prepare built by default before the accelerators became opt-in (1c19e1f):
 *  length stream, fused codes, split stream, row lengths wherever rows fit and the 8-byte row
 *  offsets (always built then). */
prepare_options old_defaults() { return with(true, true, true, true, true); }

/** The cell of (column, kind), built on first use; the previous cell is freed first (one cell's
 *  buffers at a time: the image three times, two prepared columns, >= 1 GB of output). */
cell& get_cell(std::string const& column, codec kind)
{
  static std::unique_ptr<cell> current;
  std::string const key = cell_key(column, kind);
  if (current && current->key == key) return *current;
  current.reset();
  FASTPAIR_CUDA_TRY(cudaDeviceSynchronize());
  auto it = sources().find(key);
  if (it == sources().end()) throw std::runtime_error("no encoded source for " + key + " (its encoding failed)");
  fastpair::compressed_column const& src = it->second;
  auto c     = std::make_unique<cell>();
  c->key     = key;
  c->kind    = kind;
  auto const t0 = std::chrono::steady_clock::now();

  if (std::uint64_t const host = fastpair::tiled_column_bytes(src, fb::target_bytes()); host > fb::max_tile_host_bytes())
    throw std::runtime_error(key + ": tiling would take " + std::to_string(host) + " bytes of host memory (FASTPAIR_BENCH_MAX_HOST_BYTES)");
  cudaStream_t const s = bench_stream();
  {
    fastpair::compressed_column const tiled = fastpair::tile_column(src, fb::target_bytes());
    c->decoded     = tiled.decoded_bytes();
    c->rows        = tiled.num_rows();
    c->src_rows    = src.num_rows();
    c->src_decoded = src.decoded_bytes();
    if (c->src_rows == 0 || c->rows % c->src_rows != 0) throw std::runtime_error(key + ": unexpected tiled shape");
    c->v1          = fastpair::fpc_file_bytes(tiled, 1);
    c->est_default = device_column::device_bytes(tiled);
    c->est_old     = device_column::device_bytes(tiled, old_defaults());
    c->pageable    = fastpair::serialize(tiled);  // version 2
    c->stored      = c->pageable.size();
    if (c->stored != fastpair::fpc_file_bytes(tiled))
      throw std::runtime_error(key + ": serialize(col).size() != fpc_file_bytes(col)");
    c->fused_applies = fastpair::code_space(kind) <= 4096;
    c->split_applies = kind == codec::onpair12 &&
                       fastpair::detail::tuned_split_stream(kind, fastpair::token_length_histogram(src),
                                                           fastpair::detail::current_arch_bucket());
    // The old defaults: the split stream is built on the host from a compressed_column only.
    if (c->split_applies) {
      prepare_options o = old_defaults();
      o.validate        = false;  // tiled from an encoder's column; checked below by decoding
      c->old            = device_column::prepare(tiled, s, o);
      prepare_options so = with(false, false, true, false);
      so.validate        = false;
      c->acc_ss          = device_column::prepare(tiled, s, so);
    }
  }  // the tiled host column is freed here
  c->pinned = fastpair::host_buffer(c->stored);
  std::memcpy(c->pinned.data(), c->pageable.data(), c->stored);
  c->dbytes = fastpair::device_buffer<std::uint8_t>(c->stored, s);
  FASTPAIR_CUDA_TRY(cudaMemcpyAsync(c->dbytes.data(), c->pageable.data(), c->stored, cudaMemcpyHostToDevice, s));
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));

  // Device bytes: the default column, and each accelerator alone on top of it (exact: the sum of
  // the column's allocations). The split stream's share is the old column's less the others'.
  c->dflt        = device_column::prepare_fpc_device(c->dbytes.data(), c->stored, s);
  c->dev_default = c->dflt.device_bytes();
  auto with_one = [&](prepare_options const& o, device_column& d) {
    d = device_column::prepare_fpc_device(c->dbytes.data(), c->stored, s, o);
    return d.device_bytes();
  };
  c->dev_ls = with_one(with(true, false, false, false), c->acc_ls);
  c->dev_fc = c->fused_applies ? with_one(with(false, true, false, false), c->acc_fc) : c->dev_default;
  c->dev_ro = with_one(with(false, false, false, true), c->acc_ro);
  c->dev_rl = with_one(with(false, false, false, false, true), c->acc_rl);
  {
    prepare_options o;
    o.row_lengths_max_share = 0;
    c->lean                 = device_column::prepare_fpc_device(c->dbytes.data(), c->stored, s, o);
  }
  if (!c->split_applies) {
    prepare_options o = old_defaults();
    o.split_stream    = false;  // does not apply; from stored bytes it is not built at all
    c->old            = device_column::prepare_fpc_device(c->dbytes.data(), c->stored, s, o);
  }
  c->dev_old = c->old.device_bytes();
  {  // the default reading the image's codes: what it adds to the image
    prepare_options o;
    o.borrow_codes   = true;
    c->dev_borrow    = device_column::prepare_fpc_device(c->dbytes.data(), c->stored, s, o).device_bytes();
  }
  c->paper_w = fastpair::paper_low_plane_bytes(kind, fastpair::token_length_histogram(src));
  if (c->paper_w != c->dflt.low_plane_bytes()) {
    prepare_options o;
    o.low_plane_bytes = c->paper_w;
    c->paper_own      = device_column::prepare_fpc_device(c->dbytes.data(), c->stored, s, o);
    c->has_paper_own  = true;
  }
  c->dev_ss  = c->split_applies ? c->dev_old - (c->dev_ls - c->dev_default) - (c->dev_fc - c->dev_default) -
                                   (c->dev_ro - c->dev_default) - (c->dev_rl - c->dev_default)
                                : c->dev_default;

  c->offsets    = fastpair::device_buffer<std::int64_t>(c->rows + 1, s);
  c->untouched_ = fastpair::device_buffer<char>(8, s);
  FASTPAIR_CUDA_TRY(cudaMemsetAsync(c->untouched_.data(), 0xFF, 8, s));
  c->chars      = fastpair::device_buffer<char>(c->decoded, s);
  auto const ref = fastpair::decode_reference(src);
  c->ref_chars   = fastpair::device_buffer<char>(ref.chars.size(), s);
  if (!ref.chars.empty())
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(c->ref_chars.data(), ref.chars.data(), ref.chars.size(), cudaMemcpyHostToDevice, s));
  std::vector<std::int64_t> ro(src.row_byte_offsets.begin(), src.row_byte_offsets.end());
  c->ref_offsets = fastpair::device_buffer<std::int64_t>(ro.size(), s);
  FASTPAIR_CUDA_TRY(cudaMemcpyAsync(c->ref_offsets.data(), ro.data(), ro.size() * 8, cudaMemcpyHostToDevice, s));
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
  std::fprintf(stderr, "fastpair_bench_e2e: %s: %.2f GB decoded, %.1f MB stored (v2), built in %.1f s\n", key.c_str(),
               c->decoded / 1e9, c->stored / 1e6, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  current = std::move(c);
  return *current;
}

// ---- the cases ---------------------------------------------------------------------------------

enum class what {
  e2e_pinned,
  e2e_pageable,
  e2e_device,
  pipelined_pinned,
  pipelined_pageable,
  pipelined_device,
  pipelined_device_borrow,
  streamed_pinned,
  streamed_pageable,
  prepare_only,
  prepare_novalidate,
  prepare_device,
  decode_only,
  decode_only_old,
  decode_chars,
  decode_chars_old,
  decode_paper,
  decode_paper_chars,
  decode_ls,
  decode_fc,
  decode_ss,
  decode_ro,
  decode_rl,
  decode_lean,
  h2d_pinned,
  h2d_pageable,
  d2d
};
char const* name_of(what w)
{
  switch (w) {
    case what::e2e_pinned: return "e2e_pinned";
    case what::e2e_pageable: return "e2e_pageable";
    case what::e2e_device: return "e2e_device";
    case what::pipelined_pinned: return "pipelined_pinned";
    case what::pipelined_pageable: return "pipelined_pageable";
    case what::pipelined_device: return "pipelined_device";
    case what::pipelined_device_borrow: return "pipelined_device_borrow";
    case what::streamed_pinned: return "streamed_pinned";
    case what::streamed_pageable: return "streamed_pageable";
    case what::prepare_only: return "prepare_only";
    case what::prepare_novalidate: return "prepare_novalidate";
    case what::prepare_device: return "prepare_device";
    case what::decode_only: return "decode_only";
    case what::decode_only_old: return "decode_only_old";
    case what::decode_chars: return "decode_chars";
    case what::decode_chars_old: return "decode_chars_old";
    case what::decode_paper: return "decode_paper";
    case what::decode_paper_chars: return "decode_paper_chars";
    case what::decode_ls: return "decode_ls";
    case what::decode_fc: return "decode_fc";
    case what::decode_ss: return "decode_ss";
    case what::decode_ro: return "decode_ro";
    case what::decode_rl: return "decode_rl";
    case what::decode_lean: return "decode_lean";
    case what::h2d_pinned: return "h2d_pinned";
    case what::h2d_pageable: return "h2d_pageable";
    case what::d2d: return "d2d";
  }
  return "?";
}
bool is_e2e(what w)
{
  return w == what::e2e_pinned || w == what::e2e_pageable || w == what::e2e_device || w == what::pipelined_pinned ||
         w == what::pipelined_pageable || w == what::pipelined_device || w == what::pipelined_device_borrow ||
         w == what::streamed_pinned ||
         w == what::streamed_pageable;
}
bool prepares_only(what w) { return w == what::prepare_only || w == what::prepare_novalidate || w == what::prepare_device; }
bool host_timed(what w) { return is_e2e(w) || prepares_only(w); }
bool decodes(what w) { return w != what::h2d_pinned && w != what::h2d_pageable && w != what::d2d && !prepares_only(w); }

/** The prepared column a decode_only-like case decodes (the default one for decode_only). */
device_column const& column_of(cell& c, what w)
{
  switch (w) {
    case what::decode_only_old:
    case what::decode_chars_old: return c.old;
    case what::decode_ls: return c.acc_ls;
    case what::decode_fc: return c.acc_fc;
    case what::decode_ss: return c.acc_ss;
    case what::decode_ro: return c.acc_ro;
    case what::decode_rl: return c.acc_rl;
    case what::decode_lean: return c.lean;
    case what::decode_paper:
    case what::decode_paper_chars: return c.paper();
    default: return c.dflt;
  }
}

/** The options of the pipelined cases: the defaults, with prepare_options::chunk_bytes from
 *  FASTPAIR_BENCH_CHUNK_BYTES (default 0: automatic). */
prepare_options pipelined_options()
{
  prepare_options o;
  o.chunk_bytes = static_cast<std::uint64_t>(fb::env_int("FASTPAIR_BENCH_CHUNK_BYTES", 0));
  return o;
}

/** Scratch of the copy cases: a device target of the image and one of the decoded size. */
struct copy_targets {
  fastpair::device_buffer<std::uint8_t> image;
  fastpair::device_buffer<char> decoded;
};

/** One run of case `w` on `c` (queued on `s`); returns the device error word when `check`
 *  (for the cases that destroy their column inside the run, read before its destruction). */
std::uint32_t run_case(cell& c, what w, cudaStream_t s, copy_targets& t, bool check)
{
  std::uint32_t err = 0;
  auto finish = [&](device_column const& col) {
    if (check) err = col.read_and_clear_errors(s);
  };
  switch (w) {
    case what::e2e_pinned: {
      device_column const col = device_column::prepare_fpc_host(c.pinned.data(), c.stored, s);
      fastpair::decode_column(col, c.out(), s);
      finish(col);
    } break;
    case what::e2e_pageable: {
      device_column const col = device_column::prepare_fpc_host(c.pageable.data(), c.stored, s);
      fastpair::decode_column(col, c.out(), s);
      finish(col);
    } break;
    case what::e2e_device: {
      device_column const col = device_column::prepare_fpc_device(c.dbytes.data(), c.stored, s);
      fastpair::decode_column(col, c.out(), s);
      finish(col);
    } break;
    case what::pipelined_pinned: {
      device_column const col = fastpair::decode_fpc_host(c.pinned.data(), c.stored, c.out(), s, pipelined_options());
      finish(col);
    } break;
    case what::pipelined_pageable: {
      device_column const col = fastpair::decode_fpc_host(c.pageable.data(), c.stored, c.out(), s, pipelined_options());
      finish(col);
    } break;
    case what::pipelined_device: {
      device_column const col = fastpair::decode_fpc_device(c.dbytes.data(), c.stored, c.out(), s, pipelined_options());
      finish(col);
    } break;
    case what::pipelined_device_borrow: {
      prepare_options o = pipelined_options();
      o.borrow_codes    = true;
      device_column const col = fastpair::decode_fpc_device(c.dbytes.data(), c.stored, c.out(), s, o);
      finish(col);
    } break;
    case what::streamed_pinned:
    case what::streamed_pageable: {
      if (!c.streamer) {
        fastpair::fpc_stream_options o;
        o.group_code_bytes = static_cast<std::uint64_t>(fb::env_int("FASTPAIR_BENCH_GROUP_BYTES", 64L << 20));
        c.streamer         = std::make_unique<fastpair::fpc_streamer>(o);
      }
      void const* bytes = w == what::streamed_pinned ? static_cast<void const*>(c.pinned.data()) : c.pageable.data();
      std::uint64_t groups = 0;
      c.streamer->decode(bytes, c.stored, [&](fastpair::fpc_group<std::int64_t> const& g) {
        ++groups;
        if (!check) return;  // timed runs: the groups are decoded and checked, nothing consumes them
        std::int64_t b0 = 0;  // the group's first byte in the column: the column's offset of its first row
        if (g.first_row > 0)
          FASTPAIR_CUDA_TRY(cudaMemcpyAsync(&b0, c.offsets.data() + g.first_row, 8, cudaMemcpyDeviceToHost, g.stream));
        FASTPAIR_CUDA_TRY(cudaStreamSynchronize(g.stream));
        shift_offsets_kernel<<<256, 256, 0, g.stream>>>(g.column.offsets, g.column.num_rows + 1, b0, c.offsets.data() + g.first_row);
        if (g.chars_bytes)
          FASTPAIR_CUDA_TRY(cudaMemcpyAsync(c.chars.data() + b0, g.column.chars, g.chars_bytes, cudaMemcpyDeviceToDevice, g.stream));
        FASTPAIR_CUDA_TRY(cudaStreamSynchronize(g.stream));
      });
      c.groups       = groups;
      c.dev_streamed = c.streamer->last_device_bytes();
    } break;
    case what::prepare_only: {
      device_column const col = device_column::prepare_fpc_host(c.pinned.data(), c.stored, s);
      finish(col);
    } break;
    case what::prepare_novalidate: {
      prepare_options o;
      o.validate              = false;
      device_column const col = device_column::prepare_fpc_host(c.pinned.data(), c.stored, s, o);
      finish(col);
    } break;
    case what::prepare_device: {
      device_column const col = device_column::prepare_fpc_device(c.dbytes.data(), c.stored, s);
      finish(col);
    } break;
    case what::decode_only:
    case what::decode_only_old:
    case what::decode_ls:
    case what::decode_fc:
    case what::decode_ss:
    case what::decode_ro:
    case what::decode_rl:
    case what::decode_lean:
      fastpair::decode_column(column_of(c, w), c.out(), s);
      finish(column_of(c, w));
      break;
    case what::decode_chars:
      fastpair::decode_column(c.dflt, c.out_chars(), s);
      finish(c.dflt);
      break;
    case what::decode_chars_old:
      fastpair::decode_column(c.old, c.out_chars(), s);
      finish(c.old);
      break;
    case what::decode_paper:
    case what::decode_paper_chars: {
      auto const out = w == what::decode_paper ? c.out() : c.out_chars();
      if (c.paper().low_plane_bytes() == 8) fastpair::decode_column<fastpair::paper_config<8>>(c.paper(), out, s);
      else fastpair::decode_column<fastpair::paper_config<16>>(c.paper(), out, s);
      finish(c.paper());
    } break;
    case what::h2d_pinned:
      FASTPAIR_CUDA_TRY(cudaMemcpyAsync(t.image.data(), c.pinned.data(), c.stored, cudaMemcpyHostToDevice, s));
      break;
    case what::h2d_pageable:
      FASTPAIR_CUDA_TRY(cudaMemcpyAsync(t.image.data(), c.pageable.data(), c.stored, cudaMemcpyHostToDevice, s));
      break;
    case what::d2d:
      FASTPAIR_CUDA_TRY(cudaMemcpyAsync(t.decoded.data(), c.chars.data(), c.decoded, cudaMemcpyDeviceToDevice, s));
      break;
  }
  return err;
}

/** Seconds of one run: L2 flushed first; host clock to the stream's end (host_timed cases) or
 *  CUDA events around the work. */
double timed_run(cell& c, what w, copy_targets& t)
{
  static cudaEvent_t a = nullptr, b = nullptr;
  if (!a) {
    FASTPAIR_CUDA_TRY(cudaEventCreate(&a));
    FASTPAIR_CUDA_TRY(cudaEventCreate(&b));
  }
  cudaStream_t const s = bench_stream();
  fb::flush_l2(s);
  if (host_timed(w)) {
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
    auto const t0 = std::chrono::steady_clock::now();
    run_case(c, w, s, t, false);
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  FASTPAIR_CUDA_TRY(cudaEventRecord(a, s));
  run_case(c, w, s, t, false);
  FASTPAIR_CUDA_TRY(cudaEventRecord(b, s));
  FASTPAIR_CUDA_TRY(cudaEventSynchronize(b));
  float ms = 0;
  FASTPAIR_CUDA_TRY(cudaEventElapsedTime(&ms, a, b));
  return ms * 1e-3;
}

copy_targets targets_for(cell& c, what w)
{
  copy_targets t;
  if (w == what::h2d_pinned || w == what::h2d_pageable) t.image = fastpair::device_buffer<std::uint8_t>(c.stored, bench_stream());
  if (w == what::d2d) t.decoded = fastpair::device_buffer<char>(c.decoded, bench_stream());
  return t;
}

int iterations() { return static_cast<int>(std::max(1L, fb::env_int("FASTPAIR_BENCH_ITERS", 5))); }

/** The min time of case `w` (1 warm-up + iterations() runs), measured outside a benchmark when
 *  an e2e case needs a rate whose own case did not run (yet, or at all: a --benchmark_filter). */
double measure_min(cell& c, what w)
{
  copy_targets t = targets_for(c, w);
  timed_run(c, w, t);
  double best = 1e30;
  for (int i = 0; i < iterations(); ++i) best = std::min(best, timed_run(c, w, t));
  return best;
}

/** Seconds since the process started (the first call, from main). */
double elapsed_s()
{
  static auto const t0 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void bench_case(benchmark::State& state, std::string const& column, codec kind, what w)
{
  // A time budget (FASTPAIR_E2E_BUDGET_S): once spent, the remaining cases are skipped at once,
  // so that a run on a time-limited machine still ends with complete JSON.
  if (double const budget = static_cast<double>(fb::env_int("FASTPAIR_E2E_BUDGET_S", 0)); budget > 0 && elapsed_s() > budget) {
    state.SkipWithError("skipped: the time budget FASTPAIR_E2E_BUDGET_S was spent");
    return;
  }
  cell& c        = get_cell(column, kind);
  if ((w == what::decode_fc && !c.fused_applies) || (w == what::decode_ss && !c.split_applies)) {
    state.SkipWithError("does not apply to this column (no fused codes above 4 096 entries; no split stream built)");
    return;
  }
  copy_targets t = targets_for(c, w);
  cudaStream_t const s = bench_stream();
  // Warm-up and correctness gate (untimed).
  if (decodes(w)) c.clear_output(s);
  std::uint32_t const err = run_case(c, w, s, t, true);
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
  if (err != 0) {
    state.SkipWithError(("device error word " + std::to_string(err)).c_str());
    return;
  }
  if (decodes(w))
    if (auto const bad = c.mismatches(w == what::decode_chars || w == what::decode_chars_old || w == what::decode_paper_chars); bad != 0) {
      state.SkipWithError(("output differs from the CPU reference in " + std::to_string(bad) + " bytes / offsets").c_str());
      return;
    }
  std::vector<double> times;
  for (auto _ : state) {
    double const sec = timed_run(c, w, t);
    state.SetIterationTime(sec);
    times.push_back(sec);
  }
  if (std::getenv("FASTPAIR_BENCH_PROFILE") != nullptr) {  // one more run, for ncu (untimed)
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
    FASTPAIR_CUDA_TRY(cudaProfilerStart());
    run_case(c, w, s, t, false);
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
    FASTPAIR_CUDA_TRY(cudaProfilerStop());
  }
  double const tmin = fb::min_of(times), tmed = fb::median_of(times);
  if (w == what::h2d_pinned) c.h2d_pinned_s = tmin;
  if (w == what::decode_only) c.decode_s = tmin;

  double const moved = (w == what::h2d_pinned || w == what::h2d_pageable) ? static_cast<double>(c.stored)
                                                                           : static_cast<double>(c.decoded);
  double const ratio = static_cast<double>(c.decoded) / static_cast<double>(c.stored);
  state.SetBytesProcessed(static_cast<std::int64_t>(moved) * state.iterations());
  auto& k            = state.counters;
  k["stored_bytes"]  = static_cast<double>(c.stored);
  k["v1_bytes"]      = static_cast<double>(c.v1);
  k["decoded_bytes"] = static_cast<double>(c.decoded);
  k["rows"]          = static_cast<double>(c.rows);
  k["file_ratio"]    = ratio;
  k["file_ratio_v1"] = static_cast<double>(c.decoded) / static_cast<double>(c.v1);
  k["dev_default"]       = static_cast<double>(c.dev_default);
  k["dev_length_stream"] = static_cast<double>(c.dev_ls);
  k["dev_fused_codes"]   = static_cast<double>(c.dev_fc);
  k["dev_split_stream"]  = static_cast<double>(c.dev_ss);
  k["dev_row_offsets"]   = static_cast<double>(c.dev_ro);
  k["dev_row_lengths"]   = static_cast<double>(c.dev_rl);
  k["rl_default"]        = c.dflt.row_length_bytes();
  k["rl_old"]            = c.old.row_length_bytes();
  k["dev_old_defaults"]  = static_cast<double>(c.dev_old);
  k["dev_borrow_codes"]  = static_cast<double>(c.dev_borrow);
  k["est_default"]       = static_cast<double>(c.est_default);
  k["est_old_defaults"]  = static_cast<double>(c.est_old);
  k["fused_applies"]     = c.fused_applies;
  k["split_applies"]     = c.split_applies;
  k["W"]                 = c.dflt.low_plane_bytes();
  k["paper_W"]           = c.paper_w;
  if (w == what::streamed_pinned || w == what::streamed_pageable) {
    k["dev_streamed"] = static_cast<double>(c.dev_streamed);
    k["groups"]       = static_cast<double>(c.groups);
  }
  k["ms_min"]            = tmin * 1e3;
  k["ms_median"]         = tmed * 1e3;
  k["GBps_min"]          = moved / tmin / 1e9;
  k["GBps_median"]       = moved / tmed / 1e9;
  if (is_e2e(w)) {
    if (c.h2d_pinned_s == 0) c.h2d_pinned_s = measure_min(c, what::h2d_pinned);
    if (c.decode_s == 0) c.decode_s = measure_min(c, what::decode_only);
    double const h2d    = static_cast<double>(c.stored) / c.h2d_pinned_s;
    double const decode = static_cast<double>(c.decoded) / c.decode_s;
    double const bound  = std::min(decode, h2d * ratio);
    k["h2d_pinned_GBps"] = h2d / 1e9;
    k["decode_GBps"]     = decode / 1e9;
    k["bound_GBps"]      = bound / 1e9;
    k["pct_bound"]       = 100.0 * (static_cast<double>(c.decoded) / tmin) / bound;
  }
  if (w == what::decode_paper || w == what::decode_paper_chars)
    state.SetLabel(c.paper().low_plane_bytes() == 8 ? fastpair::config_name<fastpair::paper_config<8>>()
                                                    : fastpair::config_name<fastpair::paper_config<16>>());
  else state.SetLabel(fastpair::auto_config_name(column_of(c, w)));
}

}  // namespace

int main(int argc, char** argv)
{
  elapsed_s();
  setenv("FASTPAIR_BENCH_SOURCE_BYTES", "16777216", 0);  // 16 MiB of each column unless set
  benchmark::Initialize(&argc, argv);
  fb::require_data("fastpair_bench_e2e");
  fb::keep_pool_memory();
  fb::add_machine_context();
  benchmark::AddCustomContext("bench_iterations", std::to_string(iterations()));
  benchmark::AddCustomContext("e2e_destruction", "inside the timed region (asynchronous, stream-ordered)");
  std::vector<std::pair<std::string, codec>> cells;
  for (auto const& column : fb::env_list("FASTPAIR_BENCH_COLUMNS", fb::all_columns_csv())) {
    if (!fastpair::testing::have_column(column)) {
      std::fprintf(stderr, "fastpair_bench_e2e: column %s not in %s, skipped\n", column.c_str(),
                   fastpair::testing::data_dir().c_str());
      continue;
    }
    for (auto const& cname : fb::env_list("FASTPAIR_BENCH_CODECS", "onpair16,onpair12,fsst12")) {
      codec const kind = fastpair::parse_codec(cname);
      cells.emplace_back(column, kind);
      // The rates the e2e bounds use first, then the e2e cases.
      for (what w : {what::h2d_pinned, what::h2d_pageable, what::d2d, what::decode_only, what::decode_only_old,
                     what::decode_chars, what::decode_chars_old, what::decode_paper, what::decode_paper_chars, what::decode_ls, what::decode_fc, what::decode_ss,
                     what::decode_ro, what::decode_rl, what::decode_lean, what::prepare_only, what::prepare_novalidate,
                     what::prepare_device, what::e2e_pinned, what::e2e_pageable, what::e2e_device, what::pipelined_pinned,
                     what::pipelined_pageable, what::pipelined_device, what::pipelined_device_borrow, what::streamed_pinned,
                     what::streamed_pageable}) {
        if ((w == what::decode_fc && fastpair::code_space(kind) > 4096) || (w == what::decode_ss && kind != codec::onpair12))
          continue;  // cannot apply to the codec
        std::string const name = "e2e/" + column + "/" + cname + "/" + name_of(w);
        benchmark::RegisterBenchmark(name.c_str(), fb::guarded([column, kind, w](benchmark::State& s) {
                                       bench_case(s, column, kind, w);
                                     }))
          ->UseManualTime()
          ->Iterations(iterations())
          ->Unit(benchmark::kMillisecond);
      }
    }
  }
  encode_all(cells);
  fb::flush_l2(nullptr);  // allocates the flush scratch (on the legacy stream) before the timed runs use it
  FASTPAIR_CUDA_TRY(cudaDeviceSynchronize());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
