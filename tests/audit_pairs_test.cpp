// Unit tests of position-pairs and the coupon collector tests (audit/pairs.hpp): the Wald
// statistic against a generic pseudo-inverse of the covariance enumerated over every permutation
// (tests/reference/audit/position_pairs.py), the coupon collector's law against inclusion-exclusion
// in fractions checked by enumeration (tests/reference/audit/coupon_collector.py), hand-worked
// decks, and by simulation the fair rejection rate and planted flaws.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "shufl/audit.hpp"
#include "shufl/audit/pairs.hpp"
#include "shufl/audit/plan.hpp"
#include "shufl/error.hpp"
#include "support/audit_packs.hpp"
#include "support/test_rng.hpp"

namespace shufl::audit {
namespace {

std::vector<std::uint64_t> pair_table(const std::vector<std::vector<std::uint32_t>>& decks, std::size_t n, std::size_t k) {
  std::vector<std::uint64_t> t(n * n, 0);
  for (const auto& d : decks)
    for (std::size_t i = 0; i + k < n; ++i) ++t[d[i] * n + d[i + k]];
  return t;
}

TEST(AuditPairs, WaldMatchesEnumeration) {
  // position_pairs.py: numpy's pinv of the covariance enumerated over all 6! (7!) decks.
  const std::vector<std::vector<std::uint32_t>> six = {
      {0, 1, 2, 3, 4, 5}, {5, 4, 3, 2, 1, 0}, {1, 3, 5, 0, 2, 4}, {2, 0, 4, 1, 5, 3}, {3, 5, 1, 4, 0, 2}};
  const std::vector<std::vector<std::uint32_t>> seven = {{0, 1, 2, 3, 4, 5, 6}, {6, 5, 4, 3, 2, 1, 0},
                                                         {1, 3, 5, 0, 2, 4, 6}, {2, 0, 4, 6, 1, 5, 3},
                                                         {3, 6, 1, 4, 0, 2, 5}, {4, 2, 6, 0, 5, 3, 1}};
  const struct {
    const std::vector<std::vector<std::uint32_t>>* decks;
    std::size_t n, k;
    double wald, df;
  } cases[] = {{&six, 6, 1, 10.600000000000, 29},
               {&six, 6, 2, 21.307692307692, 29},
               {&seven, 7, 1, 16.750000000000, 41},
               {&seven, 7, 2, 34.456989247312, 41}};
  for (const auto& c : cases) {
    const auto w = position_pairs_wald(pair_table(*c.decks, c.n, c.k), c.n, c.k, c.decks->size());
    EXPECT_NEAR(w.statistic, c.wald, 1e-9 * c.wald) << c.n << " " << c.k;
    EXPECT_EQ(w.df, c.df);
  }
}

TEST(AuditPairs, BatteryCountsEveryLag) {
  battery_shape s = shufl::test::distinct_shape(7);
  s.lags = 3;
  battery b(s);
  const std::vector<std::uint32_t> d = {3, 0, 6, 1, 5, 2, 4};
  b.add_block(d.data(), 1, nullptr, 0);
  ASSERT_EQ(b.position_pairs.size(), 3u * 49);
  EXPECT_EQ(b.position_pairs[3 * 7 + 0], 1u);           // lag 1: 3 then 0
  EXPECT_EQ(b.position_pairs[49 + 3 * 7 + 6], 1u);      // lag 2: 3, then 6 two below
  EXPECT_EQ(b.position_pairs[2 * 49 + 6 * 7 + 2], 1u);  // lag 3: 6, then 2 three below
  for (std::size_t k = 1; k <= 3; ++k) {
    EXPECT_EQ(std::accumulate(b.position_pairs.begin() + static_cast<std::ptrdiff_t>((k - 1) * 49),
                              b.position_pairs.begin() + static_cast<std::ptrdiff_t>(k * 49), std::uint64_t{0}),
              7 - k);
  }
  s.lags = 4;  // 2 x 4 >= 7 cards
  battery small(s);
  small.add_block(d.data(), 1, nullptr, 0);
  for (const auto& t : small.evaluate()) {
    if (t.name == "position-pairs") {
      EXPECT_EQ(t.result, test_outcome::not_applicable);
    }
  }
}

// The pair tables are bounded: lags × n² ≤ 2^24 cells or the battery refuses before allocating
// (1024 cards: --lags 16 is the most), and the threads shrink so their tables stay within 2^25.
TEST(AuditPairs, TablesAreBounded) {
  battery_shape s = shufl::test::distinct_shape(1024);
  s.lags = 17;
  try {
    battery b(s);
    ADD_FAILURE() << "--lags 17 at 1024 cards was allowed";
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "--lags 17: position-pairs would count 17 x 1024^2 = 17825792 pairs of cards, more than the "
                           "16777216 this version keeps (128 MiB per thread): at 1024 cards give --lags 16 or fewer");
  }
  s.lags = 16;  // exactly 2^24 cells
  EXPECT_NO_THROW(check_pair_cells(s));
  EXPECT_EQ(pair_table_threads(s, 8), 2u);
  s.lags = 2;  // 2^21 cells: 16 threads' worth
  EXPECT_EQ(pair_table_threads(s, 64), 16u);
  EXPECT_EQ(pair_table_threads(s, 3), 3u);
  battery_shape small = shufl::test::distinct_shape(52);
  small.lags = 64;  // 2 x 64 >= 52: no position-pairs, no tables, no bound
  EXPECT_NO_THROW(check_pair_cells(small));
  EXPECT_EQ(pair_table_threads(small, 64), 64u);
}

TEST(AuditPairs, FairDecksRejectAtTheLevel) {
  // 400 audits of 300 uniform 10-card decks, lags 1 and 2 (26.7 expected per pair at lag 2): at
  // 0.05, Binomial(400, 0.05) rejections, band [6, 34]. The Wald statistic's exact mean is its df
  // (tr Σ⁺Σ = rank): the mean over the audits of lag 1's statistic lies within 4 sd of 89.
  shufl::test::test_rng rng{41};
  int rejected = 0;
  double sum = 0;
  for (int rep = 0; rep < 400; ++rep) {
    battery b(shufl::test::distinct_shape(10));
    auto all = rng.decks(300, 10);
    b.add_block(all.data(), 300, nullptr, 0);
    sum += position_pairs_wald(std::span(b.position_pairs).first(100), 10, 1, 300).statistic;
    for (const auto& t : b.evaluate()) {
      if (t.name != "position-pairs") continue;
      EXPECT_EQ(t.df, 89);
      EXPECT_EQ(t.result, test_outcome::pass);
      rejected += t.p < 0.05;
    }
  }
  EXPECT_GE(rejected, 6);
  EXPECT_LE(rejected, 34);
  EXPECT_NEAR(sum / 400, 89, 4 * std::sqrt(2 * 89.0 / 400));
}

TEST(AuditPairs, LinkedCardsFail) {
  // A shuffler that moves card 1 right below card 0 one time in ten (everything else uniform):
  // every position keeps its law, the pairs do not.
  shufl::test::test_rng rng{42};
  battery b(shufl::test::distinct_shape(10));
  std::vector<std::uint32_t> all;
  for (int t = 0; t < 3000; ++t) {
    auto d = rng.deck(10);
    if (rng.uniform() < 0.1) {
      const auto zero = std::find(d.begin(), d.end(), 0u) - d.begin();
      const auto one = std::find(d.begin(), d.end(), 1u) - d.begin();
      if (zero + 1 < 10) std::swap(d[static_cast<std::size_t>(zero + 1)], d[static_cast<std::size_t>(one)]);
    }
    all.insert(all.end(), d.begin(), d.end());
  }
  b.add_block(all.data(), 3000, nullptr, 0);
  for (const auto& t : b.evaluate()) {
    if (t.name == "position-pairs") {
      EXPECT_LT(t.p, 1e-10);
    }
  }
}

TEST(AuditCoupon, LawMatchesInclusionExclusion) {
  // coupon_collector.py (inclusion-exclusion in fractions, checked by enumeration).
  const struct {
    std::vector<std::uint64_t> sizes;
    std::uint64_t others;
    double mean, variance;
    std::vector<std::pair<std::size_t, double>> points;
  } cases[] = {
      {std::vector<std::uint64_t>(4, 13), 0, 7.66507936507937, 9.14245457171125,
       {{4, 1.054981992797119e-01}, {5, 1.582472989195678e-01}, {22, 5.448258543672420e-04},
        {39, 8.188801516735360e-11}, {40, 6.299078089796431e-12}}},
      {std::vector<std::uint64_t>(13, 4), 0, 27.9971220780722, 33.8079495416436,
       {{13, 1.056809937133821e-04}, {14, 6.340859622802927e-04}, {31, 5.229826480564358e-02},
        {48, 1.920768307322929e-04}, {49, 4.801920768307323e-05}}},
      {std::vector<std::uint64_t>(4, 13), 2, 7.95432764300689, 10.0908377727709,
       {{4, 9.031117688165413e-02}, {23, 5.093770667519926e-04}, {42, 3.609534614698164e-12}}},
      {std::vector<std::uint64_t>(4, 104), 0, 8.24349590211369, 13.6197019466412,
       {{4, 9.511582491667904e-02}, {158, 2.700081959963992e-26}, {312, 2.341437862553593e-98},
        {313, 2.251382560147685e-100}}},
  };
  for (const auto& c : cases) {
    const auto pmf = coupon_collector_law(c.sizes, c.others);
    double total = 0, mean = 0, square = 0;
    for (std::size_t t = 0; t < pmf.size(); ++t) {
      total += pmf[t];
      mean += static_cast<double>(t) * pmf[t];
      square += static_cast<double>(t * t) * pmf[t];
    }
    EXPECT_NEAR(total, 1, 1e-13);
    EXPECT_NEAR(mean, c.mean, 1e-12 * c.mean);
    EXPECT_NEAR(square - mean * mean, c.variance, 1e-10 * c.variance);
    for (const auto& [t, p] : c.points) EXPECT_NEAR(pmf[t], p, 1e-12 * p) << t;
    EXPECT_EQ(pmf[c.points.back().first + 1 < pmf.size() ? c.points.back().first + 1 : 0], 0.0);
  }
}

TEST(AuditCoupon, HandWorkedDeck) {
  // Suits and ranks of 6 cards: faces 0..5 with suits 0 0 0 1 1 1 and ranks 0 1 2 0 1 2.
  const audit_pack p = shufl::test::small_pack({1, 1, 1, 1, 1, 1}, {0, 0, 0, 1, 1, 1}, {0, 1, 2, 0, 1, 2}, 3);
  battery b(make_shape(p));
  const std::vector<std::uint32_t> d = {0, 3, 1, 4, 2, 5};  // suits 0 1 ...: 2; ranks 0 0 1 1 2: 5
  b.add_block(d.data(), 1, nullptr, 0);
  EXPECT_EQ(b.coupon_suits.total, 2u);
  EXPECT_EQ(b.coupon_ranks.total, 5u);
  const std::vector<std::uint8_t> group = {0, 0, 1, 255};
  const std::vector<std::uint32_t> e = {3, 0, 1, 2};
  EXPECT_EQ(coupon_collector_of(e.data(), 4, group.data(), 3), 4u);
}

// 12 cards: 4 suits of 3 ranks.
audit_pack twelve() {
  std::vector<std::int8_t> suits, ranks;
  for (std::int8_t f = 0; f < 12; ++f) {
    suits.push_back(static_cast<std::int8_t>(f / 3));
    ranks.push_back(static_cast<std::int8_t>(f % 3));
  }
  return shufl::test::small_pack(std::vector<std::uint32_t>(12, 1), suits, ranks, 3);
}

TEST(AuditCoupon, FairDecksRejectAtTheLevel) {
  // 400 audits of 300 uniform decks of 12 cards (4 suits of 3 ranks): each test at 0.05 in the
  // band [6, 34]; the long suite does 1,000 audits of standard decks.
  shufl::test::test_rng rng{43};
  const battery_shape shape = make_shape(twelve());
  int suits = 0, ranks = 0;
  for (int rep = 0; rep < 400; ++rep) {
    battery b(shape);
    auto all = rng.decks(300, 12);
    b.add_block(all.data(), 300, nullptr, 0);
    for (const auto& t : b.evaluate()) {
      if (t.name == "coupon-collector-suits") suits += t.p < 0.05;
      if (t.name == "coupon-collector-ranks") ranks += t.p < 0.05;
    }
  }
  EXPECT_GE(suits, 6);
  EXPECT_LE(suits, 34);
  EXPECT_GE(ranks, 6);
  EXPECT_LE(ranks, 34);
}

TEST(AuditCoupon, ClusteredSuitsFail) {
  // A shuffler that leaves the top four cards in one suit one time in five.
  shufl::test::test_rng rng{44};
  const audit_pack pack = shufl::test::standard_pack();
  battery b(make_shape(pack));
  std::vector<std::uint32_t> all;
  for (int t = 0; t < 5000; ++t) {
    auto d = rng.deck(52);
    if (rng.uniform() < 0.2) {
      const std::int8_t suit = pack.suit_of[d[0]];
      std::size_t top = 1;
      for (std::size_t i = 1; i < 52 && top < 4; ++i) {
        if (pack.suit_of[d[i]] == suit) std::swap(d[top++], d[i]);
      }
    }
    all.insert(all.end(), d.begin(), d.end());
  }
  b.add_block(all.data(), 5000, nullptr, 0);
  for (const auto& t : b.evaluate()) {
    if (t.name == "coupon-collector-suits") {
      EXPECT_LT(t.p, 1e-6);
    }
  }
}

// Gaps of j cards between consecutive cards of `suit` (suit_of per card), summed over decks.
std::vector<std::uint64_t> gap_lengths(const std::vector<std::vector<std::uint32_t>>& decks,
                                       const std::vector<int>& suit_of, int suit) {
  std::vector<std::uint64_t> h(suit_of.size(), 0);
  for (const auto& d : decks) {
    std::size_t last = d.size();
    for (std::size_t p = 0; p < d.size(); ++p) {
      if (suit_of[d[p]] != suit) continue;
      if (last != d.size()) ++h[p - last - 1];
      last = p;
    }
  }
  return h;
}

TEST(AuditGap, WaldMatchesEnumeration) {
  // gap.py: the histogram's covariance enumerated over all 8! orders, numpy's pinv.
  const std::vector<int> suits = {0, 0, 0, 1, 1, 1, 2, 2};
  const std::vector<std::vector<std::uint32_t>> decks = {
      {0, 1, 2, 3, 4, 5, 6, 7}, {7, 6, 5, 4, 3, 2, 1, 0}, {0, 3, 6, 1, 4, 7, 2, 5}, {3, 0, 4, 6, 1, 5, 2, 7},
      {6, 7, 0, 3, 1, 4, 2, 5}, {1, 6, 2, 7, 3, 5, 0, 4}, {4, 0, 5, 1, 6, 2, 7, 3}};
  const struct {
    int suit;
    std::size_t s, last_bin;
    double wald;
  } cases[] = {{0, 3, 2, 1.847457627119}, {0, 3, 3, 2.675802662490}, {1, 3, 4, 2.262599469496}, {2, 2, 3, 2.009523809524}};
  for (const auto& c : cases) {
    const auto w = gap_wald(gap_lengths(decks, suits, c.suit), 8, c.s, decks.size(), c.last_bin);
    EXPECT_NEAR(w.statistic, c.wald, 1e-9 * c.wald) << c.suit << " " << c.last_bin;
    EXPECT_EQ(w.df, static_cast<double>(c.last_bin));
  }
}

TEST(AuditGap, BatteryCountsTheGapsOfEachSuit) {
  const audit_pack p = twelve();
  battery b(make_shape(p));
  // Suits of the deck (faces f / 3): 0 1 0 2 3 0 1 1 2 2 3 3.
  const std::vector<std::uint32_t> d = {0, 3, 1, 6, 9, 2, 4, 5, 7, 8, 10, 11};
  b.add_block(d.data(), 1, nullptr, 0);
  ASSERT_EQ(b.gap_counts.size(), 4u * 12);
  EXPECT_EQ(b.gap_counts[0 * 12 + 1], 1u);  // suit 0 at 0, 2, 5: gaps 1 and 2
  EXPECT_EQ(b.gap_counts[0 * 12 + 2], 1u);
  EXPECT_EQ(b.gap_counts[1 * 12 + 4], 1u);  // suit 1 at 1, 6, 7: gaps 4 and 0
  EXPECT_EQ(b.gap_counts[1 * 12 + 0], 1u);
  EXPECT_EQ(b.gap_counts[3 * 12 + 5], 1u);  // suit 3 at 4, 10, 11: gaps 5 and 0
  EXPECT_EQ(std::accumulate(b.gap_counts.begin(), b.gap_counts.end(), std::uint64_t{0}), 8u);
}

TEST(AuditGap, FairDecksRejectAtTheLevel) {
  // 400 audits of 300 uniform 12-card decks (4 suits of 3): at 0.05 within [6, 34].
  shufl::test::test_rng rng{45};
  const battery_shape shape = make_shape(twelve());
  int rejected = 0;
  for (int rep = 0; rep < 400; ++rep) {
    battery b(shape);
    auto all = rng.decks(300, 12);
    b.add_block(all.data(), 300, nullptr, 0);
    for (const auto& t : b.evaluate()) {
      if (t.name != "gap") continue;
      EXPECT_EQ(t.result, test_outcome::pass) << t.note;
      rejected += t.p < 0.05;
    }
  }
  EXPECT_GE(rejected, 6);
  EXPECT_LE(rejected, 34);
}

TEST(AuditGap, SpreadSuitsFail) {
  // A shuffler that deals one deck in five with its suits in turn (a stuck sorting step).
  shufl::test::test_rng rng{46};
  const audit_pack pack = shufl::test::standard_pack();
  battery b(make_shape(pack));
  std::vector<std::uint32_t> all;
  for (int t = 0; t < 5000; ++t) {
    auto d = rng.deck(52);
    if (rng.uniform() < 0.2) {
      std::vector<std::uint32_t> bysuit[4];
      for (const auto c : d) bysuit[pack.suit_of[c]].push_back(c);
      for (std::size_t i = 0; i < 52; ++i) d[i] = bysuit[i % 4][i / 4];
    }
    all.insert(all.end(), d.begin(), d.end());
  }
  b.add_block(all.data(), 5000, nullptr, 0);
  for (const auto& t : b.evaluate()) {
    if (t.name == "gap") {
      EXPECT_LT(t.p, 1e-10);
    }
  }
}

}  // namespace
}  // namespace shufl::audit

namespace shufl::audit {
namespace {

TEST(AuditDetectable, TheEffectIsThePlanInverted) {
  // At the effect the audit reports for 20,000 decks, the plan asks for 20,000 decks (20,001 for
  // the serial tests' pairs): every model's non-centrality grows as the square of the effect.
  const battery_shape shape = make_shape(shufl::test::standard_pack());
  const auto found = detectable_effects(shape, 20000, 0.01);
  ASSERT_EQ(found.size(), 17u);  // the planned tests of a standard pack (coupon collectors, position-pairs, gap included)
  for (const auto& e : found) {
    plan_options o;
    o.effects[e.name] = e.effect;
    for (const auto& p : plan_audit(shape, o).tests) {
      if (p.name != e.name) continue;
      const std::uint64_t want = e.name.starts_with("serial-") ? 20001 : 20000;
      EXPECT_LE(p.decks, want + 1) << e.name;
      EXPECT_GE(p.decks, want - 1) << e.name;
      EXPECT_EQ(p.model, e.model);
    }
  }
  // Fewer decks, larger effects, by the square root: a quarter of the decks, twice the effect.
  const auto quarter = detectable_effects(shape, 5000, 0.01);
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (found[i].name == "gap") continue;  // its last bin, hence its λ per deck, depends on the decks
    const double ratio = found[i].name.starts_with("serial-") ? std::sqrt(19999.0 / 4999.0) : 2.0;
    // 1e-6: position-pairs' λ comes from its mean table rounded to counts at 10^9 decks.
    EXPECT_NEAR(quarter[i].effect / found[i].effect, ratio, 1e-6) << found[i].name;
  }
}

}  // namespace
}  // namespace shufl::audit
