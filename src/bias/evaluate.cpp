// `shufl bias` tests: the choice of the primary test, the table and position tests, secondary
// z-tests, the duplicate (birthday) test, power, Holm's correction and the verdict.
#include "shufl/bias.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <numeric>
#include <thread>
#include <vector>

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

// The verdict (DESIGN.md, "shufl bias — what it reports"): the valid tests that feed it are
// adjusted together (Holm); "biased" when any of them rejects at alpha family-wise, else
// "unreliable" when the primary test is not valid at this sample size, else "no evidence". A
// test that is not valid never decides. Also states the power of exactly this rule.
void decide_family(bias_result& r, double alpha) {
  const bool mc = r.monte_carlo.has_value();
  r.primary_valid = mc || r.expected >= 5;
  r.primary_name = r.test + (mc ? " Monte-Carlo" : " chi-squared");
  const test_result& primary = mc ? *r.monte_carlo : r.chi_squared;
  // The position test always brings the secondary tests in; the table brings them in only when
  // it is not valid itself (they can then still show overwhelming evidence).
  const bool family = r.test == "position" || !r.primary_valid;
  std::vector<double> ln_ps;
  std::vector<std::ptrdiff_t> who;  // -1: the primary; else an index into r.secondary
  if (r.primary_valid) {
    ln_ps.push_back(primary.decision_ln_p());
    who.push_back(-1);
  }
  for (std::size_t i = 0; i < r.secondary.size(); ++i) {
    auto& s = r.secondary[i];
    s.in_verdict = family && s.valid;
    if (s.in_verdict) {
      ln_ps.push_back(s.result.decision_ln_p());
      who.push_back(static_cast<std::ptrdiff_t>(i));
    }
  }
  const auto adjusted = holm_adjust_ln(ln_ps);
  r.tests_in_verdict = ln_ps.size();
  r.correction = ln_ps.size() > 1 ? "holm" : "none";
  r.ln_p_primary_adjusted = primary.decision_ln_p();
  for (auto& s : r.secondary) s.ln_p_adjusted = s.result.decision_ln_p();
  for (std::size_t k = 0; k < who.size(); ++k) {
    if (who[k] < 0) {
      r.ln_p_primary_adjusted = adjusted[k];
    } else {
      r.secondary[static_cast<std::size_t>(who[k])].ln_p_adjusted = adjusted[k];
    }
  }
  if (adjusted.empty()) {
    r.deciding_test = r.primary_name;
    r.ln_p_deciding_adjusted = primary.decision_ln_p();
    r.deciding_bound = primary.bound;
    r.outcome = verdict::unreliable;
  } else {
    const auto j = static_cast<std::size_t>(std::min_element(adjusted.begin(), adjusted.end()) - adjusted.begin());
    const bool is_primary = who[j] < 0;
    const auto& s = is_primary ? r.secondary.front() : r.secondary[static_cast<std::size_t>(who[j])];
    r.deciding_test = is_primary ? r.primary_name : s.name;
    r.ln_p_deciding_adjusted = adjusted[j];
    r.deciding_bound = is_primary ? primary.bound : s.result.bound;
    if (adjusted[j] < std::log(alpha)) {
      r.outcome = verdict::biased;
    } else {
      r.outcome = r.primary_valid ? verdict::no_evidence : verdict::unreliable;
    }
  }

  // Power of this rule: when the primary's own p is below alpha/m, Holm's first step rejects, so
  // the primary test at alpha/m is a lower bound on the rule's power. The non-centrality of the
  // least detectable law at a given TV δ: table, every cell off by 2δ/k (λ = 4Tδ²); position,
  // every card's row off by 2δ/n in every cell (λ = 4(n−1)Tδ² after the (n−1)/n scaling).
  // The non-central chi-squared law of the position statistic assumes the null's covariance of
  // the position counts: it holds for local alternatives (laws near uniform, a mixture
  // (1 − w)·uniform + w·Q with w small), not for every law at that TV (one far from uniform with
  // another covariance can be flagged less often), and the statement names that class.
  const double power = 0.9;
  const double m = static_cast<double>(std::max<std::size_t>(1, r.tests_in_verdict));
  r.power_alpha = alpha / m;
  const double trials = static_cast<double>(r.trials);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const bool mc_too_few = mc && 1.0 / static_cast<double>(r.monte_carlo_tables + 1) > r.power_alpha;
  if (!r.primary_valid || mc_too_few || trials <= 0) {
    r.detectable_tv = nan;
  } else if (r.test == "table") {
    const double cells = static_cast<double>(r.counts.size());
    r.detectable_tv = std::sqrt(detectable_noncentrality(cells - 1, r.power_alpha, power) / (4 * trials));
  } else {
    const double n1 = static_cast<double>(r.n - 1);
    r.detectable_tv = std::sqrt(detectable_noncentrality(n1 * n1, r.power_alpha, power) / (4 * n1 * trials));
  }
  r.power_alternative = r.test == "table"
      ? "any law of the n! orders at total variation distance >= detectable_total_variation from uniform"
      : "any law near uniform (a mixture (1 - w) uniform + w Q with w small: the position counts keep uniformity's "
        "covariance to first order) in which every card's position law is at total variation distance >= "
        "detectable_total_variation from uniform";
}

}  // namespace detail

namespace {

// ln of an upper bound on the p of a statistic that can reach the observed value only when some
// cell of `cells` multinomial-like cells (each Binomial(T, p) under the null) holds at least m:
// the union bound cells · P(Binomial(T, p) >= m).
double ln_max_cell_bound(double cells, double trials, double p, double m) {
  return std::min(0.0, std::log(cells) + ln_binomial_tail_upper_bound(trials, p, std::ceil(m - 1e-9 * m)));
}

// Kullback–Leibler divergence of Bernoulli(q) from Bernoulli(m), 0 < m < 1, 0 <= q <= 1.
double bernoulli_kl(double q, double m) {
  const double a = q > 0 ? q * std::log(q / m) : 0.0;
  const double b = q < 1 ? (1 - q) * std::log((1 - q) / (1 - m)) : 0.0;
  return a + b;
}

// ln of Hoeffding's bound on P(|S/T - mean| >= |observed - mean|) for T independent values in
// [low, high] with the given mean: exp(-T KL(q || m)) on each side the deviation can reach
// (W. Hoeffding, "Probability inequalities for sums of bounded random variables", JASA 58, 1963,
// Theorem 1).
double ln_hoeffding_two_sided(double observed_mean, double trials, double mean, double low, double high) {
  const double d = std::abs(observed_mean - mean), range = high - low, m = (mean - low) / range;
  std::vector<double> ln_sides;  // in logarithms: e^(-T KL) underflows far above the floors
  for (const double side : {mean + d, mean - d}) {
    if (side > high + 1e-12 || side < low - 1e-12) continue;
    ln_sides.push_back(-trials * bernoulli_kl(std::clamp((side - low) / range, 0.0, 1.0), m));
  }
  if (ln_sides.empty()) return -std::numeric_limits<double>::infinity();
  const double top = *std::max_element(ln_sides.begin(), ln_sides.end());
  double sum = 0;
  for (const double l : ln_sides) sum += std::exp(l - top);
  return std::min(0.0, top + std::log(sum));
}

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
  return primary.decision_ln_p() < std::log(alpha) ? verdict::biased : verdict::no_evidence;
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
  // The most extreme outcome of T uniform permutations is one permutation T times; there are
  // n! of them, so the smallest p-value any outcome has is their probability n! (1/n!)^T (a
  // p-value sums the probability of every outcome at least as extreme, ties included). An
  // approximation that says less is reported as this bound, which is then the exact p of the
  // most extreme outcomes (1000 identical n = 3 permutations: p = 6 (1/6)^1000 = 10^-777.37).
  const double ln_floor = (1 - trials) * std::lgamma(static_cast<double>(n) + 1);
  // Where an approximation falls below the floor, the exact p lies between the floor and an
  // upper bound that needs no approximation: the floor itself when the outcome is most extreme
  // (one permutation T times); else, for a Pearson X² or a G over cells of expected count T p,
  // the observed value is reached only when some cell holds at least m (X²: Σc² >= S forces a
  // cell >= S / total; G: Σ c ln(c/E) <= total · ln(max/E) forces max >= E e^(G / (2 total))),
  // so p <= cells · P(Binomial(T, p) >= m); for a z-test, Hoeffding's bound on a sum of bounded
  // values.
  const auto row_is_one_cell = [&](std::span<const std::uint64_t> row) {
    return std::find(row.begin(), row.end(), t.trials) != row.end();
  };
  const auto sum_of_squares = [](std::span<const std::uint64_t> cells) {
    double sq = 0;
    for (const auto c : cells) sq += static_cast<double>(c) * static_cast<double>(c);
    return sq;
  };
  bool one_permutation = t.trials > 0;  // every trial the same permutation: the most extreme outcome
  if (test == "table") {
    r.counts = t.table;
    const double cells = static_cast<double>(t.table.size());
    r.expected = trials / cells;
    r.chi_squared = pearson_uniform(r.counts);
    r.g_test = g_test_uniform(r.counts);
    r.plug_in_tv = plug_in_tv_from_uniform(r.counts);
    one_permutation = row_is_one_cell(r.counts);
    const double k = static_cast<double>(r.counts.size());
    const double x2_bound = ln_max_cell_bound(k, trials, 1 / k, sum_of_squares(r.counts) / trials);
    const double g_bound = ln_max_cell_bound(k, trials, 1 / k, trials / k * std::exp(r.g_test.statistic / (2 * trials)));
    apply_floor(r.g_test, ln_floor, one_permutation ? ln_floor : g_bound, one_permutation ? "exact" : "the largest cell");
    apply_floor(r.chi_squared, ln_floor, one_permutation ? ln_floor : x2_bound,
                one_permutation ? "exact" : "the largest cell");
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
    const double nn = static_cast<double>(n);
    for (std::size_t e = 0; e < n; ++e) {
      const auto row = std::span<const std::uint64_t>(t.positions).subspan(e * n, n);
      r.row_tests.push_back(pearson_uniform(row));
      // One card's row is multinomial(T, 1/n): its most extreme outcomes (the card T times at
      // one of the n positions) have probability n (1/n)^T together.
      const bool extreme = row_is_one_cell(row);
      one_permutation = one_permutation && extreme;
      const double row_floor = (1 - trials) * std::log(static_cast<double>(n));
      const double bound = ln_max_cell_bound(nn, trials, 1 / nn, sum_of_squares(row) / trials);
      apply_floor(r.row_tests.back(), row_floor, extreme ? row_floor : bound, extreme ? "exact" : "the largest cell");
    }
    // The matrix: n² cells of T/n expected (n T in all); the statistics are scaled by (n - 1)/n.
    const double total = nn * trials, scale = (nn - 1) / nn;
    const double x2_bound = ln_max_cell_bound(nn * nn, trials, 1 / nn, sum_of_squares(t.positions) / total);
    const double g_bound =
        ln_max_cell_bound(nn * nn, trials, 1 / nn, trials / nn * std::exp(r.g_test.statistic / scale / (2 * total)));
    apply_floor(r.g_test, ln_floor, one_permutation ? ln_floor : g_bound, one_permutation ? "exact" : "the largest cell");
    apply_floor(r.chi_squared, ln_floor, one_permutation ? ln_floor : x2_bound,
                one_permutation ? "exact" : "the largest cell");
    if (r.expected < 5) {
      r.warnings.push_back(fmt::format(
          "expected count per cell of the position matrix is {:.4g} (< 5): the chi-squared "
          "approximation is unreliable; use at least {} trials",
          r.expected, 5 * n));
    }
  }

  r.monte_carlo_tables = o.monte_carlo;

  if (t.sums.trials > 0 && n >= 2) {
    const double nn = static_cast<double>(n);
    const double h1 = harmonic(n, 1), h2 = harmonic(n, 2);
    // ties: how many permutations reach the largest deviation from the mean (1: only the
    // identity; 2: the identity and the reversal, or both values of n = 2).
    struct moment {
      const char* name;
      uint128 sum;
      double mean, variance;
      double ties;
      uint128 low, high;  // the smallest and largest value one permutation has
    };
    const double two = n == 2 ? 2 : 1;
    const auto u = [](std::size_t v) { return static_cast<uint128>(v); };
    const moment moments[] = {
        {"fixed points", t.sums.fixed_points, 1.0, 1.0, two, 0, u(n)},
        {"cycles", t.sums.cycles, h1, h1 - h2, two, 1, u(n)},
        {"inversions", t.sums.inversions, nn * (nn - 1) / 4, nn * (nn - 1) * (2 * nn + 5) / 72, 2, 0, u(n * (n - 1) / 2)},
        {"rising sequences", t.sums.rising_sequences, (nn + 1) / 2, (nn + 1) / 12, 2, 1, u(n)},
    };
    const double st = static_cast<double>(t.sums.trials);
    // A two-sided z-test's most extreme outcomes: a permutation of the largest deviation T
    // times, for each of the `ties` such permutations: ties (1/n!)^T together (the sum of T
    // values reaches T times the largest deviation only so).
    const double z_floor = -st * std::lgamma(static_cast<double>(n) + 1);
    for (const auto& m : moments) {
      secondary_test s;
      s.name = m.name;
      s.approximation = "normal";
      try {
        s.result = z_test_two_sided(static_cast<double>(m.sum), st, m.mean, m.variance);
        // Most extreme: every permutation at the end farther from the mean (either end on a tie).
        const double far_high = static_cast<double>(m.high) - m.mean, far_low = m.mean - static_cast<double>(m.low);
        const bool extreme = (far_high >= far_low && m.sum == m.high * t.sums.trials) ||
                             (far_low >= far_high && m.sum == m.low * t.sums.trials);
        const double hoeffding = ln_hoeffding_two_sided(static_cast<double>(m.sum) / st, st, m.mean,
                                                        static_cast<double>(m.low), static_cast<double>(m.high));
        apply_floor(s.result, std::log(m.ties) + z_floor, extreme ? -1e300 : hoeffding,
                    extreme ? "exact" : "Hoeffding's inequality");
        s.detail = fmt::format("mean {:.6g} (uniform: {:.6g})", static_cast<double>(m.sum) / st, m.mean);
        if (t.sums.trials < bias_min_z_trials) {
          s.valid = false;
          s.validity = fmt::format("normal approximation of a sum of {} values; valid from {} trials",
                                   t.sums.trials, bias_min_z_trials);
        }
      } catch (const std::exception& e) {
        s.result = test_result{};
        s.valid = false;
        s.validity = fmt::format("could not be computed: {}", e.what());
      }
      r.secondary.push_back(std::move(s));
    }
  }
  if (t.birthday_trials > 1) {
    const double d = static_cast<double>(t.birthday_trials);
    // ln of the chance that two permutations match: 1/n!, plus 2^-64 for the 64-bit fingerprints
    // that stand for permutations beyond max_rank_n (log-sum-exp: 1/n! underflows from n = 171).
    const double ln_cells = std::lgamma(static_cast<double>(n) + 1);
    double ln_match = -ln_cells;
    if (n > max_rank_n) {
      const double a = -ln_cells, b = -64 * std::log(2.0);
      ln_match = std::max(a, b) + std::log1p(std::exp(std::min(a, b) - std::max(a, b)));
    }
    const double ln_lambda = std::log(d * (d - 1) / 2) + ln_match;
    if (ln_lambda <= 0) {
      secondary_test s;
      s.name = "duplicates";
      s.approximation = "Poisson";
      s.result = poisson_upper_tail_ln(static_cast<double>(t.duplicates), ln_lambda);
      // k repeats are at least as likely as the first k + 1 permutations being equal: (1/n!)^k.
      // Markov: the repeats are at most the colliding pairs, whose mean is lambda: P(D >= k) <= lambda / k.
      apply_floor(s.result, -static_cast<double>(t.duplicates) * ln_cells,
                  ln_lambda - std::log(static_cast<double>(t.duplicates)), "Markov's inequality");
      s.detail = fmt::format("{} repeated permutations among the first {} (uniform: {:.3g} expected)",
                             t.duplicates, t.birthday_trials, std::exp(ln_lambda));
      r.secondary.push_back(std::move(s));
    }
  }

  detail::decide_family(r, o.alpha);
  return r;
}

}  // namespace shufl
