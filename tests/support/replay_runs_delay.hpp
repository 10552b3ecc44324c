// The delay test of the replay predictor's runs, shared by the default and the long suite.
#pragma once

#include <cstddef>
#include <cstdint>

namespace shufl::test {

// A fair stream of 52-card decks; from deck `fair` on, each deck carries a stretch of 20 cards
// of the deck `lag` back (at a random place in the old and the new deck). Returns the faulty
// decks of the log up to the alarm (0: a false alarm before). `groups` detectors share one replay window and take decks in turn.
// `prefill` fair decks go straight into the shared window first (as decks of other groups
// would), so the window can be full without running the learners over 2^20 decks.
std::uint64_t run_delay(std::uint64_t fair, std::uint64_t lag, std::size_t groups, std::uint64_t seed,
                        std::uint64_t prefill = 0);

}  // namespace shufl::test
