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
//              op: eq, ne, in, prefix, not_prefix, suffix, substring, prefix_in (any of several prefixes),
//                  like, not_like (a pattern of %-separated parts: select_like_pattern)
// Output: one line per selected row, "<row>\t<value of each materialised column>...", then
//         "count\t<selected rows>". Exit 2 with a message on bad input.
#include "tpch_ops.cuh"

#include <fastpair/reference.hpp>
#include <fastpair/select.cuh>

#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using fastpair::selection_bitmask;
using fastpair::tpch::split_tabs;

/** The column of `path` (one value per line), compressed with `kind`; compressed once per file. */
fastpair::compressed_column const& column(std::string const& path, fastpair::codec kind)
{
  static std::map<std::string, fastpair::compressed_column> cache;
  if (auto it = cache.find(path); it != cache.end()) return it->second;
  return cache.emplace(path, fastpair::tpch::load_column(path, kind)).first->second;
}

/** A column prepared on the GPU (row offsets on), once per column. */
fastpair::device_column const& device_column_of(fastpair::compressed_column const& col)
{
  static std::map<fastpair::compressed_column const*, std::unique_ptr<fastpair::device_column>> cache;
  auto& d = cache[&col];
  if (!d) d = std::make_unique<fastpair::device_column>(fastpair::tpch::prepare_for_predicates(col));
  return *d;
}

using words_t = fastpair::device_buffer<std::uint64_t>;

/** The selected row ids and each shown column's selected values, from the GPU. */
std::string run_gpu(std::vector<std::pair<fastpair::compressed_column const*, std::pair<std::string, std::vector<std::string>>>> const& where,
                    std::vector<fastpair::compressed_column const*> const& shown)
{
  std::uint64_t const rows = where.front().first->num_rows();
  words_t mask((rows + 63) / 64, {}), m((rows + 63) / 64, {});
  for (std::size_t i = 0; i < where.size(); ++i) {
    auto const& [col, op] = where[i];
    fastpair::tpch::gpu_predicate const p(*col, device_column_of(*col), op.first, op.second);
    fastpair::device_bitmask const r = p.evaluate(i == 0 ? mask.data() : m.data());
    if (i > 0) fastpair::mask_and({mask.data(), rows}, r, mask.data());
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
      selection_bitmask m = fastpair::tpch::evaluate_host(col, f[2], std::vector<std::string>(f.begin() + 3, f.end()));
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
