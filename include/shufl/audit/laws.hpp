// Exact null laws of the deck statistics of `shufl audit`, and the tails of their sums over
// T independent decks. Under the null every deck is a uniformly random permutation of n
// distinct cards (positions counted from the top; "original order" = the pack's canonical order,
// cards 0..n-1).
//
// A per-deck law is a probability vector `pmf[k] = P(X = k)`, k = 0 .. pmf.size()-1, summing to 1
// (to rounding). Every law here is computed from exact integer counts (Boost.Multiprecision
// cpp_int) divided by n! and rounded to double once, so each entry is the nearest double to the
// exact rational (up to the final division's rounding).
//
// Sums over decks: the total S = X_1 + ... + X_T of T independent copies. `total_tails` gives
// ln P(S >= s) and ln P(S <= s); by exact convolution when T·(support) is small, else by the
// Lugannani–Rice saddlepoint approximation with Daniels' continuity correction for lattice
// variables (R. Lugannani, S. Rice, Adv. Appl. Probab. 1980; H. E. Daniels, Int. Statist. Rev.
// 1987), whose relative error is O(1/T) uniformly in the tail — never a bare normal approximation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace shufl::audit {

/// Largest number of distinct cards the exact per-deck laws are computed for.
inline constexpr std::size_t max_law_cards = 1024;

/// Fixed points: #{i : deck[i] == i}. Rencontres numbers: P(K = k) = C(n,k)·D(n−k)/n!,
/// D the derangement numbers. Support 0..n. Precondition 1 <= n <= max_law_cards.
std::vector<double> fixed_points_law(std::size_t n);

/// Successions: #{positions p : deck[p+1] == deck[p] + 1} (card i+1 immediately below card i).
/// Count of permutations with k successions: C(n−1,k)·A000255(n−1−k) (Riordan; OEIS A000255,
/// a(m) = m·a(m−1) + (m−1)·a(m−2), a(0) = a(1) = 1). Support 0..n−1.
std::vector<double> successions_law(std::size_t n);

/// Adjacent pairs: #{p : |deck[p+1] − deck[p]| == 1} (original neighbours adjacent in either
/// order). Exact law by inclusion–exclusion over sets of glued pairs (blocks of consecutive
/// cards, each block of length >= 2 in one of 2 orientations). Support 0..n−1.
std::vector<double> adjacent_pairs_law(std::size_t n);

/// Descents: #{p : deck[p] > deck[p+1]}. Eulerian numbers A(n,k)/n!. Support 0..n−1.
std::vector<double> descents_law(std::size_t n);

/// Rising sequences (Bayer–Diaconis): 1 + #{i : card i+1 lies above card i}, i.e. 1 + descents
/// of the inverse permutation; the same law as descents shifted by one. Support 0..n
/// (pmf[0] = 0).
std::vector<double> rising_sequences_law(std::size_t n);

/// Alternating runs ("runs up and down"): the number of maximal monotone runs of the sequence
/// deck[0..n−1] (n >= 2; for n = 1 the law is a point mass at 0). Exact law by the David–Barton
/// recursion (F. N. David, D. E. Barton, "Combinatorial Chance", 1962; OEIS A059427).
/// Support 0..n−1 (pmf[0] = 0 for n >= 2).
std::vector<double> runs_up_down_law(std::size_t n);

/// Guessing with feedback: the number of correct guesses in one deck when, with k cards left,
/// any guess among the unseen cards is right with probability exactly 1/k independently
/// (every strategy that only guesses unseen cards). Poisson-binomial law of Σ_{k=1..n}
/// Bernoulli(1/k); mean H_n. Support 0..n.
std::vector<double> guessing_law(std::size_t n);

/// The tails of a total of T independent per-deck values.
struct total_tail {
  double mean = 0;            ///< T · E[X].
  double variance = 0;        ///< T · Var[X].
  double ln_upper = 0;        ///< ln P(S >= s) (0 when s <= min).
  double ln_lower = 0;        ///< ln P(S <= s) (0 when s >= max).
  bool exact = false;         ///< true: exact convolution; false: saddlepoint.
  /// A bound on the relative error of exp(ln_upper)/exp(ln_lower) (0 when exact); stated so a
  /// report can print it.
  double relative_error_bound = 0;
  /// Two-sided p as ln: ln min(1, 2·min(P(S >= s), P(S <= s))).
  [[nodiscard]] double ln_two_sided() const noexcept;
};

/// Tails of S = X_1 + ... + X_T, X_i iid with law `pmf` (entries >= 0, sum 1), at the observed
/// total `s`. T = 0 gives a point mass at 0. Exact convolution (in log-scaled doubles) when
/// T · (pmf.size() − 1) <= exact_limit; otherwise the saddlepoint. Never throws for valid
/// input; s beyond the support gives ln of 0 as -infinity on that side.
total_tail total_tails(std::span<const double> pmf, std::uint64_t T, std::uint64_t s,
                       std::uint64_t exact_limit = 20000);

}  // namespace shufl::audit
