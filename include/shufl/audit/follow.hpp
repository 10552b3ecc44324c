// The live monitor's loop (`shufl audit --follow`, docs/monitor.md), callable without the
// command line: it reads decks from a file descriptor as they arrive (a pipe or FIFO until its
// writer closes it; a regular file followed like `tail -f`, looked at again every 0.2 s at its
// end), adds each deck to the e-process of shufl/audit/monitor.hpp and to the batch battery's
// accumulators (a block of 1,024 decks at a time, so no deck is kept), decides when a status is
// due (every N decks and/or every S seconds while decks come), raises the alarm, keeps the state
// document, and at the end evaluates the battery on the decks of this run.
//
// What the caller shows or stores goes through follow_events: statuses, the alarm, the state
// document to save, notes, and the final record (src/render/follow_output.hpp makes the texts).
// The caller owns the descriptor, the side files and the signals. With a `wake_fd` (a pipe a
// signal handler writes a byte to) the waits block until bytes come, a signal, or the next
// status or metrics write the clock makes due: a quiet monitor uses no CPU. Without one, `stop`
// and `reopen` are looked at every 0.2 s. A regular file is followed across rotations
// (src/audit/follow_source.hpp: copytruncate, rename; `reopen` makes the check at once).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "shufl/audit.hpp"
#include "shufl/audit/deck_reader.hpp"
#include "shufl/audit/detector.hpp"
#include "shufl/audit/follow_groups.hpp"
#include "shufl/audit/groups.hpp"
#include "shufl/audit/monitor.hpp"

namespace shufl::audit {

/// What a run of the monitor is told.
struct follow_settings {
  int fd = 0;                        ///< the input, open for reading (not owned, not closed)
  std::string name;                  ///< the input as messages name it ("standard input", a path)
  std::string path;                  ///< the followed file's path, for rotation ("": standard input)
  int wake_fd = -1;                  ///< readable after a signal (non-blocking; drained by the loop); -1: none
  reader_options reader;             ///< pack, deal length, --skip-bad, --group-by (group_field)
  std::size_t max_groups = default_max_groups;  ///< --max-groups: the most groups (with group_field)
  game_deal game;                    ///< the battery's game tests
  double alpha = 0.001;              ///< the battery's level (and the since-start evidence's scale)
  double arl = 1e9;                  ///< the detector's threshold A: average run length to a false alarm >= A decks
  bool reset_alarm = false;          ///< a restored state's alarm is cleared (the detector restarts from 0)
  std::uint64_t every = 0;           ///< a status every N decks in the e-process (0: none)
  double interval = 0;               ///< a status every S seconds while decks come (0: none)
  bool keep_going = false;           ///< after each alarm, restart the detector from 0 and go on
  bool keep_state = false;           ///< make the state document at every status (--state)
  /// The text of a saved state (nullopt: none, or the file does not exist yet).
  std::optional<std::string> state_text;
  /// 0 while the run should go on; a signal number (or any non-zero) to stop it.
  std::function<int()> stop;
  /// true once per request to reopen the followed file (SIGHUP); may be empty.
  std::function<bool()> reopen;
  /// Seconds between metrics records while nothing else makes one (0: only with statuses).
  double metrics_interval = 0;
  /// Decks remembered in the state (as 64-bit hashes) to skip a restarted pipe's overlap.
  std::size_t overlap_decks = 64;
};

/// One status of the monitor (also the alarm's and the final one's): of one group with --group-by.
struct follow_status {
  bool grouped = false;              ///< --group-by was given
  std::string group;                 ///< the group's name ("" without --group-by)
  std::uint64_t line = 0;            ///< input line of the group's last deck in this run (0: none)
  e_process::status e;               ///< the since-start e-process after the last deck
  change_detector::status detector;  ///< the change detector after the last deck
  double arl = 1e9;                  ///< the detector's threshold A (decks)
  std::uint64_t alarms = 0;          ///< alarms in this run
  std::uint64_t decks_this_run = 0;  ///< decks this run added
  double alpha = 0.001;
  double threshold_log10 = 3;        ///< log10(1/alpha)
  bool alarm = false;                ///< whether the detector alarmed in this run
  double time = 0;                   ///< when it was made: seconds since 1970-01-01 UTC
};

/// One group's record for the metrics: one unnamed group without --group-by, else one per
/// group (each with its own detector).
struct follow_group_record {
  std::string name;                  ///< the group ("": the one unnamed group)
  follow_status status;              ///< its status now
  double last_deck_time = 0;         ///< when its last deck was read, seconds since 1970 UTC (0: none yet)
};

/// What a metrics record holds: the monitor's pack and time, and every group's record.
struct follow_metrics_record {
  std::string pack;                       ///< the pack's name
  double now = 0;                         ///< when it was made (the heartbeat), seconds since 1970 UTC
  std::uint64_t skipped_lines = 0;        ///< lines skipped as not decks in this run (--skip-bad)
  std::vector<follow_group_record> groups;
};

/// Things the monitor tells beside its statuses (the render layer words them).
enum class follow_note {
  inferred_pack,      ///< `text`: the reader's note on the pack it inferred from the first deck
  new_state,          ///< --state names no file yet: a new e-process starts
  resuming,           ///< `lines`: the followed file's first lines are in the state already
  other_input,        ///< the state's decks came from another input: read from its start
  restored_alarm,     ///< the restored state had alarmed: the alarm is given again (no --reset-alarm)
  alarm_reset,        ///< the restored state had alarmed: reset (--reset-alarm)
  overlap_skipped,    ///< `lines`: a pipe's first decks are the state's last ones: skipped
  truncated,          ///< the followed file was truncated (copytruncate): read from its start
  rotated,            ///< the path names a new file (rename rotation): read from its start
  reopened,           ///< a reopen request (SIGHUP) found a new file at the path: read from its start
  reopen_same,        ///< a reopen request found the same file: reading goes on
  reopen_not_a_file,  ///< a reopen request on a pipe or standard input: nothing to reopen
  cut_line,           ///< `lines`: that line (of the whole input) was the last of a rotated or truncated
                      ///< file and had no newline: read as a line of its own (the note before the switch's)
};

/// How the run ended.
enum class follow_end { end_of_input, alarm, stopped };

/// The last record of a run.
struct follow_final {
  follow_status status;
  follow_end end = follow_end::end_of_input;
  int stop_signal = 0;                  ///< `stop`'s value when end == stopped
  std::optional<audit_report> report;   ///< the battery on this run's decks (none: no deck; --group-by: see groups)
  /// --group-by: every group's final status (`status` is the last of them) and the batteries of
  /// every group with decks in this run, Holm over all (none: no deck).
  std::vector<follow_status> group_statuses;
  std::optional<grouped_report> group_reports;
  const audit_pack* pack = nullptr;
  std::string sha256;                   ///< of every byte read (skipped lines included), hex
  std::uint64_t bytes = 0;
};

/// Receives what the monitor has to show or store, in the order it happens.
class follow_events {
 public:
  virtual ~follow_events() = default;
  virtual void note(follow_note kind, const std::string& text, std::uint64_t lines) = 0;
  /// A status is due (every, interval).
  virtual void status(const follow_status& s) = 0;
  /// The detector crossed its threshold (with keep_going, after each crossing).
  virtual void alarm(const follow_status& s) = 0;
  /// After each status, the alarm and the final record: the state document to keep (empty
  /// without keep_state) and the status the metrics show.
  virtual void save(const follow_status& s, const std::string& state) = 0;
  /// The end: the final status and the battery's report.
  virtual void final(const follow_final& f) = 0;
  /// The metrics: after each status, alarm and the final record, and every
  /// settings.metrics_interval seconds while idle; one record per group (one, named "",
  /// without --group-by).
  virtual void metrics(const follow_metrics_record& record) { (void)record; }
};

/// How a run came out.
struct follow_outcome {
  bool any_deck = false;           ///< false: stopped before the first deck (nothing reported)
  follow_end end = follow_end::end_of_input;
  int stop_signal = 0;
  bool alarmed = false;
  bool battery_failed = false;
};

/// The self-pipe a signal handler wakes the loop through (follow_settings::wake_fd): both ends
/// non-blocking and close-on-exec. One at a time per process; fd() is -1 when it could not be
/// made (the loop then looks at its flags every 0.2 s).
class follow_wake {
 public:
  follow_wake() noexcept;
  ~follow_wake();
  follow_wake(const follow_wake&) = delete;
  follow_wake& operator=(const follow_wake&) = delete;
  [[nodiscard]] int fd() const noexcept { return read_fd_; }
  /// Wakes the loop: one byte into the pipe (async-signal-safe; keeps errno).
  static void notify() noexcept;

 private:
  int read_fd_ = -1;
};

/// Runs the monitor until the end of a pipe, the alarm (without keep_going) or `stop`.
/// Throws shufl::error for bad settings, bad input (unless skipped), a state that does not fit
/// ("--state" messages name `state_name`), and an input with no deck at its end.
follow_outcome follow(const follow_settings& settings, follow_events& events, const std::string& state_name);

}  // namespace shufl::audit
