// The seed search's chance accounting (see seed_search.hpp): the expected number of seeds that
// reproduce the logged cards by chance, and the verdict taken on it.
//
// A seed that does not make the deals reproduces a logged deal of K cards of an n-card deck with
// probability 1/(n)_K, (n)_K = n(n−1)…(n−K+1), the chance that a uniform deal starts with those
// K cards. Over S distinct generator states and H families or variants, the expected number of
// chance matches is E = H·S·Π_d 1/(n)_{K_d} when one seed must make every deal (--reseed once),
// and, when each deal is searched on its own (per-deal), deal d matches by chance with
// probability at most q_d = min(1, S/(n)_{K_d}), so E = H·Π_d q_d.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "shufl/audit/seed_search.hpp"
#include "shufl/error.hpp"

namespace shufl::audit {

namespace {

scaled_number normalised(double m, std::int64_t e) noexcept {
  if (m == 0) return {0, 0};
  int k = 0;
  const double f = std::frexp(m, &k);
  return {f, e + k};
}

// (n)_K as a scaled number (exact up to the rounding of each product).
scaled_number falling(std::size_t n, std::size_t k) noexcept {
  scaled_number r;
  for (std::size_t i = 0; i < k && i < n; ++i) r *= scaled_number::of(static_cast<double>(n - i));
  return r;
}

scaled_number inverse(const scaled_number& a) noexcept { return normalised(1 / a.mantissa, -a.exponent); }

scaled_number min_one(const scaled_number& a) noexcept { return a.at_most(1) ? a : scaled_number{}; }

}  // namespace

scaled_number scaled_number::of(double v) noexcept { return normalised(v, 0); }

scaled_number& scaled_number::operator*=(const scaled_number& b) noexcept {
  if (mantissa == 0 || b.mantissa == 0) return *this = {0, 0};
  return *this = normalised(mantissa * b.mantissa, exponent + b.exponent);
}

scaled_number& scaled_number::operator+=(const scaled_number& b) noexcept {
  if (b.mantissa == 0) return *this;
  if (mantissa == 0) return *this = b;
  const bool mine = exponent >= b.exponent;
  const scaled_number& big = mine ? *this : b;
  const scaled_number& small = mine ? b : *this;
  const std::int64_t gap = big.exponent - small.exponent;
  const double shifted = gap > 1100 ? 0.0 : std::ldexp(small.mantissa, -static_cast<int>(gap));
  return *this = normalised(big.mantissa + shifted, big.exponent);
}

bool scaled_number::at_most(double v) const noexcept {
  if (mantissa == 0) return true;
  if (v <= 0) return false;
  const scaled_number w = of(v);
  return exponent != w.exponent ? exponent < w.exponent : mantissa <= w.mantissa;
}

double scaled_number::value() const noexcept {
  if (mantissa == 0) return 0;
  if (exponent > 1024) return HUGE_VAL;
  if (exponent < -1100) return 0;
  return std::ldexp(mantissa, static_cast<int>(exponent));
}

double scaled_number::log10() const noexcept {
  if (mantissa == 0) return -std::numeric_limits<double>::infinity();
  return std::log10(mantissa) + static_cast<double>(exponent) * 0.30102999566398119521;
}

std::uint64_t distinct_states(seed_family family, const seed_range& range) noexcept {
  std::uint64_t count = range.count();
  // glibc srand(0) is srand(1).
  if (family == seed_family::c_rand && range.first == 0 && range.last >= 1) --count;
  // Go: seeds are taken mod 2^31 − 1 and 0 becomes 89482311, so at most 2^31 − 2 states; a range
  // holding a seed ≡ 0 and one ≡ 89482311 counts them once.
  if (family == seed_family::go_math_rand) {
    constexpr std::uint64_t m = 2147483647u, zero = 89482311u;
    if (range.count() == 0 || range.count() >= m) return m - 1;
    const auto holds = [&](std::uint64_t residue) {  // some seed in the range is ≡ residue (mod m)
      const std::uint64_t first = range.first + (residue + m - range.first % m) % m;
      return first >= range.first && first <= range.last;
    };
    if (holds(0) && holds(zero)) --count;
  }
  return count;
}

seed_chance assess_chance(const seed_search_options& o, const seed_search_result& result, std::uint64_t states,
                          double max_chance, std::uint64_t variants) {
  if (!std::isfinite(max_chance) || max_chance < 0)
    throw error(fmt::format("--max-chance: expected a number >= 0, got {}", max_chance));
  seed_chance c;
  c.states = states;
  c.variants = std::max<std::uint64_t>(1, variants);
  c.max_chance = max_chance;
  const std::size_t deals = o.deals.size();
  // node-math-random: any of the 2^128 states, at any of 64 cache offsets under either ToDouble rule.
  const bool node = o.family == seed_family::node_math_random;
  if (node) c.variants *= 128;
  const scaled_number h = scaled_number::of(static_cast<double>(c.variants));
  const scaled_number s = node ? normalised(1, 128)
                          : states == 0 ? normalised(1, 64)
                                        : scaled_number::of(static_cast<double>(states));
  const bool once = node || o.reseed == reseed_mode::once;

  std::vector<bool> reproduced(deals, once && !result.matches.empty());
  for (const auto& m : result.matches)
    if (!once && m.deal < deals) reproduced[m.deal] = true;
  const auto r = static_cast<std::size_t>(std::count(reproduced.begin(), reproduced.end(), true));

  // E over all deals and the verdict's E, with every deal's K raised by `more` (capped at n).
  auto compute = [&](std::size_t more, scaled_number* all) {
    scaled_number e = h;
    if (once) {
      e *= s;
      for (const auto& d : o.deals) e *= inverse(falling(o.n, std::min(o.n, d.size() + more)));
      if (all) *all = e;
      return e;
    }
    std::vector<scaled_number> q(deals);
    for (std::size_t d = 0; d < deals; ++d) {
      scaled_number qd = s;
      qd *= inverse(falling(o.n, std::min(o.n, o.deals[d].size() + more)));
      q[d] = min_one(qd);
      e *= q[d];
    }
    if (all) *all = e;
    if (r == deals || r == 0) return e;
    // e_r(q_1..q_D) by the recurrence e_j ← e_j + q·e_{j−1}.
    std::vector<scaled_number> es(r + 1, scaled_number{0, 0});
    es[0] = scaled_number{};
    for (std::size_t d = 0; d < deals; ++d)
      for (std::size_t j = std::min(r, d + 1); j >= 1; --j) {
        scaled_number t = es[j - 1];
        t *= q[d];
        es[j] += t;
      }
    scaled_number v = h;
    v *= es[r];
    return v;
  };
  c.verdict_expected = compute(0, &c.expected);
  if (!once)
    for (const auto& d : o.deals) {
      scaled_number e = h;
      e *= s;
      e *= inverse(falling(o.n, d.size()));
      c.per_deal.push_back(e);
    }
  if (result.matches.empty()) {
    c.verdict = seed_verdict::not_found;
  } else if (c.verdict_expected.at_most(max_chance)) {
    c.verdict = seed_verdict::predictable;
  } else {
    c.verdict = seed_verdict::chance;
    std::size_t shortest = o.n;
    for (const auto& d : o.deals) shortest = std::min(shortest, d.size());
    for (std::size_t more = 1; shortest + more <= o.n; ++more)
      if (compute(more, nullptr).at_most(max_chance)) {
        c.more_cards = more;
        break;
      }
  }
  c.suggest_once = !once && deals >= 2 && r == 1 && reproduced[0];
  return c;
}

}  // namespace shufl::audit
