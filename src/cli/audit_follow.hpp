// `shufl audit --follow`: the monitor on a live stream of decks (docs/monitor.md). Reads decks as
// they arrive (a pipe or FIFO until its end; a regular file followed like `tail -f`), adds each to
// the e-process of shufl/audit/monitor.hpp and to the batch battery's accumulators, prints a
// status every --every N decks or --interval S seconds (text or JSON Lines), raises the alarm at
// --arl (--on-alarm CMD, exit 3; --keep-going restarts the detector), keeps --state and --metrics side files,
// and ends (end of input, SIGINT, SIGTERM) with a final status and the battery's report; SIGHUP
// reopens a followed file.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "shufl/audit.hpp"
#include "shufl/audit/deck_reader.hpp"

namespace shufl::cli {

/// The options of --follow as a service (docs/monitor.md, "Running it as a service").
struct follow_service_options {
  std::optional<std::string> on_alarm_timeout;  ///< --on-alarm-timeout S (none: wait for the command)
  std::optional<std::string> metrics_interval;  ///< --metrics-interval S (default 60)
  std::vector<std::string> metrics_labels;      ///< --metrics-label K=V, repeatable
};

/// Adds those options to the audit subcommand (texts checked by run_follow).
void add_follow_service_options(CLI::App& sub, follow_service_options& o);

/// What the audit command parsed for --follow (option texts are checked by run_follow).
struct follow_cli_options {
  std::string input = "-";              ///< FILE or "-"
  audit::reader_options reader;         ///< --pack, --decks, --jokers, --cards-file, --dealt, --skip-bad, --group-by
  std::size_t max_groups = 10000;       ///< --max-groups
  std::optional<std::string> alpha;     ///< --alpha (default 0.001 here)
  audit::game_deal game;                ///< --game and --deal (battery only)
  std::string format = "text";          ///< --format text|json (JSON Lines)
  std::optional<std::string> every;     ///< --every N
  std::optional<std::string> interval;  ///< --interval S
  std::string on_alarm;                 ///< --on-alarm CMD (empty: none)
  bool keep_going = false;              ///< --keep-going
  std::optional<std::string> arl;       ///< --arl DECKS (default 1e9)
  bool reset_alarm = false;             ///< --reset-alarm
  std::string state;                    ///< --state FILE (empty: none)
  std::string metrics;                  ///< --metrics FILE (empty: none)
  follow_service_options service;       ///< --on-alarm-timeout, --metrics-label, --metrics-interval
};

/// Runs the monitor; returns the exit status (0; 3 when the detector alarmed; 6 when the final
/// battery failed without an alarm; 1 when a side file could not be written). Throws shufl::error on bad options or
/// input (before or during the run).
int run_follow(const follow_cli_options& options);

}  // namespace shufl::cli
