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

// 200 audits of 10,000 independent decks with lopsided margins, for each of: a uniform cut (a
// rotation of the pack: each card's successor is the next card in 51 decks of 52), four riffles,
// and a stuck card (the ace on top of a uniform deck 60% of the time). Each serial test must reject
// at 0.01 at most at the level's rate, Binomial(200, <= 0.01) (mean <= 2, sd 1.4): at most 6, 3 sd
// above. With the binomial alone, a cut's serial-successions rejected far more often (ln p -921 at
// seed 1 of the small tier).
TEST(AuditSerialLong, IndependentLopsidedDecksRejectAtMostAtTheLevel) {
  const char* names[] = {"cut", "riffle:4", "stuck ace"};
  for (int kind = 0; kind < 3; ++kind) {
    shufl::test::test_rng rng{38u + static_cast<unsigned>(kind)};
    std::vector<std::uint32_t> pack(52);
    for (std::uint32_t k = 0; k < 52; ++k) pack[k] = k;
    const auto [succ, pos] = rejections(200, 10000, [&] {
      auto d = pack;
      if (kind == 0) {
        std::rotate(d.begin(), d.begin() + rng.below(52), d.end());
      } else if (kind == 1) {
        for (int k = 0; k < 4; ++k) d = shufl::test::gsr_riffle(d, rng);
      } else {
        d = rng.deck(52);
        if (rng.uniform() < 0.6) std::swap(*std::find(d.begin(), d.end(), 0u), d[0]);
      }
      return d;
    });
    std::printf("%s, independent: serial-successions %d, serial-position %d of 200 at 0.01\n", names[kind], succ,
                pos);
    EXPECT_LE(succ, 6) << names[kind];
    EXPECT_LE(pos, 6) << names[kind];
  }
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
