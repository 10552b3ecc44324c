// The machine and hand shuffles (shelf, overhand, pile, cut) and sequences of them: exact laws
// against tests/reference/zoo/laws.json (an independent Python enumeration with fractions), the
// orders a pile shuffle reaches, the overhand's packet-size law, worked examples and parameters.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "shufl/error.hpp"
#include "shufl/exact.hpp"
#include "shufl/permutation.hpp"
#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"
#include "support/run.hpp"

namespace shufl {
namespace {

algorithm_spec one(std::string_view name) {
  const auto specs = parse_algorithm_list(name);
  EXPECT_EQ(specs.size(), 1u) << name;
  return specs.at(0);
}

// Every case of the Python reference, order by order, with the TV distance, the position matrix
// and the number of orders reached.
TEST(Zoo, ExactLawsMatchTheIndependentEnumeration) {
  std::ifstream f(test::reference_dir() + "/zoo/laws.json");
  ASSERT_TRUE(f) << "missing tests/reference/zoo/laws.json";
  const auto ref = nlohmann::json::parse(f);
  int checked = 0;
  for (const auto& c : ref["cases"]) {
    const std::string name = c["algorithm"];
    const std::size_t n = c["n"];
    SCOPED_TRACE(name + " n=" + std::to_string(n));
    const algorithm_spec spec = one(name);
    EXPECT_EQ(spec.label(), name);
    const exact_distribution d = enumerate_exact(spec, n);
    ASSERT_EQ(d.probability.size(), factorial(n));
    std::uint64_t reached = 0;
    for (std::uint64_t rank = 0; rank < factorial(n); ++rank) {
      const std::string label = deck_label(unrank_permutation(rank, n));
      EXPECT_EQ(d.probability[rank], c["probability"][label].get<std::string>()) << label;
      reached += d.probability[rank] != "0";
    }
    EXPECT_EQ(reached, c["reachable_orders"].get<std::uint64_t>());
    EXPECT_EQ(d.total_variation, c["total_variation_distance"].get<std::string>());
    for (std::size_t e = 0; e < n; ++e) {
      for (std::size_t p = 0; p < n; ++p) {
        EXPECT_EQ(d.position_matrix[e][p], c["position_matrix_element_by_position"][e][p].get<std::string>());
      }
    }
    ++checked;
  }
  EXPECT_GE(checked, 50);
}

// Dealing is one fixed permutation: pile:K reaches exactly min(K, n)! orders, equally likely.
TEST(Zoo, PileReachesKFactorialOrders) {
  for (std::uint64_t k = 1; k <= 9; ++k) {
    SCOPED_TRACE(k);
    const exact_distribution d = enumerate_exact(one("pile:" + std::to_string(k)), 8);
    const std::uint64_t expected = factorial(std::min<std::size_t>(k, 8));
    std::uint64_t reached = 0;
    for (const auto& p : d.probability) {
      if (p != "0") {
        ++reached;
        EXPECT_EQ(p, expected == 1 ? std::string("1") : "1/" + std::to_string(expected));
      }
    }
    EXPECT_EQ(reached, expected);
    EXPECT_EQ(d.paths, expected);
  }
}

// The overhand's top packet (which ends at the bottom of the deck, keeping its order) has l cards
// with probability (1 − Q)^(l−1) Q for l < n and (1 − Q)^(n−1) for l = n: a truncated geometric law.
TEST(Zoo, OverhandPacketSizesAreGeometric) {
  const std::size_t n = 6;
  const double q = 0.3;
  const exact_distribution d = enumerate_exact(one("overhand:0.3"), n);
  std::vector<double> size(n + 1, 0.0);
  for (std::uint64_t rank = 0; rank < factorial(n); ++rank) {
    if (d.probability_value[rank] == 0) continue;
    const auto deck = unrank_permutation(rank, n);
    // The top packet 0, 1, ..., l-1 is the bottom block of the result: l = n − (position of 0).
    std::size_t l = n;
    while (l > 0 && deck[n - l] != 0) --l;
    for (std::size_t i = 0; i < l; ++i) ASSERT_EQ(deck[n - l + i], i) << deck_label(deck);
    size[l] += d.probability_value[rank];
  }
  for (std::size_t l = 1; l <= n; ++l) {
    const double expected = std::pow(1 - q, static_cast<double>(l - 1)) * (l < n ? q : 1.0);
    EXPECT_NEAR(size[l], expected, 1e-12) << l;
  }
}

// Worked examples with scripted draws, checked by hand.
TEST(Zoo, WorkedExamples) {
  const auto run = [](std::string_view name, std::vector<std::uint64_t> draws, std::string deck) {
    scripted_engine e(std::move(draws));
    const auto spec = one(name);
    std::vector<std::uint8_t> d(deck.size());
    for (std::size_t i = 0; i < d.size(); ++i) d[i] = static_cast<std::uint8_t>(i);
    spec.info->run_scripted(d, e, spec.parameter);
    EXPECT_FALSE(e.failed()) << name;
    EXPECT_EQ(e.left_over(), 0u) << name;
    std::string out;
    for (auto v : d) out += deck[v];
    return out;
  };
  // shelf:2 on ABCD, fed from the bottom: D to shelf 1 on top (0), C to shelf 2 under (3),
  // B to shelf 1 under (1), A to shelf 2 on top (2): shelf 1 = D B, shelf 2 = A C.
  EXPECT_EQ(run("shelf:2", {0, 3, 1, 2}, "ABCD"), "DBAC");
  // overhand:0.5 on ABCDE, cuts after B and after C (gap draws 1 0 0 1: below 1 is a cut):
  // packets AB | C | DE -> DE C AB.
  EXPECT_EQ(run("overhand:0.5", {1, 0, 0, 1}, "ABCDE"), "DECAB");
  // overhand:1: every gap cut, no draws: reversed.
  EXPECT_EQ(run("overhand:1", {}, "ABCDE"), "EDCBA");
  // pile:2 on ABCDE: pile 1 = E C A, pile 2 = D B (each card on top of its pile); gather the
  // second pile first (draw 1 of 2), then the other (no draw left to make).
  EXPECT_EQ(run("pile:2", {1}, "ABCDE"), "DBECA");
  EXPECT_EQ(run("pile:2", {0}, "ABCDE"), "ECADB");
  // thorp on ABCDEF: halves ABC | DEF; coins 1, 0, 1: D A, B E, F C.
  EXPECT_EQ(run("thorp", {1, 0, 1}, "ABCDEF"), "DABEFC");
  // Odd n: halves ABC | DE; the top half's last card C ends at the bottom.
  EXPECT_EQ(run("thorp", {0, 1}, "ABCDE"), "ADEBC");
  // cut 2: AB go under.
  EXPECT_EQ(run("cut", {2}, "ABCDE"), "CDEAB");
  // A sequence runs its parts in order: pile:2 (gather pile 1 first) then cut 1.
  EXPECT_EQ(run("pile:2+cut", {0, 1}, "ABCDE"), "CADBE");
}

TEST(Zoo, ParametersAndLabels) {
  EXPECT_EQ(one("shelf").label(), "shelf:10");
  EXPECT_EQ(one("shelf:10x1").label(), "shelf:10");
  EXPECT_EQ(one("shelf:10x2").label(), "shelf:10x2");
  EXPECT_EQ(one("overhand").label(), "overhand:0.5");
  EXPECT_EQ(one("overhand:.25x3").label(), "overhand:0.25x3");
  EXPECT_EQ(one("overhand:1.0").label(), "overhand:1");
  EXPECT_EQ(one("overhand:0.000001").label(), "overhand:0.000001");
  EXPECT_EQ(one("pile").label(), "pile:4");
  EXPECT_EQ(one("cut").label(), "cut");
  EXPECT_EQ(one("riffle:3+cut").label(), "riffle:3+cut");
  EXPECT_EQ(one("riffle+shelf:2x2+cut").label(), "riffle:7+shelf:2x2+cut");
  const auto passes = parse_algorithm_list("shelf:10x1..4,overhand:0.5x2..3");
  ASSERT_EQ(passes.size(), 6u);
  EXPECT_EQ(passes[3].label(), "shelf:10x4");
  EXPECT_EQ(passes[5].label(), "overhand:0.5x3");
  // The same sequence twice is one interned sequence.
  EXPECT_EQ(one("riffle:2+cut").parameter, one("riffle:2+cut").parameter);

  const auto message = [](std::string_view list) {
    try {
      parse_algorithm_list(list);
    } catch (const error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("shelf:0"), "parameter 0 for algorithm 'shelf' is outside [1, 255]");
  EXPECT_EQ(message("shelf:10x0"), "number of passes 0 for algorithm 'shelf' is outside [1, 1000]");
  EXPECT_EQ(message("shelf:10y2"), "invalid parameter '10y2' for algorithm 'shelf'");
  EXPECT_EQ(message("overhand:0"), "invalid probability '0' for algorithm 'overhand': must be in (0, 1] (e.g. overhand:0.5)");
  EXPECT_EQ(message("overhand:1.5"), "invalid probability '1.5' for algorithm 'overhand': must be in (0, 1] (e.g. overhand:0.5)");
  EXPECT_EQ(message("overhand:0.1234567"),
            "invalid probability '0.1234567' for algorithm 'overhand': at most 6 digits after the point (e.g. overhand:0.5)");
  EXPECT_EQ(message("overhand:half"),
            "invalid probability 'half' for algorithm 'overhand': expected a decimal such as 0.5 (e.g. overhand:0.5)");
  EXPECT_EQ(message("overhand:0.5x0"), "number of shuffles 0 for algorithm 'overhand' is outside [1, 1000]");
  EXPECT_EQ(message("pile:0"), "parameter 0 for algorithm 'pile' is outside [1, 255]");
  EXPECT_EQ(message("cut:3"), "algorithm 'cut' takes no parameter (got 'cut:3')");
  EXPECT_EQ(message("fisher-yates+cut"),
            "'fisher-yates' cannot be part of a sequence (parts: riffle, thorp, shelf, overhand, pile, cut)");
  EXPECT_EQ(message("riffle:3+"), "empty part in the sequence 'riffle:3+'");
  EXPECT_EQ(message("riffle:1..3+cut"), "a part of a sequence takes no parameter range (got 'riffle:1..3')");
  EXPECT_EQ(message("sequence"), "algorithm 'sequence' is written as its parts joined by '+', e.g. riffle:3+cut");
}

}  // namespace
}  // namespace shufl
