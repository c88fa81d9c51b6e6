// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Issue #23 item 2: dropping a prepared column does not block. Destroyed while a kernel that waits
// for the host still runs on its stream (and a decode through its texture objects is queued behind
// it), the destructor returns, the stream is still busy, the decode still reads live textures, and
// the deferred texture objects are released once the stream's work is done; a texture object
// dropped during graph capture neither breaks the capture nor is destroyed before it is ordered.
#include "utils/gpu_resources.cuh"

#include <fastpair/fastpair.cuh>

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using fastpair::codec;
using fastpair::testing::test_stream;

namespace {

fastpair::host_strings sample_rows(std::size_t n)
{
  fastpair::host_strings rows;
  for (std::size_t i = 0; i < n; ++i)
    rows.push_back("row " + std::to_string(i % 37) + " of the sample, " + std::string(i % 13, 'x') +
                   (i % 3 ? " DELIVER IN PERSON" : " TAKE BACK RETURN") + std::to_string(i));
  return rows;
}

/** Spins until *flag != 0 (host-mapped memory the host sets), or gives up after about 20 s of GPU
 *  clock and sets *gave_up, so that a test that never releases it fails instead of hanging. */
__global__ void spin_until_set(int const volatile* flag, int* gave_up)
{
  long long const start = clock64();
  while (*flag == 0) {
    if (clock64() - start > 40'000'000'000LL) {
      *gave_up = 1;
      return;
    }
    __nanosleep(1000);
  }
}

__global__ void noop_kernel() {}

/** release_deferred_resources() until nothing is pending or about 2 s have passed; returns what is
 *  left. After the stream's synchronisation one call should release everything, but the driver can
 *  report events on a synchronised stream as not ready for some milliseconds more: seen in a
 *  process's first capture, whose kernel's module is loaded lazily, while other processes use the
 *  GPU (docs/bench-data/h100-tables-2026-12-08/README.md). A release that never comes still fails. */
std::size_t release_within_two_seconds()
{
  auto const until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  std::size_t left = fastpair::release_deferred_resources();
  while (left != 0 && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    left = fastpair::release_deferred_resources();
  }
  return left;
}

}  // namespace

TEST_CASE("release_deferred_resources(true) leaves nothing pending", "[texture]")
{
  // Runs on CPU-only machines too (nothing was deferred there: no CUDA work).
  CHECK(fastpair::release_deferred_resources(true) == 0);
  CHECK(fastpair::deferred_resources_pending() == 0);
}

// [spin]: not run under compute-sanitizer (scripts/gpu-verify.sh), whose launches do not return
// while the spin kernel waits for the host's flag, so the kernel can only time out there.
TEST_CASE("dropping a prepared column does not wait for its stream; its textures are released later",
          "[gpu][texture][spin]")
{
  FASTPAIR_CUDA_TRY(cudaDeviceSynchronize());
  REQUIRE(fastpair::release_deferred_resources(true) == 0);
  REQUIRE(fastpair::deferred_resources_pending() == 0);
  test_stream ts;
  cudaStream_t const s = ts.s;

  int* host_flags = nullptr;  // [0]: the host's go, [1]: the kernel gave up
  FASTPAIR_CUDA_TRY(cudaHostAlloc(reinterpret_cast<void**>(&host_flags), 2 * sizeof(int), cudaHostAllocMapped));
  host_flags[0] = 0;
  host_flags[1] = 0;
  int* dev_flags = nullptr;
  FASTPAIR_CUDA_TRY(cudaHostGetDevicePointer(reinterpret_cast<void**>(&dev_flags), host_flags, 0));

  auto const col = fastpair::compress(sample_rows(2000), codec::onpair16);
  auto const ref = fastpair::decode_reference(col);
  fastpair::prepare_options opt;
  opt.low_plane_bytes = 16;
  // The texture object over the low plane is read by this config.
  using tex = fastpair::decode_config<8, 16, 0, 256, 3, fastpair::emit_strategy::register_words,
                                      fastpair::gather_strategy::texture_low>;
  fastpair::device_buffer<std::int64_t> offsets(ref.num_rows() + 1, s);
  fastpair::device_buffer<char> chars(ref.chars.size(), s);
  {
    std::optional<fastpair::device_column> dcol = fastpair::device_column::prepare(col, s, opt);
    REQUIRE(dcol->view<16>().lo_tex != 0);
    // One decode before the spin: it loads the kernel's module (lazy loading), which could not
    // happen while the spin kernel holds the device, as when this test runs first or alone.
    fastpair::string_column_view<std::int64_t> const warm{offsets.data(), chars.data(), ref.num_rows(), chars.size()};
    fastpair::decode_column<tex>(*dcol, warm, s);
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
    // The spin kernel first, then a decode through the textures queued behind it: when the
    // column is dropped, nothing of it has run yet.
    spin_until_set<<<1, 1, 0, s>>>(dev_flags, dev_flags + 1);
    FASTPAIR_CUDA_TRY(cudaGetLastError());
    fastpair::string_column_view<std::int64_t> const out{offsets.data(), chars.data(), ref.num_rows(), chars.size()};
    fastpair::decode_column<tex>(*dcol, out, s);
    REQUIRE(cudaGetLastError() == cudaSuccess);

    dcol.reset();  // must return while the stream is blocked on the host's flag
    CHECK(cudaPeekAtLastError() == cudaSuccess);  // the release bookkeeping leaves no error behind
    CHECK(cudaStreamQuery(s) == cudaErrorNotReady);
    CHECK(fastpair::deferred_resources_pending() >= 1);   // the low plane's texture object
    CHECK(fastpair::release_deferred_resources() >= 1);  // non-blocking: still pending
  }
  std::atomic_thread_fence(std::memory_order_seq_cst);
  *static_cast<int volatile*>(host_flags) = 1;
  REQUIRE(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(host_flags[1] == 0);  // released by the host, not by the time-out
  cudaError_t const last = cudaGetLastError();
  CHECK((last == cudaSuccess || last == cudaErrorNotReady));  // the NotReady of the query above, if kept
  CHECK(cudaGetLastError() == cudaSuccess);

  // The decode read the textures after the column was dropped: they were still alive.
  std::vector<char> got(ref.chars.size());
  std::vector<std::int64_t> got_offsets(ref.num_rows() + 1);
  FASTPAIR_CUDA_TRY(cudaMemcpyAsync(got.data(), chars.data(), got.size(), cudaMemcpyDeviceToHost, s));
  FASTPAIR_CUDA_TRY(cudaMemcpyAsync(got_offsets.data(), offsets.data(), got_offsets.size() * 8, cudaMemcpyDeviceToHost, s));
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
  CHECK(got == ref.chars);
  CHECK(std::vector<std::uint64_t>(got_offsets.begin(), got_offsets.end()) == ref.offsets);

  // The stream's work is done: non-blocking releases destroy them all.
  CHECK(release_within_two_seconds() == 0);
  CHECK(fastpair::deferred_resources_pending() == 0);
  FASTPAIR_CUDA_TRY(cudaFreeHost(host_flags));
  CHECK(cudaGetLastError() == cudaSuccess);
}

TEST_CASE("a texture object dropped during graph capture is released after the capture",
          "[gpu][texture]")
{
  FASTPAIR_CUDA_TRY(cudaDeviceSynchronize());
  REQUIRE(fastpair::release_deferred_resources(true) == 0);
  test_stream ts;
  cudaStream_t const s = ts.s;
  int dev = 0, align = 0;
  FASTPAIR_CUDA_TRY(cudaGetDevice(&dev));
  FASTPAIR_CUDA_TRY(cudaDeviceGetAttribute(&align, cudaDevAttrTextureAlignment, dev));
  std::size_t const a = align > 0 ? static_cast<std::size_t>(align) : 512;
  fastpair::device_buffer<std::uint8_t> mem(4096 + a, s);
  auto* const p = reinterpret_cast<std::uint8_t*>((reinterpret_cast<std::uintptr_t>(mem.data()) + a - 1) / a * a);
  std::size_t const bytes = 4096;
  auto const desc = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
  {
    std::optional<fastpair::texture_object> t;
    t.emplace(p, bytes, desc, s);
    FASTPAIR_CUDA_TRY(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    noop_kernel<<<1, 1, 0, s>>>();
    t.reset();  // no event can be recorded: deferred without one
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    CHECK(cudaStreamIsCapturing(s, &status) == cudaSuccess);
    CHECK(status == cudaStreamCaptureStatusActive);  // the capture was not invalidated
    cudaGraph_t graph = nullptr;
    REQUIRE(cudaStreamEndCapture(s, &graph) == cudaSuccess);
    FASTPAIR_CUDA_TRY(cudaGraphDestroy(graph));
  }
  CHECK(fastpair::deferred_resources_pending() == 1);
  CHECK(fastpair::release_deferred_resources() == 1);  // no event yet: kept
  {
    // Another texture object on the same stream, dropped outside a capture, orders the first.
    fastpair::texture_object const t(p, bytes, desc, s);
  }
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
  CHECK(release_within_two_seconds() == 0);
  CHECK(fastpair::deferred_resources_pending() == 0);
  CHECK(cudaGetLastError() == cudaSuccess);
}
