// `shufl bias` tests: the choice of the primary test, the table and position tests, secondary
// z-tests, the duplicate (birthday) test, power, Holm's correction and the verdict.
#include "shufl/bias.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>
#include <thread>

#include "internal.hpp"
#include "shufl/permutation.hpp"

namespace shufl {

namespace detail {

// Pearson X² and G of an n × n position matrix against T/n per cell, both scaled by (n − 1)/n.
std::pair<test_result, test_result> position_tests(const std::vector<std::uint64_t>& m, std::size_t n,
                                                  std::uint64_t trials) {
  const double expected = static_cast<double>(trials) / static_cast<double>(n);
  double x2 = 0, g = 0;
  for (const auto c : m) {
    const double o = static_cast<double>(c);
    x2 += (o - expected) * (o - expected);
    if (c) g += o * std::log(o / expected);
  }
  x2 /= expected;
  const double scale = static_cast<double>(n - 1) / static_cast<double>(n);
  const double df = static_cast<double>((n - 1) * (n - 1));
  return {chi_squared_upper_tail(x2 * scale, df), chi_squared_upper_tail(2 * g * scale, df)};
}

// The verdict: the primary test alone, or the family (primary + secondary tests in the verdict)
// with Holm's correction. A Monte-Carlo p-value, when present, replaces the asymptotic one.
void decide_family(bias_result& r, double alpha) {
  std::vector<double> ln_ps{r.monte_carlo ? r.monte_carlo->ln_p : r.chi_squared.ln_p};
  for (const auto& s : r.secondary) {
    if (s.in_verdict) ln_ps.push_back(s.result.ln_p);
  }
  const auto adjusted = ln_ps.size() > 1 ? holm_adjust_ln(ln_ps) : ln_ps;
  r.correction = ln_ps.size() > 1 ? "holm" : "none";
  r.ln_p_primary_adjusted = adjusted[0];
  std::size_t k = 1;
  for (auto& s : r.secondary) s.ln_p_adjusted = s.in_verdict ? adjusted[k++] : s.result.ln_p;
  const double min_adjusted = *std::min_element(adjusted.begin(), adjusted.end());
  if (r.expected < 5 && !r.monte_carlo) {
    r.outcome = verdict::unreliable;
  } else {
    r.outcome = min_adjusted < std::log(alpha) ? verdict::biased : verdict::no_evidence;
  }
}

}  // namespace detail

namespace {

double harmonic(std::size_t n, double power) {
  double h = 0;
  for (std::size_t k = 1; k <= n; ++k) h += 1 / std::pow(static_cast<double>(k), power);
  return h;
}


}  // namespace

std::string_view verdict_json(verdict v) noexcept {
  switch (v) {
    case verdict::biased: return "biased";
    case verdict::unreliable: return "unreliable";
    default: return "no-evidence";
  }
}

std::string_view verdict_text(verdict v) noexcept {
  switch (v) {
    case verdict::biased: return "biased";
    case verdict::unreliable: return "unreliable";
    default: return "no evidence of bias";
  }
}

verdict decide_verdict(const test_result& primary, double expected_per_cell, double alpha) noexcept {
  if (expected_per_cell < 5) return verdict::unreliable;
  return primary.ln_p < std::log(alpha) ? verdict::biased : verdict::no_evidence;
}

std::string choose_test(bias_test test, std::size_t n, std::uint64_t trials) {
  if (test == bias_test::table) return "table";
  if (test == bias_test::position) return "position";
  if (n > bias_max_table_n || factorial(n) > bias_auto_table_cells) return "position";
  const double expected = static_cast<double>(trials) / static_cast<double>(factorial(n));
  // Small decks keep the table even when it is short of trials (the verdict is then
  // "unreliable" and a few more trials fix it); from n = 5 the position matrix takes over.
  if (expected < 5 && n >= 5) return "position";
  return "table";
}

bias_result evaluate_tallies(const bias_tallies& t, const bias_options& o, const std::string& test) {
  bias_result r;
  r.test = test;
  r.n = t.n;
  r.trials = t.trials;
  const std::size_t n = t.n;
  const double trials = static_cast<double>(t.trials);
  r.position_counts = t.positions;
  r.sums = t.sums;
  const double power = 0.9;
  if (test == "table") {
    r.counts = t.table;
    const double cells = static_cast<double>(t.table.size());
    r.expected = trials / cells;
    r.chi_squared = pearson_uniform(r.counts);
    r.g_test = g_test_uniform(r.counts);
    r.plug_in_tv = plug_in_tv_from_uniform(r.counts);
    // Hardest case for a given TV δ: every cell off by 2δ/k, non-centrality 4Tδ².
    r.detectable_tv = std::sqrt(detectable_noncentrality(cells - 1, o.alpha, power) / (4 * trials));
    if (r.expected < 5) {
      r.warnings.push_back(fmt::format(
          "expected count per permutation is {:.4g} (< 5): the chi-squared approximation is "
          "unreliable; use at least {} trials{}",
          r.expected, static_cast<std::uint64_t>(5 * cells),
          o.monte_carlo ? "" : " or --monte-carlo B"));
    }
  } else {
    auto [x2, g] = detail::position_tests(t.positions, n, t.trials);
    r.chi_squared = x2;
    r.g_test = g;
    r.expected = trials / static_cast<double>(n);
    for (std::size_t e = 0; e < n; ++e) {
      r.row_tests.push_back(pearson_uniform(std::span<const std::uint64_t>(t.positions).subspan(e * n, n)));
    }
    // Every row off by the same per-card TV δ spread evenly: non-centrality 4(n−1)Tδ².
    r.detectable_tv = std::sqrt(detectable_noncentrality(static_cast<double>((n - 1) * (n - 1)), o.alpha, power) /
                                (4 * static_cast<double>(n - 1) * trials));
    if (r.expected < 5) {
      r.warnings.push_back(fmt::format(
          "expected count per cell of the position matrix is {:.4g} (< 5): the chi-squared "
          "approximation is unreliable; use at least {} trials",
          r.expected, 5 * n));
    }
  }

  const bool family = test == "position";
  if (t.sums.trials > 0 && n >= 2) {
    const double nn = static_cast<double>(n);
    const double h1 = harmonic(n, 1), h2 = harmonic(n, 2);
    struct moment {
      const char* name;
      uint128 sum;
      double mean, variance;
    };
    const moment moments[] = {
        {"fixed points", t.sums.fixed_points, 1.0, 1.0},
        {"cycles", t.sums.cycles, h1, h1 - h2},
        {"inversions", t.sums.inversions, nn * (nn - 1) / 4, nn * (nn - 1) * (2 * nn + 5) / 72},
        {"rising sequences", t.sums.rising_sequences, (nn + 1) / 2, (nn + 1) / 12},
    };
    const double st = static_cast<double>(t.sums.trials);
    for (const auto& m : moments) {
      secondary_test s;
      s.name = m.name;
      s.result = z_test_two_sided(static_cast<double>(m.sum), st, m.mean, m.variance);
      s.in_verdict = family;
      s.detail = fmt::format("mean {:.6g} (uniform: {:.6g})", static_cast<double>(m.sum) / st, m.mean);
      r.secondary.push_back(std::move(s));
    }
  }
  if (t.birthday_trials > 1) {
    const double d = static_cast<double>(t.birthday_trials);
    double inverse_cells = std::exp(-std::lgamma(static_cast<double>(n) + 1));
    if (n > max_rank_n) inverse_cells += std::ldexp(1.0, -64);  // 64-bit fingerprints
    const double lambda = d * (d - 1) / 2 * inverse_cells;
    if (lambda <= 1) {
      secondary_test s;
      s.name = "duplicates";
      s.result = poisson_upper_tail(static_cast<double>(t.duplicates), lambda);
      s.in_verdict = family;
      s.detail = fmt::format("{} repeated permutations among the first {} (uniform: {:.3g} expected)",
                             t.duplicates, t.birthday_trials, lambda);
      r.secondary.push_back(std::move(s));
    }
  }

  detail::decide_family(r, o.alpha);
  return r;
}

}  // namespace shufl
