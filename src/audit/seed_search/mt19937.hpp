// MT19937 (Matsumoto and Nishimura, 1998) and CPython's seeding of it: the reference generators
// of the python-random and cpp-mt19937 seed-search families (scalar, exact).
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace shufl::audit::seeds {

inline constexpr std::uint32_t mt_upper = 0x80000000u, mt_lower = 0x7fffffffu, mt_matrix = 0x9908b0dfu;

constexpr std::uint32_t mt_temper(std::uint32_t y) noexcept {
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  return y ^ (y >> 18);
}

constexpr std::uint32_t mt_twist_word(std::uint32_t a, std::uint32_t b, std::uint32_t far) noexcept {
  const std::uint32_t y = (a & mt_upper) | (b & mt_lower);
  return far ^ (y >> 1) ^ ((y & 1u) ? mt_matrix : 0u);
}

// MT19937 (Matsumoto and Nishimura, 1998): the state and its outputs.
struct mt19937_state {
  std::array<std::uint32_t, 624> mt{};
  std::size_t index = 624;
  void init_genrand(std::uint32_t s) noexcept {
    mt[0] = s;
    for (std::uint32_t i = 1; i < 624; ++i) mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i;
    index = 624;
  }
  std::uint32_t next() noexcept {
    if (index >= 624) {
      for (std::size_t k = 0; k < 624; ++k) mt[k] = mt_twist_word(mt[k], mt[(k + 1) % 624], mt[(k + 397) % 624]);
      index = 0;
    }
    return mt_temper(mt[index++]);
  }
};

// CPython's random.seed(int): init_by_array over the 32-bit words of |seed| (one word 0 for 0).
struct python_random {
  mt19937_state g;
  explicit python_random(std::uint64_t seed) noexcept {
    std::array<std::uint32_t, 2> key{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)};
    const std::size_t key_length = key[1] != 0 ? 2 : 1;
    g.init_genrand(19650218u);
    auto& mt = g.mt;
    std::size_t i = 1, j = 0;
    for (std::size_t k = 624; k > 0; --k) {
      mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + static_cast<std::uint32_t>(j);
      if (++i >= 624) { mt[0] = mt[623]; i = 1; }
      if (++j >= key_length) j = 0;
    }
    for (std::size_t k = 623; k > 0; --k) {
      mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - static_cast<std::uint32_t>(i);
      if (++i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    mt[0] = 0x80000000u;
    g.index = 624;
  }
  // random._randbelow(bound) for 2 ≤ bound ≤ 2^31: getrandbits(k) = genrand >> (32 - k), rejected
  // while ≥ bound, with k = bound.bit_length().
  std::uint32_t below(std::uint32_t bound) noexcept {
    const int shift = std::countl_zero(bound);  // 32 - bit_length
    for (;;) {
      const std::uint32_t r = g.next() >> shift;
      if (r < bound) return r;
    }
  }
};

}  // namespace shufl::audit::seeds
