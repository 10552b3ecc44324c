// The exact null laws of `shufl audit` against independent values: brute-force enumeration of
// permutations and of poker hands / blackjack shoes here, tests/reference/audit/reference.json
// (Python fractions and mpmath, written from the definitions), and a seeded simulation.
#include "shufl/audit/laws.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <numeric>
#include <string>
#include <vector>

#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"
#include "shufl/stats.hpp"
#include "support/run.hpp"

namespace shufl::audit {
namespace {

using law_function = std::vector<double> (*)(std::size_t);

// The statistics of one deck (positions from the top, cards 0..n−1), straight from their
// definitions in laws.hpp.
std::size_t fixed_points_of(const std::vector<int>& d) {
  std::size_t k = 0;
  for (std::size_t i = 0; i < d.size(); ++i) k += d[i] == static_cast<int>(i);
  return k;
}
std::size_t successions_of(const std::vector<int>& d) {
  std::size_t k = 0;
  for (std::size_t p = 0; p + 1 < d.size(); ++p) k += d[p + 1] == d[p] + 1;
  return k;
}
std::size_t adjacent_pairs_of(const std::vector<int>& d) {
  std::size_t k = 0;
  for (std::size_t p = 0; p + 1 < d.size(); ++p) k += std::abs(d[p + 1] - d[p]) == 1;
  return k;
}
std::size_t descents_of(const std::vector<int>& d) {
  std::size_t k = 0;
  for (std::size_t p = 0; p + 1 < d.size(); ++p) k += d[p] > d[p + 1];
  return k;
}
std::size_t rising_sequences_of(const std::vector<int>& d) {
  std::vector<std::size_t> where(d.size());
  for (std::size_t p = 0; p < d.size(); ++p) where[static_cast<std::size_t>(d[p])] = p;
  std::size_t k = 1;
  for (std::size_t i = 0; i + 1 < d.size(); ++i) k += where[i + 1] < where[i];
  return k;
}
std::size_t runs_up_down_of(const std::vector<int>& d) {
  if (d.size() < 2) return 0;
  std::size_t runs = 1;
  for (std::size_t p = 1; p + 1 < d.size(); ++p)
    runs += (d[p] > d[p - 1]) != (d[p + 1] > d[p]);  // a peak or a valley ends a run
  return runs;
}
// Guessing with feedback under the null: the number of cycles of the permutation has the same
// law (Σ Bernoulli(1/k)); counted here as cycles, a different route to the same numbers.
std::size_t cycles_of(const std::vector<int>& d) {
  std::vector<bool> seen(d.size());
  std::size_t c = 0;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (seen[i]) continue;
    ++c;
    for (std::size_t j = i; !seen[j]; j = static_cast<std::size_t>(d[j])) seen[j] = true;
  }
  return c;
}

struct law_case {
  const char* name;
  law_function law;
  std::size_t (*statistic)(const std::vector<int>&);
};
const law_case law_cases[] = {
    {"fixed_points", fixed_points_law, fixed_points_of},
    {"successions", successions_law, successions_of},
    {"adjacent_pairs", adjacent_pairs_law, adjacent_pairs_of},
    {"descents", descents_law, descents_of},
    {"rising_sequences", rising_sequences_law, rising_sequences_of},
    {"runs_up_down", runs_up_down_law, runs_up_down_of},
    {"guessing", guessing_law, cycles_of},
};

void expect_relative(double got, double want, double tol, const std::string& what) {
  if (want == 0) {
    EXPECT_EQ(got, 0.0) << what;
  } else {
    EXPECT_LE(std::abs(got - want), tol * std::abs(want)) << what << ": " << got << " vs " << want;
  }
}

TEST(AuditLaws, EveryLawMatchesEnumerationOfAllPermutationsUpTo8) {
  for (std::size_t n = 1; n <= 8; ++n) {
    std::vector<int> deck(n);
    std::iota(deck.begin(), deck.end(), 0);
    std::vector<std::vector<double>> counts(std::size(law_cases), std::vector<double>(n + 2, 0.0));
    double total = 0;
    do {
      total += 1;
      for (std::size_t c = 0; c < std::size(law_cases); ++c) counts[c][law_cases[c].statistic(deck)] += 1;
    } while (std::next_permutation(deck.begin(), deck.end()));
    for (std::size_t c = 0; c < std::size(law_cases); ++c) {
      const auto law = law_cases[c].law(n);
      for (std::size_t k = 0; k < counts[c].size(); ++k) {
        const double want = counts[c][k] / total;
        const double got = k < law.size() ? law[k] : 0.0;
        expect_relative(got, want, 1e-15,
                        std::string(law_cases[c].name) + " n=" + std::to_string(n) + " k=" + std::to_string(k));
      }
    }
  }
}

TEST(AuditLaws, SupportsSumsAndSizesUpToAnEightDeckShoe) {
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t n : {2U, 52U, 104U, 416U}) {
    for (const auto& c : law_cases) {
      const auto law = c.law(n);
      const std::size_t want_size =
          (c.law == fixed_points_law || c.law == rising_sequences_law || c.law == guessing_law) ? n + 1 : n;
      EXPECT_EQ(law.size(), want_size) << c.name << " n=" << n;
      const double sum = std::accumulate(law.begin(), law.end(), 0.0);
      EXPECT_NEAR(sum, 1.0, 1e-14) << c.name << " n=" << n;
      for (double x : law) EXPECT_TRUE(x >= 0 && x <= 1) << c.name;
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 20.0) << "the laws up to n = 416 take too long";  // ~0.2 s; generous for sanitizers
  // P(no fixed point) = Σ_{k<=52} (−1)^k / k!, which is 1/e to far below double precision.
  EXPECT_NEAR(fixed_points_law(52)[0], std::exp(-1.0), 1e-16);
  // The extreme entries are exact reciprocals: one identity permutation in n! (descents = 0).
  EXPECT_NEAR(descents_law(20)[0] * 2432902008176640000.0, 1.0, 1e-15);
  EXPECT_THROW(fixed_points_law(0), shufl::error);
  EXPECT_THROW(descents_law(max_law_cards + 1), shufl::error);
}

// ---------------------------------------------------------------------------------------------
// tests/reference/audit/reference.json (tests/reference/audit/reference.py).

const nlohmann::json& reference() {
  static const nlohmann::json doc = [] {
    std::ifstream in(shufl::test::reference_dir() + "/audit/reference.json");
    EXPECT_TRUE(in) << "tests/reference/audit/reference.json";
    return nlohmann::json::parse(in);
  }();
  return doc;
}

law_function law_by_name(const std::string& name) {
  for (const auto& c : law_cases)
    if (name == c.name) return c.law;
  ADD_FAILURE() << "unknown law " << name;
  return fixed_points_law;
}

TEST(AuditLaws, PerDeckLawsMatchTheReferenceTo1e12) {
  std::size_t compared = 0;
  for (const auto& [name, by_n] : reference().at("per_deck").items()) {
    for (const auto& [n_text, want] : by_n.items()) {
      const auto got = law_by_name(name)(std::stoul(n_text));
      ASSERT_EQ(got.size(), want.size()) << name << " n=" << n_text;
      for (std::size_t k = 0; k < got.size(); ++k) {
        expect_relative(got[k], want[k].get<double>(), 1e-12, name + " n=" + n_text + " k=" + std::to_string(k));
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 1300U);  // n = 1..8, 52 and 104 for all seven laws
}

double relative_gap(double ln_got, double ln_want) {
  if (std::isinf(ln_want) || std::isinf(ln_got)) return ln_got == ln_want ? 0.0 : 1.0;
  return std::abs(std::expm1(ln_got - ln_want));
}

TEST(AuditLaws, TailsMatchTheReference) {
  std::size_t exact = 0, saddle = 0;
  for (const auto& block : reference().at("tails")) {
    const auto name = block.at("law").get<std::string>();
    const auto p = law_by_name(name)(block.at("n").get<std::size_t>());
    const auto T = block.at("T").get<std::uint64_t>();
    for (const auto& row : block.at("rows")) {
      const auto s = row.at("s").get<std::uint64_t>();
      const auto ln_of = [](const nlohmann::json& x) {  // null: ln 0
        return x.is_null() ? -std::numeric_limits<double>::infinity() : x.get<double>();
      };
      const double up = ln_of(row.at("ln_upper")), lo = ln_of(row.at("ln_lower"));
      const std::string what = name + " T=" + std::to_string(T) + " s=" + std::to_string(s);
      // The default: exact convolution when T·(support) <= 20000, else the saddlepoint.
      const total_tail t = total_tails(p, T, s);
      const double tol = t.exact ? 1e-9 : t.relative_error_bound;
      EXPECT_LE(relative_gap(t.ln_upper, up), tol) << what << " upper " << t.ln_upper << " vs " << up;
      EXPECT_LE(relative_gap(t.ln_lower, lo), tol) << what << " lower " << t.ln_lower << " vs " << lo;
      ++(t.exact ? exact : saddle);
      // Every row through the saddlepoint too (exact_limit 0), within its stated bound.
      const total_tail a = total_tails(p, T, s, 0);
      EXPECT_LE(relative_gap(a.ln_upper, up), a.relative_error_bound) << what << " saddlepoint upper";
      EXPECT_LE(relative_gap(a.ln_lower, lo), a.relative_error_bound) << what << " saddlepoint lower";
      if (T >= 1000) {
        EXPECT_LT(a.relative_error_bound, 1e-3) << what;
      }
    }
  }
  EXPECT_GT(exact, 300U);
  EXPECT_GT(saddle, 60U);
}

// ---------------------------------------------------------------------------------------------
// Tails of sums.

std::vector<double> convolve_power(const std::vector<double>& p, int T) {
  std::vector<double> r{1.0};
  for (int t = 0; t < T; ++t) {
    std::vector<double> next(r.size() + p.size() - 1, 0.0);
    for (std::size_t i = 0; i < r.size(); ++i)
      for (std::size_t j = 0; j < p.size(); ++j) next[i + j] += r[i] * p[j];
    r = std::move(next);
  }
  return r;
}

TEST(AuditLaws, ExactTailsMatchDirectConvolution) {
  for (const auto& c : law_cases) {
    const auto p = c.law(7);
    const auto conv = convolve_power(p, 5);
    for (std::uint64_t s = 0; s <= conv.size(); ++s) {
      double up = 0, lo = 0;
      for (std::size_t j = 0; j < conv.size(); ++j) {
        if (j >= s) up += conv[j];
        if (j <= s) lo += conv[j];
      }
      const total_tail t = total_tails(p, 5, s);
      EXPECT_TRUE(t.exact);
      EXPECT_EQ(t.relative_error_bound, 0.0);
      const std::string what = std::string(c.name) + " s=" + std::to_string(s);
      // Both sides are sums of positive terms here: relative agreement far below 1e-9, except
      // where a side is 1 − (tiny) and the direct sum's last bits decide (then absolute).
      if (up > 0.5) EXPECT_NEAR(std::exp(t.ln_upper), up, 1e-13) << what;
      else if (up == 0) EXPECT_EQ(t.ln_upper, -std::numeric_limits<double>::infinity()) << what;
      else expect_relative(std::exp(t.ln_upper), up, 1e-11, what + " upper");
      if (lo > 0.5) EXPECT_NEAR(std::exp(t.ln_lower), lo, 1e-13) << what;
      else if (lo == 0) EXPECT_EQ(t.ln_lower, -std::numeric_limits<double>::infinity()) << what;
      else expect_relative(std::exp(t.ln_lower), lo, 1e-11, what + " lower");
    }
  }
}

TEST(AuditLaws, TailsAtAndBeyondTheSupportEnds) {
  const auto p = fixed_points_law(10);  // support 0..10, P(10) = 1/10!, P(9) = 0
  const total_tail below = total_tails(p, 3, 0);
  EXPECT_EQ(below.ln_upper, 0.0);
  EXPECT_NEAR(below.ln_lower, 3 * std::log(p[0]), 1e-12);
  const total_tail top = total_tails(p, 3, 30);
  EXPECT_NEAR(top.ln_upper, 3 * std::log(p[10]), 1e-12);
  EXPECT_EQ(top.ln_lower, 0.0);
  EXPECT_EQ(total_tails(p, 3, 31).ln_upper, -std::numeric_limits<double>::infinity());
  // The same through the saddlepoint path (exact_limit 0): the ends are exact there too.
  const total_tail top_sp = total_tails(p, 1000, 10000, 0);
  EXPECT_NEAR(top_sp.ln_upper, 1000 * std::log(p[10]), 1e-9);
  EXPECT_EQ(total_tails(p, 1000, 10001, 0).ln_upper, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(total_tails(p, 1000, 0, 0).ln_upper, 0.0);
  EXPECT_NEAR(total_tails(p, 1000, 0, 0).ln_lower, 1000 * std::log(p[0]), 1e-9);
  // T = 0: a point mass at 0.
  EXPECT_EQ(total_tails(p, 0, 0).ln_upper, 0.0);
  EXPECT_EQ(total_tails(p, 0, 1).ln_upper, -std::numeric_limits<double>::infinity());
  // A law on a sublattice (span 2, starting at 1): S = T + 2·(…); odd/even steps are exact.
  const std::vector<double> odd{0.0, 0.5, 0.0, 0.5};
  const total_tail t = total_tails(odd, 4, 8);  // S in {4, 6, …, 12}: P(S >= 8) = 11/16
  EXPECT_NEAR(std::exp(t.ln_upper), 11.0 / 16, 1e-14);
  EXPECT_NEAR(std::exp(t.ln_lower), 11.0 / 16, 1e-14);
  EXPECT_NEAR(std::exp(total_tails(odd, 4, 7).ln_upper), 11.0 / 16, 1e-14);
  EXPECT_NEAR(std::exp(total_tails(odd, 4, 7).ln_lower), 5.0 / 16, 1e-14);
  EXPECT_THROW(total_tails(std::vector<double>{}, 1, 0), shufl::error);
  EXPECT_THROW(total_tails(std::vector<double>{0.0, -1.0}, 1, 0), shufl::error);
}

TEST(AuditLaws, SaddlepointWithinItsStatedBoundOfTheExactTails) {
  struct grid_case {
    law_function law;
    std::size_t n;
    std::uint64_t T;
  };
  const grid_case cases[] = {{fixed_points_law, 52, 50},     {fixed_points_law, 52, 300},
                             {successions_law, 52, 50},      {successions_law, 52, 300},
                             {runs_up_down_law, 52, 50},     {runs_up_down_law, 52, 300},
                             {guessing_law, 52, 50},         {guessing_law, 52, 300},
                             {fixed_points_law, 10, 30},     {descents_law, 10, 30},
                             {adjacent_pairs_law, 416, 48},  {runs_up_down_law, 416, 48}};
  for (const grid_case& g : cases) {
    const auto p = g.law(g.n);
    {
      const std::uint64_t T = g.T;
      const total_tail centre = total_tails(p, T, 0);
      const double sd = std::sqrt(centre.variance);
      for (double z = -8; z <= 30; z += 1.25) {
        const double x = centre.mean + z * sd;
        if (x < 0 || x > static_cast<double>(T * (p.size() - 1))) continue;
        const auto s = static_cast<std::uint64_t>(std::llround(x));
        const total_tail e = total_tails(p, T, s, ~std::uint64_t{0});
        const total_tail a = total_tails(p, T, s, 0);
        ASSERT_TRUE(e.exact);
        ASSERT_FALSE(a.exact);
        for (auto [got, want] : {std::pair{a.ln_upper, e.ln_upper}, std::pair{a.ln_lower, e.ln_lower}}) {
          if (std::isinf(want)) {
            EXPECT_EQ(got, want);
          } else {
            EXPECT_LE(std::abs(std::expm1(got - want)), a.relative_error_bound)
                << "n=" << g.n << " T=" << T << " s=" << s << " ln P=" << want;
          }
        }
      }
    }
  }
}

TEST(AuditLaws, SaddlepointHandlesABillionDecks) {
  const auto p = fixed_points_law(52);
  const std::uint64_t T = 1'000'000'000;
  const total_tail c = total_tails(p, T, T);  // the mean exactly: the formula's singular point
  EXPECT_FALSE(c.exact);
  EXPECT_NEAR(c.mean, 1e9, 1e-3);
  EXPECT_NEAR(c.variance, 1e9, 1e-3);
  // Near the mean both tails are close to 1/2 (+ the point mass ~ 1/√(2πT)).
  EXPECT_NEAR(std::exp(c.ln_upper), 0.5, 1e-3);
  EXPECT_NEAR(std::exp(c.ln_lower), 0.5, 1e-3);
  // Far out: finite, monotone, and ≈ the normal tail at 10 sd.
  const total_tail far = total_tails(p, T, T + 316228);
  EXPECT_LT(far.ln_upper, -50);
  EXPECT_GT(far.ln_upper, -56);
  EXPECT_LT(far.relative_error_bound, 1e-3);
}

// ---------------------------------------------------------------------------------------------
// Simulation: Fisher–Yates decks of 10 cards against the exact laws.

TEST(AuditLaws, FisherYatesDecksOfTenCardsFollowEveryLaw) {
  constexpr std::size_t n = 10;
  constexpr int decks = 40000;
  xoshiro256pp_engine engine(key_from_seed("audit-laws-simulation"));
  std::vector<int> deck(n);
  std::vector<std::vector<std::uint64_t>> seen(std::size(law_cases), std::vector<std::uint64_t>(n + 2));
  for (int t = 0; t < decks; ++t) {
    std::iota(deck.begin(), deck.end(), 0);
    fisher_yates(std::span<int>(deck), engine);
    for (std::size_t c = 0; c < std::size(law_cases); ++c) ++seen[c][law_cases[c].statistic(deck)];
  }
  for (std::size_t c = 0; c < std::size(law_cases); ++c) {
    const auto law = law_cases[c].law(n);
    // Pearson's X² with cells pooled from the top down until each expects >= 5.
    double x2 = 0, expected = 0, observed = 0;
    int cells = 0;
    for (std::size_t k = n + 2; k-- > 0;) {
      expected += (k < law.size() ? law[k] : 0.0) * decks;
      observed += static_cast<double>(seen[c][k]);
      if (expected >= 5 || k == 0) {
        if (expected > 0) {
          x2 += (observed - expected) * (observed - expected) / expected;
          ++cells;
        }
        expected = observed = 0;
      }
    }
    ASSERT_GE(cells, 3) << law_cases[c].name;
    const test_result r = chi_squared_upper_tail(x2, cells - 1);
    EXPECT_GT(r.p_value, 1e-4) << law_cases[c].name << " X²=" << x2 << " cells=" << cells;
  }
}

// ---------------------------------------------------------------------------------------------
// Card games.

TEST(AuditLaws, PokerClassCountsMatchEnumerationOfAllHands) {
  std::array<std::uint64_t, poker_class_count> counted{};
  std::array<playing_card, 5> hand{};
  for (int a = 0; a < 52; ++a)
    for (int b = a + 1; b < 52; ++b)
      for (int c = b + 1; c < 52; ++c)
        for (int d = c + 1; d < 52; ++d)
          for (int e = d + 1; e < 52; ++e) {
            const int ids[5] = {a, b, c, d, e};
            for (int i = 0; i < 5; ++i)
              hand[i] = playing_card{static_cast<std::uint8_t>(ids[i] / 13), static_cast<std::uint8_t>(ids[i] % 13)};
            ++counted[static_cast<std::size_t>(classify_poker_hand(hand))];
          }
  EXPECT_EQ(counted, poker_class_counts());
  const std::array<std::uint64_t, poker_class_count> textbook{1302540, 1098240, 123552, 54912, 10200,
                                                              5108,    3744,    624,    40};
  EXPECT_EQ(poker_class_counts(), textbook);
  const auto law = poker_class_law();
  EXPECT_NEAR(std::accumulate(law.begin(), law.end(), 0.0), 1.0, 1e-15);
  EXPECT_EQ(poker_class_name(poker_class::straight_flush), "straight-flush");
  // The wheel and Broadway are straights; K-A-2-3-4 is not.
  const std::array<playing_card, 5> wheel{{{0, 0}, {1, 1}, {2, 2}, {3, 3}, {0, 4}}};
  const std::array<playing_card, 5> broadway{{{0, 0}, {1, 9}, {2, 10}, {3, 11}, {0, 12}}};
  const std::array<playing_card, 5> wrap{{{0, 12}, {1, 0}, {2, 1}, {3, 2}, {0, 3}}};
  EXPECT_EQ(classify_poker_hand(wheel), poker_class::straight);
  EXPECT_EQ(classify_poker_hand(broadway), poker_class::straight);
  EXPECT_EQ(classify_poker_hand(wrap), poker_class::high_card);
}

TEST(AuditLaws, BlackjackClassesMatchEnumerationOfTheShoe) {
  for (std::uint64_t K : {1U, 2U, 6U, 8U}) {
    const auto law = blackjack_class_law(K);
    ASSERT_EQ(law.size(), blackjack_class_count);
    // Every ordered pair of distinct cards of the shoe (card i has rank i % 13).
    std::vector<std::uint64_t> counted(blackjack_class_count);
    const std::uint64_t cards = 52 * K;
    for (std::uint64_t i = 0; i < cards; ++i)
      for (std::uint64_t j = 0; j < cards; ++j)
        if (i != j) ++counted[classify_blackjack(static_cast<std::uint8_t>(i % 13), static_cast<std::uint8_t>(j % 13))];
    double sum = 0;
    for (std::size_t c = 0; c < blackjack_class_count; ++c) {
      EXPECT_EQ(law[c].numerator, counted[c]) << law[c].label << " K=" << K;
      EXPECT_EQ(law[c].denominator, cards * (cards - 1));
      EXPECT_GT(law[c].numerator, 0U) << law[c].label;
      sum += law[c].probability;
    }
    EXPECT_NEAR(sum, 1.0, 1e-15);
  }
  // One deck: natural = 2·4·16 / (52·51) = 128/2652.
  EXPECT_EQ(blackjack_class_law(1)[0].numerator, 128U);
  EXPECT_EQ(blackjack_class_label(0), "natural");
  EXPECT_EQ(blackjack_class_label(1), "pair");
  EXPECT_EQ(blackjack_class_label(2), "soft 13");
  EXPECT_EQ(blackjack_class_label(9), "soft 20");
  EXPECT_EQ(blackjack_class_label(10), "hard 5");
  EXPECT_EQ(blackjack_class_label(25), "hard 20");
  EXPECT_EQ(classify_blackjack(0, 12), 0U);   // A-K natural
  EXPECT_EQ(classify_blackjack(0, 0), 1U);    // A-A pair
  EXPECT_EQ(classify_blackjack(9, 9), 1U);    // 10-10 pair
  EXPECT_EQ(classify_blackjack(9, 12), 25U);  // 10-K hard 20
  EXPECT_EQ(classify_blackjack(8, 0), 9U);    // 9-A soft 20
  EXPECT_EQ(classify_blackjack(1, 2), 10U);   // 2-3 hard 5
  EXPECT_THROW(blackjack_class_law(0), shufl::error);
}

// blackjack_class_law against tests/reference/audit/blackjack.py (Python fractions, every
// ordered pair of cards of the shoe), K = 1..8 packs.
TEST(AuditLaws, BlackjackLawMatchesThePythonEnumeration) {
  std::ifstream in(shufl::test::reference_dir() + "/audit/blackjack.json");
  ASSERT_TRUE(in) << "tests/reference/audit/blackjack.json";
  const nlohmann::json ref = nlohmann::json::parse(in);
  for (std::uint64_t K = 1; K <= 8; ++K) {
    const auto& r = ref.at(std::to_string(K));
    const auto law = blackjack_class_law(K);
    ASSERT_EQ(r.at("classes").size(), law.size()) << K;
    for (const auto& c : law) {
      EXPECT_EQ(c.denominator, r.at("denominator").get<std::uint64_t>()) << K;
      EXPECT_EQ(c.numerator, r.at("classes").at(c.label).at("numerator").get<std::uint64_t>()) << K << " " << c.label;
    }
  }
}

}  // namespace
}  // namespace shufl::audit
