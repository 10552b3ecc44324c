// Exact per-deck null laws (integer counts in cpp_int, divided by n! once) and the tails of their
// sums over T decks (tilted exact convolution, or the Lugannani–Rice saddlepoint with Daniels'
// second continuity correction). Formulas and sources: include/shufl/audit/laws.hpp and
// docs/audit-laws.md.
#include "shufl/audit/laws.hpp"

#include <algorithm>
#include <array>
#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <string>
#include <utility>

#include "shufl/error.hpp"

namespace shufl::audit {
namespace {

using boost::multiprecision::cpp_int;

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double ln_sqrt_2pi = 0.91893853320467274178;

// ---------------------------------------------------------------------------------------------
// Exact counts → doubles.

/// The nearest double to a / b (0 <= a <= b, b > 0): a 64-bit quotient with a sticky bit, so
/// the one conversion to double rounds correctly (then ldexp; subnormal results may round twice).
double ratio(const cpp_int& a, const cpp_int& b) {
  if (a == 0) return 0.0;
  const long shift = 63 + static_cast<long>(msb(b)) - static_cast<long>(msb(a));
  cpp_int num = shift >= 0 ? cpp_int(a << static_cast<unsigned>(shift))
                           : cpp_int(a >> static_cast<unsigned>(-shift));
  cpp_int q, r;
  divide_qr(num, b, q, r);
  auto bits = q.convert_to<std::uint64_t>();  // in [2^62, 2^64)
  if (r != 0) bits |= 1U;                     // sticky: at least 9 bits below the double's last
  return std::ldexp(static_cast<double>(bits), static_cast<int>(-shift));
}

std::vector<double> to_law(const std::vector<cpp_int>& counts, const cpp_int& total) {
  std::vector<double> law(counts.size());
  for (std::size_t k = 0; k < counts.size(); ++k) law[k] = ratio(counts[k], total);
  return law;
}

cpp_int factorial(std::size_t n) {
  cpp_int f = 1;
  for (std::size_t i = 2; i <= n; ++i) f *= static_cast<std::uint64_t>(i);
  return f;
}

/// Row n of Pascal's triangle: C(n, 0..n).
std::vector<cpp_int> binomial_row(std::size_t n) {
  std::vector<cpp_int> row(n + 1);
  row[0] = 1;
  for (std::size_t k = 0; k < n; ++k) row[k + 1] = row[k] * (n - k) / (k + 1);
  return row;
}

void check_cards(std::size_t n) {
  if (n < 1 || n > max_law_cards)
    throw error("audit: exact laws need 1 to " + std::to_string(max_law_cards) + " cards, not " +
                std::to_string(n));
}

// ---------------------------------------------------------------------------------------------
// The counts of each law (sum n!).

std::vector<cpp_int> fixed_points_counts(std::size_t n) {
  std::vector<cpp_int> d(n + 1);  // derangements D(m) = (m−1)(D(m−1) + D(m−2))
  d[0] = 1;
  if (n >= 1) d[1] = 0;
  for (std::size_t m = 2; m <= n; ++m) d[m] = (m - 1) * (d[m - 1] + d[m - 2]);
  const auto c = binomial_row(n);
  std::vector<cpp_int> counts(n + 1);
  for (std::size_t k = 0; k <= n; ++k) counts[k] = c[k] * d[n - k];
  return counts;
}

std::vector<cpp_int> successions_counts(std::size_t n) {
  std::vector<cpp_int> a(n);  // A000255: a(m) = m·a(m−1) + (m−1)·a(m−2), a(0) = a(1) = 1
  a[0] = 1;
  if (n >= 2) a[1] = 1;
  for (std::size_t m = 2; m < n; ++m) a[m] = m * a[m - 1] + (m - 1) * a[m - 2];
  const auto c = binomial_row(n - 1);
  std::vector<cpp_int> counts(n);
  for (std::size_t k = 0; k < n; ++k) counts[k] = c[k] * a[n - 1 - k];
  return counts;
}

std::vector<cpp_int> adjacent_pairs_counts(std::size_t n) {
  if (n == 1) return {cpp_int(1)};
  // N(j): Σ over sets of j of the n−1 neighbour pairs {i, i+1} of the permutations in which every
  // chosen pair is adjacent. j chosen pairs in b runs glue j+... cards into b blocks (each in 2
  // orientations) among n − j units: (n−j)!·2^b; sets of j pairs forming b runs on a path of n−1
  // pairs: C(j−1, b−1)·C(n−j, b).
  std::vector<cpp_int> fact(n + 1);
  fact[0] = 1;
  for (std::size_t i = 1; i <= n; ++i) fact[i] = fact[i - 1] * i;
  std::vector<cpp_int> big_n(n);
  big_n[0] = fact[n];
  for (std::size_t j = 1; j < n; ++j) {
    cpp_int sum = 0;
    cpp_int c1 = 1;      // C(j−1, b−1) at b = 1
    cpp_int c2 = n - j;  // C(n−j, b) at b = 1
    cpp_int pow2 = 2;
    for (std::size_t b = 1; b <= std::min(j, n - j); ++b) {
      sum += c1 * c2 * pow2;
      c1 = c1 * (j - b) / b;                   // C(j−1, b)
      c2 = c2 * (n - j - b) / (b + 1);         // C(n−j, b+1)
      pow2 <<= 1;
    }
    big_n[j] = fact[n - j] * sum;
  }
  // Exactly k: E(z) = Σ_j N(j)·(z − 1)^j, by Horner's rule.
  std::vector<cpp_int> poly{big_n[n - 1]};
  poly.reserve(n);
  for (std::size_t j = n - 1; j-- > 0;) {  // poly ← poly·(z − 1) + N(j), in place
    poly.emplace_back(0);
    for (std::size_t i = poly.size() - 1; i >= 1; --i) {
      poly[i] -= poly[i - 1];  // poly[i] = poly[i−1] − poly[i] (poly[i−1] is still old)
      poly[i].backend().negate();
    }
    poly[0] = big_n[j] - poly[0];
  }
  return poly;
}

std::vector<cpp_int> eulerian_counts(std::size_t n) {
  // A(m, k) = (k+1)·A(m−1, k) + (m−k)·A(m−1, k−1), A(1, 0) = 1.
  std::vector<cpp_int> row{cpp_int(1)};
  row.reserve(n);
  cpp_int tmp;
  for (std::size_t m = 2; m <= n; ++m) {  // in place, from the top index down
    row.emplace_back(0);
    for (std::size_t k = m; k-- > 0;) {
      row[k] *= k + 1;
      if (k >= 1) {
        tmp = row[k - 1];
        tmp *= m - k;
        row[k] += tmp;
      }
    }
  }
  return row;
}

std::vector<cpp_int> runs_counts(std::size_t n) {
  if (n == 1) return {cpp_int(1)};
  // David–Barton: R(m, r) = r·R(m−1, r) + 2·R(m−1, r−1) + (m−r)·R(m−1, r−2), R(2, 1) = 2.
  std::vector<cpp_int> row{cpp_int(0), cpp_int(2)};  // index r = 0..m−1 at m = 2
  row.reserve(n);
  cpp_int tmp;
  for (std::size_t m = 3; m <= n; ++m) {  // in place, from the top index down
    row.emplace_back(0);
    for (std::size_t r = m - 1; r >= 1; --r) {
      row[r] *= r;
      tmp = row[r - 1];
      tmp <<= 1;
      row[r] += tmp;
      if (r >= 2) {
        tmp = row[r - 2];
        tmp *= m - r;
        row[r] += tmp;
      }
    }
  }
  return row;
}

std::vector<cpp_int> stirling_cycle_counts(std::size_t n) {
  // Π_{k=1..n} (z + k − 1): unsigned Stirling numbers of the first kind c(n, j).
  std::vector<cpp_int> poly{cpp_int(1)};
  poly.reserve(n + 1);
  for (std::size_t k = 1; k <= n; ++k) {  // poly ← poly·(z + k − 1), in place
    poly.emplace_back(0);
    for (std::size_t i = poly.size() - 1; i >= 1; --i) {
      poly[i] *= k - 1;
      poly[i] += poly[i - 1];
    }
    poly[0] *= k - 1;
  }
  return poly;
}

enum class law_id { fixed_points, successions, adjacent_pairs, descents, runs, guessing };

/// The law of `id` at n, computed once per (law, n) and process.
std::vector<double> cached_law(law_id id, std::size_t n,
                               std::vector<cpp_int> (*counts)(std::size_t)) {
  check_cards(n);
  static std::mutex mutex;
  static std::map<std::pair<int, std::size_t>, std::vector<double>> cache;
  const auto key = std::make_pair(static_cast<int>(id), n);
  {
    std::lock_guard lock(mutex);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
  }
  auto law = to_law(counts(n), factorial(n));
  std::lock_guard lock(mutex);
  cache.emplace(key, law);
  return law;
}

// ---------------------------------------------------------------------------------------------
// Sums over decks: the reduced lattice and its cumulant generating function.

/// The per-deck law on its own lattice: X = lo + span·J, J in 0..m with p[0] > 0 and p[m] > 0.
struct lattice {
  std::vector<double> p, lnp, d;  // probabilities, their logs, J − mean
  std::uint64_t lo = 0, span = 1, m = 0;
  double mean = 0, var = 0;       // of J
  double dmin = 0, dmax = 0;      // −mean, m − mean
};

lattice make_lattice(std::span<const double> pmf) {
  if (pmf.empty()) throw error("audit: empty per-deck law");
  double total = 0;
  for (double x : pmf) {
    if (!(x >= 0) || !std::isfinite(x)) throw error("audit: a per-deck probability is negative or not finite");
    total += x;
  }
  if (!(total > 0)) throw error("audit: the per-deck law has no mass");
  std::size_t lo = 0, hi = pmf.size() - 1;
  while (pmf[lo] == 0) ++lo;
  while (pmf[hi] == 0) --hi;
  std::uint64_t g = 0;
  for (std::size_t k = lo; k <= hi; ++k)
    if (pmf[k] > 0) g = std::gcd(g, static_cast<std::uint64_t>(k - lo));
  lattice L;
  L.lo = lo;
  L.span = g == 0 ? 1 : g;
  L.m = (hi - lo) / L.span;
  L.p.resize(L.m + 1);
  for (std::size_t j = 0; j <= L.m; ++j) L.p[j] = pmf[lo + j * L.span] / total;
  double mu = 0;
  for (std::size_t j = 0; j <= L.m; ++j) mu += static_cast<double>(j) * L.p[j];
  L.mean = mu;
  L.lnp.resize(L.m + 1);
  L.d.resize(L.m + 1);
  double var = 0;
  for (std::size_t j = 0; j <= L.m; ++j) {
    L.lnp[j] = L.p[j] > 0 ? std::log(L.p[j]) : -inf;
    L.d[j] = static_cast<double>(j) - mu;
    var += L.p[j] * L.d[j] * L.d[j];
  }
  L.var = var;
  L.dmin = -mu;
  L.dmax = static_cast<double>(L.m) - mu;
  return L;
}

lattice mirrored(const lattice& L) {
  lattice R = L;
  std::reverse(R.p.begin(), R.p.end());
  std::reverse(R.lnp.begin(), R.lnp.end());
  R.mean = static_cast<double>(L.m) - L.mean;
  for (std::size_t j = 0; j <= R.m; ++j) R.d[j] = static_cast<double>(j) - R.mean;
  R.dmin = -R.mean;
  R.dmax = static_cast<double>(R.m) - R.mean;
  return R;
}

/// e^y − 1 − y without cancellation for small |y|.
double exp_m1_m_id(double y) noexcept {
  if (std::abs(y) > 0.5) return std::expm1(y) - y;
  double term = y * y / 2, sum = term;
  for (int k = 3; k < 40 && std::abs(term) > 1e-18 * std::abs(sum); ++k) {
    term *= y / k;
    sum += term;
  }
  return sum;
}

/// The centred cumulant generating function K̃(t) = ln E e^{t(J − mean)} and the tilted
/// cumulants at t: k1 = K̃'(t) (tilted mean − mean), k2..k4.
struct cgf_point {
  double k0 = 0, k1 = 0, k2 = 0, k3 = 0, k4 = 0;
};

cgf_point cgf(const lattice& L, double t) noexcept {
  cgf_point c;
  const double reach = std::max(-L.dmin, L.dmax);
  double shift = -inf;
  for (std::size_t j = 0; j <= L.m; ++j)
    if (L.p[j] > 0) shift = std::max(shift, L.lnp[j] + t * L.d[j]);
  double s0 = 0, s1 = 0;
  std::vector<double> w(L.m + 1);
  for (std::size_t j = 0; j <= L.m; ++j) {
    w[j] = L.p[j] > 0 ? std::exp(L.lnp[j] + t * L.d[j] - shift) : 0.0;
    s0 += w[j];
    s1 += w[j] * L.d[j];
  }
  if (std::abs(t) * reach <= 0.5) {
    // Small t: K̃ = log1p(Σ p (e^{td} − 1 − td)), K̃' = Σ p d (e^{td} − 1) / (1 + …): every term has
    // the sign of t, no cancellation (Σ p d = 0 is taken as exact).
    double a = 0, b = 0;
    for (std::size_t j = 0; j <= L.m; ++j) {
      const double y = t * L.d[j];
      a += L.p[j] * exp_m1_m_id(y);
      b += L.p[j] * L.d[j] * std::expm1(y);
    }
    c.k0 = std::log1p(a);
    c.k1 = b / (1 + a);
  } else {
    c.k0 = shift + std::log(s0);
    c.k1 = s1 / s0;
  }
  double m2 = 0, m3 = 0, m4 = 0;
  for (std::size_t j = 0; j <= L.m; ++j) {
    const double e = L.d[j] - c.k1, e2 = e * e;
    m2 += w[j] * e2;
    m3 += w[j] * e2 * e;
    m4 += w[j] * e2 * e2;
  }
  m2 /= s0;
  m3 /= s0;
  m4 /= s0;
  c.k2 = m2;
  c.k3 = m3;
  c.k4 = m4 - 3 * m2 * m2;
  return c;
}

/// The t with K̃'(t) = z, for z strictly inside (dmin, dmax): Newton's method kept inside a
/// bracket (bisection when a step leaves it).
double solve_saddle(const lattice& L, double z) noexcept {
  double lo = -1, hi = 1;
  for (int i = 0; i < 200 && cgf(L, hi).k1 < z; ++i) lo = hi, hi *= 2;
  for (int i = 0; i < 200 && cgf(L, lo).k1 > z; ++i) hi = lo, lo *= 2;
  double t = std::clamp(L.var > 0 ? z / L.var : 0.0, lo, hi);
  for (int it = 0; it < 200; ++it) {
    const cgf_point c = cgf(L, t);
    const double f = c.k1 - z;
    if (f == 0) return t;
    if (f < 0) lo = t; else hi = t;
    double next = c.k2 > 0 ? t - f / c.k2 : 0.5 * (lo + hi);
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (std::abs(next - t) <= 1e-15 * std::max(1.0, std::abs(t)) || hi - lo <= 1e-300) return next;
    t = next;
  }
  return t;
}

// ---------------------------------------------------------------------------------------------
// Exact tails: the law tilted to put its mean at the observed value, convolved T times by binary
// powering in doubles (the tilted law's mass sits near the observed value, so nothing that
// matters underflows), trimmed to the part above 1e-40 of its largest entry.

struct window {
  std::size_t offset = 0;
  std::vector<double> c;
};

void trim(window& w) {
  double top = 0;
  for (double x : w.c) top = std::max(top, x);
  const double floor = top * 1e-40;
  std::size_t b = 0, e = w.c.size();
  while (b < e && w.c[b] <= floor) ++b;
  while (e > b && w.c[e - 1] <= floor) --e;
  w.c = std::vector<double>(w.c.begin() + static_cast<std::ptrdiff_t>(b),
                            w.c.begin() + static_cast<std::ptrdiff_t>(e));
  w.offset += b;
}

window convolve(const window& a, const window& b) {
  window r;
  r.offset = a.offset + b.offset;
  r.c.assign(a.c.size() + b.c.size() - 1, 0.0);
  for (std::size_t i = 0; i < a.c.size(); ++i) {
    const double x = a.c[i];
    if (x == 0) continue;
    double* out = r.c.data() + i;
    for (std::size_t j = 0; j < b.c.size(); ++j) out[j] += x * b.c[j];
  }
  trim(r);
  return r;
}

struct ln_pair {
  double upper = 0, lower = 0;  // ln P(S ≥ a), ln P(S ≤ a)
};

/// ln(1 − e^x) for x <= 0.
double ln1m_exp(double x) noexcept {
  if (x >= 0) return -inf;
  return x > -0.6931471805599453 ? std::log(-std::expm1(x)) : std::log1p(-std::exp(x));
}

ln_pair exact_tails(const lattice& L, std::uint64_t T, std::uint64_t a) {
  const double Td = static_cast<double>(T);
  const std::uint64_t top = T * L.m;
  if (a == 0) return {0.0, Td * L.lnp[0]};
  if (a >= top) return {Td * L.lnp[L.m], 0.0};
  const double z = static_cast<double>(a) / Td - L.mean;
  const double theta = solve_saddle(L, z);
  const double k0 = cgf(L, theta).k0;  // ln E e^{θ(J − mean)}
  window base;
  base.c.resize(L.m + 1);
  for (std::size_t j = 0; j <= L.m; ++j)
    base.c[j] = L.p[j] > 0 ? std::exp(L.lnp[j] + theta * L.d[j] - k0) : 0.0;
  trim(base);
  window result{0, {1.0}};
  for (std::uint64_t e = T;;) {
    if (e & 1U) result = convolve(result, base);
    e >>= 1U;
    if (e == 0) break;
    base = convolve(base, base);
  }
  // P(S = j) = r_j · exp(T·K̃(θ) − θ·(j − T·mean)).
  const double ln_scale = Td * k0 - theta * (static_cast<double>(a) - Td * L.mean);
  double near = 0, point = 0;  // Σ over the small side of r_j e^{−θ(j − a)}, and r_a
  for (std::size_t i = 0; i < result.c.size(); ++i) {
    const std::uint64_t j = result.offset + i;
    const double x = result.c[i];
    if (j == a) point = x;
    const double wgt = std::exp(-theta * (static_cast<double>(j) - static_cast<double>(a)));
    if (theta >= 0 ? j >= a : j <= a) near += x * wgt;
  }
  ln_pair r;
  const double ln_near = std::log(near) + ln_scale;
  const double ln_point = point > 0 ? std::log(point) + ln_scale : -inf;
  // The other side is 1 − (the small side without the point a).
  const double ln_strict = ln_point == -inf ? ln_near : ln_near + ln1m_exp(ln_point - ln_near);
  const double ln_far = ln1m_exp(std::min(ln_strict, 0.0));
  if (theta >= 0) {
    r.upper = std::min(ln_near, 0.0);
    r.lower = ln_far;
  } else {
    r.lower = std::min(ln_near, 0.0);
    r.upper = ln_far;
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// Saddlepoint tails.

/// Mills' ratio (1 − Φ(w)) / φ(w) for w >= 0.
double mills(double w) noexcept {
  if (w < 20) return 0.5 * std::erfc(w / std::sqrt(2.0)) * std::exp(w * w / 2 + ln_sqrt_2pi);
  double f = w;  // continued fraction w + 1/(w + 2/(w + 3/(w + …)))
  for (int k = 60; k >= 1; --k) f = w + k / f;
  return 1 / f;
}

struct lr_value {
  double ln_p = 0;
  double error = 0;  // the size of the next term (λ4/8 + 5λ3²/24 at the saddlepoint)
};

/// Lugannani–Rice for P(S ≥ a) with Daniels' second continuity correction, at the continuous
/// point y = a − 1/2 (0 < y < T·m): K̃'(t) = y/T − mean, w = sgn(t)·√(2T(t·z − K̃(t))),
/// u = 2 sinh(t/2)·√(T·K̃''(t)), P ≈ 1 − Φ(w) − φ(w)(1/w − 1/u).
lr_value lr_at(const lattice& L, double Td, double y) noexcept {
  const double z = y / Td - L.mean;
  const double t = solve_saddle(L, z);
  const cgf_point c = cgf(L, t);
  const double w2 = std::max(0.0, 2 * Td * (t * z - c.k0));
  const double w = std::copysign(std::sqrt(w2), t);
  const double u = 2 * std::sinh(t / 2) * std::sqrt(Td * c.k2);
  lr_value r;
  const double l3 = c.k3 / std::pow(c.k2, 1.5) / std::sqrt(Td);
  const double l4 = c.k4 / (c.k2 * c.k2) / Td;
  r.error = std::abs(l4) / 8 + 5 * l3 * l3 / 24;
  if (w > 0) {
    double bracket = mills(w) + (1 / u - 1 / w);
    if (!(bracket > 0)) bracket = 1 / u;  // never met on the test grid; the density term alone
    r.ln_p = -w2 / 2 - ln_sqrt_2pi + std::log(bracket);
  } else {
    const double p = 0.5 * std::erfc(w / std::sqrt(2.0)) +
                     std::exp(-w2 / 2 - ln_sqrt_2pi) * (1 / u - 1 / w);
    r.ln_p = std::log(std::clamp(p, 0.0, 1.0));
  }
  return r;
}

/// The saddlepoint mass function of S' at the lattice point j (0 < j < T·m) with its first
/// correction (H. E. Daniels, Ann. Math. Statist. 1954, (2.6) and §7 for lattice variables):
/// e^{T(K̃(t) − t·z)} / √(2π T K̃''(t)) · (1 + λ4/8 − 5λ3²/24), K̃'(t) = z = j/T − mean.
struct mass_value {
  double ln_mass = 0, t = 0, error = 0;
};
mass_value saddle_mass(const lattice& L, double Td, double j) noexcept {
  const double z = j / Td - L.mean;
  const double t = solve_saddle(L, z);
  const cgf_point c = cgf(L, t);
  const double l3 = c.k3 / std::pow(c.k2, 1.5) / std::sqrt(Td);
  const double l4 = c.k4 / (c.k2 * c.k2) / Td;
  const double correction = l4 / 8 - 5 * l3 * l3 / 24;
  mass_value r;
  r.t = t;
  r.ln_mass = -Td * (t * z - c.k0) - ln_sqrt_2pi - 0.5 * std::log(Td * c.k2) +
              std::log1p(std::max(correction, -0.5));
  r.error = correction * correction + std::abs(l4) / 8 * std::abs(l4) + l3 * l3 * std::abs(l4);
  return r;
}

/// P(S' >= a) as the sum of saddlepoint masses of a, a+1, … (plus the exact P(S' = T·m)), for
/// far tails where the terms fall geometrically (ratio about e^{−t}).
lr_value mass_sum_upper(const lattice& L, std::uint64_t T, std::uint64_t a) noexcept {
  const double Td = static_cast<double>(T);
  const std::uint64_t top = T * L.m;
  double ln_sum = Td * L.lnp[L.m], error = 0;
  for (std::uint64_t j = a; j < top; ++j) {
    const mass_value v = saddle_mass(L, Td, static_cast<double>(j));
    const double hi = std::max(ln_sum, v.ln_mass), lo = std::min(ln_sum, v.ln_mass);
    ln_sum = hi + std::log1p(std::exp(lo - hi));
    error = std::max(error, v.error);
    if (v.ln_mass < ln_sum - 40 || j - a > 100000) break;
  }
  return {ln_sum, error};
}

/// Below this |w| the formula's 1/w − 1/u cancels: interpolate linearly between w ≈ ±delta.
constexpr double lr_delta = 3e-3;


/// Aliasing: the saddlepoint approximations assume the tilted law is far from periodic; the
/// size of what they leave out is max over ω of |E_t e^{iωJ}|^T (ω = π, 2π/3, π/2, 2π/5: span-2
/// to span-5 near-periodicity, e.g. fixed points near n, where n − 1 is impossible).
double aliasing(const lattice& L, double Td, double t) noexcept {
  double shift = -inf;
  for (std::size_t j = 0; j <= L.m; ++j)
    if (L.p[j] > 0) shift = std::max(shift, L.lnp[j] + t * L.d[j]);
  double worst = 0;
  for (double k : {2.0, 3.0, 4.0, 5.0}) {
    const double omega = 2 * 3.14159265358979323846 / k;
    double re = 0, im = 0, total = 0;
    for (std::size_t j = 0; j <= L.m; ++j) {
      if (L.p[j] == 0) continue;
      const double w = std::exp(L.lnp[j] + t * L.d[j] - shift);
      re += w * std::cos(omega * static_cast<double>(j));
      im += w * std::sin(omega * static_cast<double>(j));
      total += w;
    }
    worst = std::max(worst, std::hypot(re, im) / total);
  }
  return worst >= 1 ? 1.0 : std::exp(Td * std::log(worst));
}

/// ln Σ_{k<=D} b_k, b_k the coefficients of (Σ_j p_j x^j)^T (p_0 > 0), by J. C. P. Miller's
/// recurrence b_k = Σ_{j=1..k} ((T+1)j − k) p_j b_{k−j} / (k p_0) (Knuth, TAOCP vol. 2, §4.7) in
/// logs. For D <= T every term is positive, so the sum has no cancellation: relative error about
/// D·(m+1) units in the last place.
double ln_cdf_by_powers(const std::vector<double>& lnp, double Td, std::uint64_t D) {
  const std::size_t m = lnp.size() - 1;
  std::vector<double> lnb(D + 1);
  lnb[0] = Td * lnp[0];
  double ln_sum = lnb[0];
  std::vector<double> terms;
  for (std::uint64_t k = 1; k <= D; ++k) {
    terms.clear();
    double top = -inf;
    for (std::size_t j = 1; j <= std::min<std::uint64_t>(k, m); ++j) {
      if (lnp[j] == -inf) continue;
      const double c = (Td + 1) * static_cast<double>(j) - static_cast<double>(k);
      const double x = std::log(c) + lnp[j] + lnb[k - j];
      terms.push_back(x);
      top = std::max(top, x);
    }
    double acc = 0;
    for (double x : terms) acc += std::exp(x - top);
    lnb[k] = top + std::log(acc) - std::log(static_cast<double>(k)) - lnp[0];
    const double hi = std::max(ln_sum, lnb[k]), lo = std::min(ln_sum, lnb[k]);
    ln_sum = hi + std::log1p(std::exp(lo - hi));
  }
  return ln_sum;
}

/// Deficits from the top of the support up to this many lattice steps (and at most T) are summed
/// exactly by ln_cdf_by_powers instead of approximated.
constexpr std::uint64_t end_exact_steps = 2000;
/// From this saddlepoint t on, the upper tail is the sum of saddlepoint masses.
constexpr double mass_sum_from = 1.0;

/// P(S' >= a) in the saddlepoint regime, with its error terms: `error` is the size of the next
/// term of the expansion (multiplied by saddle_error_factor), `alias` is added as it is.
struct side_value {
  double ln_p = 0, error = 0, alias = 0;
};

side_value saddle_upper(const lattice& L, std::uint64_t T, std::uint64_t a) {
  const double Td = static_cast<double>(T);
  const std::uint64_t top = T * L.m;
  if (a == 0) return {0.0, 0.0, 0.0};
  if (a >= top) return {Td * L.lnp[L.m], 0.0, 0.0};
  const std::uint64_t deficit = top - a;
  if (deficit <= std::min(T, end_exact_steps)) {
    std::vector<double> reversed(L.lnp.rbegin(), L.lnp.rend());
    const double rounding = 8.0 * static_cast<double>(deficit + 1) * static_cast<double>(L.m + 1) *
                            std::numeric_limits<double>::epsilon();
    return {std::min(0.0, ln_cdf_by_powers(reversed, Td, deficit)), 0.0, rounding};
  }
  const double t_point = solve_saddle(L, static_cast<double>(a) / Td - L.mean);
  const double alias = aliasing(L, Td, t_point);
  if (t_point >= mass_sum_from) {
    const lr_value v = mass_sum_upper(L, T, a);
    return {v.ln_p, v.error, alias};
  }
  const double y = static_cast<double>(a) - 0.5;
  const double centre = Td * L.mean, sd = std::sqrt(Td * L.var);
  const double h = lr_delta * sd;
  if (std::abs(y - centre) >= h || centre - h <= 0 || centre + h >= static_cast<double>(top)) {
    const lr_value v = lr_at(L, Td, y);
    return {v.ln_p, v.error, alias};
  }
  const lr_value lo = lr_at(L, Td, centre - h), hi = lr_at(L, Td, centre + h);
  const double f = (y - (centre - h)) / (2 * h);
  const double p = (1 - f) * std::exp(lo.ln_p) + f * std::exp(hi.ln_p);
  return {std::log(p), std::max(lo.error, hi.error), alias};
}

/// The stated relative error of a saddlepoint tail: C times the size of the next term of the
/// expansion, plus aliasing, plus the floor of the numerical evaluation (see laws.hpp).
constexpr double saddle_error_factor = 2.0;
constexpr double saddle_error_floor = 1e-6;

}  // namespace

std::vector<double> fixed_points_law(std::size_t n) {
  return cached_law(law_id::fixed_points, n, fixed_points_counts);
}
std::vector<double> successions_law(std::size_t n) {
  return cached_law(law_id::successions, n, successions_counts);
}
std::vector<double> adjacent_pairs_law(std::size_t n) {
  return cached_law(law_id::adjacent_pairs, n, adjacent_pairs_counts);
}
std::vector<double> descents_law(std::size_t n) {
  return cached_law(law_id::descents, n, eulerian_counts);
}
std::vector<double> rising_sequences_law(std::size_t n) {
  auto law = descents_law(n);
  law.insert(law.begin(), 0.0);
  return law;
}
std::vector<double> runs_up_down_law(std::size_t n) {
  return cached_law(law_id::runs, n, runs_counts);
}
std::vector<double> guessing_law(std::size_t n) {
  return cached_law(law_id::guessing, n, stirling_cycle_counts);
}

double total_tail::ln_two_sided() const noexcept {
  return std::min(0.0, std::log(2.0) + std::min(ln_upper, ln_lower));
}

total_tail total_tails(std::span<const double> pmf, std::uint64_t T, std::uint64_t s,
                       std::uint64_t exact_limit) {
  const lattice L = make_lattice(pmf);
  if (T > 0 && pmf.size() >= (std::uint64_t{1} << 52) / T)
    throw error("audit: too many decks for a total (" + std::to_string(T) + ")");
  total_tail r;
  const double Td = static_cast<double>(T);
  const double span = static_cast<double>(L.span);
  r.mean = Td * (static_cast<double>(L.lo) + span * L.mean);
  r.variance = Td * span * span * L.var;
  r.exact = true;
  const std::uint64_t base = T * L.lo, top = T * L.m;  // S = base + span·S', S' in 0..top
  // Upper: S ≥ s ⟺ S' ≥ a_up; lower: S ≤ s ⟺ S' ≤ a_lo.
  const bool upper_all = s <= base;
  const bool lower_none = s < base;
  const std::uint64_t a_up = upper_all ? 0 : (s - base + L.span - 1) / L.span;
  const std::uint64_t a_lo = lower_none ? 0 : (s - base) / L.span;
  const bool upper_none = !upper_all && a_up > top;
  const bool lower_all = !lower_none && a_lo >= top;
  if (T == 0 || L.m == 0) {
    r.ln_upper = upper_none ? -inf : 0.0;
    r.ln_lower = lower_none ? -inf : 0.0;
    return r;
  }
  const bool need_upper = !upper_all && !upper_none;
  const bool need_lower = !lower_none && !lower_all;
  r.ln_upper = upper_all ? 0.0 : -inf;
  r.ln_lower = lower_all ? 0.0 : -inf;
  if (T <= exact_limit / L.m) {
    if (need_upper) {
      const ln_pair e = exact_tails(L, T, a_up);
      r.ln_upper = e.upper;
      if (need_lower && a_lo == a_up) r.ln_lower = e.lower;
    }
    if (need_lower && !(need_upper && a_lo == a_up)) r.ln_lower = exact_tails(L, T, a_lo).lower;
    return r;
  }
  r.exact = false;
  double err = 0;
  if (need_upper) {
    const side_value v = saddle_upper(L, T, a_up);
    r.ln_upper = std::min(v.ln_p, 0.0);
    err = std::max(err, saddle_error_factor * v.error + v.alias);
  }
  if (need_lower) {
    const side_value v = saddle_upper(mirrored(L), T, top - a_lo);
    r.ln_lower = std::min(v.ln_p, 0.0);
    err = std::max(err, saddle_error_factor * v.error + v.alias);
  }
  r.relative_error_bound = err + saddle_error_floor;
  return r;
}

}  // namespace shufl::audit
