// `shufl lines` helpers for issue 6 (lines_external.cpp): the --header reader, the --memory
// budget and its default, and the progress display of the external shuffle.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "lines_cmd.hpp"
#include "progress.hpp"
#include "shufl/lines/csv.hpp"
#include "shufl/lines/external.hpp"

namespace shufl::cli::lines {

/// The --header lines and, from a pipe, the bytes read past them.
struct header_input {
  std::string text;     ///< the first records, each ending with the delimiter
  std::string pending;  ///< bytes after them already taken from a non-seekable input (< 256 KiB)
};

/// Reads the first `count` records of `fd` (a missing last delimiter is added) in 256 KiB blocks:
/// a regular file is then repositioned right after them; from a pipe (or anything else that
/// cannot seek) the bytes read past them come back in `pending`, to be read before the rest of
/// `fd`. Throws "read error: ..." and, when the header grows past `limit` bytes, "--header N: the
/// header lines take more than half of --memory (LIMIT bytes)". With `csv` (--csv) the records
/// are CSV records, found and checked by that scanner (which then throws for malformed CSV).
header_input read_header(int fd, std::uint64_t count, char delimiter, std::uint64_t limit,
                         shufl::lines::csv_scanner* csv = nullptr);

/// The default --memory: half of MemAvailable (capped by a cgroup v2 memory.max), at least
/// min_memory.
std::uint64_t default_memory();

/// --memory (or its default) split into the record budget and the buffers around it (256 bucket
/// buffers of memory/4096 bytes, 16 KiB to 1 MiB; 7 MiB for the input window, output buffer,
/// copy chunk and slack); the temporary directory from --temp-dir, $TMPDIR or /tmp.
shufl::lines::external_settings external_settings_for(const options& opts);

/// A one-line progress display on stderr, only when stderr is a terminal; throttled to 4 Hz:
/// "\rshufl: reading 1.25 GiB\033[K", then "scattering" and "writing" with a percentage.
/// Erased ("\r\033[K") by clear() or the destructor, and when SIGINT, SIGTERM, SIGHUP or SIGPIPE
/// ends the run (erase_on_signal, as the bias bar; the exit status stays 128 + the signal).
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
  std::optional<erase_on_signal> eraser_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace shufl::cli::lines
