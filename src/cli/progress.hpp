// The progress bar of `shufl bias` on stderr (U02): drawn by one thread of its own, erased before
// anything else is written.
#pragma once

#include <signal.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "shufl/bias.hpp"

namespace shufl::cli {

/// Erases a progress line of the terminal when a signal ends the run. While an object exists,
/// SIGINT, SIGTERM, SIGHUP and SIGPIPE (unless ignored on entry, as nohup's SIGHUP) go first to a
/// handler that writes "\r\033[K" to the display's descriptor when `shown(true)` says a line is
/// on it (write(2) only), then puts back the action that was there before and raises the signal
/// again: with the default action the process ends by that signal as it would have (the shell
/// sees 128 + its number); a handler of the program's own (bias --save-counts) still runs. The
/// destructor restores the previous actions. One display at a time (process-wide state).
class erase_on_signal {
 public:
  explicit erase_on_signal(int fd);
  ~erase_on_signal();
  erase_on_signal(const erase_on_signal&) = delete;
  erase_on_signal& operator=(const erase_on_signal&) = delete;
  /// Whether a line is drawn now (set after drawing, cleared after erasing). Any thread.
  static void shown(bool on) noexcept;

 private:
  static constexpr int signals_[4] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
  struct sigaction previous_[4] = {};
  bool installed_[4] = {};
};

/// A pv-like bar on file descriptor `fd` (stderr), its line render::bias_progress_line's
/// (render/progress_line.hpp). The library reports progress through `callback()` (any thread;
/// it only stores numbers); a drawing thread of this object redraws the line every 200 ms, with
/// "\r", the line, and "\033[K", never wider than the terminal (TIOCGWINSZ; 80 columns when
/// unknown), so a line never wraps. `stop()` (also the destructor, so an exception unwinding past
/// it erases the bar before main prints the error) ends the thread and erases the line with
/// "\r\033[K" when anything was drawn: the caller writes its report only after that. A signal
/// that ends the run erases it too (erase_on_signal).
/// Unless `forced`, the first frame waits 0.5 s, so short runs draw nothing.
class progress_bar {
 public:
  /// `labels`: the algorithms' labels in run order (k of m is found by label).
  progress_bar(std::vector<std::string> labels, bool forced, int fd = 2);
  ~progress_bar();
  progress_bar(const progress_bar&) = delete;
  progress_bar& operator=(const progress_bar&) = delete;

  /// The callback for bias_options::progress; keeps a pointer to this object.
  bias_progress callback();

  /// Stops the drawing thread and erases the bar (idempotent).
  void stop();

 private:
  void update(std::uint64_t done, std::uint64_t total, const std::string& label);
  void draw_loop() noexcept;  // the thread: draw_bar, stopping quietly if it throws
  void draw_bar();

  std::vector<std::string> labels_;
  bool forced_;
  int fd_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool drawn_ = false;
  std::size_t index_ = 0;
  std::uint64_t done_ = 0;
  std::uint64_t total_ = 0;
  std::chrono::steady_clock::time_point start_;
  erase_on_signal eraser_;
  std::thread thread_;
};

}  // namespace shufl::cli
