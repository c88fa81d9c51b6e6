// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Access to the real columns in ../shared/data (zstd files) for tests and benchmarks.
#pragma once

#include <fastpair/error.hpp>
#include <fastpair/format.hpp>

#include <zstd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef FASTPAIR_DEFAULT_DATA_DIR
#define FASTPAIR_DEFAULT_DATA_DIR "../shared/data"
#endif

namespace fastpair::testing {

/** The twelve string columns of ../shared/data, in SOURCES.md order. */
inline std::vector<std::string> const& shared_columns()
{
  static std::vector<std::string> const names = {
    "zh_text",        "en_wiki",         "code_lines",     "urls",
    "log_android",    "log_windows",     "log_spark",      "tpch_l_comment",
    "tpch_ps_comment", "tpch_c_address", "tpch_o_clerk",   "tpch_l_shipinstruct"};
  return names;
}

/** Folder of the shared data: $FASTPAIR_DATA_DIR, else the path configured at build time. */
inline std::filesystem::path data_dir()
{
  if (char const* env = std::getenv("FASTPAIR_DATA_DIR"); env && *env) return env;
  return FASTPAIR_DEFAULT_DATA_DIR;
}

/**
 * How many bytes of each source a test reads: $FASTPAIR_TEST_SOURCE_BYTES when set (the sanitizer
 * runs set it small), else `default_bytes`.
 */
inline std::size_t test_source_bytes(std::size_t default_bytes)
{
  if (char const* env = std::getenv("FASTPAIR_TEST_SOURCE_BYTES"); env && *env) return std::strtoull(env, nullptr, 10);
  return default_bytes;
}

/** True when `name` (e.g. "urls") can be loaded from data_dir(). */
inline bool have_column(std::string const& name)
{
  return std::filesystem::exists(data_dir() / (name + ".txt.zst")) ||
         std::filesystem::exists(data_dir() / (name + ".txt"));
}

/** Reads a whole file. @throw std::runtime_error naming the path. */
inline std::string read_file(std::filesystem::path const& p)
{
  std::ifstream f(p, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open " + p.string());
  return std::string(std::istreambuf_iterator<char>(f), {});
}

/** Decompresses a .zst file (streaming, any frame content size). */
inline std::string read_zstd_file(std::filesystem::path const& p)
{
  std::string const in = read_file(p);
  std::string out;
  ZSTD_DStream* ds = ZSTD_createDStream();
  ZSTD_initDStream(ds);
  ZSTD_inBuffer ib{in.data(), in.size(), 0};
  std::vector<char> buf(ZSTD_DStreamOutSize());
  while (ib.pos < ib.size) {
    ZSTD_outBuffer ob{buf.data(), buf.size(), 0};
    std::size_t const rc = ZSTD_decompressStream(ds, &ob, &ib);
    if (ZSTD_isError(rc)) {
      ZSTD_freeDStream(ds);
      throw std::runtime_error("zstd error in " + p.string() + ": " + ZSTD_getErrorName(rc));
    }
    out.append(buf.data(), ob.pos);
  }
  ZSTD_freeDStream(ds);
  return out;
}

/** Loads column `name` as rows (one per line), at most `max_bytes` of text (cut at a row end). */
inline host_strings load_column(std::string const& name, std::size_t max_bytes = SIZE_MAX)
{
  auto const zst = data_dir() / (name + ".txt.zst");
  std::string text = std::filesystem::exists(zst) ? read_zstd_file(zst)
                                                  : read_file(data_dir() / (name + ".txt"));
  if (text.size() > max_bytes) {
    std::size_t cut = text.rfind('\n', max_bytes);
    text.resize(cut == std::string::npos ? 0 : cut + 1);
  }
  return split_lines(text);
}

/**
 * Loads shared column `name` like load_column(), but first checks that it exists and otherwise
 * throws std::runtime_error naming the folder and FASTPAIR_DATA_DIR, so that a test over the
 * shared data fails loudly instead of passing when the data is absent.
 */
inline host_strings load_shared_column(std::string const& name, std::size_t max_bytes = SIZE_MAX)
{
  if (!have_column(name))
    throw std::runtime_error("shared data column '" + name + "' not found in '" + data_dir().string() +
                             "': set FASTPAIR_DATA_DIR to the folder holding ../shared/data (or configure "
                             "with -DFASTPAIR_DATA_DIR=...)");
  return load_column(name, max_bytes);
}

}  // namespace fastpair::testing
