// Permutations of 0..n-1: ranking and unranking (Lehmer code), n!, and writing a deck as text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace shufl {

/// Largest n for which n! fits in 64 bits (20! ≈ 2.43e18); rank/unrank accept n ≤ this.
inline constexpr std::size_t max_rank_n = 20;

/// n! for n ≤ 20. Precondition: n ≤ max_rank_n.
constexpr std::uint64_t factorial(std::size_t n) noexcept {
  std::uint64_t f = 1;
  for (std::size_t i = 2; i <= n; ++i) f *= i;
  return f;
}

/// Lexicographic rank of a permutation of 0..n-1 in [0, n!), via its Lehmer code
/// (D. H. Lehmer 1960; Knuth TAOCP vol. 2 §3.3.2, vol. 4A §7.2.1.2): rank = Σ c_i (n−1−i)!
/// where c_i counts later entries smaller than perm[i]. O(n²), allocation-free.
/// Precondition: `perm` is a permutation of 0..n-1 with n ≤ 20 (not checked).
/// The identity has rank 0; the reversal has rank n! − 1.
template <class T>
constexpr std::uint64_t rank_permutation(std::span<const T> perm) noexcept {
  const std::size_t n = perm.size();
  std::uint64_t rank = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t smaller_after = 0;
    for (std::size_t j = i + 1; j < n; ++j) smaller_after += perm[j] < perm[i];
    rank = rank * (n - i) + smaller_after;
  }
  return rank;
}

/// The permutation of 0..n-1 with the given lexicographic rank (inverse of rank_permutation).
/// Throws shufl::error if n > 20 or rank ≥ n!.
std::vector<std::uint8_t> unrank_permutation(std::uint64_t rank, std::size_t n);

/// Whether `values` is a permutation of 0..n-1 (n = values.size()).
bool is_permutation_of_iota(std::span<const std::uint8_t> values) noexcept;

/// The deck written as cards 1..n in their shuffled order, as the reference files and the bias
/// report write it: "231" for n < 10, "2,3,1" (comma-separated) for n ≥ 10. `perm` holds 0-based
/// cards.
std::string deck_label(std::span<const std::uint8_t> perm);

}  // namespace shufl
