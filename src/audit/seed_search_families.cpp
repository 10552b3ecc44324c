// The seed-search families (see seed_search.hpp): their table, the reference deals each one
// makes, and the scalar filter of one seed. A family is a generator (seed_search/*.hpp) + a
// shuffle loop + a reduction + a deck order (seed_search/loops.hpp).
#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "seed_search/delphi_random.hpp"
#include "seed_search/dotnet_random.hpp"
#include "seed_search/glibc_rand.hpp"
#include "seed_search/go_math_rand.hpp"
#include "seed_search/java_random.hpp"
#include "seed_search/loops.hpp"
#include "seed_search/mt19937.hpp"
#include "seed_search/php_mt_rand.hpp"
#include "seed_search/small_lcgs.hpp"
#include "shufl/audit/seed_search.hpp"
#include "shufl/error.hpp"
#include "shufl/shuffle.hpp"

namespace shufl::audit {

namespace {

using namespace seeds;


// The weak shufflers --seed-search looks for, described as their authors wrote them (glibc
// rand(), std::mt19937 with std::shuffle, ...). These are descriptions: each family is
// re-implemented bit-exactly below from its published algorithm, so the search gives the same
// answer on every platform; shufl never calls rand(), <random> or std::shuffle, here or to shuffle.
constexpr std::array<seed_family_info, 12> families{{
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
    {seed_family::glibc_rand_r, "glibc-rand-r",
     "glibc rand_r(&s) (three steps of s = s*1103515245 + 12345, 11+10+10 bits of s/65536) then "
     "for (i = n-1; i > 0; i--) { j = rand_r(&s) % (i+1); swap(a[i], a[j]); } [glibc stdlib/rand_r.c]",
     two_32 - 1, time_unit::unix_seconds},
    {seed_family::msvc_rand, "msvc-rand",
     "Microsoft C srand(s)/rand() (s = s*214013 + 2531011 mod 2^32, rand() = (s >> 16) & 0x7fff) then "
     "for (i = n-1; i > 0; i--) { j = rand() % (i+1); swap(a[i], a[j]); } [Microsoft C runtime, published LCG; "
     "no Windows runtime here to test against]",
     two_32 - 1, time_unit::unix_seconds},
    {seed_family::php_mt_rand, "php-mt-rand",
     "PHP mt_srand(s) (MT19937 init_genrand(s)) then shuffle($a) (for i = n-1 down to 1: j = mt_rand's range "
     "[0, i]: a power of two masked, else outputs above the last whole multiple of i+1 redrawn, then mod i+1; swap) "
     "[php-src ext/random/mt_rand.c, ext/standard/array.c]",
     two_32 - 1, time_unit::unix_seconds},
    {seed_family::php_mt_rand_legacy, "php-mt-rand-legacy",
     "PHP mt_srand(s, MT_RAND_PHP) (MT19937 with PHP's pre-7.1 twist: the low bit of the replaced word, not of "
     "the next) then shuffle($a) as php-mt-rand [php-src ext/random/mt_rand.c]",
     two_32 - 1, time_unit::unix_seconds},
    {seed_family::go_math_rand, "go-math-rand",
     "Go rand.New(rand.NewSource(s)) (additive lagged Fibonacci x[k] = x[k-607] + x[k-273] mod 2^64, seeded "
     "from s mod 2^31-1 by 48271^k and rngCooked) then r.Shuffle(n, swap) (for i = n-1 down to 1: j = Lemire's "
     "multiply of Uint32() by i+1 with rejection; swap); --loop inside-out is r.Perm(n) [Go math/rand rng.go, "
     "rand.go]",
     (std::uint64_t{1} << 63) - 1, time_unit::unix_seconds},
    {seed_family::dotnet_random, "dotnet-random",
     "new System.Random(s) (Knuth's subtractive generator of 55 words, second index 21, as .NET publishes it) "
     "then for (i = n-1; i > 0; i--) { j = rnd.Next(i + 1); swap } with Next(k) = (int)(Sample() * k) "
     "[.NET Random.cs (Net5CompatSeedImpl); Knuth, TAOCP vol. 2, 3.6]",
     (std::uint64_t{1} << 31) - 1, time_unit::milliseconds_since_boot},
    {seed_family::node_math_random, "node-math-random",
     "V8 Math.random (xorshift128+, a cache of 64 values served from its end, ToDouble ((state0 >> 12) | exponent) "
     "- 1 as in Node 20, or (state0 >> 11) / 2^53; never seeded by the program: its 128-bit state is recovered from "
     "the cards) "
     "then for (i = n-1; i > 0; i--) { j = Math.floor(Math.random() * (i+1)); swap(a[i], a[j]); } "
     "[V8 src/base/utils/random-number-generator.h, src/numbers/math-random.cc]",
     0, time_unit::unix_seconds},
}};

}  // namespace

namespace seeds {

namespace {

// fast_mod's multipliers ⌊(2^64 − 1)/d⌋ + 1 for every bound d ≤ 32768 (built once): the one-word
// LCG families spend most of a seed on `% (i + 1)` otherwise.
const std::uint64_t* mod_multipliers() {
  static const std::vector<std::uint64_t> table = [] {
    std::vector<std::uint64_t> t(32769);
    for (std::size_t d = 1; d < t.size(); ++d) t[d] = UINT64_MAX / d + 1;
    return t;
  }();
  return table.data();
}

}  // namespace

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
    case seed_family::glibc_rand_r: {
      glibc_rand_r g(static_cast<std::uint32_t>(seed));
      const std::uint64_t* m = mod_multipliers();
      return top_down_survives(log, a, [&](std::uint32_t b) { return fast_mod(g.next(), b, m[b]); });
    }
    case seed_family::msvc_rand: {
      msvc_rand g(static_cast<std::uint32_t>(seed));
      const std::uint64_t* m = mod_multipliers();
      return top_down_survives(log, a, [&](std::uint32_t b) { return fast_mod(g.rand15(), b, m[b]); });
    }
    case seed_family::php_mt_rand:
    case seed_family::php_mt_rand_legacy: {
      php_mt_rand g(static_cast<std::uint32_t>(seed), family == seed_family::php_mt_rand_legacy);
      return top_down_survives(log, a, [&](std::uint32_t b) { return g.below(b); });
    }
    case seed_family::go_math_rand: {
      go_lazy_rand g(seed);
      return top_down_survives(log, a, [&](std::uint32_t b) { return g.shuffle_below(b); });
    }
    case seed_family::dotnet_random: {
      dotnet_random g(static_cast<std::uint32_t>(seed));
      return top_down_survives(log, a, [&](std::uint32_t b) { return g.below(b); });
    }
    case seed_family::node_math_random: return false;  // no seeds: recover_node_state
  }
  return true;
}

}  // namespace seeds

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

namespace {

// The variant loops over a generator with below(k) (and, for div, next() of 31 bits).
template <class Gen>
std::uint32_t variant_draw(Gen& g, std::uint32_t k, draw_reduction reduce) noexcept {
  if constexpr (requires { g.next(); }) {
    if (reduce == draw_reduction::div) return static_cast<std::uint32_t>(g.next() / (0x7fffffffu / k + 1));
  }
  return g.below(k);
}

template <class Gen>
void variant_shuffle(std::span<std::uint32_t> a, Gen& g, const family_variant& v) noexcept {
  const auto n = static_cast<std::uint32_t>(a.size());
  switch (v.loop) {
    case shuffle_loop::down:
      for (std::uint32_t i = n; i-- > 1;) std::swap(a[i], a[variant_draw(g, i + 1, v.reduce)]);
      break;
    case shuffle_loop::up:
      for (std::uint32_t i = 0; i + 1 < n; ++i) std::swap(a[i], a[i + variant_draw(g, n - i, v.reduce)]);
      break;
    case shuffle_loop::naive:
      for (std::uint32_t i = 0; i < n; ++i) std::swap(a[i], a[variant_draw(g, n, v.reduce)]);
      break;
    case shuffle_loop::inside_out:  // the list is the identity on entry: a[j] = i is "a[j] = source[i]"
      for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t j = variant_draw(g, i + 1, v.reduce);
        a[i] = a[j];
        a[j] = i;
      }
      break;
    case shuffle_loop::sample: break;  // not in place (python_sample)
    case shuffle_loop::pop:
    case shuffle_loop::sort: break;  // node-math-random only (check_variant)
  }
}

// CPython 3.11 random.sample(list(range(n)), k) through `deal(i, card)`, which returns false to
// stop early: the pool method when n is no larger than the set method's table, else the set.
template <class Gen, class Deal>
void python_sample(std::size_t n, std::size_t k, Gen& g, std::uint32_t* pool, Deal&& deal) noexcept {
  std::size_t setsize = 21;
  if (k > 5) {  // 4^ceil(log4(3k)): the smallest power of 4 ≥ 3k (3k is never a power of 4)
    std::size_t p = 1;
    while (p < 3 * k) p *= 4;
    setsize += p;
  }
  if (n <= setsize) {
    for (std::size_t i = 0; i < n; ++i) pool[i] = static_cast<std::uint32_t>(i);
    for (std::size_t i = 0; i < k; ++i) {
      const std::uint32_t j = g.below(static_cast<std::uint32_t>(n - i));
      const std::uint32_t card = pool[j];
      pool[j] = pool[n - i - 1];
      if (!deal(i, card)) return;
    }
    return;
  }
  // pool[] as the set of indices already dealt (0/1 per index).
  for (std::size_t i = 0; i < n; ++i) pool[i] = 0;
  for (std::size_t i = 0; i < k; ++i) {
    std::uint32_t j = g.below(static_cast<std::uint32_t>(n));
    while (pool[j] != 0) j = g.below(static_cast<std::uint32_t>(n));
    pool[j] = 1;
    if (!deal(i, j)) return;
  }
}

template <class Gen>
bool variant_matches(const log_view& log, std::uint32_t* a, Gen& g, const family_variant& v) noexcept {
  if (v.loop == shuffle_loop::sample) {
    bool same = true;
    python_sample(log.n, v.sample_size, g, a, [&](std::size_t i, std::uint32_t card) {
      same = i >= log.cards.size() || card == log.cards[i];
      return same && i + 1 < log.cards.size();
    });
    return same;
  }
  if (v.loop == shuffle_loop::up) {  // position i is final once placed
    const auto n = static_cast<std::uint32_t>(log.n);
    for (std::uint32_t i = 0; i + 1 < n && i < log.cards.size(); ++i) {
      std::swap(a[i], a[i + variant_draw(g, n - i, v.reduce)]);
      if (a[i] != log.cards[i]) return false;
    }
    return true;
  }
  variant_shuffle(std::span<std::uint32_t>(a, log.n), g, v);
  return prefix_matches(log, a);
}

}  // namespace

void check_variant(seed_family family, const family_variant& v) {
  const bool loops = family != seed_family::cpp_mt19937 && family != seed_family::asf_poker &&
                     family != seed_family::php_mt_rand_legacy;
  if (family == seed_family::node_math_random) {
    if (v.loop == shuffle_loop::naive || v.loop == shuffle_loop::inside_out || v.loop == shuffle_loop::sample)
      throw error(fmt::format("--loop {}: node-math-random needs a loop that leaves each card final when drawn (down, "
                              "up, pop, sort)",
                              v.loop == shuffle_loop::naive ? "naive" : v.loop == shuffle_loop::sample ? "sample" : "inside-out"));
    if (v.carry_over) throw error("--carry-over: node-math-random shuffles a fresh list for every deal");
    if (v.reduce != draw_reduction::native)
      throw error(fmt::format("--reduce {}: node-math-random draws with Math.floor(Math.random() * k) only",
                              v.reduce == draw_reduction::div ? "div" : "mod"));
    return;
  }
  if (v.loop == shuffle_loop::pop || v.loop == shuffle_loop::sort)
    throw error(fmt::format("--loop {} applies to node-math-random, not to {}", v.loop == shuffle_loop::pop ? "pop" : "sort",
                            family_info(family).name));
  if (v.loop != shuffle_loop::down && !loops)
    throw error(fmt::format("--loop: {} has its own shuffle loop; --loop applies to every family but cpp-mt19937, "
                            "asf-poker and php-mt-rand-legacy",
                            family_info(family).name));
  if (v.reduce == draw_reduction::mod && family != seed_family::go_math_rand)
    throw error(fmt::format("--reduce mod: {} has no second bounded draw; mod applies to c-rand (its default) and "
                            "go-math-rand (r.Intn in a hand-written loop)",
                            family_info(family).name));
  if (v.reduce == draw_reduction::mod && v.loop != shuffle_loop::down)
    throw error("--reduce mod: go-math-rand's loops other than down already draw with r.Intn (drop --reduce)");
  if (v.loop == shuffle_loop::sample && family != seed_family::python_random)
    throw error(fmt::format("--loop sample is CPython's random.sample: it applies to python-random, not {}",
                            family_info(family).name));
  if (v.loop == shuffle_loop::sample && v.carry_over)
    throw error("--carry-over: random.sample leaves its list as it was, there is nothing to carry over (drop one)");
  if (v.reduce == draw_reduction::div && family != seed_family::c_rand && family != seed_family::glibc_rand_r)
    throw error(fmt::format("--reduce div: {} has no RAND_MAX of 2^31-1; div applies to c-rand and glibc-rand-r",
                            family_info(family).name));
}

namespace seeds {

bool variant_filter(seed_family family, const family_variant& v, const log_view& log, std::uint64_t seed,
                    std::uint32_t* a) noexcept {
  identity({a, log.n});
  switch (family) {
    case seed_family::python_random: {
      python_random g(seed);
      return variant_matches(log, a, g, v);
    }
    case seed_family::c_rand: {
      glibc_rand g(static_cast<std::uint32_t>(seed));
      return variant_matches(log, a, g, v);
    }
    case seed_family::java_random: {
      java_random g(seed);
      return variant_matches(log, a, g, v);
    }
    case seed_family::glibc_rand_r: {
      glibc_rand_r g(static_cast<std::uint32_t>(seed));
      return variant_matches(log, a, g, v);
    }
    case seed_family::msvc_rand: {
      msvc_rand g(static_cast<std::uint32_t>(seed));
      return variant_matches(log, a, g, v);
    }
    case seed_family::php_mt_rand: {
      php_mt_rand g(static_cast<std::uint32_t>(seed), false);
      return variant_matches(log, a, g, v);
    }
    case seed_family::go_math_rand: {
      go_lazy_rand g(seed);
      return variant_matches(log, a, g, v);
    }
    case seed_family::dotnet_random: {
      dotnet_random g(static_cast<std::uint32_t>(seed));
      return variant_matches(log, a, g, v);
    }
    default: return true;
  }
}

}  // namespace seeds

std::vector<std::vector<std::uint32_t>> family_deals(seed_family family, std::uint64_t seed, std::size_t n,
                                                     std::size_t deals, const family_variant& variant) {
  if (family == seed_family::node_math_random)
    throw error("node-math-random has no seed: its deals come from a recovered state (node_deals)");
  std::vector<std::vector<std::uint32_t>> out(deals, std::vector<std::uint32_t>(n));
  auto each = [&](auto&& shuffle_one) {
    for (std::size_t d = 0; d < deals; ++d) {
      if (variant.carry_over && d > 0)
        out[d] = out[d - 1];
      else
        identity(out[d]);
      shuffle_one(std::span<std::uint32_t>(out[d]));
    }
  };
  if (variant.loop == shuffle_loop::sample) {
    check_variant(family, variant);
    python_random g(seed);
    std::vector<std::uint32_t> pool(n);
    for (auto& a : out) {
      a.resize(variant.sample_size);
      python_sample(n, variant.sample_size, g, pool.data(), [&](std::size_t i, std::uint32_t card) {
        a[i] = card;
        return true;
      });
    }
    return out;
  }
  if (!variant.standard()) {
    check_variant(family, variant);
    auto run = [&](auto& g) { each([&](std::span<std::uint32_t> a) { variant_shuffle(a, g, variant); }); };
    switch (family) {
      case seed_family::python_random: { python_random g(seed); run(g); return out; }
      case seed_family::c_rand: { glibc_rand g(static_cast<std::uint32_t>(seed)); run(g); return out; }
      case seed_family::java_random: { java_random g(seed); run(g); return out; }
      case seed_family::glibc_rand_r: { glibc_rand_r g(static_cast<std::uint32_t>(seed)); run(g); return out; }
      case seed_family::msvc_rand: { msvc_rand g(static_cast<std::uint32_t>(seed)); run(g); return out; }
      case seed_family::php_mt_rand: { php_mt_rand g(static_cast<std::uint32_t>(seed), false); run(g); return out; }
      case seed_family::go_math_rand: { go_math_rand g(seed); run(g); return out; }
      case seed_family::dotnet_random: { dotnet_random g(static_cast<std::uint32_t>(seed)); run(g); return out; }
      default: return out;
    }
  }
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
    case seed_family::glibc_rand_r: {
      glibc_rand_r g(static_cast<std::uint32_t>(seed));
      each([&](std::span<std::uint32_t> a) { top_down_shuffle(a, g); });
      break;
    }
    case seed_family::msvc_rand: {
      msvc_rand g(static_cast<std::uint32_t>(seed));
      each([&](std::span<std::uint32_t> a) { top_down_shuffle(a, g); });
      break;
    }
    case seed_family::php_mt_rand:
    case seed_family::php_mt_rand_legacy: {
      php_mt_rand g(static_cast<std::uint32_t>(seed), family == seed_family::php_mt_rand_legacy);
      each([&](std::span<std::uint32_t> a) { top_down_shuffle(a, g); });
      break;
    }
    case seed_family::go_math_rand: {
      go_math_rand g(seed);
      each([&](std::span<std::uint32_t> a) {
        for (std::size_t i = a.size(); i-- > 1;) std::swap(a[i], a[g.shuffle_below(static_cast<std::uint32_t>(i + 1))]);
      });
      break;
    }
    case seed_family::dotnet_random: {
      dotnet_random g(static_cast<std::uint32_t>(seed));
      each([&](std::span<std::uint32_t> a) { top_down_shuffle(a, g); });
      break;
    }
    case seed_family::node_math_random: break;  // refused above
  }
  return out;
}

}  // namespace shufl::audit
