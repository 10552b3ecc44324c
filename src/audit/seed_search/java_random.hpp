// java.util.Random: the reference generator of the java-random seed-search family.
#pragma once

#include <cstdint>

namespace shufl::audit::seeds {

// java.util.Random: the 48-bit LCG and nextInt(bound) with its rejection rule.
struct java_random {
  static constexpr std::uint64_t mask = (std::uint64_t{1} << 48) - 1, multiplier = 0x5DEECE66Dull;
  std::uint64_t s;
  explicit java_random(std::uint64_t seed) noexcept : s((seed ^ multiplier) & mask) {}
  std::int32_t next31() noexcept {
    s = (s * multiplier + 0xB) & mask;
    return static_cast<std::int32_t>(s >> 17);
  }
  std::uint32_t below(std::uint32_t bound) noexcept {
    std::int32_t r = next31();
    const auto bd = static_cast<std::int32_t>(bound);
    if ((bound & (bound - 1)) == 0) return static_cast<std::uint32_t>((static_cast<std::int64_t>(bd) * r) >> 31);
    for (std::int32_t u = r;; u = next31()) {
      r = u % bd;
      if (static_cast<std::int64_t>(u) - r + (bd - 1) <= INT32_MAX) return static_cast<std::uint32_t>(r);
    }
  }
};

}  // namespace shufl::audit::seeds
