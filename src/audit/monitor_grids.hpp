// The monitor's fixed weight grids and their name in a state file (src/audit/monitor.cpp and
// monitor_process_state.cpp; include/shufl/audit/monitor.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <string_view>

namespace shufl::audit::monitor_grids {

inline constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
// The grids of mixing weights (fixed: part of the predictor set a state file must match).
// Distributions (position, suit-rank): w over {0, 1/64, 1/8, 1/2, 1}.
inline constexpr std::array<double, 5> kt_grid = {0.0, 1.0 / 64, 1.0 / 8, 1.0 / 2, 1.0};
// Single-card guesses (successor, repeat): w_cold after a miss (or at the top of a deck) and
// w_hot right after a hit of this predictor in the same deck; w < 1 so a miss never zeroes.
inline constexpr std::array<double, 4> cold_grid = {0.0, 1.0 / 256, 1.0 / 32, 1.0 / 4};
inline constexpr std::array<double, 4> hot_grid = {0.0, 1.0 / 4, 3.0 / 4, 15.0 / 16};
inline constexpr std::string_view predictor_set =
    "position:kt{0,1/64,1/8,1/2,1};successor:guess{0,1/256,1/32,1/4}x{0,1/4,3/4,15/16};"
    "repeat:guess{0,1/256,1/32,1/4}x{0,1/4,3/4,15/16};suit-rank:kt{0,1/64,1/8,1/2,1}";

}  // namespace shufl::audit::monitor_grids
