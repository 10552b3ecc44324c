// `shufl lines`: opening the input and -o, and reading a whole input into memory (record
// offsets for -r, CSV records for --csv), shared by every mode (run_internal.hpp).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <string>
#include <vector>

#include "run_internal.hpp"
#include "shufl/lines/csv.hpp"

namespace shufl::lines::runner {

int open_or_throw(const std::string& name, int flags) {
  int fd = -1;
  do {
    fd = ::open(name.c_str(), flags | O_CLOEXEC, 0666);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    const int e = errno;  // before quotef, whose multibyte conversions may set errno
    throw error(quotef(name) + ": " + std::strerror(e));
  }
  return fd;
}

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

// A permutation of an -i range is held in RAM, 8 bytes per number (as GNU shuf does). A range
// too large for the memory available fails at once with GNU's message instead of swapping.
void check_range_fits(const options& opts, std::uint64_t n) {
  if (opts.repeat) return;
  const std::uint64_t held = std::min(opts.head, n);
  if (held > default_memory() / 8) throw error("memory exhausted");
}

void write_strings(output_sink& sink, const std::vector<byte_buffer>& records) {
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

bool output_is_input(const options& opts) noexcept {
  if (!opts.output || opts.echo || opts.input_range) return false;
  struct stat out {}, in {};
  if (::stat(opts.output->c_str(), &out) != 0 || !S_ISREG(out.st_mode)) return false;
  const bool from_stdin = opts.operands.empty() || opts.operands[0] == "-";
  if (from_stdin ? ::fstat(STDIN_FILENO, &in) != 0 : ::stat(opts.operands[0].c_str(), &in) != 0) return false;
  return out.st_dev == in.st_dev && out.st_ino == in.st_ino;
}

namespace {
constexpr int kHeldSignals[3] = {SIGHUP, SIGINT, SIGTERM};
volatile std::sig_atomic_t g_held_signal = 0;
extern "C" void note_held_signal(int sig) { g_held_signal = sig; }
}  // namespace

signal_hold::signal_hold() noexcept {
  g_held_signal = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    struct sigaction sa {};
    ::sigaction(kHeldSignals[i], nullptr, &previous_[i]);
    if (previous_[i].sa_handler == SIG_IGN) continue;  // an ignored signal stays ignored (nohup)
    sa.sa_handler = note_held_signal;
    sigemptyset(&sa.sa_mask);
    ::sigaction(kHeldSignals[i], &sa, nullptr);
  }
}

signal_hold::~signal_hold() {
  for (std::size_t i = 0; i < 3; ++i) ::sigaction(kHeldSignals[i], &previous_[i], nullptr);
  if (const int sig = g_held_signal; sig != 0) ::raise(sig);  // ends the run as the signal would have
}

}  // namespace shufl::lines::runner
