// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// device_column::prepare on untrusted columns: the structural checks run even with
// prepare_options::validate = false (they throw before any CUDA call, so those cases run without a
// GPU too), content corruption then reaches the device error word, and a regenerated sidecar is
// right for a segment of more than 4 GiB.
#include "utils/columns.hpp"
#include "utils/gpu_check.cuh"

#include <fastpair/cascade.cuh>
#include <fastpair/fastpair.cuh>
#include <fastpair/select.cuh>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

using fastpair::codec;
using Catch::Contains;

namespace {
// 258 tokens ("ab", a 16-byte token), 3 rows of 8 codes, sidecar every 3 codes.
fastpair::compressed_column small_column(codec kind = codec::onpair12)
{
  return fastpair::testing::make_column(kind, {"ab", "0123456789abcdef"}, {{256, 97, 257}, {}, {257, 257, 98, 256, 99}}, 3);
}

fastpair::prepare_options unvalidated()
{
  fastpair::prepare_options opt;
  opt.validate = false;
  return opt;
}
}  // namespace

TEST_CASE("prepare without content validation still rejects a column whose arrays disagree", "[prepare]")
{
  // Each case read out of bounds before validate_structure() ran on this path: unpack_codes and
  // token_length_histogram read codes past the buffer, build_planes read dictionary bytes past it,
  // and the device read sidecar[seg + 1] past its buffer when row_code_offsets[R] > num_codes.
  auto const kind = GENERATE(codec::onpair16, codec::onpair12, codec::fsst12);
  auto col        = kind == codec::fsst12
                      ? fastpair::testing::make_column(kind, {"ab", "01234567"}, {{256, 97, 257}, {}, {257, 257, 98, 256, 99}}, 3)
                      : small_column(kind);
  SECTION("code buffer shorter than num_codes")
  {
    col.num_codes += 1000;
    col.row_code_offsets.back() = col.num_codes;
    CHECK_THROWS_WITH(fastpair::device_column::prepare(col, {}, unvalidated()), Contains("codes") && Contains("bytes, expected"));
  }
  SECTION("row_code_offsets[R] beyond num_codes")
  {
    col.row_code_offsets.back() = col.num_codes + 64;
    CHECK_THROWS_AS(fastpair::device_column::prepare(col, {}, unvalidated()), fastpair::format_error);
  }
  SECTION("dictionary offsets past the token bytes")
  {
    col.dict.offsets[257] += 40;
    col.dict.offsets[258] = static_cast<std::uint32_t>(col.dict.bytes.size());
    CHECK_THROWS_AS(fastpair::device_column::prepare(col, {}, unvalidated()), fastpair::format_error);
  }
  SECTION("row byte offsets not monotone")
  {
    col.row_byte_offsets[1] = col.row_byte_offsets[3] + 1;
    CHECK_THROWS_WITH(fastpair::device_column::prepare(col, {}, unvalidated()), Contains("row_byte_offsets"));
  }
  SECTION("sidecar of the wrong length")
  {
    col.sidecar.push_back(col.decoded_bytes());
    CHECK_THROWS_WITH(fastpair::device_column::prepare(col, {}, unvalidated()), Contains("sidecar"));
  }
  SECTION("sidecar entry beyond the decoded size")
  {
    col.sidecar[1] = col.decoded_bytes() + 1;
    CHECK_THROWS_WITH(fastpair::device_column::prepare(col, {}, unvalidated()), Contains("sidecar[1]"));
  }
}

TEST_CASE("prepare without content validation: corrupt codes reach the device error word", "[gpu][prepare]")
{
  auto col = small_column(codec::onpair12);
  std::vector<std::uint16_t> codes = fastpair::unpack_codes(col);
  codes[4]                         = 4000;  // >= the 258 tokens, inside the 12-bit code space
  col.codes                        = fastpair::pack_codes(col.kind, codes.data(), codes.size());
  CHECK_THROWS_AS(fastpair::validate(col), fastpair::format_error);
  CHECK_NOTHROW(fastpair::validate_structure(col));
  auto const dcol = fastpair::device_column::prepare(col, {}, unvalidated());
  CHECK_THROWS_AS(fastpair::decompress(dcol), fastpair::decode_error);
}

TEST_CASE("a sidecar regenerated on the GPU for one segment of more than 4 GiB", "[gpu][prepare][large]")
{
  // One OnPair-16 segment of 2^28 + 16 codes of a 16-byte token: 4 GiB + 256 bytes. The segment
  // sum was taken in 32 bits and wrapped to 256.
  std::uint64_t const n = (std::uint64_t{1} << 28) + 16;
  fastpair::compressed_column col;
  col.kind = codec::onpair16;
  col.dict = fastpair::testing::make_dictionary({"0123456789abcdef"});
  col.num_codes = n;
  col.codes.resize(2 * n);
  for (std::uint64_t i = 0; i < n; ++i) {  // code 256, little-endian
    col.codes[2 * i]     = 0x00;
    col.codes[2 * i + 1] = 0x01;
  }
  col.row_code_offsets = {0, n};
  col.row_byte_offsets = {0, 16 * n};
  col.sidecar_stride   = static_cast<std::uint32_t>(n);  // one segment, no stored sidecar
  REQUIRE(col.sidecar_entries() == 1);

  fastpair::prepare_options opt;
  opt.validate        = false;  // 2^28 codes: the structural checks are enough here
  opt.low_plane_bytes = 16;
  opt.length_stream = opt.fused_codes = opt.split_stream = opt.row_offsets = false;  // the lean default, spelt out
  auto const dcol = fastpair::device_column::prepare(col, {}, opt);
  std::uint64_t sidecar[2] = {1, 1};
  FASTPAIR_CUDA_TRY(cudaMemcpy(sidecar, dcol.view<16>().sidecar, sizeof sidecar, cudaMemcpyDeviceToHost));
  CHECK(sidecar[0] == 0);
  CHECK(sidecar[1] == 16 * n);
  CHECK(dcol.read_and_clear_errors() == 0);
}

TEST_CASE("an unprepared device_column is refused before any launch", "[gpu][prepare]")
{
  // decode_column on a default-constructed column with non-null offsets launched a copy from a
  // null pointer: a sticky illegal-address error that ended the CUDA context.
  fastpair::device_buffer<std::int64_t> offsets(8, {});
  fastpair::device_buffer<char> chars(8, {});
  fastpair::device_column empty;
  CHECK_FALSE(empty.prepared());
  CHECK(empty.device() == -1);
  fastpair::string_column_view<std::int64_t> out{offsets.data(), chars.data(), 0, chars.size()};
  CHECK_THROWS_WITH(fastpair::decode_column(empty, out), Contains("not prepared"));
  CHECK_THROWS_WITH(fastpair::decompress(empty), Contains("not prepared"));
  CHECK_THROWS_WITH(empty.view<8>(), Contains("not prepared"));
  CHECK_THROWS_WITH(empty.read_and_clear_errors(), Contains("not prepared"));
  CHECK_THROWS_WITH(fastpair::make_select_plan(empty, fastpair::device_row_ranges{nullptr, 0}), Contains("not prepared"));
  fastpair::device_cascaded_column empty_cascade;
  CHECK_THROWS_WITH(fastpair::decode_column(empty_cascade, out), Contains("not prepared"));
  CHECK_THROWS_WITH(empty_cascade.read_and_clear_errors(), Contains("not prepared"));
  fastpair::device_any_column empty_any;
  CHECK_THROWS_WITH(fastpair::decode_column(empty_any, out), Contains("not prepared"));

  auto col           = small_column(codec::onpair16);
  auto prepared      = fastpair::device_column::prepare(col);
  int device         = -1;
  FASTPAIR_CUDA_TRY(cudaGetDevice(&device));
  CHECK(prepared.prepared());
  CHECK(prepared.device() == device);
  auto moved_to = std::move(prepared);
  CHECK_THROWS_WITH(fastpair::decode_column(prepared, out), Contains("not prepared"));  // NOLINT: use after move is the test
  // The context is alive: nothing was launched, and the moved-to column decodes.
  FASTPAIR_CUDA_TRY(cudaDeviceSynchronize());
  CHECK(cudaGetLastError() == cudaSuccess);
  auto const decoded = fastpair::decompress(moved_to).to_host();
  CHECK(decoded.chars == fastpair::decode_reference(col).chars);
}

TEST_CASE("a device_column used on another device is refused", "[gpu][prepare]")
{
  int devices = 0;
  FASTPAIR_CUDA_TRY(cudaGetDeviceCount(&devices));
  if (devices < 2) {
    WARN("one CUDA device: the other-device check is not exercised");
    return;
  }
  FASTPAIR_CUDA_TRY(cudaSetDevice(0));
  auto const col  = small_column(codec::onpair12);
  auto const dcol = fastpair::device_column::prepare(col);
  FASTPAIR_CUDA_TRY(cudaSetDevice(1));
  CHECK_THROWS_WITH(fastpair::decompress(dcol), Contains("prepared on device 0") && Contains("used on device 1"));
  FASTPAIR_CUDA_TRY(cudaSetDevice(0));
  CHECK(fastpair::decompress(dcol).to_host().chars == fastpair::decode_reference(col).chars);
}

TEST_CASE("an automatic-config kernel has a body only for its own architecture bucket", "[gpu][decode]")
{
  // The automatic configs' kernels are tagged with the tuning bucket that picks them; device code
  // of another bucket compiles them empty (decode_kernel, builds_kernel_body), and such a kernel
  // reports kernel_not_built instead of leaving the output unwritten in silence.
  using fastpair::arch_bucket;
  auto const col  = small_column(codec::onpair16);
  fastpair::prepare_options opt;
  opt.low_plane_bytes = 16;
  auto const dcol     = fastpair::device_column::prepare(col, {}, opt);
  auto const here     = fastpair::detail::table_bucket(fastpair::detail::current_arch_bucket());
  auto const other    = here == arch_bucket::sm90 ? arch_bucket::generic : arch_bucket::sm90;
  auto const expected = fastpair::decode_reference(col).chars;
  fastpair::device_buffer<unsigned char> out(expected.size(), {});
  using config = fastpair::paper_config<16>;
  auto decode  = [&](auto tag) {
    FASTPAIR_CUDA_TRY(cudaMemset(out.data(), 0, out.size()));
    fastpair::detail::launch_decode<config, decltype(tag)::value>(dcol.view<16>(), 0, col.num_codes, out.data(), 0,
                                                                  out.size(), {});
    std::string got(out.size(), '\0');
    FASTPAIR_CUDA_TRY(cudaMemcpy(got.data(), out.data(), got.size(), cudaMemcpyDeviceToHost));
    return std::pair{got, dcol.read_and_clear_errors()};
  };
  auto const sm90    = decode(std::integral_constant<int, static_cast<int>(arch_bucket::sm90)>{});
  auto const generic = decode(std::integral_constant<int, static_cast<int>(arch_bucket::generic)>{});
  auto const& [other_bytes, other_errors] = other == arch_bucket::sm90 ? sm90 : generic;
  auto const& [here_bytes, here_errors]   = here == arch_bucket::sm90 ? sm90 : generic;
  (void)other_bytes;
  CHECK(other_errors == fastpair::kernel_not_built);
  CHECK(here_errors == 0);
  CHECK(here_bytes == std::string(expected.begin(), expected.end()));
  auto const [any_bytes, any_errors] = decode(std::integral_constant<int, fastpair::detail::any_arch>{});
  CHECK(any_errors == 0);
  CHECK(any_bytes == here_bytes);
}
