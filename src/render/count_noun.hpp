// Counts in words: "1 deck", "2 decks", "0 decks". The one plural-aware helper every output of
// the render layer and the command line uses, so no message says "1 decks" or "1 trials".
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace shufl::render {

/// "N singular" when n == 1, else "N plural" (English: 0 takes the plural). The number is
/// written in full, without separators: count_noun(1, "deck", "decks") == "1 deck",
/// count_noun(52, "card", "cards") == "52 cards".
inline std::string count_noun(std::uint64_t n, std::string_view singular, std::string_view plural) {
  return fmt::format("{} {}", n, n == 1 ? singular : plural);
}

}  // namespace shufl::render
