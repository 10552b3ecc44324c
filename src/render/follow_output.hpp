// What `shufl audit --follow` shows (docs/monitor.md): the status lines (text, or JSON Lines),
// the alarm, the final status, the notes on standard error, and the Prometheus text file, all
// made from the records of shufl/audit/follow.hpp.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "shufl/audit/follow.hpp"

namespace shufl::render {

/// One text status line (with its newline): decks, each predictor's log10 e, the mixture and
/// its alarm level, the anytime p, the leader.
std::string follow_status_text(const audit::follow_status& s);

/// One JSON status object; `type` is "status", "alarm" or "final".
nlohmann::ordered_json follow_status_json(const audit::follow_status& s, const char* type);

/// The alarm as text (one line with its newline, control characters escaped).
std::string follow_alarm_text(const audit::follow_status& s);

/// The alarm object (what --on-alarm receives too): the status fields, the threshold and the
/// input as given.
nlohmann::ordered_json follow_alarm_json(const audit::follow_status& s, const std::string& input);

/// A status as stdout shows it: one JSON Lines object (follow_status_json, type "status") or the
/// text line, each with its newline.
std::string follow_status_line(const audit::follow_status& s, bool json);

/// An alarm's two texts: `line` for stdout (follow_alarm_json as one JSON line, or
/// follow_alarm_text) and `hook`, the JSON line --on-alarm's command reads on its stdin.
struct follow_alarm_lines {
  std::string line, hook;
};
follow_alarm_lines follow_alarm_output(const audit::follow_status& s, const std::string& input, bool json);

/// The first part of the final text (the status line after "final (REASON): ").
std::string follow_final_text(const audit::follow_status& s, const std::string& reason);

/// Why a run ended, as the final status says it: "end of input", "alarm" or the stop signal's
/// name ("SIGINT", io::signal_name).
std::string follow_end_reason(const audit::follow_final& f);

/// What the end of a run writes to stdout: as JSON (`json`), one line of follow_status_json(f.status,
/// "final") with "reason" and "report" (audit_json_report of the battery on this run's decks, the
/// input `input` as given, or null when there was no deck); as text, follow_final_text and the
/// battery's text report (the input as input_display_name shows it) or "no decks in this run: no
/// battery report".
std::string follow_final_output(const audit::follow_final& f, const std::string& reason, const std::string& input,
                                bool json);

/// What every metrics file states beside the groups' records.
struct follow_metrics_info {
  std::string version;  ///< shufl's version
  std::string pack;     ///< the pack's name
  double arl = 1e9;     ///< the detector's threshold A (decks)
  /// --metrics-label pairs, on every series (names checked by the caller: [A-Za-z_][A-Za-z0-9_]*,
  /// none of group, predictor, version, pack, arl).
  std::vector<std::pair<std::string, std::string>> labels;
};

/// The Prometheus text exposition (node_exporter's textfile collector) of one monitor: its
/// info and heartbeat (`now`, Unix seconds), then per group (label `group`; "" for the one
/// unnamed group) the last deck's time, the e-process and the detector. HELP texts are constants.
std::string follow_metrics_text(const follow_metrics_info& info, const std::vector<audit::follow_group_record>& groups,
                               std::uint64_t skipped_lines,
                               double now);

/// Checks a --metrics-label K=V: K a Prometheus label name ([A-Za-z_][A-Za-z0-9_]*, not "__"
/// first) that the monitor does not set itself (group, predictor, version, pack, arl); V any
/// text. Returns {K, V}; throws shufl::error naming the option otherwise.
std::pair<std::string, std::string> parse_metrics_label(const std::string& text);
/// parse_metrics_label of each; a name given twice is an error too.
std::vector<std::pair<std::string, std::string>> parse_metrics_labels(const std::vector<std::string>& texts);

/// A time as RFC 3339 in UTC with milliseconds ("2026-12-03T12:40:00.125Z"); `seconds` since 1970.
std::string rfc3339_utc(double seconds);

/// A note for standard error (one line with its newline). `input` and `state` as given.
std::string follow_note_text(audit::follow_note kind, const std::string& text, std::uint64_t lines,
                             const std::string& input, const std::string& state);

}  // namespace shufl::render
