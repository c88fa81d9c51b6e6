// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Splitting one column by row range (1) over several streams of one GPU and (2) over every GPU
// present, one partition per device. Runs on a single GPU; uses all that exist.
//
// decode_column(dcol, row_begin, row_end, out, stream) decodes any row range; its output offsets
// start at 0, so each partition is a self-contained Arrow chunk (a chunked array in Arrow terms).
// A row range maps to a code range through the column's row index, and the sidecar lets the
// kernel start at any code, so partitions need no coordination. The partitions are cut at
// multiples of device_column::row_index_rows() (1 024 rows): such ranges are located from the
// host copy of the row index, so decode_column neither synchronizes nor allocates (any other row
// boundary is looked up on the GPU first, one synchronisation of the partition's stream).
//
// Usage: fastpair_example_multi_stream [COLUMN.fpc] [STREAMS]
//   Without a GPU it prints "skipped" and exits 0.
#include "example_common.hpp"

#include <fastpair/fastpair.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <vector>

namespace {

/** One row-range partition: its stream, output buffers and the device column it reads. */
struct partition {
  int device = 0;
  std::uint64_t row_begin = 0, row_end = 0;
  cudaStream_t stream = nullptr;
  fastpair::device_buffer<std::int64_t> offsets;
  fastpair::device_buffer<char> chars;

  partition(int dev, std::uint64_t r0, std::uint64_t r1, fastpair::device_column const& dcol) : device(dev), row_begin(r0), row_end(r1)
  {
    FASTPAIR_CUDA_TRY(cudaSetDevice(device));
    FASTPAIR_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    offsets = fastpair::device_buffer<std::int64_t>(r1 - r0 + 1, stream);
    chars   = fastpair::device_buffer<char>(dcol.decoded_bytes(r0, r1), stream);
  }
  partition(partition const&)            = delete;
  partition& operator=(partition const&) = delete;
  ~partition()
  {
    cudaSetDevice(device);
    offsets = {};  // freed on `stream`, so before it is destroyed
    chars   = {};
    cudaStreamSynchronize(stream);
    cudaStreamDestroy(stream);
  }
  fastpair::string_column_view<std::int64_t> view()
  {
    return {offsets.data(), chars.data(), row_end - row_begin, chars.size()};
  }
  /** Copies the partition back and compares it with the CPU reference of the same rows. */
  bool check(fastpair::compressed_column const& col)
  {
    FASTPAIR_CUDA_TRY(cudaSetDevice(device));
    fastpair::host_strings const expect = fastpair::decode_reference(col, row_begin, row_end, false);
    std::vector<std::int64_t> ho(offsets.size());
    std::vector<char> hc(chars.size());
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(ho.data(), offsets.data(), ho.size() * 8, cudaMemcpyDeviceToHost, stream));
    if (!hc.empty()) FASTPAIR_CUDA_TRY(cudaMemcpyAsync(hc.data(), chars.data(), hc.size(), cudaMemcpyDeviceToHost, stream));
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(stream));
    return hc == expect.chars &&
           std::equal(ho.begin(), ho.end(), expect.offsets.begin(), expect.offsets.end(),
                      [](std::int64_t a, std::uint64_t b) { return static_cast<std::uint64_t>(a) == b; });
  }
};

/** Row boundaries of `parts` ranges with about the same number of decoded bytes each, rounded to
 *  multiples of device_column::row_index_rows() (no synchronisation in decode_column). */
std::vector<std::uint64_t> split_rows(fastpair::compressed_column const& col, int parts)
{
  std::vector<std::uint64_t> cut{0};
  std::uint64_t const total = col.decoded_bytes();
  std::uint64_t const block = fastpair::device_column::row_index_rows();
  for (int p = 1; p < parts; ++p) {
    std::uint64_t const target = total / parts * p;
    auto it = std::lower_bound(col.row_byte_offsets.begin(), col.row_byte_offsets.end(), target);
    std::uint64_t const row = static_cast<std::uint64_t>(it - col.row_byte_offsets.begin());
    cut.push_back(std::max<std::uint64_t>(cut.back(), (row + block / 2) / block * block));
  }
  cut.push_back(col.num_rows());
  for (auto& c : cut) c = std::min<std::uint64_t>(c, col.num_rows());
  return cut;
}

}  // namespace

int main(int argc, char** argv)
{
  int const gpus = example::gpus_or_skip("multi_stream");
  if (gpus == 0) return 0;
  try {
    // The stored bytes of a .fpc image (a file, or a sample column serialised in memory); the
    // host column read from them only splits the rows and is the reference of the checks.
    std::vector<std::uint8_t> const bytes =
      argc > 1 ? example::read_bytes(argv[1])
               : fastpair::serialize(fastpair::compress(example::sample_rows(300000), fastpair::codec::onpair12));
    fastpair::compressed_column const col = fastpair::deserialize(bytes.data(), bytes.size());
    int const streams = argc > 2 ? std::max(1, std::atoi(argv[2])) : 4;
    bool ok = true;

    // (1) One GPU, several streams: one device column, one partition per stream.
    {
      FASTPAIR_CUDA_TRY(cudaSetDevice(0));
      fastpair::device_column dcol = fastpair::device_column::prepare_fpc_host(bytes.data(), bytes.size(), cudaStreamPerThread);
      FASTPAIR_CUDA_TRY(cudaStreamSynchronize(cudaStreamPerThread));  // uploads done before other streams read
      std::vector<std::uint64_t> const cut = split_rows(col, streams);
      std::vector<std::unique_ptr<partition>> parts;
      for (int p = 0; p < streams; ++p) parts.push_back(std::make_unique<partition>(0, cut[p], cut[p + 1], dcol));
      for (auto& p : parts) fastpair::decode_column(dcol, p->row_begin, p->row_end, p->view(), p->stream);  // all in flight
      for (auto& p : parts) {
        bool const good = p->check(col);
        std::printf("multi_stream: device 0, stream partition rows [%llu, %llu): %s\n",
                    static_cast<unsigned long long>(p->row_begin), static_cast<unsigned long long>(p->row_end),
                    good ? "ok" : "MISMATCH");
        ok = ok && good;
      }
      // One error word per device column: read it once every partition has finished.
      ok = ok && dcol.read_and_clear_errors(cudaStreamPerThread) == 0;
      parts.clear();
    }

    // (2) Every GPU: each device gets its own device column and decodes one row range.
    {
      std::vector<std::uint64_t> const cut = split_rows(col, gpus);
      std::vector<fastpair::device_column> dcols(static_cast<std::size_t>(gpus));
      std::vector<std::unique_ptr<partition>> parts;
      for (int d = 0; d < gpus; ++d) {
        FASTPAIR_CUDA_TRY(cudaSetDevice(d));
        dcols[d] = fastpair::device_column::prepare_fpc_host(bytes.data(), bytes.size(), cudaStreamPerThread);
        parts.push_back(std::make_unique<partition>(d, cut[d], cut[d + 1], dcols[d]));
        FASTPAIR_CUDA_TRY(cudaStreamSynchronize(cudaStreamPerThread));
      }
      for (int d = 0; d < gpus; ++d) {  // launch on every device, then wait
        FASTPAIR_CUDA_TRY(cudaSetDevice(d));
        fastpair::decode_column(dcols[d], parts[d]->row_begin, parts[d]->row_end, parts[d]->view(), parts[d]->stream);
      }
      for (int d = 0; d < gpus; ++d) {
        bool const good = parts[d]->check(col) && dcols[d].read_and_clear_errors(parts[d]->stream) == 0;
        std::printf("multi_stream: device %d of %d, rows [%llu, %llu): %s\n", d, gpus,
                    static_cast<unsigned long long>(parts[d]->row_begin),
                    static_cast<unsigned long long>(parts[d]->row_end), good ? "ok" : "MISMATCH");
        ok = ok && good;
      }
      parts.clear();
      for (int d = 0; d < gpus; ++d) {  // free each device's column on its own device
        FASTPAIR_CUDA_TRY(cudaSetDevice(d));
        dcols[d] = fastpair::device_column();
        FASTPAIR_CUDA_TRY(cudaStreamSynchronize(cudaStreamPerThread));
      }
    }
    std::printf("multi_stream: %s\n", ok ? "every partition matches the CPU reference" : "MISMATCH");
    return ok ? 0 : 1;
  } catch (std::exception const& e) {
    std::fprintf(stderr, "multi_stream: %s\n", e.what());
    return 1;
  }
}
