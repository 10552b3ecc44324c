// Unit tests for lines/sampling.hpp and lines/scatter.hpp: reservoir sampling (seeded and GNU),
// partial Fisher–Yates dense vs sparse, the scatter rule, and uniformity.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "shufl/lines.hpp"
#include "shufl/permutation.hpp"
#include "shufl/stats.hpp"
#include "support/run.hpp"

namespace {

using shufl::seed_key;

std::string numbered_lines(std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += std::to_string(i) + "\n";
  return s;
}

constexpr std::array<std::size_t, 9> kGrid = {0, 1, 5, 1023, 1024, 1025, 3071, 3072, 3073};

TEST(LinesReservoir, EveryGridPairGivesMinDistinctLines) {
  const seed_key key = shufl::key_from_seed("grid");
  for (const std::size_t in : kGrid) {
    const std::string input = numbered_lines(in);
    for (const std::size_t k : kGrid) {
      if (k == 0) continue;  // -n 0 never reaches sampling
      shufl::lines::reservoir_sampler sampler(k, key);
      shufl::lines::record_reader reader(std::string_view(input), '\n');
      std::string_view r;
      while (reader.next(r)) sampler.offer(r);
      const auto kept = sampler.take_shuffled();
      const std::set<std::string> distinct(kept.begin(), kept.end());
      ASSERT_EQ(kept.size(), std::min(in, k)) << in << " " << k;
      ASSERT_EQ(distinct.size(), std::min(in, k)) << in << " " << k;
    }
  }
}

// A file of pseudo-random bytes (explicitly seeded) as a GNU random source.
std::string random_bytes(std::size_t n, std::uint64_t seed) {
  shufl::xoshiro256pp_engine e(shufl::key_from_seed(std::to_string(seed)));
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(e() >> 56);
  return s;
}

TEST(LinesReservoir, GnuVariantOnEveryGridPair) {
  shufl::test::temp_dir dir;
  const std::string path = dir.write("src", random_bytes(1 << 20, 1));
  for (const std::size_t in : kGrid) {
    const std::string input = numbered_lines(in);
    for (const std::size_t k : kGrid) {
      if (k == 0) continue;
      const int fd = ::open(path.c_str(), O_RDONLY);
      ASSERT_GE(fd, 0);
      shufl::gnu_random_source source(fd, "'src'");
      shufl::lines::record_reader reader(std::string_view(input), '\n');
      const auto kept = shufl::lines::gnu_reservoir_sample(reader, k, source);
      ::close(fd);
      const std::set<std::string> distinct(kept.begin(), kept.end());
      ASSERT_EQ(kept.size(), std::min(in, k)) << in << " " << k;
      ASSERT_EQ(distinct.size(), std::min(in, k)) << in << " " << k;
    }
  }
}

TEST(LinesReservoir, SameRecordsSameSampleAndSeedMatters) {
  const std::string input = numbered_lines(5000);
  const auto sample = [&](const std::string& seed) {
    shufl::lines::reservoir_sampler sampler(10, shufl::key_from_seed(seed));
    shufl::lines::record_reader reader(std::string_view(input), '\n');
    std::string_view r;
    while (reader.next(r)) sampler.offer(r);
    return sampler.take_shuffled();
  };
  EXPECT_EQ(sample("a"), sample("a"));
  EXPECT_NE(sample("a"), sample("b"));
}

TEST(LinesPartialFisherYates, SparseEqualsDense) {
  for (const std::uint64_t n : {1u, 2u, 7u, 100u, 5000u}) {
    for (const std::uint64_t h : {std::uint64_t{1}, std::uint64_t{2}, n / 2 + 1, n}) {
      if (h > n) continue;
      shufl::chacha20_engine e1(shufl::key_from_seed("pfy"), 0), e2(shufl::key_from_seed("pfy"), 0);
      std::vector<std::uint64_t> dense(n);
      std::iota(dense.begin(), dense.end(), std::uint64_t{0});
      shufl::lines::partial_fisher_yates(std::span<std::uint64_t>(dense), h,
                                         [&](std::uint64_t s) { return shufl::uniform_below(e1, s); });
      dense.resize(h);
      const auto sparse = shufl::lines::sparse_partial_fisher_yates(
          n, h, [&](std::uint64_t s) { return shufl::uniform_below(e2, s); });
      EXPECT_EQ(dense, sparse) << n << " " << h;
      EXPECT_EQ(std::set<std::uint64_t>(sparse.begin(), sparse.end()).size(), h);
    }
  }
}

TEST(LinesPartialFisherYates, HugeSparseRangeIsInstant) {
  shufl::chacha20_engine e(shufl::key_from_seed("huge"), 0);
  const auto v = shufl::lines::range_permutation(UINT64_MAX, 3, [&](std::uint64_t s) {
    return shufl::uniform_below(e, s);
  });
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(std::set<std::uint64_t>(v.begin(), v.end()).size(), 3u);
}

TEST(LinesScatter, PermutesAndIsDeterministicAboveTheLeafSize) {
  // Two levels: 256 buckets of about 1100 items would be leaves; 300000 > 65536 scatters once,
  // and a bucket above 65536 would scatter again.
  const std::size_t n = 300000;
  std::vector<std::uint32_t> a(n), b;
  std::uint32_t next = 0;
  const seed_key root = shufl::lines::scatter_root_key(shufl::key_from_seed("scatter"));
  shufl::lines::scatter_shuffle_generated(std::span<std::uint32_t>(a), root, [&] { return next++; });
  b.resize(n);
  std::iota(b.begin(), b.end(), 0u);
  shufl::lines::scatter_shuffle(std::span<std::uint32_t>(b), root);
  EXPECT_EQ(a, b);  // generated and in-place forms agree
  std::vector<std::uint32_t> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(sorted[i], i);
  // Not the identity, and the first element is spread out.
  EXPECT_NE(a[0], 0u);
}

TEST(LinesScatter, BucketOfTheFirstItemIsUniform) {
  // Over many seeds the position of item 0 (in 256ths of n) must be uniform: chi-squared.
  const std::size_t n = 66000;
  std::vector<std::uint64_t> counts(16, 0);
  std::vector<std::uint32_t> items(n);
  for (int s = 0; s < 400; ++s) {
    std::uint32_t next = 0;
    shufl::lines::scatter_shuffle_generated(
        std::span<std::uint32_t>(items),
        shufl::lines::scatter_root_key(shufl::key_from_seed("pos" + std::to_string(s))),
        [&] { return next++; });
    const auto pos = static_cast<std::size_t>(std::find(items.begin(), items.end(), 0u) - items.begin());
    ++counts[pos * 16 / n];
  }
  EXPECT_GT(shufl::pearson_uniform(counts).p_value, 1e-4);
}

// Chi-squared over the 24 orders of 4 lines, many seeds: the full shuffle and the -n 4 sample.
TEST(LinesUniformity, TwentyFourOrdersOfFourLines) {
  std::vector<std::uint64_t> full(24, 0), sampled(24, 0);
  const std::string input = "0\n1\n2\n3\n";
  for (int s = 0; s < 4800; ++s) {
    const seed_key key = shufl::key_from_seed(std::to_string(s));
    std::array<std::uint8_t, 4> deck{0, 1, 2, 3};
    shufl::lines::scatter_shuffle(std::span<std::uint8_t>(deck), shufl::lines::scatter_root_key(key));
    ++full[shufl::rank_permutation(std::span<const std::uint8_t>(deck))];
    shufl::lines::reservoir_sampler sampler(4, key);
    shufl::lines::record_reader reader(std::string_view(input), '\n');
    std::string_view r;
    while (reader.next(r)) sampler.offer(r);
    const auto kept = sampler.take_shuffled();
    std::array<std::uint8_t, 4> order{};
    for (std::size_t i = 0; i < 4; ++i) order[i] = static_cast<std::uint8_t>(kept[i][0] - '0');
    ++sampled[shufl::rank_permutation(std::span<const std::uint8_t>(order))];
  }
  EXPECT_GT(shufl::pearson_uniform(full).p_value, 1e-4);
  EXPECT_GT(shufl::pearson_uniform(sampled).p_value, 1e-4);
}

}  // namespace
