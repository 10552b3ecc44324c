// The seed-search report of `shufl audit` (see audit_seed_search.hpp).
#include "audit_seed_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
#include <thread>

#include <unistd.h>

#include "common.hpp"
#include "progress.hpp"
#include "shufl/cpus.hpp"
#include "shufl/audit/deck_reader.hpp"
#include "shufl/audit/seed_search.hpp"
#include "shufl/deck.hpp"
#include "shufl/error.hpp"
#include "shufl/text_input.hpp"

namespace shufl::cli {

namespace {

using audit::reseed_mode;
using audit::seed_family_info;

// The logged deals, by the audit deck reader (any notation shufl deck prints; --dealt K for the
// first K cards of each deal). The cards must all differ (no shoe, no pairs): a face id is then
// the card's canonical index.
std::vector<std::vector<std::uint32_t>> read_deals(const seed_search_cli_options& o, audit::audit_pack& pack) {
  auto in = text_reader::open(o.input);
  audit::reader_options options = o.reader;
  // Partial deals do not show their pack: the seed-search families shuffle a standard 52-card
  // deck unless the pack is declared.
  if (options.dealt && !options.pack && options.custom_labels.empty() && options.decks == 1 && options.jokers == 0)
    options.pack = pack_kind::standard;
  audit::deck_reader reader(in, options);
  std::vector<std::vector<std::uint32_t>> deals;
  std::vector<std::uint32_t> faces;
  try {
    while (reader.next(faces)) deals.push_back(faces);
  } catch (const error& e) {
    const std::string what = e.what();
    if (!o.reader.dealt &&
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

std::pair<std::uint64_t, std::uint64_t> parse_shard_option(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos)
    throw error(fmt::format("--shard: expected I/N (shard I of N, 0 <= I < N), got '{}'", text));
  const auto i = parse_uint("--shard", text.substr(0, slash));
  const auto n = parse_uint("--shard", text.substr(slash + 1));
  if (n == 0 || i >= n) throw error(fmt::format("--shard {}: shards are numbered 0 to N-1 (0 <= I < N)", text));
  return {i, n};
}

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
  }
  return "";
}

std::string cards_text(const deck& pack, std::span<const std::uint32_t> cards) {
  std::string out;
  for (const auto c : cards) {
    if (!out.empty()) out += ' ';
    out += format_card(pack.cards[c], card_style::code);
  }
  return out;
}

nlohmann::ordered_json cards_json(const deck& pack, std::span<const std::uint32_t> cards) {
  auto j = nlohmann::ordered_json::array();
  for (const auto c : cards) j.push_back(format_card(pack.cards[c], card_style::code));
  return j;
}

}  // namespace

seed_search_report make_seed_search_report(const seed_search_cli_options& o) {
  const auto& family = audit::parse_seed_family(o.family);
  if (o.seeds.empty()) throw error("--seed-search needs --seeds RANGE (A..B or time:START..END)");
  const auto full = audit::parse_seed_range(o.seeds, family);
  const reseed_mode reseed =
      parse_choice("--reseed", o.reseed, {"per-deal", "once"}) == 0 ? reseed_mode::per_deal : reseed_mode::once;
  std::optional<std::pair<std::uint64_t, std::uint64_t>> shard;
  if (!o.shard.empty()) shard = parse_shard_option(o.shard);
  audit::audit_pack audit_pack;
  const auto deals = read_deals(o, audit_pack);
  const deck& pack = audit_pack.cards;

  audit::seed_search_options options;
  options.family = family.family;
  options.n = pack.cards.size();
  options.deals = deals;
  options.reseed = reseed;
  options.all = o.all;
  options.threads = o.threads != 0 ? o.threads : default_threads();
  std::optional<audit::seed_range> range = full;
  if (shard) range = audit::shard_of(full, shard->first, shard->second);

  audit::seed_search_result result;
  result.searches = reseed == reseed_mode::once ? 1 : deals.size();
  if (range) {
    options.range = *range;
    // The bar of bias (on a terminal after 0.5 s, or forced by --progress); its rate counts seeds.
    const std::string label = std::string(family.name) + " seeds";
    std::optional<progress_bar> bar;
    bias_progress callback;
    if (o.progress || isatty(STDERR_FILENO) == 1) {
      bar.emplace(std::vector<std::string>{label}, o.progress);
      callback = bar->callback();
      options.progress = [&callback, &label](std::uint64_t done, std::uint64_t total) { callback(done, total, label); };
    }
    result = audit::search_seeds(options);
    if (bar) bar->stop();
  }

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
  j["convention"] = "the list starts in the canonical order of shufl deck (index 0 = As) and is dealt from index 0";
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

  std::string& t = report.text;
  t += fmt::format("Seed search: {}, seeds {} ({} seeds), {} ({})\n", family.name, space, count_text(count),
                   reseed == reseed_mode::once ? "seeded once, the generator running on across deals"
                                               : "reseeded before every deal",
                   deals.size() == 1 ? "1 logged deal" : fmt::format("{} logged deals", deals.size()));
  t += fmt::format("Family: {}\n\n", family.definition);

  if (result.matches.empty()) {
    const std::string statement =
        reseed == reseed_mode::once
            ? fmt::format("no {} seed in {} reproduces {}", family.name, space, deals_word)
            : deals.size() == 1
                  ? fmt::format("no {} seed in {} reproduces this deal", family.name, space)
                  : fmt::format("no {} seed in {} reproduces any of these {} deals (each deal tried on its own)",
                                family.name, space, deals.size());
    const std::string scope = fmt::format(
        "This rules out only {} seeded with one of these {} seeds; another generator, other shuffle code or a seed "
        "outside the range is not tested.",
        family.name, count_text(count));
    j["statement"] = statement + ". " + scope;
    j["predicted_rest_of_last_deal"] = nullptr;
    j["predicted_next_deal"] = nullptr;
    t += fmt::format("Not found: {}.\n{}\n", statement, scope);
    report.status = exit_ok;
    return report;
  }

  report.status = 3;  // a failed audit: the deals are predictable
  const std::size_t last_deal = deals.size() - 1;
  std::optional<std::uint64_t> last_seed;  // the seed that made the last logged deal, when found
  if (reseed == reseed_mode::once) {
    const std::uint64_t seed = result.matches.front().seed;
    last_seed = seed;
    t += fmt::format("FOUND: seed {} reproduces all {} logged deals ({} cards).\n",
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
    t += "FOUND:\n";
    for (std::size_t d = 0; d < deals.size(); ++d) {
      std::string seeds;
      for (const auto& m : result.matches)
        if (m.deal == d) seeds += (seeds.empty() ? "" : ", ") + std::to_string(m.seed);
      if (!seeds.empty()) ++reproduced;
      t += fmt::format("  deal {} ({} cards): {}\n", d + 1, deals[d].size(),
                       seeds.empty() ? std::string("no seed in the range") : "seed " + seeds);
    }
    t += fmt::format("{} of {} logged deals reproduced.\n", reproduced, deals.size());
    for (const auto& m : result.matches)
      if (m.deal == last_deal) {
        last_seed = m.seed;
        break;
      }
  }
  j["reproduced_deals"] = [&] {
    auto a = nlohmann::ordered_json::array();
    for (std::size_t d = 0; d < deals.size(); ++d)
      if (reseed == reseed_mode::once ||
          std::any_of(result.matches.begin(), result.matches.end(), [&](const auto& m) { return m.deal == d; }))
        a.push_back(d + 1);
    return a;
  }();

  if (last_seed) {
    const std::size_t made = reseed == reseed_mode::once ? deals.size() + 1 : 1;
    const auto predicted = audit::family_deals(family.family, *last_seed, pack.cards.size(), made);
    const auto& last = predicted[made == 1 ? 0 : deals.size() - 1];
    const std::span<const std::uint32_t> rest(last.begin() + static_cast<std::ptrdiff_t>(deals[last_deal].size()),
                                              last.end());
    j["predicted_rest_of_last_deal"] = cards_json(pack, rest);
    if (rest.empty()) {
      t += fmt::format("\nDeal {} was logged whole: nothing of it is left to predict.\n", deals.size());
    } else {
      t += fmt::format("\nPredicted rest of deal {} (cards {} to {}):\n  {}\n", deals.size(), deals[last_deal].size() + 1,
                       last.size(), cards_text(pack, rest));
    }
    if (reseed == reseed_mode::once) {
      j["predicted_next_deal"] = cards_json(pack, predicted.back());
      t += fmt::format("Predicted next deal (deal {}):\n  {}\n", deals.size() + 1, cards_text(pack, predicted.back()));
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

int run_seed_search(const seed_search_cli_options& options) {
  parse_choice("--format", options.format, {"text", "json"});
  const auto report = make_seed_search_report(options);
  if (options.format == "json") {
    nlohmann::ordered_json doc;
    doc["seed_search"] = report.json;
    write_stdout(doc.dump(2) + "\n");
  } else {
    write_stdout(report.text);
  }
  return report.status;
}

}  // namespace shufl::cli
