// Scratch (not part of the project): per-phase times of prepare_fpc_device / prepare_fpc_host on
// an instrumented copy of the headers (FP_PHASE marks). CUDA events on the stream + host clock.
#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>
struct fp_mark { const char* name; cudaEvent_t ev; double host_ms; };
static std::vector<fp_mark> g_marks;
static bool g_on = false;
static std::chrono::steady_clock::time_point g_t0;
#define FP_PHASE(NAME, S) do { if (g_on) { fp_mark m{NAME, nullptr, 0}; cudaEventCreate(&m.ev); cudaEventRecord(m.ev, S); \
  m.host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - g_t0).count(); g_marks.push_back(m); } } while (0)
#include "utils/data.hpp"
#include <fastpair/encode.hpp>
#include <fastpair/fastpair.cuh>
#include <fastpair/io.hpp>
using namespace fastpair;
int main(int argc, char** argv) {
  std::vector<std::string> cols = {"zh_text", "tpch_l_shipinstruct", "tpch_o_clerk"};
  std::vector<codec> kinds = {codec::onpair16, codec::onpair12};
  cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  for (auto& name : cols) for (codec kind : kinds) {
    auto rows = testing::load_column(name, 16u << 20);
    compressed_column src = compress(rows, kind);
    compressed_column tiled = tile_column(src, 1000000000ull);
    std::vector<std::uint8_t> img = serialize(tiled);
    std::uint8_t* pin; cudaMallocHost(&pin, img.size()); memcpy(pin, img.data(), img.size());
    std::uint8_t* dimg; cudaMalloc(&dimg, img.size()); cudaMemcpy(dimg, img.data(), img.size(), cudaMemcpyHostToDevice);
    std::printf("== %s %s: %.1f MB stored, %llu rows, %llu codes\n", name.c_str(), codec_name(kind), img.size() / 1e6,
                (unsigned long long)tiled.num_rows(), (unsigned long long)tiled.num_codes);
    for (int mode = 0; mode < 2; ++mode) for (int it = 0; it < 4; ++it) {
      g_marks.clear(); g_on = true; g_t0 = std::chrono::steady_clock::now();
      {
        device_column d = mode == 0 ? device_column::prepare_fpc_device(dimg, img.size(), s) : device_column::prepare_fpc_host(pin, img.size(), s);
        FP_PHASE("return", s);
        cudaStreamSynchronize(s);
      }
      double total = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - g_t0).count();
      g_on = false;
      if (it < 2) continue;  // warm-ups
      std::printf("  %s run %d: total %.3f ms\n", mode == 0 ? "device" : "pinned", it, total);
      for (size_t i = 1; i < g_marks.size(); ++i) {
        float gpu = 0; cudaEventElapsedTime(&gpu, g_marks[i - 1].ev, g_marks[i].ev);
        std::printf("    %-34s gpu %7.3f  host %7.3f (at %7.3f)\n", g_marks[i].name, gpu, g_marks[i].host_ms - g_marks[i - 1].host_ms, g_marks[i].host_ms);
      }
      for (auto& m : g_marks) cudaEventDestroy(m.ev);
    }
    cudaFreeHost(pin); cudaFree(dimg);
  }
  return 0;
}
