// Long run of the change detector's false-alarm guarantee (ctest label `long`): the average run
// length of 1,000 fair streams of the standard pack at A = 1,000 (each cut at 40,000 decks, a cut
// that only lowers the mean) must not be below A by more than 3 standard errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "shufl/audit/deck_reader.hpp"
#include "shufl/audit/detector.hpp"
#include "shufl/deck.hpp"
#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"

namespace {

TEST(AuditDetectorLong, AverageRunLengthOfAThousandFairStreams) {
  const auto pack = shufl::audit::audit_pack_of(shufl::make_pack(shufl::pack_kind::standard), "standard", 1, 0);
  const shufl::seed_key key = shufl::key_from_seed("detector-arl-long");
  const double a = 1000;
  const int n = 1000;
  double sum = 0, sq = 0;
  std::vector<std::uint32_t> deck(52);
  for (std::uint64_t s = 0; s < n; ++s) {
    shufl::xoshiro256pp_engine engine(key, s);
    shufl::audit::change_detector d(pack, a);
    std::uint64_t t = 1;
    for (; t <= 40000; ++t) {
      std::iota(deck.begin(), deck.end(), 0u);
      shufl::fisher_yates(std::span<std::uint32_t>(deck), engine);
      d.add_deck(deck);
      if (d.alarmed()) break;
    }
    const double v = static_cast<double>(std::min<std::uint64_t>(t, 40000));
    sum += v;
    sq += v * v;
  }
  const double mean = sum / n, se = std::sqrt((sq / n - mean * mean) / (n - 1));
  RecordProperty("mean_run_length", std::to_string(mean));
  EXPECT_GE(mean + 3 * se, a) << "mean " << mean << " se " << se;
}

}  // namespace
