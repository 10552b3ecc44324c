// The library's tables of names as --help lists them (name_lists.hpp).
#include "name_lists.hpp"

#include <fmt/format.h>

#include <cstdint>

#include "shufl/audit.hpp"
#include "shufl/audit/seed_search.hpp"
#include "shufl/audit/tier.hpp"
#include "shufl/deck.hpp"

namespace shufl::render {

std::string listed(std::span<const std::string_view> names, std::string_view last) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out.append(i == 0 ? "" : i + 1 == names.size() ? last : ", ").append(names[i]);
  return out;
}

std::vector<std::string_view> family_names() {
  std::vector<std::string_view> names;
  for (const auto& f : audit::seed_families()) names.push_back(f.name);
  return names;
}

std::string packs_text() {
  std::string out;
  for (const auto name : pack_names()) out += fmt::format("{}{} ({})", out.empty() ? "" : ", ", name, make_pack(parse_pack(name)).cards.size());
  return out;
}

std::string tiers_text() {
  std::vector<std::string> parts;
  for (const auto& t : audit::audit_tiers()) {
    int exponent = 0;
    std::uint64_t d = t.decks;
    for (; d >= 10 && d % 10 == 0; d /= 10) ++exponent;
    const std::string decks = d == 1 ? fmt::format("10^{}", exponent) : fmt::format("{}", t.decks);
    parts.push_back(fmt::format("{} ({}{})", t.name, decks, parts.empty() ? " decks" : ""));
  }
  const std::vector<std::string_view> views(parts.begin(), parts.end());
  return listed(views);
}

}  // namespace shufl::render
