// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Host encoders on adversarial generated columns: round trip through the CPU reference decoder,
// dictionary invariants, determinism.
#include <fastpair/encode.hpp>
#include <fastpair/reference.hpp>
#include <fastpair/validate.hpp>

#include "utils/columns.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

using fastpair::codec;
using fastpair::host_strings;
using fastpair::testing::make_column;

constexpr codec all_codecs[] = {codec::onpair16, codec::onpair12, codec::fsst12};

host_strings make_rows(std::vector<std::string> const& rows)
{
  host_strings s;
  for (auto const& r : rows) s.push_back(r);
  return s;
}

/** Checks the dictionary invariants, then encode -> decode_reference == input. */
void check_round_trip(host_strings const& rows, codec kind, fastpair::train_options const& opt = {})
{
  INFO("codec " << fastpair::codec_name(kind) << ", " << rows.num_rows() << " rows, "
                << rows.chars.size() << " bytes");
  fastpair::dictionary const dict = fastpair::train(rows, kind, opt);
  REQUIRE_NOTHROW(fastpair::validate_dictionary(kind, dict));
  REQUIRE(dict.size() >= 256);
  REQUIRE(dict.size() <= fastpair::code_space(kind));
  std::set<std::string_view> one_byte;
  for (std::size_t i = 0; i < dict.size(); ++i) {
    REQUIRE(dict.length(i) >= 1);
    REQUIRE(dict.length(i) <= static_cast<std::uint32_t>(fastpair::max_token_length(kind)));
    if (dict.length(i) == 1) one_byte.insert(dict.token(i));
  }
  REQUIRE(one_byte.size() == 256);

  fastpair::compressed_column const col = fastpair::encode(rows, kind, dict);
  REQUIRE_NOTHROW(fastpair::validate(col));
  REQUIRE(col.num_rows() == rows.num_rows());
  REQUIRE(col.decoded_bytes() == rows.chars.size());
  REQUIRE(col.sidecar.size() == col.sidecar_entries());
  host_strings const back = fastpair::decode_reference(col);
  REQUIRE(back.offsets == rows.offsets);
  REQUIRE(back.chars == rows.chars);
}

/** Deterministic pseudo-random text over a small vocabulary (compressible). */
host_strings words_column(std::size_t rows, std::uint64_t seed)
{
  static char const* const vocab[] = {"the ", "quick ", "brown ", "fox ", "jumps ", "over ", "lazy ",
                                      "dog ", "lorem ", "ipsum ", "dolor ", "sit ", "amet, ",
                                      "consectetur ", "adipiscing ", "elit. ", "\xC3\xA9t\xC3\xA9 ",
                                      "\xE4\xB8\xAD\xE6\x96\x87 "};
  fastpair::detail::splitmix64 rng(seed);
  host_strings s;
  for (std::size_t r = 0; r < rows; ++r) {
    std::string row;
    std::size_t const n = rng.below(12);
    for (std::size_t w = 0; w < n; ++w) row += vocab[rng.below(sizeof(vocab) / sizeof(vocab[0]))];
    if (rng.below(4) == 0) row += std::to_string(rng.next() % 100000);
    s.push_back(row);
  }
  return s;
}

/** Brute-force greedy longest-prefix parse (the definition encode() must match exactly). */
void check_codes_are_lpm(fastpair::strings_view rows, codec kind, fastpair::dictionary const& dict)
{
  std::map<std::string, std::uint32_t> ids;
  for (std::size_t i = 0; i < dict.size(); ++i) ids.emplace(std::string(dict.token(i)), static_cast<std::uint32_t>(i));
  std::vector<std::uint16_t> want;
  std::vector<std::uint64_t> want_rows{0};
  for (std::size_t r = 0; r < rows.num_rows; ++r) {
    std::string const row(rows.chars + rows.offsets[r], rows.chars + rows.offsets[r + 1]);
    for (std::size_t pos = 0; pos < row.size();) {
      std::size_t len = std::min<std::size_t>(16, row.size() - pos);
      for (; len > 0; --len) {
        auto const it = ids.find(row.substr(pos, len));
        if (it != ids.end()) {
          want.push_back(static_cast<std::uint16_t>(it->second));
          break;
        }
      }
      REQUIRE(len > 0);
      pos += len;
    }
    want_rows.push_back(want.size());
  }
  fastpair::compressed_column const col = fastpair::encode(rows, kind, dict);
  INFO("codec " << fastpair::codec_name(kind) << ", " << rows.num_rows << " rows");
  REQUIRE(col.num_codes == want.size());
  REQUIRE(fastpair::unpack_codes(col) == want);
  REQUIRE(col.row_code_offsets == want_rows);
  REQUIRE(fastpair::decode_reference(col).chars ==
          std::vector<char>(rows.chars + rows.offsets[0], rows.chars + rows.offsets[rows.num_rows]));
}

/** Rows over a 3-letter alphabet (plus the odd other byte), lengths 0..max_len, some empty. */
host_strings abc_column(std::size_t rows, std::size_t max_len, std::uint64_t seed)
{
  fastpair::detail::splitmix64 rng(seed);
  host_strings s;
  for (std::size_t r = 0; r < rows; ++r) {
    std::string row;
    std::size_t const n = rng.below(4) == 0 ? 0 : rng.below(max_len + 1);
    for (std::size_t i = 0; i < n; ++i)
      row.push_back(rng.below(20) == 0 ? static_cast<char>(rng.next() & 0xFF) : static_cast<char>('a' + rng.below(3)));
    s.push_back(row);
  }
  return s;
}

}  // namespace

TEST_CASE("encode: empty column", "[encode]")
{
  host_strings const empty;
  for (codec kind : all_codecs) check_round_trip(empty, kind);
  fastpair::compressed_column const col = fastpair::compress(empty, codec::onpair16);
  CHECK(col.num_codes == 0);
  CHECK(col.num_rows() == 0);
  CHECK(col.codes.empty());
}

TEST_CASE("encode: empty rows and a single row", "[encode]")
{
  for (codec kind : all_codecs) {
    check_round_trip(make_rows({""}), kind);
    check_round_trip(make_rows({"", "", ""}), kind);
    check_round_trip(make_rows({"", "abc", "", "abcabc", ""}), kind);
    check_round_trip(make_rows({"x"}), kind);
    check_round_trip(make_rows({"a single row that is a little longer than sixteen bytes"}), kind);
  }
}

TEST_CASE("encode: all 256 byte values including NUL and 0xFF", "[encode]")
{
  host_strings rows;
  std::string all;
  for (int b = 0; b < 256; ++b) all.push_back(static_cast<char>(b));
  rows.push_back(all);
  rows.push_back(std::string(40, '\0'));
  rows.push_back(std::string(40, '\xFF'));
  for (int b = 255; b >= 0; --b) rows.push_back(std::string(1 + b % 7, static_cast<char>(b)));
  std::string mixed;
  for (int i = 0; i < 4000; ++i) mixed.push_back(static_cast<char>((i * 37) & 0xFF));
  rows.push_back(mixed);
  for (int rep = 0; rep < 50; ++rep) rows.push_back(std::string("\0\xFF\0\xFF\0\xFF zero-ff", 15));
  for (codec kind : all_codecs) check_round_trip(rows, kind);
}

TEST_CASE("encode: one repeated byte, short and long rows", "[encode]")
{
  host_strings rows;
  for (int n : {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 100, 1000}) rows.push_back(std::string(n, 'a'));
  rows.push_back(std::string(1 << 16, 'z'));
  for (codec kind : all_codecs) check_round_trip(rows, kind);
  // Long runs must use long tokens: far fewer codes than bytes.
  fastpair::compressed_column const col = fastpair::compress(rows, codec::onpair16);
  CHECK(col.num_codes * 4 < col.decoded_bytes());
}

TEST_CASE("encode: rows of at least 1 MB", "[encode]")
{
  host_strings const words = words_column(30000, 7);
  std::string big(words.chars.begin(), words.chars.end());
  while (big.size() < (std::size_t{1} << 20) + 12345) big += big.substr(0, 100000);
  host_strings rows;
  rows.push_back("short");
  rows.push_back(big);
  rows.push_back("");
  rows.push_back(big.substr(17, (std::size_t{1} << 20) + 3));
  for (codec kind : all_codecs) check_round_trip(rows, kind);
}

TEST_CASE("encode: UTF-8 and generated text compress and round trip", "[encode]")
{
  host_strings const rows = words_column(20000, 1);
  for (codec kind : all_codecs) {
    check_round_trip(rows, kind);
    fastpair::compressed_column const col = fastpair::compress(rows, kind);
    double const ratio = static_cast<double>(rows.chars.size()) /
                         static_cast<double>(fastpair::column_stored_size(col).paper());
    INFO(fastpair::codec_name(kind) << " ratio " << ratio);
    CHECK(ratio > 1.5);
  }
  host_strings const utf8 = make_rows({"\xE4\xB8\xAD\xE6\x96\x87\xE6\xB5\x8B\xE8\xAF\x95", "caf\xC3\xA9",
                                        "\xF0\x9F\x98\x80\xF0\x9F\x98\x80", "na\xC3\xAFve r\xC3\xA9sum\xC3\xA9"});
  for (codec kind : all_codecs) check_round_trip(utf8, kind);
}

TEST_CASE("encode: sliced strings_view (offsets not starting at 0)", "[encode]")
{
  host_strings const rows = words_column(2000, 3);
  fastpair::strings_view const view(rows.chars.data(), rows.offsets.data() + 100, 500);
  for (codec kind : all_codecs) {
    fastpair::compressed_column const col = fastpair::compress(view, kind);
    host_strings const back = fastpair::decode_reference(col);
    REQUIRE(back.num_rows() == 500);
    for (std::size_t r = 0; r < 500; ++r) REQUIRE(back.row(r) == rows.row(100 + r));
  }
}

TEST_CASE("train: same seed gives identical dictionaries, another seed may differ", "[encode]")
{
  host_strings const rows = words_column(20000, 11);
  fastpair::train_options a;
  fastpair::train_options b;
  b.seed = 4242;
  bool any_differs = false;
  for (codec kind : all_codecs) {
    fastpair::dictionary const d1 = fastpair::train(rows, kind, a);
    fastpair::dictionary const d2 = fastpair::train(rows, kind, a);
    CHECK(d1 == d2);
    fastpair::compressed_column const c1 = fastpair::encode(rows, kind, d1);
    fastpair::compressed_column const c2 = fastpair::encode(rows, kind, d2);
    CHECK(c1.codes == c2.codes);
    CHECK(c1.sidecar == c2.sidecar);
    if (!(fastpair::train(rows, kind, b) == d1)) any_differs = true;
  }
  CHECK(any_differs);
}

TEST_CASE("train: portable PRNG and permutation are fixed", "[encode]")
{
  // SplitMix64 reference values for seed 0 (Vigna's splitmix64.c).
  fastpair::detail::splitmix64 rng(0);
  CHECK(rng.next() == 0xE220A8397B1DCDAFull);
  CHECK(rng.next() == 0x6E789E6AA1B965F4ull);
  auto const p = fastpair::detail::seeded_permutation(1000, 42);
  std::vector<std::uint64_t> sorted(p);
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) REQUIRE(sorted[i] == i);
  CHECK(p == fastpair::detail::seeded_permutation(1000, 42));
  CHECK(p != fastpair::detail::seeded_permutation(1000, 43));
}

TEST_CASE("train: options and dictionary order", "[encode]")
{
  host_strings const rows = words_column(5000, 5);
  SECTION("OnPair insertion order keeps byte b at id b")
  {
    fastpair::train_options opt;
    opt.order = fastpair::token_order::insertion;
    fastpair::dictionary const d = fastpair::train_onpair(rows, 12, opt);
    for (int b = 0; b < 256; ++b) REQUIRE((d.length(b) == 1 && d.data(b)[0] == b));
    check_round_trip(rows, codec::onpair12, opt);
  }
  SECTION("OnPair byte order is strictly increasing")
  {
    fastpair::train_options opt;
    opt.order = fastpair::token_order::bytes;
    fastpair::dictionary const d = fastpair::train_onpair(rows, 16, opt);
    for (std::size_t i = 1; i < d.size(); ++i) REQUIRE(d.token(i - 1) < d.token(i));
    check_round_trip(rows, codec::onpair16, opt);
  }
  SECTION("OnPair frequency order: the byte-ordered tokens, by descending use, ties by bytes")
  {
    // A fixed threshold scans the whole column (no byte budget), so the uses counted in training
    // are exactly the code counts of encoding the column.
    fastpair::train_options opt, by_bytes;
    opt.onpair_fixed_threshold = by_bytes.onpair_fixed_threshold = 40;
    by_bytes.order                = fastpair::token_order::bytes;
    fastpair::dictionary const d  = fastpair::train_onpair(rows, 16, opt);
    fastpair::dictionary const db = fastpair::train_onpair(rows, 16, by_bytes);
    REQUIRE(d.size() > 300);
    REQUIRE(d.size() < 65536);  // not full: every row was scanned
    std::vector<std::string_view> a;
    for (std::size_t i = 0; i < d.size(); ++i) a.push_back(d.token(i));
    std::vector<std::string_view> sorted_a(a);
    std::sort(sorted_a.begin(), sorted_a.end());
    std::vector<std::string_view> b;
    for (std::size_t i = 0; i < db.size(); ++i) b.push_back(db.token(i));
    REQUIRE(sorted_a == b);  // the same tokens
    auto const col   = fastpair::encode(rows, codec::onpair16, d);
    auto const codes = fastpair::unpack_codes(col);
    std::vector<std::uint64_t> uses(d.size(), 0);
    for (auto c : codes) ++uses[c];
    for (std::size_t i = 1; i < d.size(); ++i) {
      REQUIRE(uses[i - 1] >= uses[i]);
      if (uses[i - 1] == uses[i]) REQUIRE(a[i - 1] < a[i]);
    }
    check_round_trip(rows, codec::onpair16, opt);
  }
  SECTION("fixed threshold")
  {
    fastpair::train_options opt;
    opt.onpair_fixed_threshold = 3;
    check_round_trip(rows, codec::onpair16, opt);
  }
  SECTION("FSST-12 literals are the identity")
  {
    fastpair::dictionary const d = fastpair::train_fsst12(rows);
    for (int b = 0; b < 256; ++b) REQUIRE((d.length(b) == 1 && d.data(b)[0] == b));
  }
  SECTION("bad arguments throw")
  {
    CHECK_THROWS_AS(fastpair::train_onpair(rows, 14), fastpair::logic_error);
    fastpair::train_options opt;
    opt.sample_fraction = 0;
    CHECK_THROWS_AS(fastpair::train_onpair(rows, 16, opt), fastpair::logic_error);
    fastpair::dictionary bad;
    CHECK_THROWS_AS(fastpair::encode(rows, codec::onpair16, bad), fastpair::format_error);
  }
}

TEST_CASE("encoder: one dictionary for many row groups, equal to encode(), usable from threads", "[encode]")
{
  host_strings const rows = words_column(3000, 9);
  for (codec kind : {codec::onpair16, codec::onpair12, codec::fsst12}) {
    CAPTURE(fastpair::codec_name(kind));
    fastpair::dictionary const d = fastpair::train(rows, kind);
    fastpair::encoder const enc(kind, d);
    REQUIRE(enc.kind() == kind);
    REQUIRE(enc.dict() == d);
    std::vector<host_strings> groups(4);
    for (std::size_t r = 0; r < rows.num_rows(); ++r) groups[r * 4 / rows.num_rows()].push_back(rows.row(r));
    std::vector<fastpair::compressed_column> got(groups.size());
    {
      std::vector<std::thread> threads;
      for (std::size_t g = 0; g < groups.size(); ++g)
        threads.emplace_back([&, g] { got[g] = enc.encode(groups[g], 100 + static_cast<std::uint32_t>(g)); });
      for (auto& t : threads) t.join();
    }
    for (std::size_t g = 0; g < groups.size(); ++g) {
      auto const want = fastpair::encode(groups[g], kind, d, 100 + static_cast<std::uint32_t>(g));
      REQUIRE(got[g].codes == want.codes);
      REQUIRE(got[g].num_codes == want.num_codes);
      REQUIRE(got[g].row_code_offsets == want.row_code_offsets);
      REQUIRE(got[g].row_byte_offsets == want.row_byte_offsets);
      REQUIRE(got[g].sidecar == want.sidecar);
      REQUIRE(got[g].dict == d);
      REQUIRE(fastpair::decode_reference(got[g]).chars == groups[g].chars);
    }
  }
  fastpair::dictionary bad = fastpair::train(rows, codec::onpair12);
  bad.push_back("ab");
  bad.push_back("ab");
  CHECK_THROWS_AS(fastpair::encoder(codec::onpair12, bad), fastpair::format_error);
  CHECK_THROWS_AS(fastpair::encoder(codec::onpair12, fastpair::train(rows, codec::onpair12)).encode(rows, 0),
                  fastpair::logic_error);
}

TEST_CASE("encoder: duplicate tokens of every length are rejected like validate_dictionary does", "[encode]")
{
  // The OnPair encoder leaves the uniqueness test to its matcher (validate_dictionary_shape + the
  // matcher's insert), so it must name the same token as validate_dictionary.
  using Catch::Matchers::Contains;
  for (codec kind : {codec::onpair16, codec::onpair12, codec::fsst12}) {
    CAPTURE(fastpair::codec_name(kind));
    for (std::string const tok : {"q", "xy", "abc", "0123456789abcdef"}) {
      if (kind == codec::fsst12 && tok.size() > 8) continue;
      CAPTURE(tok);
      fastpair::dictionary d;
      for (int b = 0; b < 256; ++b) d.push_back(std::string(1, static_cast<char>(b)));
      if (tok.size() > 1) d.push_back(tok);
      d.push_back("zz-fill");
      d.push_back(tok);  // the duplicate: token number d.size() - 1
      std::string const name = "dictionary token " + std::to_string(d.size() - 1);
      CHECK_THROWS_WITH(fastpair::validate_dictionary(kind, d), Contains(name) && Contains("duplicate"));
      CHECK_THROWS_WITH(fastpair::encoder(kind, d), Contains(name) && Contains("duplicate"));
    }
  }
}

TEST_CASE("order_tokens_by_frequency: same bytes, hot tokens first, FSST-12 literals fixed", "[encode]")
{
  for (codec kind : {codec::onpair16, codec::onpair12, codec::fsst12}) {
    CAPTURE(codec_name(kind));
    // 256 bytes + "ab" (id 256) + "xyz" (257) + "q" is byte 113; uses: 257 x3, 113 x2, 256 x1.
    auto const col = make_column(kind, {"ab", "xyz"}, {{257, 113, 257}, {}, {256, 113, 257}}, 2);
    auto const hot = fastpair::order_tokens_by_frequency(col);
    REQUIRE_NOTHROW(validate(hot));
    CHECK(decode_reference(hot).chars == decode_reference(col).chars);
    CHECK(decode_reference(hot).offsets == decode_reference(col).offsets);
    CHECK(hot.sidecar == col.sidecar);
    CHECK(hot.row_code_offsets == col.row_code_offsets);
    CHECK(hot.dict.size() == col.dict.size());
    CHECK(token_length_histogram(hot) == token_length_histogram(col));
    auto const codes = unpack_codes(hot);
    if (kind == codec::fsst12) {
      for (int b = 0; b < 256; ++b) REQUIRE(hot.dict.token(b) == col.dict.token(b));
      CHECK(hot.dict.token(256) == "xyz");  // 3 uses before "ab"'s 1
      CHECK(hot.dict.token(257) == "ab");
      CHECK(codes == std::vector<std::uint16_t>{256, 113, 256, 257, 113, 256});
    } else {
      CHECK(hot.dict.token(0) == "xyz");
      CHECK(hot.dict.token(1) == "q");
      CHECK(hot.dict.token(2) == "ab");
      CHECK(hot.dict.token(3) == std::string_view("\0", 1));  // unused: old id order
      CHECK(codes == std::vector<std::uint16_t>{0, 1, 0, 2, 1, 0});
    }
  }
  // Untrusted input: validated first (a code past the dictionary, a truncated code stream).
  auto bad      = make_column(codec::onpair16, {"ab"}, {{256, 97}});
  bad.codes[2]  = 0x01;  // code 1 := 257, one past the dictionary's 257 tokens
  bad.codes[3]  = 0x01;
  CHECK_THROWS_AS(fastpair::order_tokens_by_frequency(bad), fastpair::format_error);
  bad = make_column(codec::onpair16, {"ab"}, {{256, 97}});
  bad.codes.pop_back();
  CHECK_THROWS_AS(fastpair::order_tokens_by_frequency(bad), fastpair::format_error);
}

TEST_CASE("encode: any valid dictionary works, including FSST-12 tables that collide", "[encode]")
{
  host_strings const rows = words_column(3000, 9);
  // An FSST-12 dictionary with two >=3-byte symbols sharing a 3-byte prefix cannot use the fast
  // table; encode falls back to exact longest-prefix matching.
  fastpair::dictionary d;
  for (int b = 0; b < 256; ++b) d.push_back(std::string(1, static_cast<char>(b)));
  for (char const* t : {"the ", "the", "quick ", "qu", "lorem ", "lor", "ipsum ", "\xC3\xA9t\xC3\xA9 "})
    d.push_back(t);
  for (codec kind : all_codecs) {
    fastpair::compressed_column const col = fastpair::encode(rows, kind, d);
    REQUIRE(fastpair::decode_reference(col) == rows);
  }
  // Longest match is used: "the " (4 bytes) rather than "the".
  fastpair::compressed_column const col = fastpair::encode(make_rows({"the "}), codec::fsst12, d);
  REQUIRE(col.num_codes == 1);
}

TEST_CASE("encode: sidecar stride and token-length metadata", "[encode]")
{
  host_strings const rows = words_column(4000, 2);
  fastpair::dictionary const d = fastpair::train(rows, codec::onpair16);
  // Sidecar strides from 1 to above 4 096, columns from one row to thousands of rows (odd and even
  // code counts for 12-bit packing): the stored sidecar and packed codes equal a recomputation.
  for (codec kind : {codec::onpair16, codec::onpair12}) {
    fastpair::dictionary const dk = fastpair::train(rows, kind);
    for (std::size_t n_rows : {std::size_t{1}, std::size_t{37}, std::size_t{900}, std::size_t{4000}, std::size_t{2}}) {
      // The last size: the same rows with empty rows before, between and after them (the encoder
      // derives the sidecar from the row offsets, where empty rows share a code offset).
      bool const with_empty = n_rows == 2;
      if (with_empty) n_rows = 1500;
      host_strings part;
      if (with_empty) part.push_back("");
      for (std::size_t r = 0; r < n_rows; ++r) {
        part.push_back(rows.row(r));
        if (with_empty && r % 3 == 0) part.push_back("");
        if (with_empty && r % 7 == 0) part.push_back("");
      }
      if (with_empty) part.push_back("");
      for (std::uint32_t stride : {1u, 7u, 128u, 768u, 4096u, 5000u}) {
        CAPTURE(fastpair::codec_name(kind), n_rows, stride);
        fastpair::compressed_column col = fastpair::encode(part, kind, dk, stride);
        REQUIRE(col.sidecar_stride == stride);
        REQUIRE(col.codes.size() == fastpair::packed_code_bytes(kind, col.num_codes));
        auto const expect = col.sidecar;
        fastpair::compute_sidecar(col);
        REQUIRE(col.sidecar == expect);
        auto const codes = fastpair::unpack_codes(col);
        REQUIRE(fastpair::pack_codes(kind, codes.data(), codes.size()) == col.codes);
        REQUIRE(fastpair::decode_reference(col).chars == part.chars);
      }
    }
  }
  fastpair::compressed_column const col = fastpair::encode(rows, codec::onpair16, d);
  auto const h = fastpair::token_length_histogram(col);
  std::uint64_t n = 0, bytes = 0;
  for (int l = 1; l <= 16; ++l) {
    n += h[l];
    bytes += h[l] * static_cast<std::uint64_t>(l);
  }
  CHECK(n == col.num_codes);
  CHECK(bytes == col.decoded_bytes());

  // paper_low_plane_bytes (format.hpp): W = 16 iff MORE than 60 % of the coded tokens exceed 8
  // bytes, else 8; FSST-12 always 8. Columns encoded with a hand-made dictionary whose parse is
  // known: "0123456789abcdef" (16 bytes, > 8) and "abcdefgh" (8 bytes, not > 8) besides the 256
  // bytes. A row of L copies of the long token then S of the short one parses (longest prefix
  // first) into exactly L codes of 16 bytes and S codes of 8 bytes.
  std::string const long16 = "0123456789abcdef", short8 = "abcdefgh";
  fastpair::dictionary hand = fastpair::testing::make_dictionary({long16, short8});
  auto shaped = [&](codec kind, int n_long, int n_short) {
    std::string row;
    for (int i = 0; i < n_long; ++i) row += long16;
    for (int i = 0; i < n_short; ++i) row += short8;
    fastpair::compressed_column c = fastpair::encode(make_rows({row, row}), kind, hand);
    REQUIRE(c.num_codes == static_cast<std::uint64_t>(2 * (n_long + n_short)));
    auto const hist = fastpair::token_length_histogram(c);
    REQUIRE(hist[16] == static_cast<std::uint64_t>(2 * n_long));
    REQUIRE(hist[8] == static_cast<std::uint64_t>(2 * n_short));
    return fastpair::paper_low_plane_bytes(kind, hist);
  };
  for (codec kind : {codec::onpair16, codec::onpair12}) {
    CAPTURE(fastpair::codec_name(kind));
    CHECK(shaped(kind, 7, 3) == 16);   // 70 % > 60 %
    CHECK(shaped(kind, 61, 39) == 16);  // 61 % > 60 %
    CHECK(shaped(kind, 6, 4) == 8);    // exactly 60 %: not more than 60 %
    CHECK(shaped(kind, 3, 7) == 8);    // 30 %
    CHECK(shaped(kind, 0, 5) == 8);    // no long tokens
  }
  // FSST-12: tokens of at most 8 bytes, W = 8 even for a stream of only 8-byte tokens.
  fastpair::dictionary hand8 = fastpair::testing::make_dictionary({short8});
  fastpair::compressed_column const c8 = fastpair::encode(make_rows({short8 + short8}), codec::fsst12, hand8);
  REQUIRE(c8.num_codes == 2);
  CHECK(fastpair::paper_low_plane_bytes(codec::fsst12, fastpair::token_length_histogram(c8)) == 8);
  // Whatever the histogram: a histogram of only 16-byte tokens still gives 8 for FSST-12.
  fastpair::length_histogram all_long{};
  all_long[16] = 10;
  CHECK(fastpair::paper_low_plane_bytes(codec::fsst12, all_long) == 8);
  CHECK(fastpair::paper_low_plane_bytes(codec::onpair16, all_long) == 16);
}

TEST_CASE("encode_auto: picks the smallest stored size with rows", "[encode]")
{
  host_strings const rows = words_column(6000, 4);
  fastpair::auto_choice choice;
  fastpair::compressed_column const best = fastpair::encode_auto(rows, {}, &choice);
  REQUIRE(fastpair::decode_reference(best) == rows);
  CHECK(best.kind == choice.kind);
  CHECK(choice.size.with_rows() == fastpair::column_stored_size(best).with_rows());
  for (codec kind : all_codecs) {
    std::uint64_t const s = fastpair::column_stored_size(fastpair::compress(rows, kind)).with_rows();
    CHECK(choice.size.with_rows() <= s);
    CHECK(choice.reason.find(fastpair::codec_name(kind)) != std::string::npos);
  }
  // High-entropy small column: a 65 536-entry dictionary never pays off.
  host_strings noise;
  fastpair::detail::splitmix64 rng(99);
  for (int r = 0; r < 3000; ++r) {
    std::string row;
    for (int i = 0; i < 20; ++i) row.push_back(static_cast<char>(rng.next() & 0xFF));
    noise.push_back(row);
  }
  fastpair::auto_choice c2;
  fastpair::compressed_column const col2 = fastpair::encode_auto(noise, {}, &c2);
  REQUIRE(fastpair::decode_reference(col2) == noise);
  CHECK(c2.kind != codec::onpair16);
  // Empty input works too.
  fastpair::auto_choice c3;
  fastpair::compressed_column const col3 = fastpair::encode_auto(host_strings{}, {}, &c3);
  CHECK(col3.num_rows() == 0);
}

TEST_CASE("encode: codes equal a brute-force longest-prefix parse", "[encode]")
{
  // Dictionaries with many tokens sharing prefixes and tokens of every length 1..16: every string
  // over {a,b,c} of 2..7 bytes (3 276 tokens), the prefixes of "abcabcabcabcabca" and
  // "cccccccccccccccc" (8..16 bytes), and a few that share 13 bytes and differ after (14..16).
  fastpair::dictionary shared;
  for (int b = 0; b < 256; ++b) shared.push_back(std::string(1, static_cast<char>(b)));
  std::vector<std::string> level{""};
  for (int len = 1; len <= 7; ++len) {
    std::vector<std::string> next;
    for (auto const& p : level)
      for (char c : {'a', 'b', 'c'}) next.push_back(p + c);
    if (len >= 2)
      for (auto const& t : next) shared.push_back(t);
    level = next;
  }
  for (std::string const base : {"abcabcabcabcabca", "cccccccccccccccc"})
    for (std::size_t len = 8; len <= 16; ++len) shared.push_back(base.substr(0, len));
  for (char const* t : {"abcabcabcabcabcb", "abcabcabcabcab\xFF", "abcabcabcabcaba"}) shared.push_back(t);
  REQUIRE(shared.size() <= 4096);

  std::vector<host_strings> columns;
  columns.push_back(words_column(3000, 11));
  columns.push_back(abc_column(3000, 40, 5));
  columns.push_back(abc_column(1, 5000, 6));   // one long row
  columns.push_back(abc_column(2, 30, 7));     // two rows: one per half
  columns.push_back(abc_column(3, 30, 8));
  columns.push_back(make_rows({"", "", "abcabcabcabcabcabc", ""}));
  columns.push_back(make_rows({"a"}));
  columns.push_back(host_strings{});
  for (host_strings const& rows : columns) {
    for (codec kind : {codec::onpair16, codec::onpair12}) check_codes_are_lpm(rows, kind, shared);
    if (rows.chars.empty()) continue;
    for (codec kind : all_codecs) check_codes_are_lpm(rows, kind, fastpair::train(rows, kind));
  }
  // A full 65 536-token dictionary (the matcher's tables then take the 2 MiB-aligned huge-page
  // block): all 256 bytes, every string over {a,b,c,d} of 2..7 bytes (21 840), and 43 440 more of
  // 8..16 bytes over {a,b,c} from a seeded generator, so that long candidates often share
  // prefixes and the guessed next position of the pipelined encoder is often wrong.
  {
    fastpair::dictionary full;
    std::set<std::string> seen;
    auto add = [&](std::string const& t) {
      if (seen.insert(t).second) full.push_back(t);
    };
    for (int b = 0; b < 256; ++b) add(std::string(1, static_cast<char>(b)));
    std::vector<std::string> lv{""};
    for (int len = 1; len <= 7; ++len) {
      std::vector<std::string> next;
      for (auto const& p : lv)
        for (char c : {'a', 'b', 'c', 'd'}) next.push_back(p + c);
      if (len >= 2)
        for (auto const& t : next) add(t);
      lv = next;
    }
    fastpair::detail::splitmix64 rng(77);
    while (full.size() < 65536) {
      std::string t;
      std::size_t const len = 8 + rng.below(9);
      for (std::size_t i = 0; i < len; ++i) t.push_back(static_cast<char>('a' + rng.below(3)));
      add(t);
    }
    REQUIRE(full.size() == 65536);
    host_strings const rows = abc_column(1500, 60, 12);
    check_codes_are_lpm(rows, codec::onpair16, full);
    check_codes_are_lpm(abc_column(1, 3000, 13), codec::onpair16, full);
  }
  // The OnPair parse reads the 6/8/12-byte filters in one of three ways, chosen per 32 KiB segment
  // from the positions with a candidate of >= 6 bytes (detail::lpm_parse_rows). Segments where
  // almost every position has one (periodic "abc" rows: 16-byte and 7-byte tokens; random "abc"
  // rows) read all three filters; segments where none has (digit rows: one-byte codes) read each
  // only while needed; segments of short "abc" words between digits (a third of the positions,
  // changing at random) read the 6-byte filter always. Plus a 20 000-byte row and inputs shorter
  // than 8 bytes.
  {
    host_strings mixed;
    fastpair::detail::splitmix64 rng(21);
    auto periodic = [&](std::size_t bytes) {
      for (std::size_t done = 0; done < bytes;) {
        std::size_t const n = 20 + rng.below(120);
        std::string row;
        for (std::size_t i = 0; i < n; ++i) row.push_back("abc"[(i + done) % 3]);
        mixed.push_back(row);
        done += n;
      }
    };
    auto random = [&](std::size_t bytes) {
      host_strings const r = abc_column(bytes / 20, 40, rng.next());
      for (std::size_t i = 0; i < r.num_rows(); ++i) mixed.push_back(r.row(i));
    };
    auto digits = [&](std::size_t bytes) {
      for (std::size_t done = 0; done < bytes;) {
        std::size_t const n = 1 + rng.below(60);
        std::string row;
        for (std::size_t i = 0; i < n; ++i) row.push_back(static_cast<char>('0' + rng.below(10)));
        mixed.push_back(row);
        done += n;
      }
    };
    auto words = [&](std::size_t bytes) {
      for (std::size_t done = 0; done < bytes;) {
        std::size_t const n = 20 + rng.below(200);
        std::string row;
        while (row.size() < n) {
          for (std::size_t i = 1 + rng.below(8); i > 0; --i) row.push_back(static_cast<char>('a' + rng.below(3)));
          for (std::size_t i = 1 + rng.below(3); i > 0; --i) row.push_back(static_cast<char>('0' + rng.below(10)));
        }
        mixed.push_back(row);
        done += row.size();
      }
    };
    periodic(40000);
    digits(40000);
    words(100000);
    random(40000);
    mixed.push_back(std::string(20000, 'c'));
    periodic(30000);
    words(70000);
    digits(20000);
    random(20000);
    periodic(5000);
    check_codes_are_lpm(mixed, codec::onpair12, shared);
    check_codes_are_lpm(mixed, codec::onpair16, shared);
    for (codec kind : {codec::onpair16, codec::onpair12})
      for (char const* tiny : {"ab", "abcab", "abcabca", "abcabcab"})
        check_codes_are_lpm(make_rows({tiny}), kind, shared);
  }
  // A sliced view (offsets not starting at 0), both halves of it non-trivial.
  host_strings const big = abc_column(2000, 40, 9);
  fastpair::strings_view const view(big.chars.data(), big.offsets.data() + 301, 777);
  for (codec kind : all_codecs) check_codes_are_lpm(view, kind, fastpair::train(view, kind));
  check_codes_are_lpm(view, codec::onpair12, shared);
}
