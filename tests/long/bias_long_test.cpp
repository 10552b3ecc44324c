// Long statistical runs of `shufl bias` (issue 5, item 6, at full size): built with
// -DSHUFL_LONG_TESTS=ON, ctest label "long". Fixed seeds: the outcome is deterministic.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "shufl/bias.hpp"

namespace shufl {
namespace {

bias_options sweep(const std::string& algo, std::size_t n, std::uint64_t trials, int seed) {
  bias_options o;
  o.n = n;
  o.trials = trials;
  o.seed = "long-sweep-" + std::to_string(seed);
  o.algorithms = parse_algorithm_list(algo);
  o.threads = 2;
  return o;
}

// Fisher–Yates at alpha = 0.01 is flagged in at most 5 of 100 seeds, while naive (n = 3, 60000
// trials), sattolo, asf-poker, every sort-coin and modulo:3 are flagged in every one.
TEST(BiasLong, HundredSeeds) {
  int flagged = 0;
  for (int seed = 0; seed < 100; ++seed) {
    flagged += run_bias(sweep("fisher-yates", 3, 60000, seed)).results[0].outcome == verdict::biased;
  }
  EXPECT_LE(flagged, 5);
  RecordProperty("fisher_yates_flagged_of_100", flagged);
  for (const char* algo : {"naive", "sattolo", "asf-poker", "sort-coin:insertion", "sort-coin:merge",
                           "sort-coin:bubble", "sort-coin:selection", "modulo:3"}) {
    int caught = 0;
    for (int seed = 0; seed < 100; ++seed) {
      caught += run_bias(sweep(algo, 3, 60000, seed)).results[0].outcome == verdict::biased;
    }
    EXPECT_EQ(caught, 100) << algo;
  }
}

// The scaled position test on Fisher–Yates at alpha = 0.05 over 200 seeds flags between 2 and 20;
// the unscaled statistic flags about 35.
TEST(BiasLong, PositionTestOverTwoHundredSeeds) {
  int scaled = 0, unscaled = 0;
  for (int seed = 0; seed < 200; ++seed) {
    auto o = sweep("fisher-yates", 10, 20000, seed);
    o.test = bias_test::position;
    o.alpha = 0.05;
    const auto r = run_bias(o).results[0];
    scaled += r.chi_squared.p_value < 0.05;
    double x2 = 0;
    for (const auto c : r.position_counts) {
      x2 += (static_cast<double>(c) - r.expected) * (static_cast<double>(c) - r.expected) / r.expected;
    }
    unscaled += chi_squared_upper_tail(x2, 81).p_value < 0.05;
  }
  std::printf("scaled position test flagged %d of 200; unscaled %d of 200\n", scaled, unscaled);
  EXPECT_GE(scaled, 2);
  EXPECT_LE(scaled, 20);
  EXPECT_GE(unscaled, 20);
}

// The whole family (position + secondary + duplicates, Holm) on Fisher–Yates at n = 52 holds
// alpha = 0.05 over 40 seeds: at most 6 flagged.
TEST(BiasLong, FamilyHoldsItsLevelAtFiftyTwo) {
  int flagged = 0;
  for (int seed = 0; seed < 40; ++seed) {
    auto o = sweep("fisher-yates", 52, 100000, seed);
    o.alpha = 0.05;
    flagged += run_bias(o).results[0].outcome == verdict::biased;
  }
  std::printf("family flagged %d of 40\n", flagged);
  EXPECT_LE(flagged, 6);
}

}  // namespace
}  // namespace shufl
