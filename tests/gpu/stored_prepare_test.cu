// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// A device_column built on the GPU from the stored bytes of a `.fpc` image
// (device_column::prepare_fpc_host from pageable and pinned memory, prepare_fpc_device from
// device memory): every codec on prefixes of real columns and on synthetic columns (empty rows,
// one-code rows, all-equal row code counts = count_bits 0, more than 1 024 rows, long rows that
// make the row index blocks unequal) decodes byte for byte (chars and int32 / int64 offsets) as
// the CPU reference, whole and in row ranges aligned and unaligned to the row index, with and
// without the row offsets, the other accelerators, a stored sidecar and validation;
// device_bytes() is exactly what the column holds from its resource; corrupt version-2 images
// are refused with a format_error naming what is wrong (or, without validation, reach the device
// error word); version-1 images still prepare. decode_fpc_host / decode_fpc_device (preparation
// and decode pipelined in steps) decode the same images as the reference, refuse the same corrupt
// ones and never write outside their output.
#include "utils/data.hpp"
#include "utils/generators.hpp"
#include "utils/gpu_check.cuh"
#include "utils/gpu_resources.cuh"
#include "utils/stored_images.cuh"

#include <fastpair/encode.hpp>
#include <fastpair/fastpair.cuh>
#include <fastpair/io.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ft   = fastpair::testing;
namespace fpc2 = fastpair::detail::fpc2;
using fastpair::codec;
using Catch::Contains;

namespace {

using namespace fastpair::testing::images;  // synthetic columns, image surgery
using image_t = std::vector<std::uint8_t>;
using rows_t  = std::pair<std::uint64_t, std::uint64_t>;

constexpr codec all_codecs[] = {codec::onpair16, codec::onpair12, codec::fsst12};

// ---- where the image lies ----------------------------------------------------------------------

enum class source { pageable, pinned, device };
constexpr source all_sources[] = {source::pageable, source::pinned, source::device};

/** Whether a column's checks take image source `src`: every source normally; under
 *  compute-sanitizer (FASTPAIR_TEST_LIGHT) one source per call, in turn, so that a run over many
 *  columns still covers all three while staying inside the sanitizer run's time limit. */
class source_turns {
 public:
  source_turns() : only_(all_sources[next_++ % 3]), light_(std::getenv("FASTPAIR_TEST_LIGHT") != nullptr) {}
  bool takes(source src) const { return !light_ || src == only_; }

 private:
  static inline unsigned next_ = 0;
  source only_;
  bool light_;
};

char const* source_name(source s)
{
  switch (s) {
    case source::pageable: return "prepare_fpc_host (pageable)";
    case source::pinned: return "prepare_fpc_host (pinned)";
    case source::device: return "prepare_fpc_device";
  }
  return "?";
}

/** A copy of an image where `src` says: a std::vector, cudaMallocHost memory or a device buffer
 *  of exactly its size (so that a read past the image is a sanitizer error). */
class held_image {
 public:
  held_image(image_t const& bytes, source src, cudaStream_t s) : src_(src), size_(bytes.size()), pageable_(bytes)
  {
    if (src == source::pinned) pinned_.emplace(bytes);
    if (src == source::device) {
      device_.emplace(size_, s);
      if (size_) FASTPAIR_CUDA_TRY(cudaMemcpyAsync(device_->data(), bytes.data(), size_, cudaMemcpyHostToDevice, s));
      FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
    }
  }
  held_image(held_image const&)            = delete;
  held_image& operator=(held_image const&) = delete;

  fastpair::device_column prepare(cudaStream_t s, fastpair::prepare_options const& opt = {},
                                  fastpair::device_async_resource_ref mr = fastpair::default_device_resource()) const
  {
    using fastpair::device_column;
    switch (src_) {
      case source::pageable: return device_column::prepare_fpc_host(pageable_.data(), size_, s, opt, mr);
      case source::pinned: return device_column::prepare_fpc_host(pinned_->data(), size_, s, opt, mr);
      case source::device: return device_column::prepare_fpc_device(device_->data(), size_, s, opt, mr);
    }
    throw std::logic_error("unknown source");
  }

  /** decode_fpc_host / decode_fpc_device of the image into `out`. */
  template <class OffsetT>
  fastpair::device_column decode(cudaStream_t s, fastpair::string_column_view<OffsetT> out,
                                 fastpair::prepare_options const& opt = {}) const
  {
    switch (src_) {
      case source::pageable: return fastpair::decode_fpc_host(pageable_.data(), size_, out, s, opt);
      case source::pinned: return fastpair::decode_fpc_host(pinned_->data(), size_, out, s, opt);
      case source::device: return fastpair::decode_fpc_device(device_->data(), size_, out, s, opt);
    }
    throw std::logic_error("unknown source");
  }

 private:
  source src_;
  std::size_t size_;
  image_t pageable_;
  std::optional<ft::pinned_copy> pinned_;
  std::optional<fastpair::device_buffer<std::uint8_t>> device_;
};

/** prepare_fpc_host (pageable) or prepare_fpc_device of `bytes`. */
fastpair::device_column prepare_image(image_t const& bytes, source src, fastpair::prepare_options const& opt = {},
                                      cudaStream_t s = nullptr)
{
  held_image const h(bytes, src, s);
  return h.prepare(s, opt);
}


// ---- checks ------------------------------------------------------------------------------------

/** The row ranges a prepared column is checked on: whole, aligned to the row index, unaligned,
 *  the last row, empty, and ranges ending at the column's end. */
std::vector<rows_t> ranges_of(std::uint64_t R)
{
  std::vector<rows_t> const candidates = {{0, R},       {1024, 2048}, {3, 1500},     {R - 1, R},      {5, 5},
                                          {R / 2, R},   {1023, 1025}, {0, 1024},     {R - R % 1024, R}, {2047, R},
                                          {1, 2},       {R, R},       {R / 3, R - R / 5}};
  std::vector<rows_t> out;
  for (auto const& rr : candidates)
    if (R > 0 || (rr.first == 0 && rr.second == 0))
      if (rr.first <= rr.second && rr.second <= R && std::find(out.begin(), out.end(), rr) == out.end()) out.push_back(rr);
  return out;
}


/** The compact row lengths' width for `col`: 1 if every row is <= 255 bytes, 2 if <= 65 535, else 0. */
int row_length_width(fastpair::compressed_column const& col)
{
  std::uint64_t longest = 0;
  for (std::uint64_t r = 0; r < col.num_rows(); ++r) longest = std::max(longest, col.row_byte_offsets[r + 1] - col.row_byte_offsets[r]);
  return longest <= 0xFF ? 1 : longest <= 0xFFFF ? 2 : 0;
}

/** `col` with its sidecar (computed if it has none). */
fastpair::compressed_column with_sidecar(fastpair::compressed_column col)
{
  if (col.sidecar.empty()) fastpair::compute_sidecar(col);
  return col;
}

/**
 * Everything a prepared column must show for `col` (the CPU reference): its counts, histogram,
 * sidecar, row index and row offsets (if built), then decodes of every range of ranges_of() with
 * int64 and int32 offsets (guarded outputs, decompress) equal to decode_reference byte for byte.
 * `full` false: the whole column and three ranges only.
 */
void check_prepared(fastpair::device_column const& dcol, fastpair::compressed_column const& col, cudaStream_t s,
                    bool full = true)
{
  std::uint64_t const R = col.num_rows();
  REQUIRE(dcol.prepared());
  REQUIRE(dcol.kind() == col.kind);
  REQUIRE(dcol.num_rows() == R);
  REQUIRE(dcol.num_codes() == col.num_codes);
  REQUIRE(dcol.decoded_bytes() == col.decoded_bytes());
  REQUIRE(dcol.sidecar_stride() == col.sidecar_stride);
  REQUIRE(dcol.histogram() == fastpair::token_length_histogram(col));
  // The sidecar (stored or regenerated), then decoded_bytes.
  auto const expect_sidecar = [&] {
    auto v = with_sidecar(col).sidecar;
    v.push_back(col.decoded_bytes());
    return v;
  }();
  auto const* sidecar = dcol.low_plane_bytes() == 8 ? dcol.view<8>().sidecar : dcol.view<16>().sidecar;
  REQUIRE(download(sidecar, dcol.num_segments() + 1, s) == expect_sidecar);
  // The row index: entry k = row k * 1 024's first code and position, the last = the totals.
  std::uint64_t const blocks = (R + dcol.row_index_rows() - 1) / dcol.row_index_rows();
  auto const bc = download(dcol.device_block_codes(), blocks + 1, s);
  auto const bb = download(dcol.device_block_bytes(), blocks + 1, s);
  for (std::uint64_t k = 0; k <= blocks; ++k) {
    std::uint64_t const r = std::min(k * dcol.row_index_rows(), R);
    REQUIRE(bc[k] == col.row_code_offsets[r]);
    REQUIRE(bb[k] == col.row_byte_offsets[r]);
  }
  REQUIRE((dcol.device_row_lengths() != nullptr) == (dcol.row_length_bytes() != 0));
  if (dcol.row_length_bytes() != 0) {  // the compact row lengths, 1 or 2 bytes per row
    auto const h = download(static_cast<std::uint8_t const*>(dcol.device_row_lengths()), R * dcol.row_length_bytes(), s);
    for (std::uint64_t r = 0; r < R; ++r) {
      std::uint64_t const got = dcol.row_length_bytes() == 1 ? h[r] : h[2 * r] | std::uint64_t{h[2 * r + 1]} << 8;
      REQUIRE(got == col.row_byte_offsets[r + 1] - col.row_byte_offsets[r]);
    }
  }
  if (dcol.has_row_offsets()) {
    REQUIRE(download(dcol.device_row_code_offsets(), R + 1, s) == col.row_code_offsets);
    REQUIRE(download(dcol.device_row_byte_offsets(), R + 1, s) == col.row_byte_offsets);
  } else {
    REQUIRE_THROWS_AS(dcol.device_row_code_offsets(), std::logic_error);
  }

  auto const ref = fastpair::decode_reference(col);
  REQUIRE(fastpair::decompress<std::int64_t>(dcol, s).to_host(s) == ref);
  REQUIRE(fastpair::decompress<std::int32_t>(dcol, s).to_host(s) == ref);
  std::vector<rows_t> ranges = ranges_of(R);
  if (!full && ranges.size() > 4) ranges.resize(4);
  for (auto const& [r0, r1] : ranges) {
    INFO("rows [" << r0 << ", " << r1 << ")");
    auto const rr = dcol.locate_rows(r0, r1, s);
    REQUIRE(rr.c0 == col.row_code_offsets[r0]);
    REQUIRE(rr.c1 == col.row_code_offsets[r1]);
    REQUIRE(rr.b0 == col.row_byte_offsets[r0]);
    REQUIRE(rr.b1 == col.row_byte_offsets[r1]);
    REQUIRE(dcol.decoded_bytes(r0, r1, s) == col.row_byte_offsets[r1] - col.row_byte_offsets[r0]);
    auto const expect = fastpair::decode_reference(col, r0, r1);
    ft::check_decode<fastpair::auto_config, std::int64_t>(dcol, expect, r0, r1, static_cast<unsigned>(r0 % 7), s);
    ft::check_decode<fastpair::auto_config, std::int32_t>(dcol, expect, r0, r1, static_cast<unsigned>(r1 % 5), s);
    REQUIRE(fastpair::decompress<std::int32_t>(dcol, r0, r1, s).to_host(s) == expect);
  }
  REQUIRE(dcol.read_and_clear_errors(s) == 0);
}

struct variant {
  char const* name;
  fastpair::prepare_options opt;
};

/** The option sets each stored column is prepared with; between them every offsets pass of
 *  decode_column (from the codes, copied from the row offsets, from the compact row lengths). */
std::vector<variant> variants(bool all = true)
{
  std::vector<variant> v;
  v.push_back({"default (lean)", {}});
  fastpair::prepare_options o;
  o.row_offsets           = true;
  o.row_lengths_max_share = 0;  // the row offsets copied (row lengths would take precedence)
  v.push_back({"row_offsets, no row lengths", o});
  o                       = {};
  o.row_lengths_max_share = 1e9;  // wherever rows fit 2 bytes
  v.push_back({"row lengths", o});
  o             = {};
  o.length_stream = o.fused_codes = true;
  v.push_back({"length_stream + fused_codes", o});
  o                       = {};
  o.validate              = false;
  o.row_lengths_max_share = 0;  // the offsets from the codes
  v.push_back({"validate = false, no row lengths", o});
  o             = {};
  o.chunk_bytes = 1;  // rounded up to 4 KiB: the columns here take many steps
  v.push_back({"pipeline steps of 4 KiB", o});
  if (!all) return v;
  o                = {};
  o.validate       = false;
  o.row_offsets    = o.length_stream = o.fused_codes = true;
  o.low_plane_bytes = 16;
  v.push_back({"validate = false, every accelerator, W 16", o});
  o                       = {};
  o.regenerate_sidecar    = true;
  o.low_plane_bytes       = 8;
  o.row_lengths_max_share = 1e9;
  o.row_offsets           = true;
  v.push_back({"regenerate_sidecar, W 8, row lengths + row offsets", o});
  return v;
}

/** The option sets for images held in `src`: every one for pageable memory; for pinned and
 *  device memory, which differ only in how the bytes are copied (the checks and expansions on
 *  the GPU are the same), the default and the unvalidated one, to keep sanitizer runs short. */
std::vector<variant> variants_for(source src, bool all = true)
{
  auto v = variants(all);
  // Under compute-sanitizer (gpu-verify sets FASTPAIR_TEST_LIGHT) every source gets the short list:
  // memcheck's per-launch cost makes the full matrix run for more than its time limit.
  bool const light = std::getenv("FASTPAIR_TEST_LIGHT") != nullptr;
  if (src == source::pageable && !light) return v;
  std::vector<variant> out = {v[0], v[4], v[5]};  // default; validate = false, no row lengths; steps of 4 KiB
  if (src == source::device) {  // the column reads the image's codes (validated, then trusted in steps)
    fastpair::prepare_options o;
    o.borrow_codes = true;
    out.push_back({"borrow_codes", o});
    o.validate    = false;
    o.chunk_bytes = 1;
    out.push_back({"borrow_codes, validate = false, steps of 4 KiB", o});
  }
  return out;
}

/** Every source x variant x (stored sidecar or not) of `col`. */
void check_stored_column(fastpair::compressed_column const& col, bool all_variants, cudaStream_t s)
{
  for (auto const& [sidecar, c] : with_and_without_sidecar(col)) {
    INFO((sidecar ? "stored sidecar" : "no stored sidecar"));
    image_t const image = fastpair::serialize(c);
    REQUIRE(fastpair::parse_fpc_header(image.data(), image.size()).version == 2);
    REQUIRE(fastpair::parse_fpc_header(image.data(), image.size()).has_sidecar == sidecar);
    source_turns const turns;
    for (source const src : all_sources) {
      if (!turns.takes(src)) continue;
      INFO(source_name(src));
      held_image const held(image, src, s);
      for (auto const& v : variants_for(src, all_variants)) {
        INFO("options: " << v.name);
        auto const dcol = held.prepare(s, v.opt);
        REQUIRE(dcol.has_row_offsets() == v.opt.row_offsets);
        REQUIRE(dcol.borrows_codes() == (v.opt.borrow_codes && c.num_codes > 0));
        if (v.opt.row_lengths_max_share == 0) REQUIRE(dcol.row_length_bytes() == 0);
        if (v.opt.row_lengths_max_share > 1 && c.num_rows() > 0) REQUIRE(dcol.row_length_bytes() == row_length_width(c));
        REQUIRE(dcol.has_length_stream() == v.opt.length_stream);
        REQUIRE(dcol.has_fused_codes() == (v.opt.fused_codes && c.kind != codec::onpair16));
        REQUIRE_FALSE(dcol.has_split_stream());
        if (v.opt.low_plane_bytes) REQUIRE(dcol.low_plane_bytes() == v.opt.low_plane_bytes);
        if (src == source::pageable) {  // the same column as prepare(compressed_column): W and device bytes
          auto const from_col = fastpair::device_column::prepare(c, s, v.opt);
          REQUIRE(dcol.low_plane_bytes() == from_col.low_plane_bytes());
          REQUIRE(dcol.device_bytes() == from_col.device_bytes());
        }
        check_prepared(dcol, c, s, src == source::pageable);
      }
    }
  }
}


/** REQUIREs that preparing `img` from pageable host memory and from device memory throws a
 *  format_error whose message contains `what` (with options `opt`); and so does decoding it
 *  with decode_fpc_host / decode_fpc_device in steps of 4 KiB, into an output sized by its
 *  header, which is written nowhere outside. */
void require_refused(image_t const& img, std::string const& what, fastpair::prepare_options const& opt = {})
{
  fastpair::prepare_options stepped = opt;
  stepped.chunk_bytes               = 4096;
  std::uint64_t rows = 0, bytes = 0;
  try {
    auto const h = header_of(img);
    rows = h.n_rows, bytes = h.decoded;
  } catch (fastpair::format_error const&) {  // refused before anything reads the output
  }
  for (source src : {source::pageable, source::device}) {
    INFO(source_name(src) << ", expecting \"" << what << "\"");
    REQUIRE_THROWS_AS(prepare_image(img, src, opt), fastpair::format_error);
    REQUIRE_THROWS_WITH(prepare_image(img, src, opt), Contains(what));
    held_image const held(img, src, nullptr);
    ft::guarded_output<std::int64_t> out(rows, bytes, 3, nullptr, ft::poison, 0xFF, 4);
    {
      INFO("decode_fpc_*, steps of 4 KiB");
      REQUIRE_THROWS_AS(held.decode(nullptr, out.view(), stepped), fastpair::format_error);
      REQUIRE_THROWS_WITH(held.decode(nullptr, out.view(), stepped), Contains(what));
      out.require_guards_intact(nullptr);
    }
    {
      // One step: on sm_90 the decode kernel writes the offsets itself (the corruption column's
      // rows are long: checked by the test case), reading a segment index built from the counts.
      INFO("decode_fpc_*, one step");
      REQUIRE_THROWS_WITH(held.decode(nullptr, out.view(), opt), Contains(what));
      out.require_guards_intact(nullptr);
    }
    if (src != source::device) continue;
    INFO("prepare_options::borrow_codes");
    fastpair::prepare_options borrow = opt;
    borrow.borrow_codes              = true;
    REQUIRE_THROWS_WITH(held.prepare(nullptr, borrow), Contains(what));
    REQUIRE_THROWS_WITH(held.decode(nullptr, out.view(), borrow), Contains(what));
    out.require_guards_intact(nullptr);
    borrow.chunk_bytes = 4096;
    REQUIRE_THROWS_WITH(held.decode(nullptr, out.view(), borrow), Contains(what));
    out.require_guards_intact(nullptr);
  }
}

}  // namespace

// ---- a. stored images decode as the reference --------------------------------------------------

TEST_CASE("prepare_fpc_host / prepare_fpc_device: synthetic columns decode as the reference",
          "[gpu][prepare_fpc][sharded]")
{
  ft::test_stream ts;
  for (codec kind : all_codecs) {
    for (auto const& c : shard_of(synthetic_columns(kind))) {
      INFO(fastpair::codec_name(kind) << ", " << c.name << " (" << c.col.num_rows() << " rows, " << c.col.num_codes
                                      << " codes)");
      check_stored_column(c.col, true, ts.s);
    }
  }
}

TEST_CASE("prepare_fpc_host / prepare_fpc_device: prefixes of real columns decode as the reference",
          "[gpu][prepare_fpc][shared]")
{
  ft::test_stream ts;
  std::size_t const max_bytes = ft::test_source_bytes(std::size_t{128} << 10);  // small: sanitizer runs
  for (char const* name : {"tpch_o_clerk", "urls", "zh_text"}) {
    auto const rows = ft::load_shared_column(name, max_bytes);
    for (codec kind : all_codecs) {
      INFO(name << " " << fastpair::codec_name(kind) << " (" << rows.num_rows() << " rows)");
      auto const col = fastpair::compress(rows, kind);
      REQUIRE(fastpair::decode_reference(col) == rows);
      check_stored_column(col, false, ts.s);
    }
  }
}

// ---- b. decode_fpc_host / decode_fpc_device: preparation and decode pipelined ------------------

namespace {

/** decode_fpc_* of every source x option set of `col`'s image (stored sidecar or not), into
 *  guarded int64, int32 and chars-only outputs, each equal to the reference; the returned column
 *  is the prepared column (checked as prepare_fpc_host's, without the compact row lengths). */
void check_pipelined_decode(fastpair::compressed_column const& col, cudaStream_t s)
{
  bool const light = std::getenv("FASTPAIR_TEST_LIGHT") != nullptr;
  auto const ref   = fastpair::decode_reference(col);
  for (bool const sidecar : {true, false}) {
    if (col.num_codes == 0 && sidecar) continue;
    auto c = col;
    if (!sidecar) c.sidecar.clear();
    else if (c.sidecar.empty()) fastpair::compute_sidecar(c);
    INFO((sidecar ? "stored sidecar" : "no stored sidecar"));
    image_t const image = fastpair::serialize(c);
    std::vector<variant> opts;
    fastpair::prepare_options o;
    o.chunk_bytes = 4096;
    opts.push_back({"steps of 4 KiB", o});
    if (!light) {
      opts.push_back({"default", {}});
      o.validate = false;  // a stored sidecar is used as it is
      opts.push_back({"steps of 4 KiB, validate = false", o});
      o             = {};
      o.chunk_bytes = 8192;
      o.row_offsets = o.length_stream = o.fused_codes = true;
      o.low_plane_bytes = 16;
      opts.push_back({"steps of 8 KiB, accelerators, W 16", o});
    }
    source_turns const turns;
    for (source const src : all_sources) {
      if (!turns.takes(src)) continue;
      INFO(source_name(src));
      held_image const held(image, src, s);
      std::vector<variant> here = opts;
      if (src == source::device) {  // the column reads the image's codes: no copy of them
        fastpair::prepare_options b;
        b.borrow_codes = true;
        b.chunk_bytes  = 4096;
        here.push_back({"borrow_codes, steps of 4 KiB", b});
        b.validate = false;
        here.push_back({"borrow_codes, steps of 4 KiB, validate = false", b});
      }
      for (auto const& v : here) {
        INFO("options: " << v.name);
        {
          ft::guarded_output<std::int64_t> out(c.num_rows(), c.decoded_bytes(), 5, s, ft::poison, 0xFF, 4);
          auto const dcol = held.decode(s, out.view(), v.opt);
          out.require_equal(ref, s);
          REQUIRE(dcol.borrows_codes() == (v.opt.borrow_codes && c.num_codes > 0));
          REQUIRE(dcol.row_length_bytes() == 0);
          REQUIRE(dcol.has_row_offsets() == v.opt.row_offsets);
          REQUIRE(dcol.has_length_stream() == v.opt.length_stream);
          if (v.opt.low_plane_bytes) REQUIRE(dcol.low_plane_bytes() == v.opt.low_plane_bytes);
          check_prepared(dcol, c, s, false);
        }
        if (light) continue;
        {
          ft::guarded_output<std::int32_t> out(c.num_rows(), c.decoded_bytes(), 0, s, ft::poison, 0xFF, 4);
          (void)held.decode(s, out.view(), v.opt);
          out.require_equal(ref, s);
        }
        {
          ft::guarded_output<std::int64_t> out(c.num_rows(), c.decoded_bytes(), 1, s);
          auto view    = out.view();
          view.offsets = nullptr;  // chars only
          (void)held.decode(s, view, v.opt);
          out.require_equal(ref, s, false);
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("decode_fpc_host / decode_fpc_device: synthetic columns decode as the reference",
          "[gpu][prepare_fpc][pipelined][sharded]")
{
  ft::test_stream ts;
  for (codec kind : all_codecs)
    for (auto const& c : shard_of(synthetic_columns(kind))) {
      INFO(fastpair::codec_name(kind) << ", " << c.name << " (" << c.col.num_rows() << " rows, " << c.col.num_codes
                                      << " codes)");
      check_pipelined_decode(c.col, ts.s);
    }
}

TEST_CASE("the decode's segment index: the first row at or after each segment start, and its first code",
          "[gpu][prepare_fpc][pipelined]")
{
  // decode_fpc_* on long rows write the offsets in the decode kernel by segment_rows_kernel's index
  // (row_sink.cuh); here it is compared with the host's row code offsets on every synthetic shape
  // (rows across many segments, stride 1, leading and trailing empty rows, all-equal counts).
  // It also checks that the shapes take both ways to the offsets in decode_fpc_* (by the kernel,
  // by the pass), so that the synthetic decode_fpc test above covers both.
  ft::test_stream ts;
  int shapes = 0, in_decode = 0;
  bool sm90  = false;
  for (codec kind : all_codecs)
    for (auto const& c : synthetic_columns(kind)) {
      auto const& col = c.col;
      std::uint64_t const R = col.num_rows(), M = col.num_codes, S = col.sidecar_stride;
      if (R == 0) continue;
      INFO(fastpair::codec_name(kind) << ", " << c.name << " (" << R << " rows, " << M << " codes, stride " << S << ")");
      image_t const image = fastpair::serialize(col);
      held_image const held(image, source::device, ts.s);
      auto const dcol          = held.prepare(ts.s, {});
      auto const policy        = fastpair::select_policy(dcol);
      sm90 |= policy.arch == fastpair::arch_bucket::sm90;
      ++shapes, in_decode += fastpair::detail::offsets_in_decode(dcol, policy);
      std::uint64_t const nseg = (M + S - 1) / S;
      fastpair::device_buffer<fastpair::detail::segment_row> d(nseg + 1, ts.s);
      FASTPAIR_CUDA_TRY(fastpair::detail::launch_segment_rows(dcol.counts_view(), dcol.device_block_codes(), M, S,
                                                              d.data(), ts.s));
      auto const got = download(d.data(), nseg + 1, ts.s);
      auto const& fc = col.row_code_offsets;  // R + 1 entries, the last = M
      for (std::uint64_t seg = 0; seg <= nseg; ++seg) {
        std::uint64_t const cs  = std::min(seg * S, M);
        std::uint64_t const row = static_cast<std::uint64_t>(std::lower_bound(fc.begin(), fc.end(), cs) - fc.begin());
        INFO("segment " << seg);
        REQUIRE(got[seg].row == row);
        if (seg < nseg) REQUIRE(got[seg].first_code == std::min(fc[row] - seg * S, S));
      }
    }
  INFO(in_decode << " of " << shapes << " shapes have their offsets written by the decode kernel");
  if (sm90) REQUIRE((in_decode > 0 && in_decode < shapes));
  else REQUIRE(in_decode == 0);  // no register_words config before sm_90
}

TEST_CASE("decode_fpc_host / decode_fpc_device: prefixes of real columns decode as the reference",
          "[gpu][prepare_fpc][pipelined][shared]")
{
  ft::test_stream ts;
  std::size_t const max_bytes = ft::test_source_bytes(std::size_t{128} << 10);
  for (char const* name : {"tpch_o_clerk", "urls", "zh_text"}) {
    auto const rows = ft::load_shared_column(name, max_bytes);
    for (codec kind : all_codecs) {
      INFO(name << " " << fastpair::codec_name(kind) << " (" << rows.num_rows() << " rows)");
      check_pipelined_decode(fastpair::compress(rows, kind), ts.s);
    }
  }
}

TEST_CASE("decode_fpc_host: an output that does not fit the image is refused, a version-1 image decodes",
          "[gpu][prepare_fpc][pipelined]")
{
  ft::test_stream ts;
  auto const col = corruption_column(codec::onpair12);
  image_t const img = fastpair::serialize(col);
  fastpair::prepare_options stepped;
  stepped.chunk_bytes = 4096;
  for (source src : all_sources) {
    INFO(source_name(src));
    held_image const held(img, src, ts.s);
    {
      ft::guarded_output<std::int64_t> out(col.num_rows(), col.decoded_bytes() - 1, 0, ts.s, ft::poison, 0xFF, 4);
      REQUIRE_THROWS_WITH(held.decode(ts.s, out.view(), stepped), Contains("output chars capacity"));
      out.require_guards_intact(ts.s);
    }
    {
      ft::guarded_output<std::int64_t> out(col.num_rows() - 1, col.decoded_bytes(), 0, ts.s, ft::poison, 0xFF, 4);
      REQUIRE_THROWS_WITH(held.decode(ts.s, out.view(), stepped), Contains("rows"));
      out.require_guards_intact(ts.s);
    }
  }
  image_t const v1 = fastpair::serialize(col, 1);
  for (source src : all_sources) {
    INFO("version 1, " << source_name(src));
    held_image const held(v1, src, ts.s);
    ft::guarded_output<std::int64_t> out(col.num_rows(), col.decoded_bytes(), 2, ts.s, ft::poison, 0xFF, 4);
    (void)held.decode(ts.s, out.view(), stepped);
    out.require_equal(fastpair::decode_reference(col), ts.s);
  }
}

TEST_CASE("decode_fpc_device: an image at any device address decodes, in place or copied first",
          "[gpu][prepare_fpc][pipelined]")
{
  // At a 16-byte aligned address the decode reads the stored codes in place; at any other one the
  // codes are copied into the column first. Both give the reference, and the returned column,
  // whose codes are its own copy, decodes again after the image is gone.
  ft::test_stream ts;
  auto const col    = corruption_column(codec::onpair12);
  image_t const img = fastpair::serialize(col);
  auto const ref    = fastpair::decode_reference(col);
  for (std::size_t shift : {std::size_t{0}, std::size_t{8}, std::size_t{1}}) {
    INFO("image at 16-byte alignment + " << shift);
    std::optional<fastpair::device_column> dcol;
    {
      fastpair::device_buffer<std::uint8_t> buf(img.size() + shift, ts.s);
      FASTPAIR_CUDA_TRY(cudaMemcpyAsync(buf.data() + shift, img.data(), img.size(), cudaMemcpyHostToDevice, ts.s));
      ft::guarded_output<std::int64_t> out(col.num_rows(), col.decoded_bytes(), 2, ts.s, ft::poison, 0xFF, 4);
      dcol.emplace(fastpair::decode_fpc_device(buf.data() + shift, img.size(), out.view(), ts.s));
      out.require_equal(ref, ts.s);
      FASTPAIR_CUDA_TRY(cudaMemsetAsync(buf.data(), 0xEE, buf.size(), ts.s));  // the image is overwritten, then freed
    }
    ft::guarded_output<std::int64_t> again(col.num_rows(), col.decoded_bytes(), 2, ts.s, ft::poison, 0xFF, 4);
    fastpair::decode_column(*dcol, again.view(), ts.s);
    REQUIRE(dcol->read_and_clear_errors(ts.s) == 0);
    again.require_equal(ref, ts.s);
  }
}

TEST_CASE("prepare_options::borrow_codes: the column reads the image's codes, and is refused where it cannot",
          "[gpu][prepare_fpc][pipelined]")
{
  ft::test_stream ts;
  auto const col    = corruption_column(codec::onpair16);
  image_t const img = fastpair::serialize(col);
  auto const ref    = fastpair::decode_reference(col);
  fastpair::prepare_options borrow;
  borrow.borrow_codes = true;
  std::uint64_t const codes_bytes = (fastpair::packed_code_bytes(col.kind, col.num_codes) + 1) / 2 * 2;
  {
    held_image const held(img, source::device, ts.s);
    auto const own = held.prepare(ts.s);
    auto const dcol = held.prepare(ts.s, borrow);
    REQUIRE(dcol.borrows_codes());
    REQUIRE_FALSE(own.borrows_codes());
    REQUIRE(dcol.device_bytes() + codes_bytes == own.device_bytes());
    CHECK(fastpair::device_column::device_bytes(col, borrow) + fastpair::packed_code_bytes(col.kind, col.num_codes) + 1 ==
          fastpair::device_column::device_bytes(col));  // the estimates differ by the codes' term
    check_prepared(dcol, col, ts.s);  // every range, both offset widths, again and again from the image
    // decode_fpc_device: the decode and the returned column read the image; the column decodes again.
    ft::guarded_output<std::int64_t> out(col.num_rows(), col.decoded_bytes(), 2, ts.s, ft::poison, 0xFF, 4);
    auto const again = held.decode(ts.s, out.view(), borrow);
    out.require_equal(ref, ts.s);
    REQUIRE(again.borrows_codes());
    REQUIRE(fastpair::decompress(again, ts.s).to_host(ts.s) == ref);
    REQUIRE(again.read_and_clear_errors(ts.s) == 0);
  }
  SECTION("host memory and in-memory columns: logic_error")
  {
    for (source src : {source::pageable, source::pinned}) {
      INFO(source_name(src));
      held_image const held(img, src, ts.s);
      REQUIRE_THROWS_WITH(held.prepare(ts.s, borrow), Contains("borrow_codes") && Contains("device memory"));
      ft::guarded_output<std::int64_t> out(col.num_rows(), col.decoded_bytes(), 2, ts.s, ft::poison, 0xFF, 4);
      REQUIRE_THROWS_AS(held.decode(ts.s, out.view(), borrow), std::logic_error);
      out.require_guards_intact(ts.s);
    }
    REQUIRE_THROWS_WITH(fastpair::device_column::prepare(col, ts.s, borrow), Contains("borrow_codes"));
  }
  SECTION("an image whose codes are not 16-byte aligned in memory: logic_error")
  {
    for (std::size_t shift : {std::size_t{8}, std::size_t{1}}) {
      INFO("image at 16-byte alignment + " << shift);
      fastpair::device_buffer<std::uint8_t> buf(img.size() + shift, ts.s);
      FASTPAIR_CUDA_TRY(cudaMemcpyAsync(buf.data() + shift, img.data(), img.size(), cudaMemcpyHostToDevice, ts.s));
      REQUIRE_THROWS_WITH(fastpair::device_column::prepare_fpc_device(buf.data() + shift, img.size(), ts.s, borrow),
                          Contains("16-byte aligned"));
      ft::guarded_output<std::int64_t> out(col.num_rows(), col.decoded_bytes(), 2, ts.s, ft::poison, 0xFF, 4);
      REQUIRE_THROWS_WITH(fastpair::decode_fpc_device(buf.data() + shift, img.size(), out.view(), ts.s, borrow),
                          Contains("16-byte aligned"));
      out.require_guards_intact(ts.s);
    }
  }
  SECTION("a version-1 image: logic_error")
  {
    held_image const held(fastpair::serialize(col, 1), source::device, ts.s);
    REQUIRE_THROWS_WITH(held.prepare(ts.s, borrow), Contains("version-1"));
  }
}

TEST_CASE("prepare_fpc_host: the split stream is for in-memory columns only", "[gpu][prepare_fpc]")
{
  // prepare_options::split_stream builds on the host from a compressed_column; a stored image
  // prepares without it (and decodes the same).
  auto d = ft::make_dictionary(codec::onpair12, 3000, {2, 6}, 61);
  for (int i = 0; i < 300; ++i) d.push_back("Lo" + std::to_string(100000 + i) + std::string(1 + i % 8, 'x'));
  auto const col = ft::random_column(codec::onpair12, d, 2000, {0.0, 0.1, 60}, 62, 256);
  fastpair::prepare_options opt;
  opt.split_stream = opt.fused_codes = true;
  auto const image = fastpair::serialize(col);
  auto const dcol  = fastpair::device_column::prepare_fpc_host(image.data(), image.size(), {}, opt);
  REQUIRE_FALSE(dcol.has_split_stream());
  REQUIRE(dcol.has_fused_codes());
  check_prepared(dcol, col, nullptr);
}

// ---- b. device_bytes() is exact ----------------------------------------------------------------

TEST_CASE("device_bytes() is exactly what a prepared column holds from its resource",
          "[gpu][prepare_fpc][memory_resource][sharded]")
{
  ft::test_stream ts;
  cudaStream_t const s = ts.s;
  std::size_t item = 0;  // codec x sidecar: the [sharded] loop
  for (codec kind : all_codecs) {
    auto const base = ft::random_column(kind, ft::make_dictionary(kind, 700, {2, 16}, 51), 2500, {0.0, 0.2, 30}, 52, 96);
    for (bool const sidecar : {true, false}) {
      if (!ft::in_test_shard(item++)) continue;
      auto col = base;
      if (!sidecar) col.sidecar.clear();
      auto const image = fastpair::serialize(col);
      for (source src : all_sources) {
        held_image const held(image, src, s);
        for (auto const& v : variants_for(src)) {
          INFO(fastpair::codec_name(kind) << (sidecar ? ", stored sidecar, " : ", no sidecar, ") << source_name(src)
                                          << ", " << v.name);
          ft::byte_counting_resource counting;
          {
            auto dcol = held.prepare(s, v.opt, counting);
            FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
            REQUIRE(dcol.memory_resource() == fastpair::device_async_resource_ref{counting});
            REQUIRE(counting.live_bytes() == dcol.device_bytes());
            CHECK(fastpair::device_column::device_bytes(col, v.opt) >= dcol.device_bytes());  // the upper estimate
            // The same from the in-memory column (which holds the codes a borrowing column reads
            // in the image: 2 bytes per 2 bytes of packed codes).
            {
              ft::byte_counting_resource other;
              fastpair::prepare_options own = v.opt;
              own.borrow_codes              = false;
              auto const from_col = fastpair::device_column::prepare(col, s, own, other);
              FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
              REQUIRE(other.live_bytes() == from_col.device_bytes());
              std::uint64_t const codes = v.opt.borrow_codes ? (fastpair::packed_code_bytes(kind, col.num_codes) + 1) / 2 * 2 : 0;
              REQUIRE(from_col.device_bytes() == dcol.device_bytes() + codes);
            }
            // Decodes take nothing from the column's resource (outputs from the default one;
            // locating an unaligned range borrows 48 bytes and gives them back).
            std::uint64_t const held_bytes = dcol.device_bytes();
            REQUIRE(fastpair::decompress(dcol, s).to_host(s) == fastpair::decode_reference(col));
            REQUIRE(fastpair::decompress<std::int32_t>(dcol, 3, 1500, s).to_host(s) ==
                    fastpair::decode_reference(col, 3, 1500));
            FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
            REQUIRE(counting.live_bytes() == held_bytes);
            // Accelerators built afterwards: 16 bytes per row (+ 16) for the row offsets.
            bool const had_offsets = dcol.has_row_offsets();
            dcol.build_row_offsets(s);
            FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
            REQUIRE(counting.live_bytes() == dcol.device_bytes());
            if (!had_offsets) REQUIRE(dcol.device_bytes() == held_bytes + 16 * (col.num_rows() + 1));
            dcol.build_length_stream(s);
            if (kind != codec::onpair16) dcol.build_fused_codes(s);
            dcol.build_row_lengths(s);  // rows of <= 30 codes: 1 or 2 bytes per row
            FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
            REQUIRE(dcol.row_length_bytes() == row_length_width(col));
            REQUIRE(counting.live_bytes() == dcol.device_bytes());
            check_prepared(dcol, col, s, false);
          }
          FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
          REQUIRE(counting.live_bytes() == 0);
          REQUIRE(counting.allocations() == counting.deallocations());
          REQUIRE(counting.allocations() > 0);
        }
      }
    }
  }
}

// ---- c. corrupt version-2 images ---------------------------------------------------------------

TEST_CASE("corrupt version-2 images are refused with a format_error naming the problem",
          "[gpu][prepare_fpc][corrupt][sharded]")
{
  // GENERATE, not a loop: Catch2 enters each SECTION once per run of the test case. The codec is
  // the [sharded] item.
  int const item   = GENERATE(0, 1, 2);
  codec const kind = all_codecs[item];
  if (ft::in_test_shard(static_cast<std::size_t>(item))) {
    INFO(fastpair::codec_name(kind));
    auto const col    = corruption_column(kind);
    image_t const good = fastpair::serialize(col);
    auto const h       = header_of(good);
    REQUIRE(h.version == 2);
    REQUIRE(h.has_sidecar);
    REQUIRE(h.count_bits > 0);
    if (fastpair::detail::current_arch_bucket() == fastpair::arch_bucket::sm90) {
      // decode_fpc_* of this column in one step write the offsets in the decode kernel: the
      // "one step" decodes of require_refused cover that path on corrupt images
      auto const dcol = prepare_image(good, source::device);
      REQUIRE(fastpair::detail::offsets_in_decode(dcol, fastpair::select_policy(dcol)));
    }
    std::uint64_t const size3 = h.layout.size[fpc2::codes], size4 = h.layout.size[fpc2::row_code_counts],
                        size5 = h.layout.size[fpc2::sidecar];

    SECTION("a flipped byte in section 3 (codes)")
    {
      for (std::uint64_t at : {std::uint64_t{0}, size3 / 2, size3 - 1}) {
        image_t img = good;
        payload(img, fpc2::codes)[at] ^= 0x10;
        require_refused(img, "section 3 (codes): checksum");
      }
    }
    SECTION("row code counts changed without changing their sum: section 4's checksum")
    {
      // Swap the counts of two rows that differ: the sum (and every check but the checksum) holds.
      image_t img = good;
      std::uint8_t* p = payload(img, fpc2::row_code_counts);
      std::uint64_t const v0 = get_count(p, h, 0);
      std::uint64_t r        = 1;
      while (get_count(p, h, r) == v0) ++r;
      std::uint64_t const vr = get_count(p, h, r);
      set_count(p, h, 0, vr);
      set_count(p, h, r, v0);
      require_refused(img, "section 4 (row_code_counts): checksum");
    }
    SECTION("a flipped byte in section 4 (row_code_counts)")
    {
      // The counts no longer add up as well: either finding names the section's counts.
      for (std::uint64_t at : {std::uint64_t{0}, size4 / 2, size4 - 1}) {
        image_t img = good;
        payload(img, fpc2::row_code_counts)[at] ^= 0x01;
        require_refused(img, "row_code_counts");
      }
    }
    SECTION("a flipped byte in section 5 (sidecar)")
    {
      for (std::uint64_t at : {std::uint64_t{3}, size5 - 8}) {
        image_t img = good;
        payload(img, fpc2::sidecar)[at] ^= 0x04;
        require_refused(img, "section 5 (sidecar): checksum");
      }
    }
    SECTION("a sidecar entry that disagrees with the token lengths, checksum recomputed")
    {
      image_t img = good;
      std::uint8_t* e = payload(img, fpc2::sidecar) + 8 * 2;
      put_le64(e, get_le64(e) + 1);
      reseal_section(img, fpc2::sidecar);
      require_refused(img, "sidecar: a stored entry disagrees");
    }
    SECTION("every sidecar entry and decoded_bytes shifted alike: each segment's length still agrees")
    {
      // decode_fpc_* checks a stored sidecar segment by segment in the decode: only its entry 0
      // shows this shift. prepare_fpc_* recomputes the sidecar and finds the total wrong.
      image_t img = good;
      std::uint8_t* e = payload(img, fpc2::sidecar);
      for (std::uint64_t i = 0; i < h.n_sidecar; ++i) put_le64(e + 8 * i, get_le64(e + 8 * i) + 5);
      put_le64(img.data() + fpc2::at::decoded_bytes, col.decoded_bytes() + 5);
      reseal_header(img);  // first: reseal_section parses the header
      reseal_section(img, fpc2::sidecar);
      for (source src : {source::pageable, source::device}) {
        INFO(source_name(src));
        REQUIRE_THROWS_WITH(prepare_image(img, src), Contains("decoded_bytes: the header says"));
        held_image const held(img, src, nullptr);
        ft::guarded_output<std::int64_t> out(col.num_rows(), col.decoded_bytes() + 5, 3, nullptr, ft::poison, 0xFF, 4);
        REQUIRE_THROWS_WITH(held.decode(nullptr, out.view()), Contains("sidecar: entry 0 is 5, not 0"));
        out.require_guards_intact(nullptr);
      }
    }
    SECTION("a code >= the dictionary size, checksum recomputed")
    {
      image_t img = good;
      std::uint32_t const bad = kind == codec::onpair16 ? 65000u : 4000u;
      REQUIRE(bad >= col.dict.size());
      std::uint64_t const at = a_one_byte_code(col);
      REQUIRE(get_code(kind, payload(img, fpc2::codes), at) == fastpair::unpack_codes(col)[at]);  // the layout read right
      set_code(kind, payload(img, fpc2::codes), at, bad);
      REQUIRE(get_code(kind, payload(img, fpc2::codes), at) == bad);
      reseal_section(img, fpc2::codes);
      require_refused(img, "codes: a code is >= the dictionary size");
    }
    SECTION("row code counts that do not add up to num_codes, checksum recomputed")
    {
      for (int delta : {-1, +1}) {
        image_t img = good;
        std::uint8_t* p = payload(img, fpc2::row_code_counts);
        std::uint64_t r = 0;  // a row whose value can move by delta within the bits
        while (delta < 0 ? get_count(p, h, r) == 0 : get_count(p, h, r) + 1 >= (std::uint64_t{1} << count_slot_of(p, h, r).width)) ++r;
        set_count(p, h, r, get_count(p, h, r) + static_cast<std::uint64_t>(static_cast<std::int64_t>(delta)));
        reseal_section(img, fpc2::row_code_counts);
        require_refused(img, "row_code_counts: the rows' code counts do not add up");
        // Checked without validation too: the counts locate every row.
        fastpair::prepare_options lax;
        lax.validate = false;
        require_refused(img, "row_code_counts: the rows' code counts do not add up", lax);
      }
    }
    SECTION("a block directory of the row code counts that the widths do not give, checksum recomputed")
    {
      // Block 1's values one step further on; the last block one bit wider (the section's size no
      // longer what the widths give). The GPU checks the directory before the counts are used.
      auto const dict  = ft::make_dictionary(kind, 500, {2, fastpair::max_token_length(kind)}, 41);
      image_t const with_directory = fastpair::serialize(ft::column_from_codes(
        kind, dict, rows_of_counts(counts_of_varied_blocks(43), static_cast<std::uint32_t>(dict.size()), 44), 64));
      REQUIRE(header_of(with_directory).count_directory);
      for (std::uint64_t const k : {std::uint64_t{1}, std::uint64_t{2}}) {
        INFO("block " << k);
        image_t img = with_directory;
        std::uint8_t* e = payload(img, fpc2::row_code_counts) + 16 * k + 8;
        put_le64(e, get_le64(e) + (k == 1 ? 1u << 8 : 1u));
        reseal_section(img, fpc2::row_code_counts);
        require_refused(img, "section 4 (row_code_counts): its block directory is inconsistent");
        fastpair::prepare_options lax;
        lax.validate = false;
        require_refused(img, "section 4 (row_code_counts): its block directory is inconsistent", lax);
      }
    }
    SECTION("decoded_bytes in the header wrong, header checksum recomputed")
    {
      for (std::int64_t delta : {-1, +1, +1000}) {
        image_t img = good;
        std::uint64_t const wrong = col.decoded_bytes() + static_cast<std::uint64_t>(delta);
        put_le64(img.data() + fpc2::at::decoded_bytes, wrong);
        reseal_header(img);
        require_refused(img, "decoded_bytes");  // the header parse or "decoded_bytes: the header says"
        // Without a stored sidecar the GPU recomputes the total, with or without validation.
        auto c2 = col;
        c2.sidecar.clear();
        image_t img2 = fastpair::serialize(c2);
        put_le64(img2.data() + fpc2::at::decoded_bytes, wrong);
        reseal_header(img2);
        fastpair::prepare_options lax;
        lax.validate = false;
        require_refused(img2, "decoded_bytes: the header says", lax);
        require_refused(img2, "decoded_bytes");
      }
    }
    SECTION("a header changed without its checksum")
    {
      image_t img = good;
      img[fpc2::at::num_rows] ^= 1;
      require_refused(img, "header checksum");
    }
    SECTION("a section header's size wrong")
    {
      image_t img = good;
      std::uint8_t* sh = img.data() + h.layout.header_at[fpc2::codes];
      put_le64(sh + 8, get_le64(sh + 8) + 1);
      require_refused(img, "section 3 (codes): size");
    }
    SECTION("a dictionary byte flipped (checked on the host)")
    {
      image_t img = good;
      payload(img, fpc2::dict_bytes)[300] ^= 0x20;
      require_refused(img, "section 2 (dict_bytes)");
    }
    SECTION("a duplicate token, its section resealed (the uniqueness test runs on the GPU)")
    {
      // Token j becomes a copy of the first earlier token i >= 256 of its length: the dictionary
      // keeps its shape and checksums, and j is the first token equal to an earlier one.
      image_t img = good;
      std::uint64_t const j = duplicate_a_token(img);
      std::string const what = "dictionary token " + std::to_string(j) + ": duplicate token";
      REQUIRE_THROWS_WITH(fastpair::deserialize(img.data(), img.size()), Contains(what));  // the host reader agrees
      require_refused(img, what);
      fastpair::prepare_options lax;  // the dictionary is checked with or without validation
      lax.validate = false;
      require_refused(img, what, lax);
    }
    SECTION("a dictionary of bad shape, its sections resealed (checked on the GPU for a device image)")
    {
      // Each image breaks one rule of the dictionary's shape with every checksum intact. The host
      // reader names the rule; so must the preparation, which checks a device image's dictionary
      // on the GPU and reads it on the host only to name what is wrong.
      std::uint64_t const n = h.n_tok;
      int const max_len     = fastpair::max_token_length(kind);
      auto lengths_of = [&](image_t& img) { return payload(img, fpc2::dict_lengths); };
      auto byte_at    = [&](image_t& img, std::uint64_t token) {  // token's first byte in section 2
        std::uint64_t off = 0;
        for (std::uint64_t i = 0; i < token; ++i) off += lengths_of(img)[i];
        return payload(img, fpc2::dict_bytes) + off;
      };
      auto first = [&](auto pred) {
        for (std::uint64_t i = 256; i + 1 < n; ++i)
          if (pred(good[h.layout.payload_at[fpc2::dict_lengths] + i], good[h.layout.payload_at[fpc2::dict_lengths] + i + 1])) return i;
        FAIL("no such token");
        return std::uint64_t{0};
      };
      std::vector<std::pair<std::string, image_t>> bad;
      {  // token i of length 0, its next token 2 bytes longer: the lengths still add up
        image_t img = good;
        std::uint64_t const i = first([&](int a, int b) { return a == 2 && b + 2 <= max_len; });
        lengths_of(img)[i] = 0, lengths_of(img)[i + 1] += 2;
        bad.emplace_back("dictionary token " + std::to_string(i) + ": length 0 outside", img);
      }
      {  // token i longer than the codec allows, its next token 1 byte shorter
        image_t img = good;
        std::uint64_t const i = first([&](int a, int b) { return a == max_len && b >= 2; });
        lengths_of(img)[i] += 1, lengths_of(img)[i + 1] -= 1;
        bad.emplace_back("dictionary token " + std::to_string(i) + ": length " + std::to_string(max_len + 1) + " outside", img);
      }
      {  // lengths that do not add up to the header's dict_bytes
        image_t img = good;
        lengths_of(img)[300] -= 1;
        bad.emplace_back("token lengths sum to", img);
      }
      {  // the one-byte token of 'A' made a second 'B': no token for byte 65
        image_t img = good;
        REQUIRE(lengths_of(img)[65] == 1);
        REQUIRE(*byte_at(img, 65) == 'A');
        *byte_at(img, 65) = 'B';
        bad.emplace_back("one-byte token for byte value 65 missing", img);
      }
      if (kind == codec::fsst12) {  // codes 65 and 66 swapped: every byte still has its token
        image_t img = good;
        std::swap(*byte_at(img, 65), *byte_at(img, 66));
        bad.emplace_back("FSST-12 code b < 256 must be the byte b", img);
      }
      for (auto& [what, img] : bad) {
        INFO(what);
        reseal_section(img, fpc2::dict_lengths);
        reseal_section(img, fpc2::dict_bytes);
        REQUIRE_THROWS_WITH(fastpair::deserialize(img.data(), img.size()), Contains(what));  // the host reader agrees
        require_refused(img, what);
      }
    }
    SECTION("a device buffer shorter or longer than the header says")
    {
      for (std::size_t size : {good.size() - 1, good.size() - 16, std::size_t{h.layout.payload_at[fpc2::codes]},
                               good.size() + 16}) {
        INFO("device buffer of " << size << " bytes, image of " << good.size());
        fastpair::device_buffer<std::uint8_t> d(size, cudaStream_t{});
        FASTPAIR_CUDA_TRY(cudaMemset(d.data(), 0, size));
        FASTPAIR_CUDA_TRY(cudaMemcpy(d.data(), good.data(), std::min(size, good.size()), cudaMemcpyHostToDevice));
        REQUIRE_THROWS_WITH(fastpair::device_column::prepare_fpc_device(d.data(), size), Contains("file size"));
      }
      fastpair::device_buffer<std::uint8_t> d(50, cudaStream_t{});  // shorter than the header
      FASTPAIR_CUDA_TRY(cudaMemcpy(d.data(), good.data(), 50, cudaMemcpyHostToDevice));
      REQUIRE_THROWS_AS(fastpair::device_column::prepare_fpc_device(d.data(), 50), fastpair::format_error);
      REQUIRE_THROWS_WITH(fastpair::device_column::prepare_fpc_device(d.data(), 50), Contains("header"));
    }
    SECTION("a truncated host buffer")
    {
      for (std::size_t size : {good.size() - 1, good.size() - 16, std::size_t{200}}) {
        image_t const cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(size));  // exactly that much memory
        REQUIRE_THROWS_WITH(fastpair::device_column::prepare_fpc_host(cut.data(), cut.size()), Contains("file size"));
        ft::pinned_copy const pinned(cut);
        REQUIRE_THROWS_WITH(fastpair::device_column::prepare_fpc_host(pinned.data(), pinned.size()), Contains("file size"));
      }
      for (std::size_t size : {std::size_t{95}, std::size_t{12}, std::size_t{5}}) {
        image_t const cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(size));
        REQUIRE_THROWS_AS(fastpair::device_column::prepare_fpc_host(cut.data(), cut.size()), fastpair::format_error);
        REQUIRE_THROWS_WITH(fastpair::device_column::prepare_fpc_host(cut.data(), cut.size()), Contains("header"));
      }
      REQUIRE_THROWS_AS(fastpair::device_column::prepare_fpc_host(nullptr, 0), fastpair::format_error);
      image_t longer = good;
      longer.resize(good.size() + 16, 0);
      REQUIRE_THROWS_WITH(fastpair::device_column::prepare_fpc_host(longer.data(), longer.size()), Contains("file size"));
    }
    // Whatever was refused, the context is sound and a good image prepares.
    FASTPAIR_CUDA_TRY(cudaDeviceSynchronize());
    REQUIRE(cudaGetLastError() == cudaSuccess);
    auto const dcol = prepare_image(good, source::device);
    REQUIRE(fastpair::decompress(dcol).to_host() == fastpair::decode_reference(col));
  }
}

TEST_CASE("without validation a corrupt code in a stored image reaches the device error word", "[gpu][prepare_fpc][corrupt]")
{
  for (codec kind : all_codecs) {
    for (bool const sidecar : {true, false}) {
      auto col = corruption_column(kind);
      if (!sidecar) col.sidecar.clear();
      image_t img = fastpair::serialize(col);
      std::uint32_t const bad = kind == codec::onpair16 ? 65535u : 4095u;
      // A one-byte token replaced: the decoded size stays that of the header (a code outside the
      // dictionary decodes as token 0, of one byte), so only the code itself is wrong. The
      // checksum is left stale: without validation it is not read.
      set_code(kind, payload(img, fpc2::codes), a_one_byte_code(col), bad);
      fastpair::prepare_options lax;
      lax.validate = false;
      for (source src : {source::pageable, source::pinned, source::device}) {
        INFO(fastpair::codec_name(kind) << (sidecar ? ", stored sidecar, " : ", no sidecar, ") << source_name(src));
        REQUIRE_THROWS_WITH(prepare_image(img, src), Contains("section 3 (codes): checksum"));
        held_image const held(img, src, nullptr);
        std::optional<fastpair::device_column> dcol;
        REQUIRE_NOTHROW(dcol.emplace(held.prepare(nullptr, lax)));
        (void)dcol->read_and_clear_errors();  // a regenerated sidecar may have reported it already
        // Decoded into a guarded buffer: the error word reports it, nothing is written outside.
        std::uint64_t const bytes = col.decoded_bytes();
        fastpair::device_buffer<unsigned char> raw(bytes + 2 * ft::guard, cudaStream_t{});
        fastpair::device_buffer<std::int64_t> off(col.num_rows() + 1, cudaStream_t{});
        FASTPAIR_CUDA_TRY(cudaMemset(raw.data(), ft::poison, raw.size()));
        fastpair::string_column_view<std::int64_t> out{off.data(), reinterpret_cast<char*>(raw.data() + ft::guard),
                                                       col.num_rows(), bytes};
        fastpair::decode_column(*dcol, out);
        REQUIRE((dcol->read_and_clear_errors() & fastpair::code_out_of_range) != 0);
        std::vector<unsigned char> back(raw.size());
        FASTPAIR_CUDA_TRY(cudaMemcpy(back.data(), raw.data(), back.size(), cudaMemcpyDeviceToHost));
        for (std::size_t i = 0; i < ft::guard; ++i) REQUIRE(back[i] == ft::poison);
        for (std::size_t i = ft::guard + bytes; i < back.size(); ++i) REQUIRE(back[i] == ft::poison);
        REQUIRE_THROWS_AS(fastpair::decompress(*dcol), fastpair::decode_error);
        REQUIRE_THROWS_WITH(fastpair::decompress<std::int32_t>(*dcol, 3, 1500), Contains("dictionary size"));  // holds the code
        (void)dcol->read_and_clear_errors();
      }
    }
  }
  FASTPAIR_CUDA_TRY(cudaDeviceSynchronize());
  REQUIRE(cudaGetLastError() == cudaSuccess);
}

// ---- d. version 1 ------------------------------------------------------------------------------

TEST_CASE("a version-1 image still prepares from host and device memory", "[gpu][prepare_fpc][sharded]")
{
  ft::test_stream ts;
  std::size_t item = 0;  // codec x column x sidecar: the [sharded] loop
  for (codec kind : all_codecs) {
    auto const cols = synthetic_columns(kind);
    for (auto const* c : {&cols[0], &cols[1], &cols[4]}) {
      for (bool const sidecar : {true, false}) {
        if (!ft::in_test_shard(item++)) continue;
        auto col = c->col;
        if (!sidecar) col.sidecar.clear();
        image_t const v1 = fastpair::serialize(col, 1);
        REQUIRE(fastpair::parse_fpc_header(v1.data(), v1.size()).version == 1);
        for (source src : all_sources) {
          for (auto const& v : variants_for(src, false)) {
            if (v.opt.borrow_codes) continue;  // refused for a version-1 image (the borrow_codes test)
            INFO(fastpair::codec_name(kind) << ", " << c->name << (sidecar ? ", stored sidecar, " : ", no sidecar, ")
                                            << source_name(src) << ", " << v.name);
            held_image const held(v1, src, ts.s);
            auto const dcol = held.prepare(ts.s, v.opt);
            REQUIRE(dcol.has_row_offsets() == v.opt.row_offsets);
            check_prepared(dcol, col, ts.s, src == source::pageable);
          }
        }
        // A corrupt version-1 image is refused too (read on the host).
        image_t bad = v1;
        bad[bad.size() / 2] ^= 0x40;
        REQUIRE_THROWS_AS(prepare_image(bad, source::pageable), fastpair::format_error);
        REQUIRE_THROWS_AS(prepare_image(bad, source::device), fastpair::format_error);
        image_t const cut(v1.begin(), v1.end() - 1);
        REQUIRE_THROWS_AS(prepare_image(cut, source::pageable), fastpair::format_error);
      }
    }
  }
}
