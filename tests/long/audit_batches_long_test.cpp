// Long statistical run of the batches test (docs/audit-laws.md, "Batches"): built with
// -DSHUFL_LONG_TESTS=ON, ctest label "long". Fixed seeds: the outcome is deterministic.
#include <gtest/gtest.h>

#include <vector>

#include "shufl/audit.hpp"
#include "shufl/audit/batches.hpp"
#include "support/audit_packs.hpp"
#include "support/test_rng.hpp"

namespace shufl::audit {
namespace {

// 1,000 fair audits of 20 samples of 100 standard decks: at 0.01 the row rejects at most
// Binomial(1000, 0.01) times (Bonferroni over 8 statistics: at most the level); [1, 24] misses
// with probability below 1e-4 at the level.
TEST(AuditBatchesLong, ThousandFairAuditsRejectAtMostTheLevel) {
  battery_shape s = make_shape(test::standard_pack());
  s.batch_size = 100;
  test::test_rng rng{35};
  int rejected = 0;
  std::vector<std::uint32_t> decks;
  for (int a = 0; a < 1000; ++a) {
    batch_sums b;
    b.size = s.batch_size;
    for (std::uint64_t j = 0; j < 20; ++j) {
      decks.clear();
      for (std::uint64_t i = 0; i < s.batch_size; ++i) {
        const auto d = rng.deck(52);
        decks.insert(decks.end(), d.begin(), d.end());
      }
      add_batch_decks(b, s, decks.data(), s.batch_size, j * s.batch_size);
    }
    rejected += batches_test(s, b).p < 0.01;
  }
  RecordProperty("rejected", rejected);
  EXPECT_GE(rejected, 1);
  EXPECT_LE(rejected, 24);
}

}  // namespace
}  // namespace shufl::audit
