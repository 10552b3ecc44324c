// The --state document of `shufl audit --follow` (docs/monitor.md) for callers other than the
// follow loop (the Python binding's Detector): the since-start e-process's own JSON with three
// fields beside its own — "follow_input" ({"id": device:inode of a followed regular file or "",
// "lines": lines read from it}), "detector" (the change detector's JSON) and "alarm" (an alarm
// not yet restarted after). follow.cpp writes and reads the same document.
#pragma once

#include <cstdint>
#include <string>

#include "shufl/audit/detector.hpp"
#include "shufl/audit/monitor.hpp"

namespace shufl::audit {

/// The parts of a state document.
struct monitor_state_parts {
  std::string e_process;  ///< e_process::serialize()'s JSON text
  std::string detector;   ///< change_detector::serialize()'s JSON text
  bool alarm = false;
  std::string input_id;   ///< "" when the decks did not come from a followed regular file
  std::uint64_t lines = 0;
};

/// The document (one line of JSON and a newline), as `--state` files hold it.
std::string write_monitor_state(const e_process& e, const change_detector& detector, bool alarm,
                                const std::string& input_id = {}, std::uint64_t lines = 0);

/// Splits a document into its parts. Throws shufl::error "state file: ..." for text that is not
/// a JSON object, a malformed follow_input or alarm, or no detector (an older monitor's file);
/// the parts themselves are checked by e_process::deserialize and change_detector::deserialize.
monitor_state_parts read_monitor_state(const std::string& text);

}  // namespace shufl::audit
