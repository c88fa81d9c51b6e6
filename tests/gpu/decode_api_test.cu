// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// The decode API beyond config coverage: automatic config, sidecar regeneration, CUDA graph
// capture, work queued after a decode, concurrent streams, corrupt device data, bad arguments, and
// a > 4 GiB output.
#include "utils/generators.hpp"
#include "utils/gpu_check.cuh"

#include <fastpair/fastpair.cuh>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ft = fastpair::testing;
using fastpair::codec;

namespace {
fastpair::compressed_column sample_column(codec kind = codec::onpair16, std::uint64_t rows = 5000, std::uint64_t seed = 1)
{
  auto d = ft::make_dictionary(kind, 3000, {1, 16}, seed);
  return ft::random_column(kind, d, rows, {0.9, 0.05, 60}, seed + 1);
}
}  // namespace

namespace {
/** 3000 rows of 1..50 codes whose tokens have two lengths only: of every 10 consecutive codes,
 *  the first `long_per_10` are tokens of `long_len` bytes and the others of `short_len` bytes
 *  (400 random tokens of each length besides the 256 bytes; short_len != long_len). */
fastpair::compressed_column two_length_column(codec kind, int short_len, int long_len, int long_per_10)
{
  auto d        = ft::make_dictionary(kind, 400, {short_len, short_len}, 11);
  auto const dl = ft::make_dictionary(kind, 400, {long_len, long_len}, 12);
  for (std::size_t i = 256; i < dl.size(); ++i) d.push_back(dl.token(i));
  ft::rng r(13);
  std::vector<std::vector<std::uint16_t>> rows(3000);
  std::uint64_t i = 0;
  for (auto& row : rows) {
    row.resize(1 + r.below(50));
    for (auto& c : row) c = static_cast<std::uint16_t>((i++ % 10 < static_cast<std::uint64_t>(long_per_10) ? 656 : 256) + r.below(400));
  }
  return ft::column_from_codes(kind, std::move(d), rows);
}
}  // namespace

TEST_CASE("automatic W and config match the reference", "[gpu][decode]")
{
  // Expected values written out from the documented rules, for columns far from each threshold:
  // - the paper's W (paper_low_plane_bytes, any GPU but sm_90+): 16 iff > 60 % of the coded
  //   tokens exceed 8 bytes; FSST-12 always 8;
  // - sm_90+ W (detail::tuned_low_plane_bytes): FSST-12 8; OnPair-16 8 iff < 14 % exceed 8 bytes
  //   and the mean token is >= 3 bytes; otherwise (OnPair-12 included) 16;
  // - sm_90+ split stream (detail::tuned_split_stream): OnPair-12 with < 20 % longer than 8 bytes;
  // - streamed lengths (select_policy): a length stream, no fused codes and mean token < 9 B;
  // - sm_90+ config: K8 H0 T256 B3 (tuned_config<sm90>); 12-bit columns read fused codes
  //   (.tex.fused), FSST-12 (W 8, no high plane) with the short-token emit (.short); OnPair-16 streams
  //   lengths (.tex.lenstream) or gathers them (.tex); a split stream decodes with the split config.
  // These need the accelerators, which are opt-in (prepare_options): length stream, fused codes,
  // split stream. A default (lean) column has none of them and decodes the same bytes.
  struct expectation {
    codec kind;
    int short_len, long_len, long_per_10;  // the column: see two_length_column
    double mean;                           // its mean token length, by hand
    int paper_w, sm90_w;
    bool streamed, split;
    char const* sm90_config;
  };
  expectation const cases[] = {
    // 0 % long, mean 4: W 8, streamed
    {codec::onpair16, 4, 12, 0, 4.0, 8, 8, true, false, "k8.w8.h0.t256.b3.tex.lenstream"},
    // 10 % long (< 14 %), mean 0.9 * 4 + 0.1 * 12 = 4.8 (>= 3): W 8
    {codec::onpair16, 4, 12, 1, 4.8, 8, 8, true, false, "k8.w8.h0.t256.b3.tex.lenstream"},
    // 0 % long but mean 2 (< 3): W 16 on sm_90, streamed
    {codec::onpair16, 2, 12, 0, 2.0, 8, 16, true, false, "k8.w16.h0.t256.b3.tex.lenstream"},
    // 30 % long (>= 14 %, <= 60 %), mean 6.4: sm_90 W 16, paper W 8, streamed
    {codec::onpair16, 4, 12, 3, 6.4, 8, 16, true, false, "k8.w16.h0.t256.b3.tex.lenstream"},
    // 100 % long, mean 12 (>= 9): W 16 everywhere, lengths gathered
    {codec::onpair16, 4, 12, 10, 12.0, 16, 16, false, false, "k8.w16.h0.t256.b3.tex"},
    // OnPair-12, 0 % and 10 % long (< 20 %): split stream; its columns keep W 16
    {codec::onpair12, 4, 12, 0, 4.0, 8, 16, true, true, "k8.w8.h0.t256.b3.short.tex.fused.split"},
    {codec::onpair12, 4, 12, 1, 4.8, 8, 16, true, true, "k8.w8.h0.t256.b3.short.tex.fused.split"},
    // OnPair-12, 30 % and 100 % long: no split stream, fused codes at W 16
    {codec::onpair12, 4, 12, 3, 6.4, 8, 16, true, false, "k8.w16.h0.t256.b3.tex.fused"},
    {codec::onpair12, 4, 12, 10, 12.0, 16, 16, false, false, "k8.w16.h0.t256.b3.tex.fused"},
    // FSST-12: W 8 and the short-token emit, whatever the lengths (tokens of 4 or of 8 bytes)
    {codec::fsst12, 4, 8, 0, 4.0, 8, 8, true, false, "k8.w8.h0.t256.b3.short.tex.fused"},
    {codec::fsst12, 4, 8, 10, 8.0, 8, 8, true, false, "k8.w8.h0.t256.b3.short.tex.fused"},
  };
  auto const arch            = fastpair::detail::current_arch_bucket();
  bool const hopper_or_newer = arch == fastpair::arch_bucket::sm90 || arch == fastpair::arch_bucket::sm100;
  if (!hopper_or_newer) WARN("not an sm_90+ GPU: only the paper's W is checked, not the sm_90 W and configs");
  for (auto const& e : cases) {
    CAPTURE(fastpair::codec_name(e.kind), e.short_len, e.long_len, e.long_per_10);
    auto const col  = two_length_column(e.kind, e.short_len, e.long_len, e.long_per_10);
    auto const hist = fastpair::token_length_histogram(col);
    // The input is what the expectations assume (to rounding over the last partial 10 codes).
    REQUIRE(fastpair::share_longer_than(hist, 8) == Approx(e.long_len > 8 ? e.long_per_10 / 10.0 : 0.0).margin(1e-3));
    REQUIRE(fastpair::mean_token_length(hist) == Approx(e.mean).margin(1e-2));
    REQUIRE(fastpair::paper_low_plane_bytes(e.kind, hist) == e.paper_w);
    fastpair::prepare_options accel;
    accel.length_stream = accel.fused_codes = accel.split_stream = true;
    auto const dcol = fastpair::device_column::prepare(col, {}, accel);
    REQUIRE(dcol.low_plane_bytes() == (hopper_or_newer ? e.sm90_w : e.paper_w));
    if (e.kind == codec::fsst12) REQUIRE(!dcol.has_high_plane());
    // 12-bit columns get the fused code stream, OnPair-16 columns cannot have one.
    REQUIRE(dcol.has_fused_codes() == (e.kind != codec::onpair16));
    REQUIRE(dcol.has_length_stream());
    // The policy is a host function of the column and the bucket: checked for sm_90 on any GPU.
    using G          = fastpair::gather_strategy;
    auto const sm90p = fastpair::select_policy(dcol, fastpair::arch_bucket::sm90);
    REQUIRE(sm90p.arch == fastpair::arch_bucket::sm90);
    REQUIRE(sm90p.low_plane_bytes == dcol.low_plane_bytes());
    REQUIRE(sm90p.gather == (dcol.has_fused_codes() ? G::texture_low_fused
                             : e.streamed           ? G::texture_low_streamed
                                                    : G::texture_low));
    REQUIRE((sm90p.emit == fastpair::emit_strategy::register_words_short) == (e.kind == codec::fsst12));
    REQUIRE(sm90p.split_stream == dcol.has_split_stream());
    REQUIRE(fastpair::select_policy(dcol, fastpair::arch_bucket::sm100).gather == sm90p.gather);  // sm_90 entries
    auto const generic = fastpair::select_policy(dcol, fastpair::arch_bucket::generic);  // the paper's
    REQUIRE(generic.gather == G::global);
    REQUIRE(generic.emit == fastpair::emit_strategy::staged_bytes);
    REQUIRE_FALSE(generic.split_stream);
    if (hopper_or_newer) {
      REQUIRE(dcol.has_split_stream() == e.split);
      REQUIRE(fastpair::auto_config_name(dcol) == std::string(e.sm90_config));
    } else {
      REQUIRE(!dcol.has_split_stream());
    }
    ft::check_decode<fastpair::auto_config>(dcol, fastpair::decode_reference(col), 0, col.num_rows());
    auto const back = fastpair::decompress(dcol).to_host();
    REQUIRE(back == fastpair::decode_reference(col));
    // The default column: the same W, no accelerator, the same bytes.
    auto const lean = fastpair::device_column::prepare(col);
    REQUIRE(lean.low_plane_bytes() == dcol.low_plane_bytes());
    REQUIRE_FALSE(lean.has_fused_codes());
    REQUIRE_FALSE(lean.has_length_stream());
    REQUIRE_FALSE(lean.has_split_stream());
    REQUIRE_FALSE(lean.has_row_offsets());
    REQUIRE(fastpair::select_policy(lean, fastpair::arch_bucket::sm90).gather == G::texture_low);
    REQUIRE(lean.device_bytes() < dcol.device_bytes());
    ft::check_decode<fastpair::auto_config>(lean, fastpair::decode_reference(col), 0, col.num_rows());
    REQUIRE(fastpair::decompress(lean).to_host() == fastpair::decode_reference(col));
  }
}

TEST_CASE("a column without a sidecar gets one regenerated on the GPU", "[gpu][decode]")
{
  auto col = sample_column(codec::onpair12, 4000, 5);
  auto const stored = col.sidecar;
  col.sidecar.clear();
  fastpair::prepare_options opt;
  opt.low_plane_bytes = 8;
  auto const dcol = fastpair::device_column::prepare(col, {}, opt);
  ft::check_decode<fastpair::auto_config>(dcol, fastpair::decode_reference(col), 0, col.num_rows());
  // The regenerated sidecar equals the one computed on the host.
  auto const v = dcol.view<8>();
  std::vector<std::uint64_t> h(stored.size());
  FASTPAIR_CUDA_TRY(cudaMemcpy(h.data(), v.sidecar, h.size() * 8, cudaMemcpyDeviceToHost));
  REQUIRE(h == stored);
}

TEST_CASE("decode_column is capturable in a CUDA graph", "[gpu][decode]")
{
  auto const col    = sample_column();
  auto const dcol   = fastpair::device_column::prepare(col);
  auto const expect = fastpair::decode_reference(col);
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(nullptr));  // prepared on the default stream, decoded on others
  cudaStream_t s;
  FASTPAIR_CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  {  // buffers are freed on `s`, so they must go before the stream
    fastpair::device_buffer<std::int64_t> off(col.num_rows() + 1, s);
    fastpair::device_buffer<char> chars(col.decoded_bytes(), s);
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
    fastpair::string_column_view<std::int64_t> out{off.data(), chars.data(), col.num_rows(), chars.size()};
    cudaGraph_t graph;
    FASTPAIR_CUDA_TRY(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    fastpair::decode_column(dcol, out, s);
    FASTPAIR_CUDA_TRY(cudaStreamEndCapture(s, &graph));
    cudaGraphExec_t exec;
    FASTPAIR_CUDA_TRY(cudaGraphInstantiate(&exec, graph, 0));
    FASTPAIR_CUDA_TRY(cudaMemsetAsync(chars.data(), 0, chars.size(), s));
    FASTPAIR_CUDA_TRY(cudaMemsetAsync(off.data(), 0xFF, off.size() * sizeof(std::int64_t), s));
    for (int i = 0; i < 3; ++i) FASTPAIR_CUDA_TRY(cudaGraphLaunch(exec, s));
    std::vector<char> h(chars.size());
    std::vector<std::int64_t> ho(off.size());
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(h.data(), chars.data(), h.size(), cudaMemcpyDeviceToHost, s));
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(ho.data(), off.data(), ho.size() * sizeof(std::int64_t), cudaMemcpyDeviceToHost, s));
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
    REQUIRE(h == expect.chars);
    REQUIRE(ho == std::vector<std::int64_t>(expect.offsets.begin(), expect.offsets.end()));
    REQUIRE(dcol.read_and_clear_errors(s) == 0);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
  }
  cudaStreamDestroy(s);
}

TEST_CASE("concurrent decodes of row ranges on several streams", "[gpu][decode]")
{
  auto const col  = sample_column(codec::onpair16, 20000, 9);
  auto const dcol = fastpair::device_column::prepare(col);
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(nullptr));  // prepared on the default stream, decoded on others
  constexpr int parts = 4;
  std::vector<cudaStream_t> streams(parts);
  for (auto& s : streams) FASTPAIR_CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  std::vector<fastpair::string_column<std::int32_t>> outs;
  std::uint64_t const n = col.num_rows();
  for (int p = 0; p < parts; ++p)
    outs.push_back(fastpair::decompress<std::int32_t>(dcol, n * p / parts, n * (p + 1) / parts, streams[p]));
  for (int p = 0; p < parts; ++p)
    REQUIRE(outs[p].to_host(streams[p]) == fastpair::decode_reference(col, n * p / parts, n * (p + 1) / parts));
  outs.clear();
  for (auto s : streams) cudaStreamDestroy(s);
}

TEST_CASE("corrupt device data is reported and never written outside the output", "[gpu][decode][corrupt]")
{
  auto const col    = sample_column(codec::onpair12, 3000, 11);
  auto const expect = fastpair::decode_reference(col);
  // Both W; with fused codes the automatic config reads the fused stream, without them the codes:
  // the corruption goes into the stream that is read.
  int const w      = GENERATE(8, 16);
  bool const fused = GENERATE(true, false);
  INFO("W = " << w << (fused ? ", fused codes" : ", codes"));
  fastpair::prepare_options opt;
  opt.low_plane_bytes = w;
  opt.fused_codes     = fused;
  auto const dcol = fastpair::device_column::prepare(col, {}, opt);
  auto const read = [&](auto const& v) { return fused ? v.code_words : v.codes; };
  auto* const codes   = const_cast<std::uint16_t*>(w == 8 ? read(dcol.view<8>()) : read(dcol.view<16>()));
  auto* const sidecar = const_cast<std::uint64_t*>(w == 8 ? dcol.view<8>().sidecar : dcol.view<16>().sidecar);
  SECTION("a code >= the dictionary size")
  {
    if (fused) {
      // fused words keep the low 12 bits as the code: 4095 and the dictionary size in both forms
      std::uint16_t bad[3] = {4095, 65535, static_cast<std::uint16_t>(col.dict.size())};
      FASTPAIR_CUDA_TRY(cudaMemcpy(codes + 17, bad, sizeof bad, cudaMemcpyHostToDevice));
    } else {
      // the 12-bit codes stay packed as stored (view().code_bits == 12, 2 codes in 3 bytes):
      // codes 18 and 19 become 4095 (>= the 3 256 entries), code 20 the dictionary size
      REQUIRE((w == 8 ? dcol.view<8>().code_bits : dcol.view<16>().code_bits) == 12);
      REQUIRE(col.dict.size() < 4095);
      auto const n = static_cast<std::uint32_t>(col.dict.size());
      std::uint8_t bad[5] = {0xFF, 0xFF, 0xFF, static_cast<std::uint8_t>(n), 0};
      FASTPAIR_CUDA_TRY(cudaMemcpy(bad + 4, reinterpret_cast<std::uint8_t*>(codes) + 31, 1, cudaMemcpyDeviceToHost));
      bad[4] = static_cast<std::uint8_t>((bad[4] & 0xF0u) | (n >> 8 & 0xFu));  // keeps code 21's low nibble
      FASTPAIR_CUDA_TRY(cudaMemcpy(reinterpret_cast<std::uint8_t*>(codes) + 27, bad, sizeof bad, cudaMemcpyHostToDevice));
    }
    REQUIRE_THROWS_AS(fastpair::decompress(dcol), fastpair::decode_error);
    REQUIRE_THROWS_WITH(fastpair::decompress(dcol), Catch::Contains("dictionary size"));
  }
  SECTION("a sidecar inconsistent with the token lengths")
  {
    for (std::uint64_t bad : {std::uint64_t{0}, std::uint64_t{1} << 40, col.decoded_bytes() - 3}) {
      FASTPAIR_CUDA_TRY(cudaMemcpy(sidecar + 2, &bad, 8, cudaMemcpyHostToDevice));
      // The guard bytes around the output stay untouched; the error word reports the mismatch.
      std::uint64_t const bytes = col.decoded_bytes();
      fastpair::device_buffer<unsigned char> raw(bytes + 2 * ft::guard, cudaStream_t{});
      fastpair::device_buffer<std::int64_t> off(col.num_rows() + 1, cudaStream_t{});
      FASTPAIR_CUDA_TRY(cudaMemset(raw.data(), ft::poison, raw.size()));
      fastpair::string_column_view<std::int64_t> out{off.data(), reinterpret_cast<char*>(raw.data() + ft::guard),
                                                     col.num_rows(), bytes};
      fastpair::decode_column(dcol, out);
      REQUIRE((dcol.read_and_clear_errors() & fastpair::sidecar_mismatch) != 0);
      std::vector<unsigned char> h(raw.size());
      FASTPAIR_CUDA_TRY(cudaMemcpy(h.data(), raw.data(), h.size(), cudaMemcpyDeviceToHost));
      for (std::size_t i = 0; i < ft::guard; ++i) REQUIRE(h[i] == ft::poison);
      for (std::size_t i = ft::guard + bytes; i < h.size(); ++i) REQUIRE(h[i] == ft::poison);
    }
  }
}

TEST_CASE("bad arguments are rejected with a clear error", "[gpu][decode]")
{
  auto const col  = sample_column(codec::onpair16, 1000, 13);
  auto const dcol = fastpair::device_column::prepare(col);
  fastpair::device_buffer<std::int64_t> off(col.num_rows() + 1, cudaStream_t{});
  fastpair::device_buffer<char> chars(col.decoded_bytes(), cudaStream_t{});
  fastpair::string_column_view<std::int64_t> small{off.data(), chars.data(), col.num_rows(), col.decoded_bytes() - 1};
  REQUIRE_THROWS_WITH(fastpair::decode_column(dcol, small), Catch::Contains("capacity"));
  fastpair::string_column_view<std::int64_t> rows{off.data(), chars.data(), col.num_rows() - 1, col.decoded_bytes()};
  REQUIRE_THROWS_WITH(fastpair::decode_column(dcol, rows), Catch::Contains("rows"));
  REQUIRE_THROWS_WITH(fastpair::decompress(dcol, 10, 5), Catch::Contains("row range"));
  int const other_w = dcol.low_plane_bytes() == 8 ? 16 : 8;
  fastpair::string_column_view<std::int64_t> ok{off.data(), chars.data(), col.num_rows(), col.decoded_bytes()};
  if (other_w == 16)
    REQUIRE_THROWS_WITH(fastpair::decode_column<fastpair::paper_config<16>>(dcol, ok), Catch::Contains("low plane width"));
  else
    REQUIRE_THROWS_WITH(fastpair::decode_column<fastpair::paper_config<8>>(dcol, ok), Catch::Contains("low plane width"));
  auto bad = col;
  bad.codes[5] ^= 0xFF;  // host-side corruption is caught by validation before upload
  bad.codes[6] ^= 0xFF;
  REQUIRE_THROWS_AS(fastpair::device_column::prepare(bad), fastpair::format_error);
}

TEST_CASE("row offsets at int32 and int64 stay inside their buffer; null offsets decode the chars only", "[gpu][decode]")
{
  using paper16 = fastpair::paper_config<16>;
  using words16 = fastpair::decode_config<8, 16, 0, 256, 3, fastpair::emit_strategy::register_words>;
  // Many short rows (1-byte row lengths), a few long rows (2-byte), rows of up to 96 KiB (too
  // long for compact lengths), a mix with 30 % empty rows, and rows of 1..200 codes (20 % empty)
  // at two strides; each prepared for every offsets pass: derived from the codes and the stored
  // row code counts (no row lengths, no row offsets), copied from the 8-byte row offsets
  // (prepare_options::row_offsets), from the compact row lengths (prepare_options::
  // row_lengths_max_share large; they take precedence over the row offsets), and with the default
  // share. Whole columns and row ranges; 4 guard offsets
  // on each side (check_decode) or 2 (chars only).
  struct offsets_path {
    char const* name;
    double share;  // prepare_options::row_lengths_max_share
    bool row_offsets;
  };
  struct shape {
    std::uint64_t rows;
    fastpair::testing::code_mix mix;
    std::uint32_t stride;
    ft::length_mix lens;
  };
  // Under compute-sanitizer (FASTPAIR_TEST_LIGHT) the offsets derived from the codes only, on a
  // column of short rows (the pass's row-block walk) and two of long rows (its segment walk), with
  // the automatic configuration: racecheck's cost per shared-memory access makes the whole matrix
  // outrun its time limit.
  bool const light = std::getenv("FASTPAIR_TEST_LIGHT") != nullptr;
  std::vector<shape> shapes = {shape{20000, {0.9, 0.0, 2}, 768, {1, 16}}, shape{7, {0.0, 0.0, 3000}, 100, {1, 16}},
                               shape{4, {0.0, 0.0, 12000, true}, 512, {16, 16}}, shape{3000, {1.1, 0.3, 20}, 96, {1, 16}},
                               shape{2100, {0.0, 0.2, 200}, 768, {1, 16}}, shape{2100, {0.0, 0.2, 200}, 5000, {1, 16}}};
  std::vector<offsets_path> paths = {offsets_path{"from the codes", 0.0, false}, offsets_path{"copied", 0.0, true},
                                     offsets_path{"row lengths", 1e9, false}, offsets_path{"row lengths + offsets", 1e9, true},
                                     offsets_path{"default share", fastpair::prepare_options{}.row_lengths_max_share, false}};
  if (light) {
    shapes = {shapes[0], shapes[3], shapes[4]};
    paths.resize(1);
  }
  std::set<std::pair<int, bool>> seen;  // (row_length_bytes, row offsets) of each column prepared
  for (auto const& sh : shapes) {
    for (auto kind : {codec::onpair16, codec::onpair12, codec::fsst12}) {
      auto d         = ft::make_dictionary(kind, 3000, sh.lens, 21);
      auto const col = ft::random_column(kind, d, sh.rows, sh.mix, 22, sh.stride);
      for (auto const& path : paths) {
        INFO(fastpair::codec_name(kind) << ", " << sh.rows << " rows, offsets " << path.name);
        bool const offsets = path.row_offsets;
        fastpair::prepare_options opt;
        opt.row_offsets           = offsets;
        opt.row_lengths_max_share = path.share;
        auto const dcol = fastpair::device_column::prepare(col, {}, opt);
        REQUIRE(dcol.has_row_offsets() == offsets);
        // Compact row lengths: 1 byte if every row is <= 255 bytes, 2 if <= 65 535, else none.
        std::uint64_t longest = 0;
        for (std::uint64_t r = 0; r < col.num_rows(); ++r)
          longest = std::max(longest, col.row_byte_offsets[r + 1] - col.row_byte_offsets[r]);
        int const width = longest <= 0xFF ? 1 : longest <= 0xFFFF ? 2 : 0;
        if (path.share == 0.0) REQUIRE(dcol.row_length_bytes() == 0);
        if (path.share > 1.0) REQUIRE(dcol.row_length_bytes() == width);
        REQUIRE((dcol.device_row_lengths() != nullptr) == (dcol.row_length_bytes() != 0));
        if (dcol.row_length_bytes() != 0) {
          std::vector<std::uint8_t> h(col.num_rows() * dcol.row_length_bytes());
          FASTPAIR_CUDA_TRY(cudaMemcpy(h.data(), dcol.device_row_lengths(), h.size(), cudaMemcpyDeviceToHost));
          for (std::uint64_t r = 0; r < col.num_rows(); ++r) {
            std::uint64_t const got = dcol.row_length_bytes() == 1 ? h[r] : h[2 * r] | std::uint64_t{h[2 * r + 1]} << 8;
            REQUIRE(got == col.row_byte_offsets[r + 1] - col.row_byte_offsets[r]);
          }
        }
        if (offsets) {
          std::vector<std::uint64_t> co(col.num_rows() + 1), bo(col.num_rows() + 1);
          FASTPAIR_CUDA_TRY(cudaMemcpy(co.data(), dcol.device_row_code_offsets(), co.size() * 8, cudaMemcpyDeviceToHost));
          FASTPAIR_CUDA_TRY(cudaMemcpy(bo.data(), dcol.device_row_byte_offsets(), bo.size() * 8, cudaMemcpyDeviceToHost));
          REQUIRE(co == col.row_code_offsets);
          REQUIRE(bo == col.row_byte_offsets);
        } else {
          REQUIRE_THROWS_AS(dcol.device_row_byte_offsets(), std::logic_error);
          REQUIRE_THROWS_AS(dcol.device_row_code_offsets(), std::logic_error);
        }
        seen.insert({dcol.row_length_bytes(), offsets});
        std::uint64_t const n = col.num_rows();
        for (auto [r0, r1] : {std::pair<std::uint64_t, std::uint64_t>{0, n}, {n / 3, n - n / 4}, {n / 2, n / 2 + 1}}) {
          auto const expect = fastpair::decode_reference(col, r0, r1);
          ft::check_decode<fastpair::auto_config, std::int32_t>(dcol, expect, r0, r1, 3);
          if (light) continue;
          if (dcol.low_plane_bytes() == 16) {
            ft::check_decode<paper16, std::int32_t>(dcol, expect, r0, r1, 5);
            ft::check_decode<words16, std::int64_t>(dcol, expect, r0, r1, 1);
          } else {
            ft::check_decode<fastpair::auto_config, std::int64_t>(dcol, expect, r0, r1, 1);
          }
          // chars only: the offsets buffer stays untouched
          ft::guarded_output<std::int64_t> out(r1 - r0, expect.chars.size(), 7, nullptr, ft::poison, 0xFF, 2);
          auto v    = out.view();
          v.offsets = nullptr;
          fastpair::decode_column(dcol, r0, r1, v);
          REQUIRE(dcol.read_and_clear_errors() == 0);
          out.require_equal(expect, nullptr, false);
        }
      }
    }
  }
  // every offsets pass ran: from the codes, copied, from 1- and 2-byte row lengths
  REQUIRE(seen.count({0, false}) == 1);
  if (light) return;
  REQUIRE(seen.count({0, true}) == 1);
  REQUIRE(seen.count({1, false}) == 1);
  REQUIRE(seen.count({2, false}) == 1);
  // A column of empty rows only: no chars, the offsets on their own (or nothing at all).
  auto const empty = ft::random_column(codec::onpair16, ft::make_dictionary(codec::onpair16, 10, {1, 4}, 1), 50,
                                       {0.0, 1.0, 4}, 2);
  REQUIRE(empty.decoded_bytes() == 0);
  for (bool const offsets : {false, true}) {
    for (double const share : {0.0, 1e9}) {
    fastpair::prepare_options opt;
    opt.row_offsets           = offsets;
    opt.row_lengths_max_share = share;
    auto const dempty = fastpair::device_column::prepare(empty, {}, opt);
    REQUIRE(dempty.row_length_bytes() == (share > 1.0 ? 1 : 0));
    ft::check_decode<fastpair::auto_config, std::int32_t>(dempty, fastpair::decode_reference(empty), 0, 50);
    ft::check_decode<fastpair::auto_config, std::int64_t>(dempty, fastpair::decode_reference(empty, 3, 47), 3, 47);
    fastpair::string_column_view<std::int64_t> none{nullptr, nullptr, 50, 0};
    fastpair::decode_column(dempty, none);
    FASTPAIR_CUDA_TRY(cudaDeviceSynchronize());
    REQUIRE(dempty.read_and_clear_errors() == 0);
    }
  }
}

TEST_CASE("work queued after decode_column sees its chars and offsets", "[gpu][decode]")
{
  // On sm_90 the offsets pass is launched beside the decode (programmatic stream serialization)
  // and may finish first; whatever follows on the stream must still wait for both. A decode that
  // takes far longer than its offsets pass (few, long rows; the paper config is the slowest), then
  // device-to-device copies queued at once on the same stream.
  auto const col    = ft::random_column(codec::onpair16, ft::make_dictionary(codec::onpair16, 3000, {8, 16}, 5), 600,
                                        {0.0, 0.0, 4000}, 6);
  // Every offsets pass: from the 2-byte row lengths (the default builds them: 1 200 bytes for
  // a column of 2.4 MB), copied from the row offsets, derived from the codes.
  int const path = GENERATE(0, 1, 2);
  INFO((path == 0 ? "row lengths (default)" : path == 1 ? "row offsets copied" : "from the codes"));
  fastpair::prepare_options opt;
  opt.row_offsets = path == 1;
  if (path != 0) opt.row_lengths_max_share = 0;
  auto const dcol   = fastpair::device_column::prepare(col, {}, opt);
  auto const expect = fastpair::decode_reference(col);
  REQUIRE(dcol.has_row_offsets() == (path == 1));
  REQUIRE(dcol.row_length_bytes() == (path == 0 ? 2 : 0));
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(nullptr));  // prepared on the default stream, decoded on others
  cudaStream_t s;
  FASTPAIR_CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  auto run = [&](auto config_tag) {
    using Config = typename decltype(config_tag)::type;
    fastpair::device_buffer<std::int64_t> off(col.num_rows() + 1, s), off_copy(off.size(), s);
    fastpair::device_buffer<char> chars(col.decoded_bytes(), s), chars_copy(chars.size(), s);
    FASTPAIR_CUDA_TRY(cudaMemsetAsync(chars.data(), 0, chars.size(), s));
    FASTPAIR_CUDA_TRY(cudaMemsetAsync(off.data(), 0xFF, off.size() * sizeof(std::int64_t), s));
    fastpair::string_column_view<std::int64_t> out{off.data(), chars.data(), col.num_rows(), chars.size()};
    fastpair::decode_column<Config>(dcol, out, s);
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(off_copy.data(), off.data(), off.size() * sizeof(std::int64_t),
                                      cudaMemcpyDeviceToDevice, s));
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(chars_copy.data(), chars.data(), chars.size(), cudaMemcpyDeviceToDevice, s));
    std::vector<char> h(chars.size());
    std::vector<std::int64_t> ho(off.size());
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(h.data(), chars_copy.data(), h.size(), cudaMemcpyDeviceToHost, s));
    FASTPAIR_CUDA_TRY(
      cudaMemcpyAsync(ho.data(), off_copy.data(), ho.size() * sizeof(std::int64_t), cudaMemcpyDeviceToHost, s));
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
    CHECK(dcol.read_and_clear_errors(s) == 0);
    CHECK(ho == std::vector<std::int64_t>(expect.offsets.begin(), expect.offsets.end()));
    CHECK(h == expect.chars);
  };
  run(std::common_type<fastpair::auto_config>{});
  run(std::common_type<fastpair::paper_config<16>>{});
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
  cudaStreamDestroy(s);
}

TEST_CASE("without a length stream the automatic config gathers lengths", "[gpu][decode]")
{
  auto d         = ft::make_dictionary(codec::onpair16, 2000, {2, 6}, 21);
  auto const col = ft::random_column(codec::onpair16, d, 3000, {0.0, 0.05, 50, true}, 22);
  fastpair::prepare_options opt;
  opt.length_stream   = false;
  opt.low_plane_bytes = 16;
  auto const dcol     = fastpair::device_column::prepare(col, {}, opt);
  REQUIRE_FALSE(dcol.has_length_stream());
  REQUIRE(dcol.view<16>().code_lengths == nullptr);
  REQUIRE(fastpair::select_policy(dcol, fastpair::arch_bucket::sm90).gather == fastpair::gather_strategy::texture_low);
  auto const arch = fastpair::detail::current_arch_bucket();
  if (arch == fastpair::arch_bucket::sm90 || arch == fastpair::arch_bucket::sm100)
    REQUIRE(fastpair::auto_config_name(dcol) ==
            "k8.w" + std::to_string(dcol.low_plane_bytes()) + ".h0.t256.b3.tex");
  ft::check_decode<fastpair::auto_config>(dcol, fastpair::decode_reference(col), 0, col.num_rows());
}

TEST_CASE("OnPair-12 columns of short tokens decode through their split stream", "[gpu][decode]")
{
  // 3000 tokens of 2..6 bytes and 300 of 9..16 (about 8 % of the codes): under the 20 % rule.
  auto d = ft::make_dictionary(codec::onpair12, 3000, {2, 6}, 61);
  for (int i = 0; i < 300; ++i) d.push_back("Lo" + std::to_string(100000 + i) + std::string(1 + i % 8, 'x'));  // 9..16 B
  auto const arch = fastpair::detail::current_arch_bucket();
  bool const hopper_or_newer = arch == fastpair::arch_bucket::sm90 || arch == fastpair::arch_bucket::sm100;
  for (std::uint32_t stride : {1u, 33u, 256u, 768u}) {
    INFO("stride " << stride);
    auto const col  = ft::random_column(codec::onpair12, d, 2000, {0.0, 0.1, 60}, 62 + stride, stride);
    auto const hist = fastpair::token_length_histogram(col);
    REQUIRE(fastpair::share_longer_than(hist, 8) > 0.02);
    REQUIRE(fastpair::share_longer_than(hist, 8) < 0.2);
    fastpair::prepare_options accel;  // the split stream and fused codes are opt-in
    accel.split_stream = accel.fused_codes = accel.length_stream = true;
    auto const dcol = fastpair::device_column::prepare(col, {}, accel);
    REQUIRE(dcol.has_split_stream() == hopper_or_newer);
    if (hopper_or_newer) {
      REQUIRE(fastpair::auto_config_name(dcol) == "k8.w8.h0.t256.b3.short.tex.fused.split");
      REQUIRE(dcol.split_row_code_offsets().size() == col.num_rows() + 1);
      REQUIRE(dcol.split_row_code_offsets().back() > col.num_codes);  // long tokens took two codes
    }
    auto const ref = fastpair::decode_reference(col);
    ft::check_decode<fastpair::auto_config>(dcol, ref, 0, col.num_rows());
    for (std::uint64_t r0 = 0; r0 < 24; ++r0) {
      std::uint64_t const r1 = std::min<std::uint64_t>(col.num_rows(), r0 + 1 + (r0 * 53) % 700);
      ft::check_decode<fastpair::auto_config>(dcol, fastpair::decode_reference(col, r0, r1), r0, r1,
                                              static_cast<unsigned>(r0 % 16));
    }
    REQUIRE(fastpair::decompress(dcol).to_host() == ref);
    if (hopper_or_newer && stride == 768u) {  // a corrupt split word is reported like a corrupt code
      auto* const words       = const_cast<std::uint16_t*>(dcol.split_view().code_words);
      std::uint16_t const bad = 8191;  // code 8191: past the split dictionary
      std::uint16_t good      = 0;
      FASTPAIR_CUDA_TRY(cudaMemcpy(&good, words + 5, 2, cudaMemcpyDeviceToHost));
      FASTPAIR_CUDA_TRY(cudaMemcpy(words + 5, &bad, 2, cudaMemcpyHostToDevice));
      REQUIRE_THROWS_WITH(fastpair::decompress(dcol), Catch::Contains("dictionary size"));
      FASTPAIR_CUDA_TRY(cudaMemcpy(words + 5, &good, 2, cudaMemcpyHostToDevice));
      REQUIRE(fastpair::decompress(dcol).to_host() == ref);
    }
    // Explicit configs still decode the column's own codes.
    ft::check_decode<fastpair::paper_config<16>>(dcol, ref, 0, col.num_rows());
    // Without the split stream: fused codes, as for any OnPair-12 column.
    fastpair::prepare_options opt = accel;
    opt.split_stream = false;
    auto const plain = fastpair::device_column::prepare(col, {}, opt);
    REQUIRE_FALSE(plain.has_split_stream());
    REQUIRE_THROWS_AS(plain.split_view(), std::logic_error);
    if (hopper_or_newer) REQUIRE(fastpair::auto_config_name(plain) == "k8.w16.h0.t256.b3.tex.fused");
  }
  // Mostly long tokens: no split stream.
  auto const long_col = ft::random_column(codec::onpair12, ft::make_dictionary(codec::onpair12, 2000, {9, 16}, 63), 500,
                                          {0.0, 0.0, 40, true}, 64);
  fastpair::prepare_options accel;
  accel.split_stream = accel.fused_codes = true;
  REQUIRE_FALSE(fastpair::device_column::prepare(long_col, {}, accel).has_split_stream());
  // The default column has no split stream either (opt-in), whatever its tokens.
  auto const short_col = ft::random_column(codec::onpair12, d, 500, {0.0, 0.1, 60}, 65);
  REQUIRE_FALSE(fastpair::device_column::prepare(short_col).has_split_stream());
}

TEST_CASE("without fused codes a 12-bit column's automatic config streams or gathers lengths", "[gpu][decode]")
{
  for (auto kind : {codec::onpair12, codec::fsst12}) {
    auto d         = ft::make_dictionary(kind, 2000, {2, 8}, 23);
    auto const col = ft::random_column(kind, d, 3000, {0.0, 0.05, 50, true}, 24);
    fastpair::prepare_options opt;
    opt.fused_codes   = false;
    opt.split_stream  = false;  // all tokens are short: OnPair-12 would otherwise decode its split stream
    opt.length_stream = true;   // opt-in: what the automatic config streams
    auto const dcol = fastpair::device_column::prepare(col, {}, opt);
    REQUIRE_FALSE(dcol.has_fused_codes());
    REQUIRE_FALSE(dcol.has_split_stream());
    REQUIRE((dcol.low_plane_bytes() == 8 ? dcol.view<8>().code_words : dcol.view<16>().code_words) == nullptr);
    auto const arch = fastpair::detail::current_arch_bucket();
    // W = 8 without a high plane (FSST-12) takes the short-token emit, with streamed lengths too.
    std::string const emit = dcol.low_plane_bytes() == 8 && !dcol.has_high_plane() ? ".short" : "";
    if (arch == fastpair::arch_bucket::sm90 || arch == fastpair::arch_bucket::sm100)
      REQUIRE(fastpair::auto_config_name(dcol) ==
              "k8.w" + std::to_string(dcol.low_plane_bytes()) + ".h0.t256.b3" + emit + ".tex.lenstream");
    ft::check_decode<fastpair::auto_config>(dcol, fastpair::decode_reference(col), 0, col.num_rows());
  }
}

TEST_CASE("fused codes and the short-token emit are refused where they do not apply", "[gpu][decode]")
{
  using G      = fastpair::gather_strategy;
  using swords = fastpair::decode_config<8, 8, 0, 256, 3, fastpair::emit_strategy::register_words_short,
                                         G::texture_low_streamed>;
  using texlf  = fastpair::decode_config<8, 8, 0, 256, 3, fastpair::emit_strategy::register_words, G::texture_low_fused>;
  static_assert(std::is_same_v<fastpair::with_gathered_lengths<texlf>::type,
                               fastpair::decode_config<8, 8, 0, 256, 3, fastpair::emit_strategy::register_words,
                                                       G::texture_low>>);
  REQUIRE(fastpair::config_name<swords>() == "k8.w8.h0.t256.b3.short.tex.lenstream");
  REQUIRE(fastpair::config_name<texlf>() == "k8.w8.h0.t256.b3.tex.fused");
  REQUIRE(fastpair::config_name<fastpair::paper_config<16>>() == "k6.w16.h1.t256.b4.staged");
  REQUIRE(fastpair::config_name<fastpair::decode_config<4, 8, 0, 128, 2>>() == "k4.w8.h0.t128.b2");
  fastpair::prepare_options opt;
  opt.low_plane_bytes = 8;
  opt.length_stream   = true;  // swords streams lengths: the refusal must be the emit's, not the stream's
  opt.fused_codes     = true;
  // OnPair-16 (tokens up to 16 bytes, 65 536 codes): neither applies.
  auto const col16  = sample_column(codec::onpair16, 500, 25);
  auto dcol16       = fastpair::device_column::prepare(col16, {}, opt);
  REQUIRE(dcol16.has_high_plane());
  REQUIRE_FALSE(dcol16.has_fused_codes());
  REQUIRE_THROWS_AS(dcol16.build_fused_codes(), std::logic_error);
  fastpair::device_buffer<unsigned char> out(col16.decoded_bytes(), cudaStream_t{});
  auto const v16 = dcol16.view<8>();
  REQUIRE_THROWS_WITH(fastpair::detail::launch_decode<swords>(v16, 0, v16.num_codes, out.data(), 0, out.size(), {}),
                      Catch::Contains("register_words_short"));
  REQUIRE_THROWS_WITH(fastpair::detail::launch_decode<texlf>(v16, 0, v16.num_codes, out.data(), 0, out.size(), {}),
                      Catch::Contains("fused codes"));
  // OnPair-12 at W = 8 has a high plane: the short-token emit is refused, fused codes work.
  auto const col12  = sample_column(codec::onpair12, 500, 26);
  auto const dcol12 = fastpair::device_column::prepare(col12, {}, opt);
  REQUIRE(dcol12.has_high_plane());
  REQUIRE_THROWS_WITH((fastpair::decompress<std::int64_t, swords>(dcol12)), Catch::Contains("register_words_short"));
  REQUIRE_THROWS_WITH((fastpair::decompress<std::int64_t, texlf>(dcol16)), Catch::Contains("fused codes"));
  // The requirement is checked before the empty window is: one check, one error type.
  REQUIRE_THROWS_AS(fastpair::detail::launch_decode<swords>(dcol12.view<8>(), 0, col12.num_codes, out.data(), 0, 0, {}),
                    fastpair::logic_error);
  ft::check_decode<texlf>(dcol12, fastpair::decode_reference(col12), 0, col12.num_rows());
  FASTPAIR_CUDA_TRY(cudaDeviceSynchronize());
  REQUIRE(dcol12.read_and_clear_errors() == 0);
}

TEST_CASE("a texture-gather config needs the view's texture objects", "[gpu][decode]")
{
  auto const col = sample_column(codec::onpair16, 500, 13);
  fastpair::prepare_options opt;
  opt.low_plane_bytes = 16;
  opt.length_stream   = true;  // texture_low_streamed reads it
  auto const dcol = fastpair::device_column::prepare(col, {}, opt);
  using texlo = fastpair::decode_config<8, 16, 0, 256, 3, fastpair::emit_strategy::register_words,
                                        fastpair::gather_strategy::texture_low>;
  using texls = fastpair::decode_config<8, 16, 0, 256, 3, fastpair::emit_strategy::register_words,
                                        fastpair::gather_strategy::texture_low_streamed>;
  using global = fastpair::decode_config<8, 16, 0, 256, 3>;  // register_words and LSU gathers by default
  static_assert(std::is_same_v<fastpair::with_gathered_lengths<texls>::type, texlo>);
  static_assert(std::is_same_v<fastpair::with_gathered_lengths<global>::type, global>);
  static_assert(global::emit == fastpair::emit_strategy::register_words);
  fastpair::device_buffer<unsigned char> out(col.decoded_bytes(), cudaStream_t{});
  auto v = dcol.view<16>();
  REQUIRE(v.lo_tex != 0);
  REQUIRE(v.code_lengths != nullptr);
  v.code_lengths = nullptr;  // texture_low_streamed reads it
  REQUIRE_THROWS_WITH(fastpair::detail::launch_decode<texls>(v, 0, v.num_codes, out.data(), 0, out.size(), {}),
                      Catch::Contains("length stream"));
  fastpair::detail::launch_decode<texlo>(v, 0, v.num_codes, out.data(), 0, out.size(), {});
  v.lo_tex = 0;
  REQUIRE_THROWS_WITH(fastpair::detail::launch_decode<texlo>(v, 0, v.num_codes, out.data(), 0, out.size(), {}),
                      Catch::Contains("texture object"));
  fastpair::detail::launch_decode<global>(v, 0, v.num_codes, out.data(), 0, out.size(), {});  // reads no texture
  FASTPAIR_CUDA_TRY(cudaDeviceSynchronize());
  std::vector<unsigned char> host(out.size());
  FASTPAIR_CUDA_TRY(cudaMemcpy(host.data(), out.data(), host.size(), cudaMemcpyDeviceToHost));
  auto const ref = fastpair::decode_reference(col);
  REQUIRE(std::string(host.begin(), host.end()) == std::string(ref.chars.begin(), ref.chars.end()));
  REQUIRE(dcol.read_and_clear_errors() == 0);
}

TEST_CASE("a decoded output larger than 4 GiB with int64 offsets", "[gpu][decode][large]")
{
  // 2^20 rows of 272 codes of 16-byte tokens (and a few short ones): ~4.6 GB of output.
  using namespace fastpair;
  auto d = ft::make_dictionary(codec::onpair16, 64, {16, 16}, 17);
  compressed_column col;
  col.kind = codec::onpair16;
  col.dict = d;
  std::uint64_t const rows = 1 << 20, per_row = 272;
  std::vector<std::uint16_t> codes(rows * per_row);
  for (std::uint64_t i = 0; i < codes.size(); ++i)
    codes[i] = static_cast<std::uint16_t>(i % 97 == 0 ? (i / 97) % 256 : 256 + (i * 7) % 64);
  col.num_codes = codes.size();
  col.codes     = pack_codes(col.kind, codes.data(), codes.size());
  col.row_code_offsets.resize(rows + 1);
  col.row_byte_offsets.resize(rows + 1);
  std::uint64_t bytes = 0;
  for (std::uint64_t r = 0; r < rows; ++r) {
    for (std::uint64_t j = r * per_row; j < (r + 1) * per_row; ++j) bytes += col.dict.length(codes[j]);
    col.row_code_offsets[r + 1] = (r + 1) * per_row;
    col.row_byte_offsets[r + 1] = bytes;
  }
  compute_sidecar(col);
  REQUIRE(bytes > (std::uint64_t{1} << 32));
  auto const dcol = device_column::prepare(col, {}, prepare_options{0, false, false});
  REQUIRE_THROWS_WITH(decompress<std::int32_t>(dcol), Catch::Contains("int32"));
  auto const out = decompress<std::int64_t>(dcol);
  // Check every byte against the dictionary directly (the reference would need another 4.6 GB).
  std::vector<char> h(out.chars.size());
  FASTPAIR_CUDA_TRY(cudaMemcpy(h.data(), out.chars.data(), h.size(), cudaMemcpyDeviceToHost));
  std::uint64_t pos = 0, bad = 0;
  for (auto c : codes) {
    bad += std::memcmp(h.data() + pos, col.dict.data(c), col.dict.length(c)) != 0;
    pos += col.dict.length(c);
  }
  REQUIRE(pos == h.size());
  REQUIRE(bad == 0);
  std::vector<std::int64_t> offs(rows + 1);
  FASTPAIR_CUDA_TRY(cudaMemcpy(offs.data(), out.offsets.data(), offs.size() * 8, cudaMemcpyDeviceToHost));
  for (std::uint64_t r = 0; r <= rows; r += 4099) REQUIRE(static_cast<std::uint64_t>(offs[r]) == col.row_byte_offsets[r]);
  REQUIRE(static_cast<std::uint64_t>(offs[rows]) == bytes);
}
