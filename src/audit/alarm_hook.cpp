// The monitor's alarm hook (include/shufl/audit/alarm_hook.hpp).
#include "shufl/audit/alarm_hook.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <string_view>

extern char** environ;

namespace shufl::audit {

namespace {

std::string signal_text(int sig) {
  const char* abbrev = ::sigabbrev_np(sig);
  return abbrev != nullptr ? fmt::format("SIG{}", abbrev) : fmt::format("signal {}", sig);
}

}  // namespace

std::string run_alarm_command(const std::string& command, const std::string& input, double timeout) {
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
  // Its own process group, so a timeout stops the shell and what it started.
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
  std::string sh = "/bin/sh", dash_c = "-c", cmd = command;
  char* argv[] = {sh.data(), dash_c.data(), cmd.data(), nullptr};
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, "/bin/sh", &actions, &attr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(fd);
  if (rc != 0) return fmt::format("--on-alarm: cannot run /bin/sh: {}", std::strerror(rc));
  int status = 0;
  if (timeout > 0) {
    // Bounded: SIGTERM to its process group at the timeout, SIGKILL 2 s later. Looked at every
    // 10 ms (only while an alarm's command runs).
    const auto start = std::chrono::steady_clock::now();
    bool termed = false;
    for (;;) {
      const pid_t got = ::waitpid(pid, &status, WNOHANG);
      if (got == pid) break;
      if (got < 0 && errno != EINTR) return fmt::format("--on-alarm: cannot wait for the command: {}", std::strerror(errno));
      const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (!termed && waited >= timeout) {
        ::kill(-pid, SIGTERM);
        termed = true;
      } else if (termed && waited >= timeout + 2) {
        ::kill(-pid, SIGKILL);
      }
      const timespec pause{0, 10 * 1000000L};
      ::nanosleep(&pause, nullptr);
    }
    if (termed) return fmt::format("--on-alarm command did not end within {} s: stopped", timeout);
  } else {
    while (::waitpid(pid, &status, 0) < 0) {
      if (errno != EINTR) return fmt::format("--on-alarm: cannot wait for the command: {}", std::strerror(errno));
    }
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
  if (WIFEXITED(status)) return fmt::format("--on-alarm command exited with status {}", WEXITSTATUS(status));
  return fmt::format("--on-alarm command was killed by {}", signal_text(WTERMSIG(status)));
}

}  // namespace shufl::audit
