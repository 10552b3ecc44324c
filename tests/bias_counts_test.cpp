// Unit tests of counts files and chunk sets (include/shufl/bias_counts.hpp, chunk_set in bias.hpp).
#include <gtest/gtest.h>

#include "shufl/bias_counts.hpp"
#include "shufl/error.hpp"
#include "shufl/version.hpp"
#include "support/run.hpp"

namespace shufl {
namespace {

chunk_set of(std::initializer_list<std::pair<std::uint64_t, std::uint64_t>> ranges) {
  chunk_set s;
  for (const auto& [b, e] : ranges) s.add(b, e);
  return s;
}

// --resume as library calls: the first of three chunks counted and saved, then plan_chunks and
// resumed_counts give the counts of the run that was never interrupted (each chunk's stream
// depends only on the seed and the chunk's number).
TEST(BiasCounts, AResumedRunEqualsTheWholeRun) {
  bias_options o;
  o.n = 3;
  o.trials = 3 * bias_chunk_trials;
  o.seed = "resume";
  o.algorithms = parse_algorithm_list("naive");
  const bias_report whole = run_bias(o);
  ASSERT_EQ(whole.results.at(0).counts.size(), 6u);

  bias_options first = o;
  EXPECT_EQ(plan_chunks(first, ""), std::nullopt);
  EXPECT_EQ(first.chunks, std::vector<chunk_set>{of({{0, 3}})});
  first.chunks = {of({{0, 1}})};
  first.evaluate = false;
  const test::temp_dir dir;
  const std::string saved = dir.write("part.json", write_counts_file(counts_of_report(run_bias(first))));

  bias_options rest = o;
  const std::optional<bias_counts> resumed = plan_chunks(rest, saved);
  ASSERT_TRUE(resumed.has_value());
  EXPECT_EQ(rest.chunks, std::vector<chunk_set>{of({{1, 3}})});
  EXPECT_FALSE(rest.evaluate);
  bias_report report = run_bias(rest);
  const bias_counts both = resumed_counts(*resumed, saved, report, rest);
  EXPECT_TRUE(rest.evaluate);
  EXPECT_EQ(report.results.at(0).counts, whole.results.at(0).counts);
  EXPECT_EQ(report.results.at(0).ln_p_primary_adjusted, whole.results.at(0).ln_p_primary_adjusted);
  EXPECT_EQ(both.results.at(0).counts, whole.results.at(0).counts);

  bias_options other = o;
  other.seed = "another";
  EXPECT_THROW(plan_chunks(other, saved), error);  // check_resume: another experiment
}

TEST(BiasCounts, ChunkSetArithmetic) {
  chunk_set s = of({{5, 7}, {0, 2}, {2, 3}});
  EXPECT_EQ(s.ranges, (std::vector<std::pair<std::uint64_t, std::uint64_t>>{{0, 3}, {5, 7}}));
  EXPECT_EQ(s.count(), 5u);
  EXPECT_EQ(s.text(), "0..2, 5..6");
  EXPECT_TRUE(s.contains(6));
  EXPECT_FALSE(s.contains(3));
  EXPECT_TRUE(s.overlaps(of({{6, 9}})));
  EXPECT_FALSE(s.overlaps(of({{3, 5}, {7, 9}})));
  EXPECT_EQ(s.minus(of({{1, 6}})).ranges, (std::vector<std::pair<std::uint64_t, std::uint64_t>>{{0, 1}, {6, 7}}));
  EXPECT_EQ(s.nth(3), 5u);
  EXPECT_EQ(s.prefix(4).ranges, (std::vector<std::pair<std::uint64_t, std::uint64_t>>{{0, 3}, {5, 6}}));
  // 200000 trials: chunks 0..2 of 65536 and a last chunk of 200000 - 3 * 65536 = 3392.
  EXPECT_EQ(of({{3, 4}}).trials_in(200000), 3392u);
  EXPECT_EQ(of({{0, 4}}).trials_in(200000), 200000u);
  EXPECT_EQ(of({{1, 2}, {4, 9}}).trials_in(200000), 65536u);
}

// The shards of a run partition its chunks: disjoint, together all, sizes within one chunk.
TEST(BiasCounts, ShardsPartitionTheChunks) {
  for (const std::uint64_t trials : {1ull, 65536ull, 200000ull, 10'000'000ull}) {
    const std::uint64_t chunks = bias_chunk_count(trials);
    for (const std::uint64_t shards : {1ull, 3ull, 7ull, 100ull}) {
      chunk_set all;
      std::uint64_t smallest = ~0ull, largest = 0;
      for (std::uint64_t i = 0; i < shards; ++i) {
        const chunk_set s = bias_shard_chunks(trials, i, shards);
        EXPECT_FALSE(all.overlaps(s));
        all.add(s);
        smallest = std::min(smallest, s.count());
        largest = std::max(largest, s.count());
      }
      EXPECT_EQ(all, chunk_set::all_of(trials)) << trials << " " << shards;
      EXPECT_LE(largest - smallest, 1u);
      EXPECT_EQ(all.count(), chunks);
    }
  }
  EXPECT_THROW(bias_shard_chunks(10, 4, 4), error);
  EXPECT_THROW(bias_shard_chunks(10, 0, 0), error);
}

bias_counts one_run(const std::string& seed, std::uint64_t trials) {
  bias_counts c;
  c.n = 2;
  c.secondary = false;
  bias_run run;
  run.seed = seed;
  run.trials = trials;
  c.runs.push_back(run);
  bias_result r;
  r.label = "fisher-yates";
  r.test = "table";
  r.n = 2;
  r.trials = trials;
  r.counts = {trials / 2, trials - trials / 2};
  r.position_counts = {trials / 2, trials - trials / 2, trials - trials / 2, trials / 2};
  r.parts.push_back({0, chunk_set::all_of(trials), {}});
  c.results.push_back(r);
  return c;
}

// F02: a total past 2^64 - 1 is refused, never wrapped (built directly: the file reader already
// caps one run at 10^15 trials).
TEST(BiasCounts, F02TotalTrialsPast2To64AreRefused) {
  bias_merge merge;
  merge.add(one_run("a", std::uint64_t{1} << 63), "a");
  try {
    merge.add(one_run("b", std::uint64_t{1} << 63), "b");
    FAIL() << "accepted";
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "'b' brings the total trials of fisher-yates past 2^64 - 1: the total cannot be represented");
  }
}

// The validator is a library function over bytes (for the fuzz harness): what the writer writes
// reads back to the same file.
TEST(BiasCounts, WriteThenParseRoundTrips) {
  bias_counts c = one_run("x", 100);
  c.secondary = true;
  auto& r = c.results[0];
  r.definition = "d";
  // n = 2: identity (0 inversions, 2 fixed points, 2 cycles, 2 rising) 50 times, swap 50 times.
  r.sums.trials = 100;
  r.sums.fixed_points = 100;
  r.sums.cycles = 150;
  r.sums.inversions = 50;
  r.sums.rising_sequences = 150;
  c.shufl_version = SHUFL_VERSION;
  const std::string text = write_counts_file(c);
  const bias_counts back = parse_counts_file(text, "mem");
  EXPECT_EQ(write_counts_file(back), text);
  EXPECT_THROW(parse_counts_file(text.substr(0, text.size() / 2), "mem"), error);
  EXPECT_THROW(parse_counts_file("[]", "mem"), error);
}

}  // namespace
}  // namespace shufl
