// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Opening the paths that the `fastpair` tool reads and writes (host-only). Every path the tool
// opens goes through here (inputs, --check files, Arrow files, .fpc files, -o outputs), so every
// failure names the path and the reason, the errno text, and is exit 1 (std::runtime_error):
//   cannot open 'd.fpc' for reading: Is a directory
//   cannot open '/proc/x.fpc' for writing: No such file or directory
//   error writing 'out.txt': No space left on device
// fopen() of a directory succeeds on Linux (reads then fail and a size probe returns garbage), so
// open_read() checks what the path is with fstat() first. '-' is stdin or stdout.
#pragma once

#include <sys/stat.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

namespace fastpair::cli {

/** "cannot open 'p' for reading: Is a directory" and the like (exit 1). */
[[noreturn]] inline void throw_io_error(std::string const& what, std::string const& path, int err)
{
  throw std::runtime_error(what + " '" + path + "': " + std::strerror(err));
}

/** How messages name a path: stdin / stdout for '-'. */
inline std::string display_name(std::string const& path, bool output = false)
{
  return path == "-" ? (output ? "stdout" : "stdin") : path;
}

struct file_closer {
  void operator()(std::FILE* f) const noexcept
  {
    if (f && f != stdin && f != stdout) std::fclose(f);
  }
};
using file_ptr = std::unique_ptr<std::FILE, file_closer>;

/**
 * @brief Opens `path` for reading ('-' = stdin). Accepts regular files, pipes, character devices
 * and sockets; a directory fails with "Is a directory", anything else (a block device) with
 * "not a regular file, pipe, socket or character device".
 * @param size set to the size of a regular file, 0 where it is unknown (stdin, pipes)
 * @throw std::runtime_error naming the path and the reason
 */
inline file_ptr open_read(std::string const& path, std::uint64_t* size = nullptr)
{
  std::string const what = "cannot open '" + display_name(path) + "' for reading";
  file_ptr f;
  if (path == "-") f.reset(stdin);
  else {
    errno = 0;
    f.reset(std::fopen(path.c_str(), "rb"));
    if (!f) throw std::runtime_error(what + ": " + std::strerror(errno ? errno : EIO));
  }
  struct stat st {};
  if (fstat(fileno(f.get()), &st) != 0) throw std::runtime_error(what + ": " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw std::runtime_error(what + ": " + std::strerror(EISDIR));
  if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode) && !S_ISSOCK(st.st_mode))
    throw std::runtime_error(what + ": not a regular file, pipe, socket or character device");
  if (size) *size = path != "-" && S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;
  return f;
}

/**
 * @brief Fails early, before a long computation, where `path` certainly cannot be opened for
 * writing: it is a directory, or its parent folder does not exist. open_write() still reports
 * every other failure.
 * @throw std::runtime_error naming the path and the reason
 */
inline void check_output_path(std::string const& path)
{
  if (path == "-") return;
  std::string const what = "cannot open '" + path + "' for writing";
  struct stat st {};
  if (stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw std::runtime_error(what + ": " + std::strerror(EISDIR));
    return;
  }
  std::size_t const slash = path.find_last_of('/');
  std::string const dir   = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  if (stat(dir.c_str(), &st) != 0) throw std::runtime_error(what + ": " + std::strerror(errno));
  if (!S_ISDIR(st.st_mode)) throw std::runtime_error(what + ": " + std::strerror(ENOTDIR));
}

/**
 * @brief Opens `path` for writing, replacing it ('-' = stdout).
 * @throw std::runtime_error naming the path and the reason
 */
inline file_ptr open_write(std::string const& path)
{
  if (path == "-") return file_ptr(stdout);
  check_output_path(path);
  errno = 0;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot open '" + path + "' for writing: " + std::strerror(errno ? errno : EIO));
  return file_ptr(f);
}

/** Writes n bytes. @throw std::runtime_error naming the path and the reason. */
inline void write_all(std::FILE* f, void const* data, std::size_t n, std::string const& path)
{
  errno = 0;
  if (n && std::fwrite(data, 1, n, f) != n) throw_io_error("error writing", display_name(path, true), errno ? errno : EIO);
}

/** Flushes and closes a file from open_write() (stdout is only flushed), reporting any error. */
inline void close_write(file_ptr& f, std::string const& path)
{
  std::FILE* const raw = f.release();
  if (!raw) return;
  errno = 0;
  bool ok = std::fflush(raw) == 0 && !std::ferror(raw);
  int err = errno;
  if (raw != stdout && raw != stdin) {
    errno = 0;
    if (std::fclose(raw) != 0 && ok) {
      ok  = false;
      err = errno;
    }
  }
  if (!ok) throw_io_error("error writing", display_name(path, true), err ? err : EIO);
}

}  // namespace fastpair::cli
