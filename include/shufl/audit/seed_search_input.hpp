// The seed search's input: logged deals read by the audit deck reader (see seed_search.hpp).
#pragma once

#include <cstdint>
#include <vector>

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

}  // namespace shufl::audit
