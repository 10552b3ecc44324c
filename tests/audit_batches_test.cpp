// Unit tests of the batches test (audit/batches.hpp): the exact Kolmogorov-Smirnov law against
// scipy.stats.kstwo (tests/reference/audit/ks_exact.py), the statistic on hand-worked values, the
// fair rejection rate by simulation (lean here; 1,000 audits in tests/long/), a bias that comes and
// goes (fair samples alternating with samples of 4 riffles), and the thread-independent merge.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "shufl/audit.hpp"
#include "shufl/audit/batches.hpp"
#include "shufl/error.hpp"
#include "support/audit_packs.hpp"
#include "support/run.hpp"
#include "support/test_rng.hpp"

namespace shufl::audit {
namespace {

TEST(AuditBatches, KsMatchesScipy) {
  // ks_exact.py: Durbin's matrix in 60-digit mpmath (scipy.stats.kstwo.sf agrees to 1e-12 up to m = 100).
  const struct {
    std::uint64_t m;
    double d, p;
  } cases[] = {{2, 0.6, 0.32000000000000004},         {3, 0.9, 0.0019999999999999987},
               {10, 0.274, 0.37152038454349563},       {20, 0.35, 0.010754963444390508},
               {50, 0.1, 0.66231127046581848},         {100, 0.1358, 0.045359802733604831},
               {100, 0.25, 5.4088717764348473e-6},     {400, 0.05, 0.26121260292565059},
               {1000, 0.043, 0.04811097724231246},     {1000, 0.08, 5.1541893847898239e-6}};
  for (const auto& c : cases) {
    EXPECT_NEAR(ks_p(c.m, c.d), c.p, 1e-9 * std::max(c.p, 1e-3)) << c.m << " " << c.d;
  }
  // Beyond the matrix (m·d > 500): Massart's bound 2·exp(−2md²), an upper bound on p.
  EXPECT_DOUBLE_EQ(ks_p(10000, 0.06), 2 * std::exp(-2 * 10000 * 0.06 * 0.06));
  EXPECT_FALSE(ks_cdf(10000, 0.06).has_value());
}

TEST(AuditBatches, KsStatisticByHand) {
  std::vector<double> v{0.9, 0.1, 0.5};
  // Sorted 0.1, 0.5, 0.9: max(1/3 − 0.1, 0.1, 2/3 − 0.5, 0.5 − 1/3, 1 − 0.9, 0.9 − 2/3) = 0.2333...
  EXPECT_NEAR(ks_statistic(v), 0.9 - 2.0 / 3.0, 1e-15);
  std::vector<double> w{0.0, 0.0};
  EXPECT_DOUBLE_EQ(ks_statistic(w), 1.0);
}

battery_shape standard_shape(std::uint64_t K) {
  battery_shape s = make_shape(test::standard_pack());
  s.batch_size = K;
  return s;
}

// The Gilbert-Shannon-Reeds riffle of the test's own: a Binomial(n, 1/2) cut, then cards dropped
// from each packet in proportion to its size.
void riffle(std::vector<std::uint32_t>& d, test::test_rng& rng) {
  const std::size_t n = d.size();
  std::size_t cut = 0;
  for (std::size_t i = 0; i < n; ++i) cut += rng.next() >> 63;
  std::vector<std::uint32_t> out;
  std::size_t a = 0, b = cut;
  while (a < cut || b < n) {
    const std::size_t left = cut - a, right = n - b;
    if (rng.below(static_cast<std::uint32_t>(left + right)) < left) {
      out.push_back(d[a++]);
    } else {
      out.push_back(d[b++]);
    }
  }
  d = out;
}

batch_sums sums_of(const battery_shape& s, std::uint64_t samples, std::uint64_t seed, bool alternate) {
  batch_sums b;
  b.size = s.batch_size;
  test::test_rng rng{seed};
  std::vector<std::uint32_t> decks;
  for (std::uint64_t j = 0; j < samples; ++j) {
    decks.clear();
    for (std::uint64_t i = 0; i < s.batch_size; ++i) {
      std::vector<std::uint32_t> d;
      if (alternate && j % 2 == 1) {
        d.resize(52);
        for (std::uint32_t c = 0; c < 52; ++c) d[c] = c;
        for (int r = 0; r < 4; ++r) riffle(d, rng);
      } else {
        d = rng.deck(52);
      }
      decks.insert(decks.end(), d.begin(), d.end());
    }
    add_batch_decks(b, s, decks.data(), s.batch_size, j * s.batch_size);
  }
  return b;
}

TEST(AuditBatches, FairRejectionRateInBand) {
  // 200 fair audits of 20 samples of 20 decks at level 0.05: at most Binomial(200, 0.05)
  // rejections (Bonferroni over the 8 statistics makes the row conservative), mean at most 10;
  // P(more than 24) < 8e-5. At least one: the row is not dead.
  const battery_shape s = standard_shape(20);
  int rejected = 0;
  for (std::uint64_t a = 0; a < 200; ++a) {
    const test_report r = batches_test(s, sums_of(s, 20, 1000 + a, false));
    ASSERT_EQ(r.result, test_outcome::pass);
    EXPECT_EQ(r.decks, 400u);
    rejected += r.p < 0.05;
  }
  EXPECT_GE(rejected, 1);
  EXPECT_LE(rejected, 24);
  RecordProperty("rejected", rejected);
}

TEST(AuditBatches, BiasThatComesAndGoesFails) {
  // 40 samples of 100 decks, every other one of 4 riffles: their p-values sit at 0 or 1.
  const battery_shape s = standard_shape(100);
  const test_report r = batches_test(s, sums_of(s, 40, 7, true));
  EXPECT_LT(r.p, 1e-6);
  EXPECT_NE(r.law.find("Kolmogorov-Smirnov"), std::string::npos);
  const test_report fair = batches_test(s, sums_of(s, 40, 7, false));
  EXPECT_GT(fair.p, 1e-4);
}

TEST(AuditBatches, MergeInAnyOrderAndPartialSample) {
  const battery_shape s = standard_shape(10);
  test::test_rng rng{3};
  std::vector<std::uint32_t> decks;
  for (int i = 0; i < 35; ++i) {
    const auto d = rng.deck(52);
    decks.insert(decks.end(), d.begin(), d.end());
  }
  batch_sums whole{10, {}, {}}, first{10, {}, {}}, second{10, {}, {}};
  add_batch_decks(whole, s, decks.data(), 35, 0);
  add_batch_decks(second, s, decks.data() + 17 * 52, 18, 17);
  add_batch_decks(first, s, decks.data(), 17, 0);
  merge_batches(second, first);
  EXPECT_EQ(second.sums, whole.sums);
  EXPECT_EQ(second.filled, whole.filled);
  const test_report r = batches_test(s, whole);
  EXPECT_EQ(r.decks, 30u);
  EXPECT_NE(r.note.find("the last 5 decks"), std::string::npos);
  batch_sums other{20, {}, {}};
  EXPECT_THROW(merge_batches(whole, other), error);
  EXPECT_THROW(check_batch_size(5), error);
}

TEST(AuditBatches, NotApplicableWithoutBatchSize) {
  const test_report r = batches_test(standard_shape(0), batch_sums{});
  EXPECT_EQ(r.result, test_outcome::not_applicable);
}

TEST(E2eAuditBatches, RowAndRefusals) {
  const test::run_result ok =
      test::run_shufl({"audit", "--algo", "fisher-yates", "--trials", "2000", "--seed", "b", "--batch-size", "100"});
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_NE(ok.out.find("\nbatches "), std::string::npos) << ok.out;
  const test::run_result none = test::run_shufl({"audit", "--algo", "fisher-yates", "--trials", "200", "--seed", "b"});
  EXPECT_EQ(none.out.find("\nbatches "), std::string::npos);
  const test::run_result small = test::run_shufl({"audit", "--algo", "fisher-yates", "--batch-size", "5"});
  EXPECT_EQ(small.status, 1);
  EXPECT_NE(small.err.find("--batch-size must be 10 to 10000000 decks, not 5"), std::string::npos) << small.err;
  const test::run_result save = test::run_shufl(
      {"audit", "--algo", "fisher-yates", "--trials", "200", "--batch-size", "10", "--save-counts", "never-written.json"});
  EXPECT_EQ(save.status, 1);
  EXPECT_NE(save.err.find("--batch-size cannot go with --save-counts or --merge"), std::string::npos) << save.err;
  EXPECT_EQ(save.out, "");
}

}  // namespace
}  // namespace shufl::audit
