// Unit tests for lines/sampling.hpp and lines/scatter.hpp: reservoir sampling (seeded and GNU),
// partial Fisher–Yates dense vs sparse, the scatter rule, and uniformity.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "shufl/lines.hpp"
#include "shufl/permutation.hpp"
#include "shufl/stats.hpp"
#include "support/run.hpp"
#include "support/weighted_reference.hpp"

namespace {

using shufl::test::as_strings;

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
      const auto kept = as_strings(sampler.take_shuffled());
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
      const auto kept = as_strings(shufl::lines::gnu_reservoir_sample(reader, k, source));
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
    return as_strings(sampler.take_shuffled());
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
    const auto kept = as_strings(sampler.take_shuffled());
    std::array<std::uint8_t, 4> order{};
    for (std::size_t i = 0; i < 4; ++i) order[i] = static_cast<std::uint8_t>(kept[i][0] - '0');
    ++sampled[shufl::rank_permutation(std::span<const std::uint8_t>(order))];
  }
  EXPECT_GT(shufl::pearson_uniform(full).p_value, 1e-4);
  EXPECT_GT(shufl::pearson_uniform(sampled).p_value, 1e-4);
}


// ---------------------------------------------------------------------------------------------
// Skip-based reservoir sampling (issue 14 item 1): deterministic logarithms, geometric skips,
// skipping records, and uniformity of the sample and of its order.
// ---------------------------------------------------------------------------------------------

namespace detmath = shufl::lines::detmath;

// Pearson chi-squared of observed counts against expected probabilities (df = cells − 1).
double chi_squared_p(const std::vector<std::uint64_t>& observed, const std::vector<double>& prob) {
  double total = 0;
  for (const auto o : observed) total += static_cast<double>(o);
  double x2 = 0;
  for (std::size_t i = 0; i < observed.size(); ++i) {
    const double e = total * prob[i];
    const double d = static_cast<double>(observed[i]) - e;
    x2 += d * d / e;
  }
  return shufl::chi_squared_upper_tail(x2, static_cast<double>(observed.size() - 1)).p_value;
}

TEST(LinesDetmath, LogAgreesWithLibmToFiftyBits) {
  // libm's log is the independent reference here (glibc's is within one ulp).
  shufl::xoshiro256pp_engine e(shufl::key_from_seed("detlog"));
  double worst = 0;
  const auto check = [&](double x) {
    const double want = std::log(x);
    const double got = detmath::log(x);
    const double err = want == 0 ? std::fabs(got) : std::fabs(got - want) / std::fabs(want);
    worst = std::max(worst, err);
  };
  for (int i = 0; i < 200000; ++i) {
    const double u = detmath::open_unit(e());
    check(u);                                   // (0, 1): the skip's ln u
    check(1.0 - u * 1e-6);                      // near 1, from below
    check(std::ldexp(u + 0.5, static_cast<int>(e() % 2000) - 1000));  // any exponent
  }
  for (const double x : {1.0, 2.0, 0.5, 0x1.6A09E667F3BCDp+0, 0x1.6A09E667F3BCCp+0, 1e-300, 4.9e-324, 1e300}) check(x);
  EXPECT_LT(worst, 0x1p-50);
  EXPECT_EQ(detmath::log(1.0), 0.0);
}

TEST(LinesDetmath, Log1mAgreesWithLibmLog1p) {
  shufl::xoshiro256pp_engine e(shufl::key_from_seed("detlog1m"));
  double worst = 0;
  for (int i = 0; i < 200000; ++i) {
    const double p = std::ldexp(detmath::open_unit(e()), -static_cast<int>(e() % 60));
    const double want = std::log1p(-p);
    worst = std::max(worst, std::fabs(detmath::log1m(p) - want) / std::fabs(want));
  }
  EXPECT_LT(worst, 0x1p-49);
}

TEST(LinesDetmath, OpenUnitIsStrictlyInside) {
  EXPECT_EQ(detmath::open_unit(0), 0x1p-53);
  EXPECT_EQ(detmath::open_unit(~std::uint64_t{0}), 1.0 - 0x1p-53);
}

// The skip follows the geometric law P(S = s) = (1 − p)^s p (hand-derived), for a large and a
// small p; chi-squared over bins 0..B−1 and "B or more", fixed seeds, alpha 1e-4.
TEST(LinesDetmath, GeometricSkipHasTheGeometricLaw) {
  for (const double p : {0.3, 0.002}) {
    const std::size_t bins = 12;
    const double width = p > 0.1 ? 1 : 100;  // s / width is the bin
    std::vector<std::uint64_t> counts(bins + 1, 0);
    shufl::chacha20_engine e(shufl::key_from_seed("geometric"), 0);
    for (int i = 0; i < 60000; ++i) {
      const auto s = static_cast<double>(detmath::geometric_skip(detmath::open_unit(e()), p));
      counts[std::min<std::size_t>(bins, static_cast<std::size_t>(s / width))]++;
    }
    std::vector<double> prob(bins + 1);
    double left = 1;
    for (std::size_t b = 0; b < bins; ++b) {
      const double next = std::pow(1 - p, width * static_cast<double>(b + 1));  // P(S >= (b+1)w)
      prob[b] = left - next;
      left = next;
    }
    prob[bins] = left;
    EXPECT_GT(chi_squared_p(counts, prob), 1e-4) << p;
  }
  EXPECT_EQ(detmath::geometric_skip(0.5, 1.0), 0u);
  EXPECT_EQ(detmath::geometric_skip(0x1p-53, 1e-30), UINT64_MAX);  // saturates
}

// record_reader::skip against reading the records one by one: memory, a file read through
// sliding 4 MiB windows (records cross windows), a pipe read in odd pieces; with and without a
// last delimiter.
TEST(LinesRecordSkip, SkipEqualsReadingRecordByRecord) {
  std::string big;
  shufl::xoshiro256pp_engine e(shufl::key_from_seed("skip"));
  while (big.size() < (std::size_t{9} << 20)) {
    const std::size_t len = e() % 7 == 0 ? e() % 300 : e() % 12;  // short, some long, some empty
    big += std::string(len, static_cast<char>('a' + e() % 26)) + "\n";
  }
  shufl::test::temp_dir dir;
  for (const bool last_delimiter : {true, false}) {
    const std::string data = last_delimiter ? big : big + "tail";
    const std::string path = dir.write("f", data);
    const auto plan = [&](std::uint64_t i) { return i % 3 == 0 ? 0 : (i * 7919) % 2000; };
    const auto walk = [&](shufl::lines::record_reader& reader) {
      std::vector<std::string> got;
      std::string_view r;
      for (std::uint64_t i = 0;; ++i) {
        const std::uint64_t want = plan(i);
        if (reader.skip(want) != want) break;
        if (!reader.next(r)) break;
        got.emplace_back(r);
      }
      return got;
    };
    // Expected, by next() alone.
    std::vector<std::string> expected;
    {
      shufl::lines::record_reader reader(std::string_view(data), '\n');
      std::vector<std::string> all;
      std::string_view r;
      while (reader.next(r)) all.emplace_back(r);
      std::size_t at = 0;
      for (std::uint64_t i = 0;; ++i) {
        at += plan(i);
        if (at >= all.size()) break;
        expected.push_back(all[at++]);
      }
      // Skipping past the end reports how many there were.
      shufl::lines::record_reader again(std::string_view(data), '\n');
      EXPECT_EQ(again.skip(all.size() + 5), all.size());
    }
    ASSERT_GT(expected.size(), 100u);
    {
      shufl::lines::record_reader reader(std::string_view(data), '\n');
      EXPECT_EQ(walk(reader), expected) << "memory";
    }
    {
      const int fd = ::open(path.c_str(), O_RDONLY);
      ASSERT_GE(fd, 0);
      shufl::lines::record_reader reader(fd, '\n');
      EXPECT_EQ(walk(reader), expected) << "file";
      ::close(fd);
    }
    {
      // A pipe: a small prefix written in odd pieces (the pipe buffer holds it), then EOF.
      const std::string prefix = data.substr(0, 60000) + (last_delimiter ? "" : "tail");
      int fds[2];
      ASSERT_EQ(::pipe(fds), 0);
      for (std::size_t at = 0; at < prefix.size(); at += 997) {
        const std::size_t n = std::min<std::size_t>(997, prefix.size() - at);
        ASSERT_EQ(::write(fds[1], prefix.data() + at, n), static_cast<ssize_t>(n));
      }
      ::close(fds[1]);
      shufl::lines::record_reader pipe_reader(fds[0], '\n');
      shufl::lines::record_reader mem_reader(std::string_view(prefix), '\n');
      EXPECT_EQ(walk(pipe_reader), walk(mem_reader)) << "pipe";
      ::close(fds[0]);
    }
  }
}

TEST(LinesRecordSkip, SkipDelimitersCountsEveryPosition) {
  // Every count at every alignment of a 200-byte block with delimiters at known places.
  std::string block(200, 'x');
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i < block.size(); i += 1 + i % 5) {
    block[i] = '\n';
    at.push_back(i);
  }
  for (std::size_t start = 0; start < 70; ++start) {
    std::size_t first = 0;
    while (at[first] < start) ++first;
    for (std::uint64_t n = 1; n <= at.size() - first + 1; ++n) {
      std::uint64_t count = n;
      const char* stop = shufl::lines::skip_delimiters(block.data() + start, block.data() + block.size(), '\n', count);
      if (first + n - 1 < at.size()) {
        ASSERT_EQ(stop, block.data() + at[first + n - 1] + 1) << start << " " << n;
        ASSERT_EQ(count, 0u);
      } else {
        ASSERT_EQ(stop, nullptr);
        ASSERT_EQ(count, n - (at.size() - first));
      }
    }
  }
}

// Offering records one at a time and sampling with skips give the same sample (same draws).
TEST(LinesReservoir, SkippingEqualsOfferingOneByOne) {
  for (const std::size_t n : {0u, 1u, 7u, 100u, 5000u, 60000u}) {
    const std::string input = numbered_lines(n);
    for (const std::uint64_t k : {1u, 2u, 10u, 100u, 6000u}) {
      const seed_key key = shufl::key_from_seed("eq" + std::to_string(n) + "/" + std::to_string(k));
      shufl::lines::reservoir_sampler a(k, key), b(k, key), c(k, key);
      shufl::lines::record_reader reader(std::string_view(input), '\n');
      a.sample(reader);
      shufl::lines::record_reader reader2(std::string_view(input), '\n');
      std::string_view r;
      while (reader2.next(r)) b.offer(r);
      const auto lines = shufl::test::lines(input);
      std::string rec;
      c.sample_indexed(lines.size(), [&](std::uint64_t i) -> std::string_view {
        return rec = lines[static_cast<std::size_t>(i)] + "\n";
      });
      EXPECT_EQ(a.seen(), n);
      EXPECT_EQ(b.seen(), n);
      const auto sa = as_strings(a.take_shuffled());
      EXPECT_EQ(sa, as_strings(b.take_shuffled())) << n << " " << k;
      EXPECT_EQ(sa, as_strings(c.take_shuffled())) << n << " " << k;
    }
  }
}

// Chi-squared over which ordered pairs of 6 lines -n 2 gives (30 cells), and over which 3-subsets
// of 9 lines -n 3 keeps (84 cells, via the input-order form), many fixed seeds, alpha 1e-4.
TEST(LinesUniformity, OrderedPairsAndSubsets) {
  std::map<std::string, std::uint64_t> pairs, subsets;
  const std::string six = numbered_lines(6), nine = numbered_lines(9);
  for (int s = 0; s < 9000; ++s) {
    const seed_key key = shufl::key_from_seed("uniform-" + std::to_string(s * 7));
    shufl::lines::reservoir_sampler a(2, key), b(3, key);
    shufl::lines::record_reader ra(std::string_view(six), '\n'), rb(std::string_view(nine), '\n');
    a.sample(ra);
    b.sample(rb);
    std::string p, q;
    for (const auto& r : as_strings(a.take_shuffled())) p += r;
    for (const auto& r : as_strings(b.take_in_input_order())) q += r;
    ++pairs[p];
    ++subsets[q];
  }
  ASSERT_EQ(pairs.size(), 30u);
  ASSERT_EQ(subsets.size(), 84u);
  std::vector<std::uint64_t> pc, sc;
  for (const auto& [_, c] : pairs) pc.push_back(c);
  for (const auto& [_, c] : subsets) sc.push_back(c);
  EXPECT_GT(shufl::pearson_uniform(pc).p_value, 1e-4);
  EXPECT_GT(shufl::pearson_uniform(sc).p_value, 1e-4);
}

// Inclusion of each position of 3000 lines in -n 5 (bins of 150 positions) over many seeds: the
// skips are long here (W ≈ 5/3000), so this tests the geometric path; uniform, alpha 1e-4. The
// input-order form is sorted and has the same records.
TEST(LinesUniformity, InclusionByPositionWithLongSkips) {
  const std::string input = numbered_lines(3000);
  std::vector<std::uint64_t> bins(20, 0);
  for (int s = 0; s < 6000; ++s) {
    const seed_key key = shufl::key_from_seed("incl" + std::to_string(s));
    shufl::lines::reservoir_sampler a(5, key), b(5, key);
    shufl::lines::record_reader ra(std::string_view(input), '\n'), rb(std::string_view(input), '\n');
    a.sample(ra);
    b.sample(rb);
    auto shuffled = as_strings(a.take_shuffled());
    const auto ordered = as_strings(b.take_in_input_order());
    for (const auto& r : shuffled) ++bins[static_cast<std::size_t>(std::stoul(r)) / 150];
    std::vector<unsigned long> o;
    for (const auto& r : ordered) o.push_back(std::stoul(r));
    ASSERT_TRUE(std::is_sorted(o.begin(), o.end()));
    std::sort(shuffled.begin(), shuffled.end());
    auto sorted_ordered = ordered;
    std::sort(sorted_ordered.begin(), sorted_ordered.end());
    ASSERT_EQ(shuffled, sorted_ordered);
  }
  EXPECT_GT(shufl::pearson_uniform(bins).p_value, 1e-4);
}

}  // namespace
