// The logged deals `shufl audit --seed-search` reads (seed_deals.cpp), by the one reader of cards.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "shufl/audit/deck_reader.hpp"

namespace shufl::audit {

/// The deals of `input` ('-': standard input), one per line, top card first, in any notation
/// `shufl deck` prints, as face ids; `reader.dealt` K: the first K cards of each deal (a standard
/// pack then unless one is declared). Sets `pack` to the pack read. Throws shufl::error for no
/// deal, a pack that repeats cards, or a reader error (one that a partial deal would explain
/// suggests --dealt K).
std::vector<std::vector<std::uint32_t>> read_seed_deals(const std::string& input, const reader_options& reader,
                                                        audit_pack& pack);

}  // namespace shufl::audit
