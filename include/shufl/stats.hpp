// Goodness-of-fit statistics: Pearson chi-squared and G tests against a uniform law, upper-tail
// p-values that stay meaningful far below the double range, and total variation distance.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace shufl {

/// The outcome of a test whose statistic has (approximately) a chi-squared law under the null.
struct test_result {
  double statistic = 0;  ///< X² or G (dimensionless).
  double df = 0;         ///< Degrees of freedom.
  double p_value = 1;    ///< Upper-tail probability P(χ²_df ≥ statistic), nearest double (may be 0).
  double ln_p = 0;       ///< Natural log of the p-value: finite even when p_value underflows.
  double log10_p = 0;    ///< Base-10 log of the p-value.
  /// True when the approximation (chi-squared, normal, Poisson) gave a p below `ln_floor`, the
  /// probability of the most extreme outcomes possible under the null: no outcome has a smaller
  /// exact p, so ln_p then holds that floor as a LOWER bound on the exact p (equal to it when the
  /// outcome is itself most extreme), and ln_p_upper an upper bound that holds without the
  /// approximation (Markov's or Chebyshev's inequality, the method of types; 0 when none is
  /// known). Decisions use the upper bound (decision_ln_p).
  bool bound = false;
  /// With `bound`: ln of a rigorous upper bound on the exact p (ln_p <= ln_p_upper <= 0).
  double ln_p_upper = 0;
  /// With `bound`: how ln_p_upper was obtained ("exact" when the outcome is most extreme).
  const char* upper_by = "";

  /// The ln p a decision may use: ln_p, or its rigorous upper bound when ln_p is the floor.
  [[nodiscard]] double decision_ln_p() const noexcept { return bound ? ln_p_upper : ln_p; }
};

/// Raises `t` to the floor `ln_floor` (ln of the smallest p-value any outcome of the experiment
/// has under the null: the total probability of the most extreme outcomes, ties included, e.g.
/// ln(n!) + T·ln(1/n!) for T uniform permutations of n, whose n! most extreme outcomes are one
/// permutation T times): when
/// t.ln_p < ln_floor, sets ln_p, log10_p and p_value from the floor and marks it a bound: the
/// exact p is at least the floor (every outcome's p includes the most extreme outcomes'), and at
/// most e^ln_upper, an upper bound the caller derives without the approximation (`upper_by` names
/// how; ln_upper <= ln_floor, or upper_by "exact", when the outcome is itself most extreme: the
/// floor is then its exact p). ln_upper is clamped to [ln_floor, 0].
void apply_floor(test_result& t, double ln_floor, double ln_upper = 0, const char* upper_by = "none") noexcept;

/// ln of an upper bound on P(Binomial(trials, p) >= m), 0 < p < 1: the first term of the tail
/// over (1 - r), r the ratio of its successor to it (the ratios fall as the count grows, so the
/// tail lies below that geometric series); 0 (no information) when r >= 1 or m <= 0, -infinity
/// when m > trials. Used where an approximation falls below its floor (apply_floor).
double ln_binomial_tail_upper_bound(double trials, double p, double m) noexcept;

/// Upper-tail p-value of a chi-squared statistic: Q(df/2, x/2), the regularised upper incomplete
/// gamma function (Boost.Math `gamma_q`, the complement form — never 1 − cdf). When p is below
/// ~1e-300 the same function is evaluated in 50-digit Boost.Multiprecision so ln p stays exact
/// (matches R's `pchisq(x, df, lower.tail = FALSE, log.p = TRUE)` to 10 significant digits).
/// Never throws: should Boost.Math fail (overflow of an intermediate), ln Q comes from the
/// Legendre continued fraction evaluated in log space (Abramowitz & Stegun 6.5.31). A NaN
/// statistic gives p = 1. Preconditions: statistic ≥ 0 (negative values are treated as 0), df > 0.
test_result chi_squared_upper_tail(double statistic, double df);

/// Pearson's chi-squared goodness-of-fit test of `counts` against equal expected counts
/// (N / k per cell, k = counts.size()): X² = Σ (O − E)² / E, df = k − 1 (K. Pearson 1900).
/// Precondition: k ≥ 2 and N > 0.
test_result pearson_uniform(std::span<const std::uint64_t> counts);

/// The G (log-likelihood ratio) test against equal expected counts: G = 2 Σ O ln(O / E), with
/// 0 · ln 0 = 0, df = k − 1 (Sokal & Rohlf, "Biometry"). Precondition: k ≥ 2 and N > 0.
test_result g_test_uniform(std::span<const std::uint64_t> counts);

/// Two-sided z-test of a sum of `trials` independent values whose law under the null has the
/// given mean and variance per value: z = (sum − trials·mean) / sqrt(trials·variance);
/// p = P(|Z| ≥ |z|) = P(χ²_1 ≥ z²), so ln p stays finite far below 1e-308. `statistic` holds z.
test_result z_test_two_sided(double sum, double trials, double mean, double variance);

/// Upper tail P(X ≥ observed) of a Poisson(lambda) count (the regularised lower incomplete gamma
/// P(observed, lambda) for observed ≥ 1; 1 for observed = 0), with ln p kept finite like
/// chi_squared_upper_tail. `statistic` holds the observed count, `df` holds lambda. Never throws.
test_result poisson_upper_tail(double observed, double lambda);

/// The same for a Poisson mean given by its natural log (ln_lambda may be far below the double
/// range, e.g. −150 for pairs of 52-card decks): the tail is summed in log space from the first
/// term e^{−λ} λ^k / k! (k = observed), so ln p stays finite for any k ≥ 0 and never throws.
test_result poisson_upper_tail_ln(double observed, double ln_lambda);

/// The non-centrality λ at which a chi-squared test with `df` degrees of freedom at level `alpha`
/// rejects with probability `power` (Boost.Math non_central_chi_squared::find_non_centrality).
/// Returns 0 when alpha ≥ power (the test rejects that often anyway) and NaN when no finite λ
/// exists numerically; never throws.
double detectable_noncentrality(double df, double alpha, double power);

/// Holm's step-down adjustment (S. Holm, Scand. J. Statist. 1979) of natural-log p-values:
/// returns ln of the adjusted p-values, in the input order, capped at 0. The family rejects at
/// family-wise level α exactly when some adjusted p is below α.
std::vector<double> holm_adjust_ln(std::span<const double> ln_p);

/// Total variation distance ½ Σ |p_i − q_i| between two probability vectors of equal length.
double total_variation_distance(std::span<const double> p, std::span<const double> q) noexcept;

/// Plug-in estimate of the total variation distance from uniform of observed counts:
/// ½ Σ |O_i / N − 1 / k|. Biased upward (it is positive even for a perfect shuffle); label it so.
double plug_in_tv_from_uniform(std::span<const std::uint64_t> counts) noexcept;

}  // namespace shufl
