// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// GPU test helpers for streams and memory resources: a non-blocking stream of a test's own, and a
// device memory resource over a memory pool of its own (not the default pool), as an engine's.
#pragma once

#include <fastpair/detail/cuda.cuh>
#include <fastpair/memory_resource.cuh>

#include <cuda/memory_resource>
#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

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

/**
 * A device resource over `upstream` that counts what it hands out: live_bytes() is the sum of the
 * sizes allocated and not yet deallocated (as requested, before any rounding by the upstream), so
 * that a device_column's device_bytes() can be compared with what it holds; peak_bytes() is the
 * largest live_bytes() has been. Equal only to itself;
 * it must outlive what it allocated.
 */
class byte_counting_resource {
 public:
  explicit byte_counting_resource(device_async_resource_ref upstream = default_device_resource()) : upstream_(upstream) {}
  byte_counting_resource(byte_counting_resource const&)            = delete;
  byte_counting_resource& operator=(byte_counting_resource const&) = delete;

  void* allocate_async(std::size_t bytes, std::size_t alignment, cuda::stream_ref s)
  {
    void* p = upstream_.allocate_async(bytes, alignment, s);
    note_allocated(bytes);
    return p;
  }
  void deallocate_async(void* p, std::size_t bytes, std::size_t alignment, cuda::stream_ref s)
  {
    live_ -= bytes;
    ++deallocations_;
    upstream_.deallocate_async(p, bytes, alignment, s);
  }
  void* allocate(std::size_t bytes, std::size_t alignment)
  {
    void* p = upstream_.allocate(bytes, alignment);
    note_allocated(bytes);
    return p;
  }
  void deallocate(void* p, std::size_t bytes, std::size_t alignment)
  {
    live_ -= bytes;
    ++deallocations_;
    upstream_.deallocate(p, bytes, alignment);
  }
  std::uint64_t live_bytes() const noexcept { return live_.load(); }
  std::uint64_t allocations() const noexcept { return allocations_.load(); }
  std::uint64_t deallocations() const noexcept { return deallocations_.load(); }
  std::uint64_t peak_bytes() const noexcept { return peak_.load(); }

  friend bool operator==(byte_counting_resource const& a, byte_counting_resource const& b) { return &a == &b; }
  friend bool operator!=(byte_counting_resource const& a, byte_counting_resource const& b) { return &a != &b; }
  friend void get_property(byte_counting_resource const&, cuda::mr::device_accessible) noexcept {}

 private:
  void note_allocated(std::size_t bytes) noexcept
  {
    std::uint64_t const now = live_ += bytes;
    ++allocations_;
    std::uint64_t seen = peak_.load();
    while (now > seen && !peak_.compare_exchange_weak(seen, now)) {
    }
  }
  device_async_resource_ref upstream_;
  std::atomic<std::uint64_t> live_{0}, allocations_{0}, deallocations_{0}, peak_{0};
};

/** Pinned host memory (cudaMallocHost) holding a copy of `bytes`, freed at scope exit. */
class pinned_copy {
 public:
  template <class Bytes>
  explicit pinned_copy(Bytes const& bytes) : size_(bytes.size())
  {
    FASTPAIR_CUDA_TRY(cudaMallocHost(&p_, size_ ? size_ : 1));
    if (size_) std::memcpy(p_, bytes.data(), size_);
  }
  ~pinned_copy() { (void)cudaFreeHost(p_); }
  pinned_copy(pinned_copy const&)            = delete;
  pinned_copy& operator=(pinned_copy const&) = delete;
  std::uint8_t* data() const noexcept { return static_cast<std::uint8_t*>(p_); }
  std::size_t size() const noexcept { return size_; }

 private:
  void* p_ = nullptr;
  std::size_t size_ = 0;
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
