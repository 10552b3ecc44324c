// What `shufl audit --follow` shows (docs/monitor.md): the status lines (text, or JSON Lines),
// the alarm, the final status, the notes on standard error, and the Prometheus text file, all
// made from the records of shufl/audit/follow.hpp.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <string>

#include "shufl/audit/follow.hpp"

namespace shufl::render {

/// A time as RFC 3339 in UTC to the second ("2026-12-03T12:36:27Z").
std::string follow_time_text(std::chrono::system_clock::time_point t);

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

/// The first part of the final text (the status line after "final (REASON): ").
std::string follow_final_text(const audit::follow_status& s, const std::string& reason);

/// The Prometheus text exposition of a status (node_exporter's textfile collector).
std::string follow_metrics_text(const audit::follow_status& s);

/// A note for standard error (one line with its newline). `input` and `state` as given.
std::string follow_note_text(audit::follow_note kind, const std::string& text, std::uint64_t lines,
                             const std::string& input, const std::string& state);

}  // namespace shufl::render
