// Exact distributions by enumerating every path of random choices, against
// tests/reference/exact_distributions.json (computed independently of shufl).
#include "shufl/exact.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

#include "shufl/error.hpp"
#include "shufl/permutation.hpp"
#include "support/run.hpp"

namespace shufl {
namespace {

nlohmann::json load_reference() {
  std::ifstream f(test::reference_dir() + "/exact_distributions.json");
  return nlohmann::json::parse(f);
}

// Every reference case must match exactly: probability of each order, total variation distance
// and the element × position matrix. Every algorithm in the file is registered: none is skipped.
TEST(Exact, MatchesReferenceDistributions) {
  const auto ref = load_reference();
  int checked = 0;
  for (const auto& c : ref["cases"]) {
    const std::string name = c["algorithm"];
    const std::vector<algorithm_spec> specs = parse_algorithm_list(name);
    ASSERT_EQ(specs.size(), 1u);
    const std::size_t n = c["n"];
    SCOPED_TRACE(name + " n=" + std::to_string(n));
    const exact_distribution d = enumerate_exact(specs[0], n);
    ASSERT_EQ(d.probability.size(), factorial(n));
    for (std::uint64_t rank = 0; rank < factorial(n); ++rank) {
      const std::string label = deck_label(unrank_permutation(rank, n));
      EXPECT_EQ(d.probability[rank], c["probability"][label].get<std::string>()) << label;
    }
    EXPECT_EQ(d.total_variation, c["total_variation_distance"].get<std::string>());
    for (std::size_t e = 0; e < n; ++e) {
      for (std::size_t p = 0; p < n; ++p) {
        EXPECT_EQ(d.position_matrix[e][p], c["position_matrix_element_by_position"][e][p].get<std::string>());
      }
    }
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(ref["cases"].size()));
  EXPECT_GE(checked, 10);
}

TEST(Exact, PathCounts) {
  const auto fy = parse_algorithm_list("fisher-yates");
  const auto naive = parse_algorithm_list("naive");
  EXPECT_EQ(enumerate_exact(fy[0], 5).paths, 120u);     // n! equally likely paths
  EXPECT_EQ(enumerate_exact(naive[0], 5).paths, 3125u); // n^n
  // 27 paths cannot split evenly over 6 orders: naive is biased for n = 3 (the counting argument).
  EXPECT_NE(enumerate_exact(naive[0], 3).total_variation, "0");
}

TEST(Exact, RefusesTooManyPaths) {
  const auto naive = parse_algorithm_list("naive");
  EXPECT_THROW(enumerate_exact(naive[0], 8, 1000), error);
  EXPECT_THROW(enumerate_exact(naive[0], 11), error);
}

}  // namespace
}  // namespace shufl

namespace shufl {
namespace {

// The closed form reproduces Bayer–Diaconis (riffle_bayer_diaconis_52.csv, exact to 10 decimals).
TEST(Exact, RiffleClosedFormMatchesBayerDiaconis) {
  std::ifstream f(test::reference_dir() + "/riffle_bayer_diaconis_52.csv");
  std::string line;
  int rows = 0;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#' || line[0] == 'k') continue;
    const auto c1 = line.find(','), c2 = line.rfind(',');
    const auto k = std::stoull(line.substr(0, c1));
    const double tv = std::stod(line.substr(c2 + 1));
    EXPECT_NEAR(riffle_exact(52, k).total_variation_value, tv, 6e-11) << "k = " << k;
    ++rows;
  }
  EXPECT_EQ(rows, 10);
}

// The closed form agrees exactly with enumerating the GSR riffle's draws, fraction by fraction.
TEST(Exact, RiffleClosedFormMatchesEnumeration) {
  for (std::size_t n : {3u, 4u, 5u}) {
    for (std::uint64_t k : {1u, 2u}) {
      SCOPED_TRACE(testing::Message() << "n = " << n << ", k = " << k);
      const auto spec = parse_algorithm_list("riffle:" + std::to_string(k))[0];
      const auto enumerated = enumerate_exact(spec, n);
      const auto closed = riffle_exact(n, k);
      EXPECT_EQ(enumerated.probability, closed.probability);
      EXPECT_EQ(enumerated.total_variation, closed.total_variation);
      EXPECT_EQ(enumerated.position_matrix, closed.position_matrix);
    }
  }
}

// Naive n = 8: 8^8 paths, integer counts, in well under the 2 s budget on an idle machine (the
// bound here is loose so a loaded CI machine does not flake).
// n = 8 enumerates all 8^8 paths of the naive shuffle (its speed is a benchmark figure, README
// "Speed", not a timed test: a timed test fails on a loaded machine).
TEST(Exact, NaiveEightEnumeratesEveryPath) {
  const auto naive = parse_algorithm_list("naive")[0];
  const auto d = enumerate_exact(naive, 8);
  EXPECT_EQ(d.paths, 16'777'216u);
  EXPECT_EQ(d.most_likely_probability, "1931/16777216");
  EXPECT_EQ(d.least_likely, "81234567");
}

// Sattolo reaches only the (n-1)! cyclic permutations, each with probability 1/(n-1)!.
TEST(Exact, SattoloOnlyCycles) {
  const auto d = enumerate_exact(parse_algorithm_list("sattolo")[0], 5);
  int nonzero = 0;
  for (const auto& p : d.probability) {
    if (p != "0") {
      EXPECT_EQ(p, "1/24");
      ++nonzero;
    }
  }
  EXPECT_EQ(nonzero, 24);
  EXPECT_THROW(enumerate_exact(parse_algorithm_list("weak-seed")[0], 3), error);
}

}  // namespace
}  // namespace shufl
