// glibc's rand() (random_r TYPE_3): the reference generator of the c-rand seed-search family.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace shufl::audit::seeds {

// glibc random_r TYPE_3 as srand/rand use it.
struct glibc_rand {
  std::array<std::int32_t, 31> r{};
  std::size_t f = 3, b = 0;
  explicit glibc_rand(std::uint32_t seed) noexcept {
    if (seed == 0) seed = 1;
    r[0] = static_cast<std::int32_t>(seed);
    std::int32_t word = static_cast<std::int32_t>(seed);
    for (std::size_t i = 1; i < 31; ++i) {
      const long hi = word / 127773, lo = word % 127773;
      long w = 16807 * lo - 2836 * hi;
      if (w < 0) w += 2147483647;
      word = static_cast<std::int32_t>(w);
      r[i] = word;
    }
    for (int k = 0; k < 310; ++k) (void)next();
  }
  std::uint32_t next() noexcept {
    const std::uint32_t val = static_cast<std::uint32_t>(r[f]) + static_cast<std::uint32_t>(r[b]);
    r[f] = static_cast<std::int32_t>(val);
    if (++f >= 31) { f = 0; ++b; } else if (++b >= 31) b = 0;
    return val >> 1;
  }
  std::uint32_t below(std::uint32_t bound) noexcept { return next() % bound; }
};

}  // namespace shufl::audit::seeds
