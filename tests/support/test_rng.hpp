// What the audit tests build decks with, independently of shufl: a small random generator
// (splitmix64, S. Vigna, with an unbiased bounded draw by rejection), a riffle and poker-code deck
// lines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <string>
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
  /// `count` uniform orders of 0..n-1 (deck() each), one after another in one vector.
  std::vector<std::uint32_t> decks(std::size_t count, std::size_t n) {
    std::vector<std::uint32_t> all;
    for (std::size_t t = 0; t < count; ++t) {
      const auto d = deck(n);
      all.insert(all.end(), d.begin(), d.end());
    }
    return all;
  }
  /// The first k cards of a uniform deal of 0..n-1 (partial Fisher–Yates upward, k <= n; a draw
  /// is next() mod (n - i), whose bias below n/2^64 no test can see).
  std::vector<std::uint32_t> partial_deal(std::size_t n, std::size_t k) {
    std::vector<std::uint32_t> a(n);
    std::iota(a.begin(), a.end(), 0u);
    for (std::size_t i = 0; i < k; ++i) std::swap(a[i], a[i + next() % (n - i)]);
    a.resize(k);
    return a;
  }
};

/// One Gilbert–Shannon–Reeds riffle of `d`: cut binomially, drop from each packet with probability
/// proportional to its size.
inline std::vector<std::uint32_t> gsr_riffle(const std::vector<std::uint32_t>& d, test_rng& rng) {
  std::size_t cut = 0;
  for (std::size_t i = 0; i < d.size(); ++i) cut += rng.next() >> 63;
  std::vector<std::uint32_t> out;
  std::size_t a = 0, b = cut;
  while (a < cut || b < d.size()) {
    const auto left = static_cast<std::uint32_t>(cut - a), right = static_cast<std::uint32_t>(d.size() - b);
    if (rng.below(left + right) < left) {
      out.push_back(d[a++]);
    } else {
      out.push_back(d[b++]);
    }
  }
  return out;
}

/// Poker code of canonical card k of a standard pack: As 2s ... Ks, Ah ... Kh, Ad ... Kd, Ac ... Kc.
inline std::string code(std::uint32_t k) {
  static const char ranks[] = "A23456789TJQK";
  static const char suits[] = "shdc";
  return {ranks[k % 13], suits[k / 13]};
}

/// A deck of canonical card numbers as one line of poker codes, newline-terminated.
inline std::string deck_line(const std::vector<std::uint32_t>& d) {
  std::string s;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (i) s += ' ';
    s += code(d[i]);
  }
  return s + "\n";
}

}  // namespace shufl::test
