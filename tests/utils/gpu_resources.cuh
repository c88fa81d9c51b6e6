// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// GPU test helpers for streams and memory resources: a non-blocking stream of a test's own, and a
// device memory resource over a memory pool of its own (not the default pool), as an engine's.
#pragma once

#include <fastpair/detail/cuda.cuh>
#include <fastpair/memory_resource.cuh>

#include <cuda/memory_resource>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace fastpair::testing {

/** A memory pool of its own on the current device (not the default pool) and a resource over it. */
class own_pool_resource {
 public:
  own_pool_resource()
  {
    int dev = 0;
    FASTPAIR_CUDA_TRY(cudaGetDevice(&dev));
    cudaMemPoolProps props{};
    props.allocType     = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id   = dev;
    FASTPAIR_CUDA_TRY(cudaMemPoolCreate(&pool_, &props));
  }
  ~own_pool_resource()
  {
    (void)cudaDeviceSynchronize();
    (void)cudaMemPoolDestroy(pool_);
  }
  own_pool_resource(own_pool_resource const&)            = delete;
  own_pool_resource& operator=(own_pool_resource const&) = delete;

  void* allocate_async(std::size_t bytes, std::size_t, cuda::stream_ref s)
  {
    void* p = nullptr;
    FASTPAIR_CUDA_TRY(cudaMallocFromPoolAsync(&p, bytes, pool_, s.get()));
    return p;
  }
  void deallocate_async(void* p, std::size_t, std::size_t, cuda::stream_ref s) { (void)cudaFreeAsync(p, s.get()); }
  void* allocate(std::size_t bytes, std::size_t alignment)
  {
    void* p = allocate_async(bytes, alignment, cuda::stream_ref{});
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(nullptr));
    return p;
  }
  void deallocate(void* p, std::size_t bytes, std::size_t alignment)
  {
    deallocate_async(p, bytes, alignment, cuda::stream_ref{});
    (void)cudaStreamSynchronize(nullptr);
  }
  std::uint64_t used() const { return used_of(pool_); }
  friend bool operator==(own_pool_resource const& a, own_pool_resource const& b) { return a.pool_ == b.pool_; }
  friend bool operator!=(own_pool_resource const& a, own_pool_resource const& b) { return a.pool_ != b.pool_; }
  friend void get_property(own_pool_resource const&, cuda::mr::device_accessible) noexcept {}

  static std::uint64_t used_of(cudaMemPool_t pool)
  {
    std::uint64_t used = 0;
    FASTPAIR_CUDA_TRY(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    return used;
  }
  /** Bytes in use from the current device's default pool (what cudaMallocAsync allocates from). */
  static std::uint64_t default_pool_used()
  {
    int dev = 0;
    FASTPAIR_CUDA_TRY(cudaGetDevice(&dev));
    cudaMemPool_t pool = nullptr;
    FASTPAIR_CUDA_TRY(cudaDeviceGetDefaultMemPool(&pool, dev));
    return used_of(pool);
  }

 private:
  cudaMemPool_t pool_ = nullptr;
};

/** A stream of its own (non-blocking), destroyed at scope exit. */
struct test_stream {
  cudaStream_t s = nullptr;
  test_stream() { FASTPAIR_CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)); }
  ~test_stream()
  {
    (void)cudaStreamSynchronize(s);
    (void)cudaStreamDestroy(s);
  }
  test_stream(test_stream const&)            = delete;
  test_stream& operator=(test_stream const&) = delete;
};

}  // namespace fastpair::testing
