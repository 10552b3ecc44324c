// Long statistical runs of the serial tests (docs/audit-laws.md, "Serial tests"): built with
// -DSHUFL_LONG_TESTS=ON, ctest label "long". Fixed seeds: the outcome is deterministic.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "shufl/audit.hpp"
#include "support/audit_packs.hpp"
#include "support/test_rng.hpp"

namespace shufl::audit {
namespace {

// p < 0.01 counts of serial-successions and serial-position over `reps` audits of `decks`
// 52-card decks made by `make`.
template <class F>
std::pair<int, int> rejections(int reps, std::size_t decks, F&& make) {
  int succ = 0, pos = 0;
  for (int r = 0; r < reps; ++r) {
    battery b(shufl::test::distinct_shape(52));
    std::vector<std::uint32_t> all;
    for (std::size_t t = 0; t < decks; ++t) {
      const auto d = make();
      all.insert(all.end(), d.begin(), d.end());
    }
    b.add_block(all.data(), decks, nullptr, 0);
    for (const auto& t : b.evaluate()) {
      if (t.name == "serial-successions") succ += t.p < 0.01;
      if (t.name == "serial-position") pos += t.p < 0.01;
    }
  }
  return {succ, pos};
}

// 1,000 fair audits of 1,000 decks: at 0.01 each serial test rejects Binomial(1000, <= 0.01)
// times (mean 10, sd 3.1; Bonferroni over 52 nearly independent categories is about exact):
// [1, 20] is 3 sd either side.
TEST(AuditSerialLong, ThousandFairAuditsRejectAtTheLevel) {
  shufl::test::test_rng rng{35};
  const auto [succ, pos] = rejections(1000, 1000, [&] { return rng.deck(52); });
  std::printf("fair: serial-successions %d, serial-position %d of 1000 at 0.01\n", succ, pos);
  EXPECT_GE(succ, 1);
  EXPECT_LE(succ, 20);
  EXPECT_GE(pos, 1);
  EXPECT_LE(pos, 20);
}

// 1,000 audits of independent but biased decks (the ace on top 30% of the time, the two of
// spades right below the ace half the time): the serial tests still reject at the level.
TEST(AuditSerialLong, ThousandBiasedIndependentAuditsRejectAtTheLevel) {
  shufl::test::test_rng rng{36};
  const auto [succ, pos] = rejections(1000, 1000, [&] {
    auto d = rng.deck(52);
    if (rng.uniform() < 0.3) std::swap(*std::find(d.begin(), d.end(), 0u), d[0]);
    if (rng.uniform() < 0.5) {
      d.erase(std::find(d.begin(), d.end(), 1u));
      d.insert(std::find(d.begin(), d.end(), 0u) + 1, 1u);
    }
    return d;
  });
  std::printf("biased, independent: serial-successions %d, serial-position %d of 1000 at 0.01\n", succ, pos);
  EXPECT_LE(succ, 20);
  EXPECT_LE(pos, 20);
}

// Knuth's permutation test: 1,000 fair audits of 1,000 52-card decks reject at 0.01 within the
// binomial band [1, 20] of the level.
TEST(AuditPermutationLong, ThousandFairAuditsRejectAtTheLevel) {
  shufl::test::test_rng rng{37};
  int r3 = 0, r4 = 0;
  for (int rep = 0; rep < 1000; ++rep) {
    battery b(shufl::test::distinct_shape(52));
    auto all = rng.decks(1000, 52);
    b.add_block(all.data(), 1000, nullptr, 0);
    for (const auto& t : b.evaluate()) {
      if (t.name == "permutation-3") r3 += t.p < 0.01;
      if (t.name == "permutation-4") r4 += t.p < 0.01;
    }
  }
  std::printf("fair: permutation-3 %d, permutation-4 %d of 1000 at 0.01\n", r3, r4);
  EXPECT_GE(r3, 1);
  EXPECT_LE(r3, 20);
  EXPECT_GE(r4, 1);
  EXPECT_LE(r4, 20);
}

}  // namespace
}  // namespace shufl::audit
