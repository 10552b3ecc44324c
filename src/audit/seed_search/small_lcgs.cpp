// The glibc-rand-r and msvc-rand families' filter: their seeding is free and their draws cheap, so
// a seed costs its few draws before the early exit, and the exit's mispredicted branch.
// With AVX2 (n ≤ 64, 1 ≤ K ≤ n/2): 8 seeds in the lanes of one vector step the downward loop
// together without branches until every lane is out (one test of the vector per step). A lane
// keeps only the 64-bit set of the positions that hold a logged card: while i ≥ K, a draw j into
// that set rejects the seed, and otherwise the card at i goes to j (j joins the set if that card
// is logged); the rare lanes that pass every i ≥ K are checked again in full, one by one.
// `% (i + 1)` exactly, as x − q·(i + 1): msvc-rand (x < 2^15) q = (x·m) >> s in 32 bits
// (Granlund–Montgomery, m = ⌊2^s/b⌋ + 1, s = 15 + ⌈log2 b⌉); glibc-rand-r (x < 2^31) q = trunc(x·r)
// in doubles with r = 1/b rounded up (x·r ≥ x/b, and stays more than 1/(2b) below the next integer).
// Otherwise two seeds run side by side without branches (a rejected seed runs on, ignored) until
// both are out, so the two generator chains overlap and one branch decides two seeds.
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "loops.hpp"
#include "small_lcgs.hpp"

namespace shufl::audit::seeds {

namespace {

constexpr std::size_t side_by_side = 2, max_cards = 64;

template <class Gen>
lane_mask side_by_side_lanes(const kernel_args& k) noexcept {
  const log_view& log = *k.log;
  const std::size_t n = log.n, logged = log.cards.size();
  lane_mask candidates = 0;
  if (n > max_cards) {  // larger decks: one seed at a time
    for (unsigned l = 0; l < k.count; ++l) {
      std::uint32_t g = k.base + l;
      if (top_down_survives_restoring(log, k.scratch, k.scratch + n, [&](std::uint32_t b) {
            return fast_mod(Gen::draw(g), b, k.mod_m[b]);
          }))
        candidates |= lane_mask{1} << l;
    }
    return candidates;
  }
  std::uint32_t a[side_by_side][max_cards];
  std::uint64_t logged_cards = 0;  // bit c: card c is logged
  for (const auto c : log.cards) logged_cards |= std::uint64_t{1} << c;
  for (unsigned first = 0; first < k.count; first += side_by_side) {
    std::uint32_t g[side_by_side];
    bool alive[side_by_side];
    bool any = true;
    for (std::size_t q = 0; q < side_by_side; ++q) {
      g[q] = k.base + first + static_cast<std::uint32_t>(q);
      alive[q] = first + q < k.count;
      for (std::size_t i = 0; i < n; ++i) a[q][i] = static_cast<std::uint32_t>(i);
    }
    std::size_t i = n;
    while (i-- > 1 && any) {
      const auto bound = static_cast<std::uint32_t>(i + 1);
      any = false;
      for (std::size_t q = 0; q < side_by_side; ++q) {
        const std::uint32_t j = fast_mod(Gen::draw(g[q]), bound, k.mod_m[bound]);
        const std::uint32_t c = a[q][j];
        a[q][j] = a[q][i];
        a[q][i] = c;
        alive[q] &= i < logged ? c == log.cards[i] : ((logged_cards >> c) & 1) == 0;
        any |= alive[q];
      }
    }
    for (std::size_t q = 0; q < side_by_side; ++q)
      if (alive[q] && (i != 0 || a[q][0] == log.cards[0])) candidates |= lane_mask{1} << (first + q);
  }
  return candidates;
}

// The vector filter (see the top). Gen::step advances a lane vector of states and gives the draws
// (below 2^31).
using v8d = double __attribute__((vector_size(64)));
using v8i = std::int32_t __attribute__((vector_size(32)));

struct divisors {  // by bound, as whole vectors (a scalar broadcast goes through memory)
  v8d reciprocal[max_cards + 1]{};  // 1/b rounded up
  v8 multiplier[max_cards + 1]{};   // x < 2^15: x / b = (x · m) >> (15 + ⌈log2 b⌉)
  std::array<unsigned, max_cards + 1> shift{};
  divisors() {
    for (std::uint32_t b = 1; b <= max_cards; ++b) {
      const auto l = static_cast<unsigned>(std::bit_width(b - 1));
      shift[b] = 15 + l;
      for (unsigned lane = 0; lane < 8; ++lane) {
        reciprocal[b][lane] = std::nextafter(1.0 / static_cast<double>(b), 2.0);
        multiplier[b][lane] = static_cast<std::uint32_t>((std::uint64_t{1} << shift[b]) / b + 1);
      }
    }
  }
};

// Lanes [first, first + 8) of the call. (One vector at a time stops soonest: 8 lanes are all out
// after about 21 steps for 5 logged cards of 52, 32 after about 28; two or four vectors
// interleaved were no faster.)
template <class Gen>
[[gnu::always_inline]] inline lane_mask vector_group(const kernel_args& k, const divisors& div, unsigned first) noexcept {
  const log_view& log = *k.log;
  const std::size_t n = log.n, logged = log.cards.size();
  std::uint32_t set_lo = 0, set_hi = 0;  // positions (= cards, before the first step) logged
  for (const auto c : log.cards) (c < 32 ? set_lo : set_hi) |= std::uint32_t{1} << (c & 31);
  const v8 iota = {0, 1, 2, 3, 4, 5, 6, 7};
  const v8 lane = iota + first;
  v8 state = lane + k.base, alive = (v8)(lane < k.count), lo = iota - iota + set_lo, hi = iota - iota + set_hi;
  for (std::size_t i = n - 1; i >= logged; --i) {
    const auto bound = static_cast<std::uint32_t>(i + 1);
    v8 x;
    Gen::step(state, x);
    v8 quotient;
    if constexpr (Gen::draw_bits == 15) {
      quotient = (x * div.multiplier[bound]) >> div.shift[bound];
    } else {
      quotient = (v8)__builtin_convertvector(__builtin_convertvector((v8i)x, v8d) * div.reciprocal[bound], v8i);
    }
    const v8 j = x - quotient * bound;
    const v8 high = (j >> 5) * UINT32_MAX;  // all ones where j ≥ 32
    const v8 low_j = j & 31u;
    const v8 word = (hi & high) | (lo & ~high);
    alive &= ((word >> low_j) & 1u) - 1u;  // a logged card drawn: out
    const v8 moved = (((i < 32 ? lo : hi) >> (i & 31)) & 1u) << low_j;  // the card at i goes to j
    lo |= moved & ~high;
    hi |= moved & high;
    std::uint64_t words[4];
    __builtin_memcpy(words, &alive, sizeof words);
    if ((words[0] | words[1] | words[2] | words[3]) == 0) return 0;
    if (i == logged) break;
  }
  lane_mask candidates = 0;
  for (unsigned l = 0; l < 8 && first + l < k.count; ++l) {
    if (alive[l] == 0) continue;
    std::uint32_t g = k.base + first + l;
    if (top_down_survives_restoring(log, k.scratch, k.scratch + n, [&](std::uint32_t b) {
          return fast_mod(Gen::draw(g), b, k.mod_m[b]);
        }))
      candidates |= lane_mask{1} << (first + l);
  }
  return candidates;
}

template <class Gen>
[[gnu::always_inline]] inline lane_mask vector_lanes(const kernel_args& k) noexcept {
  static const divisors div;
  lane_mask candidates = 0;
  for (unsigned first = 0; first < k.count; first += 8) candidates |= vector_group<Gen>(k, div, first);
  return candidates;
}

// The generators' raw output as a step of a bare state word (the structs of small_lcgs.hpp).
struct rand_r_draws {
  static constexpr unsigned draw_bits = 31;
  static std::uint32_t draw(std::uint32_t& s) noexcept {
    glibc_rand_r g(s);
    const std::uint32_t r = g.next();
    s = g.state;
    return r;
  }
  // Three steps at once from the state: s·a^t + c·(a^(t−1) + … + 1) for t = 1, 2, 3.
  [[gnu::always_inline]] static void step(v8& s, v8& x) noexcept {
    constexpr std::uint32_t a = 1103515245u, c = 12345u;
    const v8 s1 = s * a + c, s2 = s * (a * a) + (a * c + c), s3 = s * (a * a * a) + (a * a * c + a * c + c);
    s = s3;
    x = (((s1 >> 16) & 2047u) << 20) ^ (((s2 >> 16) & 1023u) << 10) ^ ((s3 >> 16) & 1023u);
  }
};
struct msvc_draws {
  static constexpr unsigned draw_bits = 15;
  static std::uint32_t draw(std::uint32_t& s) noexcept {
    msvc_rand g(s);
    const std::uint32_t r = g.rand15();
    s = g.state;
    return r;
  }
  [[gnu::always_inline]] static void step(v8& s, v8& x) noexcept {
    s = s * 214013u + 2531011u;
    x = (s >> 16) & 0x7fffu;
  }
};

#if defined(__x86_64__)
template <class Gen>
[[gnu::target("avx2")]] lane_mask vector_lanes_avx2(const kernel_args& k) noexcept {
  return vector_lanes<Gen>(k);
}
#endif

template <class Gen>
lane_mask lcg_lanes(const kernel_args& k, bool vector) noexcept {
#if defined(__x86_64__)
  const std::size_t n = k.log->n, logged = k.log->cards.size();
  if (vector && have_avx2() && n <= max_cards && logged >= 1 && 2 * logged <= n) return vector_lanes_avx2<Gen>(k);
#else
  (void)vector;
#endif
  return side_by_side_lanes<Gen>(k);
}

}  // namespace

lane_mask small_lcg_lanes(const kernel_args& k, bool rand_r, bool vector) noexcept {
  return rand_r ? lcg_lanes<rand_r_draws>(k, vector) : lcg_lanes<msvc_draws>(k, vector);
}

}  // namespace shufl::audit::seeds
