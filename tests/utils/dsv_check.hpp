// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the DSV tests (host: tests/host/dsv_test.cpp, GPU: tests/gpu/dsv_gpu_test.cu):
// a parse's outcome (table or error), its comparison with the reference's, and the raw shared files.
// Host-only C++, so that both the C++ and the CUDA tests include it.
#pragma once

#include "utils/data.hpp"

#include <fastpair/dsv.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <string>

namespace fastpair::testing {

/** RFC 4180 CSV with an optional header and an expected field count (-1: any). */
inline dsv_dialect csv(bool header = false, int fields = -1)
{
  dsv_dialect d;
  d.header          = header;
  d.expected_fields = fields;
  return d;
}

/** What a parse gave: its table, or the error it threw. */
struct dsv_outcome {
  bool ok = false;
  dsv_table table;
  dsv_error_kind kind  = dsv_error_kind::none;
  std::uint64_t offset = 0;
  std::uint64_t record = 0;
  std::string message;
};

/** Runs `parse()` (returning a dsv_table) and keeps its table or its dsv_error. */
template <class Parse>
dsv_outcome run_parser(Parse&& parse)
{
  dsv_outcome o;
  try {
    o.table = parse();
    o.ok    = true;
  } catch (dsv_error const& e) {
    o.kind    = e.kind;
    o.offset  = e.offset;
    o.record  = e.record;
    o.message = e.what();
  }
  return o;
}

/** REQUIREs `got` equal to `ref`: the same table byte for byte, or the same error (kind, byte
 *  offset, record, message). */
inline void require_same_outcome(dsv_outcome const& got, dsv_outcome const& ref)
{
  REQUIRE(got.ok == ref.ok);
  if (ref.ok) {
    REQUIRE(got.table.num_records == ref.table.num_records);
    REQUIRE(got.table.header == ref.table.header);
    REQUIRE(got.table.columns.size() == ref.table.columns.size());
    for (std::size_t j = 0; j < ref.table.columns.size(); ++j) {
      INFO("column " << j);
      REQUIRE(got.table.columns[j].offsets == ref.table.columns[j].offsets);
      REQUIRE(got.table.columns[j].chars == ref.table.columns[j].chars);
    }
  } else {
    REQUIRE(got.kind == ref.kind);
    REQUIRE(got.offset == ref.offset);
    REQUIRE(got.record == ref.record);
    REQUIRE(got.message == ref.message);
  }
}

/** Loads a shared raw file (e.g. "reddit_posts.csv.zst") or FAILs naming the folder. */
inline std::string load_raw(std::string const& file)
{
  auto const path = data_dir() / file;
  if (!std::filesystem::exists(path))
    FAIL("shared data file '" << file << "' not found in '" << data_dir().string()
                              << "': set FASTPAIR_DATA_DIR to the folder holding ../shared/data "
                                 "(or configure with -DFASTPAIR_DATA_DIR=...)");
  return read_zstd_file(path);
}

}  // namespace fastpair::testing
