// The seed search's modifiers as the command line gives them (see seed_search.hpp): --loop,
// --reduce and --carry-over into a family_variant, and a deck order read from a file.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>

#include "shufl/audit/seed_search.hpp"
#include "shufl/cards.hpp"
#include "shufl/error.hpp"

namespace shufl::audit {

family_variant parse_family_variant(const seed_family_info& family, std::string_view loop, std::string_view reduce,
                                    bool carry_over, bool try_variants, const seed_search_options& options) {
  if (try_variants && family.family == seed_family::node_math_random)
    throw error("--try-variants: node-math-random recovers a state, it has no seeds to try variants over (give --loop)");
  if (try_variants && (loop != "down" || !reduce.empty() || carry_over))
    throw error("--try-variants tries every --loop, --reduce and --carry-over the family takes: drop them");
  std::size_t logged = 0;
  for (const auto& d : options.deals) logged = std::max(logged, d.size());
  const reseed_mode reseed = options.reseed;
  family_variant v;
  const auto colon = loop.find(':');
  const std::string_view name = loop.substr(0, colon);
  const auto& loops = shuffle_loop_names;
  const auto at = std::find(loops.begin(), loops.end(), name);
  if (at == loops.end()) throw unknown_name_error("--loop", name, loops);
  v.loop = static_cast<shuffle_loop>(at - loops.begin());
  if (colon != std::string_view::npos) {
    // sample:K, K the cards random.sample deals (default: the logged cards).
    const std::string_view k = loop.substr(colon + 1);
    const auto [p, ec] = std::from_chars(k.data(), k.data() + k.size(), v.sample_size);
    if (v.loop != shuffle_loop::sample || ec != std::errc() || p != k.data() + k.size() || k.empty() || v.sample_size == 0)
      throw error(fmt::format("--loop {}: only sample takes a size, a whole number of cards (sample:K)", loop));
  } else if (v.loop == shuffle_loop::sample) {
    v.sample_size = logged;
  }
  v.carry_over = carry_over;
  if (carry_over && reseed != reseed_mode::once)
    throw error("--carry-over needs --reseed once: a list carried from deal to deal is shuffled by one generator running "
                "on");
  if (!reduce.empty()) {
    const auto& rules = draw_reduction_names;
    const auto r = std::find(rules.begin(), rules.end(), reduce);
    if (r == rules.end()) throw unknown_name_error("--reduce", reduce, rules);
    if (*r == "mod" && family.family != seed_family::c_rand && family.family != seed_family::go_math_rand)
      throw error(fmt::format("--reduce mod: {} draws with its own rule; mod applies to c-rand (its default) and "
                              "go-math-rand (r.Intn in a hand-written loop)",
                              family.name));
    // c-rand's native draw is rand() % k: mod is its default.
    v.reduce = *r == "div"                                                 ? draw_reduction::div
               : *r == "mod" && family.family == seed_family::go_math_rand ? draw_reduction::mod
                                                                           : draw_reduction::native;
  }
  check_variant(family.family, v);
  return v;
}

std::pair<std::uint64_t, std::uint64_t> parse_shard(std::string_view text) {
  const auto slash = text.find('/');
  std::uint64_t i = 0, n = 0;
  const auto number = [](std::string_view t, std::uint64_t& v) {
    const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    return !t.empty() && ec == std::errc() && p == t.data() + t.size();
  };
  if (slash == std::string_view::npos || !number(text.substr(0, slash), i) || !number(text.substr(slash + 1), n))
    throw error(fmt::format("--shard: expected I/N (shard I of N, 0 <= I < N), got '{}'", text));
  if (n == 0 || i >= n) throw error(fmt::format("--shard {}: shards are numbered 0 to N-1 (0 <= I < N)", text));
  return {i, n};
}

std::vector<std::uint32_t> read_deck_order(text_reader& in, const deck& pack) {
  std::vector<std::uint32_t> order;
  std::vector<bool> seen(pack.cards.size());
  std::vector<cards::line_item> items;
  std::string_view line;
  std::size_t line_number = 0;
  while (in.next(line)) {
    ++line_number;
    cards::read_line_items(line, items);
    for (const auto& item : items) {
      // A named card, or a custom pack's label (the first copy not yet listed: labels may repeat).
      const auto names = [&](const card& c) { return (item.named && c == *item.named) || (!c.label.empty() && c.label == item.text); };
      auto at = std::find_if(pack.cards.begin(), pack.cards.end(),
                             [&](const card& c) { return names(c) && !seen[static_cast<std::size_t>(&c - pack.cards.data())]; });
      if (at == pack.cards.end()) at = std::find_if(pack.cards.begin(), pack.cards.end(), names);  // listed already
      if (at == pack.cards.end())
        throw error(fmt::format("--deck-order {}: line {}: {} is not a card of the pack ({})", in.name(), line_number,
                                cards::quote_input_text(item.text), pack.description));
      const auto c = static_cast<std::uint32_t>(at - pack.cards.begin());
      if (seen[c])
        throw error(fmt::format("--deck-order {}: line {}: {} appears twice", in.name(), line_number,
                                cards::quote_input_text(item.text)));
      seen[c] = true;
      order.push_back(c);
    }
  }
  if (order.size() != pack.cards.size())
    throw error(fmt::format("--deck-order {}: {} cards, the pack has {} (every card once, in the list's starting order)",
                            in.name(), order.size(), pack.cards.size()));
  bool canonical = true;
  for (std::size_t i = 0; i < order.size(); ++i) canonical = canonical && order[i] == i;
  if (canonical) order.clear();
  return order;
}

}  // namespace shufl::audit
