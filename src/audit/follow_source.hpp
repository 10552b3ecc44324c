// The bytes `shufl audit --follow` reads (include/shufl/audit/follow.hpp; docs/monitor.md,
// "Running it as a service"): a pipe or FIFO until its writer closes it, or a regular file
// followed like `tail -F`, forever.
//
// Waiting never spins. A pipe is waited on with poll(2); the end of a regular file with inotify
// (the file: written, truncated, renamed, deleted; its folder: a new file at the path), both
// together with the caller's wake descriptor (a signal handler writes a byte to it, so a stop
// or a reopen request is seen at once, with no race between looking at the flags and waiting).
// Without inotify (its limit reached, a file system without it) the end of a file is looked at
// again every 0.2 s. A wait lasts at most what `wait_budget` allows (the next status or metrics
// write that the clock makes due), forever when it says so: a quiet monitor uses no CPU.
//
// Rotation, noticed without a signal: at the end of the file, a size below what was read means
// the file was truncated in place (copytruncate): it is read again from its start; a path that
// now names another file (rename, then a new file created) means the old file is finished: the
// new one is read from its start. Each time, the old file has been read to its end first, so a
// line written before the rotation is not lost. A reopen request (SIGHUP) makes the same check
// at once when the file has been read to its end (no line of the old file is dropped).
//
// A last line of the old file without its newline is not glued to the new file's first bytes:
// at the switch the source delivers one line end of its own (a byte of no file: `synthetic()`
// says so, so the caller's checksum leaves it out), and the cut line is a line of the old file,
// read as a last line without its newline is at the end of any input.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

namespace shufl::audit::detail {

/// Thrown by follow_source::read when `stop` says so: unwinds out of the deck reader.
struct follow_stopped {};

/// Why the source moved to the start of a file.
enum class follow_switch {
  truncated,  ///< the file became shorter than what was read (copytruncate): read from its start
  renamed,    ///< the path names a new file (the old one was renamed or deleted): read from its start
  reopened,   ///< a reopen request found the path naming a new file
  same_file,  ///< a reopen request found the same file: reading goes on where it was
  not_a_file, ///< a reopen request on a pipe or a file without a path: nothing to reopen
};

class follow_source {
 public:
  struct hooks {
    std::function<int()> stop;            ///< non-zero: throw follow_stopped
    std::function<bool()> reopen;         ///< true once per reopen request
    int wake_fd = -1;                     ///< readable after a signal (drained here); -1: none
    std::function<void()> idle;           ///< runs before every wait
    /// The longest wait now (negative: no limit).
    std::function<std::chrono::milliseconds()> wait_budget;
    /// After a switch (`lines_before()` and `id()` already describe the new file).
    std::function<void(follow_switch)> switched;
  };

  /// `fd` is open for reading and stays the caller's; `path` names it for reopening (empty:
  /// standard input or a descriptor without a name); `name` is what messages call it.
  follow_source(int fd, std::string path, std::string name, hooks h);
  ~follow_source();
  follow_source(const follow_source&) = delete;
  follow_source& operator=(const follow_source&) = delete;

  /// Up to `size` bytes; 0 only at the end of a pipe. Throws shufl::error on a read error and
  /// follow_stopped when `stop` asks.
  std::size_t read(char* buffer, std::size_t size);

  [[nodiscard]] bool regular() const noexcept { return regular_; }
  /// "device:inode" of the regular file read now (empty for a pipe).
  [[nodiscard]] const std::string& id() const noexcept { return id_; }
  /// Lines (newlines) read from earlier files and earlier contents of this one (before a
  /// truncation): a line number minus this is a line of the file read now.
  [[nodiscard]] std::uint64_t lines_before() const noexcept { return lines_before_; }
  /// Whether the bytes read() returned last are the line end the source added after a cut line
  /// (one '\n' in no file), not bytes of the input.
  [[nodiscard]] bool synthetic() const noexcept { return synthetic_; }
  /// After a switch (in `switched`): whether the old file's last line had no newline and is ended
  /// here; it is line number lines_before() of the whole input.
  [[nodiscard]] bool cut_line() const noexcept { return end_line_; }

 private:
  void wait();
  bool at_end_switch();
  void watch();
  void drain(int fd) noexcept;
  [[noreturn]] void fail(int e) const;

  int fd_;
  int owned_fd_ = -1;  // a file opened here after a rotation
  std::string path_, name_;
  hooks h_;
  bool regular_ = false;
  std::string id_;
  std::uint64_t offset_ = 0, lines_in_file_ = 0, lines_before_ = 0;
  bool reopen_pending_ = false;
  bool at_line_start_ = true;  // the last byte read from this file was '\n' (or none was read)
  bool end_line_ = false;      // a switch cut a line: the next read() returns the line end
  bool synthetic_ = false;     // what read() returned last is that line end
  void start_over();           // the bookkeeping of a switch to the start of a file
  int inotify_ = -1, file_watch_ = -1, dir_watch_ = -1;
};

}  // namespace shufl::audit::detail
