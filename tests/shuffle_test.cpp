#include "shufl/shuffle.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>

#include "shufl/error.hpp"
#include "shufl/permutation.hpp"

namespace shufl {
namespace {

// The classic worked example: A B C D E with draws j = 2, 0, 2, 0 (i = 4, 3, 2, 1) ends B D E A C.
TEST(FisherYates, WorkedExample) {
  std::string deck = "ABCDE";
  scripted_engine e({2, 0, 2, 0});
  fisher_yates(std::span<char>(deck), e);
  EXPECT_FALSE(e.failed());
  EXPECT_EQ(e.bounds(), (std::vector<std::uint64_t>{5, 4, 3, 2}));
  EXPECT_EQ(deck, "BDEAC");
}

TEST(Naive, DrawsFromTheWholeDeckEveryTime) {
  std::string deck = "ABC";
  scripted_engine e({2, 2, 2});
  naive_shuffle(std::span<char>(deck), e);
  EXPECT_EQ(e.bounds(), (std::vector<std::uint64_t>{3, 3, 3}));
  // i=0 swap(0,2): CBA; i=1 swap(1,2): CAB; i=2 swap(2,2): CAB.
  EXPECT_EQ(deck, "CAB");
}

TEST(FisherYates, AlwaysAPermutation) {
  xoshiro256pp_engine e(key_from_seed("perm"));
  for (std::size_t n = 0; n < 60; ++n) {
    std::vector<std::uint8_t> d(n);
    std::iota(d.begin(), d.end(), std::uint8_t{0});
    fisher_yates(std::span<std::uint8_t>(d), e);
    EXPECT_TRUE(is_permutation_of_iota(d));
  }
}

TEST(Registry, ParsesListsAndSuggests) {
  const auto specs = parse_algorithm_list("fisher-yates,naive");
  ASSERT_EQ(specs.size(), 2u);
  EXPECT_EQ(specs[0].label(), "fisher-yates");
  EXPECT_EQ(specs[1].label(), "naive");
  try {
    parse_algorithm_list("fisher-yate");
    FAIL();
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean 'fisher-yates'?"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_algorithm_list(""), error);
  EXPECT_THROW(parse_algorithm_list("naive,"), error);
  EXPECT_THROW(parse_algorithm_list("naive:3"), error);  // takes no parameter
}

TEST(Registry, CountTableIsDeterministicPerStream) {
  const auto& fy = find_algorithm("fisher-yates");
  std::vector<std::uint64_t> a(6, 0), b(6, 0), c(6, 0);
  const seed_key k = key_from_seed("s");
  fy.count_table(engine_kind::xoshiro256pp, k, 0, 0, 3, 6000, a.data());
  fy.count_table(engine_kind::xoshiro256pp, k, 0, 0, 3, 6000, b.data());
  fy.count_table(engine_kind::xoshiro256pp, k, 1, 0, 3, 6000, c.data());
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_EQ(std::accumulate(a.begin(), a.end(), std::uint64_t{0}), 6000u);
}

}  // namespace
}  // namespace shufl

namespace shufl {
namespace {

TEST(Observer, FisherYatesReportsEachSwapAndTheFinalizedRegion) {
  std::vector<std::uint8_t> deck{0, 1, 2, 3, 4};
  scripted_engine scripted({2, 0, 2, 0});
  dynamic_engine_for<scripted_engine> engine(scripted);
  std::vector<shuffle_step> steps;
  std::vector<std::vector<std::uint8_t>> arrays;
  find_algorithm("fisher-yates").run_traced(deck, engine, 0, [&](const shuffle_step& s, std::span<const std::uint8_t> a) {
    steps.push_back(s);
    arrays.emplace_back(a.begin(), a.end());
  });
  ASSERT_EQ(steps.size(), 4u);
  EXPECT_EQ(steps[0].cursor, 4u);
  EXPECT_EQ(steps[0].draw, 2u);
  EXPECT_EQ(steps[0].draw_hi, 4u);
  EXPECT_EQ(steps[0].final_begin, 4u);
  EXPECT_EQ(steps[3].cursor, 1u);
  EXPECT_EQ(arrays[0], (std::vector<std::uint8_t>{0, 1, 4, 3, 2}));
  EXPECT_EQ(deck, (std::vector<std::uint8_t>{1, 3, 4, 0, 2}));  // B D E A C
}

}  // namespace
}  // namespace shufl
