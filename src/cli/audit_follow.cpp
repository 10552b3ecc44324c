// `shufl audit --follow` (see audit_follow.hpp and docs/monitor.md).
//
// One thread: the deck reader pulls bytes through follow_source, which waits for more (poll on
// a pipe, a 0.2 s sleep at the end of a regular file) and, while waiting, lets the monitor print
// a status that --interval made due. A stop signal sets a flag; the source notices it (the
// blocking calls return EINTR, the waits are at most 0.2 s) and throws follow_stopped, which
// abandons a partial last line. Every deck goes to the e-process and, a block of decks at a
// time, to the battery's accumulators, so no deck is kept.
#include "audit_follow.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sodium.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "common.hpp"
#include "shufl/audit/monitor.hpp"
#include "shufl/error.hpp"
#include "shufl/json_text.hpp"
#include "shufl/permutation.hpp"
#include "shufl/text_input.hpp"
#include "side_file.hpp"
#include "render/text_escape.hpp"

extern char** environ;

namespace shufl::cli {

namespace {

using clock_type = std::chrono::steady_clock;

// SIGHUP, SIGINT, SIGTERM stop the monitor (the first one is reported); SIGPIPE keeps its
// default (a closed stdout ends the process; side files' temporaries are removed on the way).
volatile std::sig_atomic_t g_follow_signal = 0;

extern "C" void on_follow_signal(int sig) {
  if (g_follow_signal == 0) g_follow_signal = sig;
}

// Installed before any side file exists, so side_file's own handler stays out for these three
// (the run removes its temporaries through the destructors). No SA_RESTART: a blocking read,
// poll, open or sleep returns EINTR. An ignored signal (nohup) stays ignored.
void catch_follow_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_follow_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;
  for (const int sig : {SIGHUP, SIGINT, SIGTERM}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    ::sigaction(sig, &sa, nullptr);
  }
}

// Thrown by the source when a stop signal arrived: unwinds out of the deck reader.
struct follow_stopped {};

constexpr int kWaitMs = 200;  // the longest wait between looks at the stop flag and the clock

// Bytes of the followed input: a pipe or FIFO until its end, a regular file forever (its end is
// only "no more yet"). `idle` runs at every wait.
class follow_source {
 public:
  follow_source(int fd, bool regular, std::string name, std::function<void()> idle)
      : fd_(fd), regular_(regular), name_(std::move(name)), idle_(std::move(idle)) {}

  std::size_t read(char* buffer, std::size_t size) {
    for (;;) {
      if (g_follow_signal != 0) throw follow_stopped{};
      if (!regular_) {
        pollfd p{fd_, POLLIN, 0};
        const int ready = ::poll(&p, 1, kWaitMs);
        if (ready < 0 && errno != EINTR) fail(errno);
        if (ready <= 0) {
          idle_();
          continue;
        }
      }
      const ssize_t got = ::read(fd_, buffer, size);
      if (got > 0) return static_cast<std::size_t>(got);
      if (got < 0) {
        if (errno == EINTR || errno == EAGAIN) continue;
        fail(errno);
      }
      if (!regular_) return 0;  // the writer closed the pipe: the end
      idle_();
      const timespec pause{0, kWaitMs * 1000000L};
      ::nanosleep(&pause, nullptr);  // EINTR: look at the flag at once
    }
  }

 private:
  [[noreturn]] void fail(int e) const { throw error(fmt::format("cannot read {}: {}", name_, std::strerror(e))); }
  int fd_;
  bool regular_;
  std::string name_;
  std::function<void()> idle_;
};

double parse_positive_seconds(const std::string& text) {
  const double s = parse_double("--interval", text);
  if (!(s > 0 && s <= 1e6)) throw error(fmt::format("--interval must be more than 0 and at most 1000000 seconds, not {}", text));
  return s;
}

// p as the status shows it: 4 significant digits, then scientific, then from log10 when the
// double underflows.
std::string format_p(double p, double max_log10) {
  if (p >= 1e-4) return fmt::format("{:.4g}", p);
  if (p > 0) return fmt::format("{:.2e}", p);
  return scientific_from_log10(-max_log10);
}

// A number for the Prometheus text format (Go's ParseFloat reads these; +Inf/-Inf spelled so).
std::string prom_number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  return fmt::format("{}", v);
}

// "/bin/sh -c CMD" with `input` on its stdin and its stdout sent to our stderr (standard
// output carries the status stream). Waits for it. Returns "" on success, else what went wrong.
std::string run_alarm_command(const std::string& command, const std::string& input) {
  const int fd = ::memfd_create("shufl-alarm", MFD_CLOEXEC);
  if (fd < 0) return fmt::format("--on-alarm: cannot prepare its input: {}", std::strerror(errno));
  std::string_view rest = input;
  while (!rest.empty()) {
    const ssize_t w = ::write(fd, rest.data(), rest.size());
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) {
      const int e = errno;
      ::close(fd);
      return fmt::format("--on-alarm: cannot prepare its input: {}", std::strerror(e));
    }
    rest.remove_prefix(static_cast<std::size_t>(w));
  }
  ::lseek(fd, 0, SEEK_SET);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fd, STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  std::string sh = "/bin/sh", dash_c = "-c", cmd = command;
  char* argv[] = {sh.data(), dash_c.data(), cmd.data(), nullptr};
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, "/bin/sh", &actions, &attr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(fd);
  if (rc != 0) return fmt::format("--on-alarm: cannot run /bin/sh: {}", std::strerror(rc));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return fmt::format("--on-alarm: cannot wait for the command: {}", std::strerror(errno));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
  if (WIFEXITED(status)) return fmt::format("--on-alarm command exited with status {}", WEXITSTATUS(status));
  return fmt::format("--on-alarm command was killed by {}", signal_name(WTERMSIG(status)));
}

// A side file rewritten at every status: a fresh temporary renamed into place each time. A
// failure is reported once per file (on stderr) and makes the exit status 1 at the end.
class rewritten_file {
 public:
  rewritten_file(std::string option, std::string path) : option_(std::move(option)), path_(std::move(path)) {
    side_file check(option_, path_);  // fails now, before the work, if it cannot be written
  }
  void write(std::string_view data) {
    std::string message;
    try {
      side_file f(option_, path_);
      message = f.commit(data);
    } catch (const std::exception& e) {
      message = e.what();
    }
    if (message.empty()) return;
    if (!failed_) std::fprintf(stderr, "shufl: %s\n", escape_controls(message).c_str());
    failed_ = true;
  }
  [[nodiscard]] bool failed() const noexcept { return failed_; }

 private:
  std::string option_, path_;
  bool failed_ = false;
};

class monitor {
 public:
  explicit monitor(const follow_cli_options& o) : o_(o) {
    alpha_ = o.alpha ? parse_double("--alpha", *o.alpha) : 0.001;
    if (!(alpha_ > 0 && alpha_ < 1)) throw error(fmt::format("--alpha must be between 0 and 1, not {}", *o.alpha));
    parse_choice("--format", o.format, {"text", "json"});
    json_ = o.format == "json";
    if (o.every) {
      every_ = parse_uint("--every", *o.every);
      if (every_ < 1) throw error("--every must be at least 1");
    }
    if (o.interval) interval_ = parse_positive_seconds(*o.interval);
    if (!o.every && !o.interval) {
      if (isatty(STDOUT_FILENO)) {
        interval_ = 1.0;
      } else {
        every_ = 1000;
      }
    }
    threshold_log10_ = -std::log10(alpha_);
  }

  int run() {
    catch_follow_signals();
    if (!o_.state.empty()) state_file_.emplace("--state", o_.state);
    if (!o_.metrics.empty()) metrics_file_.emplace("--metrics", o_.metrics);
    if (sodium_init() < 0) throw error("libsodium failed to initialise");

    const std::string name = input_display_name(o_.input);
    int fd = STDIN_FILENO;
    if (o_.input != "-") {
      for (;;) {  // a FIFO's open waits for a writer; a stop signal ends the wait
        fd = ::open(o_.input.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd >= 0) break;
        if (errno != EINTR) throw error(fmt::format("cannot open '{}': {}", o_.input, std::strerror(errno)));
        if (g_follow_signal != 0) return stopped_before_any_deck();
      }
    }
    struct closer {
      int fd;
      ~closer() {
        if (fd != STDIN_FILENO) ::close(fd);
      }
    } close_at_end{fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0) throw error(fmt::format("cannot read {}: {}", name, std::strerror(errno)));
    if (S_ISDIR(st.st_mode)) throw error(fmt::format("cannot read {}: {}", name, std::strerror(EISDIR)));
    regular_ = S_ISREG(st.st_mode);
    input_id_ = regular_ ? fmt::format("{}:{}", static_cast<unsigned long long>(st.st_dev),
                                       static_cast<unsigned long long>(st.st_ino))
                         : std::string();
    follow_source source(fd, regular_, name, [this] { idle(); });
    text_reader in(text_reader::byte_source([&source](char* b, std::size_t n) { return source.read(b, n); }), name);
    crypto_hash_sha256_init(&sha_);
    in.observe_bytes([this](std::string_view b) {
      crypto_hash_sha256_update(&sha_, reinterpret_cast<const unsigned char*>(b.data()), b.size());
      bytes_ += b.size();
    });
    audit::deck_reader reader(in, o_.reader);
    reader_ = &reader;
    const auto& r = o_.reader;
    if (r.pack || !r.custom_labels.empty() || r.decks != 1 || r.jokers != 0) start_process(audit::make_audit_pack(r));

    next_time_ = clock_type::now() + interval_duration();
    std::vector<std::uint32_t> faces;
    std::string reason = "end of input";
    for (;;) {
      bool more = false;
      try {
        more = reader.next(faces);
      } catch (const follow_stopped&) {
        more = false;
      }
      if (more) {
        if (!e_) {
          if (!reader.inference_note().empty()) std::fprintf(stderr, "shufl %s\n", reader.inference_note().c_str());
          start_process(reader.pack());
        }
        if (!battery_) start_battery(reader.pack(), faces.size());
        if (reader.line_number() <= resume_lines_) {
          // This file's decks up to the state's line are in the restored e-process already.
          if (!resume_told_) {
            std::fprintf(stderr, "shufl audit: %s: its first %llu lines are in the state already: resuming after them\n",
                         quote(o_.input).c_str(), static_cast<unsigned long long>(resume_lines_));
            resume_told_ = true;
          }
          if (g_follow_signal != 0) {
            reason = signal_name(g_follow_signal);
            break;
          }
          continue;
        }
        e_->add_deck(faces);
        add_to_battery(faces);
        ++run_decks_;
        if (!alarmed_ && e_->crossed(alpha_)) {
          alarm();
          if (!o_.keep_going) {
            reason = "alarm";
            break;
          }
        }
        if (every_ != 0 && e_->decks() % every_ == 0) {
          status();
        } else if (interval_ > 0 && clock_type::now() >= next_time_) {
          status();
        }
      }
      if (g_follow_signal != 0) {
        reason = signal_name(g_follow_signal);
        break;
      }
      if (!more) break;
    }
    if (!e_) {
      if (reason == "end of input") throw error(fmt::format("{}: no decks in the input", name));
      return stopped_before_any_deck();
    }
    return finish(reader, reason);
  }

 private:
  std::chrono::nanoseconds interval_duration() const {
    return std::chrono::nanoseconds(static_cast<std::int64_t>((interval_ > 0 ? interval_ : 1e6) * 1e9));
  }

  void start_process(const audit::audit_pack& pack) {
    e_.emplace(pack);
    if (o_.state.empty()) return;
    struct stat st {};
    if (::stat(o_.state.c_str(), &st) != 0 && errno == ENOENT) {
      std::fprintf(stderr, "shufl audit: %s does not exist yet: a new e-process starts\n",
                   quote(o_.state).c_str());
      return;
    }
    std::string text = read_text_file(o_.state, std::uint64_t{1} << 30);
    // The monitor's own record beside the e-process: which regular file (device:inode) it
    // followed and through which line, so a restart on the same file does not add its decks
    // twice (a pipe or another file is read whole: its decks are new).
    try {
      auto j = nlohmann::json::parse(text);
      if (j.is_object() && j.contains("follow_input")) {
        const auto f = j["follow_input"];
        j.erase("follow_input");
        text = j.dump();
        if (f.is_object() && f.value("id", std::string()) == input_id_ && !input_id_.empty()) {
          resume_lines_ = f.value("lines", std::uint64_t{0});
        } else if (f.is_object() && f.value("lines", std::uint64_t{0}) > 0) {
          std::fprintf(stderr, "shufl audit: the state's decks came from another input than %s: it is read from its start\n",
                       quote(o_.input).c_str());
        }
      }
    } catch (const nlohmann::json::exception&) {
      // not JSON: the library's reader says what is wrong
    }
    try {
      e_->deserialize(text);
    } catch (const error& e) {
      throw error(fmt::format("--state '{}': {}", o_.state, e.what()));
    }
  }

  void start_battery(const audit::audit_pack& pack, std::size_t dealt) {
    shape_ = audit::make_shape(pack, dealt);
    audit::set_game(shape_, pack, o_.game);
    battery_.emplace(shape_);
    k_ = shape_.positions;
    block_.assign(kBlock * k_, 0);
    previous_.assign(k_, 0);
  }

  void add_to_battery(const std::vector<std::uint32_t>& faces) {
    std::memcpy(block_.data() + in_block_ * k_, faces.data(), k_ * sizeof(std::uint32_t));
    if (++in_block_ == kBlock) flush_battery();
  }

  void flush_battery() {
    if (in_block_ == 0) return;
    battery_->add_block(block_.data(), in_block_, has_previous_ ? previous_.data() : nullptr, block_index_);
    std::memcpy(previous_.data(), block_.data() + (in_block_ - 1) * k_, k_ * sizeof(std::uint32_t));
    has_previous_ = true;
    block_index_ += in_block_;
    in_block_ = 0;
  }

  // While the source waits: a status that --interval made due (only when decks came since the
  // last one: an idle monitor stays quiet).
  void idle() {
    if (e_ && interval_ > 0 && e_->decks() != last_status_decks_ && clock_type::now() >= next_time_) status();
  }

  nlohmann::ordered_json status_json(const audit::e_process::status& s, const char* type) const {
    nlohmann::ordered_json j;
    j["type"] = type;
    j["decks"] = s.decks;
    j["decks_this_run"] = run_decks_;
    nlohmann::ordered_json e = nlohmann::ordered_json::object();
    for (const auto& [predictor, value] : s.log10_e) e[predictor] = value;
    j["log10_e"] = std::move(e);
    j["log10_e_mixture"] = s.log10_mixture;
    j["max_log10_e_mixture"] = s.max_log10_mixture;
    j["anytime_p"] = s.anytime_p;
    j["log10_anytime_p"] = std::min(0.0, -s.max_log10_mixture);
    j["leader"] = s.leader;
    j["evidence"] = s.evidence;
    j["alpha"] = alpha_;
    j["alarm"] = alarmed_;
    return j;
  }

  std::string status_text(const audit::e_process::status& s) const {
    std::string out = fmt::format("decks {}  log10 e:", s.decks);
    for (const auto& [predictor, value] : s.log10_e) out += fmt::format(" {} {:.2f}", predictor, value);
    out += fmt::format("  mixture {:.2f} (alarm at {:.2f})  p {}  leader {}\n", s.log10_mixture, threshold_log10_,
                       format_p(s.anytime_p, s.max_log10_mixture), s.leader);
    return out;
  }

  void emit(const std::string& line) {
    write_stdout(line);
    finish_stdout();  // flushed at once: a log collector or a terminal sees every status as it comes
  }

  void status() {
    const auto s = e_->current();
    emit(json_ ? status_json(s, "status").dump() + "\n" : status_text(s));
    write_side_files(s);
    last_status_decks_ = s.decks;
    next_time_ = clock_type::now() + interval_duration();
  }

  void write_side_files(const audit::e_process::status& s) {
    if (state_file_) {
      auto j = nlohmann::ordered_json::parse(e_->serialize());
      const std::uint64_t lines = reader_ != nullptr ? std::max(reader_->line_number(), resume_lines_) : resume_lines_;
      j["follow_input"] = {{"id", input_id_}, {"lines", regular_ ? lines : 0}};
      state_file_->write(j.dump() + "\n");
    }
    if (metrics_file_) metrics_file_->write(metrics_text(s));
  }

  std::string metrics_text(const audit::e_process::status& s) const {
    std::string m;
    const auto metric = [&m](const char* name, const char* type, const char* help) {
      m += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
    };
    metric("shufl_audit_decks_total", "counter", "Decks added to the monitor's e-process (restored states included).");
    m += fmt::format("shufl_audit_decks_total {}\n", s.decks);
    metric("shufl_audit_log10_e", "gauge", "log10 of the e-value of each predictor and of their mixture.");
    for (const auto& [predictor, value] : s.log10_e) {
      m += fmt::format("shufl_audit_log10_e{{predictor=\"{}\"}} {}\n", predictor, prom_number(value));
    }
    m += fmt::format("shufl_audit_log10_e{{predictor=\"mixture\"}} {}\n", prom_number(s.log10_mixture));
    metric("shufl_audit_max_log10_e_mixture", "gauge", "Largest log10 e-value of the mixture after any deck so far.");
    m += fmt::format("shufl_audit_max_log10_e_mixture {}\n", prom_number(s.max_log10_mixture));
    metric("shufl_audit_anytime_p", "gauge", "Anytime-valid p-value, min(1, 1/max e-value of the mixture).");
    m += fmt::format("shufl_audit_anytime_p {}\n", prom_number(s.anytime_p));
    metric("shufl_audit_alarm_threshold_log10_e", "gauge", "log10(1/alpha): the alarm level of the mixture.");
    m += fmt::format("shufl_audit_alarm_threshold_log10_e {}\n", prom_number(threshold_log10_));
    metric("shufl_audit_alarm", "gauge", "1 once the mixture has reached 1/alpha, else 0.");
    m += fmt::format("shufl_audit_alarm {}\n", alarmed_ ? 1 : 0);
    return m;
  }

  void alarm() {
    alarmed_ = true;
    const auto s = e_->current();
    nlohmann::ordered_json j = status_json(s, "alarm");
    j["threshold_log10_e"] = threshold_log10_;
    j["input"] = json_text<nlohmann::ordered_json>(o_.input);
    if (json_) {
      emit(j.dump() + "\n");
    } else {
      emit(escape_controls(fmt::format(
               "ALARM after {} decks: the mixture's e-value reached 10^{:.2f} >= 1/alpha = 10^{:.2f} (anytime p {}); "
               "leader {}: {}",
               s.decks, s.log10_mixture, threshold_log10_, format_p(s.anytime_p, s.max_log10_mixture), s.leader,
               s.evidence)) +
           "\n");
    }
    write_side_files(s);
    last_status_decks_ = s.decks;
    if (!o_.on_alarm.empty()) {
      const std::string failure = run_alarm_command(o_.on_alarm, j.dump() + "\n");
      if (!failure.empty()) std::fprintf(stderr, "shufl: %s\n", escape_controls(failure).c_str());
    }
  }

  int stopped_before_any_deck() {
    std::fprintf(stderr, "shufl audit: stopped by %s before the first deck\n",
                 signal_name(g_follow_signal == 0 ? SIGINT : g_follow_signal).c_str());
    return exit_ok;
  }

  int finish(const audit::deck_reader& reader, const std::string& reason) {
    const auto s = e_->current();
    std::optional<audit::audit_report> report;
    if (battery_ && battery_->decks() + in_block_ > 0) {
      flush_battery();
      audit::audit_report r;
      r.tests = battery_->evaluate();
      r.decks = battery_->decks();
      r.decision = audit::decide(r.tests, r.decks, alpha_);
      r.pack = reader.pack().name;
      r.pack_description = reader.pack().cards.description;
      r.cards = shape_.cards;
      r.positions = shape_.positions;
      r.skipped = reader.skipped();
      r.skip_reasons = reader.skip_reasons();
      report = std::move(r);
    }
    unsigned char digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256_final(&sha_, digest);
    std::string sha256;
    for (const unsigned char c : digest) sha256 += fmt::format("{:02x}", c);
    if (json_) {
      nlohmann::ordered_json j = status_json(s, "final");
      j["reason"] = reason;
      j["report"] = report ? o_.json_report(*report, reader.pack(), o_.input, sha256, bytes_)
                           : nlohmann::ordered_json(nullptr);
      emit(j.dump() + "\n");
    } else {
      std::string out = fmt::format("final ({}): {}", reason, status_text(s));
      out += report ? "\n" + o_.text_report(*report, input_display_name(o_.input), sha256, bytes_)
                    : "no decks in this run: no battery report\n";
      emit(out);
    }
    write_side_files(s);
    const bool failed = alarmed_ || (report && !report->decision.pass);
    const bool side_failed = (state_file_ && state_file_->failed()) || (metrics_file_ && metrics_file_->failed());
    return side_failed ? exit_error : failed ? exit_audit_failed : exit_ok;
  }

  static constexpr std::size_t kBlock = 1024;  // decks per battery block

  const follow_cli_options& o_;
  double alpha_ = 0.001;
  double threshold_log10_ = 3;
  bool json_ = false;
  std::uint64_t every_ = 0;
  double interval_ = 0;
  clock_type::time_point next_time_{};
  std::optional<rewritten_file> state_file_, metrics_file_;
  std::optional<audit::e_process> e_;
  audit::battery_shape shape_;
  std::optional<audit::battery> battery_;
  std::size_t k_ = 0, in_block_ = 0;
  std::vector<std::uint32_t> block_, previous_;
  bool has_previous_ = false;
  std::uint64_t block_index_ = 0;
  std::uint64_t run_decks_ = 0;
  std::uint64_t last_status_decks_ = ~std::uint64_t{0};
  bool alarmed_ = false;
  crypto_hash_sha256_state sha_{};
  std::uint64_t bytes_ = 0;
  // --state on a regular file: its identity (device:inode), and the lines a restored state
  // holds already (skipped on this run).
  bool regular_ = false;
  std::string input_id_;
  std::uint64_t resume_lines_ = 0;
  bool resume_told_ = false;
  const audit::deck_reader* reader_ = nullptr;
};

}  // namespace

int run_follow(const follow_cli_options& options) {
  monitor m(options);
  return m.run();
}

}  // namespace shufl::cli
