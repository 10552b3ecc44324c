// --game poker / blackjack of `shufl audit`: hands dealt round the table (--deal HxC), each
// classified (audit/laws.hpp), and the per-seat chi-squared test of the classes against their
// exact law, combined over seats by Bonferroni (the hands of one deck are dependent; each seat's
// hands over decks are independent). See audit.hpp and docs/audit.md.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <string>

#include "shufl/audit.hpp"
#include "shufl/audit/laws.hpp"
#include "shufl/error.hpp"
#include "shufl/stats.hpp"

namespace shufl::audit {

namespace {

// A number of --deal, in the command line's words for a bad one.
std::uint64_t deal_number(std::string_view text) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value, 10);
  if (text.empty() || ec == std::errc::invalid_argument || ptr != end) {
    throw error(fmt::format("invalid value '{}' for --deal: expected a non-negative decimal integer", text));
  }
  if (ec == std::errc::result_out_of_range) throw error(fmt::format("invalid value '{}' for --deal: too large", text));
  return value;
}

}  // namespace

game_deal parse_game(std::optional<std::string_view> game, std::optional<std::string_view> deal) {
  game_deal g;
  if (!game) {
    if (deal) throw error("--deal applies to --game");
    return g;
  }
  if (*game == game_names[0]) {
    g.game = game_kind::poker;
  } else if (*game == game_names[1]) {
    g.game = game_kind::blackjack;
  } else {
    throw error(fmt::format("invalid value '{}' for --game: expected {} or {}", *game, game_names[0], game_names[1]));
  }
  g.hands = g.game == game_kind::poker ? 1 : 2;
  g.cards = g.game == game_kind::poker ? 5 : 2;
  if (deal) {
    const auto x = deal->find('x');
    if (x == std::string_view::npos || x == 0 || x + 1 == deal->size()) {
      throw error(fmt::format("--deal takes HxC (hands x cards each), e.g. 6x5, not '{}'", *deal));
    }
    const std::uint64_t h = deal_number(deal->substr(0, x)), c = deal_number(deal->substr(x + 1));
    if (h < 1 || h > 1024) throw error("--deal: the number of hands must be between 1 and 1024");
    if (c > 1024) throw error("--deal: too many cards per hand");
    g.hands = static_cast<std::size_t>(h);
    g.cards = static_cast<std::size_t>(c);
  }
  return g;
}

std::string_view game_test_name(game_kind game) noexcept {
  switch (game) {
    case game_kind::poker: return "poker-hands";
    case game_kind::blackjack: return "blackjack-hands";
    case game_kind::none: break;
  }
  return "";
}

std::size_t game_class_count(game_kind game) noexcept {
  switch (game) {
    case game_kind::poker: return poker_class_count;
    case game_kind::blackjack: return blackjack_class_count;
    case game_kind::none: break;
  }
  return 0;
}

void set_game(battery_shape& shape, const audit_pack& pack, const game_deal& deal) {
  if (deal.game == game_kind::none) return;
  const bool standard = pack.name == "standard" && pack.jokers == 0;
  if (deal.game == game_kind::poker) {
    if (!standard || pack.decks != 1) throw error("--game poker needs a standard 52-card pack without jokers");
    if (deal.cards != 5) throw error(fmt::format("--game poker deals hands of 5 cards, not {}", deal.cards));
  } else {
    if (!standard || pack.decks > 1'000'000) {
      throw error("--game blackjack needs a shoe of standard 52-card packs without jokers (--pack standard --decks K)");
    }
    if (deal.cards != 2) throw error(fmt::format("--game blackjack deals hands of 2 cards, not {}", deal.cards));
  }
  if (deal.hands < 1) throw error("--deal needs at least one hand");
  if (deal.hands > shape.positions / deal.cards) {
    throw error(fmt::format("--deal {}x{} needs {} cards per deck; {} {}", deal.hands, deal.cards,
                            deal.hands * deal.cards, shape.whole() ? "a deck has" : "--dealt gives",
                            shape.positions));
  }
  shape.game = deal;
  shape.shoe_decks = pack.decks;
}

void add_game_hands(const battery_shape& shape, const std::uint32_t* deck, std::uint64_t* counts) noexcept {
  const game_deal& g = shape.game;
  const std::size_t H = g.hands;
  if (g.game == game_kind::poker) {
    for (std::size_t h = 0; h < H; ++h) {
      std::array<playing_card, 5> hand;
      for (std::size_t c = 0; c < 5; ++c) {
        const std::uint32_t f = deck[h + c * H];
        hand[c] = playing_card{static_cast<std::uint8_t>(shape.suit_of[f]), static_cast<std::uint8_t>(shape.rank_of[f])};
      }
      ++counts[h * poker_class_count + static_cast<std::size_t>(classify_poker_hand(hand))];
    }
  } else if (g.game == game_kind::blackjack) {
    for (std::size_t h = 0; h < H; ++h) {
      const auto r1 = static_cast<std::uint8_t>(shape.rank_of[deck[h]]);
      const auto r2 = static_cast<std::uint8_t>(shape.rank_of[deck[h + H]]);
      ++counts[h * blackjack_class_count + classify_blackjack(r1, r2)];
    }
  }
}

// Pooling rule (both games): walking from the last class to the first, classes join one pool
// until its expected count reaches 5, then the next pool starts; a last pool below 5 joins the
// one before. The pools are runs of neighbouring classes in class order.
test_report game_test(const battery_shape& shape, std::span<const std::uint64_t> counts, std::uint64_t decks) {
  const game_deal& g = shape.game;
  const std::size_t classes = game_class_count(g.game), H = g.hands;
  test_report r;
  r.name = std::string(game_test_name(g.game));
  r.decks = decks;
  r.tail = "upper";
  std::vector<double> law(classes);
  for (std::size_t c = 0; c < classes; ++c) {
    r.columns.push_back(g.game == game_kind::poker ? std::string(poker_class_name(static_cast<poker_class>(c)))
                                                   : blackjack_class_label(c));
  }
  std::string source;
  if (g.game == game_kind::poker) {
    law = poker_class_law();
    source = "exact: 5-card hand classes out of C(52,5) = 2598960";
  } else {
    const auto bj = blackjack_class_law(shape.shoe_decks);
    for (std::size_t c = 0; c < classes; ++c) law[c] = bj[c].probability;
    source = fmt::format("exact: two-card classes from a shoe of {} pack{}, by enumeration over ranks (out of {}*{})",
                         shape.shoe_decks, shape.shoe_decks == 1 ? "" : "s", 52 * shape.shoe_decks,
                         52 * shape.shoe_decks - 1);
  }
  r.table.assign(counts.begin(), counts.end());
  r.table_rows = H;
  r.table_columns = classes;

  const double T = static_cast<double>(decks);
  // pool_of[c]: the pool of class c.
  std::vector<std::size_t> pool_of(classes);
  std::vector<double> expected;
  std::vector<std::string> names;
  double current = 0;
  std::string current_names;
  for (std::size_t c = classes; c-- > 0;) {
    current += T * law[c];
    if (!current_names.empty()) current_names.append("+");
    current_names.append(r.columns[c]);
    pool_of[c] = expected.size();
    if (current >= 5) {
      expected.push_back(current);
      names.push_back(current_names);
      current = 0;
      current_names.clear();
    }
  }
  if (!current_names.empty()) {
    if (expected.empty()) {
      expected.push_back(current);
      names.push_back(current_names);
    } else {
      for (std::size_t c = 0; c < classes; ++c) {
        if (pool_of[c] == expected.size()) pool_of[c] = expected.size() - 1;
      }
      expected.back() += current;
      names.back().append("+").append(current_names);
    }
  }
  std::string pooled;
  for (const auto& n : names) {
    if (n.find('+') != std::string::npos) pooled.append(pooled.empty() ? "pooled: " : "; ").append(n);
  }
  r.law = fmt::format("{}; per seat, Pearson X^2 over classes pooled from the last until each pool expects at least 5{}",
                      source, H > 1 ? fmt::format("; Bonferroni over the {} seats (hands of one deck are dependent)", H)
                                    : std::string());
  if (expected.size() < 2) {
    r.result = test_outcome::not_valid;
    r.note = "fewer than two classes expect 5 hands: more decks are needed";
    return r;
  }
  const double df = static_cast<double>(expected.size() - 1);
  double max_x2 = -1, min_ln_p = 0;
  std::size_t worst = 0;
  for (std::size_t h = 0; h < H; ++h) {
    std::vector<double> observed(expected.size(), 0);
    for (std::size_t c = 0; c < classes; ++c) observed[pool_of[c]] += static_cast<double>(counts[h * classes + c]);
    double x2 = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const double d = observed[i] - expected[i];
      x2 += d * d / expected[i];
    }
    if (x2 > max_x2) {
      max_x2 = x2;
      worst = h;
      min_ln_p = chi_squared_upper_tail(x2, df).ln_p;
    }
  }
  const double ln_p = std::min(0.0, min_ln_p + std::log(static_cast<double>(H)));
  r.observed = max_x2;
  r.expected = df;
  r.statistic = max_x2;
  r.df = df;
  r.ln_p = ln_p;
  r.p = std::exp(ln_p);
  r.note = pooled;
  if (H > 1) {
    r.note.append(r.note.empty() ? "" : "; ")
        .append(fmt::format("{} seats: statistic and p of seat {} (the largest X^2), p times {} (Bonferroni)", H,
                            worst + 1, H));
  }
  r.result = test_outcome::pass;
  return r;
}

}  // namespace shufl::audit
