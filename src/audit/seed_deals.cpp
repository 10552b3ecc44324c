// The logged deals of a seed search (shufl/audit/seed_deals.hpp).
#include "shufl/audit/seed_deals.hpp"

#include <fmt/format.h>

#include "shufl/error.hpp"
#include "shufl/text_input.hpp"

namespace shufl::audit {

// The logged deals, by the audit deck reader (any notation shufl deck prints; --dealt K for the
// first K cards of each deal). The cards must all differ (no shoe, no pairs): a face id is then
// the card's canonical index.
std::vector<std::vector<std::uint32_t>> read_seed_deals(const std::string& input, const reader_options& given,
                                                        audit_pack& pack) {
  auto in = text_reader::open(input);
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
