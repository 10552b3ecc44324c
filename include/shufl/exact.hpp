// Exact distributions of shuffle algorithms, by enumerating every path of random choices.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "shufl/shuffle.hpp"

namespace shufl {

/// The exact law of an algorithm on the deck 0..n-1.
struct exact_distribution {
  std::size_t n = 0;
  std::uint64_t paths = 0;                 ///< Number of paths of random choices enumerated.
  std::vector<std::string> probability;    ///< Per lexicographic rank, a reduced fraction "4/27" ("0", "1").
  std::vector<double> probability_value;   ///< The same, as nearest doubles.
  std::string total_variation;             ///< Exact TV distance from uniform, reduced fraction.
  double total_variation_value = 0;        ///< The same, as a double.
  /// Element × position matrix: position_matrix[e][p] = P(card e ends at position p), fractions.
  std::vector<std::vector<std::string>> position_matrix;
};

/// Enumerates every path of random choices of `algorithm` on n cards with a scripted engine
/// (depth-first over the draws; a path of draws with bounds s_1..s_m has probability Π 1/s_k) and
/// sums path probabilities per resulting permutation in exact rational arithmetic
/// (Boost.Multiprecision). Throws shufl::error if n > 10 or more than `max_paths` paths exist.
exact_distribution enumerate_exact(const algorithm_spec& algorithm, std::size_t n,
                                   std::uint64_t max_paths = 100'000'000);

}  // namespace shufl
