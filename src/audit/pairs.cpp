// position-pairs and the coupon collector tests (audit/pairs.hpp; docs/audit-laws.md).
#include "shufl/audit/pairs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>

#include "shufl/audit/laws.hpp"
#include "shufl/error.hpp"
#include "shufl/stats.hpp"

namespace shufl::audit {

std::vector<double> coupon_collector_law(std::span<const std::uint64_t> sizes, std::uint64_t others) {
  if (sizes.empty() || sizes.size() > 64) throw error("coupon collector: between 1 and 64 groups");
  std::uint64_t n = others;
  for (const auto s : sizes) {
    if (s == 0) throw error("coupon collector: an empty group");
    n += s;
  }
  using real = long double;
  // (1+x)^s, coefficients C(s, j).
  const auto binomial_row = [](std::uint64_t s) {
    std::vector<real> row(s + 1);
    row[0] = 1;
    for (std::uint64_t j = 0; j < s; ++j) row[j + 1] = row[j] * static_cast<real>(s - j) / static_cast<real>(j + 1);
    return row;
  };
  const auto times = [](const std::vector<real>& a, const std::vector<real>& b) {
    std::vector<real> out(a.size() + b.size() - 1, 0);
    for (std::size_t i = 0; i < a.size(); ++i) {
      for (std::size_t j = 0; j < b.size(); ++j) out[i + j] += a[i] * b[j];
    }
    return out;
  };
  // N_h(j) for each distinct group size: (1+x)^others · Π over the other groups of ((1+x)^s − 1).
  std::map<std::uint64_t, std::vector<real>> without;
  for (std::size_t h = 0; h < sizes.size(); ++h) {
    if (without.count(sizes[h]) != 0) continue;
    std::vector<real> poly = binomial_row(others);
    for (std::size_t g = 0; g < sizes.size(); ++g) {
      if (g == h) continue;
      std::vector<real> factor = binomial_row(sizes[g]);
      factor[0] = 0;
      poly = times(poly, factor);
    }
    without.emplace(sizes[h], std::move(poly));
  }
  std::vector<double> pmf(n + 1, 0.0);
  real choose = 1;  // C(n, t − 1)
  for (std::uint64_t t = 1; t <= n; ++t) {
    real sum = 0;
    for (const auto s : sizes) {
      const auto& poly = without.at(s);
      if (t - 1 < poly.size()) sum += static_cast<real>(s) * poly[t - 1];
    }
    pmf[t] = static_cast<double>(sum / (choose * static_cast<real>(n - t + 1)));
    choose = choose * static_cast<real>(n - (t - 1)) / static_cast<real>(t);
  }
  return pmf;
}

namespace {

// Cov(X_ab, X_cd) of one uniform deck (a ≠ b, c ≠ d), lag k.
double pair_covariance(std::size_t n, std::size_t k, std::size_t a, std::size_t b, std::size_t c, std::size_t d) {
  const double dn = static_cast<double>(n);
  const double m1 = static_cast<double>(n - k) / (dn * (dn - 1));
  const double far = 2 * k < n ? static_cast<double>(n - 2 * k) : 0.0;
  const double f3 = far / (dn * (dn - 1) * (dn - 2));
  const double nk = static_cast<double>(n - k);
  const double f4 = (nk * nk - nk - 2 * far) / (dn * (dn - 1) * (dn - 2) * (dn - 3));
  double e = 0;
  if (a == c && b == d) {
    e = m1;
  } else if (a != c && a != d && b != c && b != d) {
    e = f4;
  } else if ((b == c && a != d) || (a == d && b != c)) {
    e = f3;
  }
  return e - m1 * m1;
}

// vᵀ Σ v / vᵀv for a vector v given by its nonzero cells (a, b, value).
double rayleigh(std::size_t n, std::size_t k, std::span<const std::array<int, 3>> v) {
  double num = 0, norm = 0;
  for (const auto& x : v) {
    norm += x[2] * x[2];
    for (const auto& y : v) {
      num += x[2] * y[2] *
             pair_covariance(n, k, static_cast<std::size_t>(x[0]), static_cast<std::size_t>(x[1]),
                             static_cast<std::size_t>(y[0]), static_cast<std::size_t>(y[1]));
    }
  }
  return num / norm;
}

}  // namespace

pairs_wald position_pairs_wald(std::span<const std::uint64_t> counts, std::size_t n, std::size_t k,
                               std::uint64_t decks) {
  if (n < 4 || k == 0 || 2 * k >= n || counts.size() != n * n || decks == 0) {
    throw error("position-pairs: needs n >= 4, 1 <= k < n/2 and decks");
  }
  const double dn = static_cast<double>(n), T = static_cast<double>(decks);
  const double mu = static_cast<double>(n - k) / (dn * (dn - 1));
  std::vector<double> y(n * n, 0.0), r(n, 0.0), c(n, 0.0);
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      if (a == b) continue;
      const double v = static_cast<double>(counts[a * n + b]) - T * mu;
      y[a * n + b] = v;
      r[a] += v;
      c[b] += v;
    }
  }
  // Row and column sums: covariance T·[[p, s], [s, p]] ⊗ (I − J/n) on sum-zero vectors.
  const double p = static_cast<double>(k) * static_cast<double>(n - k) / (dn * (dn - 1));
  const double s = -static_cast<double>(k) * static_cast<double>(k) / (dn * (dn - 1));
  double rr = 0, cc = 0, rc = 0;
  for (std::size_t a = 0; a < n; ++a) {
    rr += r[a] * r[a];
    cc += c[a] * c[a];
    rc += r[a] * c[a];
  }
  const double q_margins = (p * rr - 2 * s * rc + p * cc) / ((p * p - s * s) * T);
  // What is left once the part u_a + v_b with those row and column sums is taken away.
  const double nn2 = dn * (dn - 2);
  std::vector<double> u(n), v(n);
  for (std::size_t a = 0; a < n; ++a) {
    u[a] = ((dn - 1) * r[a] + c[a]) / nn2;
    v[a] = ((dn - 1) * c[a] + r[a]) / nn2;
  }
  double sym = 0, anti = 0;
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = a + 1; b < n; ++b) {
      const double w1 = y[a * n + b] - u[a] - v[b], w2 = y[b * n + a] - u[b] - v[a];
      sym += 2 * ((w1 + w2) / 2) * ((w1 + w2) / 2);
      anti += 2 * ((w1 - w2) / 2) * ((w1 - w2) / 2);
    }
  }
  // One vector of each component: symmetric with zero row and column sums; a circulation.
  static constexpr std::array<std::array<int, 3>, 8> kSym = {{{0, 1, 1}, {1, 0, 1}, {2, 3, 1}, {3, 2, 1},
                                                              {0, 2, -1}, {2, 0, -1}, {1, 3, -1}, {3, 1, -1}}};
  static constexpr std::array<std::array<int, 3>, 6> kAnti = {{{0, 1, 1}, {1, 0, -1}, {1, 2, 1}, {2, 1, -1},
                                                               {2, 0, 1}, {0, 2, -1}}};
  const double l_sym = rayleigh(n, k, kSym), l_anti = rayleigh(n, k, kAnti);
  pairs_wald w;
  w.statistic = q_margins + sym / (T * l_sym) + anti / (T * l_anti);
  w.df = dn * (dn - 1) - 1;
  return w;
}

coupon_groups coupon_groups_of(const battery_shape& s, bool ranks) {
  coupon_groups g;
  const std::size_t F = s.faces();
  if (s.ranks == 0 || s.suit_of.size() != F || s.rank_of.size() != F || !s.whole()) return g;
  const std::size_t groups = ranks ? s.ranks : 4;
  if (groups > 64) return g;
  std::vector<std::uint64_t> cards(groups, 0);
  for (std::size_t f = 0; f < F; ++f) {
    const std::int8_t x = ranks ? s.rank_of[f] : s.suit_of[f];
    if (x >= 0 && static_cast<std::size_t>(x) < groups) cards[static_cast<std::size_t>(x)] += s.copies[f];
  }
  std::vector<std::uint8_t> bit(groups, 255);
  for (std::size_t x = 0; x < groups; ++x) {
    if (cards[x] == 0) continue;
    bit[x] = static_cast<std::uint8_t>(g.sizes.size());
    g.sizes.push_back(cards[x]);
  }
  if (g.sizes.size() < 2) {
    g.sizes.clear();
    return g;
  }
  g.full = g.sizes.size() == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << g.sizes.size()) - 1;
  g.group_of.assign(F, 255);
  for (std::size_t f = 0; f < F; ++f) {
    const std::int8_t x = ranks ? s.rank_of[f] : s.suit_of[f];
    if (x >= 0 && static_cast<std::size_t>(x) < groups) {
      g.group_of[f] = bit[static_cast<std::size_t>(x)];
    } else {
      g.others += s.copies[f];
    }
  }
  return g;
}

namespace {

// P(gap = j), j = 0..n−1 (0 beyond n − s), for a suit of s cards among n.
std::vector<long double> gap_law(std::size_t n, std::size_t s) {
  std::vector<long double> p(n, 0);
  p[0] = static_cast<long double>(s) / static_cast<long double>(n);
  for (std::size_t j = 0; j + 1 <= n - s; ++j) {
    p[j + 1] = p[j] * static_cast<long double>(n - j - s) / static_cast<long double>(n - j - 1);
  }
  return p;
}

// The report's p from the smallest ln p of `parts` Wald statistics (Bonferroni), floored at the
// most extreme outcome (one order in every deck, n! of them); observed/expected are W and df.
void set_bonferroni_p(test_report& r, double best_ln, std::size_t parts, std::size_t n, std::uint64_t decks) {
  test_result p;
  p.ln_p = std::min(0.0, best_ln + std::log(static_cast<double>(parts)));
  p.p_value = std::exp(p.ln_p);
  apply_floor(p, (1 - static_cast<double>(decks)) * std::lgamma(static_cast<double>(n) + 1));
  r.observed = r.statistic;
  r.expected = *r.df;
  r.p = p.p_value;
  r.ln_p = p.ln_p;
  r.p_bound = p.bound;
}

}  // namespace

std::size_t gap_last_bin(std::size_t n, std::size_t s, std::uint64_t decks) {
  if (s < 2 || s >= n) return 0;
  const auto p = gap_law(n, s);
  const long double m = static_cast<long double>(decks) * static_cast<long double>(s - 1);
  std::vector<long double> tail(n + 1, 0);  // P(gap ≥ j)
  for (std::size_t j = n; j-- > 0;) tail[j] = tail[j + 1] + p[j];
  if (m * p[0] < 5 || m * tail[1] < 5) return 0;
  std::size_t B = 1;
  while (B + 1 <= n - s && m * p[B] >= 5 && m * tail[B + 1] >= 5) ++B;
  return B;
}

pairs_wald gap_wald(std::span<const std::uint64_t> lengths, std::size_t n, std::size_t s, std::uint64_t decks,
                    std::size_t last_bin) {
  const std::size_t B = last_bin;
  if (s < 2 || s >= n || B < 1 || B > n - s || lengths.size() != n || decks == 0) {
    throw error("gap: needs 2 <= s < n, 1 <= B <= n - s and decks");
  }
  const auto p = gap_law(n, s);
  const auto bin = [B](std::size_t j) { return std::min(j, B); };
  std::vector<long double> pb(B + 1, 0);
  for (std::size_t j = 0; j < n; ++j) pb[bin(j)] += p[j];
  // Two gaps: Q(t) = C(n−t−2, s−2)/C(n, s) for lengths i + j = t.
  std::vector<long double> q(n, 0);
  q[0] = static_cast<long double>(s) * static_cast<long double>(s - 1) /
         (static_cast<long double>(n) * static_cast<long double>(n - 1));
  for (std::size_t t = 0; t + 1 <= n - s; ++t) {
    q[t + 1] = q[t] * static_cast<long double>(n - t - s) / static_cast<long double>(n - t - 2);
  }
  std::vector<long double> p2((B + 1) * (B + 1), 0);
  for (std::size_t i = 0; i <= n - s; ++i) {
    for (std::size_t j = 0; i + j <= n - s; ++j) p2[bin(i) * (B + 1) + bin(j)] += q[i + j];
  }
  const long double m = static_cast<long double>(s - 1), T = static_cast<long double>(decks);
  // The first B bins (the last is fixed by the total): covariance T·Σ, Cholesky, solve.
  std::vector<double> a(B * B), y(B);
  std::vector<std::uint64_t> counts(B + 1, 0);
  for (std::size_t j = 0; j < n; ++j) counts[bin(j)] += lengths[j];
  for (std::size_t i = 0; i < B; ++i) {
    y[i] = static_cast<double>(static_cast<long double>(counts[i]) - T * m * pb[i]);
    for (std::size_t j = 0; j < B; ++j) {
      const long double c = (i == j ? m * pb[i] : 0) + m * (m - 1) * p2[i * (B + 1) + j] - m * m * pb[i] * pb[j];
      a[i * B + j] = static_cast<double>(T * c);
    }
  }
  for (std::size_t j = 0; j < B; ++j) {
    double d = a[j * B + j];
    for (std::size_t k = 0; k < j; ++k) d -= a[j * B + k] * a[j * B + k];
    if (!(d > 0)) throw error("gap: the covariance is not positive definite");
    a[j * B + j] = std::sqrt(d);
    for (std::size_t i = j + 1; i < B; ++i) {
      double v = a[i * B + j];
      for (std::size_t k = 0; k < j; ++k) v -= a[i * B + k] * a[j * B + k];
      a[i * B + j] = v / a[j * B + j];
    }
  }
  // W = |L⁻¹ y|².
  double w = 0;
  std::vector<double> z(B);
  for (std::size_t i = 0; i < B; ++i) {
    double v = y[i];
    for (std::size_t k = 0; k < i; ++k) v -= a[i * B + k] * z[k];
    z[i] = v / a[i * B + i];
    w += z[i] * z[i];
  }
  return {w, static_cast<double>(B)};
}

test_report gap_test(std::span<const std::uint64_t> counts, const coupon_groups& g, std::size_t n, std::uint64_t decks) {
  test_report r;
  r.name = "gap";
  r.decks = decks;
  r.tail = "upper";
  double best_ln = 0;
  std::size_t tested = 0, least = 0;
  std::string per_suit;
  for (std::size_t h = 0; h < g.sizes.size(); ++h) {
    const std::size_t s = static_cast<std::size_t>(g.sizes[h]);
    if (s < 2 || s >= n) continue;
    const std::size_t B = gap_last_bin(n, s, decks);
    if (B == 0) {
      least = std::max<std::size_t>(least, 1);
      continue;
    }
    const pairs_wald w = gap_wald(counts.subspan(h * n, n), n, s, decks, B);
    const test_result t = chi_squared_upper_tail(w.statistic, w.df);
    if (tested == 0 || t.ln_p < best_ln) {
      best_ln = t.ln_p;
      r.statistic = w.statistic;
      r.df = w.df;
    }
    per_suit += fmt::format("{}group {}: W = {:.6g}, df {}", tested == 0 ? "" : "; ", h + 1, w.statistic, B);
    ++tested;
  }
  if (tested == 0 || least > 0) {
    r.result = test_outcome::not_valid;
    r.note = "fewer than 5 gaps expected of length 0 or of 1 or more: the chi-squared approximation needs more decks";
    r.df.reset();
    return r;
  }
  set_bonferroni_p(r, best_ln, tested, n, decks);
  r.law = fmt::format("chi-squared, df B per suit: the Wald statistic of the histogram of gaps between consecutive cards "
                      "of one suit (lengths 0..B-1, B or more), against its exact null mean and covariance (exchangeable "
                      "gaps); Bonferroni over {} suits ({})",
                      tested, per_suit);
  r.result = test_outcome::pass;
  return r;
}

bool position_pairs_apply(const battery_shape& s) noexcept {
  return s.distinct() && s.whole() && s.cards >= 4 && s.cards <= max_law_cards && s.lags >= 1 &&
         2 * s.lags < s.cards;
}

void check_pair_cells(const battery_shape& s) {
  if (!position_pairs_apply(s)) return;
  const std::uint64_t n2 = static_cast<std::uint64_t>(s.faces()) * s.faces();
  if (s.lags * n2 <= max_pair_cells) return;
  throw error(fmt::format("--lags {}: position-pairs would count {} x {}^2 = {} pairs of cards, more than the {} this "
                          "version keeps (128 MiB per thread): at {} cards give --lags {} or fewer",
                          s.lags, s.lags, s.faces(), s.lags * n2, max_pair_cells, s.faces(), max_pair_cells / n2));
}

std::size_t pair_table_threads(const battery_shape& s, std::size_t threads) noexcept {
  if (!position_pairs_apply(s)) return threads;
  const std::uint64_t cells = static_cast<std::uint64_t>(s.lags) * s.faces() * s.faces();
  return std::max<std::size_t>(1, std::min<std::uint64_t>(threads, 2 * max_pair_cells / std::max<std::uint64_t>(1, cells)));
}

test_report position_pairs_test(std::span<const std::uint64_t> counts, std::size_t n, std::size_t lags,
                                std::uint64_t decks) {
  test_report r;
  r.name = "position-pairs";
  r.decks = decks;
  r.tail = "upper";
  const std::size_t n2 = n * n;
  double best_ln = 0;
  std::string per_lag;
  for (std::size_t k = 1; k <= lags; ++k) {
    const pairs_wald w = position_pairs_wald(counts.subspan((k - 1) * n2, n2), n, k, decks);
    const test_result t = chi_squared_upper_tail(w.statistic, w.df);
    if (k == 1 || t.ln_p < best_ln) {
      best_ln = t.ln_p;
      r.statistic = w.statistic;
      r.df = w.df;
    }
    per_lag += fmt::format("{}lag {}: W = {:.6g}", k == 1 ? "" : "; ", k, w.statistic);
  }
  set_bonferroni_p(r, best_ln, lags, n, decks);
  r.law = fmt::format("chi-squared, {} df per lag: the Wald statistic of the pair table (card at i, card at i+k) "
                      "pooled over i, against its exact null mean and covariance (rank n(n-1)-1); lags 1..{}, "
                      "Bonferroni ({})",
                      *r.df, lags, per_lag);
  const double expected = static_cast<double>(decks) * static_cast<double>(n - lags) /
                          (static_cast<double>(n) * static_cast<double>(n - 1));
  if (expected < 5) {
    r.result = test_outcome::not_valid;
    r.note = fmt::format("each pair of cards expects {:.3g} at lag {}, below 5: the chi-squared approximation needs "
                         "more decks",
                         expected, lags);
  } else {
    r.result = test_outcome::pass;
  }
  return r;
}

}  // namespace shufl::audit
