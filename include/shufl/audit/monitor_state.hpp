// The --state document of `shufl audit --follow` (docs/monitor.md), written and read here for
// every caller: the follow loop (src/audit/follow.cpp) and the Python binding's Detector. The
// document is the groups' state (follow_groups.hpp: without --group-by one stream's object, the
// e-process's own JSON with "detector" (the change detector's JSON) and "alarm" (an alarm not yet
// restarted after) beside its fields) with two more fields: "follow_input" ({"id": device:inode
// of a followed regular file or "", "lines": lines read from it}) and "recent_decks" (the
// deck_hash of the last decks, oldest first, 16 hex digits each: a restarted pipe's overlap).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <string_view>

#include "shufl/audit/detector.hpp"
#include "shufl/audit/monitor.hpp"

namespace shufl::audit {

/// How many of the last decks a state remembers by default (--overlap-decks).
inline constexpr std::size_t default_overlap_decks = 64;

/// A deck's 64-bit hash as "recent_decks" holds it: SipHash-2-4 (libsodium crypto_shorthash,
/// fixed key) of the faces' bytes (native uint32), followed by the group's name with --group-by
/// ("" without it).
std::uint64_t deck_hash(std::span<const std::uint32_t> faces, std::string_view group = {});

/// One stream's state object (JSON text): the e-process's fields, "detector" and "alarm".
std::string stream_state(const e_process& e, const change_detector& detector, bool alarm);

/// stream_state's parts. Throws shufl::error "state file: ..." when `object` is not a JSON object,
/// has no detector (an older monitor's file) or a malformed alarm.
struct stream_state_parts {
  std::string e_process;  ///< e_process::serialize()'s JSON text
  std::string detector;   ///< change_detector::serialize()'s JSON text
  bool alarm = false;
};
stream_state_parts split_stream_state(std::string_view object);

/// The monitor's own records beside the groups' state.
struct monitor_records {
  std::string input_id;              ///< "" when the decks did not come from a followed regular file
  std::uint64_t lines = 0;           ///< lines read from that file
  std::deque<std::uint64_t> recent;  ///< deck_hash of the last decks, oldest first
};

/// The document (one line of JSON and a newline) from the groups' state object (JSON text:
/// stream_state, or follow_group_set::serialize) and the records.
std::string write_monitor_state(std::string_view groups_state, const monitor_records& records);
/// The single-stream document.
std::string write_monitor_state(const e_process& e, const change_detector& detector, bool alarm,
                                const monitor_records& records);

/// The document split into the groups' state (JSON text, the records taken out) and the records.
/// Text that is not a JSON object is returned whole as `groups_state` (its reader says what is
/// wrong; a UTF-8 byte-order mark dropped). Keeps the last `max_recent` hashes. Throws
/// shufl::error "state file: not a state file of shufl audit --follow, or a damaged one: line N:
/// invalid UTF-8 (...)" for bytes that are not UTF-8, "state file: 'follow_input' is malformed"
/// or "state file: 'recent_decks' is malformed".
struct monitor_document {
  std::string groups_state;
  bool has_input = false;  ///< "follow_input" was there
  monitor_records records;
};
monitor_document read_monitor_document(const std::string& text, std::size_t max_recent = default_overlap_decks);

/// The parts of a single-stream document.
struct monitor_state_parts {
  std::string e_process;  ///< e_process::serialize()'s JSON text
  std::string detector;   ///< change_detector::serialize()'s JSON text
  bool alarm = false;
  monitor_records records;
};

/// Splits a single-stream document into its parts. Throws shufl::error "state file: ..." for text
/// that is not a JSON object, malformed records or alarm, or no detector (an older monitor's
/// file); the parts themselves are checked by e_process::deserialize and
/// change_detector::deserialize.
monitor_state_parts read_monitor_state(const std::string& text, std::size_t max_recent = default_overlap_decks);

}  // namespace shufl::audit
