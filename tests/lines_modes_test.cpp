// Unit and statistical tests of lines/modes.hpp (issue 17): Bernoulli sampling, distinct
// sampling, weighted sampling without replacement (A-ExpJ), sampling with replacement.
// Statistical tests run the library over many fixed seeds and compare frequencies with exact
// laws computed independently in Python (tests/reference/lines_modes/reference.py, output in
// reference.txt) by chi-squared tests (Boost.Math, not shufl's own statistics) at alpha 1e-6.
#include <gtest/gtest.h>

#include "support/run.hpp"

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "shufl/lines.hpp"
#include "support/weighted_reference.hpp"

namespace {

using shufl::seed_key;
namespace sl = shufl::lines;

constexpr double kAlpha = 1e-6;

// The law `name` of reference.txt: outcome text ("0,3") -> probability.
std::map<std::string, double> reference_law(const std::string& name) {
  std::ifstream in(shufl::test::reference_dir() + "/lines_modes/reference.txt");
  std::map<std::string, double> law;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string n, outcome;
    double p = 0;
    fields >> n >> outcome >> p;
    if (n == name) law[outcome] = p;
  }
  return law;
}

// Pearson's chi-squared p-value of `counts` against `law` (cells with expected count below 5
// pooled into one); an outcome outside the law fails at once.
double chi_squared_p(const std::map<std::string, std::uint64_t>& counts,
                     const std::map<std::string, double>& law, std::uint64_t trials) {
  for (const auto& [outcome, c] : counts) {
    EXPECT_TRUE(law.count(outcome)) << "impossible outcome " << outcome << " seen " << c << " times";
  }
  double stat = 0, pooled_e = 0, pooled_o = 0;
  int cells = 0;
  for (const auto& [outcome, p] : law) {
    const double e = p * static_cast<double>(trials);
    const auto it = counts.find(outcome);
    const double o = it == counts.end() ? 0.0 : static_cast<double>(it->second);
    if (e < 5) {
      pooled_e += e;
      pooled_o += o;
      continue;
    }
    stat += (o - e) * (o - e) / e;
    ++cells;
  }
  if (pooled_e > 0) {
    stat += (pooled_o - pooled_e) * (pooled_o - pooled_e) / pooled_e;
    ++cells;
  }
  const boost::math::chi_squared dist(cells - 1);
  return boost::math::cdf(boost::math::complement(dist, stat));
}

std::string join(const std::vector<std::string>& records) {
  std::string s;
  for (const auto& r : records) {
    if (!s.empty()) s += ',';
    s += r.substr(0, r.size() - 1);  // drop the delimiter
  }
  return s;
}

// One weighted sample of records "0\n", "1\n", ... with the given weights.
std::vector<std::string> weighted_run(const std::vector<double>& weights, std::uint64_t k,
                                      const seed_key& key, bool input_order = false) {
  sl::weighted_sampler s(k, key);
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (!s.pass(weights[i])) s.offer(std::to_string(i) + "\n", weights[i], i);
  }
  return shufl::test::as_strings(input_order ? s.take_in_input_order() : s.take_in_key_order());
}

std::map<std::string, std::uint64_t> weighted_counts(const std::vector<double>& weights,
                                                     std::uint64_t k, std::uint64_t trials,
                                                     const std::string& tag, bool sorted_set = false) {
  std::map<std::string, std::uint64_t> counts;
  for (std::uint64_t t = 0; t < trials; ++t) {
    auto out = weighted_run(weights, k, shufl::key_from_seed(tag + std::to_string(t)), sorted_set);
    ++counts[join(out)];
  }
  return counts;
}

// ---- weighted sampling without replacement ----

TEST(LinesWeighted, OrderedSampleFollowsSuccessiveDrawsMixedWeights) {
  const std::vector<double> w = {1, 0.25, 3, 6, 2};
  const std::uint64_t trials = 20000;
  const auto counts = weighted_counts(w, 2, trials, "ordered-a-");
  EXPECT_GT(chi_squared_p(counts, reference_law("ordered_a"), trials), kAlpha);
}

TEST(LinesWeighted, OrderedSampleWhenHeavyRecordsComeLate) {
  // The first two keys are large, so a heavy record enters with w·tau >> 1 (rejection path).
  const std::vector<double> w = {0.01, 0.02, 50, 0.03, 100};
  const std::uint64_t trials = 20000;
  const auto counts = weighted_counts(w, 2, trials, "ordered-b-");
  EXPECT_GT(chi_squared_p(counts, reference_law("ordered_b"), trials), kAlpha);
}

TEST(LinesWeighted, ZeroWeightsComeAfterEveryPositiveOneUniformly) {
  const std::vector<double> w = {0, 2, 0, 1};
  const std::uint64_t trials = 12000;
  const auto counts = weighted_counts(w, 3, trials, "zero-");
  EXPECT_GT(chi_squared_p(counts, reference_law("ordered_zero"), trials), kAlpha);
  // Never a zero before a positive weight, in any run.
  for (const auto& [outcome, c] : counts) {
    EXPECT_TRUE(outcome.rfind("1,3,", 0) == 0 || outcome.rfind("3,1,", 0) == 0) << outcome;
  }
}

TEST(LinesWeighted, SingleDrawThroughSeveralJumpsFollowsTheWeights) {
  // K = 1: each later record enters with probability 1 − e^(−w·tau), tau the key of the one
  // kept, so the law of the draw depends on the exact law of every entering key (w·tau is
  // often near 1 here, the Poisson-points path). A key drawn uniformly below tau instead of
  // from the truncated exponential shifts these frequencies by several standard errors.
  const std::vector<double> w = {1, 0.9, 1, 0.9, 1};
  const std::uint64_t trials = 60000;
  const auto counts = weighted_counts(w, 1, trials, "single-");
  EXPECT_GT(chi_squared_p(counts, reference_law("single"), trials), kAlpha);
}

TEST(LinesWeighted, SubsetsOfALongerStreamMatchExactInclusion) {
  const std::vector<double> w = {0.5, 1, 1.5, 2, 2.5, 3, 0.1, 7, 4, 0.75, 5, 1.25};
  const std::uint64_t trials = 40000;
  std::map<std::string, std::uint64_t> counts;
  for (std::uint64_t t = 0; t < trials; ++t) {
    const auto out = weighted_run(w, 3, shufl::key_from_seed("subset-" + std::to_string(t)), true);
    std::vector<int> idx;
    for (const auto& r : out) idx.push_back(std::stoi(r));
    ASSERT_EQ(idx.size(), 3u);
    ASSERT_TRUE(idx[0] < idx[1] && idx[1] < idx[2]);  // input order
    ++counts[std::to_string(idx[0]) + "," + std::to_string(idx[1]) + "," + std::to_string(idx[2])];
  }
  EXPECT_GT(chi_squared_p(counts, reference_law("subset12"), trials), kAlpha);
}

TEST(LinesWeighted, WeightedShuffleStartsWithTheSuccessiveDrawLaw) {
  // Without -n (k unlimited) every record gets a key; the first two of the order have the
  // law of two successive weighted draws (ordered_a).
  const std::vector<double> w = {1, 0.25, 3, 6, 2};
  const std::uint64_t trials = 20000;
  std::map<std::string, std::uint64_t> counts;
  for (std::uint64_t t = 0; t < trials; ++t) {
    auto out = weighted_run(w, UINT64_MAX, shufl::key_from_seed("shuffle-" + std::to_string(t)));
    ASSERT_EQ(out.size(), w.size());
    out.resize(2);
    ++counts[join(out)];
  }
  EXPECT_GT(chi_squared_p(counts, reference_law("ordered_a"), trials), kAlpha);
}

TEST(LinesWeighted, KeepsMinOfKAndRecordsAndNoDuplicates) {
  for (const std::uint64_t k : {1u, 3u, 10u, 50u}) {
    std::vector<double> w(20);
    for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<double>(i % 4);  // some zeros
    const auto out = weighted_run(w, k, shufl::key_from_seed("count"));
    const std::set<std::string> distinct(out.begin(), out.end());
    EXPECT_EQ(out.size(), std::min<std::uint64_t>(k, 20));
    EXPECT_EQ(distinct.size(), out.size());
  }
}

// ---- weights at the edges of binary64 ----

// The laws above must hold whatever the scale of the weights: the smallest subnormals (keys
// E/w far above the largest double), the largest doubles (keys far below the smallest normal,
// totals past the largest double) and both in one input.

TEST(LinesWeightedEdges, SubnormalWeightsEndAndFollowTheLaw) {
  // Two equal subnormal weights, K = 1: the second record's entry used to retry for ever
  // (every key +inf); now it ends, and each is chosen half the time.
  const std::vector<double> w = {1e-320, 1e-320};
  std::map<std::string, std::uint64_t> counts;
  const std::uint64_t trials = 4000;
  for (std::uint64_t t = 0; t < trials; ++t) ++counts[join(weighted_run(w, 1, shufl::key_from_seed("sub-" + std::to_string(t))))];
  EXPECT_GT(chi_squared_p(counts, {{"0", 0.5}, {"1", 0.5}}, trials), kAlpha);
}

TEST(LinesWeightedEdges, EqualSubnormalWeightsShuffleUniformly) {
  const std::uint64_t trials = 6000;
  const auto counts = weighted_counts({5e-324, 5e-324, 5e-324}, UINT64_MAX, trials, "sub3-");
  EXPECT_GT(chi_squared_p(counts, reference_law("edge_sub3"), trials), kAlpha);
}

TEST(LinesWeightedEdges, TinyWeightsKeepTheirRatio) {
  // 1e-310 vs 3e-310: the heavier first 3/4 of the time (was 58 in 1000).
  const std::uint64_t trials = 6000;
  for (const std::uint64_t k : {std::uint64_t{2}, UINT64_MAX}) {
    const auto counts = weighted_counts({1e-310, 3e-310}, k, trials, "tiny-" + std::to_string(k));
    EXPECT_GT(chi_squared_p(counts, reference_law("edge_tiny_pair"), trials), kAlpha) << k;
  }
}

TEST(LinesWeightedEdges, HugeEqualWeightsAreChosenEqually) {
  // Four weights of 1e308, K = 1 (was 2098/1574/1440/888 in 6000): keys E/w were subnormal.
  const std::uint64_t trials = 6000;
  const auto counts = weighted_counts({1e308, 1e308, 1e308, 1e308}, 1, trials, "huge4-");
  EXPECT_GT(chi_squared_p(counts, reference_law("edge_huge4"), trials), kAlpha);
}

TEST(LinesWeightedEdges, BothEndsInOneInput) {
  // The largest doubles are drawn first, then the subnormals 1 : 3 : 4 (in units of 2^-1074):
  // keys spanning 2^-1080 .. 2^1080 in one heap, jumps beyond the largest double.
  const std::vector<double> w = {5e-324, 1.7976931348623157e308, 1.5e-323, 1e308, 2e-323};
  const std::uint64_t trials = 8000;
  const auto counts = weighted_counts(w, 3, trials, "mixed-");
  const auto law = reference_law("edge_mixed");
  EXPECT_GT(chi_squared_p(counts, law, trials), kAlpha);
  for (const auto& [outcome, c] : counts) EXPECT_GT(law.at(outcome), 0.0) << outcome;  // a subnormal before a huge one: ~1e-600
}

TEST(LinesWeightedEdges, SingleDrawThroughJumpsAtBothEnds) {
  // K = 1 over five records, every later one entering through a jump (plain double, or scaled
  // where it leaves the doubles) and the truncated key of the entering record: the same law
  // at 2^-1060 (subnormal weights) and 2^1023 (a total past the largest double).
  const std::vector<double> base = {1, 0.75, 1, 0.5, 1};
  const std::uint64_t trials = 20000;
  for (const auto& [name, scale] : {std::pair<std::string, int>{"edge_single_sub", -1060}, {"edge_single_huge", 1023}}) {
    std::vector<double> w;
    for (const double b : base) w.push_back(std::ldexp(b, scale));  // exact
    const auto counts = weighted_counts(w, 1, trials, name);
    EXPECT_GT(chi_squared_p(counts, reference_law(name), trials), kAlpha) << name;
  }
}

TEST(LinesWeightedEdges, ScaledArithmeticIsThePlainDoubleInTheNormalRange) {
  // detmath::scaled gives exactly the binary64 result wherever that is a normal double (so
  // ordinary weights keep their seeded output), and the right order and value beyond.
  using sc = sl::detmath::scaled;
  shufl::xoshiro256pp_engine e(shufl::key_from_seed("scaled"));
  const auto any = [&] {
    const double m = static_cast<double>((e() >> 11) | 1) * 0x1p-53;
    return std::ldexp(m, static_cast<int>(e() % 400) - 200);
  };
  for (int t = 0; t < 100000; ++t) {
    const double a = any(), b = any();
    ASSERT_EQ((sc::of(a) * sc::of(b)).to_double(), a * b);
    ASSERT_EQ((sc::of(a) / sc::of(b)).to_double(), a / b);
    ASSERT_EQ((sc::of(a) + sc::of(b)).to_double(), a + b);
    const double hi = std::max(a, b), lo = std::min(a, b);
    ASSERT_EQ((sc::of(hi) - sc::of(lo)).to_double(), hi - lo);
    ASSERT_EQ(sc::of(a) < sc::of(b), a < b);
  }
  const sc tiny = sc::of(5e-324), huge = sc::of(1.7976931348623157e308);
  EXPECT_EQ(tiny.e, -1073);
  EXPECT_TRUE(tiny < huge);
  const sc ratio = huge / tiny;  // 2^1024·(1 − 2^-53) / 2^-1074
  EXPECT_FALSE(ratio.fits_double());
  EXPECT_EQ(ratio.e, 2098);
  EXPECT_EQ(ratio.m, 1 - 0x1p-53);
  EXPECT_EQ((ratio * tiny).to_double(), 1.7976931348623157e308);
  EXPECT_EQ(((huge + huge) - huge).to_double(), 1.7976931348623157e308);
  EXPECT_TRUE(sc::of(0) < tiny);
  EXPECT_TRUE((tiny - tiny).zero());
}

// ---- Bernoulli ----

TEST(LinesBernoulli, CountsFollowTheBinomialAndPositionsAreFair) {
  // 40 records, p = 1/5, over 20000 seeds: the number kept ~ Binomial(40, 1/5) (reference.txt);
  // each position is kept in Binomial(20000, 1/5) runs, independently: Σ z² ~ χ²(40).
  const std::uint64_t trials = 20000;
  std::map<std::string, std::uint64_t> counts;
  std::vector<std::uint64_t> at(40, 0);
  for (std::uint64_t t = 0; t < trials; ++t) {
    sl::record_source src(0, 40, '\n');
    std::uint64_t kept = 0;
    std::int64_t last = -1;
    sl::bernoulli_sample(src, 0.2, shufl::key_from_seed("bern-" + std::to_string(t)), UINT64_MAX,
                         [&](std::string_view r) {
                           const int i = std::stoi(std::string(r));
                           ASSERT_GT(i, last);  // input order, no repeats
                           last = i;
                           ++at[static_cast<std::size_t>(i)];
                           ++kept;
                         });
    ++counts[std::to_string(kept)];
  }
  EXPECT_GT(chi_squared_p(counts, reference_law("binom40"), trials), kAlpha);
  double z2 = 0;
  const double mean = 0.2 * trials, var = trials * 0.2 * 0.8;
  for (const auto c : at) z2 += (static_cast<double>(c) - mean) * (static_cast<double>(c) - mean) / var;
  const boost::math::chi_squared dist(40);
  EXPECT_GT(boost::math::cdf(boost::math::complement(dist, z2)), kAlpha);
}

TEST(LinesBernoulli, LongSkipsOverAStreamKeepTheRightFraction) {
  // p = 0.001 over 10^6 records from a stream (skips count delimiters): the total over 20 seeds
  // is Binomial(2·10^7, 0.001): mean 20000, sd 141.4; |z| < 5.3 (two-sided alpha ~1e-7).
  std::string text;
  for (int i = 0; i < 1000000; ++i) text += std::to_string(i) + "\n";
  std::uint64_t total = 0;
  for (int t = 0; t < 20; ++t) {
    sl::record_reader reader(std::string_view(text), '\n');
    sl::record_source src(reader);
    sl::bernoulli_sample(src, 0.001, shufl::key_from_seed("long-" + std::to_string(t)), UINT64_MAX,
                         [&](std::string_view) { ++total; });
    EXPECT_EQ(src.position(), 1000000u);  // the whole input passed
  }
  const double z = (static_cast<double>(total) - 20000.0) / std::sqrt(2e7 * 0.001 * 0.999);
  EXPECT_LT(std::abs(z), 5.3) << total;
}

TEST(LinesBernoulli, ProbabilityOneKeepsEverythingAndLimitStops) {
  sl::record_source src(5, 10, '\n');
  std::string got;
  sl::bernoulli_sample(src, 1.0, shufl::key_from_seed("one"), UINT64_MAX, [&](std::string_view r) { got += r; });
  EXPECT_EQ(got, "5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n");
  sl::record_source src2(5, 10, '\n');
  got.clear();
  sl::bernoulli_sample(src2, 1.0, shufl::key_from_seed("one"), 3, [&](std::string_view r) { got += r; });
  EXPECT_EQ(got, "5\n6\n7\n");
}

// ---- distinct sampling ----

TEST(LinesDistinct, DecisionDependsOnlyOnKeyAndSeedAndFractionIsBinomial) {
  const seed_key key = shufl::key_from_seed("distinct");
  sl::distinct_filter f(0.3, *sl::parse_field_list("2"), ',', key);
  sl::distinct_filter g(0.3, *sl::parse_field_list("1"), '\t', key);  // another layout, same key bytes
  std::uint64_t kept = 0;
  const int keys = 20000;
  for (int i = 0; i < keys; ++i) {
    const std::string k = "user" + std::to_string(i);
    const auto a = f.keep("x," + k + ",1");
    const auto b = g.keep(k + "\tother\tfields");
    ASSERT_TRUE(a && b);
    EXPECT_EQ(*a, *b) << k;
    kept += *a ? 1 : 0;
  }
  // Binomial(20000, 0.3): sd 64.8; |z| < 5.3.
  const double z = (static_cast<double>(kept) - 6000.0) / std::sqrt(20000 * 0.3 * 0.7);
  EXPECT_LT(std::abs(z), 5.3) << kept;
  // Another seed keeps other keys (the overlap of two independent 30% samples is ~9%).
  sl::distinct_filter h(0.3, *sl::parse_field_list("1"), '\t', shufl::key_from_seed("other"));
  std::uint64_t both = 0;
  for (int i = 0; i < keys; ++i) {
    const std::string k = "user" + std::to_string(i);
    both += (*g.keep(k) && *h.keep(k)) ? 1 : 0;
  }
  EXPECT_LT(std::abs((static_cast<double>(both) - 1800.0) / std::sqrt(20000 * 0.09 * 0.91)), 5.3) << both;
  // A record without the key field.
  EXPECT_FALSE(f.keep("only-one-field").has_value());
}

TEST(LinesDistinct, MultiFieldKeysAreJoinedUnambiguously) {
  const seed_key key = shufl::key_from_seed("join");
  sl::distinct_filter f(0.5, *sl::parse_field_list("1,3"), '\t', key);
  // The key of "a\tX\tb" is "a\tb": the same as the hash of those bytes.
  EXPECT_EQ(*f.keep("a\tX\tb"), f.hash("a\tb") < (std::uint64_t{1} << 63));
}

TEST(LinesDistinct, KeysFollowCutsFieldSets) {
  // The key is the fields of the set in field order, joined: whatever the list's order or
  // repeats; open ranges take the fields to the end; a record needs the fields named up to
  // the highest closed end or open start. Checked against the hash of the expected bytes for
  // many seeds (each a different threshold crossing).
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"3,1", "a\tc"}, {"1,3,1", "a\tc"}, {"2-", "b\tc\td"}, {"-2", "a\tb"}, {"4,2-3", "b\tc\td"},
      {"2-,1", "a\tb\tc\td"}, {"1 2", "a\tb"}};
  for (int seed = 0; seed < 64; ++seed) {
    const auto key = shufl::key_from_seed("cut" + std::to_string(seed));
    for (const auto& [list, joined] : cases) {
      sl::distinct_filter f(0.5, *sl::parse_field_list(list), '\t', key);
      ASSERT_EQ(f.keep("a\tb\tc\td"), std::optional<bool>(f.hash(joined) < (std::uint64_t{1} << 63))) << list;
    }
  }
  const auto key = shufl::key_from_seed("needs");
  EXPECT_FALSE(sl::distinct_filter(0.5, *sl::parse_field_list("5-"), '\t', key).keep("a\tb\tc\td").has_value());
  EXPECT_TRUE(sl::distinct_filter(0.5, *sl::parse_field_list("4-"), '\t', key).keep("a\tb\tc\td").has_value());
  EXPECT_FALSE(sl::distinct_filter(0.5, *sl::parse_field_list("1,5"), '\t', key).keep("a\tb\tc\td").has_value());
  EXPECT_FALSE(sl::distinct_filter(0.5, *sl::parse_field_list("1-1000000000"), '\t', key).keep("a\tb").has_value());
}

// ---- with replacement ----

TEST(LinesWithReplacement, WeightedDrawsAreProportionalAndZeroNeverDrawn) {
  const std::vector<double> w = {1, 0, 3, 6};
  const std::uint64_t k = 100000;
  const auto drawn = sl::draw_with_replacement(4, w, k, shufl::key_from_seed("wr"));
  ASSERT_EQ(drawn.size(), k);
  std::map<std::string, std::uint64_t> counts;
  for (const auto i : drawn) ++counts[std::to_string(i)];
  EXPECT_EQ(counts.count("1"), 0u);
  const std::map<std::string, double> law = {{"0", 0.1}, {"2", 0.3}, {"3", 0.6}};
  EXPECT_GT(chi_squared_p(counts, law, k), kAlpha);
}

TEST(LinesWithReplacement, UniformDrawsAndAllZeroWeightsAreUniform) {
  for (const bool zeros : {false, true}) {
    const std::vector<double> w(7, 0.0);
    const std::uint64_t k = 70000;
    const auto drawn = sl::draw_with_replacement(7, zeros ? std::span<const double>(w) : std::span<const double>(),
                                                 k, shufl::key_from_seed("wu"));
    std::map<std::string, std::uint64_t> counts;
    for (const auto i : drawn) ++counts[std::to_string(i)];
    std::map<std::string, double> law;
    for (int i = 0; i < 7; ++i) law[std::to_string(i)] = 1.0 / 7;
    EXPECT_GT(chi_squared_p(counts, law, k), kAlpha);
  }
}

TEST(LinesWithReplacementEdges, TotalsPastTheLargestDoubleAndSubnormalWeights) {
  // 1e308, 1e308, 1: the total overflowed and every draw was the last line; subnormal
  // weights drew with the coarse grid of u·W near 2^-1074.
  const std::uint64_t k = 60000;
  for (const auto& [name, w] : {std::pair<std::string, std::vector<double>>{"wr_huge", {1e308, 1e308, 1}},
                                {"wr_sub", {5e-324, 1e-323, 1.5e-323}},
                                {"wr_tiny_pair", {1e-310, 3e-310}}}) {
    const auto drawn = sl::draw_with_replacement(w.size(), w, k, shufl::key_from_seed(name));
    std::map<std::string, std::uint64_t> counts;
    for (const auto i : drawn) ++counts[std::to_string(i)];
    EXPECT_GT(chi_squared_p(counts, reference_law(name), k), kAlpha) << name;
  }
}

TEST(LinesWithReplacementEdges, DrawsComeOneByOneAsTheListDoes) {
  // replacement_draws (the streaming form) is the same sequence as draw_with_replacement.
  const std::vector<double> w = {1, 0, 3, 6};
  const auto key = shufl::key_from_seed("stream");
  const auto all = sl::draw_with_replacement(4, w, 1000, key);
  sl::replacement_draws one(4, w, key);
  for (const auto i : all) ASSERT_EQ(one.next(), i);
}

// ---- parsing ----

TEST(LinesModesParsing, Weights) {
  EXPECT_EQ(sl::parse_weight("3"), 3.0);
  EXPECT_EQ(sl::parse_weight("0.25"), 0.25);
  EXPECT_EQ(sl::parse_weight(".5"), 0.5);
  EXPECT_EQ(sl::parse_weight("1e-3"), 0.001);
  EXPECT_EQ(sl::parse_weight("2.5E+2"), 250.0);
  EXPECT_EQ(sl::parse_weight("0"), 0.0);
  EXPECT_EQ(sl::parse_weight("0.1"), 0.1);  // correctly rounded
  for (const char* bad : {"", "-1", "+1", " 1", "1 ", "nan", "inf", "NaN", "1e999", "0x10", "1,5", "abc", "-0"}) {
    EXPECT_FALSE(sl::parse_weight(bad).has_value()) << bad;
  }
}

TEST(LinesModesParsing, FastWeightPathGivesTheCorrectlyRoundedDouble) {
  // The fast path (digits, optional fraction, at most 15 digits) must give exactly what
  // std::from_chars gives (correct rounding), for many decimal strings of every length.
  shufl::xoshiro256pp_engine e(shufl::key_from_seed("weights"));
  for (int t = 0; t < 200000; ++t) {
    const auto word = e();
    const int int_digits = static_cast<int>(word % 9);
    const int frac_digits = static_cast<int>((word >> 8) % 10);
    std::string text;
    std::uint64_t bits = e();
    for (int i = 0; i < int_digits; ++i, bits /= 10) text += static_cast<char>('0' + bits % 10);
    if (frac_digits > 0 || int_digits == 0) {
      text += '.';
      bits = e();
      for (int i = 0; i < std::max(frac_digits, 1); ++i, bits /= 10) text += static_cast<char>('0' + bits % 10);
    }
    double expected = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), expected);
    ASSERT_EQ(r.ptr, text.data() + text.size()) << text;
    const auto got = sl::parse_weight(text);
    ASSERT_TRUE(got.has_value()) << text;
    ASSERT_EQ(*got, expected) << text;
  }
}

TEST(LinesModesParsing, OnePassFieldWeightAgreesWithTheTwoSteps) {
  // fast_field_weight either declines (−1) or gives exactly find_field + weight_or_negative.
  const std::vector<std::string> records = {"7", "7\tx", "x\t7", "x\t7\ty", "x\t\ty", "1.5\t2", "x\t1e3",
                                            "x\t-1", "x\t12a", "x\t.5", "x\t5.", "x\t.", "", "x",
                                            "x\t1234567890123456", "x\t0.000001\t9", "\t3"};
  int fast_hits = 0;
  for (const auto& r : records) {
    for (std::size_t f = 1; f <= 3; ++f) {
      const double fast = sl::fast_field_weight(r, f, '\t');
      std::string_view text;
      const bool found = sl::find_field(r, f, '\t', text);
      const double slow = found ? sl::weight_or_negative(text) : -1;
      if (fast >= 0) {
        ++fast_hits;
        EXPECT_EQ(fast, slow) << r << " field " << f;
      } else {
        EXPECT_TRUE(slow < 0 || !found || text.find_first_of("eE") != std::string_view::npos ||
                    text.size() > 15)
            << r << " field " << f;
      }
    }
  }
  EXPECT_GE(fast_hits, 10);
  EXPECT_EQ(sl::fast_field_weight("x\t0.25\ty", 2, '\t'), 0.25);
}

TEST(LinesModesParsing, WordReadsGiveTheSameWeightsAsTheBytewiseParse) {
  // detail::record_weight (word reads, SWAR digits) against fast_field_weight and, for the
  // integer form, std::from_chars: for random records of every shape the bulk path meets.
  shufl::xoshiro256pp_engine e(shufl::key_from_seed("word weights"));
  const std::string alphabet = "0123456789012345678901234567890123456789..\t\tx-e";
  int agreed = 0;
  for (int t = 0; t < 200000; ++t) {
    std::string body;
    const auto len = static_cast<int>(e() % 20);
    for (int i = 0; i < len; ++i) body += alphabet[e() % alphabet.size()];
    std::string buffer = body + '\n' + std::string(48, 'z');  // the slack word reads need
    const char* s = buffer.data();
    const char* end = s + body.size();
    for (std::size_t f = 1; f <= 3; ++f) {
      const double fast = sl::fast_field_weight(body, f, '\t');
      const double word = sl::detail::record_weight(s, end, f, '\t');
      if (fast >= 0 || word >= 0) {
        ASSERT_EQ(word, fast) << body << " field " << f;
        ++agreed;
      }
    }
    if (len >= 1 && len <= 8) {
      std::uint64_t v = 0;
      const auto r = std::from_chars(body.data(), body.data() + body.size(), v);
      const bool digits = r.ptr == body.data() + body.size() && body.find_first_not_of("0123456789") == std::string::npos;
      const std::int64_t got = sl::detail::short_digits_record(s, end);
      if (digits) {
        ASSERT_EQ(got, static_cast<std::int64_t>(v)) << body;
      } else {
        ASSERT_EQ(got, -1) << body;
      }
    }
  }
  EXPECT_GT(agreed, 20000);
}

TEST(LinesWeighted, BulkPassingDecidesExactlyAsRecordByRecord) {
  // pass_records must make the same decisions as pass() one record at a time, with the same
  // draws: the samples are equal for every seed, on seq-like input (the whole-block path),
  // integers of every length with zeros, fractions, huge weights (a jump above 2^53) and
  // weights in field 2 and the last or next-to-last field 3 of TSV records.
  std::vector<std::pair<std::string, std::size_t>> inputs;
  std::string seq;
  for (int i = 1; i <= 300000; ++i) seq += std::to_string(i) + "\n";
  inputs.emplace_back(seq, 1);
  shufl::xoshiro256pp_engine e(shufl::key_from_seed("bulk inputs"));
  std::string ints, mixed, huge, tsv, third;
  for (int i = 0; i < 60000; ++i) {
    const auto u = e();
    const int len = 1 + static_cast<int>(u % 9);  // 9 digits: longer than the block path takes
    std::string v;
    for (int j = 0; j < len; ++j) v += static_cast<char>('0' + (e() % 10));
    if (u % 97 == 0) v = "0";
    ints += v + "\n";
    mixed += (u % 5 == 0 ? v + "." + std::to_string(e() % 1000) : v) + "\n";
    huge += std::to_string(100000000000000 + e() % 900000000000000) + "\n";
    tsv += "id" + std::to_string(i) + "\t" + v + "\tx\n";
    third += "a\t" + std::string(u % 3, 'b') + "\t" + (u % 11 == 0 ? "1.5" : v) + (u % 7 == 0 ? "" : "\tz") + "\n";
  }
  inputs.emplace_back(ints, 1);
  inputs.emplace_back(mixed, 1);
  inputs.emplace_back(huge, 1);
  inputs.emplace_back(tsv, 2);
  inputs.emplace_back(third, 3);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    std::uint64_t passed = 0;
    for (const std::uint64_t k : {1, 7, 300}) {
      for (int seed = 0; seed < 3; ++seed) {
        const auto key = shufl::key_from_seed("bulk" + std::to_string(seed));
        ASSERT_EQ(shufl::test::weighted_sample_by(inputs[i].first, inputs[i].second, k, key, true, &passed),
                  shufl::test::weighted_sample_by(inputs[i].first, inputs[i].second, k, key, false))
            << "input " << i << " k " << k << " seed " << seed;
      }
    }
    EXPECT_GT(passed, 100000u) << "input " << i;  // the bulk path did the passing
  }
}

TEST(LinesWeightedEdges, BulkPassingAgreesWhenJumpsLeaveTheDoubles) {
  // Extreme weights (read by the careful parse) among plain decimals (the bulk path): after a
  // subnormal or huge weight the jump may be a scaled number, which only pass_slow handles;
  // the bulk path must then pass nothing itself and the samples stay those of record-by-record
  // passing.
  shufl::xoshiro256pp_engine e(shufl::key_from_seed("edge bulk"));
  const char* extreme[] = {"5e-324", "1e-320", "3e-310", "1e308", "1.7976931348623157e308", "2e-300"};
  std::string input;
  for (int i = 0; i < 40000; ++i) {
    const auto u = e();
    input += (u % 50 == 0 ? std::string(extreme[(u >> 8) % 6]) : std::to_string(1 + (u >> 16) % 1000)) + "\n";
  }
  std::uint64_t passed = 0;
  for (const std::uint64_t k : {1, 5, 100}) {
    for (int seed = 0; seed < 4; ++seed) {
      const auto key = shufl::key_from_seed("edge" + std::to_string(seed));
      ASSERT_EQ(shufl::test::weighted_sample_by(input, 1, k, key, true, &passed),
                shufl::test::weighted_sample_by(input, 1, k, key, false))
          << "k " << k << " seed " << seed;
    }
  }
  EXPECT_GT(passed, 0u);
}

TEST(LinesModesParsing, FieldListsAndFields) {
  using R = sl::field_list::range;
  const auto ranges = [](std::string_view text) {
    const auto list = sl::parse_field_list(text);
    return list ? list->ranges : std::vector<R>{{0, 0}};
  };
  constexpr std::size_t kOpen = SIZE_MAX;
  // cut -f's meaning: a set in field order, ranges merged; open ranges both ways.
  EXPECT_EQ(ranges("2"), (std::vector<R>{{2, 2}}));
  EXPECT_EQ(ranges("1,3-5"), (std::vector<R>{{1, 1}, {3, 5}}));
  EXPECT_EQ(ranges("3,1"), ranges("1,3"));
  EXPECT_EQ(ranges("1,1,1"), ranges("1"));
  EXPECT_EQ(ranges("2-4,3-6,7"), (std::vector<R>{{2, 7}}));
  EXPECT_EQ(ranges("2-"), (std::vector<R>{{2, kOpen}}));
  EXPECT_EQ(ranges("-3"), (std::vector<R>{{1, 3}}));
  EXPECT_EQ(ranges("5-,2,1-3"), (std::vector<R>{{1, 3}, {5, kOpen}}));
  EXPECT_EQ(ranges("4-,9"), (std::vector<R>{{4, kOpen}}));
  EXPECT_EQ(ranges("1 3\t5"), (std::vector<R>{{1, 1}, {3, 3}, {5, 5}}));  // blanks separate, as in cut
  // Huge numbers stay two numbers (the memory follows the list's text, not its numbers).
  EXPECT_EQ(ranges("1-1000000000,1000000000000"), (std::vector<R>{{1, 1000000000}, {1000000000000, 1000000000000}}));
  EXPECT_EQ(sl::parse_field_list("2-")->needed(), 2u);
  EXPECT_EQ(sl::parse_field_list("1,7-9")->needed(), 9u);
  EXPECT_EQ(sl::parse_field_list("-3,5-")->needed(), 5u);
  for (const auto& [bad, why] : std::vector<std::pair<std::string, std::string>>{
           {"", "missing list of fields"}, {"0", "fields are numbered from 1"}, {"1,", "fields are numbered from 1"},
           {",1", "fields are numbered from 1"}, {"1,,2", "fields are numbered from 1"},
           {"0-2", "fields are numbered from 1"}, {"3-2", "invalid decreasing range"},
           {"-", "invalid range with no endpoint: -"}, {"a", "invalid field value"}, {"1.5", "invalid field value"},
           {"1-2-3", "invalid field value"}, {"99999999999999999999", "field number is too large"}}) {
    std::string reason;
    EXPECT_FALSE(sl::parse_field_list(bad, &reason).has_value()) << bad;
    EXPECT_EQ(reason, why) << bad;
  }
  std::size_t number = 0;
  EXPECT_TRUE(sl::parse_field_list("2-2")->single(&number));
  EXPECT_EQ(number, 2u);
  EXPECT_FALSE(sl::parse_field_list("2-3")->single(&number));
  EXPECT_EQ(sl::field("a\tb\tc", 1, '\t'), "a");
  EXPECT_EQ(sl::field("a\tb\tc", 3, '\t'), "c");
  EXPECT_EQ(sl::field("a\t\tc", 2, '\t'), "");
  EXPECT_FALSE(sl::field("a\tb", 3, '\t').has_value());
  EXPECT_EQ(sl::field("", 1, '\t'), "");
}

TEST(LinesModesParsing, Thresholds) {
  EXPECT_EQ(sl::threshold_of(0.5).threshold, std::uint64_t{1} << 63);
  EXPECT_EQ(sl::threshold_of(0.25).threshold, std::uint64_t{1} << 62);
  EXPECT_TRUE(sl::threshold_of(1.0).passes(UINT64_MAX));
  EXPECT_FALSE(sl::threshold_of(0.5).passes(std::uint64_t{1} << 63));
  EXPECT_TRUE(sl::threshold_of(0.5).passes((std::uint64_t{1} << 63) - 1));
}

TEST(LinesModesSource, OperandsRangesAndSkips) {
  const std::vector<std::string> ops = {"a", "b", "c"};
  sl::record_source s(std::span<const std::string>(ops), '\0');
  std::string_view r;
  ASSERT_TRUE(s.next(r));
  EXPECT_EQ(r, std::string_view("a\0", 2));
  EXPECT_EQ(s.skip(5), 2u);
  EXPECT_FALSE(s.next(r));
  EXPECT_EQ(s.position(), 3u);
  sl::record_source g(UINT64_MAX - 1, 2, '\n');
  ASSERT_TRUE(g.next(r));
  EXPECT_EQ(r, "18446744073709551614\n");
  ASSERT_TRUE(g.next(r));
  EXPECT_EQ(r, "18446744073709551615\n");
  EXPECT_FALSE(g.next(r));
}

}  // namespace
