// Throwaway diagnostic (not part of the project): the graph-capture deferred-release test's
// sequence in a loop; on a failure it prints what each pending entry holds.
#define private public
#include <fastpair/device_buffer.cuh>
#undef private
#include <chrono>
#include <cstdio>
#include <optional>
__global__ void noop_kernel() {}
int main(int argc, char** argv)
{
  int iters = argc > 1 ? atoi(argv[1]) : 200, fails = 0;
  if (argc > 2) {  // "warm": the captured kernel launched once before any capture (its module loaded)
    noop_kernel<<<1, 1>>>();
    cudaDeviceSynchronize();
    printf("noop_kernel launched once before the loop\n");
  }
  cudaStream_t s;
  for (int it = 0; it < iters; ++it) {
    cudaDeviceSynchronize();
    if (fastpair::release_deferred_resources(true) != 0) printf("it %d: release(true) != 0\n", it);
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    int dev = 0, align = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&align, cudaDevAttrTextureAlignment, dev);
    void* mem = nullptr;
    cudaMalloc(&mem, 4096 + 512);
    auto const desc = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
    {
      std::optional<fastpair::texture_object> t;
      t.emplace(mem, 4096, desc, s);
      cudaError_t b = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
      noop_kernel<<<1, 1, 0, s>>>();
      t.reset();
      cudaGraph_t graph = nullptr;
      cudaError_t e = cudaStreamEndCapture(s, &graph);
      if (b || e) printf("it %d: capture begin %d end %d\n", it, b, e);
      if (graph) cudaGraphDestroy(graph);
    }
    auto& L = fastpair::detail::deferred_texture_list::instance();
    std::size_t p1 = fastpair::deferred_resources_pending();
    { fastpair::texture_object const t(mem, 4096, desc, s); }
    std::size_t p2 = fastpair::deferred_resources_pending();
    cudaError_t sy = cudaStreamSynchronize(s);
    std::size_t p3 = L.entries_.size();
    if (p3 != 0) {
      ++fails;
      printf("it %d: pending %zu after capture, %zu after the second drop, %zu after sync (sync %d); last error %d\n", it, p1,
             p2, p3, sy, (int)cudaPeekAtLastError());
      for (auto& e : L.entries_) {
        cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
        cudaError_t ic = cudaStreamIsCapturing(e.stream, &st);
        printf("   entry: stream %p (test's %p) dev %d event %p query %d; isCapturing %d status %d\n", (void*)e.stream,
               (void*)s, e.device, (void*)e.event, e.event ? (int)cudaEventQuery(e.event) : -1, ic, (int)st);
      }
      // a raw event on the same stream, now
      cudaEvent_t ev; cudaError_t c1 = cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
      cudaError_t c2 = cudaEventRecord(ev, s); cudaError_t c3 = cudaStreamSynchronize(s); cudaError_t c4 = cudaEventQuery(ev);
      printf("   raw event: create %d record %d sync %d query %d\n", c1, c2, c3, c4);
      // how long until the entries' events report completion without a blocking call
      auto const t0 = std::chrono::steady_clock::now();
      double waited = -1;
      for (;;) {
        bool all = cudaEventQuery(ev) == cudaSuccess;
        for (auto& e : L.entries_) all = all && e.event && cudaEventQuery(e.event) == cudaSuccess;
        double const ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (all) { waited = ms; break; }
        if (ms > 3000) break;
      }
      printf("   polled: all complete after %.3f ms (-1: not within 3 s); then release() = %zu\n", waited,
             fastpair::release_deferred_resources());
      cudaEventDestroy(ev);
    }
    std::size_t left = fastpair::release_deferred_resources(true);
    if (left) printf("it %d: %zu left after release(true)\n", it, left);
    cudaFree(mem);
    cudaStreamDestroy(s);
  }
  printf("defer_diag: %d of %d iterations failed\n", fails, iters);
  return fails != 0;
}
