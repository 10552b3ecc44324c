// What the seed-search tests read from the runtimes they compare against: the reference programs
// in tests/reference/seed_search/ and the deals they print (one deal a line, card numbers
// separated by spaces).
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "support/run.hpp"

namespace shufl::test {

using deals_t = std::vector<std::vector<std::uint32_t>>;

/// Path of the reference program `name` in tests/reference/seed_search/.
inline std::string seed_search_ref(const std::string& name) { return reference_dir() + "/seed_search/" + name; }

/// The deals a reference program printed: one per non-empty line, card numbers separated by spaces.
inline deals_t parse_deals(const std::string& text) {
  deals_t out;
  for (const auto& line : lines(text)) {
    if (line.empty()) continue;
    std::istringstream in(line);
    std::vector<std::uint32_t> deal;
    for (std::uint32_t c; in >> c;) deal.push_back(c);
    out.push_back(deal);
  }
  return out;
}

}  // namespace shufl::test
