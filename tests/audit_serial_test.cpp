// Unit tests of the serial tests as tests of dependence (include/shufl/audit/serial.hpp): the
// repeat moments against exact enumeration (tests/reference/audit/serial_repeats.py), the
// successor repeats by hand, and by simulation: fair decks and decks that are independent but
// biased pass at the level's rate, planted dependence fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "shufl/audit.hpp"
#include "shufl/audit/serial.hpp"
#include "support/audit_packs.hpp"
#include "support/test_rng.hpp"

namespace shufl::audit {
namespace {

const test_report& find(const std::vector<test_report>& tests, std::string_view name) {
  for (const auto& t : tests) {
    if (t.name == name) return t;
  }
  throw std::runtime_error("no such test");
}

TEST(AuditSerial, MomentsMatchEnumeration) {
  // Exact mean and variance of the like neighbours of every arrangement of the multiset,
  // enumerated in fractions by tests/reference/audit/serial_repeats.py.
  struct row {
    std::vector<std::uint64_t> counts;
    double mean, variance;
  };
  const row rows[] = {
      {{3, 2, 1, 1}, 8.0 / 7, 34.0 / 49}, {{4, 4}, 3, 12.0 / 7},        {{2, 2, 2, 2}, 1, 6.0 / 7},
      {{5, 1, 1, 1}, 2.5, 15.0 / 28},     {{3, 3, 2, 1}, 14.0 / 9, 92.0 / 81},
  };
  for (const auto& r : rows) {
    const std::uint64_t T = std::accumulate(r.counts.begin(), r.counts.end(), std::uint64_t{0});
    const repeat_moments m = repeat_moments_of(r.counts, T, T - 1);
    EXPECT_NEAR(m.mean, r.mean, 1e-12);
    EXPECT_NEAR(m.variance, r.variance, 1e-12);
  }
  // One value only: the repeats are fixed, the variance 0 and p 1.
  const std::vector<std::uint64_t> one = {9, 0};
  const repeat_moments m = repeat_moments_of(one, 9, 8);
  EXPECT_DOUBLE_EQ(m.mean, 8);
  EXPECT_EQ(m.variance, 0);
  EXPECT_EQ(repeat_upper_tail(8, m).ln_p, 0);
}

TEST(AuditSerial, UpperTailIsTheMatchedBinomial) {
  // Mean 10, variance 9: Bin(100, 0.1); P(X >= 20) = 0.00197856... (scipy.stats.binom.sf(19, 100, 0.1)).
  const test_result t = repeat_upper_tail(20, repeat_moments{10, 9});
  EXPECT_NEAR(t.p_value, 0.0019785609, 1e-9);
  EXPECT_NEAR(t.statistic, 10.0 / 3, 1e-12);
  EXPECT_EQ(repeat_upper_tail(0, repeat_moments{10, 9}).ln_p, 0);
}

TEST(AuditSerial, CantelliBeyondTheBinomialsSupport) {
  // Lopsided margins: 40 decks with one value, 3 with another. tests/reference/audit/serial_cantelli.py
  // enumerates the 12,341 arrangements: E = 1566/43, Var = 7880/12943, so q = 1 − Var/E > 1/2 and the
  // matched binomial, skewed to the left, ends at E/q = 37.04. The p is then Cantelli's
  // Var/(Var + (d − E)²), given there in fractions, and never below the true tail (also from the
  // enumeration); the binomial gave 0.554 at 37 (inside its support), then 0.016 at 38 and 0.
  const std::vector<std::uint64_t> counts = {40, 3};
  const repeat_moments m = repeat_moments_of(counts, 43, 42);
  EXPECT_NEAR(m.mean, 1566.0 / 43, 1e-12);
  EXPECT_NEAR(m.variance, 7880.0 / 12943, 1e-12);
  const double q = 1 - m.variance / m.mean;
  EXPECT_GT(q, 0.5);
  EXPECT_GT(m.mean / q, 37);
  EXPECT_LT(m.mean / q, 38);
  struct row {
    std::uint64_t d;
    double cantelli, true_tail;
  };
  const row rows[] = {{37, 1576.0 / 2451, 3202.0 / 12341},
                      {38, 985.0 / 5031, 40.0 / 287},
                      {39, 7880.0 / 94127, 199.0 / 12341},
                      {40, 1970.0 / 43473, 1.0 / 287},
                      {41, 40.0 / 1419, 2.0 / 12341}};
  for (const auto& r : rows) {
    const test_result t = repeat_upper_tail(r.d, m);
    EXPECT_NEAR(t.p_value, r.cantelli, 1e-12 * r.cantelli) << r.d;
    EXPECT_GE(t.p_value, r.true_tail) << r.d;
  }
  EXPECT_EQ(repeat_upper_tail(36, m).ln_p, 0);  // at or below the mean: p = 1
}

TEST(AuditSerial, SuccessorRepeatsByHand) {
  const std::vector<std::uint32_t> prev = {0, 1, 2, 3, 4}, next = {4, 0, 1, 2, 3};  // cut by one
  std::vector<std::uint32_t> where(5);
  for (std::uint32_t p = 0; p < 5; ++p) where[next[p]] = p;
  std::vector<std::uint64_t> per_card(5, 0);
  EXPECT_EQ(serial_successor_repeats(prev.data(), 5, where.data(), per_card.data()), 3u);  // 0-1, 1-2, 2-3 kept
  EXPECT_EQ(per_card, (std::vector<std::uint64_t>{1, 1, 1, 0, 0}));
  for (std::uint32_t p = 0; p < 5; ++p) where[prev[p]] = p;
  EXPECT_EQ(serial_successor_repeats(prev.data(), 5, where.data(), per_card.data()), 4u);
  EXPECT_EQ(per_card, (std::vector<std::uint64_t>{2, 2, 2, 1, 1}));  // the bottom card repeats too
}

// Runs `reps` audits of `decks` decks of 10 cards made by `make(t, previous)`; returns how many
// had p < alpha for each serial test (successions, position) and for card-position.
template <class F>
std::array<int, 3> rejections(int reps, std::size_t decks, double alpha, F&& make) {
  std::array<int, 3> out{};
  const battery_shape s = shufl::test::distinct_shape(10);
  for (int r = 0; r < reps; ++r) {
    battery b(s);
    std::vector<std::uint32_t> all;
    std::vector<std::uint32_t> previous;
    for (std::size_t t = 0; t < decks; ++t) {
      previous = make(t, previous);
      all.insert(all.end(), previous.begin(), previous.end());
    }
    b.add_block(all.data(), decks, nullptr, 0);
    const auto tests = b.evaluate();
    out[0] += find(tests, "serial-successions").p < alpha;
    out[1] += find(tests, "serial-position").p < alpha;
    out[2] += find(tests, "card-position").p < alpha;
    EXPECT_EQ(find(tests, "serial-position").result, test_outcome::pass);
  }
  return out;
}

TEST(AuditSerial, FairDecksRejectAtTheLevel) {
  // 400 audits of 300 uniform decks: at alpha 0.05 the Bonferroni combination rejects at most
  // 5% (about 4.9% for 10 nearly independent categories): 400 · 0.05 = 20, binomial sd 4.4;
  // the band [6, 34] is about 3 sd either side.
  shufl::test::test_rng rng{2024};
  const auto r = rejections(400, 300, 0.05, [&](std::size_t, const auto&) { return rng.deck(10); });
  for (int i = 0; i < 3; ++i) {
    EXPECT_GE(r[i], 6) << i;
    EXPECT_LE(r[i], 34) << i;
  }
}

TEST(AuditSerial, IndependentBiasedDecksPassTheSerialTests) {
  // Each deck drawn anew, but biased: card 0 stuck on top 60% of the time, and card 1 right
  // below card 2 half the time. card-position fails nearly always; the serial tests, which test
  // dependence only, reject at the level's rate.
  shufl::test::test_rng rng{77};
  const auto r = rejections(200, 300, 0.05, [&](std::size_t, const auto&) {
    auto d = rng.deck(10);
    if (rng.uniform() < 0.6) std::swap(*std::find(d.begin(), d.end(), 0u), d[0]);
    if (rng.uniform() < 0.5) {
      d.erase(std::find(d.begin(), d.end(), 1u));
      d.insert(std::find(d.begin(), d.end(), 2u) + 1, 1u);
    }
    return d;
  });
  EXPECT_LE(r[0], 20);  // 200 · 0.05 = 10, sd 3.1
  EXPECT_LE(r[1], 20);
  EXPECT_GE(r[2], 195);
}

TEST(AuditSerial, IndependentCutsAndRifflesPassTheSerialTests) {
  // Decks each made anew from the pack, with lopsided margins: a uniform cut (a rotation; each
  // card's successor is the next card in 51 decks of 52) and four riffles. The serial tests'
  // per-category repeats then often lie beyond the matched binomial's support, where Cantelli's
  // bound applies; 2,000 decks for each of 4 seeds must pass both at 1e-4, while the tests of the
  // decks themselves fail, as they should (successions for the cut, whose positions are uniform;
  // card-position for the riffles).
  const battery_shape s = shufl::test::distinct_shape(52);
  for (const std::uint64_t seed : {1u, 2u, 3u, 4u}) {
    for (const bool riffle : {false, true}) {
      shufl::test::test_rng rng{seed};
      std::vector<std::uint32_t> all;
      std::vector<std::uint32_t> pack(52);
      std::iota(pack.begin(), pack.end(), 0u);
      for (int t = 0; t < 2000; ++t) {
        auto d = pack;
        if (riffle) {
          for (int k = 0; k < 4; ++k) d = shufl::test::gsr_riffle(d, rng);
        } else {
          std::rotate(d.begin(), d.begin() + rng.below(52), d.end());
        }
        all.insert(all.end(), d.begin(), d.end());
      }
      battery b(s);
      b.add_block(all.data(), 2000, nullptr, 0);
      const auto tests = b.evaluate();
      EXPECT_GE(find(tests, "serial-successions").p, 1e-4) << seed << riffle;
      EXPECT_GE(find(tests, "serial-position").p, 1e-4) << seed << riffle;
      EXPECT_LT(find(tests, riffle ? "card-position" : "successions").p, 1e-6) << seed << riffle;
    }
  }
}

TEST(AuditSerial, PlantedDependenceFails) {
  // The previous deck's top card kept on top a third of the time: serial-position; the previous
  // deck dealt again cut by one card a quarter of the time: serial-successions.
  shufl::test::test_rng rng{5};
  const auto kept = rejections(3, 300, 1e-6, [&](std::size_t t, const std::vector<std::uint32_t>& prev) {
    auto d = rng.deck(10);
    if (t > 0 && rng.uniform() < 1.0 / 3) std::swap(*std::find(d.begin(), d.end(), prev[0]), d[0]);
    return d;
  });
  EXPECT_EQ(kept[1], 3);
  const auto cut = rejections(3, 300, 1e-6, [&](std::size_t t, const std::vector<std::uint32_t>& prev) {
    if (t > 0 && rng.uniform() < 0.25) {
      auto d = prev;
      std::rotate(d.begin(), d.begin() + 1, d.end());
      return d;
    }
    return rng.deck(10);
  });
  EXPECT_EQ(cut[0], 3);
}

}  // namespace
}  // namespace shufl::audit
