// `shufl lines` helpers for issue 6 (lines_external.cpp): the --header reader, the --memory
// budget and its default, and the progress display of the external shuffle.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "lines_cmd.hpp"
#include "shufl/lines/external.hpp"

namespace shufl::cli::lines {

/// Reads the first `count` records of `fd` (a missing last delimiter is added) and leaves `fd`
/// right after them: a regular file is read in 64 KiB blocks and repositioned, anything else one
/// byte at a time so that nothing after the header is consumed. Throws "read error: ...".
std::string read_header(int fd, std::uint64_t count, char delimiter);

/// The default --memory: half of MemAvailable (capped by a cgroup v2 memory.max), at least
/// min_memory.
std::uint64_t default_memory();

/// --memory (or its default) split into the record budget and the buffers around it (256 bucket
/// buffers of memory/4096 bytes, 16 KiB to 1 MiB; 7 MiB for the input window, output buffer,
/// copy chunk and slack); the temporary directory from --temp-dir, $TMPDIR or /tmp.
shufl::lines::external_settings external_settings_for(const options& opts);

/// A one-line progress display on stderr, only when stderr is a terminal; throttled to 4 Hz,
/// erased by clear() or the destructor.
class progress_display {
 public:
  progress_display();
  ~progress_display();
  progress_display(const progress_display&) = delete;
  progress_display& operator=(const progress_display&) = delete;
  bool enabled() const noexcept { return enabled_; }
  void operator()(const shufl::lines::external_progress& p);
  void clear();

 private:
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace shufl::cli::lines
