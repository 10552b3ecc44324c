// Two tests of `shufl audit` named by the rules (docs/audit-laws.md, "Pairs of positions" and
// "Coupon collector"):
//
// position-pairs (Virginia 11VAC20-20-510 (3): each pair of card positions independent within a
// game). For a lag k the table X_ab = #{i : card a at position i, card b at i + k} of one uniform
// deck of n distinct cards has the exact mean μ = (n−k)/(n(n−1)) per cell (a ≠ b) and a covariance
// that depends only on how (a,b) and (c,d) overlap: with f3 = (n−2k)⁺/(n)_3 and f4 = ((n−k)² −
// (n−k) − 2(n−2k)⁺)/(n)_4, E[X_ab X_cd] is μ for (c,d) = (a,b), f3 for b = c, a ≠ d and for a = d,
// b ≠ c, f4 for four distinct cards and 0 otherwise. The cells of T decks are summed over decks
// and over positions i, so the pooled table has no χ² law as it stands; its Wald statistic
// (x − Tμ)ᵀ(TΣ)⁺(x − Tμ) has, by the central limit theorem, the χ² law with rank Σ = n(n−1) − 1
// degrees of freedom (2k < n). Σ commutes with relabelling the cards, so it is a scalar on each of
// the symmetric group's components of the table: the row and column sums (two copies of the
// standard representation: covariance [[p, s], [s, p]] ⊗ (I − J/n), p = k(n−k)/(n(n−1)), s =
// −k²/(n(n−1))), the symmetric and the antisymmetric part of what is left (eigenvalues
// λ_sym, λ_anti, Rayleigh quotients of one vector each), so the statistic costs O(n²), not a
// pseudo-inverse of n(n−1) × n(n−1). Lags 1..L are combined by Bonferroni (their tables share
// the decks).
//
// coupon-collector-suits / -ranks (25 CFR 547.14(b) names the coupon collector test): the cards
// dealt until every suit (rank) has appeared. With groups of s_1..s_g cards and o other cards
// (jokers), P(T = t) = Σ_h s_h·N_h(t−1) / (C(n, t−1)·(n − t + 1)), N_h(j) the coefficient of x^j in
// (1+x)^o·Π_{h' ≠ h}((1+x)^{s_h'} − 1): the first t − 1 cards hold every group but h, card t is
// one of h's. Every term is positive, so the law keeps its relative precision in both tails. The
// total over T decks is tested against T copies of the law (total_tails), two-sided.
// gap (25 CFR 547.14(b) names the gap test): per suit of s cards among n, the s − 1 gaps between
// consecutive cards of the suit (the other cards between them). The suit's positions are a
// uniform s-subset, so its s + 1 gaps (ends included) are an exchangeable composition of n − s:
// P(gap = j) = C(n−j−1, s−1)/C(n, s) and for two gaps P(i, j) = C(n−i−j−2, s−2)/C(n, s). The
// histogram of the gaps (lengths 0..B−1, then B or more) summed over decks is dependent within a
// deck, so it is tested by its Wald statistic with that exact mean and covariance (df B: the
// histogram's total is fixed); the suits share the decks and are combined by Bonferroni.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "shufl/audit.hpp"

namespace shufl::audit {

/// The exact law (pmf over t = 0..n, n = Σ sizes + others) of the cards dealt from a uniform deck
/// until each of the groups has shown a card; sizes: the groups' cards (each ≥ 1, at most 64
/// groups), others: cards in no group. Throws shufl::error on an empty group.
std::vector<double> coupon_collector_law(std::span<const std::uint64_t> sizes, std::uint64_t others);

/// The cards dealt (1-based) until every group has shown a card: group_of[face] is the face's
/// group bit index (0..63) or 255 for none; `full` has every group's bit set. n when never.
inline std::uint32_t coupon_collector_of(const std::uint32_t* d, std::size_t n, const std::uint8_t* group_of,
                                         std::uint64_t full) noexcept {
  std::uint64_t seen = 0;
  for (std::size_t p = 0; p < n; ++p) {
    const std::uint8_t g = group_of[d[p]];
    if (g < 64) {
      seen |= std::uint64_t{1} << g;
      if (seen == full) return static_cast<std::uint32_t>(p + 1);
    }
  }
  return static_cast<std::uint32_t>(n);
}

/// The Wald statistic of one lag's pooled pair table (counts[a·n + b], n × n, diagonal ignored)
/// of `decks` uniform decks of n distinct cards, lag k (1 ≤ k, 2k < n, n ≥ 4), and its df.
struct pairs_wald {
  double statistic = 0;
  double df = 0;
};
pairs_wald position_pairs_wald(std::span<const std::uint64_t> counts, std::size_t n, std::size_t k,
                               std::uint64_t decks);

/// The coupon collector's groups of a shape (suits, or ranks when `ranks`): group_of per face (its
/// group's bit, 255 for none), the groups' sizes in cards (with copies) and the other cards; sizes
/// is empty where the test does not apply (no suits and ranks, --dealt, fewer than 2 groups).
struct coupon_groups {
  std::vector<std::uint8_t> group_of;
  std::vector<std::uint64_t> sizes;
  std::uint64_t others = 0;
  std::uint64_t full = 0;
};
coupon_groups coupon_groups_of(const battery_shape& s, bool ranks);

/// Whether the shape's decks get the position-pairs test: whole decks of distinct cards, n ≥ 4,
/// 1 ≤ lags and 2·lags < n.
bool position_pairs_apply(const battery_shape& s) noexcept;

/// The most cells position-pairs' tables may hold: lags × n² ≤ 2^24 (128 MiB of 64-bit counts
/// in each thread's battery), so at 1024 cards --lags is at most 16, at 52 cards any of 1..64.
inline constexpr std::uint64_t max_pair_cells = std::uint64_t{1} << 24;

/// Throws shufl::error (naming the largest --lags the pack allows) when the shape gets the
/// position-pairs test and its tables would hold more than max_pair_cells cells.
void check_pair_cells(const battery_shape& s);

/// Worker threads for batteries of `s`: `threads`, fewer when their position-pairs tables
/// together would pass 2 × max_pair_cells (256 MiB), at least 1. Threads never change a result.
std::size_t pair_table_threads(const battery_shape& s, std::size_t threads) noexcept;

/// The position-pairs test over `decks` decks: counts holds lags tables of n × n (lag k's at
/// (k−1)·n²); Bonferroni over the lags.
test_report position_pairs_test(std::span<const std::uint64_t> counts, std::size_t n, std::size_t lags,
                                std::uint64_t decks);

/// The last bin B of the gap histogram for `decks` decks of n cards and a suit of s cards: the
/// largest B ≤ n − s with at least 5 expected gaps in length B − 1 and in B or more (0: fewer than
/// 5 expected in length 0 or in 1 or more).
std::size_t gap_last_bin(std::size_t n, std::size_t s, std::uint64_t decks);

/// The Wald statistic (df B) of one suit's gap counts by length (`lengths`, n entries: the gaps of
/// j cards, summed over `decks` decks), binned at `last_bin` B (1 ≤ B ≤ n − s; 2 ≤ s < n).
pairs_wald gap_wald(std::span<const std::uint64_t> lengths, std::size_t n, std::size_t s, std::uint64_t decks,
                    std::size_t last_bin);

/// The gap test over `decks` decks: counts holds one row of n lengths per group of `g` (suits).
test_report gap_test(std::span<const std::uint64_t> counts, const coupon_groups& g, std::size_t n, std::uint64_t decks);

}  // namespace shufl::audit
