// Tests of the change detector of `audit --follow` (include/shufl/audit/detector.hpp): the
// Shiryaev–Roberts identity E0[M_t | past] = M_{t−1} + 1 checked by exact enumeration of the next
// deck (learner windows small enough that decks leave them), the average run length to a false
// alarm against its bound on simulated fair streams, a fault after a long fair history found as
// fast as on a fresh stream, restart, and the state.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <span>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "shufl/audit/deck_reader.hpp"
#include "shufl/audit/detector.hpp"
#include "shufl/deck.hpp"
#include "shufl/error.hpp"
#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"
#include "support/audit_packs.hpp"

namespace {

using shufl::audit::audit_pack;
using shufl::audit::change_detector;
using shufl::test::small_pack;
using shufl::test::standard_pack;

constexpr std::array<std::size_t, 2> small_windows = {2, 3};

// Over every order of the next deck (each 1/n! under the null), the mean of M_t must be
// M_{t−1} + 1 exactly (up to rounding): the Shiryaev–Roberts recursion over e-values of
// conditional mean one.
void expect_sr_identity(const audit_pack& pack, const std::vector<std::vector<std::uint32_t>>& history) {
  change_detector before(pack, 1e300, small_windows);
  for (const auto& d : history) before.add_deck(d);
  const double m0 = std::exp(before.log_m());
  ASSERT_LT(m0, 1e6) << "M so large that the + 1 would drown in rounding";
  std::vector<std::uint32_t> perm(pack.size()), faces(pack.size());
  std::iota(perm.begin(), perm.end(), 0u);
  double sum = 0, count = 0;
  do {
    for (std::size_t i = 0; i < perm.size(); ++i) faces[i] = pack.face_of[perm[i]];
    change_detector after = before;
    after.add_deck(faces);
    sum += std::exp(after.log_m());
    count += 1;
  } while (std::next_permutation(perm.begin(), perm.end()));
  EXPECT_NEAR(sum / count, m0 + 1, 1e-12 * (m0 + 1)) << "history of " << history.size() << " decks";
}

TEST(AuditDetector, ShiryaevRobertsIdentityExactlyOnFiveCards) {
  const audit_pack pack = small_pack({1, 1, 1, 1, 1});
  expect_sr_identity(pack, {});
  expect_sr_identity(pack, {{0, 1, 2, 3, 4}});
  // Five decks: the windows of 2 and 3 decks have let the oldest ones go.
  expect_sr_identity(pack, {{0, 1, 2, 3, 4}, {1, 2, 3, 4, 0}, {4, 2, 0, 1, 3}, {1, 2, 3, 4, 0}, {0, 1, 2, 3, 4}});
}

TEST(AuditDetector, ShiryaevRobertsIdentityWithSuitsRanksAndAShoe) {
  expect_sr_identity(small_pack({1, 1, 1, 1, 1}, {0, 0, 1, 1, -1}, {0, 1, 0, 1, -1}, 2),
                     {{0, 1, 2, 3, 4}, {0, 2, 1, 3, 4}, {2, 0, 1, 4, 3}, {0, 1, 2, 3, 4}});
  expect_sr_identity(small_pack({2, 2, 1}, {0, 1, 0}, {0, 0, 1}, 2),
                     {{0, 0, 1, 1, 2}, {0, 1, 0, 2, 1}, {1, 0, 2, 1, 0}, {0, 0, 1, 1, 2}});
}

// Decks of fair Fisher–Yates streams until the detector alarms (at most `cap`).
std::uint64_t run_length(const audit_pack& pack, double arl, const shufl::seed_key& key, std::uint64_t stream,
                         std::uint64_t cap) {
  shufl::xoshiro256pp_engine engine(key, stream);
  change_detector d(pack, arl);
  std::vector<std::uint32_t> deck(pack.size());
  for (std::uint64_t t = 1; t <= cap; ++t) {
    std::iota(deck.begin(), deck.end(), 0u);
    shufl::fisher_yates(std::span<std::uint32_t>(deck), engine);
    for (auto& c : deck) c = pack.face_of[c];
    d.add_deck(deck);
    if (d.alarmed()) return t;
  }
  return cap;
}

TEST(AuditDetector, AverageRunLengthOfFairStreamsIsAtLeastTheThreshold) {
  // ARL >= A: 400 fair streams of an 8-card pack at A = 30, each cut at 3,000 decks (a cut only
  // lowers the mean). The claim fails if the mean run length is below A by more than 3 standard
  // errors. Also the SR bound's other face: not every stream alarms early (P(τ <= t) <= t/A
  // does not hold in general, but a detector betting on nothing would show mean ~ A).
  const audit_pack pack = small_pack({1, 1, 1, 1, 1, 1, 1, 1});
  const shufl::seed_key key = shufl::key_from_seed("detector-arl");
  const double a = 30;
  std::vector<double> len;
  for (std::uint64_t s = 0; s < 400; ++s) len.push_back(static_cast<double>(run_length(pack, a, key, s, 3000)));
  const double n = static_cast<double>(len.size());
  const double mean = std::accumulate(len.begin(), len.end(), 0.0) / n;
  double var = 0;
  for (double v : len) var += (v - mean) * (v - mean);
  const double se = std::sqrt(var / (n - 1) / n);
  RecordProperty("mean_run_length", std::to_string(mean));
  EXPECT_GE(mean + 3 * se, a) << "mean " << mean << " se " << se;
}

TEST(AuditDetector, AverageRunLengthOnFiftyTwoCards) {
  // The same on the standard pack at A = 50: 150 streams, cut at 2,000 decks.
  const audit_pack pack = standard_pack();
  const shufl::seed_key key = shufl::key_from_seed("detector-arl-52");
  const double a = 50;
  double sum = 0, sq = 0;
  const int n = 150;
  for (std::uint64_t s = 0; s < n; ++s) {
    const double v = static_cast<double>(run_length(pack, a, key, s, 2000));
    sum += v;
    sq += v * v;
  }
  const double mean = sum / n, se = std::sqrt((sq / n - mean * mean) / (n - 1));
  RecordProperty("mean_run_length", std::to_string(mean));
  EXPECT_GE(mean + 3 * se, a) << "mean " << mean << " se " << se;
}

// Decks after the change until the alarm (default threshold 1e9), for a card stuck on top:
// the ace of spades always dealt first, the rest fair.
std::uint64_t stuck_card_delay(std::uint64_t fair_before, std::uint64_t seed) {
  const audit_pack pack = standard_pack();
  shufl::xoshiro256pp_engine engine(shufl::key_from_seed("detector-delay"), seed);
  change_detector d(pack, 1e9);
  std::vector<std::uint32_t> deck(52);
  for (std::uint64_t t = 0; t < fair_before; ++t) {
    std::iota(deck.begin(), deck.end(), 0u);
    shufl::fisher_yates(std::span<std::uint32_t>(deck), engine);
    d.add_deck(deck);
    EXPECT_FALSE(d.alarmed());
  }
  for (std::uint64_t t = 1; t <= 5000; ++t) {
    std::iota(deck.begin(), deck.end(), 0u);
    shufl::fisher_yates(std::span<std::uint32_t>(deck.data() + 1, 51), engine);
    d.add_deck(deck);
    if (d.alarmed()) return t;
  }
  return 5001;
}

TEST(AuditDetector, AFaultAfterALongFairHistoryIsFoundAsFastAsOnAFreshStream) {
  const std::uint64_t fresh = stuck_card_delay(0, 1), late = stuck_card_delay(20000, 1);
  RecordProperty("fresh", static_cast<int>(fresh));
  RecordProperty("late", static_cast<int>(late));
  EXPECT_LE(fresh, 200u);
  EXPECT_LE(late, 2 * fresh + 5);
}

TEST(AuditDetector, AReplayedDeckAtLagTenThousandAlarmsAtOnce) {
  // Whole decks repeated from 10,000 decks back (a replayed log) alarm on the first repeat.
  const audit_pack pack = standard_pack();
  shufl::xoshiro256pp_engine engine(shufl::key_from_seed("detector-replay"), 0);
  change_detector d(pack, 1e9);
  std::vector<std::vector<std::uint32_t>> log(10000, std::vector<std::uint32_t>(52));
  for (auto& deck : log) {
    std::iota(deck.begin(), deck.end(), 0u);
    shufl::fisher_yates(std::span<std::uint32_t>(deck), engine);
    d.add_deck(deck);
    ASSERT_FALSE(d.alarmed());
  }
  d.add_deck(log[0]);
  EXPECT_TRUE(d.alarmed());
  EXPECT_EQ(d.current().leader, "replay");
  EXPECT_EQ(d.current().evidence, "the last deck repeats the deck 10000 back");
}

TEST(AuditDetector, RestartStartsFromZeroAndStateRoundTrips) {
  const audit_pack pack = standard_pack();
  shufl::xoshiro256pp_engine engine(shufl::key_from_seed("detector-state"), 0);
  change_detector a(pack, 1e9);
  std::vector<std::uint32_t> deck(52);
  const auto next = [&] {
    std::iota(deck.begin(), deck.end(), 0u);
    shufl::fisher_yates(std::span<std::uint32_t>(deck), engine);
  };
  for (int t = 0; t < 1100; ++t) next(), a.add_deck(deck);  // past the 1,024-deck window
  change_detector b(pack, 1e9);
  b.deserialize(a.serialize());
  EXPECT_EQ(b.serialize(), a.serialize());
  for (int t = 0; t < 50; ++t) next(), a.add_deck(deck), b.add_deck(deck);
  // The same learners and statistics; only the replay window (not saved) refilled, whose
  // statistic under fair decks settles at the same fixed point M = (1 − w)/w within decks.
  EXPECT_NEAR(a.log_m(), b.log_m(), 1e-2);
  EXPECT_EQ(a.current().evidence, b.current().evidence);
  a.restart();
  EXPECT_TRUE(std::isinf(a.log_m()) && a.log_m() < 0);
  EXPECT_EQ(a.current().decks, 0u);
  a.add_deck(deck);
  EXPECT_TRUE(std::isfinite(a.log_m()));
  EXPECT_EQ(a.current().decks, 1u);
}

TEST(AuditDetector, RefusesForeignOrForgedStates) {
  const audit_pack pack = standard_pack();
  change_detector a(pack, 1e9);
  std::vector<std::uint32_t> deck(52);
  std::iota(deck.begin(), deck.end(), 0u);
  a.add_deck(deck);
  const std::string good = a.serialize();
  change_detector other(pack, 1e9, small_windows);
  EXPECT_THROW(other.deserialize(good), shufl::error);
  change_detector c(pack, 1e9);
  EXPECT_THROW(c.deserialize("{}"), shufl::error);
  EXPECT_THROW(c.deserialize("not json"), shufl::error);
  auto j = nlohmann::json::parse(good);
  for (auto& v : j["log_sr"])
    if (v.is_number()) v = 1e308;
  EXPECT_THROW(c.deserialize(j.dump()), shufl::error);
  EXPECT_THROW(change_detector(pack, 1.0), shufl::error);
  EXPECT_THROW(change_detector(pack, std::nan("")), shufl::error);
}

}  // namespace

namespace {

// Decks of `pack` that make the guessing predictors hit: fair ones, the previous deck cut by one
// card (repeat hits), the pack's order (successor hits), in turn.
std::vector<std::vector<std::uint32_t>> guessing_stream(const audit_pack& pack, std::size_t count) {
  shufl::xoshiro256pp_engine engine(shufl::key_from_seed("detector-shared"), 0);
  std::vector<std::vector<std::uint32_t>> out;
  std::vector<std::uint32_t> order(pack.size());
  for (std::size_t t = 0; t < count; ++t) {
    std::iota(order.begin(), order.end(), 0u);
    if (t % 3 == 0) shufl::fisher_yates(std::span<std::uint32_t>(order), engine);
    std::vector<std::uint32_t> deck(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) deck[i] = pack.face_of[order[i]];
    if (t % 3 == 1) {
      deck = out.back();
      std::rotate(deck.begin(), deck.begin() + 1, deck.end());
    }
    out.push_back(deck);
  }
  return out;
}

}  // namespace

// The guessing predictors' work handed from one e-process to the others of a stream
// (e_process::shared_guesses) gives every e-process the same state, to the last bit, as its
// own computation; an e-process whose previous deck differs computes its own.
TEST(AuditDetector, SharedGuessingWorkGivesTheSameStatesBitForBit) {
  using shufl::audit::e_process;
  for (const audit_pack& pack : {standard_pack(), small_pack({2, 2, 1, 3}, {0, 1, 0, 1}, {0, 0, 1, 1}, 2)}) {
    const auto decks = guessing_stream(pack, 90);
    std::vector<e_process> own = {e_process(pack), e_process(pack, 2), e_process(pack, 32)};
    std::vector<e_process> shared = own;
    e_process other(pack), other_own(pack);  // another previous deck: it must not take the work
    other.add_deck(decks[5]);
    other_own.add_deck(decks[5]);
    e_process::shared_guesses work;
    std::uint64_t hits = 0;
    for (const auto& d : decks) {
      work.ready = false;
      for (e_process& e : own) e.add_deck(d);
      for (std::size_t i : {1, 2, 0}) shared[i].add_deck(d, &work);
      ASSERT_TRUE(work.ready);
      hits += work.hits[0] + work.hits[1];
      other.add_deck(d, &work);
      other_own.add_deck(d);
      for (std::size_t i = 0; i < own.size(); ++i) ASSERT_EQ(shared[i].serialize(), own[i].serialize());
      ASSERT_EQ(other.serialize(), other_own.serialize());
    }
    EXPECT_GT(hits, 30 * pack.size());  // the guessing predictors did hit (the test is not empty)
  }
}

// add_deck_together: one pass over a deck for several e-processes of a stream gives each the
// state one add_deck after the other gives, to the last bit (whole decks, a shoe, partial deals;
// the windowed learners and the since-the-start one; with and without handed-on guessing work);
// processes at different points of the stream are taken one after the other; a bad deck changes
// none of them. The detector with its since-the-start e-process (`with`) likewise.
TEST(AuditDetector, OnePassForSeveralEProcessesGivesTheSameStatesBitForBit) {
  using shufl::audit::e_process;
  const audit_pack shoe = small_pack({2, 2, 1, 3}, {0, 1, 0, 1}, {0, 0, 1, 1}, 2);
  for (const audit_pack& pack : {standard_pack(), shoe}) {
    for (const std::size_t deal : {pack.size(), pack.size() - 3}) {
      auto decks = guessing_stream(pack, 70);
      for (auto& d : decks) d.resize(deal);
      std::vector<e_process> one = {e_process(pack, 2), e_process(pack, 32), e_process(pack)};
      std::vector<e_process> together = one;
      e_process late(pack);  // one deck behind the others: taken on its own
      e_process late_one(pack);
      for (std::size_t k = 0; k < decks.size(); ++k) {
        const auto& d = decks[k];
        for (e_process& e : one) e.add_deck(d);
        std::vector<e_process*> procs = {&together[0], &together[1], &together[2]};
        e_process::shared_guesses work;
        if (k % 2 == 1) procs.push_back(&late);
        e_process::add_deck_together(procs, d, k % 3 == 0 ? nullptr : &work);
        if (k % 2 == 1) late_one.add_deck(d);
        for (std::size_t i = 0; i < one.size(); ++i) ASSERT_EQ(together[i].serialize(), one[i].serialize()) << k;
        ASSERT_EQ(late.serialize(), late_one.serialize()) << k;
      }
      // A deck with a face twice changes nobody.
      std::vector<std::uint32_t> bad = decks[0];
      bad[1] = bad[0];
      std::vector<e_process*> procs = {&together[0], &together[1], &together[2]};
      EXPECT_THROW(e_process::add_deck_together(procs, bad, nullptr), shufl::error);
      for (std::size_t i = 0; i < one.size(); ++i) EXPECT_EQ(together[i].serialize(), one[i].serialize());
    }
  }
  // The detector and its since-the-start e-process in one pass, against one after the other.
  const audit_pack pack = standard_pack();
  const auto decks = guessing_stream(pack, 60);
  change_detector d1(pack, 1e9), d2(pack, 1e9);
  e_process e1(pack), e2(pack);
  e_process::shared_guesses work1, work2;
  for (const auto& d : decks) {
    work1.ready = work2.ready = false;
    d1.add_deck(d, &work1);
    e1.add_deck(d, &work1);
    d2.add_deck(d, &work2, &e2);
    ASSERT_EQ(d2.serialize(), d1.serialize());
    ASSERT_EQ(e2.serialize(), e1.serialize());
  }
}
