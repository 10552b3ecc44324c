// Reading the seed search's logged deals (see seed_search_input.hpp).
#include "shufl/audit/seed_search_input.hpp"

#include <fmt/format.h>

#include <string>

#include "shufl/deck.hpp"
#include "shufl/error.hpp"

namespace shufl::audit {

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
  if (pack.faces() != pack.size())
    throw error(fmt::format("--seed-search: the pack ({}) repeats cards; a seed search needs a pack of distinct cards",
                            pack.cards.description));
  return deals;
}

}  // namespace shufl::audit
