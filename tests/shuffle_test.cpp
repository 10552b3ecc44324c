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

namespace shufl {
namespace {

const std::vector<std::string_view> kStepActions = {"swap", "compare", "cut", "drop", "key", "sort",
                                                    "strike", "place", "pick", "seed", "pair", "shelve",
                                                    "gap", "packet", "deal", "gather"};

// Every registered algorithm, on decks of 1..60 cards: always a permutation, whatever the engine;
// its traced run reports only the documented step actions and ends with the same deck as an
// untraced run on the same stream.
TEST(Registry, EveryAlgorithmShufflesAndTraces) {
  for (const auto& info : algorithms()) {
    // A sequence is run as one that has every kind of part.
    const algorithm_spec spec = info.parameter_form == algorithm_info::form::sequence
                                    ? parse_algorithm_list("riffle:1+thorp+shelf:3x2+overhand:0.5+pile:3+cut")[0]
                                    : algorithm_spec{&info, info.takes_parameter ? std::min<std::uint64_t>(info.default_parameter, 12) : 0};
    SCOPED_TRACE(spec.label());
    for (std::size_t n = 1; n <= 60; n += (n < 8 ? 1 : 13)) {
      std::vector<std::uint8_t> plain(n), traced(n);
      std::iota(plain.begin(), plain.end(), std::uint8_t{0});
      traced = plain;
      xoshiro256pp_engine e1(key_from_seed("algo"), n), e2(key_from_seed("algo"), n);
      dynamic_engine_for<xoshiro256pp_engine> dyn(e1);
      std::size_t steps = 0;
      info.run_traced(traced, dyn, spec.parameter, [&](const shuffle_step& s, std::span<const std::uint8_t> deck) {
        ++steps;
        EXPECT_NE(std::find(kStepActions.begin(), kStepActions.end(), s.action), kStepActions.end()) << s.action;
        EXPECT_LE(s.final_begin, s.final_end);
        EXPECT_LE(s.final_end, deck.size());
      });
      EXPECT_TRUE(is_permutation_of_iota(traced));
      std::iota(plain.begin(), plain.end(), std::uint8_t{0});
      dynamic_engine_for<xoshiro256pp_engine> dyn2(e2);
      info.run_traced(plain, dyn2, spec.parameter, [](const shuffle_step&, std::span<const std::uint8_t>) {});
      EXPECT_EQ(plain, traced);
      if (n >= 3) {
        EXPECT_GT(steps, 0u);
      }
    }
  }
}

TEST(Registry, NamesWithColonsAndParameters) {
  EXPECT_EQ(parse_algorithm_list("sort-coin:merge")[0].label(), "sort-coin:merge");
  EXPECT_EQ(parse_algorithm_list("modulo:3")[0].label(), "modulo:3");
  EXPECT_EQ(parse_algorithm_list("modulo")[0].label(), "modulo:8");
  EXPECT_EQ(parse_algorithm_list("riffle:1..10").size(), 10u);
  EXPECT_THROW(parse_algorithm_list("sort-coin:quick"), error);
  EXPECT_THROW(parse_algorithm_list("modulo:64"), error);
  EXPECT_THROW(parse_algorithm_list("riffle:0"), error);
  EXPECT_EQ(algorithms().size(), 22u);
}

// The worked examples of the algorithms whose draws are easiest to follow by hand.
TEST(Algorithms, WorkedExamples) {
  auto run = [](std::string_view name, std::vector<std::uint64_t> draws, std::uint64_t parameter = 0) {
    std::string deck = "ABCD";
    scripted_engine e(std::move(draws));
    const auto spec = parse_algorithm_list(name)[0];
    std::vector<std::uint8_t> d{0, 1, 2, 3};
    spec.info->run_scripted(d, e, parameter ? parameter : spec.parameter);
    EXPECT_FALSE(e.failed()) << name;
    EXPECT_EQ(e.left_over(), 0u) << name;
    std::string out;
    for (auto v : d) out += deck[v];
    return std::make_pair(out, e.bounds());
  };
  // sattolo: i = 3, 2, 1 with j in [0, i-1]: draws 0, 0, 0 → swap(3,0) DBCA, swap(2,0) CBDA, swap(1,0) BCDA.
  EXPECT_EQ(run("sattolo", {0, 0, 0}), std::make_pair(std::string("BCDA"), std::vector<std::uint64_t>{3, 2, 1}));
  // asf-poker: 4 draws in [0, 2].
  EXPECT_EQ(run("asf-poker", {2, 2, 2, 2}).second, (std::vector<std::uint64_t>{3, 3, 3, 3}));
  // pencil-and-paper: strike the 2nd of ABCD (C), then the 0th of ABD (A), then the 1st of BD (D).
  EXPECT_EQ(run("pencil-and-paper", {2, 0, 1}), std::make_pair(std::string("CADB"), std::vector<std::uint64_t>{4, 3, 2}));
  // inside-out: i = 1, 2, 3, j in [0, i]: draws 0, 1, 0 → BACD, BACD (j=1 swaps a[2], a[1]: BCAD), DCAB.
  EXPECT_EQ(run("inside-out", {0, 1, 0}), std::make_pair(std::string("DCAB"), std::vector<std::uint64_t>{2, 3, 4}));
  // modulo:3: r in [0, 7], j = r % (i + 1): i = 3, r = 7 → j = 3 (ABCD); i = 2, r = 7 → j = 1
  // (ACBD); i = 1, r = 2 → j = 0 (CABD).
  EXPECT_EQ(run("modulo:3", {7, 7, 2}), std::make_pair(std::string("CABD"), std::vector<std::uint64_t>{8, 8, 8}));
  // random-keys:2: keys 3, 1, 1, 0 → D, B, C, A (B before C: a tie keeps the input order).
  EXPECT_EQ(run("random-keys:2", {3, 1, 1, 0}).first, "DBCA");
  // riffle:1 on 4 cards: cut = popcount(0b0011) = 2 (AB | CD), drops right, left, left (then D).
  EXPECT_EQ(run("riffle:1", {3, 3, 0, 0}).first, "CABD");
}

}  // namespace
}  // namespace shufl
