// Tests of the replay predictor's bet on runs (include/shufl/audit/replay_runs.hpp, detector.hpp;
// docs/monitor.md, "Replays at any lag"): the exact null probability of a hit for small packs
// (the counts computed independently by tests/monitor/check_replay_runs.py), E[e] <= 1 by
// enumeration and by simulation of fair streams, every run of 2L cards found at any offset,
// a 20-card stretch from 1,000 decks back alarming within the stated delay (also across
// groups), and the memory of the window against its stated bytes per deck.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <span>
#include <vector>

#include "shufl/audit/deck_reader.hpp"
#include "shufl/audit/detector.hpp"
#include "shufl/audit/replay_runs.hpp"
#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"
#include "support/audit_packs.hpp"
#include "support/replay_runs_delay.hpp"

namespace {

using shufl::audit::audit_pack;
using shufl::audit::change_detector;
using shufl::audit::replay_window;
using shufl::audit::run_window;
using shufl::test::small_pack;
using shufl::test::standard_pack;

// Over all 6! orders of the card ids, how many next decks hit the stored windows.
int hits_over_all_orders(const std::vector<std::uint32_t>& copies, const std::vector<std::vector<std::uint32_t>>& history,
                         unsigned bits) {
  const audit_pack pack = small_pack(copies);
  run_window w(16, 3, bits, 2);
  for (const auto& d : history) w.add(d);
  std::vector<std::uint32_t> perm(pack.size()), faces(pack.size());
  std::iota(perm.begin(), perm.end(), 0u);
  int hits = 0;
  do {
    for (std::size_t i = 0; i < perm.size(); ++i) faces[i] = pack.face_of[perm[i]];
    run_window next = w;
    if (next.add(faces).matches > 0) ++hits;
  } while (std::next_permutation(perm.begin(), perm.end()));
  return hits;
}

TEST(AuditReplayRuns, ExactNullProbabilityOfAHitMatchesTheIndependentCount) {
  // check_replay_runs.py: 92/720 (<= p_r = 2/15) and 128/720 (<= p_r = 8/15).
  EXPECT_EQ(hits_over_all_orders({1, 1, 1, 1, 1, 1}, {{0, 1, 2, 3, 4, 5}, {5, 3, 1, 0, 2, 4}}, 3), 92);
  EXPECT_EQ(hits_over_all_orders({2, 2, 1, 1}, {{0, 0, 1, 1, 2, 3}}, 2), 128);
}

TEST(AuditReplayRuns, TheDetectorStaysASupermartingaleOverEveryNextDeck) {
  // Six distinct cards (L = 3, runs bet on): over all 720 next decks, mean M_t <= M_{t−1} + 1.
  const audit_pack pack = small_pack({1, 1, 1, 1, 1, 1});
  change_detector before(pack, 1e300, std::array<std::size_t, 2>{2, 3});
  for (const auto& d : std::vector<std::vector<std::uint32_t>>{{0, 1, 2, 3, 4, 5}, {5, 3, 1, 0, 2, 4}})
    before.add_deck(d);
  const double m0 = std::exp(before.log_m());
  std::vector<std::uint32_t> perm(6);
  std::iota(perm.begin(), perm.end(), 0u);
  double sum = 0, count = 0;
  bool some_hit_pays = false;
  do {
    change_detector after = before;
    after.add_deck(perm);
    const double m = std::exp(after.log_m());
    some_hit_pays |= m > 2 * (m0 + 1);
    sum += m;
    count += 1;
  } while (std::next_permutation(perm.begin(), perm.end()));
  EXPECT_LE(sum / count, (m0 + 1) * (1 + 1e-12));
  EXPECT_GT(sum / count, 0.9 * (m0 + 1));  // it does bet: not far below the bound
  EXPECT_TRUE(some_hit_pays);
}

TEST(AuditReplayRuns, MeanEValueOfFairStreamsIsAtMostOne) {
  // Eight distinct cards (L = 4, p1 = 1/1680), a window of 8 decks (S = 16, m = 5, p_r = 80/1680):
  // hits are common, and the mean of (1 − w) + w·[hit]/p_r (w = 1/2) over 200,000 fair decks
  // must not exceed one by more than 4 standard errors.
  const audit_pack pack = small_pack({1, 1, 1, 1, 1, 1, 1, 1});
  shufl::xoshiro256pp_engine engine(shufl::key_from_seed("replay-runs-null"), 0);
  run_window w(8, 4, 3, 2);
  std::vector<std::uint32_t> deck(8);
  const double p_r = 80.0 / 1680.0;
  double sum = 0, sq = 0, n = 0;
  for (int t = 0; t < 200000; ++t) {
    std::iota(deck.begin(), deck.end(), 0u);
    shufl::fisher_yates(std::span<std::uint32_t>(deck), engine);
    const run_window::look l = w.add(deck);
    if (t < 8) continue;
    ASSERT_EQ(l.stored, 16u);
    const double e = 0.5 + 0.5 * (l.matches > 0 ? 1 / p_r : 0.0);
    sum += e, sq += e * e, n += 1;
  }
  const double mean = sum / n, se = std::sqrt((sq / n - mean * mean) / n);
  RecordProperty("mean_e", std::to_string(mean));
  EXPECT_LE(mean, 1 + 4 * se);
  EXPECT_GT(mean, 0.8);
}

TEST(AuditReplayRuns, EveryRunOfTwentyCardsIsFoundAtAnyOffset) {
  // 52 distinct cards, L = 10: a run of 20 cards of an old deck, from any offset of the old deck
  // to any offset of the new one, contains an aligned window of the old deck; 19 may be missed.
  shufl::xoshiro256pp_engine engine(shufl::key_from_seed("replay-runs-offsets"), 0);
  std::vector<std::uint32_t> old(52), fresh(52);
  std::iota(old.begin(), old.end(), 0u);
  shufl::fisher_yates(std::span<std::uint32_t>(old), engine);
  run_window base(64, 10, 6, 5);
  base.add(old);
  for (std::size_t from = 0; from + 20 <= 52; ++from)
    for (std::size_t to = 0; to + 20 <= 52; to += 3) {
      // The new deck: the run at `to`, the other 32 cards in a fresh order around it.
      std::vector<std::uint32_t> rest;
      for (std::size_t i = 0; i < 52; ++i)
        if (i < from || i >= from + 20) rest.push_back(old[i]);
      std::reverse(rest.begin(), rest.end());
      std::copy(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(to), fresh.begin());
      std::copy(old.begin() + static_cast<std::ptrdiff_t>(from), old.begin() + static_cast<std::ptrdiff_t>(from + 20),
                fresh.begin() + static_cast<std::ptrdiff_t>(to));
      std::copy(rest.begin() + static_cast<std::ptrdiff_t>(to), rest.end(), fresh.begin() + static_cast<std::ptrdiff_t>(to + 20));
      run_window w = base;
      const run_window::look l = w.add(fresh);
      ASSERT_GE(l.matches, 1u) << "run from " << from << " to " << to;
      EXPECT_EQ(l.lag, 1u);
    }
}


using shufl::test::run_delay;

TEST(AuditReplayRuns, ATwentyCardStretchFromAThousandDecksBackAlarmsWithinTwoDecks) {
  // docs/monitor.md: with the window full (2^20 decks) the second deck carrying a copied stretch
  // of 20 cards alarms at the default --arl; while the window holds fewer than about 25,000
  // decks, the first. One group, and four groups sharing the window (the stretch then comes
  // from another group's deck).
  for (std::uint64_t seed = 0; seed < 3; ++seed) {
    EXPECT_EQ(run_delay(1500, 1000, 1, seed), 1u) << "seed " << seed;
    EXPECT_EQ(run_delay(1500, 1001, 4, seed), 1u) << "seed " << seed << ", four groups";
  }
  // 60,000 decks before (300,000 windows, past the one-deck regime of about 25,000 decks): the
  // group's second faulty deck, which with four groups in turn is the fifth deck of the log.
  // The full window of 2^20 decks: tests/long/audit_replay_runs_long_test.cpp.
  EXPECT_EQ(run_delay(1500, 1000, 1, 7, 60000), 2u);
  EXPECT_EQ(run_delay(1500, 1001, 4, 8, 60000), 5u);
}

TEST(AuditReplayRuns, MemoryMatchesTheStatedBytesPerDeck) {
  // 5 aligned windows of 8 bytes per deck, and an index of 4-byte slots at most 70 % full (a
  // power of two): for 4,096 decks 163,840 + 32,768·4 = 294,912 bytes; for 2^20 decks
  // 41,943,040 + 2^23·4 = 75,497,472 bytes (72 MiB, 72 bytes per deck).
  EXPECT_EQ(run_window::full_bytes(std::size_t{1} << 20, 5), 75497472u);
  shufl::xoshiro256pp_engine engine(shufl::key_from_seed("replay-runs-memory"), 0);
  run_window w(4096, 10, 6, 5);
  std::vector<std::uint32_t> deck(52);
  for (int t = 0; t < 4096 * 2 + 7; ++t) {
    std::iota(deck.begin(), deck.end(), 0u);
    shufl::fisher_yates(std::span<std::uint32_t>(deck), engine);
    const run_window::look l = w.add(deck);
    if (t >= 4096) {
      ASSERT_EQ(l.stored, 4096u * 5);
    }
  }
  EXPECT_EQ(w.bytes(), 294912u);
  EXPECT_EQ(w.bytes(), run_window::full_bytes(4096, 5));
}

}  // namespace
