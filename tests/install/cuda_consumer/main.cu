// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// A CUDA downstream program at the default architecture: the host API compiled by nvcc, the
// consumer's own kernel, and (decode.cu) the GPU decoder. Without a GPU it runs the host part only
// and exits 0.
#include <fastpair/fastpair.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

bool gpu_round_trip(fastpair::compressed_column const& col, fastpair::host_strings const& expect);  // decode.cu

__global__ void copy_bytes(char const* in, char* out, std::size_t n)
{
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x)
    out[i] = in[i];
}

static bool check(cudaError_t e, char const* what)
{
  if (e != cudaSuccess) std::printf("cuda consumer: %s: %s\n", what, cudaGetErrorString(e));
  return e == cudaSuccess;
}

int main()
{
  fastpair::host_strings rows;
  for (int i = 0; i < 5000; ++i) rows.push_back("row " + std::to_string(i * 7919 % 1000) + " of the consumer");
  fastpair::compressed_column const col = fastpair::compress(rows, fastpair::codec::onpair16);
  bool ok = fastpair::decode_reference(col) == rows;
  std::printf("cuda consumer: host round trip (%zu rows): %s\n", rows.num_rows(), ok ? "ok" : "MISMATCH");

  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess) {
    devices = 0;
    (void)cudaGetLastError();
  }
  if (devices == 0) {
    std::printf("cuda consumer: no CUDA device: GPU part skipped\n");
    return ok ? 0 : 1;
  }

  // The consumer's own kernel (default architecture): the chars through the device and back.
  std::size_t const n = rows.chars.size();
  char *d_in = nullptr, *d_out = nullptr;
  std::vector<char> back(n);
  bool const kernel_ok = check(cudaMalloc(&d_in, n), "cudaMalloc") && check(cudaMalloc(&d_out, n), "cudaMalloc") &&
                         check(cudaMemcpy(d_in, rows.chars.data(), n, cudaMemcpyHostToDevice), "cudaMemcpy") &&
                         (copy_bytes<<<64, 256>>>(d_in, d_out, n), check(cudaGetLastError(), "copy_bytes")) &&
                         check(cudaMemcpy(back.data(), d_out, n, cudaMemcpyDeviceToHost), "cudaMemcpy") &&
                         back == rows.chars;
  cudaFree(d_in);
  cudaFree(d_out);
  std::printf("cuda consumer: own kernel: %s\n", kernel_ok ? "ok" : "FAILED");

  bool const decode_ok = gpu_round_trip(col, rows);
  std::printf("cuda consumer: GPU decode: %s\n", decode_ok ? "matches the input" : "MISMATCH");
  return ok && kernel_ok && decode_ok ? 0 : 1;
}
