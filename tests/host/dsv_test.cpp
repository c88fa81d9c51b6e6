// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// DSV parsing (issue 9, host side): the sequential reference parser on hand-written cases, the
// chunked transition-vector parser equal to it (tables and errors) for many chunk sizes, random
// inputs, adversarial inputs, and the shared raw files reddit_posts.csv and tpch_lineitem.tbl.
#include <fastpair/dsv.hpp>

#include <catch2/catch.hpp>

#include "utils/data.hpp"
#include "utils/dsv_check.hpp"

#include <random>
#include <string>
#include <vector>

namespace {

using fastpair::dsv_dialect;
using fastpair::dsv_error_kind;
using fastpair::dsv_table;
using fastpair::testing::csv;
using fastpair::testing::dsv_outcome;
using fastpair::testing::load_raw;
using fastpair::testing::require_same_outcome;
using fastpair::testing::run_parser;
using rows_t = std::vector<std::vector<std::string>>;

/** The table as rows of fields (for readable expectations). */
rows_t to_rows(dsv_table const& t)
{
  rows_t rows(t.num_records);
  for (std::uint64_t i = 0; i < t.num_records; ++i)
    for (auto const& col : t.columns) rows[i].emplace_back(col.row(i));
  return rows;
}

dsv_outcome run_reference(std::string_view in, dsv_dialect const& d)
{
  return run_parser([&] { return fastpair::parse_dsv_reference(in, d); });
}

dsv_outcome run_parallel(std::string_view in, dsv_dialect const& d, std::size_t chunk, unsigned threads)
{
  return run_parser([&] { return fastpair::parse_dsv_parallel(in, d, {chunk, threads}); });
}

/** The parallel parser gives exactly the reference outcome (table or error) for every chunk size. */
void check_parallel_matches(std::string_view in, dsv_dialect const& d,
                            std::vector<std::size_t> const& chunks = {1, 2, 3, 4, 5, 7, 8, 13, 64, 1 << 20},
                            std::vector<unsigned> const& threads = {1, 3})
{
  dsv_outcome const ref = run_reference(in, d);
  for (std::size_t c : chunks)
    for (unsigned t : threads) {
      INFO("chunk_bytes " << c << ", threads " << t);
      require_same_outcome(run_parallel(in, d, c, t), ref);
    }
}

/** Both parsers reject `in` with this kind, offset and record (and the message names them). */
void check_error(std::string_view in, dsv_dialect const& d, dsv_error_kind kind, std::uint64_t offset,
                 std::uint64_t record)
{
  dsv_outcome const ref = run_reference(in, d);
  REQUIRE_FALSE(ref.ok);
  CHECK(ref.kind == kind);
  CHECK(ref.offset == offset);
  CHECK(ref.record == record);
  CHECK_THAT(ref.message, Catch::Contains("byte " + std::to_string(offset)) &&
                            Catch::Contains("record " + std::to_string(record)));
  REQUIRE_THROWS_AS(fastpair::parse_dsv_reference(in, d), fastpair::format_error);
  REQUIRE_THROWS_AS(fastpair::parse_dsv_parallel(in, d, {3, 2}), fastpair::format_error);
  check_parallel_matches(in, d);
}

/** The longest prefix of at most `max` bytes that ends at a record end and parses. */
std::string_view valid_prefix(std::string_view in, dsv_dialect const& d, std::size_t max)
{
  std::size_t cut = std::min(max, in.size());
  while (cut > 0) {
    cut = in.rfind('\n', cut - 1);
    if (cut == std::string_view::npos) return {};
    ++cut;
    if (run_reference(in.substr(0, cut), d).ok) return in.substr(0, cut);
    --cut;
  }
  return {};
}

}  // namespace

// ------------------------------------------------------------------------------------------------
// The reference parser on hand-written inputs with known output.
// ------------------------------------------------------------------------------------------------

TEST_CASE("dsv reference: plain, quoted, escaped and multi-line fields", "[dsv]")
{
  auto t = fastpair::parse_dsv_reference("a,b,c\n1,,3\n", csv());
  CHECK(t.num_records == 2);
  CHECK(t.num_fields() == 3);
  CHECK(t.header.empty());
  CHECK(to_rows(t) == rows_t{{"a", "b", "c"}, {"1", "", "3"}});

  t = fastpair::parse_dsv_reference("\"x,y\",\"say \"\"hi\"\"\",\"line1\nline2\"\n\"\",\"\"\"\",z", csv());
  CHECK(to_rows(t) == rows_t{{"x,y", "say \"hi\"", "line1\nline2"}, {"", "\"", "z"}});

  // A quoted CRLF is data; an unquoted CRLF ends the record; no final terminator is fine.
  t = fastpair::parse_dsv_reference("a,\"b\r\nc\"\r\nd,e", csv());
  CHECK(to_rows(t) == rows_t{{"a", "b\r\nc"}, {"d", "e"}});

  // Empty fields everywhere; a trailing delimiter at end of input gives a final empty field.
  t = fastpair::parse_dsv_reference(",,\n,,", csv());
  CHECK(to_rows(t) == rows_t{{"", "", ""}, {"", "", ""}});
  t = fastpair::parse_dsv_reference("a,", csv());
  CHECK(to_rows(t) == rows_t{{"a", ""}});

  // A blank line is a record with one empty field.
  t = fastpair::parse_dsv_reference("a\n\nb\n", csv());
  CHECK(to_rows(t) == rows_t{{"a"}, {""}, {"b"}});

  // UTF-8 bytes are data (also multi-byte sequences next to delimiters and quotes).
  t = fastpair::parse_dsv_reference("\xc3\xa9t\xc3\xa9,\"\xe6\x97\xa5\xe6\x9c\xac,\xf0\x9f\x98\x80\"\n", csv());
  CHECK(to_rows(t) == rows_t{{"\xc3\xa9t\xc3\xa9", "\xe6\x97\xa5\xe6\x9c\xac,\xf0\x9f\x98\x80"}});

  // Arrow layout of a column.
  t = fastpair::parse_dsv_reference("ab,x\n,y\ncde,z\n", csv());
  CHECK(t.columns[0].offsets == std::vector<std::uint64_t>{0, 2, 2, 5});
  CHECK(std::string(t.columns[0].chars.begin(), t.columns[0].chars.end()) == "abcde");
}

TEST_CASE("dsv reference: header, empty input, dialect options", "[dsv]")
{
  auto t = fastpair::parse_dsv_reference("name,\"the \"\"value\"\"\"\r\nk,v\r\n", csv(true));
  CHECK(t.header == std::vector<std::string>{"name", "the \"value\""});
  CHECK(t.num_records == 1);
  CHECK(to_rows(t) == rows_t{{"k", "v"}});

  t = fastpair::parse_dsv_reference("h1,h2\n", csv(true));
  CHECK(t.header == std::vector<std::string>{"h1", "h2"});
  CHECK(t.num_records == 0);
  CHECK(t.num_fields() == 2);
  CHECK(t.columns[1].num_rows() == 0);

  t = fastpair::parse_dsv_reference("", csv());
  CHECK(t.num_records == 0);
  CHECK(t.num_fields() == 0);
  t = fastpair::parse_dsv_reference("", csv(true));
  CHECK(t.header.empty());
  t = fastpair::parse_dsv_reference("", csv(false, 4));
  CHECK(t.num_fields() == 4);
  CHECK(t.num_records == 0);

  // TPC-H: '|' with a trailing delimiter, dropped.
  t = fastpair::parse_dsv_reference("1|abc|x y|\n2||z|\n", fastpair::tpch_dialect(3));
  CHECK(to_rows(t) == rows_t{{"1", "abc", "x y"}, {"2", "", "z"}});
  t = fastpair::parse_dsv_reference("|\n", fastpair::tpch_dialect());
  CHECK(to_rows(t) == rows_t{{""}});

  // LF only: CR is data.
  dsv_dialect lf = csv();
  lf.crlf        = false;
  t              = fastpair::parse_dsv_reference("a\r,b\r\n", lf);
  CHECK(to_rows(t) == rows_t{{"a\r", "b\r"}});

  // Other delimiter and quote characters.
  dsv_dialect tsv = csv();
  tsv.delimiter   = '\t';
  tsv.quote       = '\'';
  t               = fastpair::parse_dsv_reference("'a\t''b'\t\"c\n", tsv);
  CHECK(to_rows(t) == rows_t{{"a\t'b", "\"c"}});

  // Invalid dialects are logic errors.
  dsv_dialect bad = csv();
  bad.quote       = ',';
  CHECK_THROWS_AS(fastpair::parse_dsv_reference("a", bad), fastpair::logic_error);
  CHECK_THROWS_AS(fastpair::parse_dsv_parallel("a", bad), fastpair::logic_error);
  bad           = csv();
  bad.delimiter = '\n';
  CHECK_THROWS_AS(fastpair::parse_dsv_reference("a", bad), fastpair::logic_error);
  CHECK_THROWS_AS(fastpair::parse_dsv_parallel("a", csv(), {0, 1}), fastpair::logic_error);
}

// ------------------------------------------------------------------------------------------------
// Errors: kind, byte offset and record number, identical in both parsers.
// ------------------------------------------------------------------------------------------------

TEST_CASE("dsv errors: syntax errors name the byte offset and the record", "[dsv]")
{
  using k = dsv_error_kind;
  check_error("a,\"b", csv(), k::unterminated_quote, 2, 1);
  check_error("x\n\"abc\ndef", csv(), k::unterminated_quote, 2, 2);
  check_error("x\n\"a\"\"b\"\",", csv(), k::unterminated_quote, 2, 2);
  check_error("a,b\"c\n", csv(), k::quote_in_unquoted_field, 3, 1);
  check_error("x,y\n\"a\"b,c\n", csv(), k::character_after_closing_quote, 7, 2);
  check_error("\"a\" ,c\n", csv(), k::character_after_closing_quote, 3, 1);
  check_error("a\rb\n", csv(), k::lone_carriage_return, 1, 1);
  check_error("a\r\r\n", csv(), k::lone_carriage_return, 1, 1);
  check_error("a\nb\r", csv(), k::lone_carriage_return, 3, 2);
  check_error("\"a\"\r,", csv(), k::lone_carriage_return, 3, 1);

  dsv_dialect no_escape         = csv();
  no_escape.doubled_quote_escape = false;
  check_error("\"a\"\"b\"\n", no_escape, k::quote_after_closing_quote, 3, 1);
  CHECK(to_rows(fastpair::parse_dsv_reference("\"a,b\"\n", no_escape)) == rows_t{{"a,b"}});

  dsv_dialect no_nl     = csv();
  no_nl.quoted_newlines = false;
  check_error("x\n\"a\nb\"\n", no_nl, k::newline_in_quoted_field, 4, 2);
  check_error("\"a\r\nb\"\n", no_nl, k::newline_in_quoted_field, 2, 1);
}

TEST_CASE("dsv errors: wrong field counts and missing trailing delimiters", "[dsv]")
{
  using k = dsv_error_kind;
  // Not fixed: the first record decides.
  check_error("a,b\nc\n", csv(), k::wrong_field_count, 4, 2);
  check_error("a,b\nc,d\ne,f,g\n", csv(), k::wrong_field_count, 8, 3);
  // Fixed by the dialect (the first record is checked too).
  check_error("a,b,c\nd,e\n", csv(false, 3), k::wrong_field_count, 6, 2);
  check_error("a,b\n", csv(false, 3), k::wrong_field_count, 0, 1);
  // The header is record 1.
  check_error("h1,h2\n1,2,3\n", csv(true), k::wrong_field_count, 6, 2);
  // A multi-line quoted field: the record starts at its first byte.
  check_error("a,b\n\"x\ny\",z\n1\n", csv(), k::wrong_field_count, 12, 3);
  // TPC-H: each record must end with '|'.
  check_error("1|2|\n3|4\n", fastpair::tpch_dialect(), k::missing_trailing_delimiter, 5, 2);
  check_error("1|2|\n3|4|x", fastpair::tpch_dialect(), k::missing_trailing_delimiter, 5, 2);
  check_error("1|2|\n\n", fastpair::tpch_dialect(), k::missing_trailing_delimiter, 5, 2);
  check_error("1|2|\n3|\n", fastpair::tpch_dialect(), k::wrong_field_count, 5, 2);
  // The first error in input order wins: a count error in record 2 before a syntax error in 3 ...
  check_error("a,b\nc\nd\"e\n", csv(), k::wrong_field_count, 4, 2);
  // ... and a syntax error ends the parse before a later count error.
  check_error("a,b\nc\"d,e\nf\n", csv(), k::quote_in_unquoted_field, 5, 2);
  // The message names both counts.
  CHECK_THROWS_WITH(fastpair::parse_dsv_reference("a,b\nc\n", csv()),
                    Catch::Contains("has 1 fields, expected 2"));
}

// ------------------------------------------------------------------------------------------------
// The building blocks: transition vectors compose like concatenation.
// ------------------------------------------------------------------------------------------------

TEST_CASE("dsv transition vectors: composition is associative and matches concatenation", "[dsv]")
{
  using namespace fastpair::dsv;
  machine const m = make_machine(csv());
  std::mt19937 rng(9);
  std::string const alphabet = ",\"\r\na";
  for (int iter = 0; iter < 500; ++iter) {
    std::string s(rng() % 24, 'a');
    for (char& c : s) c = alphabet[rng() % alphabet.size()];
    std::size_t const a = s.empty() ? 0 : rng() % (s.size() + 1);
    std::size_t const b = a + (s.size() == a ? 0 : rng() % (s.size() - a + 1));
    transition_vector const x = chunk_transition_vector(m, s.data(), 0, a);
    transition_vector const y = chunk_transition_vector(m, s.data(), a, b);
    transition_vector const z = chunk_transition_vector(m, s.data(), b, s.size());
    REQUIRE(compose(x, compose(y, z)) == compose(compose(x, y), z));
    REQUIRE(compose(compose(x, y), z) == chunk_transition_vector(m, s.data(), 0, s.size()));
    REQUIRE(compose(transition_vector::identity(), x) == x);
    REQUIRE(compose(x, transition_vector::identity()) == x);
    // The vector's entry for a state is where a sequential walk from that state ends.
    for (unsigned st = 0; st < num_states; ++st)
      REQUIRE(walk_chunk(m, s.data(), 0, s.size(), s.size(), false, st, [](std::size_t, std::uint8_t, char) {}) ==
              chunk_transition_vector(m, s.data(), 0, s.size()).get(st));
  }
  // `failed` absorbs; a chunk of one quote swaps inside/outside quotes.
  transition_vector const q = chunk_transition_vector(m, "\"", 0, 1);
  CHECK(q.get(failed) == failed);
  CHECK(q.get(record_start) == quoted);
  CHECK(q.get(quoted) == quote_in_quoted);
  CHECK(q.get(quote_in_quoted) == quoted);
}

// ------------------------------------------------------------------------------------------------
// The parallel parser equals the reference: random and adversarial inputs, tiny chunks.
// ------------------------------------------------------------------------------------------------

TEST_CASE("dsv parallel == reference on random inputs (tables and errors)", "[dsv]")
{
  std::mt19937 rng(4180);
  std::vector<std::string> const alphabets = {",\"\r\nab", ",\"\nab\xc3\xa9", "|\"\n x", ",\"\"\"\r\n"};
  std::size_t ok = 0, errors = 0;
  for (int iter = 0; iter < 1500; ++iter) {
    std::string const& alpha = alphabets[iter % alphabets.size()];
    dsv_dialect d            = csv(rng() % 4 == 0);
    if (alpha[0] == '|') d = fastpair::tpch_dialect();
    d.doubled_quote_escape = rng() % 5 != 0;
    d.quoted_newlines      = rng() % 5 != 0;
    d.crlf                 = rng() % 5 != 0;
    if (rng() % 6 == 0) d.expected_fields = static_cast<int>(rng() % 4);
    std::string s(rng() % 48, 'a');
    for (char& c : s) c = alpha[rng() % alpha.size()];
    INFO("input '" << s << "'");
    dsv_outcome const ref = run_reference(s, d);
    (ref.ok ? ok : errors)++;
    check_parallel_matches(s, d, {1, 2, 3, 5, 7, 1 + rng() % 50}, {1});
  }
  // Both outcomes are exercised.
  CHECK(ok > 50);
  CHECK(errors > 100);
  // Threads on a few larger random inputs of valid records.
  for (int iter = 0; iter < 20; ++iter) {
    std::string s;
    for (int r = 0; r < 200; ++r) {
      for (int f = 0; f < 3; ++f) {
        if (f) s += ',';
        if (rng() % 2) s += "\"a,\"\"b\nc\"";
        else s += std::string(rng() % 5, 'x');
      }
      s += rng() % 2 ? "\r\n" : "\n";
    }
    check_parallel_matches(s, csv(false, 3), {1, 7, 64, 1000}, {2, 5});
  }
}

TEST_CASE("dsv parallel: adversarial inputs at chunk boundaries", "[dsv]")
{
  // Empty input, only terminators, only delimiters.
  for (char const* s : {"", "\n", "\r\n", "\n\n\n", ",", ",,,\n,,,", "\"\"", "\"\"\"\"", "a"})
    check_parallel_matches(s, csv());

  // A quoted field spanning many chunks, full of delimiters, CRLFs and doubled quotes.
  std::string big;
  for (int i = 0; i < 300; ++i) big += "x,\"\"\r\n\xe2\x82\xac";
  std::string const in = "head,\"" + big + "\",tail\r\nq,r,s\r\n";
  check_parallel_matches(in, csv(false, 3), {1, 2, 3, 7, 16, 100, 4096}, {1, 3});
  auto const t = fastpair::parse_dsv_parallel(in, csv(false, 3), {3, 2});
  std::string expect;
  for (int i = 0; i < 300; ++i) expect += "x,\"\r\n\xe2\x82\xac";
  CHECK(t.columns[1].row(0) == expect);
  CHECK(t.columns[2].row(1) == "s");

  // CRLF split at every position; doubled quotes split at every position.
  check_parallel_matches("a,\"b\"\"c\"\r\n\"\"\"\",d\r\n,\r\n", csv());
  // A file ending inside a quote, after many chunks.
  check_parallel_matches("a,b\r\n\"" + big, csv());
  // A lone CR right at a chunk end, a quote right after a delimiter at a chunk start.
  check_parallel_matches("ab\rc,d\n", csv());
  check_parallel_matches("ab,\"c\"x\n", csv());
  // Field count errors far into the input.
  std::string rows;
  for (int i = 0; i < 500; ++i) rows += "1,2,3\n";
  check_parallel_matches(rows + "4,5\n" + rows, csv(), {1, 7, 64, 4096}, {1, 4});
  check_parallel_matches(rows + "4,5,6,7", csv(false, 3), {1, 7, 64, 4096}, {1, 4});
}

TEST_CASE("dsv parallel: a long single field (4 MB)", "[dsv]")
{
  std::string field(std::size_t{4} << 20, 'v');
  for (std::size_t i = 0; i < field.size(); i += 4099) field[i] = ',';
  std::string quoted = "\"";
  quoted += field;
  quoted += "\"";
  for (std::size_t chunk : {std::size_t{4096}, std::size_t{65537}, std::size_t{1} << 22}) {
    INFO("chunk_bytes " << chunk);
    auto const t = fastpair::parse_dsv_parallel(quoted + "\n", csv(), {chunk, 2});
    REQUIRE(t.num_records == 1);
    REQUIRE(t.num_fields() == 1);
    REQUIRE(t.columns[0].row(0) == field);
    REQUIRE(t == fastpair::parse_dsv_reference(quoted + "\n", csv()));
  }
  std::string const plain(std::size_t{3} << 20, 'p');
  auto const t = fastpair::parse_dsv_parallel(plain, csv(), {1000, 2});
  REQUIRE(t.num_records == 1);
  REQUIRE(t.columns[0].row(0) == plain);
  dsv_outcome const unterminated = run_parallel(quoted.substr(0, quoted.size() - 1), csv(), 4096, 2);
  REQUIRE_FALSE(unterminated.ok);
  CHECK(unterminated.kind == dsv_error_kind::unterminated_quote);
  CHECK(unterminated.offset == 0);
  CHECK(unterminated.record == 1);
}

// ------------------------------------------------------------------------------------------------
// The shared raw files.
// ------------------------------------------------------------------------------------------------

TEST_CASE("dsv data: reddit_posts.csv (RFC 4180, header, multi-line quoted fields)", "[dsv][data]")
{
  std::string const raw = load_raw("reddit_posts.csv.zst");
  dsv_dialect const d   = csv(true, 21);
  dsv_table const ref   = fastpair::parse_dsv_reference(raw, d);
  REQUIRE(ref.num_records == 5999);  // 6,000 records counting the header (Python's csv agrees)
  REQUIRE(ref.num_fields() == 21);
  REQUIRE(ref.header.front() == "created_utc");
  REQUIRE(ref.header[9] == "selftext");
  REQUIRE(ref.header.back() == "distinguished");
  std::size_t with_lf = 0, with_quote = 0;
  for (auto const& col : ref.columns)
    for (std::size_t i = 0; i < col.num_rows(); ++i) {
      with_lf += col.row(i).find('\n') != std::string_view::npos;
      with_quote += col.row(i).find('"') != std::string_view::npos;
    }
  CHECK(with_lf == 2682);  // as stated in ../shared/data/SOURCES.md
  CHECK(with_quote == 1756);

  for (std::size_t chunk : {std::size_t{4096}, std::size_t{65536}, std::size_t{1000003}}) {
    INFO("chunk_bytes " << chunk);
    dsv_table const par = fastpair::parse_dsv_parallel(raw, d, {chunk, 2});
    REQUIRE(par.header == ref.header);
    REQUIRE(par.num_records == ref.num_records);
    for (std::size_t j = 0; j < 21; ++j) {
      INFO("column " << ref.header[j]);
      REQUIRE(par.columns[j].offsets == ref.columns[j].offsets);
      REQUIRE(par.columns[j].chars == ref.columns[j].chars);
    }
  }
  // Tiny chunks on a prefix (cut at a record end).
  std::string_view const prefix = valid_prefix(raw, d, 96 << 10);
  REQUIRE(prefix.size() > (32 << 10));
  check_parallel_matches(prefix, d, {1, 2, 3, 7, 61}, {1, 2});
  // Cut right after a quote, usually inside a quoted field: both agree (table or error).
  std::size_t const in_quote = raw.find(",\"", 1000) + 2;
  check_parallel_matches(std::string_view(raw).substr(0, in_quote), d, {1, 5, 4096}, {2});
}

TEST_CASE("dsv data: tpch_lineitem.tbl ('|', trailing delimiter, 16 fields)", "[dsv][data]")
{
  std::string const raw = load_raw("tpch_lineitem.tbl.zst");
  dsv_dialect const d   = fastpair::tpch_dialect(16);
  dsv_table const ref   = fastpair::parse_dsv_reference(raw, d);
  REQUIRE(ref.num_records == 134176);
  REQUIRE(ref.num_fields() == 16);
  CHECK(ref.columns[0].row(0) == "1");
  CHECK(ref.columns[13].row(0) == "DELIVER IN PERSON");

  for (std::size_t chunk : {std::size_t{4096}, std::size_t{1} << 20, std::size_t{999983}}) {
    INFO("chunk_bytes " << chunk);
    dsv_table const par = fastpair::parse_dsv_parallel(raw, d, {chunk, 2});
    REQUIRE(par.num_records == ref.num_records);
    for (std::size_t j = 0; j < 16; ++j) {
      INFO("column " << j);
      REQUIRE(par.columns[j].offsets == ref.columns[j].offsets);
      REQUIRE(par.columns[j].chars == ref.columns[j].chars);
    }
  }
  // The same dbgen rows as the shared l_shipinstruct / l_comment columns (SOURCES.md).
  namespace ft = fastpair::testing;
  for (auto const& [name, field] : {std::pair<std::string, int>{"tpch_l_shipinstruct", 13}, {"tpch_l_comment", 15}}) {
    INFO("column " << name);
    if (!ft::have_column(name)) FAIL("shared data column '" << name << "' not found in '" << ft::data_dir().string() << "'");
    fastpair::host_strings const col = ft::load_column(name, std::size_t{8} << 20);
    REQUIRE(col.num_rows() >= ref.num_records);
    for (std::size_t i = 0; i < ref.num_records; ++i)
      if (col.row(i) != ref.columns[field].row(i)) FAIL("row " << i << ": '" << col.row(i) << "' vs '" << ref.columns[field].row(i) << "'");
  }
  // Tiny chunks on a prefix.
  std::string_view const prefix = valid_prefix(raw, d, 64 << 10);
  REQUIRE(prefix.size() > (32 << 10));
  check_parallel_matches(prefix, d, {1, 2, 3, 7, 64}, {1, 2});
}
