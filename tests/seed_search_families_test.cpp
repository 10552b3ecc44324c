// Seed search, the PHP, Go and .NET families: each against its real runtime (php here; Go and
// mono in the `long` ctests seed_search.go / seed_search.mono, which install them), planted seeds
// found, the fast filters against the reference deals, their seeds and ranges.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "shufl/audit/seed_search.hpp"
#include "shufl/error.hpp"
#include "support/run.hpp"
#include "support/seed_search_deals.hpp"

namespace shufl::audit {
namespace {

using test::deals_t;
using test::parse_deals;
using test::seed_search_ref;

// The runtime's deals (`command N 3 SEED...`) against ours, 3 consecutive deals per seed.
void compare(const std::string& command, seed_family f, const family_variant& v, const std::vector<std::uint64_t>& seeds,
             const std::vector<std::size_t>& sizes) {
  for (const auto n : sizes) {
    std::string cmd = command + " " + std::to_string(n) + " 3";
    for (const auto s : seeds) cmd += " " + std::to_string(s);
    const auto r = test::run_shell(cmd);
    ASSERT_EQ(r.status, 0) << cmd << "\n" << r.err;
    const auto want = parse_deals(r.out);
    ASSERT_EQ(want.size(), 3 * seeds.size()) << cmd;
    deals_t got;
    for (const auto s : seeds)
      for (auto& d : family_deals(f, s, n, 3, v)) got.push_back(d);
    EXPECT_EQ(got, want) << cmd;
  }
}

const std::vector<std::uint64_t> seeds32{0, 1, 2, 42, 12345, 1796083200, 2147483646, 2147483647, 2147483648u,
                                         3000000000u, 4294967295u};
const std::vector<std::size_t> sizes{2, 5, 8, 52, 53, 100};

// php-cli is in scripts/setup.sh: the default suite runs PHP itself.
TEST(SeedSearchFamilies, PhpMtRandIsPhp) {
  ASSERT_EQ(test::run_shell("php -v").status, 0) << "php is not on PATH (scripts/setup.sh installs php-cli)";
  const std::string php = "php " + seed_search_ref("php_shuffle.php");
  compare(php + " mt shuffle", seed_family::php_mt_rand, {}, seeds32, sizes);
  compare(php + " legacy shuffle", seed_family::php_mt_rand_legacy, {}, seeds32, sizes);
  // Loops written with mt_rand(0, k - 1).
  compare(php + " mt down", seed_family::php_mt_rand, {}, seeds32, {52});
  compare(php + " mt up", seed_family::php_mt_rand, {shuffle_loop::up, draw_reduction::native}, seeds32, {52});
  compare(php + " mt naive", seed_family::php_mt_rand, {shuffle_loop::naive, draw_reduction::native}, seeds32, {52});
  compare(php + " mt inside-out", seed_family::php_mt_rand, {shuffle_loop::inside_out, draw_reduction::native}, seeds32,
          {5, 52});
}

const std::vector<std::uint64_t> go_seeds{0, 1, 2, 42, 89482311, 2147483646, 2147483647, 2147483648u, 4294967295u,
                                          1796083200, 1796083200123456789ull, (std::uint64_t{1} << 63) - 1};

// Slow (builds a Go program): run by the `long` ctest seed_search.go, which installs golang-go.
TEST(SeedSearchFamilies, GoMathRandIsGo) {
  if (std::getenv("SHUFL_SEED_SEARCH_GO") == nullptr)
    GTEST_SKIP() << "set SHUFL_SEED_SEARCH_GO=1 (ctest -L long runs seed_search.go, which installs Go)";
  test::temp_dir dir;
  const auto built = test::run_shell("cd " + dir.file("") + " && GOCACHE=" + dir.file("cache") + " GO111MODULE=off go build -o " +
                                     dir.file("go_shuffle") + " " + seed_search_ref("go_shuffle.go"));
  ASSERT_EQ(built.status, 0) << built.err;
  const std::string go = dir.file("go_shuffle");
  compare(go + " shuffle", seed_family::go_math_rand, {}, go_seeds, sizes);
  compare(go + " perm", seed_family::go_math_rand, {shuffle_loop::inside_out, draw_reduction::native}, go_seeds, {5, 52});
  compare(go + " down", seed_family::go_math_rand, {shuffle_loop::down, draw_reduction::mod}, go_seeds, {52});
  compare(go + " up", seed_family::go_math_rand, {shuffle_loop::up, draw_reduction::native}, go_seeds, {52});
}

const std::vector<std::uint64_t> dotnet_seeds{0, 1, 2, 42, 12345, 161803398, 161803399, 1796083, 2147483646, 2147483647};

// Slow (compiles C# with mono): run by the `long` ctest seed_search.mono, which installs mono.
TEST(SeedSearchFamilies, DotnetRandomIsMono) {
  if (std::getenv("SHUFL_SEED_SEARCH_MONO") == nullptr)
    GTEST_SKIP() << "set SHUFL_SEED_SEARCH_MONO=1 (ctest -L long runs seed_search.mono, which installs mono)";
  test::temp_dir dir;
  const auto built = test::run_shell("mcs -out:" + dir.file("ds.exe") + " " + seed_search_ref("DotnetShuffle.cs"));
  ASSERT_EQ(built.status, 0) << built.out << built.err;
  const std::string cs = "mono " + dir.file("ds.exe");
  compare(cs + " down", seed_family::dotnet_random, {}, dotnet_seeds, sizes);
  compare(cs + " up", seed_family::dotnet_random, {shuffle_loop::up, draw_reduction::native}, dotnet_seeds, {52});
  compare(cs + " naive", seed_family::dotnet_random, {shuffle_loop::naive, draw_reduction::native}, dotnet_seeds, {52});
  compare(cs + " inside-out", seed_family::dotnet_random, {shuffle_loop::inside_out, draw_reduction::native},
          dotnet_seeds, {52});
}

// Published first values: Go's rand.New(rand.NewSource(1)).Int63() is 5577006791947779410,
// 8674665223082153551, 6129484611666145821 (the Go 1 value stream, math/rand regress tests).
TEST(SeedSearchFamilies, GoStreamStartsWithThePublishedValues) {
  // Perm and Shuffle are checked against Go itself above; here the raw stream, through a deal of
  // two cards: Shuffle's one draw is Lemire's multiply of Uint32() = Int63() >> 31 by 2.
  const std::uint64_t first = 5577006791947779410ull;
  const auto high = static_cast<std::uint32_t>(first >> 31);
  const std::uint32_t j = static_cast<std::uint32_t>((std::uint64_t{high} * 2) >> 32);
  const auto deal = family_deals(seed_family::go_math_rand, 1, 2, 1)[0];
  EXPECT_EQ(deal, (j == 1 ? std::vector<std::uint32_t>{0, 1} : std::vector<std::uint32_t>{1, 0}));
}

constexpr seed_family new_families[] = {seed_family::php_mt_rand, seed_family::php_mt_rand_legacy,
                                        seed_family::go_math_rand, seed_family::dotnet_random};

TEST(SeedSearchFamilies, FindsPlantedSeeds) {
  for (const auto f : new_families) {
    const std::uint64_t planted = 70001;
    const auto made = family_deals(f, planted, 52, 2);
    seed_search_options o;
    o.family = f;
    o.range.first = 60000;
    o.range.last = 80000;
    o.reseed = reseed_mode::once;
    o.deals = {{made[0].begin(), made[0].begin() + 5}, {made[1].begin(), made[1].begin() + 5}};
    o.threads = 2;
    const auto r = search_seeds(o);
    ASSERT_EQ(r.matches.size(), 1u) << family_info(f).name;
    EXPECT_EQ(r.matches[0].seed, planted) << family_info(f).name;
  }
}

// The fast filters never drop a seed the reference keeps, and keep no other (one logged card).
TEST(SeedSearchFamilies, FiltersAgreeWithTheReferenceOnEverySeed) {
  for (const auto f : new_families) {
    const std::uint64_t hi = family_info(f).max_seed, lo = hi - 3000;
    for (const std::size_t n : {5u, 52u}) {
      std::vector<std::uint64_t> want;
      for (std::uint64_t s = lo; s <= hi; ++s)
        if (family_deals(f, s, n, 1)[0][0] == 1) want.push_back(s);
      seed_search_options o;
      o.family = f;
      o.n = n;
      o.range.first = lo;
      o.range.last = hi;
      o.deals = {{1}};
      o.all = true;
      const auto r = search_seeds(o);
      std::vector<std::uint64_t> got;
      for (const auto& m : r.matches) got.push_back(m.seed);
      EXPECT_EQ(got, want) << family_info(f).name << " n = " << n;
      EXPECT_GT(want.size(), 20u);
    }
  }
}

// glibc-rand-r and msvc-rand run two seeds side by side up to 64 cards, one at a time above.
TEST(SeedSearchFamilies, OneWordGeneratorsAgreeWithTheReferenceOnEverySeed) {
  for (const auto f : {seed_family::glibc_rand_r, seed_family::msvc_rand})
    for (const std::size_t n : {3u, 52u, 64u, 65u, 100u})
      for (const std::size_t k : {1u, 3u}) {
        const std::vector<std::uint32_t> deal = k == 1 ? std::vector<std::uint32_t>{1} : std::vector<std::uint32_t>{2, 0, 1};
        std::vector<std::uint64_t> want;
        for (std::uint64_t s = 1000; s <= 4000; ++s) {
          const auto d = family_deals(f, s, n, 1)[0];
          if (std::equal(deal.begin(), deal.end(), d.begin())) want.push_back(s);
        }
        seed_search_options o;
        o.family = f;
        o.n = n;
        o.range.first = 1000;
        o.range.last = 4000;
        o.deals = {deal};
        o.all = true;
        const auto r = search_seeds(o);
        std::vector<std::uint64_t> got;
        for (const auto& m : r.matches) got.push_back(m.seed);
        EXPECT_EQ(got, want) << family_info(f).name << " n = " << n << " k = " << k;
        if (k == 1) {
          EXPECT_GT(want.size(), 0u) << family_info(f).name << " n = " << n << " k = " << k;
        }
      }
}

TEST(SeedSearchFamilies, VariantsOfTheNewFamilies) {
  for (const auto f : {seed_family::php_mt_rand, seed_family::go_math_rand, seed_family::dotnet_random})
    for (const auto loop : {shuffle_loop::up, shuffle_loop::naive, shuffle_loop::inside_out}) {
      const family_variant v{loop, draw_reduction::native};
      std::vector<std::uint64_t> want;
      for (std::uint64_t s = 0; s <= 2000; ++s)
        if (family_deals(f, s, 52, 1, v)[0][0] == 7) want.push_back(s);
      seed_search_options o;
      o.family = f;
      o.variant = v;
      o.range.first = 0;
      o.range.last = 2000;
      o.deals = {{7}};
      o.all = true;
      const auto r = search_seeds(o);
      std::vector<std::uint64_t> got;
      for (const auto& m : r.matches) got.push_back(m.seed);
      EXPECT_EQ(got, want) << family_info(f).name << " " << static_cast<int>(loop);
      EXPECT_GT(want.size(), 10u);
    }
  EXPECT_THROW(check_variant(seed_family::php_mt_rand_legacy, {shuffle_loop::up, draw_reduction::native}), error);
  EXPECT_THROW(check_variant(seed_family::php_mt_rand, {shuffle_loop::down, draw_reduction::mod}), error);
  EXPECT_THROW(check_variant(seed_family::go_math_rand, {shuffle_loop::up, draw_reduction::mod}), error);
  EXPECT_NO_THROW(check_variant(seed_family::go_math_rand, {shuffle_loop::down, draw_reduction::mod}));
}

// Go takes seeds mod 2^31 - 1 and seed 0 as 89482311; .NET's seeds are |Seed|.
TEST(SeedSearchFamilies, SeedsThatAlias) {
  const std::uint64_t m = 2147483647;
  EXPECT_EQ(family_deals(seed_family::go_math_rand, 0, 52, 2), family_deals(seed_family::go_math_rand, 89482311, 52, 2));
  EXPECT_EQ(family_deals(seed_family::go_math_rand, 5, 52, 2), family_deals(seed_family::go_math_rand, 5 + 3 * m, 52, 2));
  const auto& go = family_info(seed_family::go_math_rand);
  EXPECT_EQ(distinct_states(seed_family::go_math_rand, parse_seed_range("0..100", go)), 101u);
  EXPECT_EQ(distinct_states(seed_family::go_math_rand, parse_seed_range("0..89482311", go)), 89482311u);
  EXPECT_EQ(distinct_states(seed_family::go_math_rand, parse_seed_range("1..89482311", go)), 89482311u);
  EXPECT_EQ(distinct_states(seed_family::go_math_rand, parse_seed_range("0..2^40", go)), m - 1);
  EXPECT_EQ(distinct_states(seed_family::go_math_rand, parse_seed_range("2147483647..2237000000", go)), 89516353u);
}

// --try-variants: the family's own variant first, then every loop x draw x deck order x carry-over.
seed_search_options searched(seed_family f, std::size_t n, reseed_mode reseed, std::size_t deals, std::size_t k) {
  seed_search_options o;
  o.family = f;
  o.n = n;
  o.reseed = reseed;
  o.deals.assign(deals, std::vector<std::uint32_t>(k));
  return o;
}

TEST(SeedSearchVariants, EveryCombinationOnce) {
  auto v = family_variants(searched(seed_family::c_rand, 52, reseed_mode::once, 2, 5));
  EXPECT_EQ(v.size(), 8u * 96 * 2);
  EXPECT_TRUE(v[0].variant.standard());
  EXPECT_TRUE(v[0].deck_order.empty());
  EXPECT_FALSE(v[0].variant.carry_over);
  std::set<std::string> names;
  for (const auto& x : v) names.insert(x.deck_order_name);
  EXPECT_EQ(names.size(), 96u);
  EXPECT_TRUE(names.count("rank-major:cdhs:23456789TJQKA"));
  EXPECT_EQ(family_variants(searched(seed_family::c_rand, 52, reseed_mode::per_deal, 2, 5)).size(), 8u * 96);
  EXPECT_EQ(family_variants(searched(seed_family::c_rand, 52, reseed_mode::once, 1, 5)).size(), 8u * 96);
  // python-random: 4 loops, sample:5 (set method) and sample:52 (pool); sample never carries over.
  EXPECT_EQ(family_variants(searched(seed_family::python_random, 52, reseed_mode::once, 2, 5)).size(), 6u * 96 + 4u * 96);
  EXPECT_EQ(family_variants(searched(seed_family::python_random, 52, reseed_mode::per_deal, 2, 6)).size(), 5u * 96);
  EXPECT_EQ(family_variants(searched(seed_family::cpp_mt19937, 52, reseed_mode::per_deal, 2, 5)).size(), 96u);
  EXPECT_EQ(family_variants(searched(seed_family::go_math_rand, 52, reseed_mode::per_deal, 1, 5)).size(), 5u * 96);
  // Another pack: the canonical order only; a given order is kept.
  auto ten = searched(seed_family::java_random, 10, reseed_mode::per_deal, 1, 10);
  EXPECT_EQ(family_variants(ten).size(), 4u);
  ten.deck_order = {1, 0, 2, 3, 4, 5, 6, 7, 8, 9};
  const auto fixed = family_variants(ten, "my-order");
  ASSERT_EQ(fixed.size(), 4u);
  EXPECT_EQ(fixed[3].deck_order, ten.deck_order);
  EXPECT_EQ(fixed[3].deck_order_name, "my-order");
  for (const auto& x : family_variants(searched(seed_family::python_random, 52, reseed_mode::once, 2, 5)))
    EXPECT_NO_THROW(check_variant(seed_family::python_random, x.variant));
}

TEST(SeedRange, UptimeWindowsOfDotnet) {
  const auto& net = family_info(seed_family::dotnet_random);
  auto r = parse_seed_range("uptime:0..7d", net);
  EXPECT_EQ(r.first, 0u);
  EXPECT_EQ(r.last, 7u * 86'400'000);
  EXPECT_TRUE(r.from_time);
  r = parse_seed_range("uptime:90m..2h", net);
  EXPECT_EQ(r.first, 5'400'000u);
  EXPECT_EQ(r.last, 7'200'000u);
  r = parse_seed_range("uptime:1500..2s", net);
  EXPECT_EQ(r.first, 1500u);
  EXPECT_EQ(r.last, 2000u);
  // Past 2^31 ms TickCount is negative and Random takes |TickCount|: every seed.
  r = parse_seed_range("uptime:20d..30d", net);
  EXPECT_EQ(r.first, 0u);
  EXPECT_EQ(r.last, 2147483647u);
  EXPECT_THROW(parse_seed_range("uptime:2h..1h", net), error);
  EXPECT_THROW(parse_seed_range("uptime:1w..2w", net), error);
  EXPECT_THROW(parse_seed_range("time:2026-12-01T00:00:00Z..2026-12-01T00:00:10Z", net), error);
  EXPECT_THROW(parse_seed_range("uptime:0..1h", family_info(seed_family::c_rand)), error);
}

}  // namespace
}  // namespace shufl::audit
