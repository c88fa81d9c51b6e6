// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Command-line plumbing of the `fastpair` tool: exit codes, the tool's own error types, and a
// small option parser (long options with `--name VALUE` or `--name=VALUE`, a few short aliases,
// positionals, `--` ends options). Host-only.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace fastpair::cli {

/** Exit codes of every subcommand (also printed by `fastpair --help` and in docs/CLI.md). */
enum exit_code : int {
  exit_ok        = 0,  ///< success
  exit_failure   = 1,  ///< I/O error, CUDA error, out of memory, anything unexpected
  exit_usage     = 2,  ///< wrong usage: unknown subcommand or option, missing or bad argument
  exit_bad_input = 3,  ///< malformed input: a corrupt .fpc, inconsistent Arrow files, bad text
  exit_mismatch  = 4,  ///< --check found a difference, or the GPU reported corrupt device data
  exit_no_gpu    = 5,  ///< the subcommand needs a CUDA GPU and none is usable
};

inline char const* exit_code_help()
{
  return "exit codes:\n"
         "  0  success\n"
         "  1  I/O error, CUDA error, out of memory, or another runtime failure\n"
         "  2  wrong usage (unknown subcommand or option, missing or invalid argument)\n"
         "  3  malformed input (corrupt .fpc file, inconsistent Arrow offsets/chars, ...)\n"
         "  4  verification failed (--check mismatch, or the GPU reported corrupt data)\n"
         "  5  no usable CUDA GPU for a subcommand that needs one\n";
}

/** Wrong usage of the tool (exit 2). */
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};
/** Malformed user input that is not a .fpc file (exit 3). */
struct input_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};
/** --check found a difference (exit 4). */
struct check_failed : std::runtime_error {
  using std::runtime_error::runtime_error;
};
/** A GPU is needed and none is usable (exit 5). */
struct no_gpu_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/** One option of a subcommand. */
struct option_spec {
  std::string name;        ///< long name without the dashes, e.g. "codec"
  char short_name = 0;     ///< e.g. 'o' for -o; 0 = none
  std::string value_name;  ///< empty = a flag without value
  std::string help;
};

/** Parsed arguments of one subcommand. */
class parsed_args {
 public:
  parsed_args(std::string command, std::vector<option_spec> specs, std::vector<std::string> const& argv)
    : command_(std::move(command)), specs_(std::move(specs))
  {
    bool options_done = false;
    for (std::size_t i = 0; i < argv.size(); ++i) {
      std::string const& a = argv[i];
      if (options_done || a == "-" || a.size() < 2 || a[0] != '-') {
        positionals.push_back(a);
        continue;
      }
      if (a == "--") {
        options_done = true;
        continue;
      }
      if (a == "-h" || a == "--help") {
        help = true;
        continue;
      }
      std::string name, value;
      bool has_inline_value = false;
      option_spec const* spec = nullptr;
      if (a[1] == '-') {
        std::size_t const eq = a.find('=');
        name                 = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
        if (eq != std::string::npos) {
          value            = a.substr(eq + 1);
          has_inline_value = true;
        }
        for (auto const& s : specs_)
          if (s.name == name) spec = &s;
      } else {
        if (a.size() != 2) throw usage_error("unknown option '" + a + "' for '" + command_ + "'");
        for (auto const& s : specs_)
          if (s.short_name == a[1]) spec = &s;
        if (spec) name = spec->name;
      }
      if (!spec) throw usage_error("unknown option '" + a + "' for '" + command_ + "' (see fastpair " + command_ + " --help)");
      if (spec->value_name.empty()) {
        if (has_inline_value) throw usage_error("option --" + name + " takes no value");
        values_.emplace_back(name, "");
        continue;
      }
      if (!has_inline_value) {
        if (i + 1 >= argv.size()) throw usage_error("option --" + name + " needs a value (" + spec->value_name + ")");
        value = argv[++i];
      }
      values_.emplace_back(name, value);
    }
  }

  /** True if the option was given (flag or valued). */
  bool has(std::string_view name) const
  {
    for (auto const& [n, v] : values_)
      if (n == name) return true;
    return false;
  }
  /** The last value given for `name`, if any. */
  std::optional<std::string> get(std::string_view name) const
  {
    std::optional<std::string> r;
    for (auto const& [n, v] : values_)
      if (n == name) r = v;
    return r;
  }
  std::string get_or(std::string_view name, std::string def) const { return get(name).value_or(std::move(def)); }

  std::vector<option_spec> const& specs() const noexcept { return specs_; }

  std::vector<std::string> positionals;
  bool help = false;

 private:
  std::string command_;
  std::vector<option_spec> specs_;
  std::vector<std::pair<std::string, std::string>> values_;
};

/** Formats the option list of a subcommand for --help. */
inline std::string format_options(std::vector<option_spec> const& specs)
{
  std::string out = "options:\n";
  auto line       = [&](std::string lhs, std::string const& help) {
    lhs = "  " + lhs;
    if (lhs.size() < 26) lhs.resize(26, ' ');
    else lhs += "\n" + std::string(26, ' ');
    out += lhs + help + "\n";
  };
  for (auto const& s : specs) {
    std::string lhs = s.short_name ? std::string("-") + s.short_name + ", " : std::string();
    lhs += "--" + s.name;
    if (!s.value_name.empty()) lhs += " " + s.value_name;
    line(lhs, s.help);
  }
  line("-h, --help", "show this help");
  return out;
}

/** Parses an unsigned integer with an optional binary suffix K, M, G or T (e.g. 64M, 1G).
 *  @throw usage_error naming `what` on anything else. */
inline std::uint64_t parse_size(std::string const& s, std::string const& what)
{
  if (s.empty() || s[0] < '0' || s[0] > '9') throw usage_error(what + ": expected a number, got '" + s + "'");
  std::size_t pos = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(s, &pos, 10);
  } catch (std::exception const&) {
    throw usage_error(what + ": number out of range: '" + s + "'");
  }
  std::string const suffix = s.substr(pos);
  unsigned shift           = 0;
  if (suffix.empty()) shift = 0;
  else if (suffix == "K" || suffix == "k") shift = 10;
  else if (suffix == "M" || suffix == "m") shift = 20;
  else if (suffix == "G" || suffix == "g") shift = 30;
  else if (suffix == "T" || suffix == "t") shift = 40;
  else throw usage_error(what + ": unknown suffix '" + suffix + "' in '" + s + "' (use K, M, G or T)");
  if (shift && v > (~0ull >> shift)) throw usage_error(what + ": number out of range: '" + s + "'");
  return static_cast<std::uint64_t>(v) << shift;
}

/** Parses a plain integer within [lo, hi]. @throw usage_error naming `what`. */
inline std::int64_t parse_int(std::string const& s, std::string const& what, std::int64_t lo, std::int64_t hi)
{
  std::size_t pos = 0;
  long long v     = 0;
  try {
    v = std::stoll(s, &pos, 10);
  } catch (std::exception const&) {
    throw usage_error(what + ": expected an integer, got '" + s + "'");
  }
  if (pos != s.size()) throw usage_error(what + ": expected an integer, got '" + s + "'");
  if (v < lo || v > hi)
    throw usage_error(what + ": " + s + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v;
}

/** Parses a real number within [lo, hi], or (lo, hi] with `lo_open`. @throw usage_error naming
 *  `what` and the range. */
inline double parse_real(std::string const& s, std::string const& what, double lo, double hi, bool lo_open = false)
{
  std::size_t pos = 0;
  double v        = 0;
  try {
    v = std::stod(s, &pos);
  } catch (std::exception const&) {
    throw usage_error(what + ": expected a number, got '" + s + "'");
  }
  if (pos != s.size()) throw usage_error(what + ": expected a number, got '" + s + "'");
  if (!((lo_open ? v > lo : v >= lo) && v <= hi)) {
    char range[64];
    std::snprintf(range, sizeof range, "%c%g, %g]", lo_open ? '(' : '[', lo, hi);
    throw usage_error(what + ": " + s + " is out of range " + range);
  }
  return v;
}

}  // namespace fastpair::cli
