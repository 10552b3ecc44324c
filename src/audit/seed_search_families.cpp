// The seed-search families (see seed_search.hpp): their table, the reference deals each one
// makes, and the scalar filter of one seed. A family is a generator (seed_search/*.hpp) + a
// shuffle loop + a reduction + a deck order (seed_search/loops.hpp).
#include <algorithm>
#include <array>
#include <optional>

#include <fmt/format.h>

#include "seed_search/delphi_random.hpp"
#include "seed_search/glibc_rand.hpp"
#include "seed_search/java_random.hpp"
#include "seed_search/loops.hpp"
#include "seed_search/mt19937.hpp"
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
constexpr std::array<seed_family_info, 8> families{{
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
      return top_down_survives(log, a, [&](std::uint32_t b) { return g.below(b); });
    }
    case seed_family::msvc_rand: {
      msvc_rand g(static_cast<std::uint32_t>(seed));
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
    case shuffle_loop::pop:
    case shuffle_loop::sort: break;  // node-math-random only (check_variant)
  }
}

template <class Gen>
bool variant_matches(const log_view& log, std::uint32_t* a, Gen& g, const family_variant& v) noexcept {
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
  const bool loops = family == seed_family::python_random || family == seed_family::c_rand ||
                     family == seed_family::java_random || family == seed_family::glibc_rand_r ||
                     family == seed_family::msvc_rand;
  if (family == seed_family::node_math_random) {
    if (v.loop == shuffle_loop::naive)
      throw error("--loop naive: node-math-random needs a loop that leaves each card final when drawn (down, up, pop, sort)");
    if (v.reduce != draw_reduction::native)
      throw error("--reduce div: node-math-random draws with Math.floor(Math.random() * k) only");
    return;
  }
  if (v.loop == shuffle_loop::pop || v.loop == shuffle_loop::sort)
    throw error(fmt::format("--loop {} applies to node-math-random, not to {}", v.loop == shuffle_loop::pop ? "pop" : "sort",
                            family_info(family).name));
  if (v.loop != shuffle_loop::down && !loops)
    throw error(fmt::format("--loop: {} has its own shuffle loop; --loop applies to python-random, c-rand, java-random, "
                            "glibc-rand-r and msvc-rand",
                            family_info(family).name));
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
    for (auto& a : out) {
      identity(a);
      shuffle_one(std::span<std::uint32_t>(a));
    }
  };
  if (!variant.standard()) {
    check_variant(family, variant);
    auto run = [&](auto& g) { each([&](std::span<std::uint32_t> a) { variant_shuffle(a, g, variant); }); };
    switch (family) {
      case seed_family::python_random: { python_random g(seed); run(g); return out; }
      case seed_family::c_rand: { glibc_rand g(static_cast<std::uint32_t>(seed)); run(g); return out; }
      case seed_family::java_random: { java_random g(seed); run(g); return out; }
      case seed_family::glibc_rand_r: { glibc_rand_r g(static_cast<std::uint32_t>(seed)); run(g); return out; }
      case seed_family::msvc_rand: { msvc_rand g(static_cast<std::uint32_t>(seed)); run(g); return out; }
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
    case seed_family::node_math_random: break;  // refused above
  }
  return out;
}

}  // namespace shufl::audit
