// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// The host side of the TPC-H / DuckDB equality test (tests/tpch/tpch_duckdb_test.py): compresses
// string columns with one codec, evaluates string predicates on the compressed columns with the
// host predicates (predicates.hpp: on the codes, no decode), ANDs them, and materialises the
// selected rows from the compressed columns (reference.hpp, row by row: late materialisation).
//
// Usage: fastpair_tpch_predicates CODEC SPEC_FILE
//   CODEC      onpair16 | onpair12 | fsst12
//   SPEC_FILE  tab-separated lines:
//                where <values file> <op> <argument>...   (every `where` line is ANDed)
//                materialize <values file>                (columns printed for each selected row)
//              a values file holds one value per line (the column in row order);
//              op: eq, ne, in, prefix, not_prefix, suffix, substring, prefix_in (OR of prefixes),
//                  like, not_like (a pattern of %-separated parts: select_like_pattern)
// Output: one line per selected row, "<row>\t<value of each materialised column>...", then
//         "count\t<selected rows>". Exit 2 with a message on bad input.
#include <fastpair/encode.hpp>
#include <fastpair/predicates.hpp>
#include <fastpair/reference.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

using fastpair::selection_bitmask;

std::vector<std::string> split_tabs(std::string const& line)
{
  std::vector<std::string> out;
  std::size_t b = 0;
  for (std::size_t e; (e = line.find('\t', b)) != std::string::npos; b = e + 1) out.push_back(line.substr(b, e - b));
  out.push_back(line.substr(b));
  return out;
}

/** The column of `path` (one value per line), compressed with `kind`; compressed once per file. */
fastpair::compressed_column const& column(std::string const& path, fastpair::codec kind)
{
  static std::map<std::string, fastpair::compressed_column> cache;
  if (auto it = cache.find(path); it != cache.end()) return it->second;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::vector<std::string> values;
  for (std::string v; std::getline(in, v);) values.push_back(std::move(v));
  fastpair::host_strings rows;
  for (auto const& v : values) rows.push_back(v);
  return cache.emplace(path, fastpair::compress(rows, kind)).first->second;
}

selection_bitmask complement(selection_bitmask m)
{
  for (auto& w : m.words) w = ~w;
  if (m.num_rows % 64 != 0) m.words.back() &= (std::uint64_t{1} << (m.num_rows % 64)) - 1;
  return m;
}

selection_bitmask either(selection_bitmask a, selection_bitmask const& b)
{
  for (std::size_t i = 0; i < a.words.size(); ++i) a.words[i] |= b.words[i];
  return a;
}

selection_bitmask evaluate(fastpair::compressed_column const& col, std::string const& op, std::vector<std::string> const& args)
{
  auto need = [&](std::size_t n) {
    if (args.size() != n) throw std::runtime_error(op + " takes " + std::to_string(n) + " argument(s)");
  };
  if (op == "eq") return need(1), fastpair::select_equal(col, args[0]);
  if (op == "ne") return need(1), complement(fastpair::select_equal(col, args[0]));
  if (op == "prefix") return need(1), fastpair::select_prefix(col, args[0]);
  if (op == "not_prefix") return need(1), complement(fastpair::select_prefix(col, args[0]));
  if (op == "suffix") return need(1), fastpair::select_suffix(col, args[0]);
  if (op == "substring") return need(1), fastpair::select_substring(col, args[0]);
  if (op == "like") return need(1), fastpair::select_like_pattern(col, args[0]);
  if (op == "not_like") return need(1), complement(fastpair::select_like_pattern(col, args[0]));
  if (op == "in") {
    std::vector<std::string_view> lits(args.begin(), args.end());
    return fastpair::select_in(col, lits);
  }
  if (op == "prefix_in") {
    selection_bitmask m(col.num_rows());
    for (auto const& a : args) m = either(std::move(m), fastpair::select_prefix(col, a));
    return m;
  }
  throw std::runtime_error("unknown op '" + op + "'");
}

}  // namespace

int main(int argc, char** argv)
try {
  if (argc != 3) throw std::runtime_error("usage: fastpair_tpch_predicates CODEC SPEC_FILE");
  fastpair::codec const kind = fastpair::parse_codec(argv[1]);
  std::ifstream spec(argv[2]);
  if (!spec) throw std::runtime_error(std::string("cannot read ") + argv[2]);
  bool any = false;
  selection_bitmask mask;
  std::vector<fastpair::compressed_column const*> shown;
  for (std::string line; std::getline(spec, line);) {
    if (line.empty()) continue;
    std::vector<std::string> f = split_tabs(line);
    if (f[0] == "where" && f.size() >= 3) {
      auto const& col = column(f[1], kind);
      selection_bitmask m = evaluate(col, f[2], std::vector<std::string>(f.begin() + 3, f.end()));
      if (!any) mask = std::move(m);
      else if (m.num_rows != mask.num_rows) throw std::runtime_error(f[1] + ": not the row count of the earlier columns");
      else
        for (std::size_t i = 0; i < mask.words.size(); ++i) mask.words[i] &= m.words[i];
      any = true;
    } else if (f[0] == "materialize" && f.size() == 2) {
      shown.push_back(&column(f[1], kind));
    } else {
      throw std::runtime_error("bad spec line: " + line);
    }
  }
  if (!any) throw std::runtime_error("the spec has no `where` line");
  for (auto const* c : shown)
    if (c->num_rows() != mask.num_rows) throw std::runtime_error("a materialised column has another row count");
  std::string out;
  for (std::uint64_t r = 0; r < mask.num_rows; ++r) {
    if (!mask.test(r)) continue;
    out += std::to_string(r);
    for (auto const* c : shown) {
      fastpair::host_strings const v = fastpair::decode_reference(*c, r, r + 1);
      out += '\t';
      out.append(reinterpret_cast<char const*>(v.chars.data()), v.chars.size());
    }
    out += '\n';
  }
  out += "count\t" + std::to_string(mask.count()) + "\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
} catch (std::exception const& e) {
  std::cerr << "fastpair_tpch_predicates: " << e.what() << "\n";
  return 2;
}
