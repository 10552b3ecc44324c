// Exact distributions of shuffle algorithms: by enumerating every path of random choices, and the
// closed form of the riffle shuffle.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "shufl/shuffle.hpp"

namespace shufl {

/// The exact law of an algorithm on the deck 0..n-1.
struct exact_distribution {
  std::size_t n = 0;
  std::uint64_t paths = 0;                 ///< Paths of random choices enumerated (0: closed form).
  std::string method;                      ///< "enumeration" or "closed form (rising sequences)".
  /// Per lexicographic rank, a reduced fraction "4/27" ("0", "1"). Empty when n > 10.
  std::vector<std::string> probability;
  std::vector<double> probability_value;   ///< The same, as nearest doubles.
  std::string total_variation;             ///< Exact TV distance from uniform, reduced fraction.
  double total_variation_value = 0;        ///< The same, as a double.
  std::string most_likely, least_likely;   ///< A most and a least likely deck ("123"; cards 1..n).
  std::string most_likely_probability, least_likely_probability;  ///< Their probabilities.
  double most_likely_value = 0, least_likely_value = 0;
  /// Element × position matrix: position_matrix[e][p] = P(card e ends at position p), fractions.
  /// Empty when n > 10.
  std::vector<std::vector<std::string>> position_matrix;
};

/// Largest n for exact enumeration (10! cells).
inline constexpr std::size_t exact_max_n = 10;

/// Enumerates every path of random choices of `algorithm` on n cards (depth-first odometer over
/// the draws with an allocation-free replay engine; a path of draws with bounds s_1..s_m has
/// probability Π 1/s_k). Paths are counted with integers per (probability, permutation) and summed
/// in exact rational arithmetic (Boost.Multiprecision) at the end: naive n = 8 (8^8 = 16.7 million
/// paths) takes about a second. Throws shufl::error if n > exact_max_n, for the 32-bit-seeded
/// algorithm (2^32 paths), or when more than `max_paths` paths exist.
exact_distribution enumerate_exact(const algorithm_spec& algorithm, std::size_t n,
                                   std::uint64_t max_paths = 100'000'000);

/// The riffle closed form (Bayer and Diaconis 1992): after k GSR riffles of n cards, a deck with r
/// rising sequences has probability C(2^k + n − r, n) / 2^(kn), and A(n, r − 1) decks (Eulerian
/// number) have r rising sequences; TV = ½ Σ_r A(n, r−1) |P(r) − 1/n!|. Exact big integers
/// (cpp_int) for any 1 ≤ n ≤ 255; per-permutation probabilities and the position matrix only
/// when n ≤ exact_max_n. Throws shufl::error when k · n > riffle_exact_max_bits (refused at once:
/// the exact arithmetic over 2^(kn) grows quadratically; 16384 bits take a few seconds).
exact_distribution riffle_exact(std::size_t n, std::uint64_t k);

/// Largest k · n the riffle closed form accepts (the bits of its common denominator 2^(kn)).
inline constexpr std::uint64_t riffle_exact_max_bits = 16384;

/// The exact law by the best method: the closed form for riffle:K, enumeration otherwise.
exact_distribution exact_law(const algorithm_spec& algorithm, std::size_t n);

/// Refuses at once, with the error exact_law would give later, what exact_law cannot do: n out
/// of range, the 32-bit-seeded algorithm, an algorithm of fixed draw bounds with more than
/// `max_paths` paths (their product, from one path), riffle:K past riffle_exact_max_bits. Cheap
/// (one path): call it for every algorithm before computing any law, so a list is never refused
/// after the work on its first algorithms.
void check_exact_law(const algorithm_spec& algorithm, std::size_t n, std::uint64_t max_paths = 100'000'000);

}  // namespace shufl
