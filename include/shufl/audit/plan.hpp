// `shufl audit --plan`: how many decks the battery needs to detect a stated departure from
// uniform with a stated power. Nothing is read; the pack's shape is enough.
//
// Level: the battery decides with Holm at family-wise α over its m applicable tests. Holm rejects
// a test whenever Bonferroni (α/m) does, so planning each test at α/m is conservative: the
// planned power is a lower bound for the test alone (Holm's later steps test at up to α).
//
// Effect models (δ, per test; defaults in default_effect, docs/audit.md "Planning"):
//  - card-position, suit-position, rank-position: the first row of the table (the pack's first
//    card, first suit, first rank) is on top with probability r/N + δ instead of r/N (r the
//    row's cards); the other rows' chances of being on top shrink in proportion to r, and given
//    the top card the rest of the deck is uniform. Cell probabilities π_ip follow exactly (top
//    t_i, any other position (r_i − t_i)/(N − 1)); the scaled Pearson statistic X²·(N−1)/N is
//    then approximately non-central χ² with the table's df and non-centrality
//    λ = T·(N−1)/N·Σ (π_ip − r_i/N)²/(r_i/N) (the mean of the scaled residuals, whose null
//    covariance is a projection: audit.hpp). For one card of n distinct cards λ/T = δ²n²/(n−1).
//  - serial-position, serial-successions (packs of distinct cards): each card stays at its
//    position (keeps the card right below it) from one deck to the next with probability 1/n + δ
//    instead of 1/n. The tests look at each position (card) alone, whose repeats are about
//    Binomial(pairs, 1/n) under the null, and combine the n by Bonferroni: a one-sided z-test at
//    α/(m·n), λ per pair = δ²/((1/n)(1 − 1/n)), 1 df at twice that level. The power depends on
//    the effect's structure: an effect spread thinly over every category (a small rise of the
//    whole deck's kept pairs) needs far more decks than this model says.
//  - successions, adjacent-pairs, descents, rising-sequences, runs-up-down, fixed-points,
//    guessing: the mean of the per-deck count shifts by δ (cards per deck),
//    its variance staying the null's σ² (exact, from laws.hpp). The total over T decks is then
//    about normal with mean shifted by Tδ, so (z-statistic)² is non-central χ²₁ with λ = Tδ²/σ²:
//    two-sided tests at α/m; upper-tail tests (guessing) as a two-sided
//    test at 2α/m (the same critical value; the far side's power is negligible).
//  - coupon-collector-suits, coupon-collector-ranks: as the totals, the mean of the cards dealt
//    until every suit (rank) has shown shifts by δ, σ² from the exact law (audit/pairs.hpp).
//  - position-pairs: a share δ of the decks has the pack's second card glued below its first;
//    λ per deck from the Wald statistic of lag 1's mean table (plan.cpp), at level/L.
//  - gap: the same glued pair, seen by the first card's suit (plan.cpp), at level/(suits).
//  - duplicates, poker-hands, permutation-3/-4, batches: not planned (their power depends on how many distinct
//    decks the shuffler can make, on which classes it favours, or on how a bias comes and goes
//    between samples; no single δ describes that).
// Decks needed: λ* = the non-centrality at which a χ² test with the df rejects at α/m with the
// power (stats.hpp detectable_noncentrality, Boost.Math non_central_chi_squared), decks =
// ⌈λ*/(λ per deck)⌉ (serial tests: pairs, + 1 deck), and never below the decks that make the
// test valid (every expected count of a table ≥ 5).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shufl/audit.hpp"

namespace shufl::audit {

struct plan_options {
  double alpha = 0.01;  ///< Family-wise level of the battery, in (0, 1).
  double power = 0.9;   ///< Power wanted per test, in (0, 1).
  /// δ per test name (battery_test_names); a test not named gets default_effect.
  std::map<std::string, double, std::less<>> effects;
  /// --tier: plan the tier's battery (its α, lags and batch size replace `alpha` and the shape's)
  /// and say which planned tests its decks reach (planned_test::tier_reached).
  std::optional<audit_tier> tier;
};

/// One test of the plan.
struct planned_test {
  std::string name;
  bool planned = false;           ///< false: not-applicable or no effect model (see note).
  double effect = 0;              ///< δ.
  std::string model;              ///< The effect model in words, with δ.
  std::optional<double> df;       ///< Degrees of freedom of the χ² the plan uses (1 for totals).
  double per_deck = 0;            ///< Non-centrality per deck (per pair for serial tests).
  double noncentrality = 0;       ///< λ* needed for the power at the level.
  std::uint64_t decks = 0;        ///< Decks needed (planned tests only).
  bool validity_bound = false;    ///< decks is the minimum for a valid χ² (λ* needs fewer).
  /// With a tier, planned tests only: decks ≤ the tier's decks (its decks give the power).
  std::optional<bool> tier_reached;
  /// Why not planned; for a planned table test whose δ exceeds twice the null probability,
  /// the caveat that the approximation may give too few decks.
  std::string note;
};

struct audit_plan {
  double alpha = 0.01, power = 0.9;
  std::size_t family = 0;         ///< m: applicable tests of the battery for this shape.
  double level = 0;               ///< α/m, each test's level.
  std::vector<planned_test> tests;  ///< battery_test_names order (poker-hands only with poker).
  std::uint64_t decks = 0;        ///< The largest of the planned tests' decks.
  std::size_t lags = 2;           ///< position-pairs' lags 1..L (planned on lag 1 at level/L).
  std::uint64_t batch_size = 0;   ///< batches' sample size (0: no batches test in the family).
  std::optional<audit_tier> tier; ///< The tier planned (options.tier).
};

/// The default δ of a test (0 for tests without an effect model): 0.01 for the position tables
/// and the serial tests, 0.05 cards per deck for the totals.
double default_effect(std::string_view test) noexcept;

/// Tests that take an effect (have a model).
bool has_effect_model(std::string_view test) noexcept;

/// The plan for decks of `shape` (whole decks: shape.whole()), with its lags (position-pairs'
/// level α/(m·L); 2·L ≥ N cards makes it not applicable) and batch size (> 0: batches joins the
/// family m, unplanned). Throws shufl::error for lags outside 1..64 or a batch size outside
/// 0, [10, 10^7], a δ the model cannot take (a probability above 1, δ ≤ 0, a shift beyond the
/// count's range) or an unknown test name in options.effects.
audit_plan plan_audit(const battery_shape& shape, const plan_options& options);

/// The plan of the battery an audit of whole decks of `pack` with `options` runs: its --game,
/// --lags and --batch-size, at options.alpha, or its tier's (options.tier); `o`'s alpha and tier
/// are replaced by options'. Throws as above.
audit_plan plan_audit(const audit_pack& pack, const audit_options& options, plan_options o);

/// What a planned test detects with power about `power` (asymptotic) at a number of decks: the
/// plan inverted. Every effect model's non-centrality grows as δ², so δ = δ0·√(λ*/(T·λ0)) for the
/// plan's δ0, its λ0 per deck and the λ* that gives the power at α/m (T: decks, pairs of decks for
/// the serial tests). `model` is the plan's model in words at that δ; empty when δ leaves the
/// model's range (too few decks: the test detects nothing that small models).
struct detectable_effect {
  std::string name;
  double effect = 0;
  std::string model;
};
std::vector<detectable_effect> detectable_effects(const battery_shape& shape, std::uint64_t decks, double alpha,
                                                  double power = 0.9);

/// λ per deck of the position-table model above: `rows` margins r_i (Σ = N cards), the first
/// row on top with probability r_0/N + δ. Exposed for tests.
double position_noncentrality_per_deck(const std::vector<std::uint64_t>& rows, double delta);

}  // namespace shufl::audit
