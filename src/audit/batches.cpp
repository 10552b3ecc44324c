// The batches test of `shufl audit --batch-size K` (audit/batches.hpp; docs/audit-laws.md).
#include "shufl/audit/batches.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string_view>

#include "shufl/audit/laws.hpp"
#include "shufl/audit/pairs.hpp"
#include "shufl/error.hpp"

namespace shufl::audit {
namespace {

constexpr std::array<std::string_view, batch_statistics> statistic_names{
    "descents",  "rising-sequences", "runs-up-down", "fixed-points", "successions",
    "adjacent-pairs", "coupon-collector-suits", "coupon-collector-ranks"};

bool permutations_apply(const battery_shape& s) noexcept {
  return s.distinct() && s.whole() && s.cards >= 2 && s.cards <= max_law_cards;
}

// Which statistics apply to the shape (the permutation ones, the coupon collector's).
std::array<bool, batch_statistics> applies(const battery_shape& s) {
  std::array<bool, batch_statistics> a{};
  const bool p = permutations_apply(s);
  for (std::size_t t = 0; t < 6; ++t) a[t] = p;
  a[6] = !coupon_groups_of(s, false).sizes.empty();
  a[7] = !coupon_groups_of(s, true).sizes.empty();
  return a;
}

// U in (0, 1) for sample j and statistic t: SplitMix64 (Steele, Lea, Flood 2014) of a fixed
// key and (j, t), its top 53 bits plus half a unit. A function of the place only, independent of
// the decks, so under H0 P(S > s) + U·P(S = s) is exactly uniform.
double uniform_of(std::uint64_t j, std::size_t t) noexcept {
  std::uint64_t z = (j * batch_statistics + t) + 0x6261746368657321ULL;  // "batches!"
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  return (static_cast<double>(z >> 11) + 0.5) * 0x1.0p-53;
}

}  // namespace

void check_batch_size(std::uint64_t K) {
  if (K != 0 && (K < batch_size_min || K > batch_size_max)) {
    throw error(fmt::format("--batch-size must be {} to {} decks, not {}", batch_size_min, batch_size_max, K));
  }
}

void add_batch_decks(batch_sums& b, const battery_shape& shape, const std::uint32_t* decks, std::size_t count,
                     std::uint64_t first_index) {
  if (b.size == 0 || count == 0) return;
  const std::size_t n = shape.cards, K = shape.positions;
  const auto a = applies(shape);
  const std::uint64_t last = (first_index + count - 1) / b.size;
  if (b.filled.size() <= last) {
    b.filled.resize(last + 1, 0);
    b.sums.resize((last + 1) * batch_statistics, 0);
  }
  const coupon_groups suits = a[6] ? coupon_groups_of(shape, false) : coupon_groups{};
  const coupon_groups ranks = a[7] ? coupon_groups_of(shape, true) : coupon_groups{};
  std::vector<std::uint32_t> where(n);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint32_t* d = decks + i * K;
    const std::uint64_t j = (first_index + i) / b.size;
    std::uint64_t* s = b.sums.data() + j * batch_statistics;
    if (a[0]) {
      s[0] += descents_of(d, n);
      s[1] += rising_sequences_of(d, n, where.data());
      s[2] += runs_up_down_of(d, n);
      s[3] += fixed_points_of(d, n);
      s[4] += successions_of(d, n);
      s[5] += adjacent_pairs_of(d, n);
    }
    if (a[6]) s[6] += coupon_collector_of(d, K, suits.group_of.data(), suits.full);
    if (a[7]) s[7] += coupon_collector_of(d, K, ranks.group_of.data(), ranks.full);
    ++b.filled[j];
  }
}

void merge_batches(batch_sums& into, const batch_sums& other) {
  if (into.size != other.size) throw error("audit: merging batches of different sizes");
  if (into.filled.size() < other.filled.size()) {
    into.filled.resize(other.filled.size(), 0);
    into.sums.resize(other.sums.size(), 0);
  }
  for (std::size_t j = 0; j < other.filled.size(); ++j) into.filled[j] += other.filled[j];
  for (std::size_t i = 0; i < other.sums.size(); ++i) into.sums[i] += other.sums[i];
}

std::optional<double> ks_cdf(std::uint64_t m, double d) {
  if (d <= 0) return 0.0;
  if (d >= 1) return 1.0;
  const double md = static_cast<double>(m) * d;
  if (md > 500) return std::nullopt;
  const auto k = static_cast<std::size_t>(md) + 1;
  const std::size_t r = 2 * k - 1;
  const double h = static_cast<double>(k) - md;
  // H[i][j] = 1/(i−j+1)! for i − j + 1 >= 0, corrected in the first column and last row.
  std::vector<double> H(r * r, 0.0);
  for (std::size_t i = 0; i < r; ++i) {
    for (std::size_t j = 0; j < r; ++j) H[i * r + j] = i + 1 >= j ? 1.0 : 0.0;
  }
  double hp = 1;
  for (std::size_t i = 0; i < r; ++i) {
    hp *= h;  // h^(i+1)
    H[i * r] -= hp;
    H[(r - 1) * r + (r - 1 - i)] -= hp;
  }
  if (2 * h - 1 > 0) H[(r - 1) * r] += std::pow(2 * h - 1, static_cast<double>(r));
  for (std::size_t i = 0; i < r; ++i) {
    for (std::size_t j = 0; j < r; ++j) {
      if (i + 1 > j) {
        for (std::size_t g = 1; g <= i + 1 - j; ++g) H[i * r + j] /= static_cast<double>(g);
      }
    }
  }
  // Q = H^m by binary powering; every product rescaled by its largest entry (ln kept apart).
  const auto multiply = [r](const std::vector<double>& A, const std::vector<double>& B, double& ln_scale) {
    std::vector<double> C(r * r, 0.0);
    for (std::size_t i = 0; i < r; ++i) {
      for (std::size_t l = 0; l < r; ++l) {
        const double a = A[i * r + l];
        if (a == 0) continue;
        for (std::size_t j = 0; j < r; ++j) C[i * r + j] += a * B[l * r + j];
      }
    }
    double big = 0;
    for (const double c : C) big = std::max(big, std::abs(c));
    if (big > 0) {
      for (double& c : C) c /= big;
      ln_scale += std::log(big);
    }
    return C;
  };
  std::vector<double> Q, P = H;
  double ln_q = 0, ln_p = 0;
  bool have = false;
  for (std::uint64_t e = m; e > 0; e >>= 1) {
    if (e & 1) {
      if (have) {
        double s = ln_q + ln_p;
        Q = multiply(Q, P, s);
        ln_q = s;
      } else {
        Q = P;
        ln_q = ln_p;
        have = true;
      }
    }
    if (e > 1) {
      double s = 2 * ln_p;
      P = multiply(P, P, s);
      ln_p = s;
    }
  }
  const double q = Q[(k - 1) * r + (k - 1)];
  if (q <= 0) return 0.0;
  const double M = static_cast<double>(m);
  return std::min(1.0, std::exp(std::log(q) + ln_q + std::lgamma(M + 1) - M * std::log(M)));
}

double ks_p(std::uint64_t m, double d) {
  const double massart = std::min(1.0, 2 * std::exp(-2 * static_cast<double>(m) * d * d));
  const std::optional<double> c = ks_cdf(m, d);
  if (!c) return massart;
  return std::min(massart, std::max(1 - *c, std::min(1e-12, massart)));
}

double ks_statistic(std::vector<double>& values) {
  std::sort(values.begin(), values.end());
  const double m = static_cast<double>(values.size());
  double d = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double x = values[i];
    d = std::max({d, static_cast<double>(i + 1) / m - x, x - static_cast<double>(i) / m});
  }
  return d;
}

test_report batches_test(const battery_shape& shape, const batch_sums& b) {
  test_report r;
  r.name = "batches";
  r.tail = "two-sided";
  std::uint64_t samples = 0;
  while (samples < b.filled.size() && b.filled[samples] == b.size) ++samples;
  r.decks = samples * b.size;
  const auto a = applies(shape);
  const auto used = static_cast<std::size_t>(std::count(a.begin(), a.end(), true));
  const auto not_applicable = [&](std::string note) {
    r.result = test_outcome::not_applicable;
    r.note = std::move(note);
    return r;
  };
  if (b.size == 0) return not_applicable("needs --batch-size K (samples of K consecutive decks)");
  if (used == 0) return not_applicable("needs whole decks of distinct cards or a pack with suits and ranks");
  if (samples < 2) {
    return not_applicable(fmt::format("needs at least 2 whole samples of {} decks", b.size));
  }
  const auto n = shape.cards;
  double worst_p = 2, worst_d = 0;
  std::string_view worst;
  std::vector<double> p(samples);
  for (std::size_t t = 0; t < batch_statistics; ++t) {
    if (!a[t]) continue;
    std::vector<double> law;
    switch (t) {
      case 0: law = descents_law(n); break;
      case 1: law = rising_sequences_law(n); break;
      case 2: law = runs_up_down_law(n); break;
      case 3: law = fixed_points_law(n); break;
      case 4: law = successions_law(n); break;
      case 5: law = adjacent_pairs_law(n); break;
      default: {
        const coupon_groups g = coupon_groups_of(shape, t == 7);
        law = coupon_collector_law(g.sizes, g.others);
      }
    }
    for (std::uint64_t j = 0; j < samples; ++j) {
      const total_tail tail = total_tails(law, b.size, b.sums[j * batch_statistics + t]);
      const double ge = std::exp(tail.ln_upper), le = std::exp(tail.ln_lower);
      const double equal = std::max(0.0, ge + le - 1);
      p[j] = std::clamp((1 - le) + uniform_of(j, t) * equal, 0.0, 1.0);
    }
    const double d = ks_statistic(p);
    const double pt = ks_p(samples, d);
    if (pt < worst_p) {
      worst_p = pt;
      worst_d = d;
      worst = statistic_names[t];
    }
  }
  const double combined = std::min(1.0, static_cast<double>(used) * worst_p);
  r.statistic = worst_d;
  r.observed = worst_d;
  r.expected = 0;
  r.p = combined;
  r.ln_p = std::log(std::max(combined, 1e-300));
  r.law = fmt::format(
      "exact: per sample of {} decks the randomised upper p of each of {} totals (exact law), their "
      "uniformity over {} samples by Kolmogorov-Smirnov (exact finite-sample law, Marsaglia-Tsang-Wang), "
      "Bonferroni; the largest D is {}'s",
      b.size, used, samples, worst);
  const std::uint64_t left = b.filled.size() > samples ? b.filled[samples] : 0;
  if (left > 0) r.note = fmt::format("the last {} decks (a partial sample) are not in a sample", left);
  r.result = test_outcome::pass;
  return r;
}

}  // namespace shufl::audit
