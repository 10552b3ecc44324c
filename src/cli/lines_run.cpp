// Runs `shufl lines`: picks the mode (GNU random source, or seeded/unseeded ChaCha20), reads the
// input (after the --header lines), computes the order — in memory, or for a full shuffle larger
// than --memory through temporary files — and only then opens -o and writes. See DESIGN.md and
// gnu-shuf-compat.md for the behaviour this reproduces.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <fmt/format.h>
#include <functional>
#include <memory>
#include <utility>
#include <optional>
#include <string>
#include <vector>

#include "lines_cmd.hpp"
#include "lines_external.hpp"
#include "shufl/error.hpp"
#include "shufl/lines.hpp"
#include "shufl/lines/csv.hpp"
#include "shufl/random.hpp"

namespace shufl::cli::lines {

namespace {

using shufl::lines::byte_buffer;
using shufl::lines::fd_writer;
using shufl::lines::record_reader;

// GNU shuf samples with a reservoir only for inputs larger than this (RESERVOIR_MIN_INPUT).
constexpr std::uint64_t kGnuReservoirMinInput = 8192 * 1024;

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

int open_or_throw(const std::string& name, int flags) {
  int fd = -1;
  do {
    fd = ::open(name.c_str(), flags | O_CLOEXEC, 0666);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) throw error(quotef(name) + ": " + std::strerror(errno));
  return fd;
}

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

// Writes the output and keeps the -o file closed until the first write is due.
class output_sink {
 public:
  explicit output_sink(const options& opts, std::function<void(fd_writer&)> header = {})
      : opts_(opts), header_(std::move(header)) {}
  // Opens -o (truncating it) or uses stdout, and writes the --header lines. Called only once the
  // randomness is consumed (except with -r, where bytes are drawn while writing, as in GNU shuf).
  fd_writer& open() {
    if (!writer_) {
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
  }

 private:
  const options& opts_;
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
std::vector<std::uint64_t> record_starts(std::string_view data, char delimiter) {
  std::vector<std::uint64_t> starts;
  starts.reserve(static_cast<std::size_t>(shufl::lines::count_records(data, delimiter)) + 1);
  std::uint64_t offset = 0;
  starts.push_back(0);
  while (offset < data.size()) {
    const auto* hit = static_cast<const char*>(
        std::memchr(data.data() + offset, delimiter, data.size() - static_cast<std::size_t>(offset)));
    offset = static_cast<std::uint64_t>(hit - data.data()) + 1;
    starts.push_back(offset);
  }
  return starts;
}

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
void check_range_fits(const options& opts, std::uint64_t n) {
  if (opts.repeat) return;
  const std::uint64_t held = std::min(opts.head, n);
  if (held > default_memory() / 8) throw error("memory exhausted");
}

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

// Offsets of all records of a buffer, or indices 0..n-1, permuted by the first `h` steps of a
// forward partial Fisher–Yates with `draw`; then the first h are written. (GNU mode.)
template <class Item, class Draw>
void gnu_permute_and_write(output_sink& sink, const options& opts, const in_memory_input& in,
                           std::uint64_t h, Draw&& draw) {
  std::vector<Item> items(static_cast<std::size_t>(in.n));
  if (opts.echo || in.csv) {
    for (std::size_t i = 0; i < items.size(); ++i) items[i] = static_cast<Item>(i);
  } else {
    offset_generator<Item> next{in.data.data(), in.data.data() + in.data.size(), opts.delimiter};
    for (auto& item : items) item = next();
  }
  shufl::lines::partial_fisher_yates(std::span<Item>(items), h, draw);
  fd_writer& out = sink.open();
  write_items(out, opts, in, std::span<const Item>(items.data(), static_cast<std::size_t>(h)));
}

// Seeded full shuffle by the scatter rule (scatter.hpp) of the records of a buffer, of -e
// operands or of a range.
template <class Item>
void scatter_and_write(output_sink& sink, const options& opts, const in_memory_input& in,
                       const seed_key& key) {
  std::vector<Item> items(static_cast<std::size_t>(in.n));
  const seed_key root = shufl::lines::scatter_root_key(key);
  if (opts.echo || opts.input_range || in.csv) {
    Item next = 0;
    shufl::lines::scatter_shuffle_generated(std::span<Item>(items), root, [&next]() noexcept { return next++; });
  } else {
    offset_generator<Item> next{in.data.data(), in.data.data() + in.data.size(), opts.delimiter};
    shufl::lines::scatter_shuffle_generated(std::span<Item>(items), root, next);
  }
  fd_writer& out = sink.open();
  write_items(out, opts, in, std::span<const Item>(items));
}

void write_strings(output_sink& sink, const std::vector<std::string>& records) {
  fd_writer& out = sink.open();
  for (const auto& r : records) out.write(r);
}

// --csv: reads all of `fd` (after `pending`) and finds its CSV records (malformed CSV is an
// error naming the line, before any output).
void load_csv(in_memory_input& in, const options& opts, int fd, std::string_view pending, std::uint64_t first_line) {
  in.data = shufl::lines::input_data::load(fd, '\n', pending);
  in.starts = shufl::lines::csv_record_starts(in.data.view(), opts.fields_by(), first_line);
  in.n = in.starts.size() - 1;
  in.csv = true;
}

// Opens FILE (or stdin for no operand or "-"); GNU reopens it as stdin the same way.
std::unique_ptr<fd_guard> open_input(const options& opts, prepared& pre) {
  if (pre.input) return std::move(pre.input);
  if (opts.operands.empty() || opts.operands[0] == "-") return std::make_unique<fd_guard>(STDIN_FILENO);
  return std::make_unique<fd_guard>(open_or_throw(opts.operands[0], O_RDONLY));
}


int run_gnu(const options& opts, prepared& pre) {
  output_sink sink(opts, pre.header);
  const std::string& source_name = *opts.random_source;
  std::unique_ptr<fd_guard> source_fd;
  std::optional<gnu_random_source> source;
  const auto open_source = [&] {
    source_fd = std::make_unique<fd_guard>(open_or_throw(source_name, O_RDONLY));
    source.emplace(source_fd->get(), quote(source_name));
  };
  const auto draw = [&](std::uint64_t s) { return source->choose(s); };

  in_memory_input in;
  in.operands = &opts.operands;
  if (opts.head == 0) {
    if (opts.repeat) open_source();  // GNU opens it for -r even with -n 0
    sink.finish();
    return 0;
  }
  if (opts.input_range) {
    in.n = opts.hi - opts.lo + 1;
  } else if (opts.echo) {
    in.n = opts.operands.size();
  } else {
    auto input = open_input(opts, pre);
    if (opts.csv) {  // GNU shuf has no CSV: all records in memory, GNU's draws over them
      load_csv(in, opts, input->get(), pre.pending, pre.first_line);
    } else if (!opts.repeat && opts.head != UINT64_MAX &&
        shufl::lines::remaining_input_size(input->get()) > kGnuReservoirMinInput) {
      open_source();
      record_reader reader(input->get(), opts.delimiter, pre.pending);
      std::vector<std::string> kept = shufl::lines::gnu_reservoir_sample(reader, opts.head, *source);
      input.reset();
      const auto order = shufl::lines::range_permutation(kept.size(), kept.size(), draw);
      fd_writer& out = sink.open();
      for (const auto i : order) out.write(kept[static_cast<std::size_t>(i)]);
      sink.finish();
      return 0;
    } else {
      in.data = shufl::lines::input_data::load(input->get(), opts.delimiter, pre.pending);
      in.n = shufl::lines::count_records(in.data.view(), opts.delimiter);
    }
  }
  const std::uint64_t h = opts.repeat ? opts.head : std::min(opts.head, in.n);
  if (opts.repeat || h > 0) open_source();
  if (opts.repeat) {
    if (in.n == 0) {
      sink.open();  // GNU creates the -o file before it reports the empty input
      throw error("no lines to repeat");
    }
    write_repeated(sink, opts, in, draw);
  } else if (opts.input_range) {
    check_range_fits(opts, in.n);  // after opening the source, as GNU fails in that order
    const auto values = shufl::lines::range_permutation(in.n, h, draw);
    write_items(sink.open(), opts, in, std::span<const std::uint64_t>(values));
  } else if (in.data.size() < (std::uint64_t{1} << 32) && in.n < (std::uint64_t{1} << 32)) {
    gnu_permute_and_write<std::uint32_t>(sink, opts, in, h, draw);
  } else {
    gnu_permute_and_write<std::uint64_t>(sink, opts, in, h, draw);
  }
  sink.finish();
  return 0;
}

// ---- the sampler modes (issue 17): --prob, --key-fields, --weight-field, --with-replacement ----

// The record without its delimiter.
std::string_view body(std::string_view record) { return record.substr(0, record.size() - 1); }

// Where kept records go: straight to stdout as they come (streaming), or, with -o, held until
// all input is read, so that -o F F stays safe as in every other mode.
class kept_writer {
 public:
  kept_writer(const options& opts, output_sink& sink) : sink_(sink), hold_(opts.output.has_value()) {}
  void operator()(std::string_view record) {
    if (hold_) {
      held_.append(record);
    } else {
      sink_.open().write(record);
      streamed_ = true;
    }
  }
  void finish() {
    fd_writer& out = sink_.open();
    if (hold_) out.write(held_);
    sink_.finish();
  }
  // Before an error that ends the stream (a line without its key field, a read error): the
  // lines kept so far go out whole, as tsv-sample's do, so standard output always ends with
  // exactly the kept lines before the failing one, whatever their size. With -o nothing is
  // written (the file is not even opened).
  void flush_streamed() {
    if (!hold_ && streamed_) sink_.open().flush();
  }

 private:
  output_sink& sink_;
  bool hold_;
  bool streamed_ = false;
  std::string held_;
};

// Reads weights for --weight-field: a bad one is an error naming the line, or (--bad-weights=skip)
// the line is skipped and counted, with one warning at the end.
class weight_reader {
 public:
  // `csv`: the source of CSV records (--csv), whose fields are read unquoted; else nullptr.
  weight_reader(const options& opts, std::uint64_t first_line, const shufl::lines::record_source* csv)
      : field_(*opts.weight_field), by_(opts.fields_by()), skip_(opts.skip_bad_weights), first_line_(first_line),
        csv_(csv) {}
  // The weight of the record at 0-based position `position`, or −1 to skip it.
  double operator()(std::string_view record, std::uint64_t position) {
    // (A CSV record without quotes splits as plain text, up to a CR before its LF, which the
    // fast form refuses: the careful read handles it.)
    if (csv_ && body(record).find('"') != std::string_view::npos) return general(record, position);
    const double fast = shufl::lines::fast_field_weight(body(record), field_, by_);
    if (fast >= 0) [[likely]] return fast;
    return general(record, position);
  }
  // Any other field: exponents, long digit strings, or a bad weight.
  [[gnu::noinline]] double general(std::string_view record, std::uint64_t position) {
    std::string_view text;
    bool found = false;
    if (csv_) {
      found = shufl::lines::csv_field(shufl::lines::csv_body(record), field_, by_, value_);
      text = value_;
    } else {
      found = shufl::lines::find_field(body(record), field_, by_, text);
    }
    if (found) {
      const double w = shufl::lines::weight_or_negative(text);
      if (w >= 0) return w;
    }
    bad(found, text, position, !csv_ && body(record).find('"') != std::string_view::npos);
    return -1;
  }
  // A bad weight: an error, or counted for the warning.
  // Without --csv, a line with a double quote is likely quoted CSV ("New York, NY"), whose
  // fields are then split at every comma: the message says that quoted CSV needs --csv.
  void bad(bool found, std::string_view text, std::uint64_t position, bool quoted) {
    const std::uint64_t line = csv_ ? csv_->record_line() : first_line_ + position;
    std::string what = found ? "invalid weight " + quote(text) + " (a non-negative decimal number)"
                             : "no field " + std::to_string(field_) + " for the weight";
    if (quoted) {
      what += "; ";
      what += quoted_csv_hint;
      ++quoted_;
    }
    if (!skip_) throw error(fmt::format("line {}: {}", line, what));
    if (skipped_++ == 0) first_ = fmt::format("line {}: {}", line, what);
  }
  // The warning for skipped lines, printed at the end; when some held a double quote, a note
  // that quoted CSV needs --csv (so a file's quoted rows are never dropped silently).
  void warn() const {
    if (skipped_ == 0) return;
    std::fprintf(stderr, "shufl: warning: skipped %llu line%s with a bad weight (first: %s)\n",
                 static_cast<unsigned long long>(skipped_), skipped_ == 1 ? "" : "s", first_.c_str());
    if (quoted_ > 0) {
      std::fprintf(stderr,
                   "shufl: note: %llu of the skipped lines hold a double quote: if the input is quoted CSV, "
                   "use --csv\n",
                   static_cast<unsigned long long>(quoted_));
    }
  }

 private:
  std::size_t field_;
  char by_;
  bool skip_;
  std::uint64_t first_line_;
  const shufl::lines::record_source* csv_;
  std::string value_;
  std::uint64_t skipped_ = 0;
  std::uint64_t quoted_ = 0;
  std::string first_;
};

int run_modes(const options& opts, prepared& pre, output_sink& sink, const seed_key& key) {
  // The source of records, and the input line number of record 0 (after --header lines).
  std::unique_ptr<fd_guard> input;
  std::optional<record_reader> reader;
  std::optional<shufl::lines::csv_scanner> csv;
  std::optional<shufl::lines::record_source> source;
  const char d = opts.delimiter;
  if (opts.input_range) {
    source.emplace(opts.lo, opts.hi - opts.lo + 1, d);
  } else if (opts.echo) {
    source.emplace(std::span<const std::string>(opts.operands), d);
  } else {
    input = open_input(opts, pre);
    reader.emplace(input->get(), d, pre.pending);
    if (opts.csv) {
      csv.emplace(opts.fields_by(), pre.first_line);
      source.emplace(*reader, *csv);
    } else {
      source.emplace(*reader);
    }
  }
  const std::uint64_t first_line = opts.header + 1;  // records exist only after a whole header
  // The input line of the record last read, for messages.
  const auto line_of_last = [&] { return csv ? source->record_line() : first_line + source->position() - 1; };
  std::string_view record;

  if (opts.prob) {
    kept_writer out(opts, sink);
    try {
      if (opts.key_fields.ranges.empty()) {
        shufl::lines::bernoulli_sample(*source, *opts.prob, key, opts.head, out);
      } else {
        shufl::lines::distinct_filter filter(*opts.prob, opts.key_fields, opts.fields_by(), key);
        std::uint64_t kept = 0;
        std::string joined;  // --csv: the key, values unquoted (csv_key)
        while (kept < opts.head && source->next(record)) {
          const auto keep = !csv ? filter.keep(body(record))
                            : shufl::lines::csv_key(shufl::lines::csv_body(record), opts.key_fields, opts.fields_by(), joined)
                                ? std::optional<bool>(filter.keep_key(joined))
                                : std::nullopt;
          if (!keep) {
            const bool quoted = !csv && record.find('"') != std::string_view::npos;
            throw error(fmt::format("line {}: fewer fields than --key-fields needs{}{}", line_of_last(),
                                    quoted ? "; " : "", quoted ? quoted_csv_hint : ""));
          }
          if (*keep) {
            out(record);
            ++kept;
          }
        }
      }
    } catch (const error&) {
      out.flush_streamed();  // the kept lines before the failing one, whole; then the error
      throw;
    }
    input.reset();
    out.finish();
    return 0;
  }

  std::optional<weight_reader> weights;
  if (opts.weight_field) weights.emplace(opts, first_line, csv ? &*source : nullptr);
  // The weighted shuffle and --with-replacement hold every line: at most --memory (default:
  // half the available memory), else an error before any output.
  const std::uint64_t budget = opts.memory ? *opts.memory : default_memory();
  std::uint64_t held = 0;
  const auto hold = [&](std::string_view r, const char* what) {
    held += r.size() + 48;  // the record and its bookkeeping
    if (held > budget) {
      throw error(fmt::format("{} holds every line in memory, and the input needs more than {} "
                              "bytes (--memory SIZE raises the limit)", what, budget));
    }
  };

  // --with-replacement: the draws stream out one by one, as GNU's -r -n does (memory: the
  // lines, or nothing for -i). --keep-order needs them all before the first: counts per line
  // when there are more draws than lines, else the draws sorted, within --memory.
  const auto write_draws = [&](std::uint64_t n, std::span<const double> w, auto&& write) {
    shufl::lines::replacement_draws draws(n, w, key);
    if (!opts.keep_order) {
      sink.open();
      for (std::uint64_t i = 0; i < opts.head; ++i) write(draws.next());
      return;
    }
    const std::uint64_t held_items = std::min(opts.head, n);
    if (held_items > (budget - std::min(budget, held)) / 8) {
      throw error(fmt::format("--keep-order with --with-replacement holds {} draws or counts in memory, "
                              "more than {} bytes (--memory SIZE raises the limit)", held_items, budget));
    }
    if (opts.head >= n) {
      std::vector<std::uint64_t> counts(static_cast<std::size_t>(n), 0);
      for (std::uint64_t i = 0; i < opts.head; ++i) ++counts[static_cast<std::size_t>(draws.next())];
      sink.open();
      for (std::uint64_t i = 0; i < n; ++i) {
        for (std::uint64_t c = counts[static_cast<std::size_t>(i)]; c > 0; --c) write(i);
      }
    } else {
      std::vector<std::uint64_t> drawn(static_cast<std::size_t>(opts.head));
      for (auto& i : drawn) i = draws.next();
      std::sort(drawn.begin(), drawn.end());
      sink.open();
      for (const auto i : drawn) write(i);
    }
  };
  if (opts.with_replacement && opts.input_range && !weights) {
    // -i LO-HI: the draws are the numbers themselves, whatever the size of the range.
    const std::uint64_t n = opts.hi - opts.lo + 1;
    if (n == 0) {
      sink.open();
      throw error("no lines to draw from");
    }
    write_draws(n, {}, [&](std::uint64_t i) { sink.open().write_number(opts.lo + i, d); });
    sink.finish();
    return 0;
  }
  if (opts.with_replacement) {
    // Every line (and weight) in memory; then COUNT independent draws.
    std::string data;
    std::vector<std::size_t> starts;
    std::vector<double> w;
    while (source->next(record)) {
      if (weights) {
        const double weight = (*weights)(record, source->position() - 1);
        if (weight < 0) continue;
        w.push_back(weight);
      }
      hold(record, "--with-replacement");
      starts.push_back(data.size());
      data.append(record);
    }
    input.reset();
    if (weights) weights->warn();
    if (starts.empty()) {
      sink.open();  // as -r: the -o file is created before the error
      throw error("no lines to draw from");
    }
    starts.push_back(data.size());
    const std::string_view all_data = data;
    write_draws(starts.size() - 1, w, [&](std::uint64_t i) {
      sink.open().write(all_data.substr(starts[i], starts[i + 1] - starts[i]));
    });
    sink.finish();
    return 0;
  }

  // --weight-field: weighted sample of -n COUNT lines (A-ExpJ), or a weighted shuffle.
  shufl::lines::weighted_sampler sampler(opts.head, key);
  const bool all = opts.head == UINT64_MAX;
  std::uint64_t position = 0;
  // `fast`: the weight when its field is a plain decimal (fast_field_weight), else −1.
  const auto offer = [&](std::string_view r, double fast) {
    const double weight = fast >= 0 ? fast : weights->general(r, position);
    if (all && weight >= 0) hold(r, "a weighted shuffle (--weight-field without -n)");
    if (weight >= 0 && !sampler.pass(weight)) sampler.offer(r, weight, position);
    ++position;
  };
  if (reader && !csv) {
    // The tight loop: records found 64 bytes at a time, weights read by words.
    const std::size_t field = *opts.weight_field;
    const char by = opts.fields_by();
    reader->for_each_window([&](std::string_view window) {
      while (!window.empty()) {
        if (!all) {  // the records A-ExpJ passes over, in bulk
          std::uint64_t passed = 0;
          window.remove_prefix(sampler.pass_records(window, d, field, by, passed));
          position += passed;
          if (window.empty()) break;
        }
        const std::string_view r = window.substr(0, window.find(d) + 1);
        offer(r, shufl::lines::fast_field_weight(body(r), field, by));
        window.remove_prefix(r.size());
      }
    });
  } else {
    while (source->next(record)) offer(record, -1);
  }
  input.reset();
  weights->warn();
  const auto kept = opts.keep_order ? sampler.take_in_input_order() : sampler.take_in_key_order();
  write_strings(sink, kept);
  sink.finish();
  return 0;
}

int run_chacha(const options& opts, prepared& pre) {
  output_sink sink(opts, pre.header);
  if (opts.head == 0) {
    sink.finish();
    return 0;
  }
  const seed_key key = opts.seed ? key_from_seed(*opts.seed) : key_from_os();
  in_memory_input in;
  in.operands = &opts.operands;
  if (opts.prob || opts.weight_field || opts.with_replacement) return run_modes(opts, pre, sink, key);
  // --keep-order with an unlimited -n: a "sample" of every line, in input order.
  const bool sample = !opts.repeat && (opts.head != UINT64_MAX || opts.keep_order);

  if (sample && !opts.input_range) {
    // -n K: reservoir sampling whatever the input is, so a file and a pipe give the same output.
    shufl::lines::reservoir_sampler sampler(opts.head, key);
    if (opts.echo) {
      std::string record;
      sampler.sample_indexed(opts.operands.size(), [&](std::uint64_t i) -> std::string_view {
        (record = opts.operands[static_cast<std::size_t>(i)]) += opts.delimiter;
        return record;
      });
    } else if (opts.csv) {
      auto input = open_input(opts, pre);
      record_reader reader(input->get(), '\n', pre.pending);
      shufl::lines::csv_scanner csv(opts.fields_by(), pre.first_line);
      shufl::lines::record_source source(reader, csv);
      std::string_view record;
      while (source.next(record)) sampler.offer(record);
    } else {
      auto input = open_input(opts, pre);
      record_reader reader(input->get(), opts.delimiter, pre.pending);
      sampler.sample(reader);
    }
    const auto kept = opts.keep_order ? sampler.take_in_input_order() : sampler.take_shuffled();
    write_strings(sink, kept);
    sink.finish();
    return 0;
  }

  if (opts.input_range) {
    in.n = opts.hi - opts.lo + 1;
    check_range_fits(opts, in.n);
  } else if (opts.echo) {
    in.n = opts.operands.size();
  } else if (opts.repeat) {
    auto input = open_input(opts, pre);
    if (opts.csv) {
      load_csv(in, opts, input->get(), pre.pending, pre.first_line);
    } else {
      in.data = shufl::lines::input_data::load(input->get(), opts.delimiter, pre.pending);
      in.n = shufl::lines::count_records(in.data.view(), opts.delimiter);
    }
  } else if (opts.csv) {
    // The full shuffle of CSV records: in memory only (the temporary files of the external
    // shuffle hold newline-ended lines), within --memory.
    auto input = open_input(opts, pre);
    std::uint64_t budget = external_settings_for(opts).memory_budget;
    budget -= std::min(budget, pre.header_bytes);
    const auto too_large = [&] {
      return error(fmt::format("--csv shuffles in memory, and the input needs more than {} bytes "
                               "(--memory SIZE raises the limit)", budget));
    };
    if (shufl::lines::remaining_input_size(input->get()) != UINT64_MAX &&
        shufl::lines::remaining_input_size(input->get()) > budget) {
      throw too_large();
    }
    load_csv(in, opts, input->get(), pre.pending, pre.first_line);
    if (shufl::lines::in_memory_cost(in.data.size(), in.n) + in.starts.size() * 8 > budget) throw too_large();
  } else {
    // The full shuffle of FILE or stdin: in memory when it fits --memory, else external; the
    // same bytes either way (THE RULE of scatter.hpp).
    auto input = open_input(opts, pre);
    const int fd = input->get();
    shufl::lines::external_settings settings = external_settings_for(opts);
    settings.memory_budget -= std::min(settings.memory_budget, pre.header_bytes);
    if (shufl::lines::remaining_input_size(fd) <= settings.memory_budget) {
      const off_t start = ::lseek(fd, 0, SEEK_CUR);
      in.data = shufl::lines::input_data::load(fd, opts.delimiter);  // a file: nothing pending
      in.n = shufl::lines::count_records(in.data.view(), opts.delimiter);
      if (shufl::lines::in_memory_cost(in.data.size(), in.n) > settings.memory_budget) {
        in.data = shufl::lines::input_data();  // short records: their offsets do not fit
        if (::lseek(fd, start, SEEK_SET) < 0) throw error(std::string("read error: ") + std::strerror(errno));
        in.n = UINT64_MAX;
      }
    } else {
      in.n = UINT64_MAX;
    }
    if (in.n == UINT64_MAX) {
      progress_display display;
      auto with_display = settings;
      if (display.enabled()) with_display.progress = std::ref(display);
      std::optional<shufl::lines::external_shuffle> ext;
      {
        record_reader reader(fd, opts.delimiter, pre.pending);
        ext.emplace(reader, opts.delimiter, shufl::lines::scatter_root_key(key), std::move(with_display));
      }
      input.reset();  // all input read before -o is opened (-o F F)
      ext->write(sink.open());
      ext.reset();
      display.clear();
      sink.finish();
      return 0;
    }
  }

  if (opts.repeat) {
    if (in.n == 0) {
      sink.open();  // GNU creates the -o file before it reports the empty input
      throw error("no lines to repeat");
    }
    chacha20_engine engine(derive_key(key, "lines/repeat", 0), 0);
    write_repeated(sink, opts, in, [&engine](std::uint64_t s) { return uniform_below(engine, s); });
  } else if (sample) {
    // -i LO-HI -n K: partial Fisher–Yates, sparse for huge ranges.
    chacha20_engine engine(derive_key(key, "lines/range-sample", 0), 0);
    auto values = shufl::lines::range_permutation(
        in.n, opts.head, [&engine](std::uint64_t s) { return uniform_below(engine, s); });
    if (opts.keep_order) std::sort(values.begin(), values.end());
    write_items(sink.open(), opts, in, std::span<const std::uint64_t>(values));
  } else {
    const std::uint64_t size = opts.input_range || opts.echo ? in.n : in.data.size();
    if (in.n > (std::uint64_t{1} << 40)) throw error("memory exhausted");
    if (size < (std::uint64_t{1} << 32) && in.n < (std::uint64_t{1} << 32)) {
      scatter_and_write<std::uint32_t>(sink, opts, in, key);
    } else {
      scatter_and_write<std::uint64_t>(sink, opts, in, key);
    }
  }
  sink.finish();
  return 0;
}

}  // namespace

int run(const options& given) {
  // --header N: the first N records are written first, in place; the modes see the rest.
  options opts = given;
  prepared pre;
  std::optional<std::string> first_header_line;  // header line 1 without its delimiter, for field names
  if (opts.header > 0) {
    if (opts.input_range) {
      if (opts.hi - opts.lo + 1 > 0) first_header_line = std::to_string(opts.lo);
      const std::uint64_t n = opts.hi - opts.lo + 1;
      const std::uint64_t k = std::min(opts.header, n);
      const std::uint64_t lo = opts.lo;
      const char d = opts.delimiter;
      pre.header = [lo, k, d](fd_writer& out) {
        for (std::uint64_t i = 0; i < k; ++i) out.write_number(lo + i, d);
      };
      opts.lo += k;
    } else if (opts.echo) {
      const auto k = static_cast<std::size_t>(std::min<std::uint64_t>(opts.header, opts.operands.size()));
      if (k > 0) first_header_line = opts.operands[0];
      std::string text;
      for (std::size_t i = 0; i < k; ++i) (text += opts.operands[i]) += opts.delimiter;
      opts.operands.erase(opts.operands.begin(), opts.operands.begin() + static_cast<std::ptrdiff_t>(k));
      pre.header = [text = std::move(text)](fd_writer& out) { out.write(text); };
    } else {
      pre.input = open_input(opts, pre);
      // The header waits in memory until the output opens: at most half of --memory.
      const std::uint64_t limit = (opts.memory ? *opts.memory : default_memory()) / 2;
      std::optional<shufl::lines::csv_scanner> csv;
      if (opts.csv) csv.emplace(opts.fields_by());
      header_input h = read_header(pre.input->get(), opts.header, opts.delimiter, limit, csv ? &*csv : nullptr);
      if (csv) {
        pre.first_line = csv->record_line();  // header records may span lines
        if (!h.text.empty()) {
          const auto starts = shufl::lines::csv_record_starts(h.text, opts.fields_by());
          first_header_line = std::string(shufl::lines::csv_body(std::string_view(h.text).substr(0, starts[1])));
        }
      } else {
        pre.first_line = opts.header + 1;
        if (!h.text.empty()) first_header_line = h.text.substr(0, h.text.find(opts.delimiter));
      }
      pre.header_bytes = h.text.size();
      pre.pending = std::move(h.pending);
      pre.header = [text = std::move(h.text)](fd_writer& out) { out.write(text); };
    }
  }
  if (opts.names_fields()) {
    if (!first_header_line) {
      throw error(fmt::format("{} {}: the input has no header line to read field names from",
                              opts.weight_field_name ? "--weight-field" : "--key-fields",
                              quote(opts.weight_field_name ? *opts.weight_field_name : *opts.key_field_names)));
    }
    resolve_field_names(opts, *first_header_line);
  }
  return opts.random_source ? run_gnu(opts, pre) : run_chacha(opts, pre);
}

}  // namespace shufl::cli::lines
