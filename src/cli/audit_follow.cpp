// `shufl audit --follow` (see audit_follow.hpp and docs/monitor.md): the options, the input and
// side files, the stop signals and the --on-alarm command. The loop is the library's
// (shufl/audit/follow.hpp); the texts are render's (render/follow_output.hpp).
#include "audit_follow.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

#include "common.hpp"
#include "render/follow_groups_output.hpp"
#include "render/follow_output.hpp"
#include "render/text_escape.hpp"
#include "shufl/audit/follow.hpp"
#include "shufl/error.hpp"
#include "shufl/text_input.hpp"
#include "side_file.hpp"

extern char** environ;

namespace shufl::cli {

namespace {

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

double parse_positive_seconds(const std::string& text) {
  const double s = parse_double("--interval", text);
  if (!(s > 0 && s <= 1e6)) throw error(fmt::format("--interval must be more than 0 and at most 1000000 seconds, not {}", text));
  return s;
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

// Shows and stores what the library's loop reports.
class follow_output final : public audit::follow_events {
 public:
  explicit follow_output(const follow_cli_options& o) : o_(o), json_(o.format == "json") {
    if (!o.state.empty()) state_file_.emplace("--state", o.state);
    if (!o.metrics.empty()) metrics_file_.emplace("--metrics", o.metrics);
  }

  void note(audit::follow_note kind, const std::string& text, std::uint64_t lines) override {
    std::fputs(follow_note_text(kind, text, lines, o_.input, o_.state).c_str(), stderr);
  }
  void status(const audit::follow_status& s) override {
    emit(json_ ? follow_status_json(s, "status").dump() + "\n" : follow_status_text(s));
  }
  void alarm(const audit::follow_status& s) override {
    const auto j = follow_alarm_json(s, o_.input);
    emit(json_ ? j.dump() + "\n" : follow_alarm_text(s));
    alarm_json_ = j.dump() + "\n";
  }
  void groups(const std::vector<audit::follow_group_record>& records) override { records_ = records; }
  void save(const audit::follow_status& s, const std::string& state) override {
    if (state_file_) state_file_->write(state);
    if (metrics_file_) {
      metrics_file_->write(s.grouped ? follow_group_metrics_text(records_, s.detector.log10_threshold)
                                     : follow_metrics_text(s));
    }
    if (!alarm_json_.empty() && !o_.on_alarm.empty()) {  // the alarm's side files first, then its command
      const std::string failure = run_alarm_command(o_.on_alarm, alarm_json_);
      if (!failure.empty()) std::fprintf(stderr, "shufl: %s\n", escape_controls(failure).c_str());
    }
    alarm_json_.clear();
  }
  void final(const audit::follow_final& f) override {
    const std::string reason = f.end == audit::follow_end::end_of_input ? "end of input"
                               : f.end == audit::follow_end::alarm      ? "alarm"
                                                                        : signal_name(f.stop_signal);
    if (f.status.grouped) return emit(follow_groups_final(f, reason, o_.input, json_));
    if (json_) {
      nlohmann::ordered_json j = follow_status_json(f.status, "final");
      j["reason"] = reason;
      j["report"] = f.report ? o_.json_report(*f.report, *f.pack, o_.input, f.sha256, f.bytes)
                             : nlohmann::ordered_json(nullptr);
      emit(j.dump() + "\n");
    } else {
      std::string out = follow_final_text(f.status, reason);
      out += f.report ? "\n" + o_.text_report(*f.report, input_display_name(o_.input), f.sha256, f.bytes)
                      : "no decks in this run: no battery report\n";
      emit(out);
    }
  }
  [[nodiscard]] bool side_failed() const {
    return (state_file_ && state_file_->failed()) || (metrics_file_ && metrics_file_->failed());
  }

 private:
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
  std::optional<rewritten_file> state_file_, metrics_file_;
  std::string alarm_json_;
  std::vector<audit::follow_group_record> records_;
};

int stopped_before_any_deck() {
  std::fprintf(stderr, "shufl audit: stopped by %s before the first deck\n",
               signal_name(g_follow_signal == 0 ? SIGINT : g_follow_signal).c_str());
  return exit_ok;
}

}  // namespace

int run_follow(const follow_cli_options& o) {
  audit::follow_settings s;
  s.alpha = o.alpha ? parse_double("--alpha", *o.alpha) : 0.001;
  if (!(s.alpha > 0 && s.alpha < 1)) throw error(fmt::format("--alpha must be between 0 and 1, not {}", *o.alpha));
  parse_choice("--format", o.format, {"text", "json"});
  if (o.every) {
    s.every = parse_uint("--every", *o.every);
    if (s.every < 1) throw error("--every must be at least 1");
  }
  if (o.interval) s.interval = parse_positive_seconds(*o.interval);
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

  catch_follow_signals();
  follow_output out(o);
  s.name = input_display_name(o.input);
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
    if (!(::stat(o.state.c_str(), &st) != 0 && errno == ENOENT)) s.state_text = read_text_file(o.state, std::uint64_t{1} << 30);
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
