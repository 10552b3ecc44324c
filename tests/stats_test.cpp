// Statistics against independently computed values (tests/reference/, from R, SciPy and mpmath).
#include "shufl/stats.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/run.hpp"

namespace shufl {
namespace {

std::vector<std::vector<std::string>> read_csv(const std::string& name) {
  std::ifstream f(test::reference_dir() + "/" + name);
  EXPECT_TRUE(f) << name;
  std::vector<std::vector<std::string>> rows;
  std::string line;
  bool header = true;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (header) {
      header = false;
      continue;
    }
    std::vector<std::string> cells;
    std::string cell;
    bool quoted = false;
    for (char c : line) {
      if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        cells.push_back(cell);
        cell.clear();
      } else {
        cell.push_back(c);
      }
    }
    cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

// The reference values agree "to the digits shown": accept a relative error of 1e-9, half a unit
// in the last printed digit, or an absolute 1e-12, whichever is largest.
double tolerance(const std::string& text, double value) {
  const std::size_t e = text.find_first_of("eE");
  const std::string mantissa = text.substr(0, e);
  const int exponent = e == std::string::npos ? 0 : std::stoi(text.substr(e + 1));
  const std::size_t dot = mantissa.find('.');
  const int decimals = dot == std::string::npos ? 0 : static_cast<int>(mantissa.size() - dot - 1);
  const double last_digit = std::pow(10.0, exponent - decimals);
  return std::max({1e-9 * std::fabs(value), 0.5 * last_digit, 1e-12});
}

#define EXPECT_MATCHES(actual, text)                                      \
  do {                                                                    \
    const double ref_ = std::strtod((text).c_str(), nullptr);             \
    EXPECT_NEAR((actual), ref_, tolerance((text), ref_)) << "ref " << (text); \
  } while (0)

std::vector<std::uint64_t> parse_counts(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::uint64_t> counts;
  for (std::uint64_t c; in >> c;) counts.push_back(c);
  return counts;
}

TEST(Stats, MatchesChiSquaredOracles) {
  const auto rows = read_csv("chi_squared_oracles.csv");
  ASSERT_EQ(rows.size(), 6u);
  for (const auto& row : rows) {
    SCOPED_TRACE(row[0]);
    ASSERT_EQ(row.size(), 9u);
    const auto counts = parse_counts(row[1]);
    const test_result x2 = pearson_uniform(counts);
    const test_result g = g_test_uniform(counts);
    EXPECT_MATCHES(x2.statistic, row[2]);
    EXPECT_EQ(x2.df, std::stod(row[3]));
    EXPECT_MATCHES(x2.ln_p, row[5]);
    EXPECT_MATCHES(g.statistic, row[6]);
    EXPECT_MATCHES(g.ln_p, row[8]);
    // p itself where it is a double; below 1e-308 the p-value must underflow to 0 and ln p
    // (checked above) carries it.
    for (const auto& [actual, text] : {std::pair{x2.p_value, row[4]}, std::pair{g.p_value, row[7]}}) {
      errno = 0;
      const double p = std::strtod(text.c_str(), nullptr);
      if (errno == ERANGE || p < 1e-300) {
        EXPECT_LT(actual, 1e-300);
      } else {
        EXPECT_MATCHES(actual, text);
      }
    }
    EXPECT_NEAR(x2.log10_p, x2.ln_p / std::log(10.0), 1e-9 * std::fabs(x2.ln_p) + 1e-12);
  }
}

TEST(Stats, CriticalValuesGiveTheirAlpha) {
  const auto rows = read_csv("chi_squared_critical_values.csv");
  ASSERT_EQ(rows.size(), 6u);
  for (const auto& row : rows) {
    const double df = std::stod(row[0]);
    const double alphas[] = {0.05, 0.001, 1e-6};
    for (int i = 0; i < 3; ++i) {
      const test_result r = chi_squared_upper_tail(std::stod(row[static_cast<std::size_t>(i + 1)]), df);
      EXPECT_NEAR(r.p_value, alphas[i], 1e-8 * alphas[i]) << "df=" << df << " col=" << i;
    }
  }
}

// Far below the double range: R's pchisq(120000, 5, lower.tail = FALSE, log.p = TRUE) is
// -59983.7815081 (DESIGN.md build notes).
TEST(Stats, LogPValueFarBelowDoubleRange) {
  const test_result r = chi_squared_upper_tail(120000, 5);
  EXPECT_EQ(r.p_value, 0.0);
  EXPECT_NEAR(r.ln_p, -59983.7815081, 1e-6);
  EXPECT_TRUE(std::isfinite(r.log10_p));
}

TEST(Stats, ZeroStatisticHasPOne) {
  const test_result r = chi_squared_upper_tail(0, 5);
  EXPECT_EQ(r.p_value, 1.0);
  EXPECT_EQ(r.ln_p, 0.0);
}

TEST(Stats, TotalVariationDistance) {
  const std::vector<double> p{0.5, 0.5, 0}, q{1.0 / 3, 1.0 / 3, 1.0 / 3};
  EXPECT_NEAR(total_variation_distance(p, q), 1.0 / 3, 1e-15);
  EXPECT_EQ(plug_in_tv_from_uniform(std::vector<std::uint64_t>{5, 5, 5}), 0.0);
  EXPECT_NEAR(plug_in_tv_from_uniform(std::vector<std::uint64_t>{10, 0}), 0.5, 1e-15);
}

}  // namespace
}  // namespace shufl

namespace shufl {
namespace {

// Holm: p = (0.01, 0.04, 0.03) → sorted 0.01·3, 0.03·2, 0.04·1 → (0.03, 0.06, 0.06) after the
// running maximum.
TEST(Stats, HolmAdjustment) {
  const std::vector<double> ln_p{std::log(0.01), std::log(0.04), std::log(0.03)};
  const auto adjusted = holm_adjust_ln(ln_p);
  EXPECT_NEAR(std::exp(adjusted[0]), 0.03, 1e-12);
  EXPECT_NEAR(std::exp(adjusted[1]), 0.06, 1e-12);
  EXPECT_NEAR(std::exp(adjusted[2]), 0.06, 1e-12);
  EXPECT_EQ(holm_adjust_ln(std::vector<double>{std::log(0.9), std::log(0.8)})[0], 0.0);  // capped at 1
}

// Two-sided z-test: z = 1.959963985 → p = 0.05; far tails keep ln p (R: 2*pnorm(-40, log=TRUE)
// = log(2) + (-804.6084420137538)).
TEST(Stats, ZTestTwoSided) {
  const auto t = z_test_two_sided(1 + 1.959963984540054, 1, 1, 1);
  EXPECT_NEAR(t.p_value, 0.05, 1e-9);
  EXPECT_NEAR(t.statistic, 1.959963984540054, 1e-12);
  const auto far = z_test_two_sided(40, 1, 0, 1);
  EXPECT_NEAR(far.ln_p, std::log(2.0) - 804.6084420137538, 1e-6);
}

// Poisson upper tail: P(X >= 1 | 0.5) = 1 - e^-0.5; P(X >= 3 | 1) = 1 - (1 + 1 + 1/2)/e.
TEST(Stats, PoissonUpperTail) {
  EXPECT_NEAR(poisson_upper_tail(1, 0.5).p_value, 1 - std::exp(-0.5), 1e-14);
  EXPECT_NEAR(poisson_upper_tail(3, 1).p_value, 1 - 2.5 * std::exp(-1.0), 1e-14);
  EXPECT_EQ(poisson_upper_tail(0, 1).p_value, 1.0);
  EXPECT_LT(poisson_upper_tail(200, 1e-8).ln_p, -3000);  // finite far below 1e-308
}

// Power: a chi-squared test with df = 5 at alpha = 0.05 reaches 90% power at non-centrality
// 16.4694642 (independently: bisection on the Poisson mixture of central chi-squared CDFs,
// P(χ²_5(λ) ≤ 11.0705) = 0.1).
TEST(Stats, DetectableNoncentrality) {
  EXPECT_NEAR(detectable_noncentrality(5, 0.05, 0.9), 16.4694642, 1e-5);
}

}  // namespace
}  // namespace shufl
