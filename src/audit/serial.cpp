// The serial tests as tests of dependence (audit/serial.hpp): repeats of each position's face and
// each card's successor against their exact permutation moments, combined by Bonferroni.
#include "shufl/audit/serial.hpp"

#include <fmt/format.h>

#include <boost/math/special_functions/beta.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace shufl::audit {

repeat_moments repeat_moments_of(std::span<const std::uint64_t> counts, std::uint64_t units, std::uint64_t pairs) noexcept {
  repeat_moments r;
  if (units < 4 || pairs == 0) return r;
  // Long double: Var is a difference of terms near E², about (T/F)² for T decks.
  long double a2 = 0, a3 = 0, a4 = 0, b = 0;
  for (const std::uint64_t c : counts) {
    const long double m = static_cast<long double>(c);
    const long double f2 = m * (m - 1);
    a2 += f2;
    a3 += f2 * (m - 2);
    a4 += f2 * (m - 2) * (m - 3);
    b += f2 * f2;
  }
  const long double T = static_cast<long double>(units), P = static_cast<long double>(pairs);
  const long double t2 = T * (T - 1), t3 = t2 * (T - 2), t4 = t3 * (T - 3);
  const long double q2 = a2 / t2, q3 = a3 / t3, q4 = (a2 * a2 - b + a4) / t4;
  const long double mean = P * q2;
  const long double var = mean + 2 * (P - 1) * q3 + (P - 1) * (P - 2) * q4 - mean * mean;
  r.mean = static_cast<double>(mean);
  r.variance = static_cast<double>(std::max<long double>(var, 0));
  // Rounding can leave a tiny positive variance where the margins fix D (one value only).
  if (r.variance < 1e-9 * std::max(1.0, r.mean)) r.variance = 0;
  return r;
}

namespace {

double ln_normal_upper(double z) {
  const double p = 0.5 * std::erfc(z / std::sqrt(2.0));
  if (p > 1e-300) return std::log(p);
  // Mills' ratio: ln φ(z)/z (z large).
  return -z * z / 2 - std::log(z * std::sqrt(2 * 3.14159265358979323846));
}

}  // namespace

test_result repeat_upper_tail(std::uint64_t observed, const repeat_moments& m) {
  test_result t;
  t.df = 0;
  const double d = static_cast<double>(observed);
  if (m.variance <= 0) {
    t.ln_p = d <= m.mean + 0.5 ? 0 : -std::numeric_limits<double>::infinity();
  } else if (observed == 0) {
    t.ln_p = 0;
  } else if (m.variance < m.mean) {
    const double q = 1 - m.variance / m.mean, n = m.mean / q;
    if (d < n && q <= 0.5) {
      double ln_p = -std::numeric_limits<double>::infinity();
      try {
        const double p = boost::math::ibeta(d, n - d + 1, q);
        if (p > 1e-300) ln_p = std::log(p);
      } catch (const std::exception&) {
      }
      if (!std::isfinite(ln_p)) ln_p = ln_binomial_tail_upper_bound(n, q, d);
      t.ln_p = ln_p;
    } else {
      // Lopsided margins (Var < E/2): the matched binomial is skewed to the left and ends just above
      // E, though the true law can be skewed to the right (for a cut, E plus about a Poisson count of
      // mean Var); its tail understates the true one, down to 0 beyond its end. Cantelli's one-sided
      // bound P(D − E ≥ t) ≤ Var/(Var + t²), t = d − E > 0, holds for any law of that mean and
      // variance. The same where d is at or beyond the binomial's end.
      const double dev = d - m.mean;
      t.ln_p = dev > 0 ? std::log(m.variance) - std::log(m.variance + dev * dev) : 0;
    }
  } else {
    t.ln_p = ln_normal_upper((d - 0.5 - m.mean) / std::sqrt(m.variance));
  }
  t.ln_p = std::min(t.ln_p, 0.0);
  t.statistic = m.variance > 0 ? (d - m.mean) / std::sqrt(m.variance) : 0;
  t.p_value = std::exp(t.ln_p);
  return t;
}

std::uint32_t serial_successor_repeats(const std::uint32_t* prev, std::size_t n, const std::uint32_t* where_next,
                                       std::uint64_t* per_card) noexcept {
  std::uint32_t k = 0;
  for (std::size_t q = 0; q + 1 < n; ++q) {
    const std::uint32_t kept = where_next[prev[q + 1]] == where_next[prev[q]] + 1;
    per_card[prev[q]] += kept;
    k += kept;
  }
  per_card[prev[n - 1]] += where_next[prev[n - 1]] == n - 1;
  return k;
}

test_report serial_repeat_test(std::string name, std::span<const std::uint64_t> values, std::size_t categories,
                               std::size_t width, std::span<const std::uint64_t> repeats, std::uint64_t units,
                               std::uint64_t pairs, std::string_view what) {
  test_report r;
  r.name = std::move(name);
  r.decks = pairs;
  r.tail = "upper";
  double best_ln = 0, best_z = 0, least_mean = std::numeric_limits<double>::infinity();
  std::size_t best = 0, tested = 0;
  bool best_bound = false;
  double observed = 0, expected = 0;
  for (std::size_t c = 0; c < categories; ++c) {
    const auto counts = values.subspan(c * width, width);
    const repeat_moments m = repeat_moments_of(counts, units, pairs);
    observed += static_cast<double>(repeats[c]);
    expected += m.mean;
    if (m.variance <= 0) continue;  // the margins fix the repeats (one value): nothing to test
    ++tested;
    least_mean = std::min(least_mean, m.mean);
    test_result t = repeat_upper_tail(repeats[c], m);
    // Floor: the most extreme arrangements (each value in one block, k! orders of the blocks).
    double ln_floor = -std::lgamma(static_cast<double>(units) + 1);
    double distinct = 0;
    for (const std::uint64_t v : counts) {
      ln_floor += std::lgamma(static_cast<double>(v) + 1);
      distinct += v > 0;
    }
    ln_floor += std::lgamma(distinct + 1);
    bool bound = false;
    if (!(t.ln_p >= ln_floor)) {
      t.ln_p = ln_floor;
      bound = true;
    }
    if (tested == 1 || t.ln_p < best_ln) {
      best_ln = t.ln_p;
      best = c;
      best_z = t.statistic;
      best_bound = bound;
    }
  }
  r.observed = observed;
  r.expected = expected;
  if (tested == 0) {
    r.result = test_outcome::not_applicable;
    r.note = pairs == 0 ? "needs at least 2 decks in order" : "the decks' margins fix every repeat";
    return r;
  }
  r.statistic = best_z;
  r.ln_p = std::min(0.0, best_ln + std::log(static_cast<double>(tested)));
  r.p = std::exp(r.ln_p);
  r.p_bound = best_bound && r.ln_p < 0;
  r.law = fmt::format(
      "repeats from deck to deck per {w} against their exact permutation mean and variance given the decks' own "
      "counts (binomial of the same mean and variance; Cantelli's bound Var/(Var + (D - E)^2) where Var < E/2 "
      "or D is beyond the binomial's support); Bonferroni over {c} {w}s",
      fmt::arg("w", what), fmt::arg("c", tested));
  r.note = fmt::format("smallest p at {} {} (z = {:.3g}); {:.6g} repeats observed, {:.6g} expected", what, best + 1,
                       best_z, observed, expected);
  if (least_mean < 5) {
    r.result = test_outcome::not_valid;
    r.note = fmt::format("a {} expects {:.3g} repeats, below 5: the test needs more decks", what, least_mean);
  } else {
    r.result = test_outcome::pass;
  }
  return r;
}

}  // namespace shufl::audit
