// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file memory_resource.cuh
 * @brief The memory resources the library allocates through (issue #23 item 1).
 *
 * Every public function that allocates device memory takes a `device_async_resource_ref` (last
 * parameter, defaulted to default_device_resource()); the one place that allocates pinned host
 * memory (dsv_streamer's staging) takes a `host_resource_ref` (default_host_resource()). Nothing
 * else in the library allocates device or pinned memory.
 *
 * `device_async_resource_ref` is CCCL's `cuda::mr::async_resource_ref<cuda::mr::device_accessible>`,
 * the type `rmm::device_async_resource_ref` names, so an RMM resource (or a ref to one, e.g.
 * `rmm::mr::get_current_device_resource_ref()`) is passed as it is:
 * @code{.cpp}
 * rmm::mr::pool_memory_resource pool{rmm::mr::get_current_device_resource_ref(), 1 << 30};
 * auto dcol = fastpair::device_column::prepare(col, stream, {}, pool);
 * auto out  = fastpair::decompress(dcol, stream, pool);
 * @endcode
 * A resource ref does not own its resource: the resource must outlive every buffer allocated from
 * it (as with RMM). Buffers free their memory stream-ordered, through the resource they were
 * allocated from, on the stream they were allocated on (device_buffer).
 */
#pragma once

// CCCL (3.0) keeps <cuda/memory_resource> behind this macro: without it the header declares
// nothing. RMM requires the same definition (rmm/resource_ref.hpp). Defining it here, before the
// first include of <cuda/memory_resource>, lets <fastpair/...> headers be included first and on
// their own; a translation unit that includes <cuda/memory_resource> itself before any fastpair
// header must define the macro project-wide (e.g. -DLIBCUDACXX_ENABLE_EXPERIMENTAL_MEMORY_RESOURCE),
// which the check below asks for rather than failing later with missing names.
#ifndef LIBCUDACXX_ENABLE_EXPERIMENTAL_MEMORY_RESOURCE
#  ifdef _CUDA_MEMORY_RESOURCE  // the include guard of <cuda/memory_resource>
#    error "fastpair: <cuda/memory_resource> was included without LIBCUDACXX_ENABLE_EXPERIMENTAL_MEMORY_RESOURCE; define it for the whole project (as RMM requires) or include fastpair headers first"
#  endif
#  define LIBCUDACXX_ENABLE_EXPERIMENTAL_MEMORY_RESOURCE
#endif

#include <fastpair/error.hpp>

#include <cuda/memory_resource>
#include <cuda/stream_ref>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace fastpair {

/** @brief A stream-ordered device memory resource: `rmm::device_async_resource_ref`'s type. */
using device_async_resource_ref = cuda::mr::async_resource_ref<cuda::mr::device_accessible>;
/** @brief A (synchronous) host memory resource; the library's host staging allocates through it,
 *  and wants it pinned (default_host_resource()) for its copies to be asynchronous. */
using host_resource_ref = cuda::mr::resource_ref<cuda::mr::host_accessible>;

/** @brief The alignment the library asks of its device allocations (cudaMalloc's). */
inline constexpr std::size_t device_allocation_alignment = cuda::mr::default_cuda_malloc_alignment;

namespace detail {
inline void expect_alignment(std::size_t alignment, std::size_t at_most, char const* who)
{
  FASTPAIR_EXPECTS(alignment != 0 && (alignment & (alignment - 1)) == 0 && alignment <= at_most,
                   std::string(who) + ": alignment " + std::to_string(alignment) +
                     " is not a power of two of at most " + std::to_string(at_most));
}
}  // namespace detail

/**
 * @brief Device memory from the memory pool current to the stream's device (cudaMallocAsync /
 * cudaFreeAsync): what the library allocated with before it took resources, and its default.
 * Stateless: all instances are equal. Alignments up to 256 bytes.
 */
class cuda_async_device_resource {
 public:
  /** @throw logic_error for an alignment above 256 or not a power of two; cuda_error. */
  void* allocate_async(std::size_t bytes, std::size_t alignment, cuda::stream_ref stream)
  {
    detail::expect_alignment(alignment, device_allocation_alignment, "cuda_async_device_resource");
    void* p = nullptr;
    cudaError_t const e = cudaMallocAsync(&p, bytes, stream.get());
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      throw cuda_error(std::string("fastpair: cudaMallocAsync of ") + std::to_string(bytes) + " bytes failed: " +
                       cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
    }
    return p;
  }
  void deallocate_async(void* p, std::size_t, std::size_t, cuda::stream_ref stream) noexcept
  {
    (void)cudaFreeAsync(p, stream.get());
  }
  /** @brief Synchronous form (allocation on the default stream, then a wait for it). */
  void* allocate(std::size_t bytes, std::size_t alignment)
  {
    void* p = allocate_async(bytes, alignment, cuda::stream_ref{});
    if (cudaError_t const e = cudaStreamSynchronize(nullptr); e != cudaSuccess) {
      (void)cudaGetLastError();
      throw cuda_error(std::string("fastpair: cudaStreamSynchronize failed: ") + cudaGetErrorName(e));
    }
    return p;
  }
  void deallocate(void* p, std::size_t bytes, std::size_t alignment) noexcept
  {
    deallocate_async(p, bytes, alignment, cuda::stream_ref{});
    (void)cudaStreamSynchronize(nullptr);
  }
  friend bool operator==(cuda_async_device_resource const&, cuda_async_device_resource const&) noexcept { return true; }
  friend bool operator!=(cuda_async_device_resource const&, cuda_async_device_resource const&) noexcept { return false; }
  friend void get_property(cuda_async_device_resource const&, cuda::mr::device_accessible) noexcept {}
};

/**
 * @brief Pinned (page-locked) host memory (cudaMallocHost / cudaFreeHost), accessible from the
 * host and, through unified addressing, the device. Stateless: all instances are equal.
 * Alignments up to 256 bytes.
 */
class pinned_host_resource {
 public:
  /** @throw logic_error for an alignment above 256 or not a power of two; cuda_error. */
  void* allocate(std::size_t bytes, std::size_t alignment)
  {
    detail::expect_alignment(alignment, 256, "pinned_host_resource");
    void* p = nullptr;
    cudaError_t const e = cudaMallocHost(&p, bytes);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      throw cuda_error(std::string("fastpair: cudaMallocHost of ") + std::to_string(bytes) + " bytes failed: " +
                       cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
    }
    return p;
  }
  void deallocate(void* p, std::size_t, std::size_t) noexcept { (void)cudaFreeHost(p); }
  friend bool operator==(pinned_host_resource const&, pinned_host_resource const&) noexcept { return true; }
  friend bool operator!=(pinned_host_resource const&, pinned_host_resource const&) noexcept { return false; }
  friend void get_property(pinned_host_resource const&, cuda::mr::host_accessible) noexcept {}
  friend void get_property(pinned_host_resource const&, cuda::mr::device_accessible) noexcept {}
};

/**
 * @brief The device resource every defaulted `mr` parameter refers to: a process-wide
 * cuda_async_device_resource (the stream's device's current pool, the default pool unless
 * cudaDeviceSetMemPool changed it).
 */
inline device_async_resource_ref default_device_resource() noexcept
{
  static cuda_async_device_resource r;  // stateless: nothing to destroy at exit
  return device_async_resource_ref{r};
}

/** @brief The host resource every defaulted `host_mr` parameter refers to: a process-wide
 *  pinned_host_resource. */
inline host_resource_ref default_host_resource() noexcept
{
  static pinned_host_resource r;
  return host_resource_ref{r};
}

/**
 * @brief Owning host bytes from a host resource, pinned by default (default_host_resource()):
 * staging that uploads read at the full interconnect rate, e.g. the stored bytes handed to
 * device_column::prepare_fpc_host. Move-only; the memory goes back to `mr` on destruction.
 * @code{.cpp}
 * fastpair::host_buffer staged(file_bytes);  // pinned
 * std::fread(staged.data(), 1, staged.size(), f);
 * auto dcol = fastpair::device_column::prepare_fpc_host(staged.data(), staged.size(), stream);
 * @endcode
 */
class host_buffer {
 public:
  host_buffer() = default;
  /** @throw cuda_error (pinned memory exhausted) or what `mr` throws. */
  explicit host_buffer(std::size_t bytes, host_resource_ref mr = default_host_resource()) : mr_(mr), size_(bytes)
  {
    if (bytes) p_ = static_cast<std::uint8_t*>(mr.allocate(bytes, alignof(std::max_align_t)));
  }
  ~host_buffer() { reset(); }
  host_buffer(host_buffer&& o) noexcept : mr_(o.mr_), p_(o.p_), size_(o.size_) { o.p_ = nullptr, o.size_ = 0; }
  host_buffer& operator=(host_buffer&& o) noexcept
  {
    if (this != &o) {
      reset();
      mr_ = o.mr_, p_ = o.p_, size_ = o.size_;
      o.p_ = nullptr, o.size_ = 0;
    }
    return *this;
  }
  host_buffer(host_buffer const&)            = delete;
  host_buffer& operator=(host_buffer const&) = delete;

  std::uint8_t* data() noexcept { return p_; }
  std::uint8_t const* data() const noexcept { return p_; }
  std::size_t size() const noexcept { return size_; }

 private:
  void reset() noexcept
  {
    if (p_) mr_.deallocate(p_, size_, alignof(std::max_align_t));
    p_ = nullptr, size_ = 0;
  }
  host_resource_ref mr_ = default_host_resource();
  std::uint8_t* p_      = nullptr;
  std::size_t size_     = 0;
};

}  // namespace fastpair
