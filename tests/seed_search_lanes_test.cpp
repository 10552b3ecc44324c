// The glibc-rand-r and msvc-rand filters (src/audit/seed_search/small_lcgs.cpp) called directly:
// the AVX2 path (8 seeds per vector) and the scalar path (two seeds side by side) give the same
// lane masks, and each mask is exactly the seeds whose reference deal (family_deals, checked
// against a C program compiled here in seed_search_test.cpp) starts with the logged cards. Planted
// seeds in every block position, logs of 1, 2 and 5 cards (1 and 2 keep many lanes alive to
// the full check), decks of 3 to 64 cards, seeds at both ends of the 32-bit range, short blocks.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "audit/seed_search/loops.hpp"
#include "audit/seed_search/mt19937.hpp"
#include "shufl/audit/seed_search.hpp"

namespace shufl::audit::seeds {
namespace {

struct block_run {
  std::vector<std::uint64_t> mod_m;
  std::vector<std::uint32_t> scratch;
  explicit block_run(std::size_t n) : mod_m(n + 1), scratch(2 * n) {
    for (std::size_t d = 1; d <= n; ++d) mod_m[d] = UINT64_MAX / d + 1;
    identity({scratch.data(), n});
  }
  lane_mask run(const log_view& log, std::uint32_t base, unsigned count, bool rand_r, bool vector) {
    const kernel_args k{&log, base, count, 0, nullptr, mod_m.data(), nullptr, scratch.data()};
    const lane_mask m = small_lcg_lanes(k, rand_r, vector);
    for (std::size_t i = 0; i < log.n; ++i) EXPECT_EQ(scratch[i], i) << "the identity is restored";
    return m;
  }
};

TEST(SeedSearchLanes, VectorAndScalarOneWordFiltersAgreeWithTheReference) {
  std::size_t vector_kept = 0, matches = 0;
  for (const auto family : {seed_family::glibc_rand_r, seed_family::msvc_rand}) {
    const bool rand_r = family == seed_family::glibc_rand_r;
    for (const std::size_t n : {3u, 10u, 52u, 64u}) {
      block_run runner(n);
      for (const std::size_t k : {1u, 2u, 5u}) {
        if (k > n) continue;
        for (const std::uint64_t lo : {std::uint64_t{0}, std::uint64_t{1796083200}, two_32 - 32 * 24}) {
          for (const std::uint64_t offset : {std::uint64_t{0}, std::uint64_t{7 * 32 + 31}, std::uint64_t{20 * 32 + 13}}) {
            const auto planted_deal = family_deals(family, lo + offset, n, 1)[0];
            const std::vector<std::uint32_t> cards(planted_deal.begin(), planted_deal.begin() + static_cast<long>(k));
            const log_view log = make_view(n, cards);
            const std::string what = std::string(family_info(family).name) + " n=" + std::to_string(n) +
                                     " k=" + std::to_string(k) + " lo=" + std::to_string(lo);
            for (std::uint64_t base = lo; base < lo + 32 * 24; base += 32) {
              // a short block at the end of each range, as the search's last block of a range
              const unsigned count = base + 32 == lo + 32 * 24 ? 13u : 32u;
              lane_mask want = 0;
              for (unsigned l = 0; l < count; ++l) {
                const auto d = family_deals(family, base + l, n, 1)[0];
                if (std::equal(cards.begin(), cards.end(), d.begin())) want |= lane_mask{1} << l;
              }
              const auto b32 = static_cast<std::uint32_t>(base);
              const lane_mask vec = runner.run(log, b32, count, rand_r, true);
              const lane_mask scalar = runner.run(log, b32, count, rand_r, false);
              ASSERT_EQ(vec, want) << what << " base=" << base;
              ASSERT_EQ(scalar, want) << what << " base=" << base;
              if (base <= lo + offset && lo + offset < base + count) {
                EXPECT_NE(vec & (lane_mask{1} << (lo + offset - base)), 0u) << what << " planted";
              }
              matches += static_cast<std::size_t>(std::popcount(want));
              if (have_avx2() && n <= 64 && 2 * k <= n) vector_kept += static_cast<std::size_t>(std::popcount(vec));
            }
          }
        }
      }
    }
  }
  EXPECT_GT(matches, 1000u);
  if (have_avx2()) {
    EXPECT_GT(vector_kept, 500u) << "the vector path ran and kept seeds";
  }
}

// mt_seed_lanes (the cpp-mt19937 and php-mt-rand filters' seeding): every lane holds
// init_genrand(base + l) up to word `last` and nothing beyond it is written. The words of seed 5489
// (std::mt19937's default) are the reference implementation's, computed with Python integers.
TEST(SeedSearchLanes, MtSeedLanesIsInitGenrandInEveryLane) {
  auto buffer = std::make_unique<mt_buffer>();
  for (const std::uint32_t base : {std::uint32_t{5489 - 7}, std::uint32_t{0}, std::uint32_t{0xfffffff0u}}) {
    for (const std::size_t last : {std::size_t{397 + 64}, std::size_t{623}}) {
      for (auto& w : buffer->w)
        for (auto& q : w.q) q = v8{} + 0xdeadbeefu;
      const kernel_args k{nullptr, base, 32, 0, nullptr, nullptr, buffer.get(), nullptr};
      mt_seed_lanes(k, last);
      for (unsigned l = 0; l < lanes; ++l) {
        mt19937_state g;
        g.init_genrand(base + l);
        for (std::size_t i = 0; i <= last; ++i) {
          ASSERT_EQ(buffer->w[i].lane(l), g.mt[i]) << base << " lane " << l << " word " << i;
        }
        if (last < 623) {
          EXPECT_EQ(buffer->w[last + 1].lane(l), 0xdeadbeefu) << "word last + 1 untouched";
        }
      }
    }
  }
  mt_seed_lanes({nullptr, 5489 - 7, 32, 0, nullptr, nullptr, buffer.get(), nullptr}, 623);
  EXPECT_EQ(buffer->w[0].lane(7), 5489u);
  EXPECT_EQ(buffer->w[1].lane(7), 1301868182u);
  EXPECT_EQ(buffer->w[2].lane(7), 2938499221u);
  EXPECT_EQ(buffer->w[3].lane(7), 2950281878u);
  EXPECT_EQ(buffer->w[623].lane(7), 79981964u);
  mt_seed_lanes({nullptr, 0xfffffff0u, 32, 0, nullptr, nullptr, buffer.get(), nullptr}, 460);
  EXPECT_EQ(buffer->w[1].lane(15), 1340201581u);
  EXPECT_EQ(buffer->w[460].lane(15), 3557040187u) << "seed 2^32 - 1 (base 2^32 - 16, lane 15)";
}

}  // namespace
}  // namespace shufl::audit::seeds
