// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// The hand-off docs/ENGINES.md describes, without cuDF: the engine allocates the offsets and chars
// from a resource of its own on its own stream and decode_column fills them; and the offset width
// rule at its boundary (cuDF's INT32 / INT64 offsets, Arrow's utf8 / large_utf8).
#include "utils/columns.hpp"
#include "utils/gpu_check.cuh"

#include <fastpair/fastpair.cuh>

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using fastpair::codec;
using Catch::Contains;

TEST_CASE("offset width for the engine: 32 bits up to 2^31 - 1 chars, 64 above", "[engine]")
{
  std::uint64_t const max32 = static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max());
  CHECK(fastpair::offset_bits_for(0) == 32);
  CHECK(fastpair::offset_bits_for(max32) == 32);
  CHECK(fastpair::offset_bits_for(max32 + 1) == 64);
  CHECK(fastpair::offset_bits_for(std::uint64_t{1} << 40) == 64);
  // decode_column's output check agrees (it runs before any launch; a fake view is enough).
  char c = 0;
  std::int32_t o32[2]{};
  std::int64_t o64[2]{};
  fastpair::string_column_view<std::int32_t> v32{o32, &c, 1, max32 + 1};
  fastpair::string_column_view<std::int64_t> v64{o64, &c, 1, max32 + 1};
  CHECK_NOTHROW(fastpair::detail::check_output(v32, 1, max32));
  CHECK_THROWS_WITH(fastpair::detail::check_output(v32, 1, max32 + 1), Contains("overflows int32 offsets"));
  CHECK_NOTHROW(fastpair::detail::check_output(v64, 1, max32 + 1));
}

namespace {
/** The "engine": its own memory pool and stream, as cuDF has rmm and its stream. */
struct engine {
  cudaStream_t stream = nullptr;
  cudaMemPool_t pool  = nullptr;
  std::uint64_t allocations = 0;
  engine()
  {
    int dev = 0;
    FASTPAIR_CUDA_TRY(cudaGetDevice(&dev));
    cudaMemPoolProps props{};
    props.allocType     = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id   = dev;
    FASTPAIR_CUDA_TRY(cudaMemPoolCreate(&pool, &props));
    FASTPAIR_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  }
  ~engine()
  {
    (void)cudaStreamSynchronize(stream);
    (void)cudaStreamDestroy(stream);
    (void)cudaMemPoolDestroy(pool);
  }
  engine(engine const&)            = delete;
  engine& operator=(engine const&) = delete;
  // The resource interface (CCCL's async resource concept).
  void* allocate_async(std::size_t bytes, std::size_t, cuda::stream_ref s)
  {
    void* p = nullptr;
    FASTPAIR_CUDA_TRY(cudaMallocFromPoolAsync(&p, bytes, pool, s.get()));
    ++allocations;
    return p;
  }
  void deallocate_async(void* p, std::size_t, std::size_t, cuda::stream_ref s) { (void)cudaFreeAsync(p, s.get()); }
  void* allocate(std::size_t bytes, std::size_t a)
  {
    void* p = allocate_async(bytes, a, cuda::stream_ref{stream});
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(stream));
    return p;
  }
  void deallocate(void* p, std::size_t bytes, std::size_t a)
  {
    deallocate_async(p, bytes, a, cuda::stream_ref{stream});
    (void)cudaStreamSynchronize(stream);
  }
  friend bool operator==(engine const& a, engine const& b) { return &a == &b; }
  friend bool operator!=(engine const& a, engine const& b) { return &a != &b; }
  friend void get_property(engine const&, cuda::mr::device_accessible) noexcept {}
};

template <class OffsetT>
void check_handoff(engine& e, fastpair::device_column const& dcol, fastpair::host_strings const& expected)
{
  std::uint64_t const rows = dcol.num_rows(), bytes = dcol.decoded_bytes();
  fastpair::device_async_resource_ref mr{e};
  std::uint64_t const before = e.allocations;
  // The engine's buffers (cudf::make_numeric_column + rmm::device_buffer in docs/ENGINES.md).
  fastpair::device_buffer<OffsetT> offsets(rows + 1, e.stream, mr);
  fastpair::device_buffer<char> chars(bytes, e.stream, mr);
  CHECK(e.allocations == before + (bytes ? 2 : 1));
  fastpair::decode_column(dcol, fastpair::string_column_view<OffsetT>{offsets.data(), chars.data(), rows, bytes},
                          e.stream);
  CHECK(e.allocations == before + (bytes ? 2 : 1));  // decode_column allocates nothing
  std::vector<OffsetT> off(rows + 1);
  std::string got(bytes, '\0');
  FASTPAIR_CUDA_TRY(cudaMemcpyAsync(off.data(), offsets.data(), off.size() * sizeof(OffsetT), cudaMemcpyDeviceToHost, e.stream));
  FASTPAIR_CUDA_TRY(cudaMemcpyAsync(got.data(), chars.data(), bytes, cudaMemcpyDeviceToHost, e.stream));
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(e.stream));
  CHECK(dcol.read_and_clear_errors(e.stream) == 0);
  REQUIRE(off.size() == expected.offsets.size());
  for (std::size_t r = 0; r < off.size(); ++r) REQUIRE(static_cast<std::uint64_t>(off[r]) == expected.offsets[r]);
  CHECK(got == std::string(expected.chars.begin(), expected.chars.end()));
}
}  // namespace

TEST_CASE("an engine's stream and resource flow into decode_column's output", "[gpu][engine]")
{
  engine e;
  fastpair::device_async_resource_ref mr{e};
  auto const kind = GENERATE(codec::onpair16, codec::onpair12, codec::fsst12);
  fastpair::host_strings rows;
  for (int i = 0; i < 3000; ++i) rows.push_back(i % 7 == 0 ? "" : "row " + std::to_string(i * 7919) + " of the engine");
  auto const col      = fastpair::compress(rows, kind);
  auto const expected = fastpair::decode_reference(col);
  std::uint64_t const before = e.allocations;
  auto const dcol            = fastpair::device_column::prepare(col, e.stream, {}, mr);
  CHECK(e.allocations > before);  // the column's own buffers come from the engine too
  REQUIRE(fastpair::offset_bits_for(dcol.decoded_bytes()) == 32);
  check_handoff<std::int32_t>(e, dcol, expected);  // cuDF INT32 offsets / Arrow utf8
  check_handoff<std::int64_t>(e, dcol, expected);  // cuDF INT64 offsets / Arrow large_utf8
}
