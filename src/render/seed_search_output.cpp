// The seed search's reports (see seed_search_output.hpp).
#include "render/seed_search_output.hpp"
#include "render/seed_search_parts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <span>

namespace shufl::render {

namespace {

using audit::reseed_mode;

// "4294967295" → "2^32-1" when the number is 2^k or 2^k − 1 with k ≥ 16.
std::string seed_text(std::uint64_t v) {
  if (v >= (1u << 16)) {
    if (std::has_single_bit(v)) return fmt::format("2^{}", std::countr_zero(v));
    if (v != ~std::uint64_t{0} && std::has_single_bit(v + 1)) return fmt::format("2^{}-1", std::countr_zero(v + 1));
  }
  return std::to_string(v);
}

std::string count_text(std::uint64_t count) {
  if (count == 0) return "2^64";
  if (std::has_single_bit(count) && count >= 1024) return fmt::format("2^{}", std::countr_zero(count));
  std::string digits = std::to_string(count), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string_view unit_name(audit::time_unit unit) {
  switch (unit) {
    case audit::time_unit::unix_seconds: return "Unix seconds";
    case audit::time_unit::unix_milliseconds: return "Unix milliseconds";
    case audit::time_unit::milliseconds_since_midnight: return "milliseconds since midnight";
    case audit::time_unit::milliseconds_since_boot: return "milliseconds since boot";
  }
  return "";
}

}  // namespace

std::string variant_loop_name(const audit::family_variant& v) {
  switch (v.loop) {
    case audit::shuffle_loop::down: return "down";
    case audit::shuffle_loop::up: return "up";
    case audit::shuffle_loop::naive: return "naive";
    case audit::shuffle_loop::inside_out: return "inside-out";
    case audit::shuffle_loop::sample: return fmt::format("sample:{}", v.sample_size);
    case audit::shuffle_loop::pop: return "pop";
    case audit::shuffle_loop::sort: return "sort";
  }
  return "";
}

std::string cards_text(const deck& pack, std::span<const std::uint32_t> cards) {
  std::string out;
  for (const auto c : cards) {
    if (!out.empty()) out += ' ';
    out += c == audit::unknown_card ? std::string("??") : format_card(pack.cards[c], card_style::code);
  }
  return out;
}

// Cards the matching seeds disagree on are null.
nlohmann::ordered_json cards_json(const deck& pack, std::span<const std::uint32_t> cards) {
  auto j = nlohmann::ordered_json::array();
  for (const auto c : cards)
    j.push_back(c == audit::unknown_card ? nlohmann::ordered_json(nullptr)
                                         : nlohmann::ordered_json(format_card(pack.cards[c], card_style::code)));
  return j;
}

// E in three significant digits; 10^x when a double cannot hold it.
std::string chance_text(const audit::scaled_number& e) {
  const double v = e.value();
  if (v == 0 && e.mantissa == 0) return "0";
  if (v >= 1e-300 && v <= 1e300) return fmt::format("{:.3g}", v);
  return fmt::format("10^{:.1f}", e.log10());
}

nlohmann::ordered_json chance_json(const audit::scaled_number& e) {
  const double v = e.value();
  return {{"value", v >= 1e-300 && v <= 1e300 ? nlohmann::ordered_json(v) : nlohmann::ordered_json(e.mantissa == 0 ? 0.0 : v)},
          {"log10", e.mantissa == 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(e.log10())}};
}

std::string_view verdict_name(audit::seed_verdict v) {
  switch (v) {
    case audit::seed_verdict::not_found: return "not-found";
    case audit::seed_verdict::chance: return "chance";
    case audit::seed_verdict::predictable: return "predictable";
  }
  return "";
}


seed_search_report seed_search_output(const seed_search_input& in, const audit::seed_search_result& result,
                                      const audit::seed_chance& chance, const audit::seed_prediction& prediction) {
  if (in.family->family == audit::seed_family::node_math_random) return node_state_output(in, result, chance, prediction);
  const auto& family = *in.family;
  const auto& full = in.full;
  const auto& range = in.range;
  const auto& shard = in.shard;
  const auto& deals = in.deals;
  const deck& pack = in.pack;
  const reseed_mode reseed = in.reseed;
  struct {
    const std::string& seeds;
  } o{in.seeds_text};
  // What was searched, in words.
  std::string space;
  if (!range) {
    space = fmt::format("shard {}/{} of {} (empty: more shards than seeds)", shard->first, shard->second, o.seeds);
  } else {
    space = fmt::format("{}..{}", seed_text(range->first), seed_text(range->last));
    if (full.from_time) space += fmt::format(" ({} of {})", unit_name(family.unit), o.seeds);
    if (shard) space += fmt::format(", shard {}/{} of {}", shard->first, shard->second, o.seeds);
  }
  const std::uint64_t count = range ? range->count() : 0;
  const std::string deals_word = deals.size() == 1 ? "this deal" : fmt::format("these {} deals", deals.size());

  seed_search_report report;
  auto& j = report.json;
  j["family"] = family.name;
  j["definition"] = family.definition;
  j["reseed"] = reseed == reseed_mode::once ? "once" : "per-deal";
  j["pack"] = pack.description;
  j["convention"] = in.deck_order.empty()
                        ? "the list starts in the canonical order of shufl deck (index 0 = As) and is dealt from index 0"
                        : "the list starts in the deck order given and is dealt from index 0";
  j["deck_order"] = in.deck_order.empty() ? std::string("suit-major:shdc:A23456789TJQK") : in.deck_order;
  j["seeds"] = {{"range", o.seeds},
                {"first", range ? nlohmann::ordered_json(range->first) : nlohmann::ordered_json(nullptr)},
                {"last", range ? nlohmann::ordered_json(range->last) : nlohmann::ordered_json(nullptr)},
                {"count", count},
                {"unit", full.from_time ? unit_name(family.unit) : "integer seeds"}};
  j["shard"] = shard ? nlohmann::ordered_json::array({shard->first, shard->second}) : nlohmann::ordered_json(nullptr);
  j["deals"] = deals.size();
  auto logged = nlohmann::ordered_json::array();
  for (const auto& d : deals) logged.push_back(d.size());
  j["cards_logged"] = logged;
  j["seeds_tried"] = result.seeds_tried;
  j["found"] = !result.matches.empty();
  auto matches = nlohmann::ordered_json::array();
  for (const auto& m : result.matches)
    matches.push_back({{"seed", m.seed},
                       {"deal", reseed == reseed_mode::once ? nlohmann::ordered_json(nullptr)
                                                            : nlohmann::ordered_json(m.deal + 1)}});
  j["matches"] = matches;
  j["truncated"] = result.truncated;
  {
    auto c = nlohmann::ordered_json::object();
    c["states"] = chance.states;
    c["variants"] = chance.variants;
    c["expected_chance_matches"] = chance_json(chance.expected);
    auto per = nlohmann::ordered_json::array();
    for (const auto& e : chance.per_deal) per.push_back(chance_json(e));
    c["per_deal"] = reseed == reseed_mode::once ? nlohmann::ordered_json(nullptr) : per;
    c["verdict_expected"] = chance_json(chance.verdict_expected);
    c["max_chance"] = chance.max_chance;
    c["verdict"] = verdict_name(chance.verdict);
    c["more_cards"] = chance.more_cards ? nlohmann::ordered_json(*chance.more_cards) : nlohmann::ordered_json(nullptr);
    c["suggest"] = chance.suggest_once ? nlohmann::ordered_json("--reseed once") : nlohmann::ordered_json(nullptr);
    j["chance"] = c;
  }
  const std::string chance_line = fmt::format(
      "Chance: E = {} matches expected by chance ({}, S = {} distinct seeds, {}); \"predictable\" needs E <= {} "
      "(--max-chance).\n",
      chance_text(chance.expected),
      chance.variants > 1
          ? (reseed == reseed_mode::once ? fmt::format("E = H * S * prod_d 1/(n)_K, H = {} variants", chance.variants)
                                         : fmt::format("E = H * prod_d min(1, S/(n)_K), H = {} variants", chance.variants))
          : std::string(reseed == reseed_mode::once ? "E = S * prod_d 1/(n)_K" : "E = prod_d min(1, S/(n)_K)"),
      count_text(chance.states),
      [&] {
        std::string k;
        for (std::size_t d = 0; d < deals.size() && d < 8; ++d) k += (k.empty() ? "K = " : ", ") + std::to_string(deals[d].size());
        if (deals.size() > 8) k += ", ...";
        return k + fmt::format(" of n = {}", pack.cards.size());
      }(),
      chance.max_chance);

  std::string& t = report.text;
  t += fmt::format("Seed search: {}, seeds {} ({} seeds), {} ({})\n", family.name, space, count_text(count),
                   reseed == reseed_mode::once ? "seeded once, the generator running on across deals"
                                               : "reseeded before every deal",
                   deals.size() == 1 ? "1 logged deal" : fmt::format("{} logged deals", deals.size()));
  t += fmt::format("Family: {}\n", family.definition);
  if (!in.deck_order.empty()) t += fmt::format("Deck order: the list starts {}\n", in.deck_order);
  const std::string loop_name = variant_loop_name(in.variant);
  const std::string_view reduce_name = in.variant.reduce == audit::draw_reduction::div   ? "div"
                                       : in.variant.reduce == audit::draw_reduction::mod ? "mod"
                                                                                         : "native";
  if (!in.variant.standard())
    t += fmt::format("Variant: --loop {} --reduce {} (in place of the family's loop and draw)\n", loop_name, reduce_name);
  if (in.variant.carry_over)
    t += "Carry-over: one list reshuffled every deal without refilling (each deal shuffles the list the last one left)\n";
  j["loop"] = loop_name;
  j["reduce"] = reduce_name;
  j["carry_over"] = in.variant.carry_over;
  j["variants_tried"] = in.variants_tried;
  if (in.variants_tried > 1)
    t += fmt::format("Variants: {} combinations of loop, draw, deck order and carry-over tried (--try-variants); E "
                     "counts them all (H = {}){}\n",
                     in.variants_tried, in.variants_tried, result.matches.empty() ? "" : "; the one that matched is above");
  t += "\n";

  if (result.matches.empty()) {
    const std::string any_variant =
        in.variants_tried > 1 ? fmt::format(" with any of the {} variants tried", in.variants_tried) : "";
    const std::string statement =
        (reseed == reseed_mode::once
            ? fmt::format("no {} seed in {} reproduces {}", family.name, space, deals_word)
            : deals.size() == 1
                  ? fmt::format("no {} seed in {} reproduces this deal", family.name, space)
                  : fmt::format("no {} seed in {} reproduces any of these {} deals (each deal tried on its own)",
                                family.name, space, deals.size())) +
        any_variant;
    const std::string scope = fmt::format(
        "This rules out only {} seeded with one of these {} seeds; another generator, other shuffle code or a seed "
        "outside the range is not tested.",
        family.name, count_text(count));
    j["statement"] = statement + ". " + scope;
    j["predicted_rest_of_last_deal"] = nullptr;
    j["predicted_next_deal"] = nullptr;
    t += fmt::format("Not found: {}.\n{}\n", statement, scope);
    t += chance_line;
    report.status = 0;
    return report;
  }

  const bool predictable = chance.verdict == audit::seed_verdict::predictable;
  report.status = predictable ? 3 : 4;  // 3: a failed audit, the deals are predictable; 4: chance explains it
  const std::size_t last_deal = deals.size() - 1;
  const std::string found_word = predictable ? "FOUND" : "CONSISTENT WITH CHANCE";
  if (reseed == reseed_mode::once) {
    const std::uint64_t seed = result.matches.front().seed;
    t += fmt::format("{}: seed {} reproduces all {} logged deals ({} cards).\n", found_word,
                     seed, deals.size(), [&] {
                       std::size_t n = 0;
                       for (const auto& d : deals) n += d.size();
                       return n;
                     }());
    if (result.matches.size() > 1) {
      t += fmt::format("Other seeds that reproduce them:");
      for (std::size_t i = 1; i < result.matches.size(); ++i) t += fmt::format(" {}", result.matches[i].seed);
      t += result.truncated ? " (stopped at the limit)\n" : "\n";
    }
  } else {
    std::size_t reproduced = 0;
    t += found_word + ":\n";
    for (std::size_t d = 0; d < deals.size(); ++d) {
      std::string seeds;
      for (const auto& m : result.matches)
        if (m.deal == d) seeds += (seeds.empty() ? "" : ", ") + std::to_string(m.seed);
      if (!seeds.empty()) ++reproduced;
      t += fmt::format("  deal {} ({} cards, E_d = {}): {}\n", d + 1, deals[d].size(), chance_text(chance.per_deal[d]),
                       seeds.empty() ? std::string("no seed in the range") : "seed " + seeds);
    }
    t += fmt::format("{} of {} logged deals reproduced.\n", reproduced, deals.size());
  }
  j["reproduced_deals"] = [&] {
    auto a = nlohmann::ordered_json::array();
    for (std::size_t d = 0; d < deals.size(); ++d)
      if (reseed == reseed_mode::once ||
          std::any_of(result.matches.begin(), result.matches.end(), [&](const auto& m) { return m.deal == d; }))
        a.push_back(d + 1);
    return a;
  }();

  if (reseed == reseed_mode::per_deal && deals.size() > 1)
    t += fmt::format("E of the {} reproduced deals (expected number of sets of that many deals matched by chance): {}.\n",
                     j["reproduced_deals"].size(), chance_text(chance.verdict_expected));
  t += chance_line;
  if (chance.suggest_once)
    t += "Only deal 1 is reproduced: a generator seeded once and running on across deals does that. Search again with "
         "--reseed once.\n";
  if (!predictable) {
    j["predicted_rest_of_last_deal"] = nullptr;
    j["predicted_next_deal"] = nullptr;
    const std::string decide =
        chance.more_cards
            ? fmt::format("{} more card{} of every deal (--dealt {}) would decide it.", *chance.more_cards,
                          *chance.more_cards == 1 ? "" : "s", [&] {
                            std::size_t k = pack.cards.size();
                            for (const auto& d : deals) k = std::min(k, d.size());
                            return k + *chance.more_cards;
                          }())
            : std::string("Even whole decks would not decide it: log more deals.");
    const std::string statement = fmt::format(
        "Consistent with chance: a fair shuffle would match this often (E = {} > {}), so these matches show neither "
        "that the deals are predictable nor that they are not, and nothing is predicted. {}",
        chance_text(chance.verdict_expected), chance.max_chance, decide);
    j["statement"] = statement;
    t += "\n" + statement + "\n";
    return report;
  }

  if (prediction.made_last_deal) {
    if (prediction.seeds > 1)
      t += fmt::format("\n{} seeds made the last deal: only the cards they all agree on are predicted (?? elsewhere).",
                       prediction.seeds);
    const std::span<const std::uint32_t> rest(prediction.rest_of_last_deal);
    j["predicted_rest_of_last_deal"] = cards_json(pack, rest);
    if (rest.empty()) {
      t += in.variant.loop == audit::shuffle_loop::sample
               ? fmt::format("\nDeal {}: all {} cards random.sample dealt were logged.\n", deals.size(),
                             in.variant.sample_size)
               : fmt::format("\nDeal {} was logged whole: nothing of it is left to predict.\n", deals.size());
    } else {
      t += fmt::format("\nPredicted rest of deal {} (cards {} to {}):\n  {}\n", deals.size(), deals[last_deal].size() + 1,
                       deals[last_deal].size() + rest.size(), cards_text(pack, rest));
    }
    if (reseed == reseed_mode::once) {
      j["predicted_next_deal"] = cards_json(pack, prediction.next_deal);
      t += fmt::format("Predicted next deal (deal {}):\n  {}\n", deals.size() + 1, cards_text(pack, prediction.next_deal));
    } else {
      j["predicted_next_deal"] = nullptr;
      t += "The next deal is seeded anew: its seed is another value of this small space, found the same way from "
           "its first cards.\n";
    }
  } else {
    j["predicted_rest_of_last_deal"] = nullptr;
    j["predicted_next_deal"] = nullptr;
  }
  const std::string statement = fmt::format(
      "These deals are predictable: whoever knows the generator and sees a few cards can compute the rest, as this "
      "search did over {} seeds. Shuffle with the operating system's generator (shufl deck without --seed) or a "
      "cryptographic generator seeded with 256 bits from it.",
      count_text(count));
  j["statement"] = statement;
  t += "\n" + statement + "\n";
  return report;
}

std::string seed_search_estimate(std::uint64_t seeds, unsigned threads, double rate) {
  const double seconds = static_cast<double>(seeds) / (rate * std::max(1u, threads));
  std::string d;
  if (seconds < 120) d = fmt::format("{:.0f} s", seconds);
  else if (seconds < 7200) d = fmt::format("{:.0f} min", seconds / 60);
  else if (seconds < 2 * 86400) d = fmt::format("{:.1f} hours", seconds / 3600);
  else if (seconds < 730 * 86400) d = fmt::format("{:.0f} days", seconds / 86400);
  else d = fmt::format("{:.0f} years", seconds / (365.25 * 86400));
  return fmt::format("shufl: searching {} seeds on {} thread{}: at most about {} ({:.3g} seeds/s per thread, measured on the "
                     "first seeds; without --all it stops at the first match; --shard I/N splits the range)\n",
                     count_text(seeds), threads, threads == 1 ? "" : "s", d, rate);
}

seed_search_report seed_search_output(const audit::seed_search_outcome& outcome) {
  return seed_search_output(outcome.setting, outcome.result, outcome.chance, outcome.prediction);
}

std::string seed_search_stdout(const seed_search_report& report, bool json) {
  if (!json) return report.text;
  nlohmann::ordered_json doc;
  doc["seed_search"] = report.json;
  return doc.dump(2) + "\n";
}

std::string seed_search_variants_cost(const audit::seed_family_info& family,
                                      const std::vector<audit::search_variant>& variants, std::uint64_t seeds,
                                      unsigned threads, double rate) {
  std::size_t loops = 0, orders = 0;
  bool carry = false;
  for (const auto& v : variants) {
    if (v.deck_order_name == variants.front().deck_order_name && !v.variant.carry_over) ++loops;
    if (v.variant.carry_over) carry = true;
  }
  orders = loops == 0 ? 0 : variants.size() / loops / (carry ? 2 : 1);
  std::string t = fmt::format(
      "shufl: --try-variants: {} variants of {} ({} loops and draws x {} deck order{}{}), each over every seed; E counts "
      "them all\n",
      variants.size(), family.name, loops, orders, orders == 1 ? "" : "s", carry ? " x carry-over off and on" : "");
  const std::uint64_t total = seeds * variants.size();
  if (rate > 0 && (variants.size() == 0 || total / variants.size() == seeds))
    t += seed_search_estimate(total, threads, rate);
  return t;
}

}  // namespace shufl::render
