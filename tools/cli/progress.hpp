// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Progress output on stderr for operations that take more than a moment (multi-GB inputs).
//
// A `progress` object shows "label  42% 1.23 / 2.90 GB  3.1 s" (or, without a known total, the
// bytes so far and the elapsed time), redrawn by a background thread four times a second, but only
// once the operation has run for 0.5 s: quick steps print nothing. On a terminal the line is
// redrawn in place; elsewhere (logs, pipes) progress is shown only with --progress, as one line
// per 10 % (or per 10 s without a total). --quiet turns it off.
#pragma once

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
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

class progress {
 public:
  /** @param total bytes (or items) to do; 0 = unknown. */
  progress(std::string label, std::uint64_t total)
    : label_(std::move(label)), total_(total), start_(clock::now())
  {
    progress_mode const m = global_progress_mode();
    tty_                  = isatty(STDERR_FILENO) != 0;
    if (m == progress_mode::off || (m == progress_mode::tty && !tty_)) return;
    worker_ = std::thread([this] { run(); });
  }
  progress(progress const&)            = delete;
  progress& operator=(progress const&) = delete;
  ~progress() { finish(); }

  void set(std::uint64_t done) noexcept { done_.store(done, std::memory_order_relaxed); }
  void add(std::uint64_t n) noexcept { done_.fetch_add(n, std::memory_order_relaxed); }

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

  void draw(bool force_line)
  {
    std::uint64_t const d = done_.load(std::memory_order_relaxed);
    char line[256];
    if (total_) {
      double const pct = 100.0 * static_cast<double>(d) / static_cast<double>(total_);
      int const step   = static_cast<int>(pct / 10);
      if (!tty_ && !force_line && step == last_step_) return;
      last_step_ = step;
      std::snprintf(line, sizeof line, "%s %3.0f%%  %s / %s  %.1f s", label_.c_str(), pct,
                    human_bytes(static_cast<double>(d)).c_str(), human_bytes(static_cast<double>(total_)).c_str(),
                    seconds());
    } else {
      if (!tty_ && !force_line && seconds() < next_line_s_) return;
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
      cv_.wait_for(lk, std::chrono::milliseconds(250));
      if (stop_) break;
      if (seconds() >= 0.5) draw(!drawn_);
    }
  }

  std::string label_;
  std::uint64_t total_;
  clock::time_point start_;
  std::atomic<std::uint64_t> done_{0};
  bool tty_ = false;
  bool drawn_ = false;
  int last_step_ = -1;
  double next_line_s_ = 0;
  std::thread worker_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
};

}  // namespace fastpair::cli
