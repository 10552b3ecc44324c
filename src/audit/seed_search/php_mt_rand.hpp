// PHP's mt_srand()/mt_rand() and the bounded draw of shuffle(): the reference generator of the
// php-mt-rand and php-mt-rand-legacy seed-search families (scalar, exact).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "mt19937.hpp"

namespace shufl::audit::seeds {

// The twist of mt_srand(s, MT_RAND_PHP): PHP before 7.1 took the low bit of the word being
// replaced (a) where MT19937 takes the next word's (b); everything else is MT19937.
constexpr std::uint32_t php_legacy_twist_word(std::uint32_t a, std::uint32_t b, std::uint32_t far) noexcept {
  const std::uint32_t y = (a & mt_upper) | (b & mt_lower);
  return far ^ (y >> 1) ^ ((a & 1u) ? mt_matrix : 0u);
}

// PHP's uniform draw in [0, bound) of a 32-bit output (ext/random's range32, used by shuffle()
// and by mt_rand(min, max) in MT_RAND_MT19937 mode): a power of two is masked; otherwise outputs
// above 2^32 − 1 − (2^32 − 1) mod bound − 1 are redrawn and the rest taken mod bound.
template <class Next>
std::uint32_t php_range32(Next&& next, std::uint32_t bound) noexcept {
  std::uint32_t r = next();
  if ((bound & (bound - 1)) == 0) return r & (bound - 1);
  const std::uint32_t limit = UINT32_MAX - (UINT32_MAX % bound) - 1;
  while (r > limit) r = next();
  return r % bound;
}

// mt_srand(seed) or mt_srand(seed, MT_RAND_PHP): init_genrand(seed), twisted at once; mt_rand()'s
// 32-bit outputs (tempered as MT19937).
struct php_mt_rand {
  std::array<std::uint32_t, 624> mt{};
  std::size_t index = 624;
  bool legacy = false;
  php_mt_rand(std::uint32_t seed, bool legacy_mode) noexcept : legacy(legacy_mode) {
    mt19937_state g;
    g.init_genrand(seed);
    mt = g.mt;
  }
  std::uint32_t next() noexcept {
    if (index >= 624) {
      for (std::size_t k = 0; k < 624; ++k) {
        const std::uint32_t a = mt[k], b = mt[(k + 1) % 624], far = mt[(k + 397) % 624];
        mt[k] = legacy ? php_legacy_twist_word(a, b, far) : mt_twist_word(a, b, far);
      }
      index = 0;
    }
    return mt_temper(mt[index++]);
  }
  std::uint32_t below(std::uint32_t bound) noexcept {
    return php_range32([this] { return next(); }, bound);
  }
};

}  // namespace shufl::audit::seeds
