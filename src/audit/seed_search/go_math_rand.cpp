// The go-math-rand family: Go's rngCooked table derived by jump-ahead, the seeding powers, and
// the fast filter (the first outputs computed from the seed directly, without the 607-word state).
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "go_math_rand.hpp"
#include "loops.hpp"

namespace shufl::audit::seeds {

namespace {

constexpr std::size_t go_len = 607, go_lag = 273;

// Polynomials modulo P(x) = x^607 − x^334 − 1 over the integers mod 2^64: the sequence
// w[t + 607] = w[t + 334] + w[t] has w[T] = Σ c_i w[i] when x^T ≡ Σ c_i x^i (mod P).
using poly = std::vector<std::uint64_t>;

poly reduce(poly p) {
  for (std::size_t d = p.size(); d-- > go_len;) {
    const std::uint64_t c = p[d];
    if (c == 0) continue;
    p[d] = 0;
    p[d - go_len + (go_len - go_lag)] += c;  // x^607 = x^334 + 1
    p[d - go_len] += c;
  }
  p.resize(go_len);
  return p;
}

poly multiply(const poly& a, const poly& b) {
  poly r(2 * go_len - 1);
  for (std::size_t i = 0; i < go_len; ++i) {
    if (a[i] == 0) continue;
    for (std::size_t j = 0; j < go_len; ++j) r[i + j] += a[i] * b[j];
  }
  return reduce(std::move(r));
}

poly times_x(const poly& a) {
  poly r(go_len + 1);
  for (std::size_t i = 0; i < go_len; ++i) r[i + 1] = a[i];
  return reduce(std::move(r));
}

// x^e mod P.
poly power_of_x(std::uint64_t e) {
  poly result(go_len), base(go_len);
  result[0] = 1;
  base[1] = 1;
  for (; e != 0; e >>= 1) {
    if (e & 1) result = multiply(result, base);
    base = multiply(base, base);
  }
  return result;
}

std::array<std::uint64_t, 607> compute_cooked() {
  // gen_cooked.go's srand(1): the seedrand chain from 1, shifts 20 and 10, no table xored in.
  std::array<std::uint64_t, go_len> initial{};
  std::uint32_t x = 1;
  constexpr std::uint32_t a = 48271;
  for (int i = -20; i < static_cast<int>(go_len); ++i) {
    x = go_mulmod(x, a);
    if (i >= 0) {
      std::uint64_t u = std::uint64_t{x} << 20;
      x = go_mulmod(x, a);
      u ^= std::uint64_t{x} << 10;
      x = go_mulmod(x, a);
      u ^= x;
      initial[static_cast<std::size_t>(i)] = u;
    }
  }
  // Step k (1-based) writes z[k] = z[k−607] + z[k−273] at index (334 − k) mod 607; the seeded
  // word at index i is z[j] for the j in −606..0 with j ≡ 334 − i. With w[t] = z[t − 606],
  // w[0..606] are the seeded words and after N steps index i holds w[t], the largest t ≤ N + 606
  // with t ≡ 334 − i + 606 (mod 607).
  const auto index_of = [](std::int64_t j) {  // the index step j writes (j may be ≤ 0)
    const std::int64_t m = static_cast<std::int64_t>(go_len);
    return static_cast<std::size_t>((((334 - j) % m) + m) % m);
  };
  std::array<std::uint64_t, go_len> w0{};
  for (std::int64_t j = -606; j <= 0; ++j) w0[static_cast<std::size_t>(j + 606)] = initial[index_of(j)];
  constexpr std::uint64_t steps = 7'800'000'000'000ull;
  std::array<std::uint64_t, go_len> cooked{};
  poly c = power_of_x(steps);  // w[steps], i.e. z[steps − 606]
  for (std::uint64_t t = steps; t <= steps + 606; ++t) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < go_len; ++i) v += c[i] * w0[i];
    cooked[index_of(static_cast<std::int64_t>(t) - 606)] = v;
    c = times_x(c);
  }
  return cooked;
}

}  // namespace

const std::array<std::uint64_t, 607>& go_cooked() {
  static const std::array<std::uint64_t, 607> table = compute_cooked();
  return table;
}

const std::array<std::uint32_t, 1842>& go_seed_powers() {
  static const std::array<std::uint32_t, 1842> powers = [] {
    std::array<std::uint32_t, 1842> p{};
    p[0] = 1;
    for (std::size_t k = 1; k < p.size(); ++k) p[k] = go_mulmod(p[k - 1], 48271);
    return p;
  }();
  return powers;
}

}  // namespace shufl::audit::seeds
