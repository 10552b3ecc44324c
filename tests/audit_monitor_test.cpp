// Tests of the e-process of `audit --follow` (include/shufl/audit/monitor.hpp): the martingale
// property checked by exact enumeration of the next deck, the false-alarm rate under fair
// Fisher–Yates decks (Ville's bound), planted flaws caught, and the state file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "shufl/audit/deck_reader.hpp"
#include "shufl/audit/monitor.hpp"
#include "shufl/deck.hpp"
#include "shufl/error.hpp"
#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"
#include "support/audit_packs.hpp"

namespace {

using shufl::audit::audit_pack;
using shufl::audit::e_process;
using shufl::test::small_pack;
using shufl::test::standard_pack;

// Every order of the pack's cards (n! of them, each of probability 1/n! under the null) as face
// sequences; the expectation of each predictor's e-value after the next deck must equal its
// value before (the martingale property, exactly).
void expect_martingale(const audit_pack& pack, const std::vector<std::vector<std::uint32_t>>& history) {
  e_process before(pack);
  for (const auto& d : history) before.add_deck(d);
  const auto s0 = before.current();
  std::vector<std::uint32_t> perm(pack.size());
  std::iota(perm.begin(), perm.end(), 0u);
  std::vector<double> mean(s0.log10_e.size() + 1, 0.0);
  double count = 0;
  std::vector<std::uint32_t> faces(pack.size());
  do {
    for (std::size_t i = 0; i < perm.size(); ++i) faces[i] = pack.face_of[perm[i]];
    e_process after = before;
    after.add_deck(faces);
    const auto s = after.current();
    for (std::size_t p = 0; p < s.log10_e.size(); ++p)
      mean[p] += std::pow(10.0, s.log10_e[p].second - s0.log10_e[p].second);
    mean.back() += std::pow(10.0, s.log10_mixture - s0.log10_mixture);
    count += 1;
  } while (std::next_permutation(perm.begin(), perm.end()));
  for (std::size_t p = 0; p < mean.size(); ++p) {
    SCOPED_TRACE(p < s0.log10_e.size() ? s0.log10_e[p].first : std::string("mixture"));
    EXPECT_NEAR(mean[p] / count, 1.0, 1e-12);
  }
}

TEST(AuditMonitor, ExpectationOfEachPredictorIsExactlyOneSinglePack) {
  // n = 5 distinct cards, no suits; a history with structure so every predictor is active.
  const audit_pack pack = small_pack({1, 1, 1, 1, 1});
  expect_martingale(pack, {});
  expect_martingale(pack, {{0, 1, 2, 3, 4}});
  expect_martingale(pack, {{0, 1, 2, 3, 4}, {1, 2, 3, 4, 0}, {4, 2, 0, 1, 3}, {1, 2, 3, 4, 0}});
}

TEST(AuditMonitor, ExpectationIsExactlyOneWithSuitsRanksAndJokers) {
  // Faces: two suits × two ranks and a face without either (a joker).
  const audit_pack pack = small_pack({1, 1, 1, 1, 1}, {0, 0, 1, 1, -1}, {0, 1, 0, 1, -1}, 2);
  expect_martingale(pack, {{0, 1, 2, 3, 4}, {0, 2, 1, 3, 4}, {2, 0, 1, 4, 3}});
}

TEST(AuditMonitor, ExpectationIsExactlyOneForAShoe) {
  // Three faces with 2, 2 and 1 copies (a 5-card shoe): the null is proportional to copies left.
  const audit_pack pack = small_pack({2, 2, 1}, {0, 1, 0}, {0, 0, 1}, 2);
  expect_martingale(pack, {{0, 0, 1, 1, 2}, {0, 1, 0, 2, 1}, {1, 0, 2, 1, 0}});
}

TEST(AuditMonitor, FairDecksRarelyCrossOneOverAlpha) {
  // 200 streams of 2,000 fair Fisher–Yates decks: by Ville's inequality each crosses 1/0.05 with
  // probability at most 0.05. Allow the binomial(200, 0.05) band: P(X >= 20) < 0.004.
  const audit_pack pack = standard_pack();
  const shufl::seed_key key = shufl::key_from_seed("monitor-fair");
  int crossed = 0;
  double worst = 0;
  std::vector<std::uint32_t> deck(52);
  for (std::uint64_t stream = 0; stream < 200; ++stream) {
    shufl::xoshiro256pp_engine engine(key, stream);
    e_process e(pack);
    for (int d = 0; d < 2000; ++d) {
      std::iota(deck.begin(), deck.end(), 0u);
      shufl::fisher_yates(std::span<std::uint32_t>(deck), engine);
      e.add_deck(deck);
    }
    crossed += e.crossed(0.05);
    worst = std::max(worst, e.current().max_log10_mixture);
  }
  RecordProperty("crossed", crossed);
  EXPECT_LT(crossed, 20) << "largest log10 mixture " << worst;
}

// Decks until the mixture crosses 1/alpha (or `cap`), for a flawed shuffler `make(deck, prev, engine)`.
template <class Make>
std::uint64_t decks_to_alarm(const std::string& seed, double alpha, std::uint64_t cap, Make make) {
  const audit_pack pack = standard_pack();
  shufl::xoshiro256pp_engine engine(shufl::key_from_seed(seed), 0);
  e_process e(pack);
  std::vector<std::uint32_t> deck(52), prev(52);
  std::iota(prev.begin(), prev.end(), 0u);
  for (std::uint64_t d = 1; d <= cap; ++d) {
    make(deck, prev, engine);
    e.add_deck(deck);
    prev = deck;
    if (e.crossed(alpha)) return d;
  }
  return cap + 1;
}

void fair(std::vector<std::uint32_t>& deck, shufl::xoshiro256pp_engine& engine) {
  std::iota(deck.begin(), deck.end(), 0u);
  shufl::fisher_yates(std::span<std::uint32_t>(deck), engine);
}

std::uint64_t median_of(std::vector<std::uint64_t> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

TEST(AuditMonitor, CatchesPartialRepeats) {
  // With probability 0.02 the shuffler deals the previous deck again, rotated by one card.
  std::vector<std::uint64_t> runs;
  for (const char* seed : {"repeat-1", "repeat-2", "repeat-3"}) {
    runs.push_back(decks_to_alarm(seed, 0.001, 20000, [](auto& deck, const auto& prev, auto& engine) {
      if (shufl::uniform_below(engine, 50) == 0) {
        std::rotate_copy(prev.begin(), prev.begin() + 1, prev.end(), deck.begin());
      } else {
        fair(deck, engine);
      }
    }));
  }
  RecordProperty("median", static_cast<int>(median_of(runs)));
  std::printf("decks to alarm: %llu %llu %llu\n", static_cast<unsigned long long>(runs[0]),
              static_cast<unsigned long long>(runs[1]), static_cast<unsigned long long>(runs[2]));
  EXPECT_LE(median_of(runs), 1000u);
}

TEST(AuditMonitor, CatchesGluedNeighbours) {
  // After a fair shuffle, each original pair (2i, 2i+1) is glued back together with probability
  // 1/8: card 2i+1 is moved to just below card 2i.
  std::vector<std::uint64_t> runs;
  for (const char* seed : {"glue-1", "glue-2", "glue-3"}) {
    runs.push_back(decks_to_alarm(seed, 0.001, 20000, [](auto& deck, const auto&, auto& engine) {
      fair(deck, engine);
      for (std::uint32_t c = 0; c + 1 < 52; c += 2) {
        if (shufl::uniform_below(engine, 8) != 0) continue;
        auto it = std::find(deck.begin(), deck.end(), c + 1);
        deck.erase(it);
        auto at = std::find(deck.begin(), deck.end(), c);
        deck.insert(at + 1, c + 1);
      }
    }));
  }
  RecordProperty("median", static_cast<int>(median_of(runs)));
  std::printf("decks to alarm: %llu %llu %llu\n", static_cast<unsigned long long>(runs[0]),
              static_cast<unsigned long long>(runs[1]), static_cast<unsigned long long>(runs[2]));
  EXPECT_LE(median_of(runs), 100u);
}

TEST(AuditMonitor, CatchesThreeRiffles) {
  std::vector<std::uint64_t> runs;
  for (const char* seed : {"riffle-1", "riffle-2", "riffle-3"}) {
    runs.push_back(decks_to_alarm(seed, 0.001, 20000, [](auto& deck, const auto&, auto& engine) {
      std::iota(deck.begin(), deck.end(), 0u);
      shufl::riffle_algorithm{}(std::span<std::uint32_t>(deck), engine, 3);
    }));
  }
  RecordProperty("median", static_cast<int>(median_of(runs)));
  std::printf("decks to alarm: %llu %llu %llu\n", static_cast<unsigned long long>(runs[0]),
              static_cast<unsigned long long>(runs[1]), static_cast<unsigned long long>(runs[2]));
  EXPECT_LE(median_of(runs), 50u);
}

TEST(AuditMonitor, KeepsUpWithAHundredThousandDecksPerSecond) {
  // Generous against slow CI machines: a quarter of the target, in an optimised build without
  // sanitizers (bench/monitor.sh measures the real figure).
  const audit_pack pack = standard_pack();
  shufl::xoshiro256pp_engine engine(shufl::key_from_seed("speed"), 0);
  std::vector<std::vector<std::uint32_t>> decks(1000, std::vector<std::uint32_t>(52));
  for (auto& d : decks) fair(d, engine);
  e_process e(pack);
  // Processor time of this process (the machine may be shared).
  const std::clock_t start = std::clock();
  for (int round = 0; round < 20; ++round)
    for (const auto& d : decks) e.add_deck(d);
  const double seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  std::printf("monitor: %.0f decks per second (processor time)\n", 20000 / seconds);
  RecordProperty("decks_per_second", static_cast<int>(20000 / seconds));
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_UNDEFINED__)
  EXPECT_GT(20000 / seconds, 25000.0);
#endif
}

TEST(AuditMonitor, RejectsDecksThatAreNotOfThePack) {
  e_process e(small_pack({1, 1, 1}));
  const std::vector<std::uint32_t> unknown{0, 1, 7}, twice{0, 0, 1}, longer{0, 1, 2, 0};
  EXPECT_THROW(e.add_deck(unknown), shufl::error);
  EXPECT_THROW(e.add_deck(twice), shufl::error);
  EXPECT_THROW(e.add_deck(longer), shufl::error);
  EXPECT_EQ(e.decks(), 0u);
  const std::vector<std::uint32_t> two{2, 0};
  e.add_deck(two);  // a partial deal: later decks must have 2 cards too
  const std::vector<std::uint32_t> three{0, 1, 2};
  EXPECT_THROW(e.add_deck(three), shufl::error);
  EXPECT_EQ(e.decks(), 1u);
}

TEST(AuditMonitor, StateRoundTripsAndContinuesTheSameProcess) {
  const audit_pack pack = standard_pack();
  shufl::xoshiro256pp_engine engine(shufl::key_from_seed("state"), 0);
  std::vector<std::vector<std::uint32_t>> decks(60, std::vector<std::uint32_t>(52));
  for (auto& d : decks) {
    std::iota(d.begin(), d.end(), 0u);
    shufl::riffle_algorithm{}(std::span<std::uint32_t>(d), engine, 4);
  }
  e_process a(pack);
  for (int i = 0; i < 30; ++i) a.add_deck(decks[i]);
  e_process b(pack);
  b.deserialize(a.serialize());
  EXPECT_EQ(b.serialize(), a.serialize());
  for (int i = 30; i < 60; ++i) {
    a.add_deck(decks[i]);
    b.add_deck(decks[i]);
  }
  const auto sa = a.current(), sb = b.current();
  EXPECT_EQ(sa.decks, 60u);
  EXPECT_EQ(sb.decks, 60u);
  for (std::size_t p = 0; p < sa.log10_e.size(); ++p)
    EXPECT_EQ(sa.log10_e[p].second, sb.log10_e[p].second) << sa.log10_e[p].first;
  EXPECT_EQ(sa.max_log10_mixture, sb.max_log10_mixture);
  EXPECT_EQ(sa.evidence, sb.evidence);
}

TEST(AuditMonitor, RefusesAStateOfAnotherPackOrPredictorSet) {
  e_process standard(standard_pack());
  const std::vector<std::uint32_t> deck = [] {
    std::vector<std::uint32_t> d(52);
    std::iota(d.begin(), d.end(), 0u);
    return d;
  }();
  standard.add_deck(deck);
  const std::string state = standard.serialize();

  e_process piquet(shufl::audit::audit_pack_of(shufl::make_pack(shufl::pack_kind::piquet),
                                               "piquet", 1, 0));
  try {
    piquet.deserialize(state);
    FAIL() << "accepted a state of another pack";
  } catch (const shufl::error& err) {
    EXPECT_NE(std::string(err.what()).find("written for the pack 'standard' (52 cards"),
              std::string::npos)
        << err.what();
    EXPECT_NE(std::string(err.what()).find("'piquet' (32 cards"), std::string::npos) << err.what();
  }
  EXPECT_EQ(piquet.decks(), 0u);

  std::string other = state;
  const auto at = other.find("position:kt");
  ASSERT_NE(at, std::string::npos);
  other.replace(at, 8, "spot:");
  e_process fresh(standard_pack());
  try {
    fresh.deserialize(other);
    FAIL() << "accepted a state of another predictor set";
  } catch (const shufl::error& err) {
    EXPECT_NE(std::string(err.what()).find("another set of predictors"), std::string::npos)
        << err.what();
  }
  EXPECT_THROW(fresh.deserialize("{\"format\": 1}"), shufl::error);
  EXPECT_THROW(fresh.deserialize("not json"), shufl::error);
  std::string truncated = state.substr(0, state.size() / 2);
  EXPECT_THROW(fresh.deserialize(truncated), shufl::error);
  EXPECT_EQ(fresh.decks(), 0u);
}

// A state whose previous deck is no deck of the pack (a face outside it, a card twice) is
// refused as a state file, in its words, and changes nothing.
TEST(AuditMonitor, RefusesAStateWhosePreviousDeckIsNoDeck) {
  e_process standard(standard_pack());
  std::vector<std::uint32_t> deck(52);
  std::iota(deck.begin(), deck.end(), 0u);
  standard.add_deck(deck);
  const std::string state = standard.serialize();
  const auto at = state.find("\"previous\":[0,1,");
  ASSERT_NE(at, std::string::npos) << state;
  for (const std::string bad : {"52", "1"}) {
    std::string other = state;
    other.replace(at + 12, 1, bad);
    e_process fresh(standard_pack());
    try {
      fresh.deserialize(other);
      FAIL() << "accepted a previous deck starting with " << bad;
    } catch (const shufl::error& err) {
      EXPECT_EQ(std::string(err.what()).rfind("state file: the previous deck is not a deck of the pack (", 0), 0u)
          << err.what();
    }
    EXPECT_EQ(fresh.decks(), 0u);
  }
}

TEST(AuditMonitor, StatusNamesTheLeaderAndItsEvidence) {
  // Every deck in the canonical order: the repeat predictor (or successor) must lead, and the
  // status says what it found.
  e_process e(standard_pack());
  std::vector<std::uint32_t> deck(52);
  std::iota(deck.begin(), deck.end(), 0u);
  for (int i = 0; i < 3; ++i) e.add_deck(deck);
  const auto s = e.current();
  EXPECT_TRUE(e.crossed(1e-6));
  EXPECT_GT(s.max_log10_mixture, 6);
  EXPECT_LT(s.anytime_p, 1e-6);
  EXPECT_TRUE(s.leader == "successor" || s.leader == "repeat") << s.leader;
  EXPECT_NE(s.evidence.find("hits in"), std::string::npos) << s.evidence;
  ASSERT_EQ(s.log10_e.size(), 4u);
  EXPECT_EQ(s.log10_e[0].first, "position");
}

}  // namespace
