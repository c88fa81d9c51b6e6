// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the report benchmarks (baselines_bench.cu, sweeps_bench.cu, nvcomp_bench.cu):
// environment lists, the machine description written into every JSON file (so the report can
// show GPU, driver and clocks next to each number), a device byte comparison, and the counters
// of a launch configuration (registers, local memory, resident blocks per SM).
#pragma once

#include "common/fixture.cuh"

#include <cuda_runtime.h>

#include <cstdio>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

namespace fastpair::bench {

/** Comma-separated list from environment variable `var`, or `dflt` when unset or empty. */
inline std::vector<std::string> env_list(char const* var, std::string const& dflt)
{
  char const* e = std::getenv(var);
  std::stringstream ss(e && *e ? e : dflt);
  std::vector<std::string> out;
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

/** Integer from environment variable `var`, or `dflt`. */
inline long env_int(char const* var, long dflt)
{
  char const* e = std::getenv(var);
  return e && *e ? std::strtol(e, nullptr, 10) : dflt;
}

/** The twelve shared columns, comma-joined (the default of FASTPAIR_BENCH_COLUMNS here). */
inline std::string all_columns_csv()
{
  std::string s;
  for (auto const& c : testing::shared_columns()) s += (s.empty() ? "" : ",") + c;
  return s;
}

/** Exits with a clear message when the shared data folder is missing. */
inline void require_data(char const* prog)
{
  if (!testing::have_column("log_windows")) {
    std::fprintf(stderr, "%s: no data in %s (set FASTPAIR_DATA_DIR to the folder of the *.txt.zst columns)\n",
                 prog, testing::data_dir().c_str());
    std::exit(2);
  }
}

/** Writes the GPU, driver, runtime, clocks and benchmark settings into the JSON "context". */
inline void add_machine_context()
{
  int dev = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess) return;
  auto attr = [dev](cudaDeviceAttr a) {
    int v = 0;
    cudaDeviceGetAttribute(&v, a, dev);
    return v;
  };
  int drv = 0, rt = 0;
  cudaDriverGetVersion(&drv);
  cudaRuntimeGetVersion(&rt);
  benchmark::AddCustomContext("gpu_name", prop.name);
  benchmark::AddCustomContext("gpu_cc", std::to_string(prop.major) + "." + std::to_string(prop.minor));
  benchmark::AddCustomContext("gpu_sms", std::to_string(prop.multiProcessorCount));
  benchmark::AddCustomContext("gpu_l2_bytes", std::to_string(prop.l2CacheSize));
  benchmark::AddCustomContext("gpu_mem_bytes", std::to_string(prop.totalGlobalMem));
  benchmark::AddCustomContext("gpu_sm_clock_khz_max", std::to_string(attr(cudaDevAttrClockRate)));
  benchmark::AddCustomContext("gpu_mem_clock_khz_max", std::to_string(attr(cudaDevAttrMemoryClockRate)));
  benchmark::AddCustomContext("cuda_driver_version", std::to_string(drv));
  benchmark::AddCustomContext("cuda_runtime_version", std::to_string(rt));
  benchmark::AddCustomContext("bench_target_bytes", std::to_string(target_bytes()));
  benchmark::AddCustomContext("bench_source_bytes", std::to_string(source_bytes()));
  benchmark::AddCustomContext("data_dir", testing::data_dir().string());
}

/** Wraps a benchmark body so that an exception (CUDA error, failed check, nvCOMP status) marks
 *  this benchmark as failed in the JSON instead of aborting the process and losing the others. */
template <class Fn>
auto guarded(Fn fn)
{
  return [fn](benchmark::State& state) {
    try {
      fn(state);
    } catch (std::exception const& e) {
      state.SkipWithError(e.what());
    }
  };
}

/** Counts positions where a[i] != b[i] (i < n). */
__global__ void count_mismatches_kernel(unsigned char const* a, unsigned char const* b, std::uint64_t n,
                                        unsigned long long* count)
{
  unsigned long long local = 0;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    local += a[i] != b[i];
  if (local) atomicAdd(count, local);
}

/** Number of differing bytes between two device buffers of n bytes (synchronizes). */
inline unsigned long long device_mismatches(void const* a, void const* b, std::uint64_t n)
{
  device_buffer<unsigned long long> cnt(1, {});
  FASTPAIR_CUDA_TRY(cudaMemset(cnt.data(), 0, sizeof(unsigned long long)));
  count_mismatches_kernel<<<132 * 16, 256>>>(static_cast<unsigned char const*>(a),
                                             static_cast<unsigned char const*>(b), n, cnt.data());
  FASTPAIR_CUDA_TRY(cudaGetLastError());
  unsigned long long h = 0;
  FASTPAIR_CUDA_TRY(cudaMemcpy(&h, cnt.data(), sizeof h, cudaMemcpyDeviceToHost));
  return h;
}

/** Counts positions i < n where out[i] != tile[i % tile_n]. */
__global__ void count_tile_mismatches_kernel(char const* out, std::uint64_t n, char const* tile, std::uint64_t tile_n,
                                             unsigned long long* count)
{
  unsigned long long local = 0;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    local += out[i] != tile[i % tile_n];
  if (local) atomicAdd(count, local);
}

/** Bytes of the decoded (tiled) output of `p` that differ from the CPU reference (synchronizes):
 *  the per-benchmark correctness gate of every timed configuration. */
inline unsigned long long output_mismatches(prepared const& p)
{
  std::uint64_t const n = p.dcol.decoded_bytes(), tile_n = p.reference.size();
  if (n == 0 || tile_n == 0) return n;
  device_buffer<unsigned long long> cnt(1, {});
  FASTPAIR_CUDA_TRY(cudaMemset(cnt.data(), 0, sizeof(unsigned long long)));
  count_tile_mismatches_kernel<<<132 * 16, 256>>>(p.chars.data(), n, p.reference.data(), tile_n, cnt.data());
  FASTPAIR_CUDA_TRY(cudaGetLastError());
  unsigned long long h = 0;
  FASTPAIR_CUDA_TRY(cudaMemcpy(&h, cnt.data(), sizeof h, cudaMemcpyDeviceToHost));
  return h;
}

/** Registers, local memory (spills/stack) and resident blocks per SM of a kernel launched with
 *  `threads` threads and `smem` bytes of dynamic shared memory, as benchmark counters. */
template <class Kernel>
void set_launch_counters(benchmark::State& state, Kernel kernel, int threads, int smem)
{
  cudaFuncAttributes fa{};
  if (cudaFuncGetAttributes(&fa, kernel) != cudaSuccess) return;
  int blocks = 0;
  if (smem > 48 * 1024) cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, smem);
  state.counters["regs"]          = fa.numRegs;
  state.counters["local_bytes"]   = static_cast<double>(fa.localSizeBytes);
  state.counters["static_smem"]   = static_cast<double>(fa.sharedSizeBytes);
  state.counters["dyn_smem"]      = smem;
  state.counters["blocks_per_sm"] = blocks;
}

}  // namespace fastpair::bench
