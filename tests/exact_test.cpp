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
