// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// The minimal integration an engine needs: compress a column on the host into a .fpc file, read it
// back, prepare it on the GPU, decode it into device offsets + chars (Arrow layout), and check the
// result against the CPU reference decoder.
//
// Usage: fastpair_example_decode_basic [COLUMN.fpc]
//   Without an argument, a generated sample column is compressed to a temporary .fpc first.
//   Without a GPU it prints "skipped" and exits 0.
#include "example_common.hpp"

#include <fastpair/fastpair.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <cstring>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
  if (example::gpus_or_skip("decode_basic") == 0) return 0;
  try {
    std::string path = argc > 1 ? argv[1] : "";
    if (path.empty()) {
      path = (std::filesystem::temp_directory_path() / "fastpair_decode_basic.fpc").string();
      fastpair::host_strings const rows = example::sample_rows(200000);
      // example-begin compress
      // Host, once per column: train a dictionary, encode, store.
      fastpair::compressed_column col = fastpair::compress(rows, fastpair::codec::onpair16);
      fastpair::write_fpc(path, col);
      // example-end compress
    }

    cudaStream_t stream;
    FASTPAIR_CUDA_TRY(cudaStreamCreate(&stream));
    bool ok = false;
    {
      // example-begin decode
      // Engine side: the stored bytes of the file (pageable or pinned host memory; a device
      // buffer goes to prepare_fpc_device) become the device column on the GPU, checked there.
      std::ifstream file(path, std::ios::binary);
      std::vector<std::uint8_t> const bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
      fastpair::device_column dcol = fastpair::device_column::prepare_fpc_host(bytes.data(), bytes.size(), stream);

      // Output in Arrow layout: num_rows + 1 offsets (int32 = utf8, int64 = large_utf8) + chars.
      fastpair::device_buffer<std::int64_t> offsets(dcol.num_rows() + 1, stream);
      fastpair::device_buffer<char> chars(dcol.decoded_bytes(), stream);
      fastpair::string_column_view<std::int64_t> out{offsets.data(), chars.data(), dcol.num_rows(), chars.size()};

      fastpair::decode_column(dcol, out, stream);  // stream-ordered: no allocation, no sync
      if (dcol.read_and_clear_errors(stream) != 0)  // synchronizes: corrupt device data?
        throw fastpair::decode_error("corrupt column");
      // example-end decode

      // Check: copy back and compare with the CPU reference decoder, byte for byte.
      fastpair::compressed_column const col = fastpair::read_fpc(path);  // host read + validation
      fastpair::host_strings const expect   = fastpair::decode_reference(col);
      std::vector<std::int64_t> h_off(offsets.size());
      std::vector<char> h_chars(chars.size());
      FASTPAIR_CUDA_TRY(cudaMemcpyAsync(h_off.data(), offsets.data(), h_off.size() * sizeof(std::int64_t),
                                        cudaMemcpyDeviceToHost, stream));
      if (!h_chars.empty())
        FASTPAIR_CUDA_TRY(cudaMemcpyAsync(h_chars.data(), chars.data(), h_chars.size(), cudaMemcpyDeviceToHost, stream));
      FASTPAIR_CUDA_TRY(cudaStreamSynchronize(stream));
      ok = h_chars == expect.chars && h_off.size() == expect.offsets.size() &&
           std::equal(h_off.begin(), h_off.end(), expect.offsets.begin(),
                      [](std::int64_t a, std::uint64_t b) { return static_cast<std::uint64_t>(a) == b; });
      std::printf("decode_basic: %s: %s, %llu rows, %llu bytes decoded on the GPU (W = %d): %s\n", path.c_str(),
                  fastpair::codec_name(col.kind), static_cast<unsigned long long>(dcol.num_rows()),
                  static_cast<unsigned long long>(dcol.decoded_bytes()), dcol.low_plane_bytes(),
                  ok ? "matches the CPU reference" : "MISMATCH");
    }  // device buffers are freed on `stream` here, before it is destroyed
    FASTPAIR_CUDA_TRY(cudaStreamDestroy(stream));
    return ok ? 0 : 1;
  } catch (std::exception const& e) {
    std::fprintf(stderr, "decode_basic: %s\n", e.what());
    return 1;
  }
}
