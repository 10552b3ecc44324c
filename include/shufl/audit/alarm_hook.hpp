// The monitor's alarm hook (`shufl audit --follow --on-alarm CMD`, docs/monitor.md): a shell
// command that receives the alarm, run so that it cannot hold the monitor longer than allowed.
#pragma once

#include <string>

namespace shufl::audit {

/// Runs "/bin/sh -c `command`" with `input` on its standard input and its standard output sent
/// to this process's standard error (standard output carries the status stream), in its own
/// process group, and waits for it. With `timeout` > 0 seconds the wait is bounded: at the
/// timeout the group gets SIGTERM, 2 s later SIGKILL (looked at every 10 ms while it runs).
/// Returns "" when it exited with status 0, else what went wrong ("--on-alarm command exited
/// with status 2", "... did not end within 30 s: stopped"); never throws for the command's
/// failure.
std::string run_alarm_command(const std::string& command, const std::string& input, double timeout);

}  // namespace shufl::audit
