// Private to the deck layer: --group-by's field of a deck line (cards.cpp's reader; the format
// is described for users in docs/audit-input.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace shufl::cards {

/// Takes field `want` (from 1) of the trimmed deck line `line`, separated as the cards are (tabs
/// when the line has a tab, else commas when it has a comma, else runs of spaces), into `group`
/// (spaces around it dropped) and sets `rest` to the line without that field and one separator
/// beside it (the one after it; for the last field, the one before), trimmed. Returns "" on
/// success, else the message of a bad line, starting with "NAME: line L" (`name`, `line`): no
/// field `want`, an empty field, or one over max_group_bytes. Allocates only for a new longest
/// line or group, and for a message.
std::string split_group_field(std::string_view line, std::size_t want, std::string_view name, std::uint64_t line_number,
                              std::string& group, std::string& rest);

}  // namespace shufl::cards
