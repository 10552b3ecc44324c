// `shufl lines`' terminal side of the run (lines_progress.cpp): the progress display of a full
// shuffle larger than memory, and run(), which hands the parsed options to the library.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "lines_cmd.hpp"
#include "progress.hpp"
#include "shufl/lines/run.hpp"

namespace shufl::cli::lines {

/// A one-line progress display on stderr, only when stderr is a terminal; throttled to 4 Hz:
/// "\rshufl: reading 1.25 GiB\033[K", then "scattering" and "writing" with a percentage.
/// Erased ("\r\033[K") by clear() or the destructor, and when SIGINT, SIGTERM, SIGHUP or SIGPIPE
/// ends the run (erase_on_signal, as the bias bar; the exit status stays 128 + the signal).
class progress_display final : public shufl::lines::progress_view {
 public:
  progress_display();
  ~progress_display();
  progress_display(const progress_display&) = delete;
  progress_display& operator=(const progress_display&) = delete;
  bool enabled() const noexcept { return enabled_; }
  void operator()(const shufl::lines::external_progress& p) override;
  void clear() override;

 private:
  bool enabled_;
  std::optional<erase_on_signal> eraser_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace shufl::cli::lines
