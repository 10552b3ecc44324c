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
#include "support/run_length.hpp"

namespace {

TEST(AuditDetectorLong, AverageRunLengthOfAThousandFairStreams) {
  const auto pack = shufl::audit::audit_pack_of(shufl::make_pack(shufl::pack_kind::standard), "standard", 1, 0);
  const shufl::seed_key key = shufl::key_from_seed("detector-arl-long");
  const double a = 1000;
  const int n = 1000;
  shufl::test::run_lengths runs;
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
    runs.add(t, 40000);
  }
  runs.expect_mean_at_least(a);
}

}  // namespace
