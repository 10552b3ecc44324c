// Card-game laws of `shufl audit`: 5-card poker hand classes and the blackjack classes of the
// first two cards (see include/shufl/audit/laws.hpp).
#include <algorithm>
#include <array>
#include <string>

#include "shufl/audit/laws.hpp"
#include "shufl/error.hpp"

namespace shufl::audit {
namespace {

constexpr std::uint64_t choose(std::uint64_t n, std::uint64_t k) noexcept {
  std::uint64_t r = 1;
  for (std::uint64_t i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}

constexpr std::uint8_t rank_ace = 0;

/// Blackjack value of a non-Ace rank index: 2..9 for 1..8, 10 for 10, J, Q, K.
constexpr unsigned hard_value(std::uint8_t rank) noexcept { return rank >= 9 ? 10U : rank + 1U; }

}  // namespace

std::string_view poker_class_name(poker_class c) noexcept {
  static constexpr std::array<std::string_view, poker_class_count> names{
      "high-card", "one-pair", "two-pair", "three-of-a-kind", "straight",
      "flush",     "full-house", "four-of-a-kind", "straight-flush"};
  const auto i = static_cast<std::size_t>(c);
  return i < names.size() ? names[i] : std::string_view("?");
}

poker_class classify_poker_hand(std::span<const playing_card, 5> hand) noexcept {
  std::array<unsigned, 13> count{};
  unsigned rank_bits = 0;
  bool one_suit = true;
  for (const playing_card& c : hand) {
    ++count[c.rank % 13];
    rank_bits |= 1U << (c.rank % 13);
    one_suit = one_suit && c.suit == hand[0].suit;
  }
  // Rank bits with the Ace also above the King (bit 13), so 10-J-Q-K-A is five adjacent bits.
  const unsigned bits = rank_bits | ((rank_bits & 1U) << 13);
  bool straight = false;
  for (unsigned low = 0; low + 5 <= 14; ++low)
    if (((bits >> low) & 0x1FU) == 0x1FU) straight = true;
  std::array<unsigned, 5> by_size{};  // how many ranks appear 1..4 times
  for (unsigned k : count)
    if (k > 0) ++by_size[std::min(k, 4U)];
  if (straight && one_suit) return poker_class::straight_flush;
  if (by_size[4] == 1) return poker_class::four_of_a_kind;
  if (by_size[3] == 1 && by_size[2] == 1) return poker_class::full_house;
  if (one_suit) return poker_class::flush;
  if (straight) return poker_class::straight;
  if (by_size[3] == 1) return poker_class::three_of_a_kind;
  if (by_size[2] == 2) return poker_class::two_pair;
  if (by_size[2] == 1) return poker_class::one_pair;
  return poker_class::high_card;
}

std::array<std::uint64_t, poker_class_count> poker_class_counts() noexcept {
  const std::uint64_t rank_sets = choose(13, 5);  // five different ranks
  const std::uint64_t straights = 10;             // A-5 .. 10-A
  std::array<std::uint64_t, poker_class_count> c{};
  c[static_cast<std::size_t>(poker_class::straight_flush)] = straights * 4;
  c[static_cast<std::size_t>(poker_class::four_of_a_kind)] = 13 * 48;
  c[static_cast<std::size_t>(poker_class::full_house)] = 13 * choose(4, 3) * 12 * choose(4, 2);
  c[static_cast<std::size_t>(poker_class::flush)] = 4 * (rank_sets - straights);
  c[static_cast<std::size_t>(poker_class::straight)] = straights * (1024 - 4);
  c[static_cast<std::size_t>(poker_class::three_of_a_kind)] =
      13 * choose(4, 3) * choose(12, 2) * 4 * 4;
  c[static_cast<std::size_t>(poker_class::two_pair)] =
      choose(13, 2) * choose(4, 2) * choose(4, 2) * 11 * 4;
  c[static_cast<std::size_t>(poker_class::one_pair)] =
      13 * choose(4, 2) * choose(12, 3) * 4 * 4 * 4;
  c[static_cast<std::size_t>(poker_class::high_card)] = (rank_sets - straights) * (1024 - 4);
  return c;
}

std::vector<double> poker_class_law() {
  const auto counts = poker_class_counts();
  const double total = static_cast<double>(choose(52, 5));
  std::vector<double> law(poker_class_count);
  for (std::size_t i = 0; i < poker_class_count; ++i)
    law[i] = static_cast<double>(counts[i]) / total;
  return law;
}

std::string blackjack_class_label(std::size_t index) {
  if (index == 0) return "natural";
  if (index == 1) return "pair";
  if (index < 10) return "soft " + std::to_string(index + 11);
  return "hard " + std::to_string(index - 5);
}

std::size_t classify_blackjack(std::uint8_t rank1, std::uint8_t rank2) noexcept {
  const bool ace1 = rank1 == rank_ace, ace2 = rank2 == rank_ace;
  if ((ace1 && rank2 >= 9) || (ace2 && rank1 >= 9)) return 0;
  if (rank1 == rank2) return 1;
  if (ace1 || ace2) return hard_value(ace1 ? rank2 : rank1);  // soft 11 + v → index v
  return hard_value(rank1) + hard_value(rank2) + 5;  // hard h → index h + 5
}

std::vector<labelled_probability> blackjack_class_law(std::uint64_t decks) {
  if (decks < 1 || decks > 1'000'000)
    throw error("audit: blackjack laws need 1 to 1000000 decks, not " + std::to_string(decks));
  const std::uint64_t per_rank = 4 * decks, cards = 52 * decks;
  std::vector<labelled_probability> law(blackjack_class_count);
  for (std::size_t i = 0; i < law.size(); ++i) {
    law[i].label = blackjack_class_label(i);
    law[i].denominator = cards * (cards - 1);
  }
  for (std::uint8_t a = 0; a < 13; ++a)
    for (std::uint8_t b = 0; b < 13; ++b)
      law[classify_blackjack(a, b)].numerator += per_rank * (per_rank - (a == b ? 1 : 0));
  for (auto& c : law)
    c.probability = static_cast<double>(c.numerator) / static_cast<double>(c.denominator);
  return law;
}

}  // namespace shufl::audit
