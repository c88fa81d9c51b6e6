// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// cascade.cuh: GPU decode of row-level cascades, byte-exact against decode_reference (int32 and
// int64 offsets, poisoned output with guard bytes, misaligned chars), on every shared column x
// codec x layout, on hand-made edge cases, through any_column, and under CUDA graph capture.
#include "utils/data.hpp"
#include "utils/generators.hpp"
#include "utils/gpu_check.cuh"

#include <fastpair/cascade.cuh>
#include <fastpair/cascade.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace ft = fastpair::testing;
using fastpair::cascade_layout;
using fastpair::codec;

namespace {
/** Decodes `dcol` into a guarded output whose chars start `misalign` bytes past a 256-byte
 *  boundary, and REQUIREs offsets and chars equal to `expect`, guards intact, no error. */
template <class OffsetT, class Col>
void check_gpu(Col const& dcol, fastpair::host_strings const& expect, unsigned misalign = 0)
{
  ft::guarded_output<OffsetT> out(expect.num_rows(), expect.chars.size(), misalign, nullptr);
  fastpair::decode_column(dcol, out.view(), {});
  REQUIRE(dcol.read_and_clear_errors() == 0);
  out.require_equal(expect, nullptr);
}

/** Both layouts of `rows` with `kind`: GPU decode (int32 and int64, aligned and misaligned) equals
 *  decode_reference, which equals the rows. */
void check_rows(fastpair::host_strings const& rows, codec kind)
{
  for (auto layout : {cascade_layout::indices, cascade_layout::runs}) {
    INFO(fastpair::cascade_layout_name(layout));
    auto const c      = fastpair::compress_cascade(rows, kind, layout);
    auto const expect = fastpair::decode_reference(c);
    REQUIRE(expect == rows);
    auto const dcol = fastpair::device_cascaded_column::prepare(c);
    REQUIRE(dcol.num_rows() == rows.num_rows());
    REQUIRE(dcol.decoded_bytes() == rows.chars.size());
    check_gpu<std::int64_t>(dcol, expect, 0);
    check_gpu<std::int32_t>(dcol, expect, 3);
    check_gpu<std::int64_t>(dcol, expect, 1);  // decode twice from one prepared column
  }
}

fastpair::host_strings rows_of(std::vector<std::string> const& v)
{
  fastpair::host_strings h;
  for (auto const& s : v) h.push_back(s);
  return h;
}
}  // namespace

TEST_CASE("cascade GPU decode matches the reference on every shared column", "[gpu][cascade][data]")
{
  for (auto const& name : ft::shared_columns()) {
    auto const rows = ft::load_shared_column(name, ft::test_source_bytes(std::size_t{1} << 20));
    for (codec kind : {codec::onpair16, codec::onpair12, codec::fsst12}) {
      INFO(name << " " << fastpair::codec_name(kind));
      check_rows(rows, kind);
    }
  }
}

TEST_CASE("cascade GPU decode: edge cases", "[gpu][cascade]")
{
  codec const kind = GENERATE(codec::onpair16, codec::onpair12, codec::fsst12);
  SECTION("empty column") { check_rows(fastpair::host_strings{}, kind); }
  SECTION("one row") { check_rows(rows_of({"only row"}), kind); }
  SECTION("one empty row") { check_rows(rows_of({""}), kind); }
  SECTION("all rows empty") { check_rows(rows_of(std::vector<std::string>(100, "")), kind); }
  SECTION("all rows equal (0-bit ids, one run)") { check_rows(rows_of(std::vector<std::string>(5000, "Clerk#000000042")), kind); }
  SECTION("all rows distinct") {
    fastpair::host_strings rows;
    for (int i = 0; i < 3000; ++i) rows.push_back("value " + std::to_string(i * 31));
    check_rows(rows, kind);
  }
  SECTION("empty strings, every byte value, multi-byte UTF-8, long values, runs of many lengths") {
    std::string all;
    for (int b = 0; b < 256; ++b) all.push_back(static_cast<char>(b));
    std::vector<std::string> const values = {"", all, "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", "x", std::string(1000, 'q') + "end",
                                             "DELIVER IN PERSON"};
    ft::rng r(11);
    fastpair::host_strings rows;
    while (rows.num_rows() < 7000) {
      auto const v   = values[r.below(values.size())];
      auto const len = 1 + r.below(r.below(4) == 0 ? 300 : 3);  // mostly short runs, some long
      for (std::uint64_t i = 0; i < len; ++i) rows.push_back(v);
    }
    check_rows(rows, kind);
  }
  SECTION("row counts around the 32-row tile") {
    for (int n : {31, 32, 33, 63, 64, 65, 257}) {
      fastpair::host_strings rows;
      for (int i = 0; i < n; ++i) rows.push_back(i % 3 ? "ab" : "cde");
      check_rows(rows, kind);
    }
  }
}

TEST_CASE("cascade GPU decode: any_column picks the right path", "[gpu][cascade]")
{
  fastpair::host_strings few, many;
  ft::rng r(3);
  for (int i = 0; i < 20000; ++i) few.push_back(std::string("Clerk#00000") + std::to_string(100 + r.below(50)));
  for (int i = 0; i < 2000; ++i) many.push_back("row " + std::to_string(r.next()));
  for (auto const* rows : {&few, &many}) {
    std::string why;
    auto const col = fastpair::encode_auto_cascade(*rows, {}, {}, &why);
    INFO(why);
    CHECK(col.is_cascade() == (rows == &few));
    auto const dcol = fastpair::device_any_column::prepare(col);
    REQUIRE(dcol.is_cascade() == col.is_cascade());
    REQUIRE(dcol.num_rows() == rows->num_rows());
    CHECK(fastpair::decompress(dcol).to_host() == *rows);
    CHECK(fastpair::decompress<std::int32_t>(dcol).to_host() == *rows);
    check_gpu<std::int64_t>(dcol, *rows, 2);
  }
}

TEST_CASE("cascade GPU decode: bad output arguments are refused", "[gpu][cascade]")
{
  fastpair::host_strings rows;
  for (int i = 0; i < 100; ++i) rows.push_back(i % 2 ? "a" : "bcd");
  auto const dcol = fastpair::device_cascaded_column::prepare(fastpair::compress_cascade(rows, codec::onpair12, cascade_layout::indices));
  fastpair::device_buffer<std::int64_t> off(rows.num_rows() + 1, {});
  fastpair::device_buffer<char> chars(rows.chars.size(), {});
  fastpair::string_column_view<std::int64_t> out{off.data(), chars.data(), rows.num_rows(), chars.size()};
  auto small = out;
  small.chars_capacity -= 1;
  CHECK_THROWS_AS(fastpair::decode_column(dcol, small, {}), fastpair::logic_error);
  auto wrong_rows = out;
  wrong_rows.num_rows += 1;
  CHECK_THROWS_AS(fastpair::decode_column(dcol, wrong_rows, {}), fastpair::logic_error);
  auto no_chars  = out;
  no_chars.chars = nullptr;
  CHECK_THROWS_AS(fastpair::decode_column(dcol, no_chars, {}), fastpair::logic_error);
  // A corrupt cascade is refused by prepare (validated by default).
  auto bad = fastpair::compress_cascade(rows, codec::onpair12, cascade_layout::indices);
  bad.ids.bits = 40;
  CHECK_THROWS_AS(fastpair::device_cascaded_column::prepare(bad), fastpair::format_error);
}

TEST_CASE("cascade GPU decode is capturable in a CUDA graph", "[gpu][cascade]")
{
  fastpair::host_strings rows;
  ft::rng r(5);
  for (int i = 0; i < 10000; ++i) rows.push_back(std::string(1 + r.below(3), 'z') + (r.below(2) ? "TAKE BACK RETURN" : "NONE"));
  for (auto layout : {cascade_layout::indices, cascade_layout::runs}) {
    auto const dcol = fastpair::device_cascaded_column::prepare(fastpair::compress_cascade(rows, codec::fsst12, layout));
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(nullptr));  // prepared on the default stream; decoded on `s`
    cudaStream_t s;
    FASTPAIR_CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    {  // buffers are freed on `s`, so they must go before the stream
      fastpair::string_column<std::int64_t> out;
      out.num_rows = rows.num_rows();
      out.offsets  = fastpair::device_buffer<std::int64_t>(rows.num_rows() + 1, s);
      out.chars    = fastpair::device_buffer<char>(rows.chars.size(), s);
      FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
      cudaGraph_t graph;
      FASTPAIR_CUDA_TRY(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
      fastpair::decode_column(dcol, out.view(), s);
      FASTPAIR_CUDA_TRY(cudaStreamEndCapture(s, &graph));
      cudaGraphExec_t exec;
      FASTPAIR_CUDA_TRY(cudaGraphInstantiate(&exec, graph, 0));
      FASTPAIR_CUDA_TRY(cudaMemsetAsync(out.chars.data(), 0, out.chars.size(), s));
      for (int i = 0; i < 2; ++i) FASTPAIR_CUDA_TRY(cudaGraphLaunch(exec, s));
      CHECK(out.to_host(s) == rows);  // synchronizes s
      FASTPAIR_CUDA_TRY(cudaGraphExecDestroy(exec));
      FASTPAIR_CUDA_TRY(cudaGraphDestroy(graph));
    }
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
    FASTPAIR_CUDA_TRY(cudaStreamDestroy(s));
  }
}

TEST_CASE("cascade GPU decode: 24 M rows, both layouts", "[gpu][cascade][large]")
{
  std::vector<std::string> const values = {"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN", ""};
  ft::rng r(9);
  fastpair::host_strings rows;
  rows.offsets.reserve(24'000'001);
  rows.chars.reserve(24'000'000 * 12);
  while (rows.num_rows() < 24'000'000) {
    auto const& v  = values[r.below(values.size())];
    auto const len = 1 + r.below(8);
    for (std::uint64_t i = 0; i < len && rows.num_rows() < 24'000'000; ++i) rows.push_back(v);
  }
  for (auto layout : {cascade_layout::indices, cascade_layout::runs}) {
    auto const dcol = fastpair::device_cascaded_column::prepare(fastpair::compress_cascade(rows, codec::onpair16, layout));
    CHECK(fastpair::decompress(dcol).to_host() == rows);
  }
}
