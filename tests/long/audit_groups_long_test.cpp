// Long runs of --group-by's guarantees (ctest label `long`): the average run length of the whole
// log of 1,000 fair logs of twenty interleaved groups of the standard pack at A = 1,000 (each cut
// at 40,000 decks, a cut that only lowers the mean) must not be below A by more than 3 standard
// errors; and a whole deck replayed from 10^6 decks back (inside the 2^20-deck window shared by
// every group) alarms at the default --arl at its first repeat.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "shufl/audit/deck_reader.hpp"
#include "shufl/audit/follow_groups.hpp"
#include "shufl/deck.hpp"
#include "support/test_rng.hpp"
#include "support/run_length.hpp"

namespace {

shufl::audit::audit_pack standard() {
  return shufl::audit::audit_pack_of(shufl::make_pack(shufl::pack_kind::standard), "standard", 1, 0);
}

TEST(AuditGroupsLong, AverageRunLengthOfTheWholeLogOfTwentyGroups) {
  const double a = 1000;
  const int n = 1000;
  shufl::test::run_lengths runs;
  for (int s = 0; s < n; ++s) {
    shufl::test::test_rng rng{static_cast<std::uint64_t>(s) + 77};
    shufl::audit::follow_group_set set(standard(), a, true, 20);
    std::uint64_t t = 1;
    for (; t <= 40000; ++t) {
      auto& g = set.get(std::to_string(rng.below(20)));
      g.detector.add_deck(rng.deck(52));
      if (g.detector.alarmed()) break;
    }
    runs.add(t, 40000);
  }
  runs.expect_mean_at_least(a);
}

TEST(AuditGroupsLong, AWholeDeckReplayedFromAMillionDecksBackAlarmsAtOnce) {
  shufl::audit::follow_group_set set(standard(), 1e9, true, 10);
  shufl::test::test_rng rng{2026};
  const std::uint64_t lag = 1000000;
  std::vector<std::uint32_t> first;
  for (std::uint64_t t = 0; t < lag; ++t) {
    const auto d = rng.deck(52);
    if (t == 0) first = d;
    auto& g = set.get(t % 2 == 0 ? "a" : "b");
    g.detector.add_deck(d);
    ASSERT_FALSE(g.detector.alarmed()) << "a false alarm at deck " << t;
  }
  auto& c = set.get("c");
  c.detector.add_deck(first);  // the deck of 10^6 decks back, dealt by another table
  EXPECT_TRUE(c.detector.alarmed());
  EXPECT_EQ(c.detector.current().leader, "replay");
}

}  // namespace
