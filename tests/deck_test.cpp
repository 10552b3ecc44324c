// Unit tests of include/shufl/deck.hpp: packs, shoes, pair decks, card codes and styles, seeded
// shuffles, dealing, order counts, commitments, and a chi-squared test of card positions.
#include "shufl/deck.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "shufl/error.hpp"
#include "shufl/random.hpp"
#include "shufl/stats.hpp"

namespace shufl {
namespace {

// The order is a permutation of 0..n-1: every card object appears exactly once.
bool is_permutation_of_indices(std::vector<std::uint32_t> order, std::size_t n) {
  if (order.size() != n) return false;
  std::sort(order.begin(), order.end());
  for (std::size_t i = 0; i < n; ++i) {
    if (order[i] != i) return false;
  }
  return true;
}

std::map<card, int> multiset(const std::vector<card>& cards) {
  std::map<card, int> m;
  for (const auto& c : cards) ++m[c];
  return m;
}

std::vector<card> cards_in_order(const deck& d, const std::vector<std::uint32_t>& order) {
  std::vector<card> out;
  for (const auto i : order) out.push_back(d.cards[i]);
  return out;
}

template <class F>
std::string error_message(F&& f) {
  try {
    f();
  } catch (const error& e) {
    return e.what();
  }
  return "<no error>";
}

// D01: every shuffled 52-card deck has 52 distinct cards, 13 ranks x 4 suits, for many seeds.
TEST(DeckD01, EveryShuffledDeckIsAPermutationOf52DistinctCards) {
  const deck d = make_pack(pack_kind::standard);
  ASSERT_EQ(d.cards.size(), 52u);
  for (int s = 1; s <= 300; ++s) {
    const auto order = shuffle_indices(52, deck_randomness{std::to_string(s), {}});
    ASSERT_TRUE(is_permutation_of_indices(order, 52)) << "seed " << s;
    const auto cards = cards_in_order(d, order);
    std::set<card> distinct(cards.begin(), cards.end());
    ASSERT_EQ(distinct.size(), 52u);
    std::map<int, int> ranks, suits;
    for (const auto& c : cards) {
      ASSERT_EQ(c.kind, card_kind::suited);
      ++ranks[c.rank];
      ++suits[static_cast<int>(c.suit)];
    }
    ASSERT_EQ(ranks.size(), 13u);
    for (const auto& [r, n] : ranks) ASSERT_EQ(n, 4) << "rank " << r;
    ASSERT_EQ(suits.size(), 4u);
    for (const auto& [su, n] : suits) ASSERT_EQ(n, 13);
  }
}

TEST(DeckD01, UnseededOsShufflesArePermutationsToo) {
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(is_permutation_of_indices(shuffle_indices(52, deck_randomness{}), 52));
  }
  // Two unseeded decks are equal with probability 1/52!.
  EXPECT_NE(shuffle_indices(52, deck_randomness{}), shuffle_indices(52, deck_randomness{}));
}

// Every deck and shoe is a permutation of its multiset, for many seeds and every engine.
TEST(DeckPermutation, EveryDeckAndShoeForManySeedsAndEngines) {
  std::vector<deck> decks;
  for (const auto kind : {pack_kind::standard, pack_kind::piquet, pack_kind::euchre, pack_kind::tarot}) {
    for (const std::uint64_t k : {1, 2, 6}) decks.push_back(make_pack(kind, k));
  }
  decks.push_back(make_pack(pack_kind::standard, 8, 2));
  decks.push_back(make_pack(pack_kind::euchre, 1, 1));
  const std::vector<std::string> labels = {"red", "red", "blue", "skip", "+2"};
  decks.push_back(make_custom(labels, 3));
  const std::vector<std::string> symbols(default_symbols().begin(), default_symbols().end());
  decks.push_back(make_pairs(18, symbols));
  for (const auto& d : decks) {
    const auto expected = multiset(d.cards);
    for (int s = 0; s < 40; ++s) {
      for (const auto engine : {engine_kind::chacha20, engine_kind::xoshiro256pp, engine_kind::mt19937,
                                engine_kind::minstd}) {
        const auto order = shuffle_indices(d.cards.size(), deck_randomness{fmt::format("p{}", s), engine});
        ASSERT_TRUE(is_permutation_of_indices(order, d.cards.size())) << d.description;
        ASSERT_EQ(multiset(cards_in_order(d, order)), expected) << d.description;
      }
    }
  }
}

// D02: dealing never duplicates a card; the stock does not overlap the hands.
TEST(DeckD02, DealsAreDisjointAndCoverTheDeck) {
  for (int s = 0; s < 200; ++s) {
    const auto order = shuffle_indices(52, deck_randomness{fmt::format("d{}", s), {}});
    const deal_result r = deal(order, deal_spec{4, 5, static_cast<std::uint64_t>(s % 3)});
    ASSERT_EQ(r.hands.size(), 4u);
    std::set<std::uint32_t> dealt;
    for (const auto& h : r.hands) {
      ASSERT_EQ(h.size(), 5u);
      dealt.insert(h.begin(), h.end());
    }
    ASSERT_EQ(dealt.size(), 20u);
    std::set<std::uint32_t> all = dealt;
    for (const auto i : r.stock) ASSERT_FALSE(dealt.count(i)) << "stock card was dealt";
    for (const auto i : r.burned) ASSERT_FALSE(dealt.count(i)) << "burned card was dealt";
    all.insert(r.stock.begin(), r.stock.end());
    all.insert(r.burned.begin(), r.burned.end());
    ASSERT_EQ(all.size(), 52u);
    ASSERT_EQ(r.burned.size() + 20 + r.stock.size(), 52u);
  }
}

TEST(DeckD02, DealingGoesRoundTheTableAfterTheBurn) {
  std::vector<std::uint32_t> order(12);
  std::iota(order.begin(), order.end(), 0u);
  const deal_result r = deal(order, deal_spec{3, 2, 1});
  EXPECT_EQ(r.burned, (std::vector<std::uint32_t>{0}));
  EXPECT_EQ(r.hands[0], (std::vector<std::uint32_t>{1, 4}));
  EXPECT_EQ(r.hands[1], (std::vector<std::uint32_t>{2, 5}));
  EXPECT_EQ(r.hands[2], (std::vector<std::uint32_t>{3, 6}));
  EXPECT_EQ(r.stock, (std::vector<std::uint32_t>{7, 8, 9, 10, 11}));
  // Exactly the whole deck is fine; the stock is then empty.
  EXPECT_TRUE(deal(order, deal_spec{3, 4, 0}).stock.empty());
}

TEST(DeckD02, ImpossibleDealsAreErrors) {
  std::vector<std::uint32_t> order(52);
  std::iota(order.begin(), order.end(), 0u);
  EXPECT_NE(error_message([&] { deal(order, {4, 14, 0}); }).find("needs 56 cards"), std::string::npos);
  EXPECT_NE(error_message([&] { deal(order, {4, 13, 1}); }).find("after burning 1"), std::string::npos);
  EXPECT_THROW(deal(order, {0, 5, 0}), error);
  EXPECT_THROW(deal(order, {5, 0, 0}), error);
  EXPECT_THROW(deal(order, {1, 1, 52}), error);
  EXPECT_THROW(deal(order, {~std::uint64_t{0}, 2, 0}), error);           // hands x cards overflows
  EXPECT_THROW(deal(order, {1, 1, ~std::uint64_t{0}}), error);           // burn + dealt overflows
  EXPECT_THROW(deal(order, {std::uint64_t{1} << 32, std::uint64_t{1} << 32, 0}), error);
}

// D03: 2 decks -> 104 cards, each of the 52 exactly twice (also after shuffling).
TEST(DeckD03, TwoDecksHoldEachCardTwice) {
  const deck d = make_pack(pack_kind::standard, 2);
  ASSERT_EQ(d.cards.size(), 104u);
  for (int s = 0; s < 50; ++s) {
    const auto m = multiset(cards_in_order(d, shuffle_indices(104, deck_randomness{std::to_string(s), {}})));
    ASSERT_EQ(m.size(), 52u);
    for (const auto& [c, n] : m) ASSERT_EQ(n, 2);
  }
  EXPECT_EQ(make_pack(pack_kind::standard, 6).cards.size(), 312u);
  EXPECT_EQ(make_pack(pack_kind::standard, 8).cards.size(), 416u);
  EXPECT_EQ(make_pack(pack_kind::standard, 2).description, "2-deck shoe of standard 52-card decks");
}

// D04: memory-match decks.
TEST(DeckD04, PairDecksHoldEverySymbolExactlyTwiceAsDistinctCards) {
  const std::vector<std::string> symbols(default_symbols().begin(), default_symbols().end());
  const deck d = make_pairs(6, symbols);
  ASSERT_EQ(d.cards.size(), 12u);
  for (int s = 0; s < 100; ++s) {
    const auto order = shuffle_indices(12, deck_randomness{std::to_string(s), {}});
    ASSERT_TRUE(is_permutation_of_indices(order, 12));  // 12 distinct card objects
    const auto m = multiset(cards_in_order(d, order));
    ASSERT_EQ(m.size(), 6u);
    for (const auto& [c, n] : m) ASSERT_EQ(n, 2) << c.label;
  }
}

TEST(DeckD04, OddGridsAndTooManyPairsAreErrorsThatSayWhy) {
  const std::string odd = error_message([] { pairs_for_grid(5, 5); });
  EXPECT_NE(odd.find("25 cells"), std::string::npos) << odd;
  EXPECT_NE(odd.find("odd"), std::string::npos) << odd;
  EXPECT_EQ(pairs_for_grid(4, 4), 8u);
  EXPECT_EQ(pairs_for_grid(5, 6), 15u);
  EXPECT_THROW(pairs_for_grid(0, 4), error);
  const std::vector<std::string> four = {"cat", "dog", "fox", "owl"};
  const std::string many = error_message([&] { make_pairs(6, four); });
  EXPECT_NE(many.find("only 4"), std::string::npos) << many;
  EXPECT_NO_THROW(make_pairs(4, four));
  const std::vector<std::string> symbols(default_symbols().begin(), default_symbols().end());
  EXPECT_EQ(symbols.size(), 62u);
  EXPECT_NO_THROW(make_pairs(62, symbols));
  EXPECT_THROW(make_pairs(63, symbols), error);
  EXPECT_THROW(make_pairs(0, symbols), error);
  const std::vector<std::string> repeated = {"cat", "dog", "cat"};
  EXPECT_THROW(make_pairs(3, repeated), error);
}

TEST(DeckPacks, SizesAndContents) {
  EXPECT_EQ(make_pack(pack_kind::standard).cards.size(), 52u);
  EXPECT_EQ(make_pack(pack_kind::piquet).cards.size(), 32u);
  EXPECT_EQ(make_pack(pack_kind::euchre).cards.size(), 24u);
  const deck tarot = make_pack(pack_kind::tarot);
  ASSERT_EQ(tarot.cards.size(), 78u);
  EXPECT_EQ(std::count_if(tarot.cards.begin(), tarot.cards.end(), [](const card& c) { return c.kind == card_kind::trump; }), 22);
  EXPECT_EQ(std::count_if(tarot.cards.begin(), tarot.cards.end(), [](const card& c) { return c.kind == card_kind::suited && c.rank == rank_knight; }), 4);
  EXPECT_EQ(multiset(tarot.cards).size(), 78u);
  // Piquet: 7 to Ace; euchre: 9 to Ace.
  for (const auto& c : make_pack(pack_kind::piquet).cards) EXPECT_TRUE(c.rank == rank_ace || (c.rank >= 7 && c.rank != rank_knight));
  for (const auto& c : make_pack(pack_kind::euchre).cards) EXPECT_TRUE(c.rank == rank_ace || (c.rank >= 9 && c.rank != rank_knight));
  EXPECT_EQ(parse_pack("skat"), pack_kind::piquet);
  EXPECT_NE(error_message([] { parse_pack("tarto"); }).find("did you mean 'tarot'"), std::string::npos);
}

TEST(DeckPacks, JokersAreRedAndBlackAndDistinct) {
  const deck d = make_pack(pack_kind::standard, 1, 2);
  ASSERT_EQ(d.cards.size(), 54u);
  EXPECT_EQ(d.cards[52], joker_card(true));
  EXPECT_EQ(d.cards[53], joker_card(false));
  EXPECT_NE(joker_card(true), joker_card(false));
  EXPECT_EQ(format_card(d.cards[52], card_style::code), "RJ");
  EXPECT_EQ(format_card(d.cards[53], card_style::code), "BJ");
  EXPECT_EQ(format_card(d.cards[52], card_style::name), "Red Joker");
  EXPECT_EQ(format_card(d.cards[53], card_style::glyph), "\U0001F0CF");
  EXPECT_EQ(format_card(d.cards[52], card_style::glyph), "\U0001F0BF");
  EXPECT_EQ(make_pack(pack_kind::standard, 2, 2).cards.size(), 108u);
  EXPECT_THROW(make_pack(pack_kind::tarot, 1, 1), error);
  EXPECT_THROW(make_pack(pack_kind::standard, 0), error);
  EXPECT_THROW(make_pack(pack_kind::standard, std::uint64_t{1} << 40), error);
}

TEST(DeckCards, CodesAreUniqueAndRoundTrip) {
  std::vector<card> all = make_pack(pack_kind::tarot).cards;
  for (const auto& c : make_pack(pack_kind::standard, 1, 2).cards) all.push_back(c);
  const auto m = multiset(all);
  for (const auto style : {card_style::code, card_style::unicode, card_style::glyph, card_style::name}) {
    std::set<std::string> texts;
    for (const auto& [c, n] : m) texts.insert(format_card(c, style));
    EXPECT_EQ(texts.size(), m.size()) << "style " << static_cast<int>(style) << " is ambiguous";
  }
  for (const auto& [c, n] : m) {
    const std::string code = format_card(c, card_style::code);
    const auto back = parse_card_code(code);
    ASSERT_TRUE(back.has_value()) << code;
    EXPECT_EQ(*back, c) << code;
  }
  for (const auto bad : {"", "A", "1s", "Ax", "As ", "10s", "22t", "01t", "t", "RJx", "Jk", "ZZ"}) {
    EXPECT_FALSE(parse_card_code(bad).has_value()) << bad;
  }
}

// canonical_card_key orders every named pack as make_pack builds it (the deck.hpp file comment).
TEST(DeckCards, CanonicalKeyFollowsEveryPacksOrder) {
  for (const auto kind : {pack_kind::standard, pack_kind::piquet, pack_kind::euchre, pack_kind::tarot}) {
    const deck d = make_pack(kind, 1, kind == pack_kind::tarot ? 0 : 2);
    for (std::size_t i = 1; i < d.cards.size(); ++i) {
      EXPECT_LT(canonical_card_key(d.cards[i - 1]), canonical_card_key(d.cards[i])) << pack_name(kind) << " " << i;
      EXPECT_LT(canonical_card_key(d.cards[i]), 4096U);
    }
  }
  EXPECT_EQ(canonical_card_key(custom_card("x")), 4096U);
}

TEST(DeckCards, EveryStyleParsesBackToItsCard) {
  constexpr card_style styles[] = {card_style::code, card_style::unicode, card_style::glyph, card_style::name};
  for (const auto kind : {pack_kind::standard, pack_kind::piquet, pack_kind::euchre, pack_kind::tarot}) {
    const deck d = make_pack(kind, 1, kind == pack_kind::tarot ? 0 : 2);
    for (const auto& c : d.cards) {
      for (const auto style : styles) {
        const std::string text = format_card(c, style);
        EXPECT_EQ(parse_card(text, style), c) << text;
        EXPECT_EQ(parse_card_any(text), c) << text;
      }
    }
  }
  // Hand-written texts (the conventions of StylesMatchTheConventions, read the other way).
  EXPECT_EQ(parse_card_any("Ace of Spades"), suited_card(rank_ace, card_suit::spades));
  EXPECT_EQ(parse_card_any("Knight of Hearts"), suited_card(rank_knight, card_suit::hearts));
  EXPECT_EQ(parse_card_any("10\u2665"), suited_card(10, card_suit::hearts));
  EXPECT_EQ(parse_card_any("C\u2666"), suited_card(rank_knight, card_suit::diamonds));
  EXPECT_EQ(parse_card_any("\U0001F0DE"), suited_card(rank_king, card_suit::clubs));
  EXPECT_EQ(parse_card_any("\U0001F0BF"), joker_card(true));
  EXPECT_EQ(parse_card_any("\U0001F0CF"), joker_card(false));
  EXPECT_EQ(parse_card_any("\U0001F0F5"), trump_card(21));
  EXPECT_EQ(parse_card_any("The Fool"), trump_card(0));
  EXPECT_EQ(parse_card_any("Trump 21"), trump_card(21));
  EXPECT_EQ(parse_card_any("Red Joker"), joker_card(true));
  EXPECT_EQ(parse_card_any("BJ"), joker_card(false));
  EXPECT_EQ(parse_card("RJ", card_style::unicode), joker_card(true));
  EXPECT_EQ(parse_card("0t", card_style::unicode), trump_card(0));
  EXPECT_FALSE(parse_card("As", card_style::unicode).has_value());
  EXPECT_FALSE(parse_card("A\u2660", card_style::code).has_value());
  EXPECT_FALSE(parse_card("Ace of Spades", card_style::glyph).has_value());
  for (const auto bad : {"", "ace of spades", "Ace of  Spades", " As", "As ", "1s", "100s", "Tx", "AST", "10x", "tt", "rj", "Trump 22", "Trump 0",
                         "The fool", "1\u2660", "\U0001F0A0", "\U0001F0F6", "Joker"}) {
    EXPECT_FALSE(parse_card_any(bad).has_value()) << bad;
  }
}

TEST(DeckCards, CodesAreAlsoReadInTheirOtherSpellings) {
  // As people write them by hand: the ten as "10", either letter in either case.
  EXPECT_EQ(parse_card_any("10C"), suited_card(10, card_suit::clubs));
  EXPECT_EQ(parse_card_any("10d"), suited_card(10, card_suit::diamonds));
  EXPECT_EQ(parse_card_any("TD"), suited_card(10, card_suit::diamonds));
  EXPECT_EQ(parse_card_any("td"), suited_card(10, card_suit::diamonds));
  EXPECT_EQ(parse_card_any("AS"), suited_card(rank_ace, card_suit::spades));
  EXPECT_EQ(parse_card_any("kh"), suited_card(rank_king, card_suit::hearts));
  EXPECT_EQ(parse_card_any("9C"), suited_card(9, card_suit::clubs));
  EXPECT_EQ(parse_card_any("CS"), suited_card(rank_knight, card_suit::spades));
  // Every variant reads back as its card, and no variant is another card's label in any style.
  const deck d = make_pack(pack_kind::tarot, 1, 0);
  {
    const auto v = card_code_variants(suited_card(10, card_suit::hearts));
    EXPECT_EQ(std::set<std::string>(v.begin(), v.end()), (std::set<std::string>{"TH", "tH", "th", "10h", "10H"}));
    EXPECT_EQ(v.size(), 5U);
  }
  std::set<std::string> labels;
  for (const auto& c : d.cards) {
    for (const auto style : {card_style::code, card_style::unicode, card_style::glyph, card_style::name}) {
      labels.insert(format_card(c, style));
    }
  }
  std::size_t variants = 0;
  for (const auto& c : d.cards) {
    for (const auto& v : card_code_variants(c)) {
      ++variants;
      EXPECT_EQ(parse_card_any(v), c) << v;
      EXPECT_EQ(labels.count(v), 0U) << v;
    }
  }
  // 56 suited cards: 4 letter ranks + Knight have 3 variants each (2 cases of rank × 2 of suit − the code);
  // the ten 5; digits 2..9 one (the suit in capitals). 4 suits × (5·3 + 5 + 8·1) = 112.
  EXPECT_EQ(variants, 112U);
  EXPECT_TRUE(card_code_variants(joker_card(true)).empty());
  EXPECT_TRUE(card_code_variants(trump_card(10)).empty());
}

TEST(DeckCards, StylesMatchTheConventions) {
  EXPECT_EQ(format_card(suited_card(rank_ace, card_suit::spades), card_style::code), "As");
  EXPECT_EQ(format_card(suited_card(10, card_suit::diamonds), card_style::code), "Td");
  EXPECT_EQ(format_card(suited_card(9, card_suit::clubs), card_style::code), "9c");
  EXPECT_EQ(format_card(suited_card(rank_knight, card_suit::hearts), card_style::code), "Ch");
  EXPECT_EQ(format_card(suited_card(rank_ace, card_suit::spades), card_style::unicode), "A\u2660");
  EXPECT_EQ(format_card(suited_card(10, card_suit::hearts), card_style::unicode), "10\u2665");
  EXPECT_EQ(format_card(suited_card(rank_ace, card_suit::spades), card_style::glyph), "\U0001F0A1");
  EXPECT_EQ(format_card(suited_card(rank_knight, card_suit::spades), card_style::glyph), "\U0001F0AC");
  EXPECT_EQ(format_card(suited_card(rank_king, card_suit::clubs), card_style::glyph), "\U0001F0DE");
  EXPECT_EQ(format_card(suited_card(rank_queen, card_suit::hearts), card_style::glyph), "\U0001F0BD");
  EXPECT_EQ(format_card(suited_card(rank_ace, card_suit::spades), card_style::name), "Ace of Spades");
  EXPECT_EQ(format_card(trump_card(0), card_style::code), "0t");
  EXPECT_EQ(format_card(trump_card(21), card_style::code), "21t");
  EXPECT_EQ(format_card(trump_card(0), card_style::name), "The Fool");
  EXPECT_EQ(format_card(trump_card(0), card_style::glyph), "\U0001F0E0");
  EXPECT_EQ(format_card(trump_card(21), card_style::glyph), "\U0001F0F5");
  EXPECT_EQ(format_card(custom_card("Uno"), card_style::name), "Uno");
  EXPECT_THROW(parse_card_style("emoji"), error);
}

TEST(DeckCustom, ListsAndLabels) {
  EXPECT_EQ(split_label_list(" a, b ,c d", "--cards", "card"), (std::vector<std::string>{"a", "b", "c d"}));
  // An empty label is an error naming its 1-based position, never skipped (issue 13).
  for (const auto& [list, position] : std::vector<std::pair<std::string, int>>{
           {"a,,b", 2}, {",a", 1}, {"a,", 2}, {"a, ,b", 2}, {"a,b,c,", 4}, {" ", 1}}) {
    try {
      split_label_list(list, "--cards", "card");
      ADD_FAILURE() << list;
    } catch (const error& e) {
      EXPECT_EQ(std::string(e.what()),
                "--cards: card " + std::to_string(position) + " is empty (a doubled, leading or trailing comma?)");
    }
  }
  const std::vector<std::string> labels = {"a", "b", "a"};
  const deck d = make_custom(labels, 2);
  EXPECT_EQ(d.cards.size(), 6u);
  EXPECT_EQ(multiset(d.cards).at(custom_card("a")), 4);
  const std::vector<std::string> none;
  EXPECT_THROW(make_custom(none), error);
  const std::vector<std::string> tab = {"a\tb"};
  EXPECT_THROW(make_custom(tab), error);
}

// Independent values: Python math.log2(factorial(52)) etc. with exact integers.
TEST(DeckOrders, Log2OfTheMultinomial) {
  EXPECT_NEAR(log2_distinct_orders(make_pack(pack_kind::standard).cards), 225.58100312370277, 1e-9);
  EXPECT_NEAR(log2_distinct_orders(make_pack(pack_kind::standard, 6).cards), 1646.817113027771, 1e-8);
  EXPECT_NEAR(log2_distinct_orders(make_pack(pack_kind::standard, 2).cards), 499.4825703601073, 1e-8);
  EXPECT_NEAR(log2_distinct_orders(make_pack(pack_kind::tarot).cards), 382.2011503884948, 1e-9);
  EXPECT_NEAR(log2_distinct_orders(make_pack(pack_kind::piquet).cards), 117.6632636523603, 1e-9);
  EXPECT_NEAR(log2_distinct_orders(make_pack(pack_kind::euchre).cards), 79.03765741910044, 1e-9);
  const std::vector<std::string> symbols(default_symbols().begin(), default_symbols().end());
  EXPECT_NEAR(log2_distinct_orders(make_pairs(6, symbols).cards), 22.835455234075408, 1e-9);
  EXPECT_EQ(multiplicities(make_pack(pack_kind::standard, 6).cards), std::vector<std::uint64_t>(52, 6));
}

TEST(DeckRandomness, ReachableBits) {
  EXPECT_TRUE(std::isinf(reachable_bits(deck_randomness{})));
  EXPECT_EQ(reachable_bits(deck_randomness{"1", {}}), 256.0);
  EXPECT_EQ(reachable_bits(deck_randomness{"1", engine_kind::mt19937}), 32.0);
  EXPECT_LT(reachable_bits(deck_randomness{"1", engine_kind::minstd}), 31.0);
  EXPECT_EQ(reachable_bits(deck_randomness{{}, engine_kind::mt19937}), 32.0);
}

TEST(DeckRandomness, SeededShufflesFollowTheDocumentedContract) {
  // The documented recipe: Fisher-Yates over 0..n-1 with ChaCha20 keyed by deck_key(seed).
  EXPECT_EQ(deck_key("7"), derive_key(key_from_seed("7"), "deck", 0));
  chacha20_engine e(deck_key("7"), 0);
  std::vector<std::uint32_t> expected(52);
  std::iota(expected.begin(), expected.end(), 0u);
  fisher_yates(std::span<std::uint32_t>(expected), e);
  EXPECT_EQ(shuffle_indices(52, deck_randomness{"7", {}}), expected);
  EXPECT_EQ(shuffle_indices(52, deck_randomness{"7", engine_kind::chacha20}), expected);
  EXPECT_EQ(shuffle_indices(52, deck_randomness{"7", {}}), shuffle_indices(52, deck_randomness{"7", {}}));
  EXPECT_NE(shuffle_indices(52, deck_randomness{"7", {}}), shuffle_indices(52, deck_randomness{"8", {}}));
  // No 32-bit truncation of seeds.
  EXPECT_NE(shuffle_indices(52, deck_randomness{"1", {}}), shuffle_indices(52, deck_randomness{"4294967297", {}}));
  EXPECT_NE(shuffle_indices(52, deck_randomness{"7", engine_kind::xoshiro256pp}), expected);
}

// Reference values from Python: hashlib.blake2b(seed, digest_size=32, person=b"shufl-deck-cmt-1").
TEST(DeckCommit, CommitmentIsPersonalisedBlake2bOfTheSeed) {
  EXPECT_EQ(seed_commitment("42"), "eb1ae1c48673ff25ccb3430a044d3cb8a8e02416578b1d93c75e538ccee373ae");
  EXPECT_EQ(seed_commitment(""), "d734381c0c4737245e808b98a2762926b5a76a874779afe6fb50215d65c03b8d");
  // It reveals neither the seed's key nor the shuffle key.
  EXPECT_NE(seed_commitment("42"), to_hex(key_from_seed("42")));
  EXPECT_NE(seed_commitment("42"), to_hex(deck_key("42")));
  const std::string s = random_seed_string();
  EXPECT_EQ(s.size(), 64u);
  EXPECT_EQ(s.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(s, random_seed_string());
}

// Which card lands at a position, over many seeded shuffles, against the uniform law.
std::vector<std::uint64_t> position_counts(std::size_t n, std::size_t position, int shuffles,
                                          const std::string& prefix, std::optional<engine_kind> engine) {
  std::vector<std::uint64_t> counts(n);
  for (int s = 0; s < shuffles; ++s) {
    const auto order = shuffle_indices(n, deck_randomness{fmt::format("{}{}", prefix, s), engine});
    ++counts[order[position]];
  }
  return counts;
}

TEST(DeckChiSquared, CardPositionsAreUniformOverSeededShuffles) {
  constexpr double alpha = 1e-6;
  for (const std::size_t position : {std::size_t{0}, std::size_t{1}, std::size_t{26}, std::size_t{51}}) {
    const auto counts = position_counts(52, position, 52 * 200, fmt::format("chi/{}/", position), {});
    const test_result t = pearson_uniform(counts);
    EXPECT_EQ(t.df, 51.0);
    EXPECT_GT(t.p_value, alpha) << "position " << position << " X2 = " << t.statistic;
  }
  // A shoe (top card's rank-and-suit) and another engine.
  const deck shoe = make_pack(pack_kind::standard, 6);
  std::map<card, std::uint64_t> tops;
  for (int s = 0; s < 52 * 100; ++s) {
    ++tops[shoe.cards[shuffle_indices(312, deck_randomness{fmt::format("shoe{}", s), {}})[0]]];
  }
  std::vector<std::uint64_t> top_counts;
  for (const auto& [c, n] : tops) top_counts.push_back(n);
  ASSERT_EQ(top_counts.size(), 52u);
  EXPECT_GT(pearson_uniform(top_counts).p_value, alpha);
  EXPECT_GT(pearson_uniform(position_counts(52, 0, 52 * 100, "x", engine_kind::xoshiro256pp)).p_value, alpha);
}

// The same test has power: a Fisher-Yates with the classic off-by-one (j in [0, i), Sattolo's
// algorithm) never leaves the bottom card in place, and the test rejects it at once.
TEST(DeckChiSquared, TheTestRejectsAnOffByOneShuffle) {
  std::vector<std::uint64_t> counts(52);
  chacha20_engine e(deck_key("control"), 0);
  std::vector<std::uint32_t> order(52);
  for (int s = 0; s < 52 * 200; ++s) {
    std::iota(order.begin(), order.end(), 0u);
    for (std::size_t i = order.size(); i-- > 1;) std::swap(order[i], order[uniform_below(e, i)]);
    ++counts[order[51]];
  }
  EXPECT_EQ(counts[51], 0u);
  EXPECT_LT(pearson_uniform(counts).p_value, 1e-6);
}

}  // namespace
}  // namespace shufl
