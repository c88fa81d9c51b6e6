// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Issue #23 item 1: every device allocation of prepare, decompress, selective decode, the
// predicates, DSV parsing and cascades goes through the memory resource passed. A counting adaptor
// over a pool of its own counts them, the default pool's used memory does not move while the
// objects are alive, and every allocation is freed through the same resource with the same size.
// Item 2 (non-blocking destruction) is tests/gpu/deferred_release_test.cu.
#include "utils/dsv_check.hpp"
#include "utils/gpu_resources.cuh"

#include <fastpair/cascade.cuh>
#include <fastpair/dsv.cuh>
#include <fastpair/fastpair.cuh>
#include <fastpair/memory_resource.cuh>
#include <fastpair/predicates.cuh>
#include <fastpair/select.cuh>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

using fastpair::codec;
using fastpair::testing::own_pool_resource;
using fastpair::testing::test_stream;

namespace {

static_assert(std::is_same_v<fastpair::device_async_resource_ref,
                             cuda::mr::async_resource_ref<cuda::mr::device_accessible>>,
              "the type rmm::device_async_resource_ref names");
static_assert(cuda::mr::async_resource_with<fastpair::cuda_async_device_resource, cuda::mr::device_accessible>);
static_assert(cuda::mr::resource_with<fastpair::pinned_host_resource, cuda::mr::host_accessible>);
static_assert(cuda::mr::resource_with<fastpair::pinned_host_resource, cuda::mr::device_accessible>);

/** Counts what goes through it and checks every free against its allocation (pointer, size). */
class allocation_log {
 public:
  void allocated(void* p, std::size_t bytes)
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++allocations_;
    live_[p] = bytes;
  }
  void deallocated(void* p, std::size_t bytes)
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++deallocations_;
    auto const it = live_.find(p);
    if (it == live_.end() || it->second != bytes) ++mismatches_;
    if (it != live_.end()) live_.erase(it);
  }
  std::size_t allocations() const
  {
    std::lock_guard<std::mutex> lock(mu_);
    return allocations_;
  }
  std::size_t deallocations() const
  {
    std::lock_guard<std::mutex> lock(mu_);
    return deallocations_;
  }
  std::size_t live() const
  {
    std::lock_guard<std::mutex> lock(mu_);
    return live_.size();
  }
  std::size_t mismatches() const
  {
    std::lock_guard<std::mutex> lock(mu_);
    return mismatches_;
  }

 private:
  mutable std::mutex mu_;
  std::size_t allocations_ = 0, deallocations_ = 0, mismatches_ = 0;
  std::map<void*, std::size_t> live_;
};

/** A counting adaptor over a device resource (stream-ordered). Equal only to itself. */
class counting_device_resource : public allocation_log {
 public:
  explicit counting_device_resource(fastpair::device_async_resource_ref upstream) : upstream_(upstream) {}
  void* allocate_async(std::size_t bytes, std::size_t alignment, cuda::stream_ref s)
  {
    void* p = upstream_.allocate_async(bytes, alignment, s);
    allocated(p, bytes);
    return p;
  }
  void deallocate_async(void* p, std::size_t bytes, std::size_t alignment, cuda::stream_ref s)
  {
    deallocated(p, bytes);
    upstream_.deallocate_async(p, bytes, alignment, s);
  }
  void* allocate(std::size_t bytes, std::size_t alignment)
  {
    void* p = upstream_.allocate(bytes, alignment);
    allocated(p, bytes);
    return p;
  }
  void deallocate(void* p, std::size_t bytes, std::size_t alignment)
  {
    deallocated(p, bytes);
    upstream_.deallocate(p, bytes, alignment);
  }
  friend bool operator==(counting_device_resource const& a, counting_device_resource const& b) { return &a == &b; }
  friend bool operator!=(counting_device_resource const& a, counting_device_resource const& b) { return &a != &b; }
  friend void get_property(counting_device_resource const&, cuda::mr::device_accessible) noexcept {}

 private:
  fastpair::device_async_resource_ref upstream_;
};

/** A counting adaptor over a host resource. */
class counting_host_resource : public allocation_log {
 public:
  explicit counting_host_resource(fastpair::host_resource_ref upstream) : upstream_(upstream) {}
  void* allocate(std::size_t bytes, std::size_t alignment)
  {
    void* p = upstream_.allocate(bytes, alignment);
    allocated(p, bytes);
    return p;
  }
  void deallocate(void* p, std::size_t bytes, std::size_t alignment)
  {
    deallocated(p, bytes);
    upstream_.deallocate(p, bytes, alignment);
  }
  friend bool operator==(counting_host_resource const& a, counting_host_resource const& b) { return &a == &b; }
  friend bool operator!=(counting_host_resource const& a, counting_host_resource const& b) { return &a != &b; }
  friend void get_property(counting_host_resource const&, cuda::mr::host_accessible) noexcept {}

 private:
  fastpair::host_resource_ref upstream_;
};

static_assert(cuda::mr::async_resource_with<counting_device_resource, cuda::mr::device_accessible>);
static_assert(cuda::mr::resource_with<counting_host_resource, cuda::mr::host_accessible>);

fastpair::host_strings sample_rows(std::size_t n)
{
  fastpair::host_strings rows;
  for (std::size_t i = 0; i < n; ++i)
    rows.push_back("row " + std::to_string(i % 37) + " of the sample, " + std::string(i % 13, 'x') +
                   (i % 3 ? " DELIVER IN PERSON" : " TAKE BACK RETURN") + std::to_string(i));
  return rows;
}

template <class T>
fastpair::device_buffer<T> upload(std::vector<T> const& h, cudaStream_t s, fastpair::device_async_resource_ref mr)
{
  fastpair::device_buffer<T> d(h.size(), s, mr);
  if (!h.empty()) FASTPAIR_CUDA_TRY(cudaMemcpyAsync(d.data(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice, s));
  return d;
}

template <class OffsetT>
fastpair::host_strings to_host(fastpair::string_column<OffsetT> const& c, cudaStream_t s)
{
  return c.to_host(s);
}


}  // namespace

TEST_CASE("memory resources: types, defaults and device_buffer without a GPU", "[memory_resource]")
{
  // No CUDA call below: these run on CPU-only machines too.
  CHECK(fastpair::default_device_resource() == fastpair::default_device_resource());
  CHECK(fastpair::default_host_resource() == fastpair::default_host_resource());
  counting_device_resource counting{fastpair::default_device_resource()};
  fastpair::device_async_resource_ref const mr{counting};
  CHECK(mr == fastpair::device_async_resource_ref{counting});
  CHECK(mr != fastpair::default_device_resource());

  fastpair::device_buffer<int> empty;
  CHECK(empty.memory_resource() == fastpair::default_device_resource());
  fastpair::device_buffer<int> none(0, {}, mr);  // no allocation for n == 0
  CHECK(none.data() == nullptr);
  CHECK(none.memory_resource() == mr);
  fastpair::device_buffer<int> moved(std::move(none));
  CHECK(moved.memory_resource() == mr);
  CHECK(none.memory_resource() == fastpair::default_device_resource());
  CHECK(counting.allocations() == 0);

  fastpair::cuda_async_device_resource dev;
  CHECK_THROWS_AS(dev.allocate_async(64, 3, {}), fastpair::logic_error);
  CHECK_THROWS_AS(dev.allocate_async(64, 512, {}), fastpair::logic_error);
  fastpair::pinned_host_resource host;
  CHECK_THROWS_AS(host.allocate(64, 0), fastpair::logic_error);
  CHECK_THROWS_AS(host.allocate(64, 1024), fastpair::logic_error);
}

/** Host memory from malloc: a host resource for tests that must run without a GPU. */
struct malloc_host_resource {
  void* allocate(std::size_t bytes, std::size_t) { return std::malloc(bytes); }
  void deallocate(void* p, std::size_t, std::size_t) noexcept { std::free(p); }
  friend bool operator==(malloc_host_resource const&, malloc_host_resource const&) { return true; }
  friend bool operator!=(malloc_host_resource const&, malloc_host_resource const&) { return false; }
  friend void get_property(malloc_host_resource const&, cuda::mr::host_accessible) noexcept {}
};

TEST_CASE("memory resources: host_buffer allocates from its resource once and frees once, moves included",
          "[memory_resource]")
{
  malloc_host_resource heap;
  counting_host_resource counting{fastpair::host_resource_ref{heap}};
  fastpair::host_resource_ref const mr{counting};
  {
    fastpair::host_buffer const empty;
    CHECK(empty.data() == nullptr);
    CHECK(empty.size() == 0);
    fastpair::host_buffer a(1000, mr);
    REQUIRE(a.data() != nullptr);
    CHECK(a.size() == 1000);
    a.data()[999] = 7;
    fastpair::host_buffer b(std::move(a));
    CHECK(a.data() == nullptr);  // NOLINT(bugprone-use-after-move): the moved-from state is specified
    CHECK(b.size() == 1000);
    CHECK(b.data()[999] == 7);
    fastpair::host_buffer c(24, mr);
    CHECK(counting.live() == 2);
    c = std::move(b);  // frees c's 24 bytes, takes b's 1000
    CHECK(counting.live() == 1);
    CHECK(c.size() == 1000);
    fastpair::host_buffer zero(0, mr);
    CHECK(zero.data() == nullptr);
  }
  CHECK(counting.allocations() == 2);
  CHECK(counting.deallocations() == 2);
  CHECK(counting.live() == 0);
  CHECK(counting.mismatches() == 0);
}

TEST_CASE("memory resources: prepare, decompress, selective decode and predicates allocate only from the resource passed",
          "[gpu][memory_resource]")
{
  FASTPAIR_CUDA_TRY(cudaDeviceSynchronize());  // earlier frees done: a stable default pool
  own_pool_resource pool;
  counting_device_resource counting{pool};
  fastpair::device_async_resource_ref const mr{counting};
  test_stream ts;
  cudaStream_t const s          = ts.s;
  std::uint64_t const default_0 = own_pool_resource::default_pool_used();

  auto const rows = sample_rows(3000);
  for (codec kind : {codec::onpair16, codec::onpair12}) {
    INFO(fastpair::codec_name(kind));
    auto const col  = fastpair::compress(rows, kind);
    auto const ref  = fastpair::decode_reference(col);
    std::size_t n0  = 0;
    {
      auto dcol = fastpair::device_column::prepare(col, s, {}, mr);
      CHECK(dcol.memory_resource() == mr);
      CHECK(counting.allocations() > 5);  // codes, planes, sidecar, offsets, error word, ...
      fastpair::prepare_options regen;
      regen.regenerate_sidecar = true;  // the GPU sidecar: temporaries (segment sums, CUB storage)
      n0 = counting.allocations();
      auto const dcol2 = fastpair::device_column::prepare(col, s, regen, mr);
      CHECK(counting.allocations() > n0);
      // The accelerators, built afterwards from the column's resource (the lean default has none).
      CHECK_FALSE(dcol.has_row_offsets());
      n0 = counting.allocations();
      dcol.build_length_stream(s);
      if (kind == codec::onpair12) dcol.build_fused_codes(s);
      dcol.build_row_offsets(s);  // selective decode and the predicates below read them
      CHECK(counting.allocations() > n0 + 2);
      CHECK(dcol.has_row_offsets());
      CHECK(dcol.has_length_stream());

      n0       = counting.allocations();
      auto out = fastpair::decompress(dcol, s, mr);
      CHECK(counting.allocations() == n0 + 2);  // offsets and chars
      CHECK(out.offsets.memory_resource() == mr);
      CHECK(out.chars.memory_resource() == mr);
      REQUIRE(to_host(out, s) == ref);
      auto const part = fastpair::decompress<std::int32_t>(dcol2, 10, 900, s, mr);  // locates rows on the GPU
      REQUIRE(to_host(part, s) == fastpair::decode_reference(col, 10, 900));
      // From the stored bytes of a .fpc image, in host and in device memory, with its accelerators.
      auto const image = fastpair::serialize(col);
      fastpair::prepare_options all;
      all.length_stream = all.fused_codes = all.row_offsets = true;
      n0                = counting.allocations();
      auto const from_host = fastpair::device_column::prepare_fpc_host(image.data(), image.size(), s, all, mr);
      CHECK(counting.allocations() > n0);
      CHECK(from_host.memory_resource() == mr);
      REQUIRE(to_host(fastpair::decompress(from_host, s, mr), s) == ref);
      auto const d_image   = upload(image, s, mr);
      auto const from_dev  = fastpair::device_column::prepare_fpc_device(d_image.data(), image.size(), s, all, mr);
      REQUIRE(to_host(fastpair::decompress<std::int32_t>(from_dev, 3, 1500, s, mr), s) ==
              fastpair::decode_reference(col, 3, 1500));

      // Selective decode: row ids (both strategies, a plan reused), ranges, a bitmask.
      std::vector<std::uint64_t> const ids{1, 5, 6, 7, 100, 1999, 2999};
      fastpair::host_strings expect;
      for (auto r : ids) expect.push_back(ref.row(r));
      auto const d_ids = upload(ids, s, mr);
      fastpair::device_row_ids const sel{d_ids.data(), ids.size()};
      for (auto strategy : {fastpair::select_strategy::selective, fastpair::select_strategy::decode_then_filter}) {
        INFO(fastpair::strategy_name(strategy));
        n0             = counting.allocations();
        auto const got = fastpair::decompress_selected(dcol, sel, s, strategy, mr);
        CHECK(counting.allocations() > n0 + 2);  // the plan, temporaries, the output
        CHECK(got.chars.memory_resource() == mr);
        REQUIRE(to_host(got, s) == expect);
      }
      n0              = counting.allocations();
      auto const plan = fastpair::make_select_plan(dcol, sel, s, mr);
      CHECK(counting.allocations() > n0);
      fastpair::string_column<std::int64_t> o;
      o.num_rows = plan.num_rows();
      o.offsets  = fastpair::device_buffer<std::int64_t>(o.num_rows + 1, s, mr);
      o.chars    = fastpair::device_buffer<char>(plan.bytes(), s, mr);
      n0         = counting.allocations();
      fastpair::decode_selected(dcol, plan, o.view(), s, fastpair::select_strategy::decode_then_filter, mr);
      CHECK(counting.allocations() > n0);  // the decoded column, CUB storage
      REQUIRE(to_host(o, s) == expect);
      std::vector<fastpair::row_range> const ranges{{3, 40}, {41, 41}, {2000, 2100}};
      auto const d_ranges = upload(ranges, s, mr);
      fastpair::validate_selection(dcol, fastpair::device_row_ranges{d_ranges.data(), ranges.size()}, s, mr);

      // Predicates: one-shot and prepared, then the bitmask as a selection and as row ids.
      fastpair::device_buffer<std::uint64_t> words((dcol.num_rows() + 63) / 64, s, mr);
      n0 = counting.allocations();
      fastpair::select_equal(dcol, col, ref.row(5), words.data(), s, mr);
      CHECK(counting.allocations() > n0);
      n0 = counting.allocations();
      auto const in = fastpair::device_literal_set::prepare(col, {ref.row(1), ref.row(2)}, s, mr);
      CHECK(counting.allocations() > n0);
      in.evaluate(dcol, words.data(), s);
      n0 = counting.allocations();
      fastpair::device_bitmask const mask = fastpair::select_substring(dcol, col, "DELIVER", words.data(), s, {}, mr);
      CHECK(counting.allocations() > n0);
      n0              = counting.allocations();
      auto const like = fastpair::device_like_predicate::prepare(col, fastpair::like_kind::prefix, "row 1", s, {}, mr);
      CHECK(counting.allocations() >= n0);  // a table unless the pattern is too long (it is not)
      std::size_t matches = 0;
      for (std::size_t r = 0; r < ref.num_rows(); ++r) matches += ref.row(r).find("DELIVER") != std::string_view::npos;
      auto const masked = fastpair::decompress_selected(dcol, mask, s, fastpair::select_strategy::automatic, mr);
      CHECK(masked.num_rows == matches);
      auto const as_ids = fastpair::to_row_ids(mask, s, mr);
      CHECK(as_ids.count == matches);
      CHECK(as_ids.rows.memory_resource() == mr);
      (void)like;

      FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
      CHECK(own_pool_resource::default_pool_used() == default_0);  // nothing from the default pool
      CHECK(pool.used() > 0);
      CHECK(counting.live() > 0);
    }
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
    CHECK(counting.allocations() == counting.deallocations());
    CHECK(counting.live() == 0);
    CHECK(counting.mismatches() == 0);
    CHECK(pool.used() == 0);
  }
  CHECK(own_pool_resource::default_pool_used() == default_0);
}

TEST_CASE("memory resources: cascades allocate only from the resource passed", "[gpu][memory_resource][cascade]")
{
  FASTPAIR_CUDA_TRY(cudaDeviceSynchronize());
  own_pool_resource pool;
  counting_device_resource counting{pool};
  fastpair::device_async_resource_ref const mr{counting};
  test_stream ts;
  cudaStream_t const s          = ts.s;
  std::uint64_t const default_0 = own_pool_resource::default_pool_used();
  fastpair::host_strings rows;
  for (int i = 0; i < 5000; ++i) rows.push_back(i % 400 < 200 ? "AIR REG" : (i % 7 ? "TRUCK" : "MAIL, long and longer"));
  for (auto layout : {fastpair::cascade_layout::indices, fastpair::cascade_layout::runs}) {
    INFO(fastpair::cascade_layout_name(layout));
    auto const c = fastpair::compress_cascade(rows, codec::onpair16, layout);
    {
      auto const dc = fastpair::device_cascaded_column::prepare(c, s, {}, mr);
      CHECK(dc.memory_resource() == mr);
      CHECK(dc.distinct().memory_resource() == mr);
      std::size_t const n0 = counting.allocations();
      CHECK(n0 > 0);
      auto const out = fastpair::decompress(dc, s, mr);
      CHECK(counting.allocations() == n0 + 2);  // the decode itself allocates nothing
      CHECK(out.chars.memory_resource() == mr);
      REQUIRE(to_host(out, s) == rows);
      fastpair::any_column const any{c};
      auto const da = fastpair::device_any_column::prepare(any, s, {}, mr);
      REQUIRE(da.is_cascade());
      REQUIRE(to_host(fastpair::decompress<std::int32_t>(da, s, mr), s) == rows);
      FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
      CHECK(own_pool_resource::default_pool_used() == default_0);
    }
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
    CHECK(counting.allocations() == counting.deallocations());
    CHECK(counting.live() == 0);
    CHECK(counting.mismatches() == 0);
  }
}

TEST_CASE("memory resources: DSV parsing allocates only from the resources passed", "[gpu][memory_resource][dsv]")
{
  FASTPAIR_CUDA_TRY(cudaDeviceSynchronize());
  own_pool_resource pool;
  counting_device_resource counting{pool};
  counting_host_resource host_counting{fastpair::default_host_resource()};
  fastpair::device_async_resource_ref const mr{counting};
  fastpair::host_resource_ref const host_mr{host_counting};
  test_stream ts;
  cudaStream_t const s          = ts.s;
  std::uint64_t const default_0 = own_pool_resource::default_pool_used();

  std::string text = "name,value,comment\n";
  for (int i = 0; i < 2000; ++i)
    text += "n" + std::to_string(i) + "," + std::to_string(i * 7) + (i % 5 ? ",plain\n" : ",\"quoted, \"\"text\"\"\"\n");
  fastpair::dsv_dialect const d = fastpair::testing::csv(true);
  fastpair::dsv_table const ref = fastpair::parse_dsv_reference(text, d);
  {
    auto const input = upload(std::vector<char>(text.begin(), text.end()), s, mr);
    std::size_t n0   = counting.allocations();
    auto const b     = fastpair::parse_dsv_boundaries(input.data(), text.size(), d, s, mr);
    CHECK(counting.allocations() > n0);
    CHECK(b.record_ends.memory_resource() == mr);
    CHECK(b.num_records == ref.num_records + 1);  // the header counted
    n0               = counting.allocations();
    auto const table = fastpair::parse_dsv(input.data(), text.size(), d, s, mr);
    CHECK(counting.allocations() > n0);
    REQUIRE(table.num_fields() == 3);
    for (auto const& c : table.columns) CHECK(c.chars.memory_resource() == mr);
    REQUIRE(table.to_host(s) == ref);

    // Streamed from pageable host memory: device windows and batches from mr, pinned staging
    // (and the column sizes read back) from host_mr.
    fastpair::dsv_stream_options opt;
    opt.batch_bytes = 4096;
    {
      fastpair::dsv_streamer streamer(opt, mr, host_mr);
      std::uint64_t records = 0;
      bool from_mr          = true;
      streamer.parse(text, d, [&](fastpair::dsv_batch const& batch) {
        records += batch.boundaries->num_records;
        for (auto const& c : batch.table->columns) from_mr = from_mr && c.offsets.memory_resource() == mr;
      });
      CHECK(records == ref.num_records + 1);
      CHECK(from_mr);
      CHECK(host_counting.allocations() >= 3);  // two staging buffers, the column sizes
      CHECK(host_counting.live() > 0);          // kept for the next parse
    }
    CHECK(host_counting.allocations() == host_counting.deallocations());
    CHECK(host_counting.mismatches() == 0);
    n0 = host_counting.allocations();
    REQUIRE(fastpair::parse_dsv_streamed_to_host(text, d, opt, mr, host_mr) == ref);
    CHECK(host_counting.allocations() > n0);
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
    CHECK(own_pool_resource::default_pool_used() == default_0);
  }
  FASTPAIR_CUDA_TRY(cudaDeviceSynchronize());  // the streamers' frees ran on their own streams
  CHECK(counting.allocations() == counting.deallocations());
  CHECK(counting.live() == 0);
  CHECK(counting.mismatches() == 0);
  CHECK(host_counting.allocations() == host_counting.deallocations());
  CHECK(host_counting.live() == 0);
}
