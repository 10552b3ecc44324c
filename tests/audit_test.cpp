// Unit tests of the audit battery (include/shufl/audit.hpp): each per-deck statistic and
// accumulator against values worked out by hand, the position tables' scaling against
// simulation, and the decision.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <set>
#include <vector>

#include "shufl/audit.hpp"
#include "shufl/detail/huge_pages.hpp"
#include "shufl/error.hpp"
#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"

namespace shufl::audit {
namespace {

using deck_ids = std::vector<std::uint32_t>;

TEST(AuditStatistics, HandWorkedDeck) {
  // 3 4 5 1 2 in cards 1..5 (0-based 2 3 4 0 1): two rising sequences (1 2) and (3 4 5).
  const deck_ids d = {2, 3, 4, 0, 1};
  std::vector<std::uint32_t> where(5);
  std::vector<std::uint64_t> unseen(1);
  EXPECT_EQ(fixed_points_of(d.data(), 5), 0u);
  EXPECT_EQ(successions_of(d.data(), 5), 3u);      // 3→4, 4→5, 1→2
  EXPECT_EQ(adjacent_pairs_of(d.data(), 5), 3u);
  EXPECT_EQ(descents_of(d.data(), 5), 1u);         // 5 > 1
  EXPECT_EQ(rising_sequences_of(d.data(), 5, where.data()), 2u);
  EXPECT_EQ(runs_up_down_of(d.data(), 5), 3u);     // up 3 4 5, down 5 1, up 1 2
  // Guesses: 1 (shown 3: wrong), 4 (right), 5 (right), then none above 5: 2 (shown 1: wrong),
  // then 2 (right).
  EXPECT_EQ(guesses_of(d.data(), 5, unseen.data()), 3u);
}

TEST(AuditStatistics, IdentityAndReverse) {
  deck_ids id(5), rev(5);
  std::iota(id.begin(), id.end(), 0u);
  for (std::uint32_t i = 0; i < 5; ++i) rev[i] = 4 - i;
  std::vector<std::uint32_t> where(5);
  std::vector<std::uint64_t> unseen(1);
  EXPECT_EQ(fixed_points_of(id.data(), 5), 5u);
  EXPECT_EQ(successions_of(id.data(), 5), 4u);
  EXPECT_EQ(descents_of(id.data(), 5), 0u);
  EXPECT_EQ(rising_sequences_of(id.data(), 5, where.data()), 1u);
  EXPECT_EQ(runs_up_down_of(id.data(), 5), 1u);
  EXPECT_EQ(guesses_of(id.data(), 5, unseen.data()), 5u);
  EXPECT_EQ(fixed_points_of(rev.data(), 5), 1u);  // the middle card
  EXPECT_EQ(successions_of(rev.data(), 5), 0u);
  EXPECT_EQ(adjacent_pairs_of(rev.data(), 5), 4u);
  EXPECT_EQ(descents_of(rev.data(), 5), 4u);
  EXPECT_EQ(rising_sequences_of(rev.data(), 5, where.data()), 5u);
  EXPECT_EQ(runs_up_down_of(rev.data(), 5), 1u);
  // Guess 1 (shown 5), then the largest unseen below each shown card: 4, 3, 2, 1 all right.
  EXPECT_EQ(guesses_of(rev.data(), 5, unseen.data()), 4u);
  const deck_ids one = {0};
  EXPECT_EQ(runs_up_down_of(one.data(), 1), 0u);
}

TEST(AuditStatistics, GuessingAcrossWords) {
  // 70 cards: the unseen set spans two 64-bit words.
  deck_ids id(70), rev(70);
  std::iota(id.begin(), id.end(), 0u);
  for (std::uint32_t i = 0; i < 70; ++i) rev[i] = 69 - i;
  std::vector<std::uint64_t> unseen(2);
  EXPECT_EQ(guesses_of(id.data(), 70, unseen.data()), 70u);
  EXPECT_EQ(guesses_of(rev.data(), 70, unseen.data()), 69u);
  // 0 63 64 1 2 ... : after 0 guess 1 (shown 63), after 63 guess 64 (right), after 64 guess 65.
  deck_ids d = {0, 63, 64};
  for (std::uint32_t c = 1; c < 70; ++c) {
    if (c != 63 && c != 64) d.push_back(c);
  }
  // Right: 0, 64; then shown 1 after 64 (guess 65: wrong); after 1 guess 2 ... 62 right (61 cards),
  // after 62 the smallest unseen above is 65: right, and so on to 69 (5 more).
  EXPECT_EQ(guesses_of(d.data(), 70, unseen.data()), 2u + 61u + 5u);
}

// The strategy written plainly over a std::set of unseen cards.
std::uint32_t reference_guesses(const deck_ids& d) {
  std::set<std::uint32_t> unseen(d.begin(), d.end());
  std::uint32_t guess = 0, right = 0;
  for (const auto c : d) {
    right += c == guess;
    unseen.erase(c);
    if (unseen.empty()) break;
    const auto above = unseen.upper_bound(c);
    guess = above != unseen.end() ? *above : *std::prev(unseen.lower_bound(c));
  }
  return right;
}

TEST(AuditStatistics, GuessingMatchesAPlainImplementation) {
  xoshiro256pp_engine engine(key_from_seed("guessing"), 0);
  for (const std::size_t n : {2u, 5u, 52u, 63u, 64u, 65u, 130u}) {
    deck_ids d(n);
    std::vector<std::uint64_t> unseen((n + 63) / 64);
    for (int k = 0; k < 200; ++k) {
      std::iota(d.begin(), d.end(), 0u);
      fisher_yates(std::span<std::uint32_t>(d), engine);
      ASSERT_EQ(guesses_of(d.data(), n, unseen.data()), reference_guesses(d)) << "n = " << n;
    }
  }
}

// Strategy "shelf" written plainly over a std::set of unseen cards.
std::uint32_t reference_shelf_guesses(const deck_ids& d) {
  std::set<std::uint32_t> unseen(d.begin(), d.end());
  std::uint32_t guess = 0, right = 0;
  for (std::size_t p = 0; p < d.size(); ++p) {
    const auto c = d[p];
    right += c == guess;
    unseen.erase(c);
    if (unseen.empty()) break;
    const auto above = unseen.upper_bound(c);
    const auto below = unseen.lower_bound(c);
    const bool has_above = above != unseen.end(), has_below = below != unseen.begin();
    const bool rising = p == 0 || c > d[p - 1];
    if (rising) {
      guess = has_above ? *above : *std::prev(below);
    } else {
      guess = has_below ? *std::prev(below) : *above;
    }
  }
  return right;
}

TEST(AuditStatistics, ShelfGuessingMatchesAPlainImplementation) {
  // Rising 0 1 2, falling 6 5 4 3, rising 7 8 9 (piles of a one-pass shelf shuffle).
  const deck_ids runs = {0, 1, 2, 6, 5, 4, 3, 7, 8, 9};
  std::vector<std::uint64_t> unseen(3);
  // shelf: 0 1 2 right, 6 and 5 wrong (after 6, rising: 7), then 4 3 (falling), 7 8 9.
  EXPECT_EQ(shelf_guesses_of(runs.data(), 10, unseen.data()), 8u);
  // original successor: after 6, 5, 4 it guesses 7 (the smallest unseen above): 0 1 2 7 8 9.
  EXPECT_EQ(guesses_of(runs.data(), 10, unseen.data()), 6u);
  xoshiro256pp_engine engine(key_from_seed("shelf guessing"), 0);
  for (const std::size_t n : {2u, 5u, 52u, 64u, 65u, 130u}) {
    deck_ids d(n);
    unseen.assign((n + 63) / 64, 0);
    for (int k = 0; k < 200; ++k) {
      std::iota(d.begin(), d.end(), 0u);
      fisher_yates(std::span<std::uint32_t>(d), engine);
      ASSERT_EQ(shelf_guesses_of(d.data(), n, unseen.data()), reference_shelf_guesses(d)) << "n = " << n;
    }
  }
}

// The block sums (eight decks at a time in AVX2 lanes where the CPU has them) against the
// plain set-based guessers and a rising-sequence count by positions, for every block length
// 0..19 (whole groups of eight and a remainder), with the identity and the reversal mixed in.
TEST(AuditStatistics, BlockGuessAndRisingSumsMatchThePlainImplementations) {
  xoshiro256pp_engine engine(key_from_seed("guess lanes"), 0);
  for (const std::size_t n : {2u, 3u, 5u, 52u, 63u, 64u}) {
    for (std::size_t count = 0; count < 20; ++count) {
      deck_ids decks;
      guess_rising_sums want;
      for (std::size_t i = 0; i < count; ++i) {
        deck_ids d(n);
        std::iota(d.begin(), d.end(), 0u);
        if (i % 5 == 3) std::reverse(d.begin(), d.end());
        if (i % 5 != 1 && i % 5 != 3) fisher_yates(std::span<std::uint32_t>(d), engine);
        want.successor += reference_guesses(d);
        want.shelf += reference_shelf_guesses(d);
        std::vector<std::size_t> at(n);
        for (std::size_t p = 0; p < n; ++p) at[d[p]] = p;
        want.rising += 1;
        for (std::size_t c = 0; c + 1 < n; ++c) want.rising += at[c + 1] < at[c];
        decks.insert(decks.end(), d.begin(), d.end());
      }
      const guess_rising_sums got = guess_rising_sums_of(decks.data(), count, n);
      EXPECT_EQ(got.successor, want.successor) << "n = " << n << ", " << count << " decks";
      EXPECT_EQ(got.shelf, want.shelf) << "n = " << n << ", " << count << " decks";
      EXPECT_EQ(got.rising, want.rising) << "n = " << n << ", " << count << " decks";
    }
  }
}

TEST(AuditStatistics, SerialSuccessions) {
  const deck_ids prev = {2, 3, 4, 0, 1}, next = {3, 4, 0, 1, 2};  // next = prev cut by one card
  std::vector<std::uint32_t> below(5);
  fill_below(prev.data(), 5, below.data());
  EXPECT_EQ(serial_successions_of(next.data(), 5, below.data()), 3u);  // (4 5), (5 1), (1 2) kept
  EXPECT_EQ(serial_successions_of(prev.data(), 5, below.data()), 4u);  // the same deck keeps all
  // From the other side: the pairs of prev found again in next, by next's positions.
  std::vector<std::uint32_t> where(5);
  rising_sequences_of(next.data(), 5, where.data());
  EXPECT_EQ(serial_successions_at(prev.data(), 5, where.data()), 3u);
  rising_sequences_of(prev.data(), 5, where.data());
  EXPECT_EQ(serial_successions_at(prev.data(), 5, where.data()), 4u);
}

TEST(AuditStatistics, FingerprintsDiffer) {
  const deck_ids a = {0, 1, 2, 3, 4}, b = {1, 0, 2, 3, 4};
  EXPECT_NE(deck_fingerprint(a.data(), 5), deck_fingerprint(b.data(), 5));
  EXPECT_EQ(deck_fingerprint(a.data(), 5), deck_fingerprint(a.data(), 5));
}

battery_shape distinct_shape(std::size_t n, std::optional<std::size_t> dealt = std::nullopt) {
  battery_shape s;
  s.cards = n;
  s.positions = dealt.value_or(n);
  s.copies.assign(n, 1);
  return s;
}

const test_report& find(const std::vector<test_report>& tests, std::string_view name) {
  for (const auto& t : tests) {
    if (t.name == name) return t;
  }
  throw std::runtime_error("no test " + std::string(name));
}

TEST(AuditTables, CardPositionByHand) {
  // Two identity decks of 3 cards: E = 2/3 per cell; X² = 3·(4/3)²/(2/3) + 6·(2/3)²/(2/3) = 8 + 4
  // = 12, scaled by 2/3: 8, df 4, and E < 5: not valid.
  battery b(distinct_shape(3));
  const deck_ids decks = {0, 1, 2, 0, 1, 2};
  b.add_block(decks.data(), 2, nullptr, 0);
  const auto tests = b.evaluate();
  const auto& t = find(tests, "card-position");
  EXPECT_NEAR(t.statistic, 8.0, 1e-12);
  ASSERT_TRUE(t.df.has_value());
  EXPECT_EQ(*t.df, 4.0);
  EXPECT_EQ(t.result, test_outcome::not_valid);
  // The serial table saw one pair: the same deck twice, the diagonal.
  EXPECT_EQ(b.serial_position.pairs(), 1u);
  EXPECT_EQ(b.serial_position.counts(), (std::vector<std::uint64_t>{1, 0, 0, 0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(b.serial_successions.total, 2u);
  EXPECT_EQ(b.duplicates.repeats(), 1u);
}

TEST(AuditTables, DealtAddsTheRestColumn) {
  // N = 3, K = 1, decks "1", "1", "2": dealt column 2 1 0 (E 1 each), rest column 1 2 3 (E 2
  // each): X² = 1 + 0 + 1 + 1/2 + 0 + 1/2 = 3, scaled by 2/3: 2, df (3−1)(2−1) = 2.
  battery b(distinct_shape(3, 1));
  const deck_ids decks = {0, 0, 1};
  b.add_block(decks.data(), 3, nullptr, 0);
  const auto tests = b.evaluate();
  const auto& t = find(tests, "card-position");
  EXPECT_NEAR(t.statistic, 2.0, 1e-12);
  EXPECT_EQ(*t.df, 2.0);
  EXPECT_EQ(t.table, (std::vector<std::uint64_t>{2, 1, 1, 2, 0, 3}));
  EXPECT_EQ(find(tests, "successions").result, test_outcome::not_applicable);
  EXPECT_EQ(find(tests, "serial-position").result, test_outcome::not_applicable);
  // Dealt prefixes of distinct cards: N!/(N−K)! = 3 of them, so C(3,2)/3 = 1 repeat expected
  // (plus 2^-64 for fingerprints): above 1, the Poisson approximation is not valid.
  const auto& dup = find(tests, "duplicates");
  EXPECT_EQ(dup.result, test_outcome::not_valid);
  EXPECT_NEAR(dup.expected, 1.0, 1e-12);
  EXPECT_EQ(dup.observed, 1.0);  // deck "1" twice
}

TEST(AuditTables, ShoeMakesPermutationTestsNotApplicable) {
  battery_shape s;
  s.cards = 4;
  s.positions = 4;
  s.copies = {2, 2};  // two faces, two copies each
  battery b(s);
  const deck_ids decks = {0, 1, 1, 0, 1, 0, 0, 1};
  b.add_block(decks.data(), 2, nullptr, 0);
  const auto tests = b.evaluate();
  EXPECT_EQ(find(tests, "successions").result, test_outcome::not_applicable);
  EXPECT_EQ(find(tests, "guessing").result, test_outcome::not_applicable);
  EXPECT_EQ(find(tests, "serial-successions").result, test_outcome::not_applicable);
  // card-position over faces: E = 2·2/4 = 1 per cell; counts face 0: 1 1 1 1 ... X² = 0.
  EXPECT_NEAR(find(tests, "card-position").statistic, 0.0, 1e-12);
  EXPECT_EQ(*find(tests, "card-position").df, 3.0);  // (F−1)(N−1) = 1·3
}

// Simulation: under the null the scaled statistic's mean is its df, and the unscaled one's is
// df·N/(N−1); 400 replicates separate the two by more than 3 standard errors.
struct sim_result {
  double mean = 0, df = 0, rejected = 0, se = 0;
};

sim_result simulate(const battery_shape& shape, std::uint64_t decks, int replicates, std::string_view which,
                    std::span<const std::uint32_t> face_of) {
  xoshiro256pp_engine engine(key_from_seed("audit-scaling"), 0);
  std::vector<std::uint32_t> order(shape.cards), block(decks * shape.cards);
  sim_result r;
  double sum = 0;
  for (int k = 0; k < replicates; ++k) {
    battery b(shape);
    for (std::uint64_t t = 0; t < decks; ++t) {
      std::iota(order.begin(), order.end(), 0u);
      fisher_yates(std::span<std::uint32_t>(order), engine);
      for (std::size_t p = 0; p < shape.cards; ++p) block[t * shape.cards + p] = face_of[order[p]];
    }
    b.add_block(block.data(), decks, nullptr, 0);
    const auto tests = b.evaluate();
    const auto& t = find(tests, which);
    EXPECT_NE(t.result, test_outcome::not_valid);
    sum += t.statistic;
    r.df = *t.df;
    r.rejected += t.p < 0.05;
  }
  r.mean = sum / replicates;
  r.se = std::sqrt(2 * r.df / replicates);
  r.rejected /= replicates;
  return r;
}

battery_shape standard_shape(std::size_t packs) {
  battery_shape s;
  s.cards = 52 * packs;
  s.positions = s.cards;
  s.copies.assign(52, static_cast<std::uint32_t>(packs));
  s.ranks = 13;
  for (std::size_t f = 0; f < 52; ++f) {
    s.suit_of.push_back(static_cast<std::int8_t>(f / 13));
    s.rank_of.push_back(static_cast<std::int8_t>(f % 13));
  }
  return s;
}

TEST(AuditTables, LongAndShortBlocksCountAlike) {
  // A long block counts positions and serial pairs in 32-bit cells added once at its end; the
  // same decks one at a time add to the tables directly. Every sum must agree, and the suit
  // and rank rows must be the sums of their faces' rows.
  const battery_shape s = standard_shape(1);
  xoshiro256pp_engine engine(key_from_seed("audit-blocks"), 0);
  std::vector<std::uint32_t> decks(300 * 52);
  for (std::size_t i = 0; i < 300; ++i) {
    std::iota(decks.begin() + static_cast<std::ptrdiff_t>(i * 52), decks.begin() + static_cast<std::ptrdiff_t>(i * 52 + 52), 0u);
    fisher_yates(std::span<std::uint32_t>(decks.data() + i * 52, 52), engine);
  }
  battery whole(s), one_by_one(s);
  whole.add_block(decks.data(), 300, nullptr, 0);
  for (std::size_t i = 0; i < 300; ++i) one_by_one.add_block(decks.data() + i * 52, 1, i > 0 ? decks.data() + (i - 1) * 52 : nullptr, i);
  EXPECT_EQ(whole.card_position.counts(), one_by_one.card_position.counts());
  EXPECT_EQ(whole.suit_position.counts(), one_by_one.suit_position.counts());
  EXPECT_EQ(whole.rank_position.counts(), one_by_one.rank_position.counts());
  EXPECT_EQ(whole.serial_position.counts(), one_by_one.serial_position.counts());
  EXPECT_EQ(whole.serial_position.pairs(), 299u);
  EXPECT_EQ(whole.card_position.decks(), 300u);
  for (std::size_t p = 0; p < 52; ++p) {
    std::uint64_t hearts = 0;
    for (std::size_t f = 13; f < 26; ++f) hearts += whole.card_position.counts()[f * 52 + p];
    EXPECT_EQ(whole.suit_position.counts()[1 * 52 + p], hearts);
  }
  for (auto [a, b] : {std::pair{&whole.successions, &one_by_one.successions}, std::pair{&whole.guessing, &one_by_one.guessing},
                      std::pair{&whole.guessing_shelf, &one_by_one.guessing_shelf},
                      std::pair{&whole.rising_sequences, &one_by_one.rising_sequences},
                      std::pair{&whole.serial_successions, &one_by_one.serial_successions}}) {
    EXPECT_EQ(a->total, b->total);
    EXPECT_EQ(a->decks, b->decks);
  }
  EXPECT_EQ(whole.serial_successions.decks, 299u);
}

// Large arrays go on 2 MiB-aligned huge-page memory (detail/huge_pages.hpp) and behave as any
// vector's: growth keeps the values, and fingerprints beyond the huge-page size count repeats
// as a std::set says.
TEST(AuditTables, HugePageArraysKeepTheirValues) {
  std::vector<std::uint64_t, detail::huge_page_allocator<std::uint64_t>> v;
  for (std::uint64_t i = 0; i < 600000; ++i) v.push_back(i * 0x9E3779B97F4A7C15ull);
  ASSERT_GE(v.capacity() * sizeof(std::uint64_t), detail::huge_page_min_bytes);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % (std::uintptr_t{2} << 20), 0u);
  for (std::uint64_t i = 0; i < 600000; i += 997) ASSERT_EQ(v[i], i * 0x9E3779B97F4A7C15ull);
  std::vector<std::uint64_t> plain(v.begin(), v.end());
  for (std::size_t i = 0; i < 5000; ++i) plain.push_back(plain[i * 101]);  // 5000 repeats
  duplicate_finder d;
  d.append(plain);
  EXPECT_EQ(d.decks(), plain.size());
  EXPECT_EQ(d.repeats(1), 5000u);
  EXPECT_EQ(d.repeats(2), 5000u);
  EXPECT_EQ(d.kept(600000, 600003)[2], plain[202]);
}

TEST(AuditTables, RepeatsCountEqualFingerprints) {
  // Fingerprints with repeats, some differing only in low bits or only in high bits; the
  // count is #values − #distinct values (by std::set).
  std::vector<std::uint64_t> v;
  std::uint64_t x = 0x243F6A8885A308D3ull;
  for (int i = 0; i < 5000; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    v.push_back(x);
    if (i % 7 == 0) v.push_back(x);            // a repeat
    if (i % 11 == 0) v.push_back(x ^ 1);       // same top bytes, not equal
    if (i % 13 == 0) v.push_back(x ^ (1ull << 63));
  }
  v.push_back(v[10]);
  v.push_back(v[10]);
  duplicate_finder d;
  d.append(v);
  const std::set<std::uint64_t> distinct(v.begin(), v.end());
  EXPECT_EQ(d.repeats(), v.size() - distinct.size());
  EXPECT_GT(d.repeats(), 700u);
  // All in one top-byte bucket, zero among them, and low bits that collide in the set.
  std::vector<std::uint64_t> w = {0, 0, 1, 1ull << 20, 1ull << 20, 3, 0, 1ull << 40, (1ull << 40) | 1, 1ull << 40};
  duplicate_finder e;
  e.append(w);
  EXPECT_EQ(e.repeats(), 4u);  // 0 twice more, 2^20 once, 2^40 once
  // Two threads (each half of the buckets), over fingerprints appended and merged.
  std::vector<std::uint64_t> big;
  for (int i = 0; i < 90000; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const std::uint64_t value = i > 0 && i % 9 == 0 ? big[static_cast<std::size_t>(i) / 3] : x;
    big.push_back(value);
  }
  big.push_back(0);
  big.push_back(0);
  duplicate_finder first, second, third;
  first.append(std::span(big).first(30000));
  second.append(std::span(big).subspan(30000, 30000));
  third.append(std::span(big).subspan(60000));
  first.merge(second);
  first.merge(third);
  const std::set<std::uint64_t> distinct_big(big.begin(), big.end());
  EXPECT_EQ(first.decks(), big.size());
  EXPECT_EQ(first.fingerprints(), big);
  EXPECT_EQ(first.repeats(1), big.size() - distinct_big.size());
  EXPECT_EQ(first.repeats(2), big.size() - distinct_big.size());
}

TEST(AuditTables, SuitPositionScalingBySimulation) {
  const battery_shape s = standard_shape(1);
  std::vector<std::uint32_t> face_of(52);
  std::iota(face_of.begin(), face_of.end(), 0u);
  const sim_result r = simulate(s, 200, 400, "suit-position", face_of);
  EXPECT_EQ(r.df, 3.0 * 51);
  EXPECT_NEAR(r.mean, r.df, 3 * r.se) << "scaled X² should average df";
  EXPECT_GT(std::fabs(r.mean * 52 / 51 - r.df), 1.5 * r.se);  // the unscaled mean is off
  EXPECT_GT(r.rejected, 0.015);
  EXPECT_LT(r.rejected, 0.09);
}

TEST(AuditTables, RankPositionInAShoeBySimulation) {
  const battery_shape s = standard_shape(2);  // 104 cards, faces 52 × 2 copies
  std::vector<std::uint32_t> face_of(104);
  for (std::uint32_t i = 0; i < 104; ++i) face_of[i] = i % 52;
  const sim_result r = simulate(s, 100, 300, "rank-position", face_of);
  EXPECT_EQ(r.df, 12.0 * 103);
  EXPECT_NEAR(r.mean, r.df, 3 * r.se);
  EXPECT_GT(r.rejected, 0.01);
  EXPECT_LT(r.rejected, 0.10);
  const sim_result c = simulate(s, 300, 150, "card-position", face_of);
  EXPECT_EQ(c.df, 51.0 * 103);
  EXPECT_NEAR(c.mean, c.df, 3 * c.se);
}

TEST(AuditDecision, HolmOverValidTestsOnly) {
  std::vector<test_report> tests(4);
  tests[0].name = "a";
  tests[0].ln_p = std::log(0.004);
  tests[0].result = test_outcome::pass;
  tests[1].name = "b";
  tests[1].ln_p = std::log(0.02);
  tests[1].result = test_outcome::pass;
  tests[2].name = "c";
  tests[2].ln_p = std::log(1e-9);
  tests[2].result = test_outcome::not_valid;  // never in the family
  tests[3].name = "d";
  tests[3].result = test_outcome::not_applicable;
  const audit_decision d = decide(tests, 1000, 0.01);
  // Holm with m = 2: 0.004 · 2 = 0.008 < 0.01 fails; then 0.02 · 1 = 0.02 passes.
  EXPECT_EQ(d.family, 2u);
  EXPECT_FALSE(d.pass);
  EXPECT_EQ(tests[0].result, test_outcome::fail);
  EXPECT_NEAR(std::exp(*tests[0].holm_ln_p), 0.008, 1e-12);
  EXPECT_EQ(tests[1].result, test_outcome::pass);
  EXPECT_NEAR(std::exp(*tests[1].holm_ln_p), 0.02, 1e-12);
  EXPECT_EQ(tests[2].result, test_outcome::not_valid);
  EXPECT_FALSE(tests[2].holm_ln_p.has_value());
  EXPECT_EQ(d.summary, "evidence of non-randomness in 1000 decks at alpha 0.01: a failed");
  tests[0].ln_p = std::log(0.03);
  tests[0].result = tests[1].result = test_outcome::pass;
  const audit_decision e = decide(tests, 1000, 0.01);
  EXPECT_TRUE(e.pass);
  EXPECT_EQ(e.summary, "no evidence of non-randomness in 1000 decks at alpha 0.01");
}

TEST(AuditBattery, TotalsAreSumsOfThePerDeckStatistics) {
  // The battery's one-pass loop against the separate per-deck functions.
  xoshiro256pp_engine engine(key_from_seed("totals"), 0);
  for (const std::size_t n : {2u, 3u, 52u, 70u}) {
    battery b(distinct_shape(n));
    deck_ids d(n);
    std::vector<std::uint32_t> where(n);
    std::vector<std::uint64_t> unseen((n + 63) / 64);
    std::uint64_t sums[7] = {};
    for (int t = 0; t < 100; ++t) {
      std::iota(d.begin(), d.end(), 0u);
      fisher_yates(std::span<std::uint32_t>(d), engine);
      b.add_block(d.data(), 1, nullptr, static_cast<std::uint64_t>(t));
      sums[0] += fixed_points_of(d.data(), n);
      sums[1] += successions_of(d.data(), n);
      sums[2] += adjacent_pairs_of(d.data(), n);
      sums[3] += descents_of(d.data(), n);
      sums[4] += runs_up_down_of(d.data(), n);
      sums[5] += rising_sequences_of(d.data(), n, where.data());
      sums[6] += guesses_of(d.data(), n, unseen.data());
    }
    EXPECT_EQ(b.fixed_points.total, sums[0]) << n;
    EXPECT_EQ(b.successions.total, sums[1]) << n;
    EXPECT_EQ(b.adjacent_pairs.total, sums[2]) << n;
    EXPECT_EQ(b.descents.total, sums[3]) << n;
    EXPECT_EQ(b.runs_up_down.total, sums[4]) << n;
    EXPECT_EQ(b.rising_sequences.total, sums[5]) << n;
    EXPECT_EQ(b.guessing.total, sums[6]) << n;
    EXPECT_EQ(b.fixed_points.decks, 100u);
  }
}

TEST(AuditBattery, BlocksAndMergeGiveTheSameCounts) {
  // The same 9 decks as one block, or as three blocks on two batteries with their predecessors:
  // every count equal.
  const battery_shape s = distinct_shape(6);
  xoshiro256pp_engine engine(key_from_seed("blocks"), 0);
  std::vector<std::uint32_t> decks(9 * 6), order(6);
  for (int t = 0; t < 9; ++t) {
    std::iota(order.begin(), order.end(), 0u);
    fisher_yates(std::span<std::uint32_t>(order), engine);
    std::copy(order.begin(), order.end(), decks.begin() + t * 6);
  }
  battery one(s), x(s), y(s);
  one.add_block(decks.data(), 9, nullptr, 0);
  x.add_block(decks.data(), 4, nullptr, 0);
  y.add_block(decks.data() + 4 * 6, 3, decks.data() + 3 * 6, 4);
  x.add_block(decks.data() + 7 * 6, 2, decks.data() + 6 * 6, 7);
  x.merge(y);
  EXPECT_EQ(x.decks(), 9u);
  EXPECT_EQ(x.card_position.counts(), one.card_position.counts());
  EXPECT_EQ(x.serial_position.counts(), one.serial_position.counts());
  EXPECT_EQ(x.serial_position.pairs(), 8u);
  EXPECT_EQ(x.serial_successions.total, one.serial_successions.total);
  EXPECT_EQ(x.guessing.total, one.guessing.total);
  EXPECT_EQ(x.rising_sequences.total, one.rising_sequences.total);
  EXPECT_EQ(x.duplicates.decks(), 9u);
  EXPECT_EQ(x.duplicates.repeats(), one.duplicates.repeats());
}

TEST(AuditGames, ParseGameDefaultsAndDeals) {
  EXPECT_EQ(audit::parse_game(std::nullopt, std::nullopt).game, audit::game_kind::none);
  const auto poker = audit::parse_game("poker", std::nullopt);
  EXPECT_EQ(poker.game, audit::game_kind::poker);
  EXPECT_EQ(poker.hands, 1u);
  EXPECT_EQ(poker.cards, 5u);
  const auto blackjack = audit::parse_game("blackjack", std::nullopt);
  EXPECT_EQ(blackjack.hands, 2u);
  EXPECT_EQ(blackjack.cards, 2u);
  const auto six = audit::parse_game("poker", "6x5");
  EXPECT_EQ(six.hands, 6u);
  EXPECT_EQ(six.cards, 5u);
  const auto message = [](std::optional<std::string_view> game, std::optional<std::string_view> deal) {
    try {
      (void)audit::parse_game(game, deal);
    } catch (const error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("bridge", std::nullopt), "invalid value 'bridge' for --game: expected poker or blackjack");
  EXPECT_EQ(message(std::nullopt, "2x5"), "--deal applies to --game");
  EXPECT_EQ(message("poker", "x5"), "--deal takes HxC (hands x cards each), e.g. 6x5, not 'x5'");
  EXPECT_EQ(message("poker", "ax5"), "invalid value 'a' for --deal: expected a non-negative decimal integer");
  EXPECT_EQ(message("poker", "99999999999999999999x5"), "invalid value '99999999999999999999' for --deal: too large");
  EXPECT_EQ(message("poker", "0x5"), "--deal: the number of hands must be between 1 and 1024");
  EXPECT_EQ(message("poker", "2x1025"), "--deal: too many cards per hand");
}

}  // namespace
}  // namespace shufl::audit
