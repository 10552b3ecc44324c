// The parts of `shufl lines`' runner (shufl/lines/run.hpp) that its modes share (run_io.cpp,
// run.cpp, run_gnu.cpp, run_modes.cpp, run_memory.cpp, fields.cpp): the input once read into memory, the output sink that
// opens -o only when the first write is due, what run() prepares (the --header lines, the opened
// input), and writing records, operands or range numbers in a given order.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <csignal>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shufl/error.hpp"
#include "shufl/lines.hpp"
#include "shufl/lines/csv.hpp"
#include "shufl/lines/run.hpp"
#include "shufl/quote.hpp"
#include "shufl/random.hpp"

namespace shufl::lines::runner {

using shufl::lines::byte_buffer;
using shufl::lines::fd_writer;
using shufl::lines::record_reader;
using options = run_options;

/// Looks up the field names of opts (weight_field_name, key_field_names) among the fields of
/// `header_line` (header line 1 without its delimiter; a CSV record with --csv, else split at
/// the field delimiter; a UTF-8 BOM and a final CR are not part of the names) and sets
/// opts.weight_field / opts.key_fields. Throws shufl::error for an unknown name, listing the
/// names there are.
void resolve_field_names(options& opts, std::string_view header_line);

/// The note for --bad-weights=skip and the errors of field reads when a line holds a double
/// quote without --csv: "quoted CSV fields need --csv ...".
inline constexpr const char* quoted_csv_hint =
    "the line holds a double quote: without --csv, fields are split at every field delimiter and "
    "quotes are data; quoted CSV fields need --csv";

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

/// --memory (or its default) split into the record budget and the buffers around it (256 bucket
/// buffers of memory/4096 bytes, 16 KiB to 1 MiB; 7 MiB for the input window, output buffer,
/// copy chunk and slack); the temporary directory from --temp-dir, $TMPDIR or /tmp.
shufl::lines::external_settings external_settings_for(const options& opts);


// An owned file descriptor.
class fd_guard {
 public:
  explicit fd_guard(int fd = -1) noexcept : fd_(fd) {}
  ~fd_guard() {
    if (fd_ > 2) ::close(fd_);
  }
  fd_guard(const fd_guard&) = delete;
  fd_guard& operator=(const fd_guard&) = delete;
  int get() const noexcept { return fd_; }
  int release() noexcept { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

// Opens `name` with `flags` (O_CLOEXEC added, mode 0666), retrying on EINTR; throws
// shufl::error "NAME: STRERROR" (the name quoted as GNU's quotef).
int open_or_throw(const std::string& name, int flags);

// Where the records come from, once read: a buffer split at the delimiter (files, pipes), the
// -e operands, or the -i range.
struct in_memory_input {
  shufl::lines::input_data data;             // records, each ending with the delimiter
  const std::vector<std::string>* operands;  // -e: one record per operand (may contain delimiters)
  std::uint64_t n = 0;
  // --csv: where each CSV record of `data` starts (n + 1 entries); items are then record
  // indices, as for -e.
  std::vector<std::uint64_t> starts;
  bool csv = false;
  std::string_view record(std::uint64_t i) const {
    return std::string_view(data.data() + starts[i], starts[i + 1] - starts[i]);
  }
};

// Whether -o names the input (the FILE operand, or the file standard input reads): the same
// device and inode. False when -o does not exist yet or either cannot be examined.
bool output_is_input(const options& opts) noexcept;

// Holds SIGHUP, SIGINT and SIGTERM (each not ignored) until destroyed: meanwhile a handler only
// notes the signal, whatever thread receives it; the destructor restores the previous actions
// and raises a noted signal, which then ends the run as it would have.
class signal_hold {
 public:
  signal_hold() noexcept;
  ~signal_hold();
  signal_hold(const signal_hold&) = delete;
  signal_hold& operator=(const signal_hold&) = delete;

 private:
  struct sigaction previous_[3] {};
};

// Writes the output and keeps the -o file closed until the first write is due.
class output_sink {
 public:
  explicit output_sink(const options& opts, std::function<void(fd_writer&)> header = {})
      : opts_(opts), header_(std::move(header)) {}
  // Opens -o (truncating it) or uses stdout, and writes the --header lines. Called only once the
  // randomness is consumed (except with -r, where bytes are drawn while writing, as in GNU shuf).
  fd_writer& open() {
    if (!writer_) {
      // -o F F: truncating F destroys the input; from here until F is closed, SIGHUP, SIGINT and
      // SIGTERM wait (signal_hold), so a Ctrl-C ends the run only once F holds the whole output.
      if (opts_.output && output_is_input(opts_)) hold_.emplace();
      if (opts_.output) file_ = std::make_unique<fd_guard>(open_or_throw(*opts_.output, O_WRONLY | O_CREAT | O_TRUNC));
      writer_.emplace(file_ ? file_->get() : STDOUT_FILENO, /*background=*/true);
      if (header_) header_(*writer_);
    }
    return *writer_;
  }
  // Flushes (creating an empty -o file when nothing was written) and closes -o, reporting
  // a failed close (e.g. a full disk on NFS) like a write error.
  void finish() {
    open().flush();
    if (file_ && ::close(file_->release()) != 0) {
      throw error(std::string("write error: ") + std::strerror(errno));
    }
    hold_.reset();  // F is whole: a signal held meanwhile ends the run now
  }

 private:
  const options& opts_;
  std::optional<signal_hold> hold_;
  std::function<void(fd_writer&)> header_;
  std::unique_ptr<fd_guard> file_;
  std::optional<fd_writer> writer_;
};

// What run() prepared before the mode runs: the --header output and an input already opened
// (and positioned after the header) for FILE or stdin, with the bytes a pipe gave past the
// header (`pending`, read before the rest of the input).
struct prepared {
  std::function<void(fd_writer&)> header;
  std::uint64_t first_line = 1;    // the input line of the first record after the header
  std::uint64_t header_bytes = 0;  // held in memory until the output opens: counts against --memory
  std::unique_ptr<fd_guard> input;
  std::string pending;
};

// Start offsets of every record (n + 1 entries, the last one = data size), for -r.
std::vector<std::uint64_t> record_starts(std::string_view data, char delimiter);

// The sequence of record start offsets, generated in order.
template <class Offset>
struct offset_generator {
  offset_generator(const char* begin, const char* end, char delimiter) noexcept
      : data(begin), p(begin), scanner(begin, end, delimiter) {}
  const char* data;
  const char* p;
  shufl::lines::delimiter_scanner scanner;
  Offset operator()() noexcept {
    const Offset offset = static_cast<Offset>(p - data);
    p = scanner.next(p) + 1;
    return offset;
  }
};

// A permutation of an -i range is held in RAM, 8 bytes per number (as GNU shuf does). A range
// too large for the memory available fails at once with GNU's message instead of swapping.
void check_range_fits(const options& opts, std::uint64_t n);

// Writes items (record offsets, operand indices or range indices) in the given order.
template <class Item>
void write_items(fd_writer& out, const options& opts, const in_memory_input& in,
                 std::span<const Item> items) {
  const char d = opts.delimiter;
  if (opts.input_range) {
    for (const Item i : items) out.write_number(opts.lo + static_cast<std::uint64_t>(i), d);
  } else if (in.csv) {
    for (const Item i : items) out.write(in.record(static_cast<std::uint64_t>(i)));
  } else if (opts.echo) {
    for (const Item i : items) {
      out.write((*in.operands)[static_cast<std::size_t>(i)]);
      out.write(std::string_view(&d, 1));
    }
  } else {
    const char* data = in.data.data();
    const char* end = data + in.data.size();
    const std::size_t count = items.size();
    for (std::size_t i = 0; i < count; ++i) {
      if (i + 16 < count) {
        __builtin_prefetch(data + items[i + 16]);
        __builtin_prefetch(data + items[i + 16] + 64);
      }
      out.write_record(data + items[i], end, d);
    }
  }
}

// -r: `count` independent draws among the n records (forever when count is UINT64_MAX), each
// written as it is drawn. Lines drawn before a failing draw are written out (as GNU does).
template <class Choose>
void write_repeated(output_sink& sink, const options& opts, const in_memory_input& in,
                    Choose&& choose) {
  fd_writer& out = sink.open();
  const char d = opts.delimiter;
  const bool forever = opts.head == UINT64_MAX;
  std::vector<std::uint64_t> starts;
  if (in.csv) starts = in.starts;
  else if (!opts.input_range && !opts.echo) starts = record_starts(in.data.view(), d);
  try {
    for (std::uint64_t i = 0; forever || i < opts.head; ++i) {
      const std::uint64_t j = choose(in.n);
      if (opts.input_range) {
        out.write_number(opts.lo + j, d);
      } else if (opts.echo) {
        out.write((*in.operands)[static_cast<std::size_t>(j)]);
        out.write(std::string_view(&d, 1));
      } else {
        out.write(std::string_view(in.data.data() + starts[j], starts[j + 1] - starts[j]));
      }
    }
  } catch (const error&) {
    out.flush();
    throw;
  }
}

void write_strings(output_sink& sink, const std::vector<byte_buffer>& records);

// --csv: reads all of `fd` (after `pending`) and finds its CSV records (malformed CSV is an
// error naming the line, before any output).
void load_csv(in_memory_input& in, const options& opts, int fd, std::string_view pending, std::uint64_t first_line);

// Opens FILE (or stdin for no operand or "-"); GNU reopens it as stdin the same way.
std::unique_ptr<fd_guard> open_input(const options& opts, prepared& pre);

// The modes: GNU's random source (run_gnu.cpp), the sampler modes (run_modes.cpp, writing to
// `sink`), and seeded or unseeded ChaCha20 (run.cpp). Errors are shufl::error.
void run_gnu(const options& opts, prepared& pre);
void run_modes(const options& opts, prepared& pre, output_sink& sink, const seed_key& key);

}  // namespace shufl::lines::runner
