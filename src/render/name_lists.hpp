// The library's tables of names as a --help text lists them, so a help cannot drift from the
// table it describes (the command line's option texts use them; tests/e2e_help_lists_test.cpp).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shufl::render {

/// `names` as a list in words: "a, b or c" ("a", "a or b"; `last` replaces " or ", e.g. "|").
std::string listed(std::span<const std::string_view> names, std::string_view last = " or ");
/// The seed-search families' names (audit::seed_families), in the table's order.
std::vector<std::string_view> family_names();
/// The packs (pack_names) with their sizes in cards: "standard (52), piquet (32), ...".
std::string packs_text();
/// The tiers (audit::audit_tiers) with their decks: "small (10^4 decks), standard (10^6) or big
/// (10^8)"; a size that is no power of ten is written in full.
std::string tiers_text();

}  // namespace shufl::render
