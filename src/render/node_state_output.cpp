// node-math-random's report (see seed_search_parts.hpp): the state recovered from the cards, the
// linear system that gave it, E of a false recovery, the predictions.
#include <fmt/format.h>

#include <algorithm>
#include <cstddef>

#include "render/seed_search_parts.hpp"

namespace shufl::render {

namespace {

std::string_view rule_text(bool double53) {
  return double53 ? "(state0 >> 11) / 2^53" : "((state0 >> 12) | exponent) - 1";
}

}  // namespace

seed_search_report node_state_output(const seed_search_input& in, const audit::seed_search_result& result,
                                     const audit::seed_chance& chance, const audit::seed_prediction& prediction) {
  const auto& deals = in.deals;
  const deck& pack = in.pack;
  const audit::state_recovery recovery = result.recovery.value_or(audit::state_recovery{});
  std::size_t cards = 0;
  for (const auto& d : deals) cards += d.size();
  const std::string deals_text = deals.size() == 1 ? std::string("1 logged deal") : fmt::format("{} logged deals", deals.size());

  seed_search_report report;
  auto& j = report.json;
  j["family"] = in.family->name;
  j["definition"] = in.family->definition;
  j["reseed"] = "once";
  j["pack"] = pack.description;
  j["convention"] = in.deck_order.empty()
                        ? "the list starts in the canonical order of shufl deck (index 0 = As) and is dealt from index 0"
                        : "the list starts in the deck order given and is dealt from index 0";
  if (in.variant.loop == audit::shuffle_loop::pop) j["convention"] = "the list is dealt with pop(), from its last index";
  j["deck_order"] = in.deck_order.empty() ? std::string("suit-major:shdc:A23456789TJQK") : in.deck_order;
  j["loop"] = variant_loop_name(in.variant);
  j["seeds"] = nullptr;
  j["deals"] = deals.size();
  auto logged = nlohmann::ordered_json::array();
  for (const auto& d : deals) logged.push_back(d.size());
  j["cards_logged"] = logged;
  j["found"] = !recovery.states.empty();
  auto states = nlohmann::ordered_json::array();
  for (const auto& s : recovery.states)
    states.push_back({{"state0", fmt::format("0x{:016x}", s.state0)},
                      {"state1", fmt::format("0x{:016x}", s.state1)},
                      {"cache_offset", s.offset},
                      {"to_double", rule_text(s.double53)}});
  j["states"] = states;
  j["recovery"] = {{"draws_seen", recovery.draws_seen},
                   {"equations", recovery.equations},
                   {"rank", recovery.best_rank},
                   {"offsets_consistent", recovery.offsets_consistent},
                   {"seconds", recovery.seconds}};
  {
    auto c = nlohmann::ordered_json::object();
    c["states"] = "2^128";
    c["variants"] = chance.variants;
    c["expected_chance_matches"] = chance_json(chance.expected);
    c["per_deal"] = nullptr;
    c["verdict_expected"] = chance_json(chance.verdict_expected);
    c["max_chance"] = chance.max_chance;
    c["verdict"] = verdict_name(chance.verdict);
    c["more_cards"] = chance.more_cards ? nlohmann::ordered_json(*chance.more_cards) : nlohmann::ordered_json(nullptr);
    c["suggest"] = nullptr;
    j["chance"] = c;
  }
  std::string k;
  for (std::size_t d = 0; d < deals.size() && d < 8; ++d) k += (k.empty() ? "K = " : ", ") + std::to_string(deals[d].size());
  if (deals.size() > 8) k += ", ...";
  const std::string chance_line = fmt::format(
      "Chance: E = {} false recoveries expected (E = H * 2^128 * prod_d 1/(n)_K, H = {}: 64 cache offsets x 2 ToDouble "
      "rules, {} of n = {}); \"predictable\" needs E <= {} (--max-chance).\n",
      chance_text(chance.expected), chance.variants, k, pack.cards.size(), chance.max_chance);

  std::string& t = report.text;
  t += fmt::format("Seed search: node-math-random, the 128-bit state recovered from the cards ({}, {} cards), the "
                   "generator running on across deals\n",
                   deals_text, cards);
  t += fmt::format("Family: {}\n", in.family->definition);
  if (!in.deck_order.empty()) t += fmt::format("Deck order: the list starts {}\n", in.deck_order);
  if (in.variant.loop == audit::shuffle_loop::up)
    t += "Variant: --loop up (for i = 0 to n-2: swap(a[i], a[i + Math.floor(Math.random() * (n-i))]))\n";
  if (in.variant.loop == audit::shuffle_loop::sort)
    t += "Variant: --loop sort (deck.sort(() => Math.random() - 0.5), as V8 sorts fewer than 64 elements)\n";
  if (in.variant.loop == audit::shuffle_loop::pop)
    t += "Variant: --loop pop (the downward loop, then the cards dealt with pop() from the end of the list)\n";
  t += "\n";
  const std::string system = fmt::format(
      "Recovery: {} draws revealed by the cards, {} linear equations over GF(2) in the 128 state bits; best rank {} "
      "of 128; {} of 64 cache offsets consistent.\n",
      recovery.draws_seen, recovery.equations, recovery.best_rank, recovery.offsets_consistent);

  if (recovery.states.empty()) {
    const bool short_rank = recovery.offsets_consistent > 0 && recovery.best_rank + 12 < 128;
    const std::string statement =
        short_rank ? fmt::format("Not decided: the logged cards pin down only {} of the 128 state bits, too few to "
                                 "recover Math.random's state; log more cards or more consecutive deals",
                                 recovery.best_rank)
                   : fmt::format("Not found: no Math.random state makes {} with --loop {} (at any of the 64 cache "
                                 "offsets, under either ToDouble rule)",
                                 deals.size() == 1 ? std::string("this deal") : fmt::format("these {} deals", deals.size()),
                                 variant_loop_name(in.variant));
    const std::string scope = short_rank ? std::string("Nothing is ruled out.")
                                         : "This rules out only this shuffle code driven by Math.random with no other "
                                           "call between the deals; other code is not tested.";
    j["statement"] = statement + ". " + scope;
    j["predicted_rest_of_last_deal"] = nullptr;
    j["predicted_next_deal"] = nullptr;
    t += statement + ".\n" + scope + "\n" + system + chance_line;
    // Too few equations decide nothing: exit 4 as for matches chance explains, never 0.
    if (short_rank) j["chance"]["verdict"] = "undecided";
    report.status = short_rank ? 4 : 0;
    return report;
  }

  const bool predictable = chance.verdict == audit::seed_verdict::predictable;
  report.status = predictable ? 3 : 4;
  const auto& s = recovery.states.front();
  t += fmt::format("{}: the state (state0 0x{:016x}, state1 0x{:016x}) before the cache block of the first draw, {} of "
                   "its values served before the first shuffle, ToDouble {}, reproduces all {} ({} cards).\n",
                   predictable ? "FOUND" : "CONSISTENT WITH CHANCE", s.state0, s.state1, s.offset,
                   rule_text(s.double53), deals_text, cards);
  std::size_t distinct = 0, both_rules = 0;
  for (std::size_t i = 0; i < recovery.states.size(); ++i) {
    const auto& a = recovery.states[i];
    const bool again = i > 0 && recovery.states[i - 1].state0 == a.state0 && recovery.states[i - 1].state1 == a.state1 &&
                       recovery.states[i - 1].offset == a.offset;
    if (again) ++both_rules;
    else ++distinct;
  }
  if (distinct > 1)
    t += fmt::format("{} states at other cache offsets reproduce them too (the logged draws do not show where every "
                     "cache refill falls); the predictions keep only the cards all of them agree on.\n",
                     distinct - 1);
  if (both_rules == distinct)
    t += "Both ToDouble rules reproduce them (they differ in the last bit of a value only).\n";
  t += system + chance_line;
  t += "Found means: this state, run on, makes every logged card, not only the cards its equations came from; a state "
       "unrelated to the deals does that with probability at most E.\n";
  if (!predictable) {
    j["predicted_rest_of_last_deal"] = nullptr;
    j["predicted_next_deal"] = nullptr;
    const std::string statement = fmt::format(
        "Consistent with chance: a fair shuffle would match this often (E = {} > {}); nothing is predicted. Log more "
        "cards.",
        chance_text(chance.verdict_expected), chance.max_chance);
    j["statement"] = statement;
    t += "\n" + statement + "\n";
    return report;
  }
  const std::span<const std::uint32_t> rest(prediction.rest_of_last_deal);
  j["predicted_rest_of_last_deal"] = cards_json(pack, rest);
  j["predicted_next_deal"] = cards_json(pack, prediction.next_deal);
  const auto open = [](const std::vector<std::uint32_t>& c) {
    return std::find(c.begin(), c.end(), audit::unknown_card) != c.end();
  };
  if (open(prediction.rest_of_last_deal) || open(prediction.next_deal))
    t += fmt::format("\n{} states made the deals: only the cards they all agree on are predicted (?? elsewhere).",
                     prediction.seeds);
  if (rest.empty())
    t += fmt::format("\nDeal {} was logged whole: nothing of it is left to predict.\n", deals.size());
  else
    t += fmt::format("\nPredicted rest of deal {} (cards {} to {}):\n  {}\n", deals.size(), deals.back().size() + 1,
                     pack.cards.size(), cards_text(pack, rest));
  t += fmt::format("Predicted next deal (deal {}):\n  {}\n", deals.size() + 1, cards_text(pack, prediction.next_deal));
  const std::string statement =
      "These deals are predictable: Math.random is not a cryptographic generator, and whoever sees the cards of a "
      "shuffle can recover its state, as this search did, and compute every card still to come. Shuffle with "
      "crypto.getRandomValues (or crypto.randomInt) in place of Math.random.";
  j["statement"] = statement;
  t += "\n" + statement + "\n";
  return report;
}

}  // namespace shufl::render
