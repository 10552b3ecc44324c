// Pieces the seed search's reports share (internal to src/render/): cards as text and JSON, E as
// text and JSON, the verdict's name, and node-math-random's own report.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "render/seed_search_output.hpp"

namespace shufl::render {

/// Cards in shufl deck's code notation, "??" for audit::unknown_card.
std::string cards_text(const deck& pack, std::span<const std::uint32_t> cards);
/// The same as a JSON array, null for audit::unknown_card.
nlohmann::ordered_json cards_json(const deck& pack, std::span<const std::uint32_t> cards);
/// E in three significant digits; 10^x when a double cannot hold it.
std::string chance_text(const audit::scaled_number& e);
/// {value, log10} of E.
nlohmann::ordered_json chance_json(const audit::scaled_number& e);
/// not-found, chance, predictable.
std::string_view verdict_name(audit::seed_verdict v);

/// The reports of a node-math-random recovery (seed_search_output calls it for that family).
seed_search_report node_state_output(const seed_search_input& in, const audit::seed_search_result& result,
                                     const audit::seed_chance& chance, const audit::seed_prediction& prediction);

}  // namespace shufl::render
