// Long (ctest label `long`): a 20-card stretch from 1,000 decks back, with the replay window full
// (2^20 decks; about 10 s), alarms on the second faulty deck at the default --arl (docs/monitor.md).
#include <gtest/gtest.h>

#include <cstdint>

#include "support/replay_runs_delay.hpp"

namespace {

TEST(AuditReplayRunsLong, ATwentyCardStretchInAFullWindowAlarmsOnTheSecondFaultyDeck) {
  EXPECT_EQ(shufl::test::run_delay(1500, 1000, 1, 11, std::uint64_t{1} << 20), 2u);
  EXPECT_EQ(shufl::test::run_delay(1500, 1001, 4, 12, std::uint64_t{1} << 20), 5u);
}

}  // namespace
