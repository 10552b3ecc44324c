#include "shufl/stats.hpp"

#include <boost/math/special_functions/gamma.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/non_central_chi_squared.hpp>
#include <cmath>
#include <string_view>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace shufl {

namespace {

using big_float = boost::multiprecision::cpp_bin_float_50;

// Below this the double result loses relative precision (denormals) or underflows to 0, so the
// p-value is recomputed with 50 significant digits and a huge exponent range.
constexpr double kSmallP = 1e-290;

// ln Q(a, x) for x > a + 1 by the continued fraction
// Q(a, x) = e^{-x} x^a / Γ(a) · 1/(x + 1 − a − 1·(1 − a)/(x + 3 − a − 2·(2 − a)/(x + 5 − a − ...)))
// (Abramowitz & Stegun 6.5.31), evaluated with the modified Lentz method; only the prefactor is
// taken in logs, so the result stays finite however small Q is.
double ln_gamma_q_continued_fraction(double a, double x) {
  constexpr double tiny = 1e-300;
  double b = x + 1 - a;
  double c = 1 / tiny;
  double d = 1 / b;
  double h = d;
  for (int i = 1; i < 100000; ++i) {
    const double an = -static_cast<double>(i) * (static_cast<double>(i) - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1) < 1e-16) break;
  }
  return -x + a * std::log(x) - std::lgamma(a) + std::log(h);
}

void set_ln_p(test_result& r, double ln_p) {
  r.ln_p = std::min(0.0, ln_p);
  r.p_value = std::exp(r.ln_p);  // 0 when it underflows; ln_p stays the value
  r.log10_p = r.ln_p / std::log(10.0);
}

}  // namespace

double ln_binomial_tail_upper_bound(double trials, double p, double m) noexcept {
  if (m <= 0) return 0;
  if (m > trials) return -std::numeric_limits<double>::infinity();
  const double term = std::lgamma(trials + 1) - std::lgamma(m + 1) - std::lgamma(trials - m + 1) + m * std::log(p) +
                      (trials - m) * std::log1p(-p);
  const double r = (trials - m) / (m + 1) * p / (1 - p);
  if (!(r < 1)) return 0;
  return std::min(0.0, term - std::log1p(-r));
}

void apply_floor(test_result& t, double ln_floor, double ln_upper, const char* upper_by) noexcept {
  if (!(t.ln_p >= ln_floor) && std::isfinite(ln_floor)) {
    t.ln_p = ln_floor;
    t.p_value = std::exp(ln_floor);
    t.log10_p = ln_floor / std::log(10.0);
    t.bound = true;
    const bool exact = std::string_view(upper_by) == "exact" || !(ln_upper > ln_floor);
    t.ln_p_upper = exact ? ln_floor : std::min(0.0, ln_upper);
    t.upper_by = exact ? "exact" : upper_by;
  }
}

test_result chi_squared_upper_tail(double statistic, double df) {
  test_result r;
  r.statistic = statistic;
  r.df = df;
  const double x = statistic > 0 ? statistic : 0.0;
  if (!(x > 0) || !(df > 0)) {  // 0, NaN, or no degrees of freedom: p = 1
    r.p_value = 1;
    r.ln_p = 0;
    r.log10_p = 0;
    return r;
  }
  if (std::isinf(x)) {
    // An infinite statistic has no finite ln p; the caller's floor turns it into a bound.
    set_ln_p(r, -std::numeric_limits<double>::max());
    return r;
  }
  try {
    const double p = boost::math::gamma_q(df / 2, x / 2);
    if (p >= kSmallP) {
      r.p_value = p;
      r.ln_p = std::log(p);
    } else {
      const big_float big_p = boost::math::gamma_q(big_float(df) / 2, big_float(x) / 2);
      r.ln_p = static_cast<double>(log(big_p));
      r.p_value = static_cast<double>(big_p);  // nearest double; 0 when it underflows
    }
    if (!std::isfinite(r.ln_p)) throw std::overflow_error("ln p not finite");
    r.log10_p = r.ln_p / std::log(10.0);
  } catch (const std::exception&) {
    // Q is tiny here (x far above df), so the continued fraction converges quickly.
    set_ln_p(r, ln_gamma_q_continued_fraction(df / 2, x / 2));
  }
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
  test_result r = poisson_upper_tail_ln(observed, lambda > 0 ? std::log(lambda) : -std::numeric_limits<double>::infinity());
  r.df = lambda;
  return r;
}

test_result poisson_upper_tail_ln(double observed, double ln_lambda) {
  test_result r;
  r.statistic = observed;
  const double lambda = std::exp(ln_lambda);
  r.df = lambda;
  if (!(observed > 0)) return r;  // p = 1
  const double k = std::ceil(observed);
  if (std::isinf(ln_lambda) && ln_lambda < 0) {
    // λ = 0: X = 0 surely; report the smallest finite ln p (the caller's floor bounds it).
    set_ln_p(r, -std::numeric_limits<double>::max());
    return r;
  }
  // Where p is not small, Boost.Math's regularised gamma P(k, λ) in double is accurate.
  if (k <= lambda + 1) {
    try {
      const double p = boost::math::gamma_p(k, lambda);
      if (p >= kSmallP && std::isfinite(p)) {
        set_ln_p(r, std::log(p));
        return r;
      }
    } catch (const std::exception&) {
    }
  }
  // Far tail (k > λ): ln of the first term e^{−λ} λ^k / k!, times 1 + Σ_j Π_{i=1..j} λ/(k+i),
  // a series whose ratios fall below λ/(k+1) < 1.
  const double ln_first = -lambda + k * ln_lambda - std::lgamma(k + 1);
  double sum = 1, term = 1;
  for (double i = 1; i < 1e7; ++i) {
    term *= lambda / (k + i);
    sum += term;
    if (term < 1e-17 * sum) break;
  }
  set_ln_p(r, ln_first + std::log(sum));
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
