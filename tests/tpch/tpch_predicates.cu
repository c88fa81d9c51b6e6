// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// The fastpair side of the TPC-H / DuckDB equality test (tests/tpch/tpch_duckdb_test.py):
// compresses string columns with one codec, evaluates string predicates on the compressed columns
// (on the codes, no decode), ANDs them, and materialises the selected rows from the compressed
// columns (late materialisation). Two paths:
//   host (default)  predicates.hpp, and the rows taken from reference.hpp's decode;
//   --gpu           each column prepared on the GPU (row offsets on), predicates.cuh on the device
//                   (masks combined there), the selected rows decoded by decompress_selected.
//
// Usage: fastpair_tpch_predicates [--gpu] CODEC SPEC_FILE
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
#include <fastpair/fastpair.cuh>
#include <fastpair/predicates.cuh>
#include <fastpair/predicates.hpp>
#include <fastpair/reference.hpp>
#include <fastpair/select.cuh>

#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
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

// ---- the GPU path ---------------------------------------------------------------------------

/** A column prepared on the GPU with the row offsets the predicates and selective decode read. */
fastpair::device_column const& device_column_of(fastpair::compressed_column const& col)
{
  static std::map<fastpair::compressed_column const*, std::unique_ptr<fastpair::device_column>> cache;
  auto& d = cache[&col];
  if (!d) {
    fastpair::prepare_options opt;
    opt.row_offsets = true;
    d = std::make_unique<fastpair::device_column>(fastpair::device_column::prepare(col, {}, opt));
  }
  return *d;
}

using words_t = fastpair::device_buffer<std::uint64_t>;

words_t new_words(std::uint64_t rows) { return words_t((rows + 63) / 64, {}); }

/** Word i of op(a, b): 0 and, 1 or, 2 not (tail bits past the last row cleared). */
struct combine_word {
  std::uint64_t const* a;
  std::uint64_t const* b;
  int op;
  std::uint64_t n, tail;
  __device__ std::uint64_t operator()(std::uint64_t i) const
  {
    std::uint64_t const v = op == 0 ? a[i] & b[i] : op == 1 ? a[i] | b[i] : ~a[i];
    return (op == 2 && i == n - 1 && tail) ? v & ((std::uint64_t{1} << tail) - 1) : v;
  }
};

/** a = op(a, b) on device words. */
void combine(words_t& a, words_t const* b, int op, std::uint64_t rows)
{
  std::uint64_t const n = a.size();
  thrust::transform(thrust::device, thrust::counting_iterator<std::uint64_t>(0), thrust::counting_iterator<std::uint64_t>(n),
                    a.data(), combine_word{a.data(), b ? b->data() : nullptr, op, n, rows % 64});
}

words_t evaluate_gpu(fastpair::compressed_column const& col, std::string const& op, std::vector<std::string> const& args)
{
  auto need = [&](std::size_t n) {
    if (args.size() != n) throw std::runtime_error(op + " takes " + std::to_string(n) + " argument(s)");
  };
  fastpair::device_column const& d = device_column_of(col);
  std::uint64_t const rows         = col.num_rows();
  words_t w                        = new_words(rows);
  bool negate                      = false;
  if (op == "eq" || op == "ne") {
    need(1);
    fastpair::select_equal(d, col, args[0], w.data());
    negate = op == "ne";
  } else if (op == "prefix" || op == "not_prefix") {
    need(1);
    fastpair::select_prefix(d, col, args[0], w.data());
    negate = op == "not_prefix";
  } else if (op == "suffix") {
    need(1), fastpair::select_suffix(d, col, args[0], w.data());
  } else if (op == "substring") {
    need(1), fastpair::select_substring(d, col, args[0], w.data());
  } else if (op == "like" || op == "not_like") {
    need(1);
    fastpair::select_like_pattern(d, col, args[0], w.data());
    negate = op == "not_like";
  } else if (op == "in") {
    std::vector<std::string_view> lits(args.begin(), args.end());
    fastpair::select_in(d, col, lits, w.data());
  } else if (op == "prefix_in") {
    FASTPAIR_CUDA_TRY(cudaMemset(w.data(), 0, w.size() * sizeof(std::uint64_t)));
    for (auto const& a : args) {
      words_t m = new_words(rows);
      fastpair::select_prefix(d, col, a, m.data());
      combine(w, &m, 1, rows);
    }
  } else {
    throw std::runtime_error("unknown op '" + op + "'");
  }
  if (negate) combine(w, nullptr, 2, rows);
  return w;
}

/** The selected row ids and each shown column's selected values, from the GPU. */
std::string run_gpu(std::vector<std::pair<fastpair::compressed_column const*, std::pair<std::string, std::vector<std::string>>>> const& where,
                    std::vector<fastpair::compressed_column const*> const& shown)
{
  std::uint64_t const rows = where.front().first->num_rows();
  words_t mask             = evaluate_gpu(*where.front().first, where.front().second.first, where.front().second.second);
  for (std::size_t i = 1; i < where.size(); ++i) {
    words_t m = evaluate_gpu(*where[i].first, where[i].second.first, where[i].second.second);
    combine(mask, &m, 0, rows);
  }
  fastpair::device_bitmask const bm{mask.data(), rows};
  fastpair::device_row_ids_buffer const ids = fastpair::to_row_ids(bm);
  std::vector<std::uint64_t> h(ids.count);
  if (ids.count)
    FASTPAIR_CUDA_TRY(cudaMemcpy(h.data(), ids.rows.data(), ids.count * sizeof(std::uint64_t), cudaMemcpyDeviceToHost));
  std::vector<fastpair::host_strings> values;
  for (auto const* c : shown) values.push_back(fastpair::decompress_selected(device_column_of(*c), bm).to_host());
  std::string out;
  for (std::uint64_t i = 0; i < ids.count; ++i) {
    out += std::to_string(h[i]);
    for (auto const& v : values) {
      out += '\t';
      out.append(v.row(i));
    }
    out += '\n';
  }
  return out + "count\t" + std::to_string(ids.count) + "\n";
}

}  // namespace

int main(int argc, char** argv)
try {
  bool const gpu = argc == 4 && std::string(argv[1]) == "--gpu";
  if (argc != 3 && !gpu) throw std::runtime_error("usage: fastpair_tpch_predicates [--gpu] CODEC SPEC_FILE");
  fastpair::codec const kind = fastpair::parse_codec(argv[argc - 2]);
  std::ifstream spec(argv[argc - 1]);
  if (!spec) throw std::runtime_error(std::string("cannot read ") + argv[argc - 1]);
  bool any = false;
  selection_bitmask mask;
  std::vector<fastpair::compressed_column const*> shown;
  std::vector<std::pair<fastpair::compressed_column const*, std::pair<std::string, std::vector<std::string>>>> where;
  for (std::string line; std::getline(spec, line);) {
    if (line.empty()) continue;
    std::vector<std::string> f = split_tabs(line);
    if (f[0] == "where" && f.size() >= 3) {
      auto const& col = column(f[1], kind);
      if (!where.empty() && where.front().first->num_rows() != col.num_rows())
        throw std::runtime_error(f[1] + ": not the row count of the earlier columns");
      where.push_back({&col, {f[2], std::vector<std::string>(f.begin() + 3, f.end())}});
      if (gpu) {
        any = true;
        continue;
      }
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
    if (c->num_rows() != where.front().first->num_rows())
      throw std::runtime_error("a materialised column has another row count");
  if (gpu) {
    std::string const out = run_gpu(where, shown);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
  }
  // Each shown column decoded once (decode_reference sets up a table of the whole dictionary per
  // call, so one call per selected row would cost O(rows x dictionary)).
  std::vector<fastpair::host_strings> values;
  for (auto const* c : shown) values.push_back(fastpair::decode_reference(*c));
  std::string out;
  for (std::uint64_t r = 0; r < mask.num_rows; ++r) {
    if (!mask.test(r)) continue;
    out += std::to_string(r);
    for (auto const& v : values) {
      out += '\t';
      out.append(v.row(r));
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
