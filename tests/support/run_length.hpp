// Run lengths of fair streams until a false alarm, for the long tests of the change detector's
// guarantee: each stream is cut at a number of decks (a cut that only lowers the mean), and the
// mean must not be below the promised average run length A by more than 3 standard errors.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace shufl::test {

struct run_lengths {
  double sum = 0, sq = 0;
  int n = 0;

  // One stream's run length t (decks up to its alarm), cut at `cap` decks.
  void add(std::uint64_t t, std::uint64_t cap) {
    const double v = static_cast<double>(std::min(t, cap));
    sum += v;
    sq += v * v;
    ++n;
  }

  // Records the mean as a test property and expects it at least A less 3 standard errors.
  void expect_mean_at_least(double a) const {
    const double mean = sum / n, se = std::sqrt((sq / n - mean * mean) / (n - 1));
    ::testing::Test::RecordProperty("mean_run_length", std::to_string(mean));
    EXPECT_GE(mean + 3 * se, a) << "mean " << mean << " se " << se;
  }
};

}  // namespace shufl::test
