// One-word linear congruential rand() functions: the reference generators of the glibc-rand-r
// and msvc-rand seed-search families (scalar, exact).
#pragma once

#include <cstdint>

namespace shufl::audit::seeds {

// glibc rand_r(&seed) (stdlib/rand_r.c): three steps of next = next·1103515245 + 12345 (mod 2^32)
// give 11 + 10 + 10 bits of (next / 65536): a 31-bit result (RAND_MAX = 2^31 − 1).
struct glibc_rand_r {
  std::uint32_t state;
  explicit glibc_rand_r(std::uint32_t seed) noexcept : state(seed) {}
  std::uint32_t next() noexcept {
    state = state * 1103515245u + 12345u;
    std::uint32_t result = (state >> 16) % 2048u;
    state = state * 1103515245u + 12345u;
    result = (result << 10) ^ ((state >> 16) % 1024u);
    state = state * 1103515245u + 12345u;
    result = (result << 10) ^ ((state >> 16) % 1024u);
    return result;
  }
  std::uint32_t below(std::uint32_t bound) noexcept { return next() % bound; }
};

// Microsoft C runtime srand/rand: state = state·214013 + 2531011 (mod 2^32), rand() = bits 16..30
// of the state (RAND_MAX = 32767).
struct msvc_rand {
  std::uint32_t state;
  explicit msvc_rand(std::uint32_t seed) noexcept : state(seed) {}
  std::uint32_t rand15() noexcept {
    state = state * 214013u + 2531011u;
    return (state >> 16) & 0x7fffu;
  }
  std::uint32_t below(std::uint32_t bound) noexcept { return rand15() % bound; }
};

}  // namespace shufl::audit::seeds
