// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Reading and writing string columns for the `fastpair` tool (host-only):
//  - newline-delimited text (one row per line; a trailing newline adds no row; "\r" is kept),
//    optionally zstd-compressed (detected by the zstd frame magic), '-' = stdin;
//  - Arrow-style offsets + chars files: little-endian int32 or int64 offsets (n+1 entries,
//    monotone, offsets[0] may be > 0 as for a sliced Arrow array) and the chars buffer;
//  - the raw bytes of a file (.fpc input);
//  - row-by-row comparison for --check.
// Every path is opened through file_io.hpp (errors name the path and the errno text).
#pragma once

#include "args.hpp"
#include "file_io.hpp"
#include "progress.hpp"

#include <fastpair/format.hpp>

#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace fastpair::cli {


/**
 * @brief Reads a whole file ('-' = stdin); a zstd-compressed file is decompressed on the fly.
 * Shows progress (bytes of the file read) for large files.
 */
inline std::string read_input_file(std::string const& path)
{
  std::uint64_t total = 0;
  auto f              = open_read(path, &total);
  progress bar("reading " + display_name(path), total);
  std::string out;
  std::vector<char> buf(piece_bytes(total, std::size_t{16} << 20));
  std::size_t got = std::fread(buf.data(), 1, buf.size(), f.get());
  bool const zstd = got >= 4 && static_cast<unsigned char>(buf[0]) == 0x28 && static_cast<unsigned char>(buf[1]) == 0xB5 &&
                    static_cast<unsigned char>(buf[2]) == 0x2F && static_cast<unsigned char>(buf[3]) == 0xFD;
  if (!zstd) {
    if (total) out.reserve(total);
    while (got > 0) {
      out.append(buf.data(), got);
      bar.add(got);
      got = std::fread(buf.data(), 1, buf.size(), f.get());
    }
  } else {
    std::unique_ptr<ZSTD_DStream, std::size_t (*)(ZSTD_DStream*)> ds(ZSTD_createDStream(), ZSTD_freeDStream);
    if (!ds) throw std::bad_alloc();
    ZSTD_initDStream(ds.get());
    std::vector<char> obuf(ZSTD_DStreamOutSize());
    std::size_t last_rc = 0;
    while (got > 0) {
      ZSTD_inBuffer ib{buf.data(), got, 0};
      while (ib.pos < ib.size) {
        ZSTD_outBuffer ob{obuf.data(), obuf.size(), 0};
        last_rc = ZSTD_decompressStream(ds.get(), &ob, &ib);
        if (ZSTD_isError(last_rc))
          throw input_error("'" + path + "': zstd decompression failed: " + ZSTD_getErrorName(last_rc));
        out.append(obuf.data(), ob.pos);
      }
      bar.add(got);
      got = std::fread(buf.data(), 1, buf.size(), f.get());
    }
    // zstd does not consume a frame's last byte before all of its output is flushed, so a
    // complete stream ends with every input byte consumed and a last return value of 0.
    if (last_rc != 0) throw input_error("'" + path + "': truncated zstd stream");
  }
  if (std::ferror(f.get())) throw_io_error("error reading", display_name(path), errno ? errno : EIO);
  return out;
}

/** Reads newline-delimited text (or .zst text) into rows. */
inline host_strings load_lines(std::string const& path)
{
  std::string text = read_input_file(path);
  progress bar("splitting lines", 0);
  host_strings rows = split_lines(text);
  return rows;
}

/**
 * @brief Reads Arrow-style offsets and chars files into rows (offsets rebased to 0).
 * @param bits 32, 64, or 0 = infer (int64 when the file is consistent as int64, else int32)
 * @throw input_error naming the file and the inconsistency
 */
inline host_strings load_arrow(std::string const& offsets_path, std::string const& chars_path, int bits)
{
  std::string const raw_off = read_input_file(offsets_path);
  std::string chars         = read_input_file(chars_path);
  auto try_width = [&](int w, std::string* why) -> bool {
    std::size_t const bw = static_cast<std::size_t>(w / 8);
    if (raw_off.size() % bw != 0) {
      *why = "size " + std::to_string(raw_off.size()) + " B is not a multiple of " + std::to_string(bw);
      return false;
    }
    std::size_t const n = raw_off.size() / bw;
    if (n == 0) {
      *why = "no offsets (an Arrow offsets buffer has num_rows + 1 >= 1 entries)";
      return false;
    }
    std::uint64_t prev = 0;
    for (std::size_t i = 0; i < n; ++i) {
      std::uint64_t v = 0;
      if (w == 32) {
        std::int32_t x;
        std::memcpy(&x, raw_off.data() + 4 * i, 4);
        if (x < 0) {
          *why = "offset " + std::to_string(i) + " is negative (" + std::to_string(x) + ")";
          return false;
        }
        v = static_cast<std::uint64_t>(x);
      } else {
        std::int64_t x;
        std::memcpy(&x, raw_off.data() + 8 * i, 8);
        if (x < 0) {
          *why = "offset " + std::to_string(i) + " is negative (" + std::to_string(x) + ")";
          return false;
        }
        v = static_cast<std::uint64_t>(x);
      }
      if (i > 0 && v < prev) {
        *why = "offsets decrease at entry " + std::to_string(i) + " (" + std::to_string(prev) + " then " +
               std::to_string(v) + ")";
        return false;
      }
      if (v > chars.size()) {
        *why = "offset " + std::to_string(i) + " = " + std::to_string(v) + " exceeds the chars file size " +
               std::to_string(chars.size());
        return false;
      }
      prev = v;
    }
    return true;
  };
  std::string why64, why32;
  int w = bits;
  if (bits == 0) {
    if (try_width(64, &why64)) w = 64;
    else if (try_width(32, &why32)) w = 32;
    else
      throw input_error("'" + offsets_path + "' is neither int64 offsets (" + why64 + ") nor int32 offsets (" +
                        why32 + ")");
  } else if (!try_width(bits, &why64)) {
    throw input_error("'" + offsets_path + "' as int" + std::to_string(bits) + " offsets: " + why64);
  }
  std::size_t const bw = static_cast<std::size_t>(w / 8);
  std::size_t const n  = raw_off.size() / bw;
  host_strings rows;
  rows.offsets.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (w == 32) {
      std::int32_t x;
      std::memcpy(&x, raw_off.data() + 4 * i, 4);
      rows.offsets[i] = static_cast<std::uint64_t>(x);
    } else {
      std::int64_t x;
      std::memcpy(&x, raw_off.data() + 8 * i, 8);
      rows.offsets[i] = static_cast<std::uint64_t>(x);
    }
  }
  std::uint64_t const base = rows.offsets[0], end = rows.offsets[n - 1];
  for (auto& o : rows.offsets) o -= base;
  rows.chars.assign(chars.begin() + static_cast<std::ptrdiff_t>(base), chars.begin() + static_cast<std::ptrdiff_t>(end));
  return rows;
}

/**
 * @brief Writes rows as newline-delimited text ('-' = stdout).
 * @throw input_error if a row contains a newline (it could not be read back as one row)
 */
inline void write_lines(std::string const& path, strings_view rows)
{
  // Check first so that no partial file is left for a column that cannot be written as lines.
  if (rows.num_rows) {
    char const* base = rows.chars + rows.offsets[0];
    std::uint64_t const total = rows.total_bytes();
    if (void const* nl = std::memchr(base, '\n', total)) {
      std::uint64_t const pos = static_cast<std::uint64_t>(static_cast<char const*>(nl) - rows.chars);
      std::size_t lo = 0, hi = rows.num_rows;  // row holding byte `pos`: last r with offsets[r] <= pos
      while (hi - lo > 1) {
        std::size_t const mid = (lo + hi) / 2;
        (rows.offsets[mid] <= pos ? lo : hi) = mid;
      }
      throw input_error("row " + std::to_string(lo) +
                        " contains a newline, so the column cannot be written as lines; write Arrow files "
                        "with --offsets-out/--chars-out instead");
    }
  }
  auto f                    = open_write(path);
  std::uint64_t const total = rows.total_bytes() + rows.num_rows;
  progress bar("writing " + display_name(path, true), total);
  std::vector<char> buf;
  buf.reserve(piece_bytes(total, std::size_t{8} << 20));
  for (std::size_t r = 0; r < rows.num_rows; ++r) {
    std::string_view const s = rows.row(r);
    if (buf.size() + s.size() + 1 > buf.capacity() && !buf.empty()) {
      write_all(f.get(), buf.data(), buf.size(), path);
      bar.add(buf.size());
      buf.clear();
    }
    if (s.size() + 1 > buf.capacity()) {
      write_all(f.get(), s.data(), s.size(), path);
      write_all(f.get(), "\n", 1, path);
      bar.add(s.size() + 1);
      continue;
    }
    buf.insert(buf.end(), s.begin(), s.end());
    buf.push_back('\n');
  }
  write_all(f.get(), buf.data(), buf.size(), path);
  bar.add(buf.size());
  close_write(f, path);
}

/** @brief Writes rows as Arrow offsets (int32 or int64, little-endian) and chars files. */
inline void write_arrow(std::string const& offsets_path, std::string const& chars_path, strings_view rows, int bits)
{
  std::uint64_t const base  = rows.num_rows ? rows.offsets[0] : 0;
  std::uint64_t const total = rows.total_bytes();
  if (bits == 32 && total > 0x7FFFFFFFull)
    throw usage_error("the decoded column has " + std::to_string(total) +
                      " bytes, too many for int32 offsets: use --offset-bits 64");
  {
    auto f = open_write(offsets_path);
    std::vector<char> buf;
    buf.reserve((rows.num_rows + 1) * (bits / 8));
    for (std::size_t r = 0; r <= rows.num_rows; ++r) {
      std::uint64_t const v = rows.num_rows ? rows.offsets[r] - base : 0;
      if (bits == 32) {
        std::int32_t const x = static_cast<std::int32_t>(v);
        buf.insert(buf.end(), reinterpret_cast<char const*>(&x), reinterpret_cast<char const*>(&x) + 4);
      } else {
        std::int64_t const x = static_cast<std::int64_t>(v);
        buf.insert(buf.end(), reinterpret_cast<char const*>(&x), reinterpret_cast<char const*>(&x) + 8);
      }
    }
    write_all(f.get(), buf.data(), buf.size(), offsets_path);
    close_write(f, offsets_path);
  }
  auto f = open_write(chars_path);
  progress bar("writing " + display_name(chars_path, true), total);
  std::size_t const piece = piece_bytes(total, std::size_t{16} << 20);
  for (std::uint64_t done = 0; done < total;) {
    std::size_t const n = static_cast<std::size_t>(std::min<std::uint64_t>(piece, total - done));
    write_all(f.get(), rows.chars + base + done, n, chars_path);
    bar.add(n);
    done += n;
  }
  close_write(f, chars_path);
}

/** Printable, shortened form of a row for messages. */
inline std::string excerpt(std::string_view s, std::size_t max_len = 60)
{
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size() && i < max_len; ++i) {
    unsigned char const c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') out += std::string("\\") + static_cast<char>(c);
    else if (c >= 0x20 && c < 0x7F) out += static_cast<char>(c);
    else {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02x", c);
      out += b;
    }
  }
  out += s.size() > max_len ? "\"..." : "\"";
  return out;
}

/**
 * @brief Compares decoded rows with rows [first_row, first_row + got.num_rows) of `expect`.
 * @throw check_failed naming the first differing row and its byte position
 */
inline void check_rows(strings_view got, strings_view expect, std::uint64_t first_row = 0)
{
  if (first_row + got.num_rows > expect.num_rows)
    throw check_failed("the check file has " + std::to_string(expect.num_rows) + " rows, the decoded column " +
                       std::to_string(first_row + got.num_rows) + (first_row ? " (up to its last decoded row)" : ""));
  if (first_row == 0 && got.num_rows != expect.num_rows)
    throw check_failed("row count differs: decoded " + std::to_string(got.num_rows) + ", check file " +
                       std::to_string(expect.num_rows));
  for (std::size_t r = 0; r < got.num_rows; ++r) {
    std::string_view const a = got.row(r), b = expect.row(first_row + r);
    if (a != b) {
      std::size_t i = 0;
      while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
      throw check_failed("row " + std::to_string(first_row + r) + " differs at byte " + std::to_string(i) +
                         ": decoded " + excerpt(a) + ", expected " + excerpt(b));
    }
  }
}

}  // namespace fastpair::cli
