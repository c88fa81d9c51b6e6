// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// fpc_streamer: a `.fpc` image in host memory (pageable or pinned) decoded row group by row group.
// The groups, joined in the order of the callbacks, equal the CPU reference byte for byte (chars
// and int64 / int32 offsets) for every codec on synthetic columns (empty rows, one-code rows,
// all-equal counts, long rows across many segments, stride 1 and 2 000) and real column prefixes,
// with and without a stored sidecar and validation, in groups of one row block, a few, and one
// group; each group starts at a row block and its offsets at 0. Device memory stays bounded by the
// groups, not the column. Corrupt images are refused with a format_error naming the problem
// before the callback of the group holding the damage (a codes' checksum after the last group);
// an exception from the callback leaves the streamer usable.
#include "utils/data.hpp"
#include "utils/generators.hpp"
#include "utils/gpu_resources.cuh"
#include "utils/stored_images.cuh"

#include <fastpair/encode.hpp>
#include <fastpair/fastpair.cuh>
#include <fastpair/fpc_streamer.cuh>
#include <fastpair/io.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ft = fastpair::testing;
using namespace fastpair::testing::images;
using Catch::Contains;

namespace {

constexpr codec all_codecs[] = {codec::onpair16, codec::onpair12, codec::fsst12};

bool light() { return std::getenv("FASTPAIR_TEST_LIGHT") != nullptr; }

/** What the callbacks of one decode() handed over, joined in callback order. */
struct joined {
  fastpair::host_strings rows;
  std::vector<std::uint64_t> group_rows;
};

/** Decodes `img` from pageable or pinned memory; REQUIREs each group's shape and joins them. */
template <class OffsetT>
joined stream_decode(fastpair::fpc_streamer& streamer, image_t const& img, bool pinned)
{
  std::optional<ft::pinned_copy> pin;
  if (pinned) pin.emplace(img);
  void const* bytes = pinned ? static_cast<void const*>(pin->data()) : static_cast<void const*>(img.data());
  joined j;
  streamer.decode<OffsetT>(bytes, img.size(), [&](fastpair::fpc_group<OffsetT> const& g) {
    REQUIRE(g.index == j.group_rows.size());
    REQUIRE(g.first_row == j.rows.num_rows());
    REQUIRE(g.first_row % fastpair::device_column::row_index_rows() == 0);
    REQUIRE(g.stream != nullptr);
    REQUIRE(g.column.chars_capacity >= g.chars_bytes);
    auto const off   = download(g.column.offsets, g.column.num_rows + 1, g.stream);
    auto const chars = download(g.column.chars, g.chars_bytes, g.stream);
    REQUIRE(off.front() == 0);
    REQUIRE(static_cast<std::uint64_t>(off.back()) == g.chars_bytes);
    std::uint64_t const base = j.rows.chars.size();
    for (std::uint64_t r = 1; r <= g.column.num_rows; ++r) j.rows.offsets.push_back(base + static_cast<std::uint64_t>(off[r]));
    j.rows.chars.insert(j.rows.chars.end(), chars.begin(), chars.end());
    j.group_rows.push_back(g.column.num_rows);
  });
  return j;
}

/** Every group size, offset type, source and option set on the image of `col` (with a stored
 *  sidecar and without): the joined groups equal the reference. */
void check_streamed(fastpair::compressed_column const& col, bool all)
{
  auto const ref = fastpair::decode_reference(col);
  std::uint64_t const blocks =
    (col.num_rows() + fastpair::device_column::row_index_rows() - 1) / fastpair::device_column::row_index_rows();
  for (auto const& [sidecar, c] : with_and_without_sidecar(col)) {
    INFO((sidecar ? "stored sidecar" : "no stored sidecar"));
    image_t const img = fastpair::serialize(c);
    std::vector<std::uint64_t> sizes = {1, std::uint64_t{1} << 30};
    if (all) sizes.insert(sizes.begin() + 1, 3000);
    for (std::uint64_t const size : sizes) {
      INFO("group_code_bytes " << size);
      fastpair::fpc_stream_options opt;
      opt.group_code_bytes = size;
      fastpair::fpc_streamer streamer(opt);
      joined const a = stream_decode<std::int64_t>(streamer, img, false);
      REQUIRE(a.rows == ref);
      if (size == 1) {  // one row block with codes per group (blocks without codes join a group)
        std::uint64_t with_codes = 0;
        for (std::uint64_t k = 0; k < blocks; ++k)
          with_codes += c.row_code_offsets[std::min<std::uint64_t>((k + 1) * 1024, c.num_rows())] > c.row_code_offsets[k * 1024];
        REQUIRE(a.group_rows.size() >= with_codes);
        REQUIRE(a.group_rows.size() <= blocks);
        if (with_codes == blocks) REQUIRE(a.group_rows.size() == blocks);
      }
      if (size == std::uint64_t{1} << 30) REQUIRE(a.group_rows.size() == std::min<std::uint64_t>(blocks, 1));
      REQUIRE(stream_decode<std::int32_t>(streamer, img, true).rows == ref);  // the same streamer again
      if (!all) continue;
      opt.validate        = false;
      opt.low_plane_bytes = size == 1 ? 16 : 8;
      fastpair::fpc_streamer lax(opt);
      REQUIRE(stream_decode<std::int64_t>(lax, img, true).rows == ref);
    }
  }
}

/** Groups of 4 KiB of codes: the corruption column takes many. */
fastpair::fpc_stream_options small_groups(bool validate = true)
{
  fastpair::fpc_stream_options o;
  o.group_code_bytes = 4096;
  o.validate         = validate;
  return o;
}

/** REQUIREs that streaming `img` throws a format_error containing `what`, and that the callbacks
 *  before it handed over at most `max_rows` rows (none of the damaged group's). */
void require_stream_refused(image_t const& img, std::string const& what, std::uint64_t max_rows,
                            fastpair::fpc_stream_options const& opt = small_groups())
{
  INFO("expecting \"" << what << "\" after at most " << max_rows << " rows");
  for (bool const pinned : {false, true}) {
    if (pinned && light()) continue;  // under compute-sanitizer: the pageable source only
    fastpair::fpc_streamer streamer(opt);
    std::uint64_t seen = 0;
    auto run = [&] {
      std::optional<ft::pinned_copy> pin;
      if (pinned) pin.emplace(img);
      void const* bytes = pinned ? static_cast<void const*>(pin->data()) : static_cast<void const*>(img.data());
      streamer.decode(bytes, img.size(), [&](fastpair::fpc_group<std::int64_t> const& g) { seen += g.column.num_rows; });
    };
    REQUIRE_THROWS_AS(run(), fastpair::format_error);
    REQUIRE(seen <= max_rows);
    seen = 0;
    REQUIRE_THROWS_WITH(run(), Contains(what));
  }
}

/** The row holding code `i` of `col`. */
std::uint64_t row_of_code(fastpair::compressed_column const& col, std::uint64_t i)
{
  std::uint64_t r = 0;
  while (col.row_code_offsets[r + 1] <= i) ++r;
  return r;
}

/** The first row of the row block holding row `r`: a streamed group starts there or earlier. */
std::uint64_t block_start(std::uint64_t r) { return r / fastpair::device_column::row_index_rows() * fastpair::device_column::row_index_rows(); }

}  // namespace

TEST_CASE("fpc_streamer: synthetic columns decode as the reference in groups of every size", "[gpu][stream][sharded]")
{
  for (codec kind : all_codecs)
    for (auto const& c : shard_of(synthetic_columns(kind))) {
      INFO(fastpair::codec_name(kind) << ", " << c.name << " (" << c.col.num_rows() << " rows, " << c.col.num_codes << " codes)");
      check_streamed(c.col, !light());
    }
}

TEST_CASE("fpc_streamer: prefixes of real columns decode as the reference", "[gpu][stream][shared]")
{
  std::size_t const max_bytes = ft::test_source_bytes(std::size_t{1} << 20);
  for (char const* name : {"tpch_l_comment", "urls", "zh_text", "log_windows"}) {
    auto const rows = ft::load_shared_column(name, max_bytes);
    for (codec kind : all_codecs) {
      INFO(name << " " << fastpair::codec_name(kind) << " (" << rows.num_rows() << " rows)");
      auto const col = fastpair::compress(rows, kind);
      image_t const img = fastpair::serialize(col);
      fastpair::fpc_stream_options opt;
      opt.group_code_bytes = 64 << 10;
      fastpair::fpc_streamer streamer(opt);
      joined const j = stream_decode<std::int64_t>(streamer, img, true);
      REQUIRE(j.rows == rows);
      if (!light()) REQUIRE(j.group_rows.size() > 3);  // the ramp of 1/8, 1/4, 1/2 and then whole groups
    }
  }
}

TEST_CASE("fpc_streamer: device memory is bounded by the groups, not the column", "[gpu][stream][memory_resource]")
{
  auto const dict = ft::make_dictionary(codec::onpair12, 4000, {1, 16}, 7);
  auto const col  = ft::random_column(codec::onpair12, dict, 200000, {0.0, 0.05, 40}, 8);
  image_t const img = fastpair::serialize(col);
  std::uint64_t const packed = fastpair::packed_code_bytes(col.kind, col.num_codes);
  INFO(col.num_rows() << " rows, " << packed << " code bytes, " << col.decoded_bytes() << " decoded bytes");
  ft::byte_counting_resource counting{fastpair::default_device_resource()};
  std::uint64_t const before = counting.live_bytes();
  fastpair::fpc_stream_options opt;
  opt.group_code_bytes = 64 << 10;
  {
    fastpair::fpc_streamer streamer(opt, counting);
    REQUIRE(stream_decode<std::int64_t>(streamer, img, true).rows == fastpair::decode_reference(col));
    std::uint64_t const held = streamer.last_device_bytes();
    INFO("last_device_bytes " << held << ", the resource's peak " << counting.peak_bytes());
    // The buffers it keeps are what the resource held at its peak, but for the preparation's
    // short-lived temporaries (the dictionary's hash table and scan storage: < 64 KiB here).
    REQUIRE(held <= counting.peak_bytes());
    REQUIRE(counting.peak_bytes() <= held + (64 << 10));
    // Two windows of 64 KiB and two decoded groups, against a column of megabytes.
    REQUIRE(held < (packed + col.decoded_bytes()) / 4);
  }
  REQUIRE(counting.live_bytes() == before);  // everything went back
}

TEST_CASE("fpc_streamer: corrupt images are refused before the damaged group's callback", "[gpu][stream][corrupt]")
{
  for (codec kind : all_codecs) {
    INFO(fastpair::codec_name(kind));
    auto const col     = corruption_column(kind);
    image_t const good = fastpair::serialize(col);
    auto const h       = header_of(good);
    std::uint64_t const R = col.num_rows();
    SECTION("a code >= the dictionary size, checksum recomputed")
    {
      std::uint32_t const bad = kind == codec::onpair16 ? 65000u : 4000u;
      std::uint64_t const at  = col.num_codes * 2 / 3;  // in a later group
      for (bool const sidecar : {true, false}) {
        auto c = col;
        if (!sidecar) c.sidecar.clear();
        image_t img = fastpair::serialize(c);
        set_code(kind, payload(img, fpc2::codes), at, bad);
        reseal_section(img, fpc2::codes);
        require_stream_refused(img, "codes: a code is >= the dictionary size", block_start(row_of_code(col, at)));
        fastpair::fpc_streamer streamer(small_groups(false));  // the decode reports it: decode_error, before the callback
        std::uint64_t seen = 0;
        REQUIRE_THROWS_AS(streamer.decode(img.data(), img.size(),
                                          [&](fastpair::fpc_group<std::int64_t> const& g) { seen += g.column.num_rows; }),
                          fastpair::decode_error);
        REQUIRE(seen <= block_start(row_of_code(col, at)));
      }
    }
    SECTION("a stored sidecar entry that disagrees with the token lengths, checksum recomputed")
    {
      std::uint64_t const seg = h.n_sidecar * 3 / 4;
      image_t img = good;
      std::uint8_t* e = payload(img, fpc2::sidecar) + 8 * seg;
      put_le64(e, get_le64(e) + 1);
      reseal_section(img, fpc2::sidecar);
      // The segment before it decodes to one byte less than the sidecar says: refused before the
      // callback of the group holding that segment's first code.
      require_stream_refused(img, "sidecar", block_start(row_of_code(col, (seg - 1) * h.stride)));
      image_t img0 = good;
      put_le64(payload(img0, fpc2::sidecar), 5);
      reseal_section(img0, fpc2::sidecar);
      require_stream_refused(img0, "sidecar: entry 0 is 5", 0);
    }
    SECTION("a code replaced by another of the same length, checksum not recomputed: found after the last group")
    {
      image_t img = good;
      std::uint64_t const at = a_one_byte_code(col);
      std::uint32_t const was = get_code(kind, payload(img, fpc2::codes), at);
      std::uint32_t other     = 0;
      while (other == was || col.dict.length(other) != 1) ++other;
      set_code(kind, payload(img, fpc2::codes), at, other);
      require_stream_refused(img, "section 3 (codes): checksum", R);
    }
    SECTION("row code counts that do not add up, checksum recomputed: refused before any group")
    {
      image_t img = good;
      std::uint8_t* p = payload(img, fpc2::row_code_counts);
      std::uint64_t r = 0;
      while (get_count(p, h, r) == 0) ++r;
      set_count(p, h, r, get_count(p, h, r) - 1);
      reseal_section(img, fpc2::row_code_counts);
      require_stream_refused(img, "row_code_counts: the rows' code counts do not add up", 0);
      require_stream_refused(img, "row_code_counts: the rows' code counts do not add up", 0, small_groups(false));
    }
    SECTION("sections damaged without their checksums: refused before any group")
    {
      image_t a = good;
      payload(a, fpc2::row_code_counts)[1] ^= 0x01;
      require_stream_refused(a, "row_code_counts", 0);
      image_t b = good;
      payload(b, fpc2::sidecar)[3] ^= 0x04;
      require_stream_refused(b, "section 5 (sidecar): checksum", 0);
    }
    SECTION("decoded_bytes in the header wrong, header checksum recomputed")
    {
      for (bool const sidecar : {true, false}) {
        auto c = col;
        if (!sidecar) c.sidecar.clear();
        image_t img = fastpair::serialize(c);
        put_le64(img.data() + fpc2::at::decoded_bytes, c.decoded_bytes() + 1);
        reseal_header(img);
        // The header parse, the last group's decoded size, or the last segment's sidecar entry
        // (the header's total): before the last group's callback in each case.
        fastpair::fpc_streamer streamer(small_groups());
        std::uint64_t seen = 0;
        try {
          streamer.decode(img.data(), img.size(),
                          [&](fastpair::fpc_group<std::int64_t> const& g) { seen += g.column.num_rows; });
          FAIL("not refused");
        } catch (fastpair::format_error const& e) {
          std::string const m = e.what();
          INFO(m);
          REQUIRE((m.find("decoded_bytes") != std::string::npos || m.find("sidecar") != std::string::npos));
        }
        REQUIRE(seen <= block_start(R - 1));  // the last group starts there or earlier
      }
    }
    SECTION("a truncated image, and a duplicate token")
    {
      image_t cut(good.begin(), good.end() - 1);
      require_stream_refused(cut, "file size", 0);
      image_t img = good;
      std::uint64_t const j = duplicate_a_token(img);
      require_stream_refused(img, "dictionary token " + std::to_string(j) + ": duplicate token", 0);
    }
  }
}

TEST_CASE("fpc_streamer: version 1, bad options, and an exception from the callback", "[gpu][stream]")
{
  auto const col = corruption_column(codec::onpair16);
  auto const ref = fastpair::decode_reference(col);
  fastpair::fpc_stream_options opt;
  opt.group_code_bytes = 4096;
  fastpair::fpc_streamer streamer(opt);
  REQUIRE(stream_decode<std::int64_t>(streamer, fastpair::serialize(col, 1), false).rows == ref);
  int calls = 0;
  image_t const img = fastpair::serialize(col);
  REQUIRE_THROWS_WITH(streamer.decode(img.data(), img.size(),
                                      [&](fastpair::fpc_group<std::int64_t> const&) {
                                        if (++calls == 2) throw std::runtime_error("consumer failed");
                                      }),
                      "consumer failed");
  REQUIRE(calls == 2);
  REQUIRE(stream_decode<std::int64_t>(streamer, img, true).rows == ref);  // still usable
  REQUIRE_THROWS_AS(fastpair::fpc_streamer(fastpair::fpc_stream_options{0}), fastpair::logic_error);
  fastpair::fpc_stream_options w12;
  w12.low_plane_bytes = 12;
  REQUIRE_THROWS_AS(fastpair::fpc_streamer(w12), fastpair::logic_error);
  // decode_fpc_streamed: one image, one streamer.
  std::uint64_t rows = 0;
  fastpair::decode_fpc_streamed(img.data(), img.size(), [&](fastpair::fpc_group<std::int64_t> const& g) { rows += g.column.num_rows; }, opt);
  REQUIRE(rows == col.num_rows());
}
