// Exact counts for outputs: n! and multinomials as decimal digits, for the numbers a page, report
// or JSON document prints, where std::uint64_t (factorial() in permutation.hpp) wraps modulo 2^64
// from n = 21 on and a double is exact only to 18!.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace shufl {

/// n! exactly, as decimal digits, for any n ("51090942171709440000" for n = 21).
/// Boost.Multiprecision cpp_int; O(n² log n) digit work, so keep n to a few thousand.
std::string factorial_decimal(std::size_t n);

/// The multinomial n! / ∏ k_i! exactly, as decimal digits (Σ k_i ≤ n; the rest of n counts as
/// parts of 1), computed as a product of binomials in cpp_int: the number of distinct orders of
/// a deck whose equal cards come in groups of k_i (a 6-deck shoe: n = 312, 52 parts of 6).
/// Throws shufl::error when Σ k_i > n.
std::string multinomial_decimal(std::uint64_t n, std::span<const std::uint64_t> parts);

}  // namespace shufl
