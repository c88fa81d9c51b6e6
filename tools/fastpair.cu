// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// `fastpair`: compress string columns into .fpc files, decompress them on the GPU (or the CPU),
// inspect them, and benchmark the GPU decoder. docs/CLI.md is the manual; `fastpair --help` and
// `fastpair <subcommand> --help` print the same usage.
//
// Every failure ends in main()'s handler: a one-line message on stderr that names the problem and
// a documented exit code (cli/args.hpp: exit_code), never an uncaught exception.
#include "cli/args.hpp"
#include "cli/encode_chunked.hpp"
#include "cli/file_io.hpp"
#include "cli/gpu.cuh"
#include "cli/progress.hpp"
#include "cli/strings_io.hpp"

#include <fastpair/fastpair.cuh>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <new>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace fastpair::cli {
namespace {

using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

std::string fmt(char const* f, double v)
{
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

/** Options shared by every subcommand that shows progress. */
void add_progress_options(std::vector<option_spec>& s)
{
  s.push_back({"quiet", 'q', "", "no progress output (results are still printed)"});
  s.push_back({"progress", 0, "", "show progress also when stderr is not a terminal (logs)"});
}
void apply_progress_options(parsed_args const& a)
{
  if (a.has("quiet")) global_progress_mode() = progress_mode::off;
  else if (a.has("progress")) global_progress_mode() = progress_mode::always;
}

/** Prints a subcommand's help and returns true if --help was given. */
bool print_help_if_asked(parsed_args const& a, char const* usage, char const* about)
{
  if (!a.help) return false;
  std::printf("%s\n%s\n%s\n%s", usage, about, format_options(a.specs()).c_str(), exit_code_help());
  return true;
}

/** The input column named by the arguments: positional text file, or --offsets + --chars. */
host_strings load_rows(parsed_args const& a, std::string const& text_path, char const* offsets_opt,
                       char const* chars_opt, std::string* description)
{
  bool const arrow = a.has(offsets_opt) || a.has(chars_opt);
  if (arrow) {
    if (!a.has(offsets_opt) || !a.has(chars_opt))
      throw usage_error(std::string("Arrow input needs both --") + offsets_opt + " and --" + chars_opt);
    if (!text_path.empty())
      throw usage_error("give either a text file or --" + std::string(offsets_opt) + "/--" + chars_opt + ", not both");
    int bits = 0;
    if (auto b = a.get("offset-bits"); b && *b != "auto") bits = static_cast<int>(parse_int(*b, "--offset-bits", 32, 64));
    if (bits != 0 && bits != 32 && bits != 64) throw usage_error("--offset-bits must be 32, 64 or auto");
    *description = *a.get(offsets_opt) + " + " + *a.get(chars_opt);
    return load_arrow(*a.get(offsets_opt), *a.get(chars_opt), bits);
  }
  *description = text_path == "-" ? "stdin" : text_path;
  return load_lines(text_path);
}

/** Parses --rows A:B (either side may be empty) against a column of `n` rows. */
std::pair<std::uint64_t, std::uint64_t> parse_rows(parsed_args const& a, std::uint64_t n)
{
  auto r = a.get("rows");
  if (!r) return {0, n};
  std::size_t const colon = r->find(':');
  if (colon == std::string::npos) throw usage_error("--rows: expected BEGIN:END (e.g. 0:1000 or 500:), got '" + *r + "'");
  std::string const lo = r->substr(0, colon), hi = r->substr(colon + 1);
  std::uint64_t const b = lo.empty() ? 0 : parse_size(lo, "--rows begin");
  std::uint64_t const e = hi.empty() ? n : parse_size(hi, "--rows end");
  if (b > e || e > n)
    throw usage_error("--rows " + *r + " is outside the column's " + std::to_string(n) + " rows (or begin > end)");
  return {b, e};
}

/** A .fpc file's bytes as read: checked up to its header and its size against the header's
 *  counts, not validated further. */
struct fpc_image {
  std::vector<std::uint8_t> pageable;
  fastpair::host_buffer pinned;  ///< used instead of `pageable` when is_pinned (pinned memory)
  bool is_pinned   = false;
  std::size_t size = 0;
  std::uint8_t const* data() const noexcept { return is_pinned ? pinned.data() : pageable.data(); }
};

/** Reads ('-' = stdin) a .fpc file's bytes with progress, opening the path through
 *  cli/file_io.hpp (a directory or unreadable path names the path and the reason). The header is
 *  read and checked first, and the file's size against its counts, before the rest is read (and
 *  allocated for), as read_fpc() does: a large file that is no .fpc costs 96 bytes of reading.
 *  With `pinned` and a file of known size (not a pipe) the bytes go to pinned host memory
 *  (cudaMallocHost), which the GPU's uploads read at the full rate.
 *  @throw format_error prefixed with the path if the header or the size is wrong (exit 3). */
fpc_image read_fpc_image(std::string const& path, bool pinned)
{
  fpc_image r;
  try {
    std::uint64_t total = 0;
    auto f              = open_read(path, &total);
    std::array<std::uint8_t, fpc_header_bytes_max> head{};
    std::size_t n_head = std::fread(head.data(), 1, fpc_version_probe_bytes, f.get());
    if (n_head == fpc_version_probe_bytes) {  // then the rest of the header of that version
      std::size_t const need =
        fastpair::detail::load_le32(head.data() + 8) == fpc_version_1 ? fpc_header_bytes : fpc_header_bytes_v2;
      n_head += std::fread(head.data() + n_head, 1, need - n_head, f.get());
    }
    std::uint64_t limit = n_head;  // a file shorter than the version probe: deserialize names it
    if (n_head >= fpc_version_probe_bytes) {
      fpc_header const h = parse_fpc_header(head.data(), n_head);  // names a short header
      if (total != 0 && (total < h.min_file_bytes || total > h.max_file_bytes))
        throw format_error("fastpair: invalid .fpc: file size: " + std::to_string(total) + " bytes; the header's counts need " +
                           std::to_string(h.min_file_bytes) + ".." + std::to_string(h.max_file_bytes));
      // From a pipe: read at most one byte more than the counts allow (deserialize names it).
      limit = total != 0 ? total : h.max_file_bytes + 1;
    }
    r.is_pinned = pinned && total != 0;
    progress bar("reading " + display_name(path), limit);
    bar.add(n_head);
    std::size_t const piece = piece_bytes(limit, std::size_t{16} << 20);
    if (r.is_pinned) {  // a regular file: its size is known, the buffer is allocated once
      r.pinned = fastpair::host_buffer(static_cast<std::size_t>(limit));
      std::copy_n(head.begin(), n_head, r.pinned.data());
      std::size_t done = n_head;
      while (done < limit) {
        std::size_t const got = std::fread(r.pinned.data() + done, 1,
                                           static_cast<std::size_t>(std::min<std::uint64_t>(piece, limit - done)), f.get());
        done += got;
        bar.add(got);
        if (got == 0) break;
      }
      r.size = done;
    } else {
      std::vector<std::uint8_t>& bytes = r.pageable;
      bytes.assign(head.begin(), head.begin() + static_cast<std::ptrdiff_t>(n_head));
      while (bytes.size() < limit) {
        std::size_t const old = bytes.size();
        bytes.resize(old + static_cast<std::size_t>(std::min<std::uint64_t>(piece, limit - old)));
        std::size_t const got = std::fread(bytes.data() + old, 1, bytes.size() - old, f.get());
        bytes.resize(old + got);
        bar.add(got);
        if (got == 0) break;
      }
      r.size = bytes.size();
    }
    if (std::ferror(f.get())) throw_io_error("error reading", display_name(path), errno ? errno : EIO);
  } catch (format_error const& e) {
    throw format_error(display_name(path) + ": " + e.what());
  }
  return r;
}

/** A .fpc file as read: the validated column, the file size and its header bytes as stored. */
struct fpc_file {
  compressed_column col;
  std::uint64_t file_bytes = 0;
  std::array<std::uint8_t, fpc_header_bytes_max> header{};  ///< 80 (version 1) or 96 bytes used
};

/** Reads ('-' = stdin) and validates a .fpc file on the host with progress, like read_fpc():
 *  read_fpc_image, then deserialize. @throw format_error prefixed with the path (exit 3). */
fpc_file load_fpc(std::string const& path)
{
  fpc_image const img = read_fpc_image(path, false);
  fpc_file r;
  r.file_bytes = img.size;
  std::copy_n(img.data(), std::min(img.size, r.header.size()), r.header.begin());
  try {
    progress bar("validating " + display_name(path), 0);
    r.col = deserialize(img.data(), img.size);
  } catch (format_error const& e) {
    throw format_error(display_name(path) + ": " + e.what());
  }
  return r;
}

/** Writes the column as a .fpc file ('-' = stdout) with progress; returns the file size. */
std::uint64_t save_fpc(std::string const& path, compressed_column const& col)
{
  std::vector<std::uint8_t> const bytes = serialize(col);
  auto f                                = open_write(path);
  progress bar("writing " + display_name(path, true), bytes.size());
  std::size_t const piece = piece_bytes(bytes.size(), std::size_t{16} << 20);
  for (std::size_t done = 0; done < bytes.size();) {
    std::size_t const n = std::min(piece, bytes.size() - done);
    write_all(f.get(), bytes.data() + done, n, path);
    bar.add(n);
    done += n;
  }
  close_write(f, path);
  return bytes.size();
}

// -------------------------------------------------------------------------------------------------
// compress
// -------------------------------------------------------------------------------------------------

char const* const compress_usage =
  "usage: fastpair compress [options] INPUT -o OUTPUT.fpc\n"
  "       fastpair compress [options] --offsets FILE --chars FILE -o OUTPUT.fpc";
char const* const compress_about =
  "Trains a dictionary on a string column and writes the compressed column as a .fpc file.\n"
  "INPUT is newline-delimited text, one row per line ('-' = stdin; a trailing newline adds no row;\n"
  "\"\\r\" is kept). zstd-compressed input (.zst) is recognised by its magic bytes. Arrow-style input\n"
  "is an offsets file (little-endian int32 or int64, num_rows + 1 entries) and a chars file.\n"
  "Prints the compression ratio and the time of each step (on stderr when -o - writes the .fpc to\n"
  "stdout).\n";

int cmd_compress(std::vector<std::string> const& argv)
{
  std::vector<option_spec> specs = {
    {"output", 'o', "FILE", "the .fpc file to write (required; '-' = stdout)"},
    {"codec", 'c', "NAME", "onpair16 (default), onpair12, fsst12, or auto (smallest file of the three)"},
    {"offsets", 0, "FILE", "Arrow offsets file (with --chars) instead of a text INPUT"},
    {"chars", 0, "FILE", "Arrow chars file (with --offsets)"},
    {"offset-bits", 0, "32|64|auto", "width of the Arrow offsets (default auto: int64 if consistent, else int32)"},
    {"sample-fraction", 0, "F", "OnPair training budget as a fraction of the input, (0, 1] (default 0.15)"},
    {"seed", 0, "N", "seed of the training shuffle (default 42)"},
    {"sidecar-stride", 0, "N", "codes per sidecar entry (default 768)"},
    {"chunk-bytes", 0, "SIZE", "encode at most this much text at a time, for progress (default 64M; same output)"},
  };
  add_progress_options(specs);
  parsed_args a("compress", specs, argv);
  if (print_help_if_asked(a, compress_usage, compress_about)) return exit_ok;
  apply_progress_options(a);
  if (a.positionals.size() > 1) throw usage_error("compress takes one INPUT, got " + std::to_string(a.positionals.size()));
  if (a.positionals.empty() && !a.has("offsets") && !a.has("chars"))
    throw usage_error("compress: missing INPUT (a text file, '-', or --offsets/--chars)");
  if (!a.has("output")) throw usage_error("compress: missing -o OUTPUT.fpc");
  std::string const output = *a.get("output");
  if (output == "-" && isatty(STDOUT_FILENO))
    throw usage_error("compress: -o - would write the binary .fpc to the terminal; redirect stdout or give -o FILE");

  std::string const codec_arg = a.get_or("codec", "onpair16");
  bool const auto_codec       = codec_arg == "auto";
  codec kind                  = codec::onpair16;
  if (!auto_codec) {
    if (codec_arg != "onpair16" && codec_arg != "onpair12" && codec_arg != "fsst12")
      throw usage_error("--codec: unknown codec '" + codec_arg + "' (expected onpair16, onpair12, fsst12 or auto)");
    kind = parse_codec(codec_arg);
  }
  train_options topt;
  if (auto f = a.get("sample-fraction")) {
    topt.sample_fraction = parse_real(*f, "--sample-fraction", 0.0, 1.0, true);
  }
  if (auto s = a.get("seed")) topt.seed = parse_size(*s, "--seed");
  std::uint32_t stride = default_sidecar_stride;
  if (auto s = a.get("sidecar-stride")) stride = static_cast<std::uint32_t>(parse_int(*s, "--sidecar-stride", 1, 1 << 30));
  std::uint64_t chunk = std::uint64_t{64} << 20;
  if (auto s = a.get("chunk-bytes")) chunk = parse_size(*s, "--chunk-bytes");
  if (chunk == 0) throw usage_error("--chunk-bytes must be positive");

  check_output_path(output);  // a directory or a missing folder fails now, not after the encoding

  auto const t_all = clock_type::now();
  std::string input_name;
  host_strings const rows = load_rows(a, a.positionals.empty() ? "" : a.positionals[0], "offsets", "chars", &input_name);
  double const t_read = since(t_all);
  std::uint64_t const in_bytes = rows.chars.size();

  double t_train = 0, t_encode = 0;
  auto compress_one = [&](codec k) {
    auto t0 = clock_type::now();
    dictionary dict;
    {
      progress bar(std::string("training ") + codec_name(k) + " dictionary", 0);
      dict = train(rows, k, topt);
    }
    t_train += since(t0);
    t0 = clock_type::now();
    progress bar(std::string("encoding with ") + codec_name(k), in_bytes);
    compressed_column col = encode_chunked(rows, k, dict, stride, chunk, bar);
    bar.finish();
    t_encode += since(t0);
    return col;
  };

  compressed_column col;
  std::string auto_reason;
  if (!auto_codec) {
    col = compress_one(kind);
  } else {
    // encode_auto's rule: smallest stored size with row metadata; ties go to the earlier of
    // fsst12, onpair12, onpair16 (the cheaper to decode). Done here to show progress per codec.
    bool have = false;
    std::uint64_t best = 0;
    for (codec k : {codec::fsst12, codec::onpair12, codec::onpair16}) {
      compressed_column c   = compress_one(k);
      std::uint64_t const s = column_stored_size(c).with_rows();
      auto_reason += std::string(auto_reason.empty() ? "" : ", ") + codec_name(k) + " " + std::to_string(s) + " B";
      if (!have || s < best) {
        col  = std::move(c);
        best = s;
        have = true;
      }
    }
  }
  auto const t_w                 = clock_type::now();
  std::uint64_t const file_bytes = save_fpc(output, col);
  double const t_write           = since(t_w);
  stored_size const st           = column_stored_size(col);

  // The summary goes to stderr when the .fpc goes to stdout.
  std::FILE* const info = output == "-" ? stderr : stdout;
  std::fprintf(info, "compressed %s -> %s\n", input_name.c_str(), display_name(output, true).c_str());
  std::fprintf(info, "  codec        %s (%zu dictionary entries)%s\n", codec_name(col.kind), col.dict.size(),
               auto_codec ? " chosen by --codec auto" : "");
  if (auto_codec) std::fprintf(info, "  auto         stored size with row offsets: %s\n", auto_reason.c_str());
  std::fprintf(info, "  rows         %zu\n", rows.num_rows());
  std::fprintf(info, "  input        %" PRIu64 " B of strings (%s)\n", in_bytes, human_bytes(static_cast<double>(in_bytes)).c_str());
  std::fprintf(info, "  output       %" PRIu64 " B .fpc file (%s)\n", file_bytes, human_bytes(static_cast<double>(file_bytes)).c_str());
  std::fprintf(info, "  ratio        %.3f (string bytes / .fpc bytes); %.3f without row offsets and headers "
               "(string bytes / (dictionary + codes + sidecar))\n",
               file_bytes ? static_cast<double>(in_bytes) / static_cast<double>(file_bytes) : 0.0,
               st.paper() ? static_cast<double>(in_bytes) / static_cast<double>(st.paper()) : 0.0);
  std::fprintf(info, "  time         %.3f s total: read %.3f s, train %.3f s, encode %.3f s (%.1f MB/s), write %.3f s\n",
               since(t_all), t_read, t_train, t_encode,
               t_encode > 0 ? static_cast<double>(in_bytes) / t_encode / 1e6 : 0.0, t_write);
  return exit_ok;
}

// -------------------------------------------------------------------------------------------------
// decompress
// -------------------------------------------------------------------------------------------------

char const* const decompress_usage =
  "usage: fastpair decompress [options] INPUT.fpc [-o OUTPUT] [--check ORIGINAL]";
char const* const decompress_about =
  "Decodes a .fpc file ('-' = stdin) on the GPU (default) or with the CPU reference decoder (--cpu)\n"
  "and writes the strings back, one row per line (-o FILE, '-' = stdout), or as Arrow offsets +\n"
  "chars files. On the GPU the file is read into pinned host memory and decoded from its stored\n"
  "bytes (fastpair::decode_fpc_host: upload, checks and decode pipelined on the GPU; with --rows,\n"
  "device_column::prepare_fpc_host then decode_column; a version-1 file is read on the host); on\n"
  "the CPU it is validated on the host first.\n"
  "--check compares the decoded rows with the original input and fails (exit 4) at the first\n"
  "difference. Without a usable GPU the CPU decoder is used, with a note on stderr, unless --gpu is\n"
  "given (then exit 5).\n";

int cmd_decompress(std::vector<std::string> const& argv)
{
  std::vector<option_spec> specs = {
    {"output", 'o', "FILE", "write the rows as newline-delimited text ('-' = stdout)"},
    {"offsets-out", 0, "FILE", "write Arrow offsets (with --chars-out)"},
    {"chars-out", 0, "FILE", "write Arrow chars (with --offsets-out)"},
    {"offset-bits", 0, "32|64", "offsets width of --offsets-out and of --check-offsets (default 64 / auto)"},
    {"check", 0, "FILE", "verify against the original newline-delimited (or .zst) text"},
    {"check-offsets", 0, "FILE", "verify against original Arrow offsets (with --check-chars)"},
    {"check-chars", 0, "FILE", "verify against original Arrow chars (with --check-offsets)"},
    {"rows", 0, "BEGIN:END", "decode only rows [BEGIN, END)"},
    {"cpu", 0, "", "decode with the CPU reference decoder"},
    {"gpu", 0, "", "require the GPU (exit 5 if there is none) instead of falling back to the CPU"},
    {"device", 0, "N", "CUDA device to use (default 0)"},
    {"low-plane-bytes", 0, "8|16", "GPU low dictionary plane width W (default: automatic)"},
  };
  add_progress_options(specs);
  parsed_args a("decompress", specs, argv);
  if (print_help_if_asked(a, decompress_usage, decompress_about)) return exit_ok;
  apply_progress_options(a);
  if (a.positionals.size() != 1)
    throw usage_error("decompress takes exactly one INPUT.fpc, got " + std::to_string(a.positionals.size()));
  if (a.has("cpu") && a.has("gpu")) throw usage_error("--cpu and --gpu exclude each other");
  bool const arrow_out = a.has("offsets-out") || a.has("chars-out");
  if (arrow_out && !(a.has("offsets-out") && a.has("chars-out")))
    throw usage_error("Arrow output needs both --offsets-out and --chars-out");
  if (arrow_out && a.has("output")) throw usage_error("give either -o or --offsets-out/--chars-out, not both");
  bool const check_arrow = a.has("check-offsets") || a.has("check-chars");
  if (check_arrow && a.has("check")) throw usage_error("give either --check or --check-offsets/--check-chars, not both");
  if (!arrow_out && !a.has("output") && !a.has("check") && !check_arrow)
    throw usage_error("decompress: nothing to do: give -o OUTPUT, --offsets-out/--chars-out, or --check");
  int out_bits = 64;
  if (auto b = a.get("offset-bits"); b && arrow_out) {
    out_bits = static_cast<int>(parse_int(*b, "--offset-bits", 32, 64));
    if (out_bits != 32 && out_bits != 64) throw usage_error("--offset-bits must be 32 or 64");
  }
  int w = 0;
  if (auto s = a.get("low-plane-bytes")) {
    w = static_cast<int>(parse_int(*s, "--low-plane-bytes", 8, 16));
    if (w != 8 && w != 16) throw usage_error("--low-plane-bytes must be 8 or 16");
  }
  int const device = a.has("device") ? static_cast<int>(parse_int(*a.get("device"), "--device", 0, 1023)) : 0;

  // A directory or a missing folder as an output fails now, not after the decoding.
  for (char const* o : {"output", "offsets-out", "chars-out"})
    if (auto p = a.get(o)) check_output_path(*p);

  std::string const input = a.positionals[0];
  bool use_gpu            = !a.has("cpu");
  std::string why;
  int const count = use_gpu ? cuda_device_count(&why) : 0;
  // On the GPU the file's bytes go to pinned host memory and are checked on the GPU
  // (decode_fpc_host, or prepare_fpc_host for a row range): no host deserialize or validate of a
  // version-2 file.
  if (use_gpu && count > 0) select_device(device, count);
  auto const t_all       = clock_type::now();
  fpc_image const image  = read_fpc_image(input, use_gpu && count > 0);
  double const t_read    = since(t_all);

  if (use_gpu && count == 0) {
    if (a.has("gpu")) throw no_gpu_error("no usable CUDA GPU (" + why + "); --gpu was given");
    std::fprintf(stderr, "fastpair: note: no usable CUDA GPU (%s); decoding on the CPU instead (--cpu)\n", why.c_str());
    use_gpu = false;
  }

  host_strings rows;
  std::string how;
  double t_validate = 0;
  std::uint64_t r0 = 0, r1 = 0;
  if (use_gpu) {
    fpc_header h;
    try {
      h = parse_fpc_header(image.data(), image.size);
    } catch (format_error const& e) {
      throw format_error(display_name(input) + ": " + e.what());
    }
    std::tie(r0, r1) = parse_rows(a, h.n_rows);
    gpu_decode_result res;
    try {
      res = decode_fpc_on_gpu(image.data(), image.size, h, r0, r1, w);
    } catch (format_error const& e) {
      throw format_error(display_name(input) + ": " + e.what());
    }
    rows               = std::move(res.rows);
    double const bytes = static_cast<double>(rows.chars.size());
    std::string const from = " (.fpc version " + std::to_string(h.version) + " from " +
                             (image.is_pinned ? "pinned" : "pageable") + " host memory, checked on the GPU)";
    if (res.pipelined_s > 0)
      how = "GPU " + device_description(device) + ", config " + res.config + ": upload + checks + decode " +
            fmt("%.3f s", res.pipelined_s) + " pipelined" + from + " (" +
            fmt("%.1f GB/s", bytes / res.pipelined_s / 1e9) + " of decoded bytes), download " +
            fmt("%.3f s", res.download_s);
    else
      how = "GPU " + device_description(device) + ", config " + res.config + ": prepare " +
            fmt("%.3f s", res.prepare_s) + from + ", decode " + fmt("%.3f ms", res.kernel_s * 1e3) + " (" +
            fmt("%.1f GB/s", res.kernel_s > 0 ? bytes / res.kernel_s / 1e9 : 0.0) + "), download " +
            fmt("%.3f s", res.download_s);
  } else {
    auto const tv = clock_type::now();
    compressed_column col;
    try {
      progress bar("validating " + display_name(input), 0);
      col = deserialize(image.data(), image.size);
    } catch (format_error const& e) {
      throw format_error(display_name(input) + ": " + e.what());
    }
    t_validate = since(tv);
    std::tie(r0, r1) = parse_rows(a, col.num_rows());
    auto const t0 = clock_type::now();
    {
      progress bar("decoding on the CPU", 0);
      rows = decode_reference(col, r0, r1, false);  // deserialize validated the column
    }
    double const t = since(t0);
    how = "CPU reference decoder: " + fmt("%.3f s", t) + " (" +
          fmt("%.1f MB/s", t > 0 ? static_cast<double>(rows.chars.size()) / t / 1e6 : 0.0) + ")";
  }

  if (a.has("output")) write_lines(*a.get("output"), rows);
  if (arrow_out) write_arrow(*a.get("offsets-out"), *a.get("chars-out"), rows, out_bits);
  std::string checked;
  if (a.has("check") || check_arrow) {
    std::string desc;
    std::string const check_text = a.get_or("check", "");
    host_strings const expect    = load_rows(a, check_text, "check-offsets", "check-chars", &desc);
    progress bar("checking", 0);
    check_rows(rows, expect, r0);
    checked = "; verified against " + desc;
  }
  // The summary goes to stderr when the rows go to stdout.
  std::FILE* const info = a.get_or("output", "") == "-" ? stderr : stdout;
  std::fprintf(info, "decompressed %s: rows %" PRIu64 "..%" PRIu64 " (%zu rows, %zu B) on the %s\n",
               display_name(input).c_str(), r0, r1,
               rows.num_rows(), rows.chars.size(), use_gpu ? "GPU" : "CPU");
  if (use_gpu)
    std::fprintf(info, "  %s\n  total %.3f s (read %.3f s)%s\n", how.c_str(), since(t_all), t_read, checked.c_str());
  else
    std::fprintf(info, "  %s\n  total %.3f s (read and validate %.3f s)%s\n", how.c_str(), since(t_all),
                 t_read + t_validate, checked.c_str());
  if (!checked.empty()) std::fprintf(info, "check OK\n");
  return exit_ok;
}

// -------------------------------------------------------------------------------------------------
// inspect
// -------------------------------------------------------------------------------------------------

char const* const inspect_usage = "usage: fastpair inspect [options] INPUT.fpc";
char const* const inspect_about =
  "Validates a .fpc file and prints its header, dictionary statistics, the token-length histogram\n"
  "of the coded stream, the low-plane width W by the paper's rule and by the GPU decoder's automatic\n"
  "rule for sm_90 and newer (assumed: inspect queries no GPU; older GPUs use the paper's rule), stored\n"
  "sizes and the sidecar overhead, the file size as .fpc version 1 and 2, and the device memory of the\n"
  "prepared column by prepare option (the lean default and each accelerator: estimates, no GPU needed).\n"
  "INPUT.fpc may be '-' (stdin).\n";

std::string json_escape(std::string_view s)
{
  std::string o;
  for (char ch : s) {
    unsigned char const c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') o += std::string("\\") + ch;
    else if (c < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", c);
      o += b;
    } else o += ch;
  }
  return o;
}

int cmd_inspect(std::vector<std::string> const& argv)
{
  std::vector<option_spec> specs = {
    {"json", 0, "", "print one JSON object instead of text"},
    {"top", 0, "N", "also list the N most used dictionary entries (default 0)"},
  };
  add_progress_options(specs);
  parsed_args a("inspect", specs, argv);
  if (print_help_if_asked(a, inspect_usage, inspect_about)) return exit_ok;
  apply_progress_options(a);
  if (a.positionals.size() != 1)
    throw usage_error("inspect takes exactly one INPUT.fpc, got " + std::to_string(a.positionals.size()));
  std::size_t const top = a.has("top") ? static_cast<std::size_t>(parse_int(*a.get("top"), "--top", 0, 1 << 20)) : 0;
  std::string const path = a.positionals[0];
  fpc_file const file            = load_fpc(path);
  compressed_column const& col    = file.col;
  std::uint64_t const file_bytes  = file.file_bytes;
  std::string const name          = display_name(path);

  // Header fields as stored (deserialize checked every one of them).
  fpc_header const fh = parse_fpc_header(file.header.data(), std::min<std::uint64_t>(file_bytes, file.header.size()));
  std::uint32_t const version   = fh.version;
  int const flags = file.header[13], w_codes = fh.w_codes, w_bytes = fh.w_bytes, count_bits = fh.count_bits;

  // Dictionary statistics.
  std::size_t const n_tok = col.dict.size();
  std::array<std::uint64_t, 17> dict_len{};
  std::uint64_t dict_bytes = col.dict.bytes.size();
  for (std::size_t i = 0; i < n_tok; ++i) ++dict_len[std::min<std::uint32_t>(col.dict.length(i), 16)];
  std::size_t longest = 0;
  for (int l = 16; l >= 1; --l)
    if (dict_len[l]) {
      longest = static_cast<std::size_t>(l);
      break;
    }
  // Coded-stream statistics.
  std::vector<std::uint64_t> uses(n_tok, 0);
  for (std::uint64_t j = 0; j < col.num_codes; ++j) ++uses[code_at(col.kind, col.codes.data(), j)];
  std::size_t unused = 0;
  for (auto u : uses) unused += u == 0;
  length_histogram const h = token_length_histogram(col);
  double const longer8     = share_longer_than(h, 8);
  // W by the paper's rule, and by the automatic rule of device_column::prepare on sm_90+ (the
  // arch bucket of the H100/H200, where this project's tuning was measured; inspect queries no GPU).
  int const w_paper        = paper_low_plane_bytes(col.kind, h);
  int const w_gpu          = fastpair::detail::tuned_low_plane_bytes(col.kind, h, arch_bucket::sm90);
  bool const split_gpu     = fastpair::detail::tuned_split_stream(col.kind, h, arch_bucket::sm90);
  char const* const paper_why = max_token_length(col.kind) <= 8 ? "FSST-12 tokens are at most 8 B"
                                : w_paper == 16 ? "more than 60% of the coded tokens are longer than 8 B"
                                                : "at most 60% of the coded tokens are longer than 8 B";
  std::string gpu_why;
  if (col.kind == codec::fsst12) gpu_why = "FSST-12 tokens are at most 8 B";
  else if (col.kind == codec::onpair12) {
    gpu_why = "always 16 for OnPair-12";
    if (split_gpu)
      gpu_why += "; this column is decoded through its split stream with 8-byte planes, since fewer than 20% of "
                 "the coded tokens are longer than 8 B";
  } else if (w_gpu == 8) gpu_why = "OnPair-16, fewer than 14% of the coded tokens are longer than 8 B and the mean token is at least 3 B";
  else if (longer8 >= 0.14) gpu_why = "OnPair-16, 14% or more of the coded tokens are longer than 8 B";
  else gpu_why = "OnPair-16, the mean token is shorter than 3 B";
  stored_size const st     = column_stored_size(col);
  std::uint64_t const decoded = col.decoded_bytes();
  std::uint64_t empty_rows = 0;
  for (std::size_t r = 0; r < col.num_rows(); ++r) empty_rows += col.row_byte_offsets[r + 1] == col.row_byte_offsets[r];
  auto pct = [](std::uint64_t x, std::uint64_t of) { return of ? 100.0 * static_cast<double>(x) / static_cast<double>(of) : 0.0; };
  auto ratio = [](std::uint64_t x, std::uint64_t of) { return of ? static_cast<double>(x) / static_cast<double>(of) : 0.0; };
  // Device memory of the prepared column for each prepare option (device_column::device_bytes
  // estimates: no GPU needed). The split stream's share follows the sm_90 rule, as W above.
  // "old defaults": what prepare built before the accelerators became opt-in (length stream,
  // fused codes, split stream, 8-byte row offsets, row lengths wherever rows fit 2 bytes).
  auto estimate = [&](bool ls, bool fc, bool ro, bool rl, bool ss = false) {
    prepare_options o;
    o.length_stream = ls;
    o.fused_codes   = fc;
    o.row_offsets   = ro;
    o.split_stream  = ss;
    if (rl) o.row_lengths_max_share = 1e9;  // wherever rows fit 2 bytes (default: where cheap, row_lengths_max_share)
    return device_column::device_bytes(col, o, arch_bucket::sm90);  // inspect assumes sm_90, as for W
  };
  bool const fused_applies       = code_space(col.kind) <= 4096;
  std::uint64_t const dev_default = estimate(false, false, false, false), dev_ls = estimate(true, false, false, false),
                      dev_fc = estimate(false, true, false, false), dev_ro = estimate(false, false, true, false),
                      dev_rl = estimate(false, false, false, true), dev_ss = estimate(false, false, false, false, true),
                      dev_old = estimate(true, true, true, true, true);
  std::uint64_t const dev_borrow = [&] {  // the default, reading the codes in the device image
    prepare_options o;
    o.borrow_codes = true;
    return device_column::device_bytes(col, o, arch_bucket::sm90);
  }();
  std::uint64_t longest_row = 0;
  for (std::size_t r = 0; r < col.num_rows(); ++r)
    longest_row = std::max<std::uint64_t>(longest_row, col.row_byte_offsets[r + 1] - col.row_byte_offsets[r]);
  bool const rl_applies    = col.num_rows() > 0 && longest_row <= 0xFFFF;
  bool const rl_in_default = [&] {
    prepare_options o;
    o.row_lengths_max_share = 0;
    return device_column::device_bytes(col, o, arch_bucket::sm90) != dev_default;
  }();
  std::uint64_t const fpc_v1 = fpc_file_bytes(col, fpc_version_1), fpc_v2 = fpc_file_bytes(col, fpc_version_2);
  std::vector<std::size_t> order;
  if (top) {
    order.resize(n_tok);
    for (std::size_t i = 0; i < n_tok; ++i) order[i] = i;
    std::size_t const k = std::min(top, n_tok);
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                      [&](std::size_t x, std::size_t y) { return uses[x] != uses[y] ? uses[x] > uses[y] : x < y; });
    order.resize(k);
  }

  if (a.has("json")) {
    std::ostringstream o;
    o << "{\"file\":\"" << json_escape(name) << "\",\"file_bytes\":" << file_bytes << ",\"version\":" << version
      << ",\"codec\":\"" << codec_name(col.kind) << "\",\"flags\":" << flags << ",\"row_code_offset_width\":" << w_codes
      << ",\"row_byte_offset_width\":" << w_bytes << ",\"count_bits\":" << count_bits
      << ",\"count_section_bytes\":" << fh.layout.size[4] << ",\"count_directory\":" << (fh.count_directory ? "true" : "false")
      << ",\"count_base\":" << fh.count_base << ",\"rows\":" << col.num_rows() << ",\"empty_rows\":" << empty_rows
      << ",\"codes\":" << col.num_codes << ",\"decoded_bytes\":" << decoded << ",\"dictionary_entries\":" << n_tok
      << ",\"dictionary_capacity\":" << code_space(col.kind) << ",\"dictionary_bytes\":" << dict_bytes
      << ",\"unused_entries\":" << unused << ",\"longest_entry\":" << longest << ",\"dictionary_length_histogram\":[";
    for (int l = 1; l <= 16; ++l) o << (l > 1 ? "," : "") << dict_len[l];
    o << "],\"token_length_histogram\":[";
    for (int l = 1; l <= 16; ++l) o << (l > 1 ? "," : "") << h[l];
    o << "],\"mean_token_length\":" << mean_token_length(h) << ",\"share_longer_than_8\":" << longer8
      << ",\"paper_rule_w\":" << w_paper << ",\"gpu_auto_w\":" << w_gpu << ",\"gpu_auto_arch\":\"sm_90\""
      << ",\"gpu_tuned_split_stream\":" << (split_gpu ? "true" : "false") << ",\"sidecar_stride\":" << col.sidecar_stride
      << ",\"sidecar_entries\":" << (col.sidecar.empty() ? 0 : col.sidecar.size())
      << ",\"stored\":{\"dictionary\":" << st.dictionary << ",\"codes\":" << st.codes << ",\"sidecar\":" << st.sidecar
      << ",\"row_metadata\":" << st.row_metadata << "},\"sidecar_pct_of_stored\":" << pct(st.sidecar, st.paper())
      << ",\"sidecar_pct_of_stored_with_rows\":" << pct(st.sidecar, st.with_rows())
      << ",\"ratio_file\":" << ratio(decoded, file_bytes) << ",\"ratio_stored\":" << ratio(decoded, st.paper())
      << ",\"fpc_v1_bytes\":" << fpc_v1 << ",\"fpc_v2_bytes\":" << fpc_v2 << ",\"ratio_fpc_v1\":" << ratio(decoded, fpc_v1)
      << ",\"ratio_fpc_v2\":" << ratio(decoded, fpc_v2) << ",\"device_bytes_default\":" << dev_default
      << ",\"device_bytes_length_stream\":" << dev_ls << ",\"device_bytes_fused_codes\":" << dev_fc
      << ",\"device_bytes_split_stream\":" << dev_ss << ",\"device_bytes_row_offsets\":" << dev_ro
      << ",\"device_bytes_row_lengths\":" << dev_rl << ",\"device_bytes_old_defaults\":" << dev_old
      << ",\"device_bytes_borrow_codes\":" << dev_borrow
      << ",\"fused_codes_applies\":" << (fused_applies ? "true" : "false")
      << ",\"split_stream_applies\":" << (split_gpu ? "true" : "false")
      << ",\"row_lengths_applies\":" << (rl_applies ? "true" : "false")
      << ",\"row_lengths_in_default\":" << (rl_in_default ? "true" : "false");
    if (top) {
      o << ",\"top\":[";
      for (std::size_t i = 0; i < order.size(); ++i)
        o << (i ? "," : "") << "{\"code\":" << order[i] << ",\"uses\":" << uses[order[i]] << ",\"token\":\""
          << json_escape(col.dict.token(order[i])) << "\"}";
      o << "]";
    }
    o << "}\n";
    std::fputs(o.str().c_str(), stdout);
    return exit_ok;
  }

  std::printf("file               %s (%" PRIu64 " B)\n", name.c_str(), file_bytes);
  std::printf("header\n");
  std::printf("  format           .fpc version %u, codec %s (%d-bit codes), flags 0x%02x (sidecar %s%s)\n", version,
              codec_name(col.kind), code_bits(col.kind), flags, (flags & fpc_flag_sidecar) ? "present" : "absent",
              fh.count_directory ? ", count directory" : "");
  if (version == fpc_version_1)
    std::printf("  row offsets      codes u%d, bytes u%d\n", 8 * w_codes, 8 * w_bytes);
  else
    std::printf("  row code counts  %" PRIu64 " B (%.2f bits per row), %s %d bits above the smallest count %" PRIu64
                " (row lengths rebuilt from the codes)\n",
                fh.layout.size[4], col.num_rows() ? 8.0 * double(fh.layout.size[4]) / double(col.num_rows()) : 0.0,
                fh.count_directory ? "in blocks of 1 024 rows with their own base and width, the widest" : "each in",
                count_bits, fh.count_base);
  std::printf("  rows             %zu (%" PRIu64 " empty)\n", col.num_rows(), empty_rows);
  std::printf("  codes            %" PRIu64 "\n", col.num_codes);
  std::printf("  decoded bytes    %" PRIu64 " (%s), mean row %.1f B\n", decoded, human_bytes(static_cast<double>(decoded)).c_str(),
              col.num_rows() ? static_cast<double>(decoded) / static_cast<double>(col.num_rows()) : 0.0);
  std::printf("dictionary\n");
  std::printf("  entries          %zu of %u (%zu never used by this column)\n", n_tok, code_space(col.kind), unused);
  std::printf("  token bytes      %" PRIu64 ", mean entry %.2f B, longest %zu B\n", dict_bytes,
              n_tok ? static_cast<double>(dict_bytes) / static_cast<double>(n_tok) : 0.0, longest);
  std::printf("  entry lengths   ");
  for (int l = 1; l <= 16; ++l)
    if (dict_len[l]) std::printf(" %d:%" PRIu64, l, dict_len[l]);
  std::printf("\n");
  std::printf("token lengths over the coded stream (%" PRIu64 " codes)\n", col.num_codes);
  std::uint64_t hmax = 0;
  for (int l = 1; l <= 16; ++l) hmax = std::max(hmax, h[l]);
  for (int l = 1; l <= 16; ++l) {
    if (!h[l]) continue;
    int const bar = hmax ? static_cast<int>(40.0 * static_cast<double>(h[l]) / static_cast<double>(hmax) + 0.5) : 0;
    std::printf("  %2d B %12" PRIu64 " %6.2f%%  %s\n", l, h[l], pct(h[l], col.num_codes), std::string(static_cast<std::size_t>(bar), '#').c_str());
  }
  std::printf("  mean token       %.3f B; %.2f%% of codes are longer than 8 B\n", mean_token_length(h), 100.0 * longer8);
  std::printf("  chosen W, paper's rule     %2d (fastpair::paper_low_plane_bytes: %s)\n", w_paper, paper_why);
  std::printf("  chosen W, GPU auto, sm_90  %2d (detail::tuned_low_plane_bytes for sm_90 and newer, assumed, not "
              "queried: %s)\n", w_gpu, gpu_why.c_str());
  std::printf("stored size\n");
  std::printf("  dictionary       %12" PRIu64 " B (token bytes + one length byte per entry)\n", st.dictionary);
  std::printf("  codes            %12" PRIu64 " B\n", st.codes);
  std::printf("  sidecar          %12" PRIu64 " B (%zu entries, stride %u codes)\n", st.sidecar,
              col.sidecar.empty() ? std::size_t{0} : col.sidecar.size(), col.sidecar_stride);
  std::printf("  row offsets      %12" PRIu64 " B\n", st.row_metadata);
  std::printf("  sidecar overhead %.3f%% of dictionary + codes + sidecar, %.3f%% with row offsets, %.3f%% of the file\n",
              pct(st.sidecar, st.paper()), pct(st.sidecar, st.with_rows()), pct(st.sidecar, file_bytes));
  std::printf("  ratio            %.3f (decoded / file), %.3f (decoded / (dictionary + codes + sidecar))\n",
              ratio(decoded, file_bytes), ratio(decoded, st.paper()));
  std::printf("file size by .fpc version\n");
  std::printf("  version 1        %12" PRIu64 " B, ratio %.3f (row offsets: codes u%d, bytes u%d)\n",
              fpc_v1, ratio(decoded, fpc_v1), 8 * static_cast<int>(fastpair::detail::fpc_offset_width(col.num_codes)),
              8 * static_cast<int>(fastpair::detail::fpc_offset_width(decoded)));
  std::printf("  version 2        %12" PRIu64 " B, ratio %.3f (bit-packed row code counts)\n", fpc_v2, ratio(decoded, fpc_v2));
  std::printf("device memory of the prepared column (device_column::device_bytes estimates, by prepare_options)\n");
  auto dev_line = [&](char const* label, std::uint64_t b, bool applies, char const* why_not) {
    if (!applies) {
      std::printf("  %-16s n/a (%s)\n", label, why_not);
      return;
    }
    std::printf("  %-16s %12" PRIu64 " B, %.3f x the .fpc file", label, b, ratio(b, file_bytes));
    if (b > dev_default) std::printf(" (+%" PRIu64 " B)", b - dev_default);
    if (b < dev_default) std::printf(" (-%" PRIu64 " B)", dev_default - b);
    std::printf("\n");
  };
  dev_line("default (lean)", dev_default, true, "");
  dev_line("+ length_stream", dev_ls, true, "");
  dev_line("+ fused_codes", dev_fc, fused_applies, "dictionaries of at most 4096 entries only");
  dev_line("+ split_stream", dev_ss, split_gpu, "OnPair-12 with fewer than 20% of the coded tokens longer than 8 B, sm_90+");
  dev_line("+ row_offsets", dev_ro, true, "");
  if (rl_in_default)
    std::printf("  %-16s in the default (they cost at most %.0f%% of the stored bytes: prepare_options::row_lengths_max_share)\n",
                "+ row_lengths", 100.0 * prepare_options{}.row_lengths_max_share);
  else dev_line("+ row_lengths", dev_rl, rl_applies, "a row longer than 65535 B");
  dev_line("old defaults", dev_old, true, "");
  std::printf("  %-16s length_stream + fused_codes + split_stream + row_offsets + row_lengths where they apply\n"
              "  %-16s (what prepare built by default before the accelerators became opt-in)\n", "", "");
  dev_line("borrow_codes", dev_borrow, true, "");
  std::printf("  %-16s the default reading the codes in the image in device memory (prepare_fpc_device),\n"
              "  %-16s which the column then needs: this is what it adds to the image\n", "", "");
  if (top) {
    std::printf("most used entries\n");
    for (std::size_t c : order)
      std::printf("  %6zu %12" PRIu64 "  %s\n", c, uses[c], excerpt(col.dict.token(c)).c_str());
  }
  return exit_ok;
}

// -------------------------------------------------------------------------------------------------
// bench
// -------------------------------------------------------------------------------------------------

char const* const bench_usage = "usage: fastpair bench [options] INPUT.fpc";
char const* const bench_about =
  "Measures GPU decode throughput for a .fpc file: one verified decode, then N timed decodes\n"
  "(CUDA events, L2 flushed before each) and N timed device-to-device copies of the decoded size in\n"
  "the same run. Reports min and median time and GB/s (decoded bytes / time) and decode as a\n"
  "percentage of the copy rate. Needs a GPU (exit 5 without one).\n";

int cmd_bench(std::vector<std::string> const& argv)
{
  std::vector<option_spec> specs = {
    {"runs", 'n', "N", "timed runs of each (default 20)"},
    {"tile", 0, "", "repeat the column's rows until it decodes to >= 1 GB (the paper's method)"},
    {"tile-bytes", 0, "SIZE", "repeat the rows until the column decodes to >= SIZE bytes (e.g. 4G)"},
    {"no-flush", 0, "", "do not flush the L2 before each run"},
    {"no-verify", 0, "", "skip the check of the first decode against the CPU reference"},
    {"low-plane-bytes", 0, "8|16", "low dictionary plane width W (default: automatic)"},
    {"offset-bits", 0, "32|64", "output offsets width (default 64)"},
    {"device", 0, "N", "CUDA device to use (default 0)"},
    {"json", 0, "", "print one JSON object instead of text"},
  };
  add_progress_options(specs);
  parsed_args a("bench", specs, argv);
  if (print_help_if_asked(a, bench_usage, bench_about)) return exit_ok;
  apply_progress_options(a);
  if (a.positionals.size() != 1)
    throw usage_error("bench takes exactly one INPUT.fpc, got " + std::to_string(a.positionals.size()));
  bench_options o;
  if (auto r = a.get("runs")) o.runs = static_cast<int>(parse_int(*r, "--runs", 1, 100000));
  if (a.has("tile")) o.min_bytes = 1'000'000'000ull;
  if (auto t = a.get("tile-bytes")) o.min_bytes = parse_size(*t, "--tile-bytes");
  o.flush_l2 = !a.has("no-flush");
  o.verify   = !a.has("no-verify");
  if (auto s = a.get("low-plane-bytes")) {
    o.low_plane_bytes = static_cast<int>(parse_int(*s, "--low-plane-bytes", 8, 16));
    if (o.low_plane_bytes != 8 && o.low_plane_bytes != 16) throw usage_error("--low-plane-bytes must be 8 or 16");
  }
  if (auto b = a.get("offset-bits")) {
    o.offset_bits = static_cast<int>(parse_int(*b, "--offset-bits", 32, 64));
    if (o.offset_bits != 32 && o.offset_bits != 64) throw usage_error("--offset-bits must be 32 or 64");
  }
  int const device = a.has("device") ? static_cast<int>(parse_int(*a.get("device"), "--device", 0, 1023)) : 0;

  std::string why;
  int const count = cuda_device_count(&why);
  if (count == 0) throw no_gpu_error("fastpair bench needs a CUDA GPU, and none is usable (" + why + ")");
  select_device(device, count);
  std::string const path       = a.positionals[0];
  compressed_column const col  = load_fpc(path).col;
  bench_result const r         = run_benchmark(col, o);
  double const bytes           = static_cast<double>(r.decoded_bytes);
  double const dmin = min_of(r.decode_s), dmed = median_of(r.decode_s);
  double const cmin = min_of(r.copy_s), cmed = median_of(r.copy_s);
  auto gbps = [&](double t) { return t > 0 ? bytes / t / 1e9 : 0.0; };

  if (a.has("json")) {
    std::ostringstream j;
    j << "{\"file\":\"" << json_escape(path) << "\",\"device\":\"" << json_escape(r.device) << "\",\"codec\":\""
      << codec_name(col.kind) << "\",\"config\":\"" << r.config << "\",\"w\":" << r.low_plane_bytes
      << ",\"tile_copies\":" << r.reps << ",\"rows\":" << r.rows << ",\"codes\":" << r.codes
      << ",\"decoded_bytes\":" << r.decoded_bytes << ",\"runs\":" << o.runs << ",\"l2_flushed\":" << (o.flush_l2 ? "true" : "false")
      << ",\"verified\":" << (r.verified ? "true" : "false") << ",\"decode_s_min\":" << dmin << ",\"decode_s_median\":" << dmed
      << ",\"decode_GBps_min\":" << gbps(dmin) << ",\"decode_GBps_median\":" << gbps(dmed) << ",\"copy_s_min\":" << cmin
      << ",\"copy_s_median\":" << cmed << ",\"copy_GBps_min\":" << gbps(cmin) << ",\"copy_GBps_median\":" << gbps(cmed)
      << ",\"pct_of_copy\":" << (dmin > 0 ? 100.0 * cmin / dmin : 0.0) << "}\n";
    std::fputs(j.str().c_str(), stdout);
    return exit_ok;
  }
  std::printf("bench %s\n", path.c_str());
  std::printf("  device       %s\n", r.device.c_str());
  std::printf("  column       %s, %" PRIu64 " rows, %" PRIu64 " codes, %s decoded", codec_name(col.kind), r.rows, r.codes,
              human_bytes(bytes).c_str());
  if (r.reps > 1) std::printf(" (the file's rows repeated %" PRIu64 "x)", r.reps);
  std::printf("\n  config       automatic: %s (W = %d), int%d offsets\n", r.config.c_str(), r.low_plane_bytes, o.offset_bits);
  std::printf("  method       %d runs each, CUDA events, %s; %s\n", o.runs,
              o.flush_l2 ? "L2 flushed before every run" : "L2 not flushed",
              r.verified ? "first decode verified against the CPU reference" : "not verified");
  std::printf("  decode       min %.3f ms  median %.3f ms   %.1f GB/s (min)  %.1f GB/s (median)  %.2f Gcodes/s\n",
              dmin * 1e3, dmed * 1e3, gbps(dmin), gbps(dmed), dmin > 0 ? static_cast<double>(r.codes) / dmin / 1e9 : 0.0);
  std::printf("  d2d copy     min %.3f ms  median %.3f ms   %.1f GB/s (min)  %.1f GB/s (median)\n", cmin * 1e3, cmed * 1e3,
              gbps(cmin), gbps(cmed));
  std::printf("  decode/copy  %.1f %% (min times)\n", dmin > 0 ? 100.0 * cmin / dmin : 0.0);
  if (bytes < 1e8 && r.reps == 1)
    std::printf("  note         a small column fits in the L2 cache and launch overhead dominates: use --tile for "
                "HBM-bound numbers\n");
  return exit_ok;
}

// -------------------------------------------------------------------------------------------------
// devices
// -------------------------------------------------------------------------------------------------

int cmd_devices(std::vector<std::string> const& argv)
{
  parsed_args a("devices", {}, argv);
  if (print_help_if_asked(a, "usage: fastpair devices", "Lists the CUDA devices (exit 5 if there is none).\n"))
    return exit_ok;
  if (!a.positionals.empty()) throw usage_error("devices takes no arguments");
  std::string why;
  int const n = cuda_device_count(&why);
  if (n == 0) throw no_gpu_error("no usable CUDA GPU (" + why + ")");
  for (int d = 0; d < n; ++d) std::printf("%d: %s\n", d, device_description(d).c_str());
  return exit_ok;
}

char const* const top_usage =
  "usage: fastpair <subcommand> [options] [arguments]\n"
  "       fastpair <subcommand> --help\n"
  "\n"
  "GPU decoding of dictionary-compressed string columns (OnPair-16, OnPair-12, FSST-12).\n"
  "\n"
  "subcommands:\n"
  "  compress    text or Arrow offsets + chars -> .fpc (prints ratio and time)\n"
  "  decompress  .fpc -> text or Arrow files, on the GPU (default) or the CPU (--cpu); --check\n"
  "  inspect     header, dictionary statistics, token-length histogram, W (paper's and GPU rule), sidecar\n"
  "  bench       GPU decode GB/s (min and median) beside a device-to-device copy\n"
  "  devices     list the CUDA devices\n"
  "\n"
  "example:\n"
  "  fastpair compress column.txt -o column.fpc --codec auto\n"
  "  fastpair decompress column.fpc -o out.txt --check column.txt\n"
  "\n";

int run(int argc, char** argv)
{
  if (argc < 2) {
    std::fprintf(stderr, "%s%s", top_usage, exit_code_help());
    return exit_usage;
  }
  std::string const cmd = argv[1];
  std::vector<std::string> rest(argv + 2, argv + argc);
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    if (cmd == "help" && !rest.empty()) {
      std::vector<std::string> h{"--help"};
      std::string const sub = rest[0];
      if (sub == "compress") return cmd_compress(h);
      if (sub == "decompress") return cmd_decompress(h);
      if (sub == "inspect") return cmd_inspect(h);
      if (sub == "bench") return cmd_bench(h);
      if (sub == "devices") return cmd_devices(h);
      throw usage_error("unknown subcommand '" + sub + "' (see fastpair --help)");
    }
    std::printf("%s%s", top_usage, exit_code_help());
    return exit_ok;
  }
  if (cmd == "--version" || cmd == "version") {
    std::printf("fastpair %d.%d.%d\n", FASTPAIR_VERSION_MAJOR, FASTPAIR_VERSION_MINOR, FASTPAIR_VERSION_PATCH);
    return exit_ok;
  }
  if (cmd == "compress") return cmd_compress(rest);
  if (cmd == "decompress") return cmd_decompress(rest);
  if (cmd == "inspect") return cmd_inspect(rest);
  if (cmd == "bench") return cmd_bench(rest);
  if (cmd == "devices") return cmd_devices(rest);
  throw usage_error("unknown subcommand '" + cmd + "' (expected compress, decompress, inspect, bench or devices; see fastpair --help)");
}

}  // namespace
}  // namespace fastpair::cli

int main(int argc, char** argv)
{
  using namespace fastpair::cli;
  auto fail = [](int code, char const* kind, char const* what) {
    // Library messages start with "fastpair: " (and load_fpc puts the path before it): print the
    // prefix once.
    std::string msg = what;
    for (std::size_t p; (p = msg.find("fastpair: ")) != std::string::npos;) msg.erase(p, 10);
    std::fflush(stdout);
    std::fprintf(stderr, "fastpair: %s%s\n", kind, msg.c_str());
    return code;
  };
  try {
    return run(argc, argv);
  } catch (usage_error const& e) {
    return fail(exit_usage, "error: ", e.what());
  } catch (fastpair::format_error const& e) {
    return fail(exit_bad_input, "malformed input: ", e.what());
  } catch (input_error const& e) {
    return fail(exit_bad_input, "malformed input: ", e.what());
  } catch (check_failed const& e) {
    return fail(exit_mismatch, "check failed: ", e.what());
  } catch (fastpair::decode_error const& e) {
    return fail(exit_mismatch, "decode error: ", e.what());
  } catch (no_gpu_error const& e) {
    return fail(exit_no_gpu, "no GPU: ", e.what());
  } catch (fastpair::cuda_error const& e) {
    return fail(exit_failure, "CUDA error: ", e.what());
  } catch (fastpair::logic_error const& e) {
    return fail(exit_failure, "internal error: ", e.what());
  } catch (std::bad_alloc const&) {
    return fail(exit_failure, "out of host memory", "");
  } catch (std::exception const& e) {
    return fail(exit_failure, "error: ", e.what());
  } catch (...) {
    return fail(exit_failure, "error: ", "unknown exception");
  }
}
