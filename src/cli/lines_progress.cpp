// `shufl lines`' terminal side of the run: the progress line of the external shuffle, and
// run(), which hands the parsed options to the library (shufl/lines/run.hpp).
#include "lines_progress.hpp"

#include "render/progress_line.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>

namespace shufl::cli::lines {

progress_display::progress_display() : enabled_(::isatty(STDERR_FILENO) == 1) {
  if (enabled_) eraser_.emplace(STDERR_FILENO);
}

progress_display::~progress_display() { clear(); }

void progress_display::operator()(const shufl::lines::external_progress& p) {
  const auto now = std::chrono::steady_clock::now();
  if (shown_ && now - last_ < std::chrono::milliseconds(250)) return;
  last_ = now;
  std::fprintf(stderr, "\r%s\033[K", render::lines_progress_line(p.phase, p.done, p.total).c_str());
  std::fflush(stderr);
  shown_ = true;
  erase_on_signal::shown(true);
}

void progress_display::clear() {
  if (shown_) std::fputs("\r\033[K", stderr);
  shown_ = false;
  erase_on_signal::shown(false);
}

int run(const options& opts) {
  shufl::lines::run(opts, []() -> std::unique_ptr<shufl::lines::progress_view> {
    auto display = std::make_unique<progress_display>();
    if (!display->enabled()) return nullptr;
    return display;
  });
  return 0;
}

}  // namespace shufl::cli::lines
