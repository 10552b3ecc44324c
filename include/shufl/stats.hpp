// Goodness-of-fit statistics: Pearson chi-squared and G tests against a uniform law, upper-tail
// p-values that stay meaningful far below the double range, and total variation distance.
#pragma once

#include <cstdint>
#include <span>

namespace shufl {

/// The outcome of a test whose statistic has (approximately) a chi-squared law under the null.
struct test_result {
  double statistic = 0;  ///< X² or G (dimensionless).
  double df = 0;         ///< Degrees of freedom.
  double p_value = 1;    ///< Upper-tail probability P(χ²_df ≥ statistic), nearest double (may be 0).
  double ln_p = 0;       ///< Natural log of the p-value: finite even when p_value underflows.
  double log10_p = 0;    ///< Base-10 log of the p-value.
};

/// Upper-tail p-value of a chi-squared statistic: Q(df/2, x/2), the regularised upper incomplete
/// gamma function (Boost.Math `gamma_q`, the complement form — never 1 − cdf). When p is below
/// ~1e-300 the same function is evaluated in 50-digit Boost.Multiprecision so ln p stays exact
/// (matches R's `pchisq(x, df, lower.tail = FALSE, log.p = TRUE)` to 10 significant digits).
/// Preconditions: statistic ≥ 0 (negative values are treated as 0), df > 0.
test_result chi_squared_upper_tail(double statistic, double df);

/// Pearson's chi-squared goodness-of-fit test of `counts` against equal expected counts
/// (N / k per cell, k = counts.size()): X² = Σ (O − E)² / E, df = k − 1 (K. Pearson 1900).
/// Precondition: k ≥ 2 and N > 0.
test_result pearson_uniform(std::span<const std::uint64_t> counts);

/// The G (log-likelihood ratio) test against equal expected counts: G = 2 Σ O ln(O / E), with
/// 0 · ln 0 = 0, df = k − 1 (Sokal & Rohlf, "Biometry"). Precondition: k ≥ 2 and N > 0.
test_result g_test_uniform(std::span<const std::uint64_t> counts);

/// Total variation distance ½ Σ |p_i − q_i| between two probability vectors of equal length.
double total_variation_distance(std::span<const double> p, std::span<const double> q) noexcept;

/// Plug-in estimate of the total variation distance from uniform of observed counts:
/// ½ Σ |O_i / N − 1 / k|. Biased upward (it is positive even for a perfect shuffle); label it so.
double plug_in_tv_from_uniform(std::span<const std::uint64_t> counts) noexcept;

}  // namespace shufl
