// The seed search's shuffle loops, the log of one search with its early-exit checks, and the
// shapes shared by the vectorised per-family filters (internal to src/audit/).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "shufl/audit/seed_search.hpp"
#include "shufl/random.hpp"

namespace shufl::audit::seeds {

inline constexpr std::uint64_t two_32 = std::uint64_t{1} << 32;

// ---------------------------------------------------------------------------------------------
// Shuffles.

template <class Gen>
void top_down_shuffle(std::span<std::uint32_t> a, Gen& g) noexcept {
  for (std::size_t i = a.size(); i-- > 1;) std::swap(a[i], a[g.below(static_cast<std::uint32_t>(i + 1))]);
}

// libstdc++ 12's uniform_int_distribution<unsigned long>{0, range-1} on a 32-bit generator:
// Lemire's method on 32-bit words (range ≤ 2^32). `next` returns a word or, in the fast filter,
// nullopt when the outputs it holds are used up.
template <class Next>
std::optional<std::uint32_t> libstdcxx_below(Next& next, std::uint64_t range) noexcept {
  const auto r32 = static_cast<std::uint32_t>(range);
  auto w = next();
  if (!w) return std::nullopt;
  std::uint64_t product = std::uint64_t{*w} * r32;
  auto low = static_cast<std::uint32_t>(product);
  if (low < r32) {
    const std::uint32_t threshold = (0u - r32) % r32;
    while (low < threshold) {
      w = next();
      if (!w) return std::nullopt;
      product = std::uint64_t{*w} * r32;
      low = static_cast<std::uint32_t>(product);
    }
  }
  return static_cast<std::uint32_t>(product >> 32);
}

// std::shuffle of libstdc++ 12 with a 32-bit generator (n² ≤ 2^32 − 1: the two-per-draw path;
// larger n the one-per-draw loop). false when `next` ran out.
template <class Next>
bool libstdcxx_shuffle(std::span<std::uint32_t> a, Next&& next) noexcept {
  const std::uint64_t n = a.size();
  if (n == 0) return true;
  if ((two_32 - 1) / n >= n) {
    std::size_t i = 1;
    if (n % 2 == 0) {
      const auto d = libstdcxx_below(next, 2);
      if (!d) return false;
      std::swap(a[i++], a[*d]);
    }
    while (i != n) {
      const std::uint64_t range = i + 1;
      const auto x = libstdcxx_below(next, range * (range + 1));
      if (!x) return false;
      const auto b1 = static_cast<std::uint32_t>(range + 1);
      std::swap(a[i++], a[*x / b1]);
      std::swap(a[i++], a[*x % b1]);
    }
    return true;
  }
  for (std::size_t i = 1; i != n; ++i) {
    const auto j = libstdcxx_below(next, i + 1);
    if (!j) return false;
    std::swap(a[i], a[*j]);
  }
  return true;
}

inline void identity(std::span<std::uint32_t> a) noexcept {
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::uint32_t>(i);
}

// ---------------------------------------------------------------------------------------------
// The log of one search and the early-exit check.

struct log_view {
  std::size_t n = 0;
  std::span<const std::uint32_t> cards;  // first K dealt cards
  std::vector<std::int16_t> position;    // position[card] = its index in the log, or −1
};

inline log_view make_view(std::size_t n, std::span<const std::uint32_t> cards) {
  log_view v;
  v.n = n;
  v.cards = cards;
  v.position.assign(n, -1);
  for (std::size_t i = 0; i < cards.size(); ++i) v.position[cards[i]] = static_cast<std::int16_t>(i);
  return v;
}

// Runs a top-down loop on a[] (identity on entry), checking each final position as it is placed.
// `draw(bound)` returns the swap index, or UINT32_MAX when the filter's outputs are used up
// (then the seed is a candidate). true: candidate (survived, or undecided).
template <class Draw>
bool top_down_survives(const log_view& log, std::uint32_t* a, Draw&& draw) noexcept {
  const std::size_t k = log.cards.size();
  for (std::size_t i = log.n; i-- > 1;) {
    const std::uint32_t j = draw(static_cast<std::uint32_t>(i + 1));
    if (j == UINT32_MAX) return true;
    std::swap(a[i], a[j]);
    const std::uint32_t c = a[i];
    if (i < k ? c != log.cards[i] : log.position[c] >= 0) return false;
  }
  return a[0] == log.cards[0];
}

inline bool prefix_matches(const log_view& log, const std::uint32_t* a) noexcept {
  for (std::size_t i = 0; i < log.cards.size(); ++i)
    if (a[i] != log.cards[i]) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Vectorised filters (one file per family): 32 seeds at a time, as 4 independent sets of 8 32-bit lanes in GCC/Clang
// vector extensions (one AVX2 register per set when the CPU has AVX2, two SSE2 registers
// otherwise); the 4 sets hide the latency of the sequential seeding recurrences. Each family's kernel is
// compiled once per target (generic, AVX2) in its file and chosen at run time.

using v8 = std::uint32_t __attribute__((vector_size(32), may_alias));
constexpr std::size_t sets = 4;
constexpr std::size_t lanes = 8 * sets;
using lane_mask = std::uint32_t;
struct lane_words {
  v8 q[sets];
  [[nodiscard]] std::uint32_t lane(std::size_t l) const noexcept { return q[l / 8][l % 8]; }
};
struct mt_buffer {
  lane_words w[624];
};
static_assert(sizeof(lane_words) == lanes * sizeof(std::uint32_t));

// Top-down check that leaves a[] as it found it (the identity): the positions touched are the
// placed ones and the drawn ones, recorded in `drawn` (n entries).
template <class Draw>
bool top_down_survives_restoring(const log_view& log, std::uint32_t* a, std::uint32_t* drawn, Draw&& draw) noexcept {
  std::size_t steps = 0;
  const bool keep = top_down_survives(log, a, [&](std::uint32_t bound) {
    const std::uint32_t j = draw(bound);
    if (j != UINT32_MAX) drawn[steps++] = j;
    return j;
  });
  for (std::size_t t = 0; t < steps; ++t) {
    const std::size_t i = log.n - 1 - t;
    a[i] = static_cast<std::uint32_t>(i);
    a[drawn[t]] = drawn[t];
  }
  return keep;
}

// x mod d for 32-bit x by two multiplications (D. Lemire, O. Kaser, N. Kurz, "Faster remainder by
// direct computation", 2019): m = ⌊(2^64 − 1)/d⌋ + 1.
inline std::uint32_t fast_mod(std::uint32_t x, std::uint32_t d, std::uint64_t m) noexcept {
  const std::uint64_t low = m * x;
  return static_cast<std::uint32_t>((static_cast<uint128>(low) * d) >> 64);
}

// What a vectorised filter needs: the log, the first seed of the lanes and how many lanes to use.
struct kernel_args {
  const log_view* log;
  std::uint32_t base;
  unsigned count;
  std::size_t outputs;
  const std::uint32_t* genrand;
  const std::uint64_t* mod_m;  // fast_mod multipliers by bound (c-rand)
  mt_buffer* mt;
  std::uint32_t* scratch;  // 2n words: the identity list, then the drawn indices
};

// init_genrand (MT19937's seeding) of seeds base .. base + 31 in the lanes, words 0 to `last`
// (cpp-mt19937 and php-mt-rand: output k < 227 needs only the seeded words k, k + 1, k + 397).
[[gnu::always_inline]] inline void mt_seed_lanes(const kernel_args& k, std::size_t last) noexcept {
  lane_words* mt = k.mt->w;
  v8 prev[sets];
  for (std::size_t q = 0; q < sets; ++q) {
    prev[q] = v8{};
    for (unsigned l = 0; l < 8; ++l) prev[q][l] = k.base + static_cast<std::uint32_t>(q * 8 + l);
    mt[0].q[q] = prev[q];
  }
  for (std::uint32_t i = 1; i <= last; ++i)
    for (std::size_t q = 0; q < sets; ++q) {
      prev[q] = (prev[q] ^ (prev[q] >> 30)) * 1812433253u + i;
      mt[i].q[q] = prev[q];
    }
}

inline bool have_avx2() noexcept {
#if defined(__x86_64__)
  static const bool yes = __builtin_cpu_supports("avx2");
  return yes;
#else
  return false;
#endif
}

// The vectorised filters (python_random.cpp, c_rand.cpp, cpp_mt19937.cpp): bit l of the result
// is set when seed base + l survives (a candidate to confirm).
lane_mask python_random_lanes(const kernel_args& k) noexcept;
lane_mask c_rand_lanes(const kernel_args& k) noexcept;
lane_mask cpp_mt19937_lanes(const kernel_args& k) noexcept;
/// php-mt-rand (legacy: php-mt-rand-legacy's twist); php_mt_rand.cpp.
lane_mask php_mt_rand_lanes(const kernel_args& k, bool legacy) noexcept;
/// glibc-rand-r (rand_r) and msvc-rand (small_lcgs.cpp): 8 seeds per AVX2 vector when the CPU has
/// AVX2 and n ≤ 64, 1 ≤ K ≤ n/2; otherwise (or `vector` false, for the tests) two side by side.
lane_mask small_lcg_lanes(const kernel_args& k, bool rand_r, bool vector = true) noexcept;
/// dotnet-random (dotnet_random.cpp).
lane_mask dotnet_random_lanes(const kernel_args& k) noexcept;
/// glibc's 344 + k outputs as sums over the 31 seeded words (built once; c_rand.cpp).
void prepare_c_rand_table();

// The scalar filter for one seed (families.cpp).
bool scalar_filter(seed_family family, const log_view& log, std::uint64_t seed, std::uint32_t* a) noexcept;
// The filter of a non-standard --loop / --reduce (families.cpp): the reference loop, with early
// exit for `up`.
bool variant_filter(seed_family family, const family_variant& variant, const log_view& log, std::uint64_t seed,
                    std::uint32_t* a) noexcept;

}  // namespace shufl::audit::seeds
