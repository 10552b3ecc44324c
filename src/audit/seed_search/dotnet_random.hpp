// .NET's System.Random(int seed): the reference generator of the dotnet-random seed-search
// family (scalar, exact). The seeded algorithm is Knuth's subtractive generator as published in
// the .NET reference source (and kept as the "Net5Compat" seeded implementation since .NET 6).
#pragma once

#include <array>
#include <cstdint>

namespace shufl::audit::seeds {

// new Random(seed) for seed = |Seed| in 0..2^31 − 1 (Random(-s) is Random(s); int.MinValue is
// int.MaxValue). Next(k) = (int)(InternalSample() · (1.0 / int.MaxValue) · k), in doubles.
struct dotnet_random {
  // C#'s unchecked int arithmetic: the difference wraps modulo 2^32.
  static constexpr std::int32_t minus(std::int32_t x, std::int32_t y) noexcept {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(x) - static_cast<std::uint32_t>(y));
  }
  static constexpr std::int32_t big = 2147483647, mseed = 161803398;
  std::array<std::int32_t, 56> a{};
  int inext = 0, inextp = 21;
  explicit dotnet_random(std::uint32_t seed) noexcept {
    std::int32_t mj = mseed - static_cast<std::int32_t>(seed & 0x7fffffffu);
    a[55] = mj;
    std::int32_t mk = 1;
    for (int i = 1; i < 55; ++i) {
      const int ii = (21 * i) % 55;
      a[ii] = mk;
      mk = minus(mj, mk);
      if (mk < 0) mk += big;
      mj = a[ii];
    }
    for (int k = 1; k < 5; ++k)
      for (int i = 1; i < 56; ++i) {
        a[i] = minus(a[i], a[1 + (i + 30) % 55]);
        if (a[i] < 0) a[i] += big;
      }
  }
  std::int32_t sample() noexcept {
    if (++inext >= 56) inext = 1;
    if (++inextp >= 56) inextp = 1;
    std::int32_t r = minus(a[inext], a[inextp]);
    if (r == big) --r;
    if (r < 0) r += big;
    a[inext] = r;
    return r;
  }
  std::uint32_t below(std::uint32_t bound) noexcept {
    const double x = static_cast<double>(sample()) * (1.0 / 2147483647.0);
    return static_cast<std::uint32_t>(x * static_cast<double>(bound));
  }
};

}  // namespace shufl::audit::seeds
