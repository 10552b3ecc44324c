// Private to src/lines/external.cpp: unnamed temporary files with buffered writing, and the
// background thread that writes full bucket buffers while records are being split.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "shufl/error.hpp"

namespace shufl::lines::detail {

// write(2) of everything, restarted on EINTR; 0 or an errno value.
inline int write_all(int fd, const char* p, std::size_t n) noexcept {
  while (n > 0) {
    const ssize_t put = ::write(fd, p, std::min(n, std::size_t{1} << 30));
    if (put < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    p += put;
    n -= static_cast<std::size_t>(put);
  }
  return 0;
}

// Writes full bucket buffers on a second thread, so that splitting records into buckets (one
// core) overlaps with write(2) copying them into the page cache (the other). Writes are done in
// the order submitted. The destructor drops what is still queued (only on an error path) and
// joins.
class background_writer {
 public:
  background_writer() : thread_([this] { run(); }) {}
  ~background_writer() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  background_writer(const background_writer&) = delete;
  background_writer& operator=(const background_writer&) = delete;

  // Queues writing [p, p + n) to fd; *busy stays true until it is written.
  void submit(int fd, const char* p, std::size_t n, bool* busy) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      *busy = true;
      jobs_.push_back(job{fd, p, n, busy});
    }
    wake_.notify_one();
  }
  // Waits until *busy is false; returns the first write error so far (0 if none).
  int wait(const bool* busy) {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return !*busy; });
    return error_;
  }

 private:
  struct job {
    int fd;
    const char* p;
    std::size_t n;
    bool* busy;
  };
  void run() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stop_ || !jobs_.empty(); });
      if (stop_) {
        for (auto& j : jobs_) *j.busy = false;
        jobs_.clear();
        done_.notify_all();
        return;
      }
      const job j = jobs_.front();
      jobs_.pop_front();
      const bool failed = error_ != 0;
      lock.unlock();
      const int e = failed ? 0 : write_all(j.fd, j.p, j.n);
      lock.lock();
      if (e != 0 && error_ == 0) error_ = e;
      *j.busy = false;
      done_.notify_all();
    }
  }
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::deque<job> jobs_;
  int error_ = 0;
  bool stop_ = false;
  std::thread thread_;  // last: started once the members above exist
};

// An unlinked temporary file (no name exists once the constructor returns, so a crash, SIGKILL
// included, leaves nothing behind) with a write buffer it does not own.
class temp_file {
 public:
  explicit temp_file(const std::string& dir) : dir_(dir) {
    fd_ = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd_ < 0 && errno != ENOENT && errno != ENOTDIR && errno != EACCES) {
      // No O_TMPFILE on this file system: mkstemp, then unlink at once, with the signals that
      // would end us blocked in between so the name cannot be left behind.
      std::string name = dir + "/shufl-XXXXXX";
      sigset_t block, old;
      sigemptyset(&block);
      for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&block, s);
      ::pthread_sigmask(SIG_BLOCK, &block, &old);
      fd_ = ::mkostemp(name.data(), O_CLOEXEC);  // mode 0600
      const int saved = errno;
      if (fd_ >= 0) ::unlink(name.c_str());
      ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
      errno = saved;
    }
    if (fd_ < 0) {
      throw error("cannot create temporary file in '" + dir + "': " + std::strerror(errno));
    }
  }
  ~temp_file() { ::close(fd_); }
  temp_file(const temp_file&) = delete;
  temp_file& operator=(const temp_file&) = delete;

  // Gives the file a write buffer of `capacity` bytes (not owned). With a background writer it is
  // used as two halves: one is filled while the other is being written.
  void attach(char* buffer, std::size_t capacity, background_writer* writer = nullptr) noexcept {
    buffer_ = buffer;
    writer_ = writer;
    half_ = writer ? capacity / 2 : capacity;
    current_ = 0;
    used_ = 0;
  }
  void add(std::string_view record) {
    ++records;
    bytes += record.size();
    if (record.size() > half_ - used_) {
      hand_over();
      if (record.size() >= half_) {
        drain();
        check(write_all(fd_, record.data(), record.size()));
        return;
      }
    }
    std::memcpy(buffer_ + current_ * half_ + used_, record.data(), record.size());
    used_ += record.size();
  }
  void add_many(std::string_view records_bytes, std::uint64_t count) {
    flush();
    check(write_all(fd_, records_bytes.data(), records_bytes.size()));
    records += count;
    bytes += records_bytes.size();
  }
  // Writes out everything buffered (and waits for the background writer).
  void flush() {
    hand_over();
    drain();
  }
  int fd() const noexcept { return fd_; }

  // Reads [offset, offset + n) into p; throws on errors or a short file.
  void read_at(char* p, std::size_t n, std::uint64_t offset) const {
    while (n > 0) {
      const ssize_t got = ::pread(fd_, p, n, static_cast<off_t>(offset));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) throw error("read error: " + dir_ + ": " + std::strerror(got < 0 ? errno : EIO));
      p += got;
      n -= static_cast<std::size_t>(got);
      offset += static_cast<std::uint64_t>(got);
    }
  }

  // Writes [p, p + n) at `offset` (unbuffered).
  void write_at(const char* p, std::size_t n, std::uint64_t offset) const {
    while (n > 0) {
      const ssize_t put = ::pwrite(fd_, p, n, static_cast<off_t>(offset));
      if (put < 0 && errno == EINTR) continue;
      check(put < 0 ? errno : 0);
      p += put;
      n -= static_cast<std::size_t>(put);
      offset += static_cast<std::uint64_t>(put);
    }
  }

  std::uint64_t records = 0;
  std::uint64_t bytes = 0;

 private:
  void check(int e) const {
    if (e != 0) throw error("write error: " + dir_ + ": " + std::strerror(e));
  }
  // Writes the current half (in the background when there is a writer) and moves to the other.
  void hand_over() {
    if (used_ == 0) return;
    char* p = buffer_ + current_ * half_;
    if (!writer_) {
      check(write_all(fd_, p, used_));
    } else {
      writer_->submit(fd_, p, used_, &busy_[current_]);
      current_ ^= 1;
      check(writer_->wait(&busy_[current_]));
    }
    used_ = 0;
  }
  void drain() {
    if (writer_) check(writer_->wait(&busy_[current_ ^ 1]));
  }
  const std::string& dir_;
  int fd_ = -1;
  char* buffer_ = nullptr;
  background_writer* writer_ = nullptr;
  std::size_t half_ = 0;
  std::size_t current_ = 0;
  std::size_t used_ = 0;
  bool busy_[2] = {false, false};  // guarded by the writer's mutex
};

using file_ptr = std::unique_ptr<temp_file>;

}  // namespace shufl::lines::detail
