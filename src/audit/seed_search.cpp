// Seed search (see seed_search.hpp): exact re-implementations of five generator + shuffle
// families, and a threaded search over a seed range with early exit and vectorised seeding.
#include "shufl/audit/seed_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <charconv>
#include <memory>
#include <mutex>
#include <thread>

#include "shufl/error.hpp"
#include "shufl/shuffle.hpp"

namespace shufl::audit {

namespace {

constexpr std::uint64_t two_32 = std::uint64_t{1} << 32;

// The weak shufflers --seed-search looks for, described as their authors wrote them (glibc
// rand(), std::mt19937 with std::shuffle, ...). These are descriptions: each family is
// re-implemented bit-exactly below from its published algorithm, so the search gives the same
// answer on every platform; shufl never calls rand(), <random> or std::shuffle, here or to shuffle.
constexpr std::array<seed_family_info, 5> families{{
    {seed_family::python_random, "python-random",
     "CPython random.seed(s) (MT19937 init_by_array over the 32-bit words of |s|) then random.shuffle(list) "
     "(for i = n-1 down to 1: j = _randbelow(i+1), getrandbits(bit_length(i+1)) with rejection; swap) "
     "[CPython Lib/random.py, Modules/_randommodule.c]",
     ~std::uint64_t{0}, time_unit::unix_seconds},
    {seed_family::c_rand, "c-rand",
     "glibc srand(s) (TYPE_3 additive feedback r[i] = r[i-3] + r[i-31], 310 outputs discarded) then "
     "for (i = n-1; i > 0; i--) { j = rand() % (i+1); swap(a[i], a[j]); } [glibc stdlib/random_r.c]",
     two_32 - 1, time_unit::unix_seconds},
    {seed_family::cpp_mt19937, "cpp-mt19937",
     "std::mt19937 g(s); std::shuffle(a.begin(), a.end(), g) as libstdc++ 12 does it (two positions per "
     "draw: x uniform in [0, (i+1)(i+2)), positions x / (i+2) and x % (i+2); Lemire downscaling) "
     "[GCC 12 bits/stl_algo.h, bits/uniform_int_dist.h]",
     two_32 - 1, time_unit::unix_seconds},
    {seed_family::java_random, "java-random",
     "new java.util.Random(s) (48-bit LCG, multiplier 0x5DEECE66D) then Collections.shuffle(list, rnd) "
     "(for i = size down to 2: swap(i-1, rnd.nextInt(i))) [Java SE API documentation]",
     (std::uint64_t{1} << 48) - 1, time_unit::unix_milliseconds},
    {seed_family::asf_poker, "asf-poker",
     "Delphi Random after Randomize (RandSeed := RandSeed*134775813 + 1; Random(m) = RandSeed*m div 2^32), "
     "seeded with the milliseconds since midnight, then ASF Software's shuffle (for i = 0 to n-1: swap a[i], "
     "a[Random(n-1)]) [Arkin et al., How We Learned to Cheat at Online Poker, 1999]",
     two_32 - 1, time_unit::milliseconds_since_midnight},
}};

// ---------------------------------------------------------------------------------------------
// Reference generators (scalar, exact).

constexpr std::uint32_t mt_upper = 0x80000000u, mt_lower = 0x7fffffffu, mt_matrix = 0x9908b0dfu;

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

// Delphi's Random as a word engine for uniform_below: returns RandSeed·2^32 + 1 after the update,
// so Lemire's multiply-high gives exactly RandSeed·m div 2^32 and never rejects (the low word
// is at least m for m < 2^32).
struct delphi_engine {
  std::uint32_t seed;
  std::uint64_t operator()() noexcept {
    seed = seed * 134775813u + 1u;
    return (std::uint64_t{seed} << 32) | 1u;
  }
};

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

void identity(std::span<std::uint32_t> a) noexcept {
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::uint32_t>(i);
}

// ---------------------------------------------------------------------------------------------
// The log of one search and the early-exit check.

struct log_view {
  std::size_t n = 0;
  std::span<const std::uint32_t> cards;  // first K dealt cards
  std::vector<std::int16_t> position;    // position[card] = its index in the log, or −1
};

log_view make_view(std::size_t n, std::span<const std::uint32_t> cards) {
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

bool prefix_matches(const log_view& log, const std::uint32_t* a) noexcept {
  for (std::size_t i = 0; i < log.cards.size(); ++i)
    if (a[i] != log.cards[i]) return false;
  return true;
}

// The scalar filter for one seed (also the filter's tail and the large-seed path).
bool scalar_filter(seed_family family, const log_view& log, std::uint64_t seed, std::uint32_t* a) noexcept {
  identity({a, log.n});
  switch (family) {
    case seed_family::python_random: {
      python_random g(seed);
      return top_down_survives(log, a, [&](std::uint32_t b) { return g.below(b); });
    }
    case seed_family::c_rand: {
      glibc_rand g(static_cast<std::uint32_t>(seed));
      return top_down_survives(log, a, [&](std::uint32_t b) { return g.below(b); });
    }
    case seed_family::java_random: {
      java_random g(seed);
      return top_down_survives(log, a, [&](std::uint32_t b) { return g.below(b); });
    }
    case seed_family::cpp_mt19937: {
      mt19937_state g;
      g.init_genrand(static_cast<std::uint32_t>(seed));
      libstdcxx_shuffle({a, log.n}, [&]() -> std::optional<std::uint32_t> { return g.next(); });
      return prefix_matches(log, a);
    }
    case seed_family::asf_poker: {
      delphi_engine e{static_cast<std::uint32_t>(seed)};
      asf_poker_algorithm{}(std::span<std::uint32_t>(a, log.n), e, 0);
      return prefix_matches(log, a);
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Vectorised filters: 32 seeds at a time, as 4 independent sets of 8 32-bit lanes in GCC/Clang
// vector extensions (one AVX2 register per set when the CPU has AVX2, two SSE2 registers
// otherwise); the 4 sets hide the latency of the sequential seeding recurrences. The kernels are
// inlined into one function per target.

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

// glibc: r[344 + k] = Σ_m C[k][m]·r[m] (mod 2^32) over the 31 seeded words, since r[31..33] =
// r[0..2] and r[i] = r[i−3] + r[i−31] is linear.
constexpr std::size_t glibc_outputs = 160;
struct glibc_coefficients {
  std::array<std::array<std::uint32_t, 31>, glibc_outputs> c{};
  glibc_coefficients() {
    std::vector<std::array<std::uint32_t, 31>> r(344 + glibc_outputs);
    for (std::size_t m = 0; m < 31; ++m) r[m][m] = 1;
    for (std::size_t i = 31; i < 34; ++i) r[i] = r[i - 31];
    for (std::size_t i = 34; i < r.size(); ++i)
      for (std::size_t m = 0; m < 31; ++m) r[i][m] = r[i - 3][m] + r[i - 31][m];
    for (std::size_t k = 0; k < glibc_outputs; ++k) c[k] = r[344 + k];
  }
};
const glibc_coefficients& glibc_table() {
  static const glibc_coefficients table;
  return table;
}

// Outputs of all lanes computed by the vector part; the scalar part computes later ones lane by lane.
constexpr std::size_t glibc_vector_outputs = 16;

struct kernel_args {
  seed_family family;
  const log_view* log;
  std::uint32_t base;
  unsigned count;
  std::size_t outputs;
  const std::uint32_t* genrand;
  const std::uint64_t* mod_m;  // fast_mod multipliers by bound (c-rand)
  mt_buffer* mt;
  std::uint32_t* scratch;  // 2n words: the identity list, then the drawn indices
};

[[gnu::always_inline]] inline lane_mask c_rand_kernel(const kernel_args& k) noexcept {
  constexpr std::uint32_t m31 = 2147483647u;
  const auto& table = glibc_table();
  lane_words* r = k.mt->w;  // r[0..30]; r[31..31+glibc_vector_outputs) hold the outputs
  for (std::size_t q = 0; q < sets; ++q) {
    v8 s = {};
    for (unsigned l = 0; l < 8; ++l) s[l] = k.base + static_cast<std::uint32_t>(q * 8 + l);
    const v8 zero = s - s;
    const v8 big = zero + m31;
    s = s + ((v8)(s == zero) & 1u);  // seed 0 is seed 1
    r[0].q[q] = s;
    // (int32)s mod M: s for s < 2^31, s − 2^32 ≡ s − 2 otherwise; reduced below M.
    v8 x = s - ((s >> 31) << 1);
    x = x - ((v8)(x >= big) & m31);
    // 16807·x mod M in 32-bit lanes: x = a·2^16 + b; a·16807·2^16 folded with 2^31 ≡ 1.
    for (std::size_t i = 1; i < 31; ++i) {
      const v8 u = (x >> 16) * 16807u;
      v8 t = ((u & 0x7fffu) << 16) + (u >> 15);
      t = t + (x & 0xffffu) * 16807u;
      t = (t & m31) + (t >> 31);
      x = t - ((v8)(t >= big) & m31);
      r[i].q[q] = x;
    }
  }
  for (std::size_t o = 0; o < glibc_vector_outputs; ++o) {
    v8 acc[sets];
    for (std::size_t q = 0; q < sets; ++q) acc[q] = r[0].q[q] * table.c[o][0];
    for (std::size_t m = 1; m < 31; ++m)
      for (std::size_t q = 0; q < sets; ++q) acc[q] += r[m].q[q] * table.c[o][m];
    for (std::size_t q = 0; q < sets; ++q) r[31 + o].q[q] = acc[q] >> 1;
  }
  lane_mask candidates = 0;
  const log_view& log = *k.log;
  for (unsigned l = 0; l < k.count; ++l) {
    std::size_t n_out = 0;
    const bool keep = top_down_survives_restoring(log, k.scratch, k.scratch + log.n, [&](std::uint32_t bound) {
      std::uint32_t o;
      if (n_out < glibc_vector_outputs) {
        o = r[31 + n_out].lane(l);
      } else if (n_out < glibc_outputs) {
        std::uint32_t acc = 0;
        for (std::size_t m = 0; m < 31; ++m) acc += table.c[n_out][m] * r[m].lane(l);
        o = acc >> 1;
      } else {
        return UINT32_MAX;
      }
      ++n_out;
      return fast_mod(o, bound, k.mod_m[bound]);
    });
    if (keep) candidates |= lane_mask{1} << l;
  }
  return candidates;
}

// Python: init_by_array for one-word keys in all lanes, then the first outputs twisted lane by
// lane (output k < 227 needs only pre-twist words k, k + 1 and k + 397).
constexpr std::size_t mt_lazy_outputs = 227;
constexpr std::size_t python_vector_outputs = 12;

[[gnu::always_inline]] inline lane_mask python_kernel(const kernel_args& k) noexcept {
  lane_words* mt = k.mt->w;
  v8 key[sets], prev[sets];
  for (std::size_t q = 0; q < sets; ++q) {
    key[q] = v8{} ;
    for (unsigned l = 0; l < 8; ++l) key[q][l] = k.base + static_cast<std::uint32_t>(q * 8 + l);
    prev[q] = (key[q] - key[q]) + k.genrand[0];
  }
  for (std::size_t i = 1; i < 624; ++i) {
    const std::uint32_t g = k.genrand[i];
    for (std::size_t q = 0; q < sets; ++q) {
      prev[q] = ((key[q] - key[q] + g) ^ ((prev[q] ^ (prev[q] >> 30)) * 1664525u)) + key[q];
      mt[i].q[q] = prev[q];
    }
  }
  // The wrap: mt[0] = mt[623], then i = 1 once more (prev holds mt[623]).
  for (std::size_t q = 0; q < sets; ++q) {
    prev[q] = (mt[1].q[q] ^ ((prev[q] ^ (prev[q] >> 30)) * 1664525u)) + key[q];
    mt[1].q[q] = prev[q];
  }
  for (std::uint32_t i = 2; i < 624; ++i)
    for (std::size_t q = 0; q < sets; ++q) {
      prev[q] = (mt[i].q[q] ^ ((prev[q] ^ (prev[q] >> 30)) * 1566083941u)) - i;
      mt[i].q[q] = prev[q];
    }
  for (std::size_t q = 0; q < sets; ++q) {
    mt[1].q[q] = (mt[1].q[q] ^ ((prev[q] ^ (prev[q] >> 30)) * 1566083941u)) - 1u;
    mt[0].q[q] = (key[q] - key[q]) + 0x80000000u;
  }
  // The first outputs of every lane, twisted and tempered in vectors.
  lane_words out[python_vector_outputs];
  for (std::size_t o = 0; o < python_vector_outputs; ++o)
    for (std::size_t q = 0; q < sets; ++q) {
      const v8 y = (mt[o].q[q] & mt_upper) | (mt[o + 1].q[q] & mt_lower);
      v8 v = mt[o + 397].q[q] ^ (y >> 1) ^ ((0u - (y & 1u)) & mt_matrix);
      v ^= v >> 11;
      v ^= (v << 7) & 0x9d2c5680u;
      v ^= (v << 15) & 0xefc60000u;
      out[o].q[q] = v ^ (v >> 18);
    }
  lane_mask candidates = 0;
  const log_view& log = *k.log;
  for (unsigned l = 0; l < k.count; ++l) {
    std::size_t n_out = 0;
    // Lane l's words, lanes apart (lane_words holds one word of every lane).
    const std::uint32_t* words = reinterpret_cast<const std::uint32_t*>(mt) + l;
    const std::uint32_t* first = reinterpret_cast<const std::uint32_t*>(out) + l;
    const bool keep = top_down_survives_restoring(log, k.scratch, k.scratch + log.n, [&](std::uint32_t bound) {
      const int shift = std::countl_zero(bound);
      for (;;) {
        std::uint32_t y;
        if (n_out < python_vector_outputs)
          y = first[n_out * lanes];
        else if (n_out < mt_lazy_outputs)
          y = mt_temper(mt_twist_word(words[n_out * lanes], words[(n_out + 1) * lanes], words[(n_out + 397) * lanes]));
        else
          return UINT32_MAX;
        ++n_out;
        if ((y >> shift) < bound) return y >> shift;
      }
    });
    if (keep) candidates |= lane_mask{1} << l;
  }
  return candidates;
}

// std::mt19937(seed): init_genrand in all lanes up to word 397 + outputs, then libstdc++'s shuffle
// lane by lane on the first `outputs` outputs (< 227).
[[gnu::always_inline]] inline lane_mask mt19937_kernel(const kernel_args& k) noexcept {
  lane_words* mt = k.mt->w;
  v8 prev[sets];
  for (std::size_t q = 0; q < sets; ++q) {
    prev[q] = v8{};
    for (unsigned l = 0; l < 8; ++l) prev[q][l] = k.base + static_cast<std::uint32_t>(q * 8 + l);
    mt[0].q[q] = prev[q];
  }
  const std::size_t last = 397 + k.outputs;
  for (std::uint32_t i = 1; i <= last; ++i)
    for (std::size_t q = 0; q < sets; ++q) {
      prev[q] = (prev[q] ^ (prev[q] >> 30)) * 1812433253u + i;
      mt[i].q[q] = prev[q];
    }
  lane_mask candidates = 0;
  const log_view& log = *k.log;
  std::uint32_t* a = k.scratch;
  for (unsigned l = 0; l < k.count; ++l) {
    identity({a, log.n});
    std::size_t n_out = 0;
    const bool done = libstdcxx_shuffle({a, log.n}, [&]() -> std::optional<std::uint32_t> {
      if (n_out >= k.outputs) return std::nullopt;
      const std::uint32_t y = mt_temper(mt_twist_word(mt[n_out].lane(l), mt[n_out + 1].lane(l), mt[n_out + 397].lane(l)));
      ++n_out;
      return y;
    });
    if (!done || prefix_matches(log, a)) candidates |= lane_mask{1} << l;
  }
  identity({a, log.n});
  return candidates;
}

[[gnu::always_inline]] inline lane_mask run_kernel(const kernel_args& k) noexcept {
  switch (k.family) {
    case seed_family::python_random: return python_kernel(k);
    case seed_family::c_rand: return c_rand_kernel(k);
    case seed_family::cpp_mt19937: return mt19937_kernel(k);
    default: return 0;
  }
}

#if defined(__x86_64__)
[[gnu::target("avx2")]] lane_mask run_kernel_avx2(const kernel_args& k) noexcept { return run_kernel(k); }
#endif
lane_mask run_kernel_generic(const kernel_args& k) noexcept { return run_kernel(k); }

bool have_avx2() noexcept {
#if defined(__x86_64__)
  static const bool yes = __builtin_cpu_supports("avx2");
  return yes;
#else
  return false;
#endif
}

bool vectorised(seed_family family) noexcept {
  return family == seed_family::python_random || family == seed_family::c_rand ||
         family == seed_family::cpp_mt19937;
}

// ---------------------------------------------------------------------------------------------
// Confirming a candidate with the reference deals.

bool confirms(const seed_search_options& o, std::size_t deal, std::uint64_t seed) {
  const std::size_t deals = o.reseed == reseed_mode::once ? o.deals.size() : 1;
  const auto made = family_deals(o.family, seed, o.n, deals);
  for (std::size_t d = 0; d < deals; ++d) {
    const auto& logged = o.reseed == reseed_mode::once ? o.deals[d] : o.deals[deal];
    if (!std::equal(logged.begin(), logged.end(), made[d].begin())) return false;
  }
  return true;
}

void validate(const seed_search_options& o) {
  if (o.deals.empty()) throw error("seed search: no deals to reproduce");
  if (o.n < 2 || o.n > 32767) throw error(fmt::format("seed search: a deck of {} cards (2 to 32767)", o.n));
  const auto& info = family_info(o.family);
  if (o.range.last < o.range.first || o.range.last > info.max_seed)
    throw error(fmt::format("seed search: seeds {}..{} outside {}'s 0..{}", o.range.first, o.range.last, info.name,
                            info.max_seed));
  for (std::size_t d = 0; d < o.deals.size(); ++d) {
    const auto& deal = o.deals[d];
    if (deal.empty() || deal.size() > o.n)
      throw error(fmt::format("seed search: deal {} has {} cards (1 to {})", d + 1, deal.size(), o.n));
    std::vector<bool> seen(o.n);
    for (const auto c : deal) {
      if (c >= o.n || seen[c]) throw error(fmt::format("seed search: deal {} repeats a card or has one outside the deck", d + 1));
      seen[c] = true;
    }
  }
}

}  // namespace

std::span<const seed_family_info> seed_families() noexcept { return families; }

const seed_family_info& family_info(seed_family family) noexcept {
  return families[static_cast<std::size_t>(family)];
}

const seed_family_info& parse_seed_family(std::string_view name) {
  std::array<std::string_view, families.size()> names;
  for (std::size_t i = 0; i < families.size(); ++i) {
    if (families[i].name == name) return families[i];
    names[i] = families[i].name;
  }
  throw unknown_name_error("generator family", name, names);
}

std::vector<std::vector<std::uint32_t>> family_deals(seed_family family, std::uint64_t seed, std::size_t n,
                                                     std::size_t deals) {
  std::vector<std::vector<std::uint32_t>> out(deals, std::vector<std::uint32_t>(n));
  auto each = [&](auto&& shuffle_one) {
    for (auto& a : out) {
      identity(a);
      shuffle_one(std::span<std::uint32_t>(a));
    }
  };
  switch (family) {
    case seed_family::python_random: {
      python_random g(seed);
      each([&](std::span<std::uint32_t> a) { top_down_shuffle(a, g); });
      break;
    }
    case seed_family::c_rand: {
      glibc_rand g(static_cast<std::uint32_t>(seed));
      each([&](std::span<std::uint32_t> a) { top_down_shuffle(a, g); });
      break;
    }
    case seed_family::java_random: {
      java_random g(seed);
      each([&](std::span<std::uint32_t> a) { top_down_shuffle(a, g); });
      break;
    }
    case seed_family::cpp_mt19937: {
      mt19937_state g;
      g.init_genrand(static_cast<std::uint32_t>(seed));
      each([&](std::span<std::uint32_t> a) {
        libstdcxx_shuffle(a, [&]() -> std::optional<std::uint32_t> { return g.next(); });
      });
      break;
    }
    case seed_family::asf_poker: {
      delphi_engine e{static_cast<std::uint32_t>(seed)};
      each([&](std::span<std::uint32_t> a) { asf_poker_algorithm{}(a, e, 0); });
      break;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Ranges and times.

std::optional<std::int64_t> parse_utc_time(std::string_view t) noexcept {
  // YYYY-MM-DDTHH:MM:SSZ
  if (t.size() != 20 || t[4] != '-' || t[7] != '-' || (t[10] != 'T' && t[10] != 't') || t[13] != ':' ||
      t[16] != ':' || (t[19] != 'Z' && t[19] != 'z'))
    return std::nullopt;
  auto num = [&](std::size_t at, std::size_t len, int& v) {
    v = 0;
    for (std::size_t i = at; i < at + len; ++i) {
      if (t[i] < '0' || t[i] > '9') return false;
      v = v * 10 + (t[i] - '0');
    }
    return true;
  };
  int y, mo, d, h, mi, s;
  if (!num(0, 4, y) || !num(5, 2, mo) || !num(8, 2, d) || !num(11, 2, h) || !num(14, 2, mi) || !num(17, 2, s))
    return std::nullopt;
  if (y < 1970 || mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 59) return std::nullopt;
  static constexpr int days_in[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (d < 1 || d > days_in[mo - 1] + (mo == 2 && leap ? 1 : 0)) return std::nullopt;
  // Days since 1970-01-01 (proleptic Gregorian, counted from March 1 of year 0).
  const int yy = y - (mo <= 2 ? 1 : 0);
  const int era = yy / 400;
  const int yoe = yy - era * 400;
  const int doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const std::int64_t days = std::int64_t{era} * 146097 + doe - 719468;
  return days * 86400 + h * 3600 + mi * 60 + s;
}

namespace {

std::optional<std::uint64_t> parse_seed_number(std::string_view t) {
  std::uint64_t v = 0;
  if (t.size() > 2 && t[0] == '2' && t[1] == '^') {
    std::string_view rest = t.substr(2);
    bool minus_one = false;
    if (rest.size() > 2 && rest.substr(rest.size() - 2) == "-1") {
      minus_one = true;
      rest.remove_suffix(2);
    }
    unsigned k = 0;
    const auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), k);
    if (ec != std::errc() || p != rest.data() + rest.size() || k > 64 || (k == 64 && !minus_one)) return std::nullopt;
    v = k == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << k) - (minus_one ? 1 : 0);
    return v;
  }
  if (t.empty() || t[0] < '0' || t[0] > '9') return std::nullopt;
  const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || p != t.data() + t.size()) return std::nullopt;
  return v;
}

}  // namespace

seed_range parse_seed_range(std::string_view text, const seed_family_info& family, std::string_view option) {
  seed_range r;
  r.text = std::string(text);
  std::string_view body = text;
  if (body.starts_with("time:")) {
    r.from_time = true;
    body.remove_prefix(5);
  }
  const auto dots = body.find("..");
  if (dots == std::string_view::npos)
    throw error(fmt::format("invalid value '{}' for {}: expected A..B (e.g. 0..2^32-1) or "
                            "time:YYYY-MM-DDTHH:MM:SSZ..YYYY-MM-DDTHH:MM:SSZ",
                            text, option));
  const auto lo_text = body.substr(0, dots), hi_text = body.substr(dots + 2);
  if (r.from_time) {
    const auto t0 = parse_utc_time(lo_text), t1 = parse_utc_time(hi_text);
    if (!t0 || !t1)
      throw error(fmt::format("invalid value '{}' for {}: times are written YYYY-MM-DDTHH:MM:SSZ (UTC), e.g. "
                              "time:2026-12-01T00:00:00Z..2026-12-01T23:59:59Z",
                              text, option));
    if (*t1 < *t0) throw error(fmt::format("invalid value '{}' for {}: the window ends before it starts", text, option));
    const auto s0 = static_cast<std::uint64_t>(*t0), s1 = static_cast<std::uint64_t>(*t1);
    switch (family.unit) {
      case time_unit::unix_seconds:
        r.first = s0;
        r.last = s1;
        break;
      case time_unit::unix_milliseconds:
        r.first = s0 * 1000;
        r.last = s1 * 1000 + 999;
        break;
      case time_unit::milliseconds_since_midnight:
        if (s1 - s0 >= 86400 || s0 % 86400 > s1 % 86400) {
          r.first = 0;
          r.last = 86'399'999;
        } else {
          r.first = (s0 % 86400) * 1000;
          r.last = (s1 % 86400) * 1000 + 999;
        }
        break;
    }
  } else {
    const auto a = parse_seed_number(lo_text), b = parse_seed_number(hi_text);
    if (!a || !b)
      throw error(fmt::format("invalid value '{}' for {}: seeds are whole numbers, 2^K or 2^K-1 (e.g. 0..2^32-1)", text,
                              option));
    if (*b < *a) throw error(fmt::format("invalid value '{}' for {}: the range ends before it starts", text, option));
    r.first = *a;
    r.last = *b;
  }
  if (r.last > family.max_seed)
    throw error(fmt::format("invalid value '{}' for {}: {} seeds go up to {} (larger ones give the same deals or "
                            "do not exist)",
                            text, option, family.name, family.max_seed));
  if (r.last - r.first >= max_search_seeds)
    throw error(fmt::format("invalid value '{}' for {}: {} seeds; one search covers at most 2^48", text, option,
                            static_cast<double>(r.last - r.first) + 1));
  return r;
}

std::optional<seed_range> shard_of(const seed_range& range, std::uint64_t shard, std::uint64_t shards) {
  if (shards == 0 || shard >= shards) throw error("--shard: shards are numbered 0 to N-1 (0 <= I < N)");
  const auto count = static_cast<uint128>(range.last - range.first) + 1;
  const auto b = static_cast<std::uint64_t>(count * shard / shards);
  const auto e = static_cast<std::uint64_t>(count * (shard + 1) / shards);
  if (b == e) return std::nullopt;
  seed_range r = range;
  r.first = range.first + b;
  r.last = range.first + e - 1;
  return r;
}

// ---------------------------------------------------------------------------------------------
// The search.

seed_search_result search_seeds(const seed_search_options& o) {
  validate(o);
  seed_search_result result;
  const std::size_t searches = o.reseed == reseed_mode::once ? 1 : o.deals.size();
  result.searches = searches;
  const std::uint64_t per_search = o.range.last - o.range.first + 1;
  const std::uint64_t total = per_search * searches;
  constexpr std::uint64_t block = std::uint64_t{1} << 16;
  const std::uint64_t blocks = (per_search + block - 1) / block;
  const unsigned threads = std::max(1u, o.threads);
  const bool avx2 = have_avx2();

  std::array<std::uint32_t, 624> genrand{};
  {
    mt19937_state g;
    g.init_genrand(19650218u);
    genrand = g.mt;
  }
  if (o.family == seed_family::c_rand) (void)glibc_table();
  // cpp-mt19937: outputs the vector part provides (about n/2 draws plus a margin for rejections).
  const std::size_t mt_outputs = std::min<std::size_t>(226, o.n / 2 + 16);
  std::vector<std::uint64_t> mod_m(o.n + 1);
  for (std::size_t d = 1; d <= o.n; ++d) mod_m[d] = UINT64_MAX / d + 1;

  std::atomic<std::uint64_t> done{0};
  std::mutex mutex;
  for (std::size_t s = 0; s < searches; ++s) {
    const auto& filter_deal = o.deals[o.reseed == reseed_mode::once ? 0 : s];
    const log_view log = make_view(o.n, filter_deal);
    std::atomic<std::uint64_t> next_block{0};
    std::atomic<std::uint64_t> best{UINT64_MAX};
    std::atomic<bool> stop{false};
    std::vector<std::uint64_t> found;

    auto worker = [&]() {
      std::vector<std::uint32_t> scratch(2 * o.n);
      identity({scratch.data(), o.n});
      auto mt = std::make_unique<mt_buffer>();
      auto consider = [&](std::uint64_t seed) {
        if (!confirms(o, s, seed)) return;
        const std::lock_guard lock(mutex);
        found.push_back(seed);
        if (!o.all) {
          std::uint64_t b = best.load();
          while (seed < b && !best.compare_exchange_weak(b, seed)) {
          }
        } else if (found.size() >= o.max_matches) {
          result.truncated = true;
          stop = true;
        }
      };
      for (;;) {
        const std::uint64_t b = next_block.fetch_add(1);
        if (b >= blocks || stop) break;
        const std::uint64_t lo = o.range.first + b * block;
        if (!o.all && lo > best.load()) break;
        // lo + block - 1 would wrap past 2^64 - 1 in the last block below it: compare the distance.
        const std::uint64_t hi = o.range.last - lo < block - 1 ? o.range.last : lo + block - 1;
        std::uint64_t seed = lo;
        if (vectorised(o.family)) {
          while (seed <= hi && seed < two_32 - (lanes - 1)) {  // seed + lanes - 1 < 2^32, without wrapping
            const auto count = static_cast<unsigned>(std::min<std::uint64_t>(lanes, hi - seed + 1));
            const kernel_args args{o.family, &log,           static_cast<std::uint32_t>(seed), count, mt_outputs,
                                   genrand.data(), mod_m.data(), mt.get(),                         scratch.data()};
#if defined(__x86_64__)
            lane_mask c = avx2 ? run_kernel_avx2(args) : run_kernel_generic(args);
#else
            lane_mask c = run_kernel_generic(args);
#endif
            while (c != 0) {
              const int l = std::countr_zero(c);
              c &= c - 1;
              consider(seed + static_cast<unsigned>(l));
            }
            seed += count;
          }
        }
        for (; seed <= hi && seed >= lo; ++seed)
          if (scalar_filter(o.family, log, seed, scratch.data())) consider(seed);
        identity({scratch.data(), o.n});  // the kernels expect the identity on entry
        const std::uint64_t d = done.fetch_add(hi - lo + 1) + (hi - lo + 1);
        if (o.progress) o.progress(d, total);
      }
    };
    if (threads == 1) {
      worker();
    } else {
      std::vector<std::thread> pool;
      for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
      for (auto& t : pool) t.join();
    }
    std::sort(found.begin(), found.end());
    const std::size_t keep = o.all ? found.size() : std::min<std::size_t>(found.size(), 1);
    for (std::size_t i = 0; i < keep; ++i) result.matches.push_back({found[i], o.reseed == reseed_mode::once ? 0 : s});
  }
  result.seeds_tried = done.load();
  return result;
}

}  // namespace shufl::audit
