// Long statistical runs of position-pairs, the coupon collector and gap tests (docs/audit-laws.md,
// "Pairs of positions", "Coupon collector", "Gaps"): built with -DSHUFL_LONG_TESTS=ON, ctest label "long".
// Fixed seeds: the outcome is deterministic.
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "shufl/audit.hpp"
#include "support/audit_packs.hpp"
#include "support/test_rng.hpp"

namespace shufl::audit {
namespace {

// 1,000 fair audits of 1,000 standard decks: at 0.01 each test rejects Binomial(1000, 0.01)
// times (mean 10, sd 3.1): [1, 20] is 3 sd either side. position-pairs is Bonferroni over its two
// lags (at most the level); the coupon collector's totals have exact laws.
TEST(AuditPairsLong, ThousandFairAuditsRejectAtTheLevel) {
  shufl::test::test_rng rng{53};
  const battery_shape shape = make_shape(shufl::test::standard_pack());
  int pairs = 0, suits = 0, ranks = 0, gap = 0;
  for (int rep = 0; rep < 1000; ++rep) {
    battery b(shape);
    auto all = rng.decks(1000, 52);
    b.add_block(all.data(), 1000, nullptr, 0);
    for (const auto& t : b.evaluate()) {
      if (t.name == "position-pairs") pairs += t.p < 0.01;
      if (t.name == "coupon-collector-suits") suits += t.p < 0.01;
      if (t.name == "coupon-collector-ranks") ranks += t.p < 0.01;
      if (t.name == "gap") gap += t.p < 0.01;
    }
  }
  std::printf("fair: position-pairs %d, coupon-collector-suits %d, coupon-collector-ranks %d, gap %d of 1000 at 0.01\n",
              pairs, suits, ranks, gap);
  for (const int r : {pairs, suits, ranks, gap}) {
    EXPECT_GE(r, 1);
    EXPECT_LE(r, 20);
  }
}

}  // namespace
}  // namespace shufl::audit
