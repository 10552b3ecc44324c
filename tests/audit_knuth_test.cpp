// Unit tests of Knuth's permutation test (permutation-3, permutation-4): the Lehmer codes against
// tests/reference/audit/permutation_patterns.py (lexicographic order of the t! orders gives codes
// 0..t!-1), a hand-worked deck, and by simulation the fair rejection rate.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "shufl/audit.hpp"
#include "support/audit_packs.hpp"
#include "support/test_rng.hpp"

namespace shufl::audit {
namespace {

TEST(AuditPermutation, LehmerCodesInLexicographicOrder) {
  std::vector<std::uint32_t> v = {0, 1, 2};
  std::uint32_t k = 0;
  do EXPECT_EQ(permutation_pattern3(v[0], v[1], v[2]), k++);
  while (std::next_permutation(v.begin(), v.end()));
  EXPECT_EQ(k, 6u);
  std::vector<std::uint32_t> w = {0, 1, 2, 3};
  k = 0;
  do EXPECT_EQ(permutation_pattern4(w[0], w[1], w[2], w[3]), k++);
  while (std::next_permutation(w.begin(), w.end()));
  EXPECT_EQ(k, 24u);
  EXPECT_EQ(permutation_pattern3(40, 7, 9), 4u);  // the order (2, 0, 1)
}

TEST(AuditPermutation, HandWorkedDeck) {
  // 7 cards: triples (0 1 2) increasing, (6 5 4) decreasing, card 3 left over; quadruple
  // (0 1 2 6) increasing, the last three left over.
  const std::vector<std::uint32_t> d = {0, 1, 2, 6, 5, 4, 3};
  battery b(shufl::test::distinct_shape(7));
  b.add_block(d.data(), 1, nullptr, 0);
  EXPECT_EQ(b.permutation3[0], 1u);
  EXPECT_EQ(b.permutation3[5], 1u);
  EXPECT_EQ(std::accumulate(b.permutation3.begin(), b.permutation3.end(), std::uint64_t{0}), 2u);
  EXPECT_EQ(b.permutation4[0], 1u);
  EXPECT_EQ(std::accumulate(b.permutation4.begin(), b.permutation4.end(), std::uint64_t{0}), 1u);
}

TEST(AuditPermutation, FairDecksRejectAtTheLevel) {
  // 400 audits of 300 uniform 10-card decks (900 triples, 600 quadruples: 150 and 25 expected per
  // order): at 0.05, Binomial(400, 0.05) rejections, mean 20, sd 4.4: band [6, 34].
  shufl::test::test_rng rng{31};
  int r3 = 0, r4 = 0;
  for (int rep = 0; rep < 400; ++rep) {
    battery b(shufl::test::distinct_shape(10));
    auto all = rng.decks(300, 10);
    b.add_block(all.data(), 300, nullptr, 0);
    for (const auto& t : b.evaluate()) {
      if (t.name == "permutation-3") {
        EXPECT_EQ(t.df, 5);
        r3 += t.p < 0.05;
      }
      if (t.name == "permutation-4") {
        EXPECT_EQ(t.df, 23);
        r4 += t.p < 0.05;
      }
    }
  }
  EXPECT_GE(r3, 6);
  EXPECT_LE(r3, 34);
  EXPECT_GE(r4, 6);
  EXPECT_LE(r4, 34);
}

TEST(AuditPermutation, FavouredOrdersFail) {
  // A shuffler that sorts the first triple 20% of the time.
  shufl::test::test_rng rng{32};
  battery b(shufl::test::distinct_shape(10));
  std::vector<std::uint32_t> all;
  for (int t = 0; t < 2000; ++t) {
    auto d = rng.deck(10);
    if (rng.uniform() < 0.2) std::sort(d.begin(), d.begin() + 3);
    all.insert(all.end(), d.begin(), d.end());
  }
  b.add_block(all.data(), 2000, nullptr, 0);
  for (const auto& t : b.evaluate()) {
    if (t.name == "permutation-3") {
      EXPECT_LT(t.p, 1e-10);
    }
  }
}

}  // namespace
}  // namespace shufl::audit
