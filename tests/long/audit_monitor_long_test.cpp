// Long run of the monitor's false-alarm rate (ctest label `long`): 1,000 streams of 10,000 fair
// Fisher–Yates decks of 52 cards. By Ville's inequality each stream's mixture e-value crosses
// 1/0.05 with probability at most 0.05, so the number of streams that ever alarm is at most
// binomial(1000, 0.05): mean 50, and P(X >= 72) < 0.002.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "shufl/audit/deck_reader.hpp"
#include "shufl/audit/monitor.hpp"
#include "shufl/deck.hpp"
#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"

TEST(AuditMonitorLong, ThousandFairStreamsOfTenThousandDecks) {
  const auto pack = shufl::audit::audit_pack_of(shufl::make_pack(shufl::pack_kind::standard),
                                                "standard", 1, 0);
  const shufl::seed_key key = shufl::key_from_seed("monitor-fair-long");
  int crossed = 0;
  std::vector<std::uint32_t> deck(52);
  for (std::uint64_t stream = 0; stream < 1000; ++stream) {
    shufl::xoshiro256pp_engine engine(key, stream);
    shufl::audit::e_process e(pack);
    for (int d = 0; d < 10000; ++d) {
      std::iota(deck.begin(), deck.end(), 0u);
      shufl::fisher_yates(std::span<std::uint32_t>(deck), engine);
      e.add_deck(deck);
    }
    crossed += e.crossed(0.05);
  }
  RecordProperty("crossed", crossed);
  EXPECT_LT(crossed, 72);
}
