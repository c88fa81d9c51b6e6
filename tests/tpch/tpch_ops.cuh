// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// The TPC-H string predicates (tests/tpch/tpch_data.py QUERIES) as fastpair calls, shared by the
// DuckDB equality tool (tpch_predicates.cu) and the SF10 benchmark (bench/tpch_bench.cu):
//   load_column      a values file (one value per line, compressed here) or a .fpc file;
//   evaluate_host    one `where` op on the host (predicates.hpp);
//   gpu_predicate    one `where` op compiled for a column on the GPU (predicates.cuh; tables
//                    uploaded once), evaluated into a device bitmask.
// Ops: eq, ne, in, prefix, not_prefix, suffix, substring, like, not_like (a %-separated pattern),
// prefix_in (any of several prefixes: one like_prefix_set).
#pragma once

#include <fastpair/encode.hpp>
#include <fastpair/fastpair.cuh>
#include <fastpair/io.hpp>
#include <fastpair/predicates.cuh>
#include <fastpair/predicates.hpp>
#include <fastpair/selection.cuh>

#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace fastpair::tpch {

inline std::vector<std::string> split_tabs(std::string const& line)
{
  std::vector<std::string> out;
  std::size_t b = 0;
  for (std::size_t e; (e = line.find('\t', b)) != std::string::npos; b = e + 1) out.push_back(line.substr(b, e - b));
  out.push_back(line.substr(b));
  return out;
}

/** The column at `path`: a .fpc file as stored, or a values file (one value per line) compressed
 *  with `kind`. */
inline compressed_column load_column(std::string const& path, codec kind)
{
  if (path.size() > 4 && path.compare(path.size() - 4, 4, ".fpc") == 0) return read_fpc(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  host_strings rows;
  for (std::string v; std::getline(in, v);) rows.push_back(v);
  return compress(rows, kind);
}

inline void expect_args(std::string const& op, std::vector<std::string> const& args, std::size_t n)
{
  if (args.size() != n) throw std::runtime_error(op + " takes " + std::to_string(n) + " argument(s)");
}

inline selection_bitmask complement(selection_bitmask m)
{
  for (auto& w : m.words) w = ~w;
  if (m.num_rows % 64 != 0) m.words.back() &= (std::uint64_t{1} << (m.num_rows % 64)) - 1;
  return m;
}

/** One `where` op on the host, on the codes. */
inline selection_bitmask evaluate_host(compressed_column const& col, std::string const& op,
                                       std::vector<std::string> const& args)
{
  if (op == "in") return select_in(col, std::vector<std::string_view>(args.begin(), args.end()));
  if (op == "prefix_in") return select_prefix_in(col, std::vector<std::string_view>(args.begin(), args.end()));
  expect_args(op, args, 1);
  if (op == "eq") return select_equal(col, args[0]);
  if (op == "ne") return complement(select_equal(col, args[0]));
  if (op == "prefix") return select_prefix(col, args[0]);
  if (op == "not_prefix") return complement(select_prefix(col, args[0]));
  if (op == "suffix") return select_suffix(col, args[0]);
  if (op == "substring") return select_substring(col, args[0]);
  if (op == "like") return select_like_pattern(col, args[0]);
  if (op == "not_like") return complement(select_like_pattern(col, args[0]));
  throw std::runtime_error("unknown op '" + op + "'");
}

/**
 * One `where` op compiled for `dev` (prepared from `host`): literal sets and LIKE tables built on
 * the host from the dictionary and uploaded once, in the constructor; evaluate() is
 * stream-ordered and allocates nothing.
 */
class gpu_predicate {
 public:
  gpu_predicate(compressed_column const& host, device_column const& dev, std::string op,
                std::vector<std::string> const& args, cuda::stream_ref stream = {})
    : dev_(&dev), op_(std::move(op))
  {
    if (op_ == "in") {
      lits_ = device_literal_set::prepare(host, std::vector<std::string_view>(args.begin(), args.end()), stream);
      uses_lits_ = true;
      return;
    }
    if (op_ == "prefix_in") {
      like_ = device_like_predicate::prepare_prefixes(host, std::vector<std::string_view>(args.begin(), args.end()), stream);
      return;
    }
    expect_args(op_, args, 1);
    negate_ = op_ == "ne" || op_ == "not_prefix" || op_ == "not_like";
    if (op_ == "eq" || op_ == "ne") {
      lits_      = device_literal_set::prepare(host, {args[0]}, stream);
      uses_lits_ = true;
    } else if (op_ == "prefix" || op_ == "not_prefix") {
      like_ = device_like_predicate::prepare(host, like_kind::prefix, args[0], stream);
    } else if (op_ == "suffix") {
      like_ = device_like_predicate::prepare(host, like_kind::suffix, args[0], stream);
    } else if (op_ == "substring") {
      like_ = device_like_predicate::prepare(host, like_kind::substring, args[0], stream);
    } else if (op_ == "like" || op_ == "not_like") {
      like_ = device_like_predicate::prepare_pattern(host, args[0], stream);
    } else {
      throw std::runtime_error("unknown op '" + op_ + "'");
    }
  }

  /** The predicate's mask into `out` (ceil(rows / 64) words). */
  device_bitmask evaluate(std::uint64_t* out, cuda::stream_ref stream = {}) const
  {
    device_bitmask const m = uses_lits_ ? lits_.evaluate(*dev_, out, stream) : like_.evaluate(*dev_, out, stream);
    if (negate_) mask_not(m, out, stream);
    return m;
  }

  device_column const& column() const noexcept { return *dev_; }

 private:
  device_column const* dev_;
  std::string op_;
  device_literal_set lits_;
  bool uses_lits_ = false;
  device_like_predicate like_;
  bool negate_ = false;
};

/** A column prepared on the GPU with the row offsets the predicates and selective decode read. */
inline device_column prepare_for_predicates(compressed_column const& col, cuda::stream_ref stream = {})
{
  prepare_options opt;
  opt.row_offsets = true;
  return device_column::prepare(col, stream, opt);
}

}  // namespace fastpair::tpch
