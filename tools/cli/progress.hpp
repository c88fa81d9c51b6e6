// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Progress output on stderr for operations that take more than a moment (multi-GB inputs).
//
// A `progress` object shows "label  42%  1.23 GB / 2.90 GB  3.1 s" (or, without a known total,
// the bytes so far and the elapsed time), but only once the operation has run for 0.5 s (the
// environment variable FASTPAIR_PROGRESS_DELAY=SECONDS changes that; the CLI test sets 0): quick
// steps print nothing. On a terminal a background thread redraws the line in place four times a
// second. Elsewhere (logs, pipes) progress is shown only with --progress: with a known total, one
// line when the delay has passed and then one line each time the work done reaches another 10 %
// step (10 %, 20 %, ..., 100 %), printed by the add()/set() call that reaches it; without a known
// total, one line every 10 s. Callers report their work in pieces of at most a tenth of the total
// (piece_bytes()) so that no step is skipped. --quiet turns progress off.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

namespace fastpair::cli {

/** How progress is shown: never, on a terminal only (default), or always (also in logs). */
enum class progress_mode { off, tty, always };

inline progress_mode& global_progress_mode()
{
  static progress_mode m = progress_mode::tty;
  return m;
}

/** Seconds an operation runs before its progress shows: 0.5, or FASTPAIR_PROGRESS_DELAY. */
inline double progress_delay_s()
{
  static double const d = [] {
    char const* e = std::getenv("FASTPAIR_PROGRESS_DELAY");
    if (!e || !*e) return 0.5;
    char* end      = nullptr;
    double const v = std::strtod(e, &end);
    return end && *end == 0 && v >= 0 && v < 1e9 ? v : 0.5;
  }();
  return d;
}

/** "1.23 GB" style size (decimal units). */
inline std::string human_bytes(double b)
{
  char buf[32];
  if (b >= 1e9) std::snprintf(buf, sizeof buf, "%.2f GB", b / 1e9);
  else if (b >= 1e6) std::snprintf(buf, sizeof buf, "%.2f MB", b / 1e6);
  else if (b >= 1e3) std::snprintf(buf, sizeof buf, "%.1f kB", b / 1e3);
  else std::snprintf(buf, sizeof buf, "%.0f B", b);
  return buf;
}

/** Size of the pieces in which to report `total` bytes of work: at most a tenth of it (so that
 *  each 10 % step of the progress shows), at most `max_piece`, at least 64 KiB. */
inline std::size_t piece_bytes(std::uint64_t total, std::size_t max_piece)
{
  std::uint64_t const tenth = total / 10 + (total % 10 != 0);
  return static_cast<std::size_t>(std::max<std::uint64_t>(std::min<std::uint64_t>(tenth, max_piece), 64u << 10));
}

class progress {
 public:
  /** @param total bytes (or items) to do; 0 = unknown. */
  progress(std::string label, std::uint64_t total)
    : label_(std::move(label)), total_(total), start_(clock::now()), delay_(progress_delay_s())
  {
    progress_mode const m = global_progress_mode();
    tty_                  = isatty(STDERR_FILENO) != 0;
    if (m == progress_mode::off || (m == progress_mode::tty && !tty_)) return;
    steps_  = !tty_ && total_ > 0;
    worker_ = std::thread([this] { run(); });
  }
  progress(progress const&)            = delete;
  progress& operator=(progress const&) = delete;
  ~progress() { finish(); }

  void set(std::uint64_t done)
  {
    done_.store(done, std::memory_order_relaxed);
    if (steps_) line_at_step();
  }
  void add(std::uint64_t n)
  {
    done_.fetch_add(n, std::memory_order_relaxed);
    if (steps_) line_at_step();
  }

  /** Stops the display; if anything was drawn, ends it with the elapsed time. */
  void finish()
  {
    if (!worker_.joinable()) return;
    {
      std::lock_guard<std::mutex> lk(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    worker_.join();
    if (drawn_) {
      if (tty_) std::fprintf(stderr, "\r\033[K");
      std::fprintf(stderr, "%s: done in %.1f s\n", label_.c_str(), seconds());
      std::fflush(stderr);
    }
  }

 private:
  using clock = std::chrono::steady_clock;
  double seconds() const { return std::chrono::duration<double>(clock::now() - start_).count(); }

  /** The 10 % steps reached by `d` of total_ (0 ... 10). */
  int step_of(std::uint64_t d) const
  {
    return d >= total_ ? 10 : static_cast<int>(10.0L * static_cast<long double>(d) / static_cast<long double>(total_));
  }

  /** Line mode with a total: one line when the work reaches a 10 % step not shown yet. */
  void line_at_step()
  {
    if (step_of(done_.load(std::memory_order_relaxed)) <= shown_step_.load(std::memory_order_relaxed)) return;
    if (seconds() < delay_) return;
    std::lock_guard<std::mutex> lk(mu_);
    if (stop_) return;
    std::uint64_t const d = done_.load(std::memory_order_relaxed);
    if (step_of(d) > shown_step_.load(std::memory_order_relaxed)) draw(d);
  }

  /** Draws the line for `d` done. Call with mu_ held. */
  void draw(std::uint64_t d)
  {
    char line[256];
    if (total_) {
      double const pct = 100.0 * static_cast<double>(d) / static_cast<double>(total_);
      shown_step_.store(step_of(d), std::memory_order_relaxed);
      std::snprintf(line, sizeof line, "%s %3.0f%%  %s / %s  %.1f s", label_.c_str(), pct,
                    human_bytes(static_cast<double>(d)).c_str(), human_bytes(static_cast<double>(total_)).c_str(),
                    seconds());
    } else {
      next_line_s_ = seconds() + 10;
      if (d) std::snprintf(line, sizeof line, "%s  %s  %.1f s", label_.c_str(), human_bytes(static_cast<double>(d)).c_str(), seconds());
      else std::snprintf(line, sizeof line, "%s  %.1f s", label_.c_str(), seconds());
    }
    if (tty_) std::fprintf(stderr, "\r\033[K%s", line);
    else std::fprintf(stderr, "%s\n", line);
    std::fflush(stderr);
    drawn_ = true;
  }

  void run()
  {
    std::unique_lock<std::mutex> lk(mu_);
    while (!stop_) {
      // Wake when the delay has passed, then every 250 ms.
      auto wait = std::chrono::milliseconds(250);
      if (!drawn_) {
        double const left = delay_ - seconds();
        if (left < 0.25) wait = std::chrono::milliseconds(left > 0 ? static_cast<long>(left * 1000.0) + 1 : 0);
      }
      cv_.wait_for(lk, wait);
      if (stop_) break;
      if (seconds() < delay_) continue;
      std::uint64_t const d = done_.load(std::memory_order_relaxed);
      if (tty_) draw(d);                                       // redraw in place
      else if (!drawn_) draw(d);                               // the first line once the delay has passed
      else if (!total_ && seconds() >= next_line_s_) draw(d);  // without a total: every 10 s
      // with a total, line_at_step() prints each further 10 % step
    }
  }

  std::string label_;
  std::uint64_t total_;
  clock::time_point start_;
  double delay_;
  std::atomic<std::uint64_t> done_{0};
  bool tty_   = false;
  bool steps_ = false;  ///< line mode with a known total: add()/set() print the 10 % steps
  bool drawn_ = false;  ///< guarded by mu_ (read by finish() after the worker is joined)
  std::atomic<int> shown_step_{-1};
  double next_line_s_ = 0;
  std::thread worker_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
};

}  // namespace fastpair::cli
