// A small random generator for tests that must not depend on shufl's own: splitmix64 (S. Vigna)
// and an unbiased bounded draw by rejection.
#pragma once

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

namespace shufl::test {

struct test_rng {
  std::uint64_t state;
  /// The next 64 random bits.
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, s), s >= 1.
  std::uint32_t below(std::uint32_t s) {
    const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % s);
    std::uint64_t x;
    do x = next(); while (x >= limit);
    return static_cast<std::uint32_t>(x % s);
  }
  /// Uniform in [0, 1), 53 bits.
  double uniform() { return static_cast<double>(next() >> 11) / 9007199254740992.0; }
  /// A uniformly random order of 0..n-1 (Fisher–Yates).
  std::vector<std::uint32_t> deck(std::size_t n) {
    std::vector<std::uint32_t> d(n);
    std::iota(d.begin(), d.end(), 0u);
    for (std::size_t i = n; i-- > 1;) std::swap(d[i], d[below(static_cast<std::uint32_t>(i + 1))]);
    return d;
  }
};

}  // namespace shufl::test
