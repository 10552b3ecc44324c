// `shufl audit --follow` (see audit_follow.hpp and docs/monitor.md): the options, the input and
// side files, the stop signals and the --on-alarm command. The loop is the library's
// (shufl/audit/follow.hpp); the texts are render's (render/follow_output.hpp).
#include "audit_follow.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

#include "choices.hpp"
#include "common.hpp"
#include "render/follow_groups_output.hpp"
#include "render/follow_output.hpp"
#include "render/text_escape.hpp"
#include "shufl/audit/alarm_hook.hpp"
#include "shufl/audit/follow.hpp"
#include "shufl/error.hpp"
#include "shufl/text_input.hpp"
#include "shufl/version.hpp"
#include "shufl/io/side_file.hpp"

namespace shufl::cli {

namespace {

// SIGINT and SIGTERM stop the monitor (the first one is reported); SIGHUP asks it to reopen a
// followed file. Each wakes the loop's wait at once. SIGPIPE keeps its default (a closed stdout
// ends the process; side files' temporaries are removed on the way).
volatile std::sig_atomic_t g_follow_signal = 0;
volatile std::sig_atomic_t g_follow_reopen = 0;

extern "C" void on_follow_signal(int sig) {
  if (sig == SIGHUP) {
    g_follow_reopen = 1;
  } else if (g_follow_signal == 0) {
    g_follow_signal = sig;
  }
  audit::follow_wake::notify();
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

double parse_positive_seconds(const char* option, const std::string& text) {
  const double s = parse_double(option, text);
  if (!(s > 0 && s <= 1e6)) throw error(fmt::format("{} must be more than 0 and at most 1000000 seconds, not {}", option, text));
  return s;
}

// Shows and stores what the library's loop reports.
class follow_output final : public audit::follow_events {
 public:
  follow_output(const follow_cli_options& o, follow_metrics_info info, double alarm_timeout)
      : o_(o), json_(o.format == "json"), metrics_info_(std::move(info)), alarm_timeout_(alarm_timeout) {
    if (!o.state.empty()) state_file_.emplace("--state", o.state);
    if (!o.metrics.empty()) metrics_file_.emplace("--metrics", o.metrics);
  }

  void note(audit::follow_note kind, const std::string& text, std::uint64_t lines) override {
    std::fputs(follow_note_text(kind, text, lines, o_.input, o_.state).c_str(), stderr);
  }
  void status(const audit::follow_status& s) override { emit(follow_status_line(s, json_)); }
  void alarm(const audit::follow_status& s) override {
    follow_alarm_lines a = follow_alarm_output(s, o_.input, json_);
    emit(a.line);
    alarm_json_ = std::move(a.hook);
  }
  void save(const audit::follow_status&, const std::string& state) override {
    if (state_file_) tell(state_file_->write(state));
  }
  void metrics(const audit::follow_metrics_record& r) override {
    metrics_info_.pack = r.pack;
    if (metrics_file_) tell(metrics_file_->write(follow_metrics_text(metrics_info_, r.groups, r.skipped_lines, r.now)));
    if (!alarm_json_.empty() && !o_.on_alarm.empty()) {  // the alarm's side files first, then its command
      tell(audit::run_alarm_command(o_.on_alarm, alarm_json_, alarm_timeout_));
    }
    alarm_json_.clear();
  }
  void final(const audit::follow_final& f) override {
    const std::string reason = follow_end_reason(f);
    if (f.status.grouped) return emit(follow_groups_final(f, reason, o_.input, json_));
    emit(follow_final_output(f, reason, o_.input, json_));
  }
  [[nodiscard]] bool side_failed() const {
    return (state_file_ && state_file_->failed()) || (metrics_file_ && metrics_file_->failed());
  }

 private:
  static void tell(const std::string& failure) {
    if (!failure.empty()) std::fprintf(stderr, "shufl: %s\n", escape_controls(failure).c_str());
  }
  // Straight to the descriptor, flushed at once (a log collector or a terminal sees every
  // status as it comes). A stop signal while a full pipe blocks the write interrupts it (no
  // SA_RESTART): the write is retried, so the final report still comes.
  static void emit(const std::string& line) {
    finish_stdout();  // anything stdio holds goes first
    std::string_view rest = line;
    while (!rest.empty()) {
      const ssize_t w = ::write(STDOUT_FILENO, rest.data(), rest.size());
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) throw error(fmt::format("write error: {}", std::strerror(errno)));
      rest.remove_prefix(static_cast<std::size_t>(w));
    }
  }

  const follow_cli_options& o_;
  bool json_;
  std::optional<io::rewritten_file> state_file_, metrics_file_;
  std::string alarm_json_;
  follow_metrics_info metrics_info_;
  double alarm_timeout_ = 0;
};

int stopped_before_any_deck() {
  std::fprintf(stderr, "shufl audit: stopped by %s before the first deck\n",
               io::signal_name(g_follow_signal == 0 ? SIGINT : g_follow_signal).c_str());
  return exit_ok;
}

}  // namespace

void add_follow_service_options(CLI::App& sub, follow_service_options& o) {
  sub.add_option_function<std::string>("--on-alarm-timeout", [&o](const std::string& v) { o.on_alarm_timeout = v; },
                                       "With --follow: stop the --on-alarm command after S seconds")->type_name("S");
  sub.add_option("--metrics-label", o.metrics_labels, "With --follow: a label K=V on every metric (repeatable)")->type_name("K=V");
  sub.add_option_function<std::string>("--metrics-interval", [&o](const std::string& v) { o.metrics_interval = v; },
                                       "With --follow: rewrite --metrics at least every S seconds, idle too (default 60)")
      ->type_name("S");
}

int run_follow(const follow_cli_options& o) {
  audit::follow_settings s;
  s.alpha = o.alpha ? parse_double("--alpha", *o.alpha) : 0.001;
  if (!(s.alpha > 0 && s.alpha < 1)) throw error(fmt::format("--alpha must be between 0 and 1, not {}", *o.alpha));
  parse_choice("--format", o.format, choices::text_json);
  if (o.every) {
    s.every = parse_uint("--every", *o.every);
    if (s.every < 1) throw error("--every must be at least 1");
  }
  if (o.interval) s.interval = parse_positive_seconds("--interval", *o.interval);
  const double alarm_timeout = o.service.on_alarm_timeout ? parse_positive_seconds("--on-alarm-timeout", *o.service.on_alarm_timeout) : 0;
  if (o.service.on_alarm_timeout && o.on_alarm.empty()) throw error("--on-alarm-timeout applies to --on-alarm");
  const double metrics_interval = o.service.metrics_interval ? parse_positive_seconds("--metrics-interval", *o.service.metrics_interval) : 60;
  if ((o.service.metrics_interval || !o.service.metrics_labels.empty()) && o.metrics.empty())
    throw error(fmt::format("{} applies to --metrics", o.service.metrics_interval ? "--metrics-interval" : "--metrics-label"));
  follow_metrics_info info;
  info.version = SHUFL_VERSION;
  info.labels = render::parse_metrics_labels(o.service.metrics_labels);
  s.metrics_interval = o.metrics.empty() ? 0 : metrics_interval;
  if (o.arl) {
    s.arl = parse_double("--arl", *o.arl);
    if (!(s.arl > 1 && s.arl <= 1e300)) throw error(fmt::format("--arl must be a number of decks above 1, not {}", *o.arl));
  }
  s.reset_alarm = o.reset_alarm;
  if (!o.every && !o.interval) {
    if (isatty(STDOUT_FILENO)) {
      s.interval = 1.0;
    } else {
      s.every = 1000;
    }
  }
  s.reader = o.reader;
  s.max_groups = o.max_groups;
  s.game = o.game;
  s.keep_going = o.keep_going;
  s.keep_state = !o.state.empty();
  s.stop = [] { return static_cast<int>(g_follow_signal); };
  s.reopen = [] { const bool asked = g_follow_reopen != 0; g_follow_reopen = 0; return asked; };  // once per SIGHUP (or burst)

  const audit::follow_wake wake;
  s.wake_fd = wake.fd();
  catch_follow_signals();
  follow_output out(o, info, alarm_timeout);
  s.name = input_display_name(o.input);
  if (o.input != "-") s.path = o.input;
  int fd = STDIN_FILENO;
  if (o.input != "-") {
    for (;;) {  // a FIFO's open waits for a writer; a stop signal ends the wait
      fd = ::open(o.input.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd >= 0) break;
      if (errno != EINTR) throw error(fmt::format("cannot open '{}': {}", o.input, std::strerror(errno)));
      if (g_follow_signal != 0) return stopped_before_any_deck();
    }
  }
  struct closer {
    int fd;
    ~closer() {
      if (fd != STDIN_FILENO) ::close(fd);
    }
  } close_at_end{fd};
  s.fd = fd;
  if (s.keep_state) {
    struct stat st {};
    if (!(::stat(o.state.c_str(), &st) != 0 && errno == ENOENT)) s.state_text = read_file_bytes(o.state, std::uint64_t{1} << 30);  // checked as a state
  }
  const audit::follow_outcome r = audit::follow(s, out, o.state);
  if (!r.any_deck) return stopped_before_any_deck();
  // 3 is the detector's alarm and nothing else (its average run length holds across restarts);
  // a failed end-of-run battery without an alarm is 6.
  constexpr int exit_battery_failed = 6;
  if (out.side_failed()) return exit_error;
  return r.alarmed ? exit_audit_failed : r.battery_failed ? exit_battery_failed : exit_ok;
}

}  // namespace shufl::cli
