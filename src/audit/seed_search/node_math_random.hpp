// V8's Math.random (Node.js) as the seed search models it (internal to src/audit/): the
// xorshift128+ step, the cache of 64 doubles served from its end, the two ToDouble rules of V8's
// history. Facts from V8's src/base/utils/random-number-generator.h and src/numbers/math-random.cc,
// re-implemented from their description.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "shufl/audit/seed_search.hpp"

namespace shufl::audit::seeds {

/// One xorshift128+ step of V8 (state0 takes state1; state1 the mixed old state0).
inline void xorshift128(std::uint64_t& state0, std::uint64_t& state1) noexcept {
  std::uint64_t s1 = state0;
  const std::uint64_t s0 = state1;
  state0 = s0;
  s1 ^= s1 << 23;
  s1 ^= s1 >> 17;
  s1 ^= s0;
  s1 ^= s0 >> 26;
  state1 = s1;
}

/// ToDouble of V8: (state0 >> 11) / 2^53 (double53), or bit_cast((state0 >> 12) | exponent of 1.0) − 1.
inline double xorshift_double(std::uint64_t state0, bool double53) noexcept {
  if (double53) return static_cast<double>(state0 >> 11) * 0x1.0p-53;
  return static_cast<double>(state0 >> 12) * 0x1.0p-52;  // exact: the mantissa bits over 2^52
}

/// Math.random of one context: RefillCache fills cache[0..63] with ToDouble(state0) after each
/// step; calls take cache[63], cache[62], ... and refill at 0. Starts from `s` as given (before
/// the refill of the block holding the first draw, `offset` of its values already served).
class node_math_random {
 public:
  explicit node_math_random(const xorshift_state& s) noexcept
      : state0_(s.state0), state1_(s.state1), double53_(s.double53) {
    refill();
    index_ = 64 - (s.offset % 64);
  }
  double next() noexcept {
    if (index_ == 0) refill();
    ++served_;
    return cache_[--index_];
  }
  /// Values served since construction.
  [[nodiscard]] std::size_t served() const noexcept { return served_; }
  /// Math.floor(Math.random() * k)
  std::uint32_t below(std::uint32_t k) noexcept { return static_cast<std::uint32_t>(next() * static_cast<double>(k)); }

 private:
  void refill() noexcept {
    for (auto& c : cache_) {
      xorshift128(state0_, state1_);
      c = xorshift_double(state0_, double53_);
    }
    index_ = 64;
  }
  std::uint64_t state0_, state1_;
  bool double53_;
  std::array<double, 64> cache_{};
  unsigned index_ = 0;
  std::size_t served_ = 0;
};

}  // namespace shufl::audit::seeds
