// The seed search's input: logged deals read by the audit deck reader (see seed_search.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "shufl/audit/card_array.hpp"
#include "shufl/audit/deck_reader.hpp"
#include "shufl/text_input.hpp"

namespace shufl::audit {

/// Reads one logged deal per line from `in` (any notation shufl deck prints; with
/// options.dealt = K the first K cards of each deal, of the standard 52-card deck unless the pack
/// is declared) into canonical card indices, and sets `pack`. Throws shufl::error on a bad line
/// (suggesting --dealt K when a deal is shorter than the pack), on no deals at all and on a pack
/// that repeats cards (a seed search needs distinct cards).
std::vector<std::vector<std::uint32_t>> read_logged_deals(text_reader& in, const reader_options& options,
                                                          audit_pack& pack);

/// The logged deals of an in-memory array (row r = deal r, top card first: the whole `pack`, or
/// its first `dealt` cards), checked row by row as card_array_faces checks them (its errors, with
/// numpy's 0-based row and column); no rows is "NAME: no deals (one deal per row, top card
/// first)", and a pack that repeats cards is refused as read_logged_deals refuses it.
std::vector<std::vector<std::uint32_t>> logged_deals_of_array(const card_array& decks, const audit_pack& pack,
                                                              std::optional<std::size_t> dealt);

}  // namespace shufl::audit
