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
// ln P(S >= s) and ln P(S <= s); by exact convolution when T·(support) is small, else by
// saddlepoint methods — the Lugannani–Rice formula with Daniels' continuity correction for lattice
// variables (R. Lugannani, S. Rice, Adv. Appl. Probab. 1980; H. E. Daniels, Int. Statist. Rev.
// 1987), whose relative error is O(1/T) into the far tails; each result states its own error
// bound — never a bare normal approximation. Also the class laws of card games (5-card poker
// hands, blackjack's first two cards). Sources and formulas: docs/audit-laws.md.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shufl::audit {

/// Largest number of distinct cards the exact per-deck laws are computed for. Each law is
/// computed once per n and process (thread-safe cache): at n = 416 all seven take about 0.2 s,
/// at n = 1024 a few seconds. Every law throws shufl::error unless 1 <= n <= max_law_cards.
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
/// Bernoulli(1/k); mean H_n. Its generating function is Π_{k=1..n} (z + k − 1)/n!, so the counts
/// are the unsigned Stirling numbers of the first kind c(n, k) (the law of the number of cycles).
/// Support 0..n (pmf[0] = 0).
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

/// Tails of S = X_1 + ... + X_T, X_i iid with law `pmf` (entries >= 0, sum 1 up to rounding; it
/// is renormalised), at the observed total `s`. T = 0 gives a point mass at 0. The law is first
/// put on its own lattice X = lo + span·J, J in 0..w (lo, lo + w·span the ends of its support,
/// span the gcd of the steps), so s between lattice points is handled exactly.
///
/// Exact (`exact` = true) when T·w <= exact_limit: the law is exponentially tilted so that its
/// mean is s/T, convolved T times by binary powering in doubles (entries below 1e-40 of the
/// largest dropped: the tilted mass sits near s, so nothing that matters underflows), untilted
/// in logs; the other side is 1 − (this side − P(S = s)). Relative error about T·w·1e-16
/// (checked to 1e-9 against exact fractions and 150-digit mpmath, tests/reference/audit/).
///
/// Otherwise (`exact` = false), each side separately:
///  - within min(T, 2000) lattice steps of the end of the support: the exact sum of the
///    coefficients of the T-th power of the law's generating function, by J. C. P. Miller's
///    recurrence (all terms positive there); at the end itself P = p_end^T;
///  - saddlepoint t >= 1 (far tails): the sum over j >= s of Daniels' saddlepoint masses with
///    the first correction factor 1 + λ4/8 − 5λ3²/24 (H. E. Daniels, Ann. Math. Statist. 1954);
///  - else Lugannani–Rice with Daniels' second continuity correction: for P(S >= s) solve
///    K'(t) = s − 1/2, w = sgn(t)·√(2(t(s − 1/2) − K(t))), u = 2 sinh(t/2)·√K''(t),
///    P ≈ 1 − Φ(w) − φ(w)(1/w − 1/u) (P(S <= s): the same for −S, K'(t) = s + 1/2); K is T times
///    the per-deck cumulant generating function, evaluated by log-sum-exp (centred, with expm1,
///    near t = 0). Where |w| < 3e-3 (s within 0.003 sd of the mean) the formula's 1/w − 1/u
///    cancels: the value is interpolated linearly between the points at ±0.003 sd.
/// relative_error_bound = 2·(|λ4|/8 + 5λ3²/24) + aliasing + 1e-6, the maximum over the two sides,
/// where λ3 = K₃/K₂^{3/2}, λ4 = K₄/K₂² are the standardised cumulants of S at the saddlepoint
/// (the size of the next term of the expansion: O(1/T)), aliasing = max over ω in {π, 2π/3,
/// π/2, 2π/5} of |E_t e^{iωX}|^T under the tilted law (the near-periodicity the approximations
/// ignore, e.g. fixed points near n, where n − 1 is impossible), and 1e-6 a floor for the
/// numerical evaluation. How the bound was checked: against the exact path for 6 laws at n = 10
/// and 52, T = 20..1000, s over the whole support (−40 to +80 sd), the worst error was 0.08 of
/// the bound; for all six at n = 416 (an 8-deck shoe), T = 5, 48, 200, 0.04 of the bound; at
/// T = 2·10^4 and 2·10^5 (fixed points, guessing, runs at n = 52) the worst error was 3·10^-7
/// (bound there 4·10^-5); the tests check it against reference.json (mpmath, T up to 3000).
///
/// Cost: the exact path about window²·log2(T) flops, window <= T·w (2·10^4 by default:
/// milliseconds); the saddlepoint path microseconds to milliseconds, independent of T.
/// Preconditions: T·pmf.size() < 2^52. Throws shufl::error for an empty law, a negative or
/// non-finite entry, or no mass, or T too large; never throws otherwise. s beyond the support
/// gives ln 0 = -infinity on that side.
total_tail total_tails(std::span<const double> pmf, std::uint64_t T, std::uint64_t s,
                       std::uint64_t exact_limit = 20000);

// ---------------------------------------------------------------------------------------------
// Card-game laws. Cards are given as (suit, rank) with suit 0..3 (spades, hearts, diamonds,
// clubs) and rank 0..12 in the standard pack's order: 0 = Ace, 1..8 = 2..9, 9 = 10, 10 = Jack,
// 11 = Queen, 12 = King (the rank index of audit_pack for a standard pack).

/// A card of the standard 52-card pack.
struct playing_card {
  std::uint8_t suit = 0;  ///< 0..3.
  std::uint8_t rank = 0;  ///< 0 (Ace) .. 12 (King).
};

/// The nine classes of a 5-card poker hand, weakest first (royal flushes are straight flushes).
enum class poker_class : std::uint8_t {
  high_card,
  one_pair,
  two_pair,
  three_of_a_kind,
  straight,
  flush,
  full_house,
  four_of_a_kind,
  straight_flush,
};
inline constexpr std::size_t poker_class_count = 9;

/// "high-card", "one-pair", "two-pair", "three-of-a-kind", "straight", "flush", "full-house",
/// "four-of-a-kind", "straight-flush".
std::string_view poker_class_name(poker_class c) noexcept;

/// The class of five distinct cards. Straights: five consecutive ranks, the Ace low (A2345) or
/// high (10JQKA), no wrap-around (QKA23 is no straight). Precondition: suits 0..3, ranks 0..12,
/// five different cards (not checked).
poker_class classify_poker_hand(std::span<const playing_card, 5> hand) noexcept;

/// Exact numbers of 5-card hands of each class out of C(52,5) = 2,598,960, by the standard
/// combinatorial formulas (e.g. straight flushes 10·4 = 40, four of a kind 13·48 = 624, full
/// house 13·C(4,3)·12·C(4,2) = 3744, flush 4·(C(13,5) − 10) = 5108, straight 10·4^5 − 40 =
/// 10200, three of a kind 13·4·C(12,2)·16 = 54912, two pair C(13,2)·36·44 = 123552, one pair
/// 13·6·C(12,3)·64 = 1098240, high card (C(13,5) − 10)·(4^5 − 4) = 1302540), in class order.
std::array<std::uint64_t, poker_class_count> poker_class_counts() noexcept;

/// The law of the class of the first 5 cards of a uniformly shuffled 52-card deck:
/// poker_class_counts() / 2,598,960, in class order.
std::vector<double> poker_class_law();

/// The classes of the player's first two cards in blackjack, in this order (index = class):
///   0        "natural"   an Ace and a ten-value card (10, J, Q, K);
///   1        "pair"      two cards of the same rank (A-A, 2-2, ..., K-K; 10-K is no pair);
///   2..9     "soft 13" .. "soft 20"   one Ace and a 2..9;
///   10..25   "hard 5" .. "hard 20"    two non-Aces of different ranks, by their total (ten-value
///            cards count 10; 10-J is hard 20).
/// Precedence: natural, then pair, then soft, then hard, so the classes partition every pair of
/// ranks (A-A is a pair, not soft 12; 2-2 is a pair, so there is no hard 4).
inline constexpr std::size_t blackjack_class_count = 26;

/// The label of class `index` ("natural", "pair", "soft 13", …, "hard 20"). Precondition:
/// index < blackjack_class_count.
std::string blackjack_class_label(std::size_t index);

/// The class index of the two first cards, by rank (0 = Ace .. 12 = King; suits do not matter).
std::size_t classify_blackjack(std::uint8_t rank1, std::uint8_t rank2) noexcept;

/// One class of a law with labelled classes: its exact probability numerator / denominator and
/// that fraction as the nearest double.
struct labelled_probability {
  std::string label;
  std::uint64_t numerator = 0;
  std::uint64_t denominator = 1;
  double probability = 0;
};

/// The law of the class of the player's first two cards dealt from a shoe of `decks` standard
/// 52-card decks (the first two cards of a uniformly shuffled shoe): by enumeration over the 13
/// ranks of each card, P(ranks a then b) = 4K·(4K − [a = b]) / (52K·(52K − 1)), K = decks. The
/// fractions share the denominator 52K·(52K − 1) (not reduced). Throws shufl::error unless
/// 1 <= decks <= 1,000,000.
std::vector<labelled_probability> blackjack_class_law(std::uint64_t decks);

}  // namespace shufl::audit
