#include "shufl/permutation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "shufl/error.hpp"

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
