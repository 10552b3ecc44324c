// Go's math/rand rand.New(rand.NewSource(seed)): the reference generator of the go-math-rand
// seed-search family (scalar, exact), after the Go 1 sources (math/rand/rng.go, rand.go).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace shufl::audit::seeds {

inline constexpr std::uint32_t go_seed_modulus = 2147483647u;  // 2^31 − 1
inline constexpr std::uint32_t go_zero_seed = 89482311u;       // what seed 0 (mod 2^31 − 1) becomes

// x·y mod 2^31 − 1 (what Go's seedrand computes for y = 48271 by Schrage's method).
constexpr std::uint32_t go_mulmod(std::uint32_t x, std::uint32_t y) noexcept {
  std::uint64_t p = std::uint64_t{x} * y;
  p = (p & go_seed_modulus) + (p >> 31);
  p = (p & go_seed_modulus) + (p >> 31);
  return static_cast<std::uint32_t>(p == go_seed_modulus ? 0 : p);
}

// The 607 words Go xors into every seeded state (rngCooked): the additive lagged Fibonacci
// generator x[k] = x[k−607] + x[k−273] mod 2^64 seeded by srand(1) of gen_cooked.go and run
// 7.8·10^12 steps, computed here by polynomial jump-ahead (go_math_rand.cpp; a few ms once).
const std::array<std::uint64_t, 607>& go_cooked();

// 48271^k mod 2^31 − 1 for k = 0..1841: seeding's k-th seedrand step from x0 is x0·48271^k.
const std::array<std::uint32_t, 1842>& go_seed_powers();

// The state's word i after Seed: three consecutive seedrand values (steps 21 + 3i .. 23 + 3i)
// shifted by 40, 20, 0 and xored with rngCooked[i].
inline std::uint64_t go_seeded_word(std::uint32_t x0, std::size_t i) noexcept {
  const auto& pw = go_seed_powers();
  const std::uint64_t a = go_mulmod(x0, pw[21 + 3 * i]), b = go_mulmod(x0, pw[22 + 3 * i]), c = go_mulmod(x0, pw[23 + 3 * i]);
  return ((a << 40) ^ (b << 20) ^ c) ^ go_cooked()[i];
}

// seed mod 2^31 − 1, 0 replaced as Go does: the first seedrand input.
constexpr std::uint32_t go_seed_start(std::uint64_t seed) noexcept {
  const auto s = static_cast<std::uint32_t>(seed % go_seed_modulus);
  return s == 0 ? go_zero_seed : s;
}

// rand.Rand's draws over a source with uint64() (the full rngSource or the filter's lazy one).
template <class Source>
struct go_rand : Source {
  using Source::Source;
  std::uint64_t int63() noexcept { return this->uint64() & ((std::uint64_t{1} << 63) - 1); }
  std::uint32_t int31() noexcept { return static_cast<std::uint32_t>(int63() >> 32); }
  std::uint32_t uint32() noexcept { return static_cast<std::uint32_t>(int63() >> 31); }
  // r.Intn(bound) for bound < 2^31 (Int31n: a power of two masked, else rejection then modulo).
  std::uint32_t below(std::uint32_t bound) noexcept {
    if ((bound & (bound - 1)) == 0) return int31() & (bound - 1);
    const std::uint32_t max = 0x7fffffffu - (0x80000000u % bound);
    std::uint32_t v = int31();
    while (v > max) v = int31();
    return v % bound;
  }
  // rand.Shuffle's own draw (the unexported int31n): Lemire's multiply of Uint32() with rejection.
  std::uint32_t shuffle_below(std::uint32_t n) noexcept {
    std::uint64_t prod = std::uint64_t{uint32()} * n;
    auto low = static_cast<std::uint32_t>(prod);
    if (low < n) {
      const std::uint32_t thresh = (0u - n) % n;
      while (low < thresh) {
        prod = std::uint64_t{uint32()} * n;
        low = static_cast<std::uint32_t>(prod);
      }
    }
    return static_cast<std::uint32_t>(prod >> 32);
  }
};

// rngSource after Seed(seed) (seed ≥ 0): the whole 607-word state.
struct go_source {
  std::array<std::uint64_t, 607> vec{};
  int tap = 0, feed = 607 - 273;
  explicit go_source(std::uint64_t seed) noexcept {
    const std::uint32_t x0 = go_seed_start(seed);
    for (std::size_t i = 0; i < 607; ++i) vec[i] = go_seeded_word(x0, i);
  }
  std::uint64_t uint64() noexcept {
    if (--tap < 0) tap += 607;
    if (--feed < 0) feed += 607;
    const std::uint64_t x = vec[static_cast<std::size_t>(feed)] + vec[static_cast<std::size_t>(tap)];
    vec[static_cast<std::size_t>(feed)] = x;
    return x;
  }
};
using go_math_rand = go_rand<go_source>;

// The same outputs computed on demand: output k ≤ 273 is seeded word 334 − k plus seeded word
// 607 − k (neither yet overwritten), three multiplications mod 2^31 − 1 each; later outputs
// come from the whole state, built once when first needed.
struct go_lazy_source {
  std::uint64_t seed;
  std::uint32_t x0;
  int k = 0;
  std::optional<go_source> full;
  explicit go_lazy_source(std::uint64_t s) noexcept : seed(s), x0(go_seed_start(s)) {}
  std::uint64_t uint64() noexcept {
    ++k;
    if (k <= 273 && !full)
      return go_seeded_word(x0, static_cast<std::size_t>(334 - k)) + go_seeded_word(x0, static_cast<std::size_t>(607 - k));
    if (!full) {
      full.emplace(seed);
      for (int i = 1; i < k; ++i) full->uint64();
    }
    return full->uint64();
  }
};
using go_lazy_rand = go_rand<go_lazy_source>;

}  // namespace shufl::audit::seeds
