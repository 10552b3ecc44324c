// The followed input of `shufl audit --follow` (follow_source.hpp).
#include "follow_source.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "shufl/error.hpp"

namespace shufl::audit::detail {

namespace {

constexpr int kFallbackWaitMs = 200;  // the end of a file without inotify is looked at this often

std::string file_id(const struct stat& st) {
  return fmt::format("{}:{}", static_cast<unsigned long long>(st.st_dev), static_cast<unsigned long long>(st.st_ino));
}

// The folder part of a path ("." for a bare name).
std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

follow_source::follow_source(int fd, std::string path, std::string name, hooks h)
    : fd_(fd), path_(std::move(path)), name_(std::move(name)), h_(std::move(h)) {
  struct stat st {};
  if (::fstat(fd_, &st) != 0) fail(errno);
  if (S_ISDIR(st.st_mode)) fail(EISDIR);
  regular_ = S_ISREG(st.st_mode);
  if (!regular_) return;
  id_ = file_id(st);
  // Reading starts where the descriptor is (a redirected file may have been read from already).
  const off_t at = ::lseek(fd_, 0, SEEK_CUR);
  offset_ = at > 0 ? static_cast<std::uint64_t>(at) : 0;
  inotify_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  watch();
}

follow_source::~follow_source() {
  if (inotify_ >= 0) ::close(inotify_);
  if (owned_fd_ >= 0) ::close(owned_fd_);
}

void follow_source::watch() {
  if (inotify_ < 0) return;
  if (file_watch_ >= 0) ::inotify_rm_watch(inotify_, file_watch_);
  // The descriptor's own file (through /proc when it has no path: a redirected standard input).
  const std::string target = path_.empty() ? fmt::format("/proc/self/fd/{}", fd_) : path_;
  file_watch_ = ::inotify_add_watch(inotify_, target.c_str(),
                                    IN_MODIFY | IN_ATTRIB | IN_MOVE_SELF | IN_DELETE_SELF | IN_CLOSE_WRITE);
  if (!path_.empty() && dir_watch_ < 0)
    dir_watch_ = ::inotify_add_watch(inotify_, folder_of(path_).c_str(), IN_CREATE | IN_MOVED_TO | IN_ONLYDIR);
}

void follow_source::drain(int fd) noexcept {
  char buffer[4096];
  while (::read(fd, buffer, sizeof buffer) > 0) {
  }
}

void follow_source::fail(int e) const { throw error(fmt::format("cannot read {}: {}", name_, std::strerror(e))); }

std::size_t follow_source::read(char* buffer, std::size_t size) {
  synthetic_ = false;
  for (;;) {
    if (end_line_ && size > 0) {  // the line end of a line a switch cut (counted by start_over)
      end_line_ = false;
      synthetic_ = true;
      buffer[0] = '\n';
      return 1;
    }
    if (h_.stop && h_.stop() != 0) throw follow_stopped{};
    if (h_.reopen && h_.reopen()) {
      if (regular_ && !path_.empty()) {
        reopen_pending_ = true;  // checked at the end of the file: nothing of it is dropped
      } else if (h_.switched) {
        h_.switched(follow_switch::not_a_file);
      }
    }
    if (!regular_) {
      pollfd p[2] = {{fd_, POLLIN, 0}, {h_.wake_fd, POLLIN, 0}};
      const auto budget = h_.wait_budget ? h_.wait_budget() : std::chrono::milliseconds(-1);
      const int timeout = h_.wake_fd >= 0 ? static_cast<int>(std::min<std::int64_t>(budget.count(), 1 << 30))
                                          : static_cast<int>(std::clamp<std::int64_t>(budget.count() < 0 ? kFallbackWaitMs : budget.count(), 0, kFallbackWaitMs));
      // Data already waiting is read before anything else (a backlog is taken in 64 KiB blocks).
      pollfd now{fd_, POLLIN, 0};
      if (::poll(&now, 1, 0) <= 0) {
        if (h_.idle) h_.idle();
        const int ready = ::poll(p, h_.wake_fd >= 0 ? 2 : 1, timeout);
        if (ready < 0 && errno != EINTR) fail(errno);
        if (h_.wake_fd >= 0 && ready > 0 && (p[1].revents & POLLIN)) drain(h_.wake_fd);
        if (ready <= 0 || !(p[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      }
      const ssize_t got = ::read(fd_, buffer, size);
      if (got > 0) return static_cast<std::size_t>(got);
      if (got == 0) return 0;  // the writer closed the pipe: the end
      if (errno == EINTR || errno == EAGAIN) continue;
      fail(errno);
    }
    const ssize_t got = ::read(fd_, buffer, size);
    if (got > 0) {
      offset_ += static_cast<std::uint64_t>(got);
      lines_in_file_ += static_cast<std::uint64_t>(std::count(buffer, buffer + got, '\n'));
      at_line_start_ = buffer[got - 1] == '\n';
      return static_cast<std::size_t>(got);
    }
    if (got < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      fail(errno);
    }
    if (at_end_switch()) continue;
    wait();
  }
}

// At the end of the regular file: a truncation, or a path that names another file now.
bool follow_source::at_end_switch() {
  struct stat st {};
  if (::fstat(fd_, &st) == 0 && static_cast<std::uint64_t>(st.st_size) < offset_) {
    if (::lseek(fd_, 0, SEEK_SET) != 0) fail(errno);
    start_over();
    if (h_.switched) h_.switched(follow_switch::truncated);
    return true;
  }
  if (path_.empty()) return false;
  const bool asked = reopen_pending_;
  reopen_pending_ = false;
  struct stat now {};
  if (::stat(path_.c_str(), &now) != 0 || !S_ISREG(now.st_mode)) {
    return false;  // renamed away and not created again yet: wait (the folder's watch wakes us)
  }
  if (file_id(now) == id_) {
    if (asked && h_.switched) h_.switched(follow_switch::same_file);
    return false;
  }
  const int fresh = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fresh < 0) return false;  // gone again, or not readable yet: look at the next wake
  if (owned_fd_ >= 0) ::close(owned_fd_);
  owned_fd_ = fresh;
  fd_ = fresh;
  struct stat opened {};
  id_ = ::fstat(fd_, &opened) == 0 ? file_id(opened) : file_id(now);
  start_over();
  watch();
  if (h_.switched) h_.switched(asked ? follow_switch::reopened : follow_switch::renamed);
  return true;
}

// Reading goes on at the start of a file (a new one, or this one truncated). A last line of the
// old contents without its newline ends here: it counts as a line of the old contents, and the
// next read() gives its line end.
void follow_source::start_over() {
  end_line_ = !at_line_start_;
  lines_before_ += lines_in_file_ + (end_line_ ? 1 : 0);
  lines_in_file_ = 0;
  offset_ = 0;
  at_line_start_ = true;
}

void follow_source::wait() {
  if (h_.idle) h_.idle();
  const auto budget = h_.wait_budget ? h_.wait_budget() : std::chrono::milliseconds(-1);
  if (inotify_ < 0 || file_watch_ < 0 || (!path_.empty() && dir_watch_ < 0) || h_.wake_fd < 0) {
    // No events to wait on: look again after a short pause (a signal cuts it short).
    const auto ms = budget.count() < 0 ? kFallbackWaitMs : std::min<std::int64_t>(budget.count(), kFallbackWaitMs);
    pollfd p[2] = {{h_.wake_fd, POLLIN, 0}, {inotify_, POLLIN, 0}};
    const int ready = ::poll(p, 2, static_cast<int>(ms));
    if (ready > 0) {
      if (h_.wake_fd >= 0 && (p[0].revents & POLLIN)) drain(h_.wake_fd);
      if (inotify_ >= 0 && (p[1].revents & POLLIN)) drain(inotify_);
    }
    return;
  }
  pollfd p[2] = {{inotify_, POLLIN, 0}, {h_.wake_fd, POLLIN, 0}};
  const int timeout = static_cast<int>(std::min<std::int64_t>(budget.count(), 1 << 30));
  const int ready = ::poll(p, 2, timeout);
  if (ready < 0 && errno != EINTR) fail(errno);
  if (ready > 0) {
    if (p[0].revents & POLLIN) drain(inotify_);
    if (p[1].revents & POLLIN) drain(h_.wake_fd);
  }
}

}  // namespace shufl::audit::detail
