#include "progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>

#include "render/progress_line.hpp"

namespace shufl::cli {

namespace {

using clock = std::chrono::steady_clock;

std::size_t terminal_columns(int fd) {
  winsize ws{};
  if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return ws.ws_col;
  return 80;
}

void write_all(int fd, const std::string& s) {
  const char* p = s.data();
  std::size_t left = s.size();
  while (left > 0) {
    const ssize_t w = ::write(fd, p, left);
    if (w <= 0) return;  // a closed or full stderr only loses the bar
    p += w;
    left -= static_cast<std::size_t>(w);
  }
}

// erase_on_signal's process-wide state, read by the handler.
volatile std::sig_atomic_t g_shown = 0;
volatile std::sig_atomic_t g_fd = 2;
struct sigaction g_previous[4];
constexpr int kSignals[4] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

extern "C" void erase_then_reraise(int sig) {
  const int saved = errno;
  if (g_shown != 0) {
    const ssize_t ignored = ::write(g_fd, "\r\033[K", 4);
    static_cast<void>(ignored);
    g_shown = 0;
  }
  for (int i = 0; i < 4; ++i) {
    if (kSignals[i] == sig) ::sigaction(sig, &g_previous[i], nullptr);
  }
  // Blocked while this handler runs: delivered, to the previous action, once it returns.
  ::raise(sig);
  errno = saved;
}

}  // namespace

erase_on_signal::erase_on_signal(int fd) {
  g_fd = fd;
  g_shown = 0;
  struct sigaction sa {};
  sa.sa_handler = erase_then_reraise;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  for (int i = 0; i < 4; ++i) {
    ::sigaction(signals_[i], nullptr, &previous_[i]);
    g_previous[i] = previous_[i];
    if (previous_[i].sa_handler == SIG_IGN) continue;
    installed_[i] = ::sigaction(signals_[i], &sa, nullptr) == 0;
  }
}

erase_on_signal::~erase_on_signal() {
  for (int i = 0; i < 4; ++i) {
    if (installed_[i]) ::sigaction(signals_[i], &previous_[i], nullptr);
  }
  g_shown = 0;
}

void erase_on_signal::shown(bool on) noexcept { g_shown = on ? 1 : 0; }

progress_bar::progress_bar(std::vector<std::string> labels, bool forced, int fd)
    : labels_(std::move(labels)), forced_(forced), fd_(fd), start_(clock::now()), eraser_(fd) {
  thread_ = std::thread([this] { draw_loop(); });
}

progress_bar::~progress_bar() { stop(); }

bias_progress progress_bar::callback() {
  return [this](std::uint64_t done, std::uint64_t total, const std::string& label) { update(done, total, label); };
}

void progress_bar::update(std::uint64_t done, std::uint64_t total, const std::string& label) {
  const std::lock_guard lock(mutex_);
  const bool same = index_ < labels_.size() && labels_[index_] == label;
  // The next algorithm: a new label, or the same label starting over (an algorithm listed twice).
  if (!same || done < done_) {
    for (std::size_t k = index_ + (same ? 1 : 0); k < labels_.size(); ++k) {
      if (labels_[k] == label) {
        index_ = k;
        done_ = 0;
        break;
      }
    }
  }
  done_ = std::max(done_, done);
  total_ = total;
}

void progress_bar::draw_loop() noexcept {
  // The bar is a courtesy: when it cannot be drawn (no memory for its line), it stops, and the
  // run goes on. Nothing may escape the thread (std::terminate).
  try {
    draw_bar();
  } catch (...) {
  }
}

void progress_bar::draw_bar() {
  std::unique_lock lock(mutex_);
  if (!forced_ && wake_.wait_for(lock, std::chrono::milliseconds(500), [this] { return stopping_; })) return;
  while (!stopping_) {
    const auto now = clock::now();
    std::string text = "\r";
    const std::string& label = index_ < labels_.size() ? labels_[index_] : std::string();
    text += render::bias_progress_line(label, index_, labels_.size(), done_, total_,
                                       std::chrono::duration<double>(now - start_).count(), terminal_columns(fd_));
    text += "\033[K";
    drawn_ = true;
    lock.unlock();  // a stalled terminal must not stall the workers' callback
    write_all(fd_, text);
    erase_on_signal::shown(true);
    lock.lock();
    wake_.wait_for(lock, std::chrono::milliseconds(200), [this] { return stopping_; });
  }
}

void progress_bar::stop() {
  {
    const std::lock_guard lock(mutex_);
    if (stopping_ && !thread_.joinable()) return;
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (drawn_) {
    write_all(fd_, "\r\033[K");
    erase_on_signal::shown(false);
    drawn_ = false;
  }
}

}  // namespace shufl::cli
