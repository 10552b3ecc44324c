#include "shufl/permutation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "shufl/error.hpp"
#include "shufl/shuffle.hpp"

namespace shufl {
namespace {

TEST(Permutation, Factorials) {
  EXPECT_EQ(factorial(0), 1u);
  EXPECT_EQ(factorial(3), 6u);
  EXPECT_EQ(factorial(10), 3628800u);
  EXPECT_EQ(factorial(20), 2432902008176640000ULL);
}

// Ranks are lexicographic: walking std::next_permutation from the identity visits ranks 0, 1, 2...
TEST(Permutation, RankIsLexicographicOrder) {
  for (std::size_t n = 1; n <= 7; ++n) {
    std::vector<std::uint8_t> p = unrank_permutation(0, n);  // the identity
    std::uint64_t expected = 0;
    do {
      ASSERT_EQ(rank_permutation(std::span<const std::uint8_t>(p)), expected);
      ASSERT_EQ(unrank_permutation(expected, n), p);
      ++expected;
    } while (std::next_permutation(p.begin(), p.end()));
    EXPECT_EQ(expected, factorial(n));
  }
}

TEST(Permutation, RoundTripUpTo20) {
  for (std::uint64_t rank : {0ULL, 1ULL, 123456789ULL, 2432902008176639999ULL}) {
    const auto p = unrank_permutation(rank, 20);
    EXPECT_TRUE(is_permutation_of_iota(p));
    EXPECT_EQ(rank_permutation(std::span<const std::uint8_t>(p)), rank);
  }
  // The last rank is the reversal.
  const auto last = unrank_permutation(factorial(20) - 1, 20);
  for (std::size_t i = 0; i < 20; ++i) EXPECT_EQ(last[i], 19 - i);
}

TEST(Permutation, UnrankRejectsBadInput) {
  EXPECT_THROW(unrank_permutation(6, 3), error);
  EXPECT_THROW(unrank_permutation(0, 21), error);
}

TEST(Permutation, DeckLabels) {
  const std::vector<std::uint8_t> p{1, 2, 0};
  EXPECT_EQ(deck_label(p), "231");
  std::vector<std::uint8_t> ten(10);
  std::iota(ten.begin(), ten.end(), std::uint8_t{0});
  EXPECT_EQ(deck_label(ten), "1,2,3,4,5,6,7,8,9,10");
}

TEST(Permutation, IsPermutationOfIota) {
  EXPECT_TRUE(is_permutation_of_iota(std::vector<std::uint8_t>{2, 0, 1}));
  EXPECT_FALSE(is_permutation_of_iota(std::vector<std::uint8_t>{2, 2, 1}));
  EXPECT_FALSE(is_permutation_of_iota(std::vector<std::uint8_t>{0, 3, 1}));
}

}  // namespace
}  // namespace shufl

namespace shufl {
namespace {

// Statistics of permutations, against hand-worked values and brute force.
TEST(PermutationStatistics, HandWorked) {
  const std::vector<std::uint8_t> id{0, 1, 2, 3}, rev{3, 2, 1, 0}, cyc{1, 2, 3, 0};
  using s = std::span<const std::uint8_t>;
  EXPECT_EQ(fixed_points(s(id)), 4u);
  EXPECT_EQ(cycle_count(s(id)), 4u);
  EXPECT_EQ(cycle_count(s(rev)), 2u);   // (0 3)(1 2)
  EXPECT_EQ(cycle_count(s(cyc)), 1u);
  EXPECT_EQ(inversions(s(rev)), 6u);
  EXPECT_EQ(rising_sequences(s(id)), 1u);
  EXPECT_EQ(rising_sequences(s(rev)), 4u);
  // A riffle of 1 2 3 | 4 5 6 interleaved: 1 4 2 5 3 6 has two rising sequences.
  const std::vector<std::uint8_t> riffled{0, 3, 1, 4, 2, 5};
  EXPECT_EQ(rising_sequences(s(riffled)), 2u);
}

TEST(PermutationStatistics, MatchBruteForceOnLargeDecks) {
  xoshiro256pp_engine e(key_from_seed("stats"));
  for (std::size_t n : {5u, 52u, 64u, 65u, 200u}) {
    std::vector<std::uint8_t> p(n);
    std::iota(p.begin(), p.end(), std::uint8_t{0});
    fisher_yates(std::span<std::uint8_t>(p), e);
    std::size_t inv = 0, cycles = 0;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = i + 1; j < n; ++j) inv += p[i] > p[j];
    }
    std::vector<bool> seen(n);
    for (std::size_t i = 0; i < n; ++i) {
      if (seen[i]) continue;
      ++cycles;
      for (std::size_t j = i; !seen[j]; j = p[j]) seen[j] = true;
    }
    const std::span<const std::uint8_t> sp(p);
    EXPECT_EQ(inversions(sp), inv) << n;
    EXPECT_EQ(cycle_count(sp), cycles) << n;
    permutation_sums sums;
    add_permutation_sums(sums, sp);
    EXPECT_EQ(sums.inversions, inv) << n;
    EXPECT_EQ(sums.cycles, cycles) << n;
  }
}

// The batched one-pass sums of the bias trial loop (four decks with interleaved cycle walks, and
// the remainder one by one) against brute force by definition, deck by deck: every n from 2 to 66
// (one 64-bit word and past it), 2 to 9 decks per call, the identity and the reversal included.
TEST(PermutationStatistics, BatchedSumsMatchBruteForce) {
  xoshiro256pp_engine e(key_from_seed("batched"));
  for (std::size_t n = 2; n <= 66; ++n) {
    const std::size_t count = 2 + n % 8;
    std::vector<std::uint8_t> perms(count * n);
    permutation_sums expect;
    for (std::size_t k = 0; k < count; ++k) {
      const std::span<std::uint8_t> p(perms.data() + k * n, n);
      std::iota(p.begin(), p.end(), std::uint8_t{0});
      if (k == 1) std::reverse(p.begin(), p.end());
      if (k >= 2) fisher_yates(p, e);
      std::uint64_t fixed = 0, inv = 0, cycles = 0, rising = 1;
      std::vector<std::size_t> where(n);
      for (std::size_t i = 0; i < n; ++i) {
        fixed += p[i] == i;
        where[p[i]] = i;
        for (std::size_t j = i + 1; j < n; ++j) inv += p[i] > p[j];
      }
      for (std::size_t v = 0; v + 1 < n; ++v) rising += where[v + 1] < where[v];
      std::vector<bool> seen(n);
      for (std::size_t i = 0; i < n; ++i) {
        if (seen[i]) continue;
        ++cycles;
        for (std::size_t j = i; !seen[j]; j = p[j]) seen[j] = true;
      }
      ++expect.trials;
      expect.fixed_points += fixed;
      expect.inversions += inv;
      expect.cycles += cycles;
      expect.rising_sequences += rising;
    }
    permutation_sums got;
    add_permutation_sums(got, perms.data(), count, n);
    EXPECT_EQ(got.trials, expect.trials) << n;
    EXPECT_EQ(got.fixed_points, expect.fixed_points) << n;
    EXPECT_EQ(got.inversions, expect.inversions) << n;
    EXPECT_EQ(got.cycles, expect.cycles) << n;
    EXPECT_EQ(got.rising_sequences, expect.rising_sequences) << n;
  }
}

}  // namespace
}  // namespace shufl
