#include "shufl/stats.hpp"

#include <boost/math/special_functions/gamma.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/non_central_chi_squared.hpp>
#include <cmath>
#include <limits>
#include <numeric>

namespace shufl {

namespace {

using big_float = boost::multiprecision::cpp_bin_float_50;

// Below this the double result loses relative precision (denormals) or underflows to 0, so the
// p-value is recomputed with 50 significant digits and a huge exponent range.
constexpr double kSmallP = 1e-290;

}  // namespace

test_result chi_squared_upper_tail(double statistic, double df) {
  test_result r;
  r.statistic = statistic;
  r.df = df;
  const double x = statistic > 0 ? statistic : 0.0;
  if (x == 0) {
    r.p_value = 1;
    r.ln_p = 0;
    r.log10_p = 0;
    return r;
  }
  const double p = boost::math::gamma_q(df / 2, x / 2);
  if (p >= kSmallP) {
    r.p_value = p;
    r.ln_p = std::log(p);
  } else {
    const big_float big_p = boost::math::gamma_q(big_float(df) / 2, big_float(x) / 2);
    r.ln_p = static_cast<double>(log(big_p));
    r.p_value = static_cast<double>(big_p);  // nearest double; 0 when it underflows
  }
  r.log10_p = r.ln_p / std::log(10.0);
  return r;
}

test_result pearson_uniform(std::span<const std::uint64_t> counts) {
  const double k = static_cast<double>(counts.size());
  const double total = static_cast<double>(std::accumulate(counts.begin(), counts.end(), std::uint64_t{0}));
  const double expected = total / k;
  double x2 = 0;
  for (const auto c : counts) {
    const double d = static_cast<double>(c) - expected;
    x2 += d * d;
  }
  x2 /= expected;
  return chi_squared_upper_tail(x2, k - 1);
}

test_result g_test_uniform(std::span<const std::uint64_t> counts) {
  const double k = static_cast<double>(counts.size());
  const double total = static_cast<double>(std::accumulate(counts.begin(), counts.end(), std::uint64_t{0}));
  const double expected = total / k;
  double g = 0;
  for (const auto c : counts) {
    if (c == 0) continue;
    const double o = static_cast<double>(c);
    g += o * std::log(o / expected);
  }
  return chi_squared_upper_tail(2 * g, k - 1);
}

test_result z_test_two_sided(double sum, double trials, double mean, double variance) {
  const double z = (sum - trials * mean) / std::sqrt(trials * variance);
  test_result r = chi_squared_upper_tail(z * z, 1);
  r.statistic = z;
  r.df = 0;
  return r;
}

test_result poisson_upper_tail(double observed, double lambda) {
  test_result r;
  r.statistic = observed;
  r.df = lambda;
  if (observed <= 0) return r;  // p = 1
  const double p = boost::math::gamma_p(observed, lambda);
  if (p >= kSmallP) {
    r.p_value = p;
    r.ln_p = std::log(p);
  } else {
    const big_float big_p = boost::math::gamma_p(big_float(observed), big_float(lambda));
    r.ln_p = static_cast<double>(log(big_p));
    r.p_value = static_cast<double>(big_p);
  }
  r.log10_p = r.ln_p / std::log(10.0);
  return r;
}

double detectable_noncentrality(double df, double alpha, double power) {
  if (alpha >= power) return 0;  // the test alone rejects that often: any departure is "detected"
  try {
    const boost::math::chi_squared_distribution<double> null(df);
    const double critical = boost::math::quantile(boost::math::complement(null, alpha));
    return boost::math::non_central_chi_squared_distribution<double>::find_non_centrality(
        df, critical, 1 - power);
  } catch (const std::exception&) {
    // No root to bracket (alpha close to power): report that no useful bound exists.
    return std::numeric_limits<double>::quiet_NaN();
  }
}

std::vector<double> holm_adjust_ln(std::span<const double> ln_p) {
  const std::size_t m = ln_p.size();
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return ln_p[a] < ln_p[b]; });
  std::vector<double> adjusted(m, 0.0);
  double running = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < m; ++i) {
    const double value = std::min(0.0, std::log(static_cast<double>(m - i)) + ln_p[order[i]]);
    running = std::max(running, value);
    adjusted[order[i]] = running;
  }
  return adjusted;
}

double total_variation_distance(std::span<const double> p, std::span<const double> q) noexcept {
  double sum = 0;
  for (std::size_t i = 0; i < p.size() && i < q.size(); ++i) sum += std::fabs(p[i] - q[i]);
  return sum / 2;
}

double plug_in_tv_from_uniform(std::span<const std::uint64_t> counts) noexcept {
  const double k = static_cast<double>(counts.size());
  const double total = static_cast<double>(std::accumulate(counts.begin(), counts.end(), std::uint64_t{0}));
  double sum = 0;
  for (const auto c : counts) sum += std::fabs(static_cast<double>(c) / total - 1 / k);
  return sum / 2;
}

}  // namespace shufl
