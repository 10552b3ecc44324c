// Reading the seed search's logged deals (see seed_search_input.hpp).
#include "shufl/audit/seed_search_input.hpp"

#include <fmt/format.h>

#include <string>

#include "shufl/deck.hpp"
#include "shufl/error.hpp"

namespace shufl::audit {

namespace {

void check_distinct(const audit_pack& pack) {
  if (pack.faces() != pack.size())
    throw error(fmt::format("--seed-search: the pack ({}) repeats cards; a seed search needs a pack of distinct cards",
                            pack.cards.description));
}

}  // namespace

std::vector<std::vector<std::uint32_t>> read_logged_deals(text_reader& in, const reader_options& given,
                                                          audit_pack& pack) {
  reader_options options = given;
  // Partial deals do not show their pack: the seed-search families shuffle a standard 52-card
  // deck unless the pack is declared.
  if (options.dealt && !options.pack && options.custom_labels.empty() && options.decks == 1 && options.jokers == 0)
    options.pack = pack_kind::standard;
  deck_reader reader(in, options);
  std::vector<std::vector<std::uint32_t>> deals;
  std::vector<std::uint32_t> faces;
  try {
    while (reader.next(faces)) deals.push_back(faces);
  } catch (const error& e) {
    const std::string what = e.what();
    if (!given.dealt &&
        (what.find("cards, the pack has") != std::string::npos || what.find("cannot infer the pack") != std::string::npos))
      throw error(what + " (for deals logged only in part, give --dealt K: the first K cards of each deal)");
    throw;
  }
  if (deals.empty()) throw error(fmt::format("{}: no deals (one deal per line, top card first)", in.name()));
  pack = reader.pack();
  check_distinct(pack);
  return deals;
}

std::vector<std::vector<std::uint32_t>> logged_deals_of_array(const card_array& a, const audit_pack& pack,
                                                              std::optional<std::size_t> dealt) {
  if (a.rows == 0) throw error(fmt::format("{}: no deals (one deal per row, top card first)", a.name));
  if (dealt && *dealt == 0) throw error("--dealt must be at least 1");
  if (dealt && *dealt > pack.size()) throw error(fmt::format("--dealt {} is more than the pack's {} cards", *dealt, pack.size()));
  check_distinct(pack);
  const std::size_t positions = dealt.value_or(pack.size());
  std::vector<std::uint32_t> faces(a.rows * positions);
  card_array_faces(a, pack, positions, 0, a.rows, faces.data());
  std::vector<std::vector<std::uint32_t>> deals(a.rows);
  for (std::size_t r = 0; r < a.rows; ++r)
    deals[r].assign(faces.begin() + static_cast<std::ptrdiff_t>(r * positions),
                    faces.begin() + static_cast<std::ptrdiff_t>((r + 1) * positions));
  return deals;
}

}  // namespace shufl::audit
