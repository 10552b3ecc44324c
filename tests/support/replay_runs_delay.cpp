// A fair stream with a 20-card stretch copied from an earlier deck (support/replay_runs_delay.hpp).
#include "support/replay_runs_delay.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <span>
#include <vector>

#include "shufl/audit/detector.hpp"
#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"
#include "support/audit_packs.hpp"

namespace shufl::test {

using audit::audit_pack;
using audit::change_detector;
using audit::replay_window;

std::uint64_t run_delay(std::uint64_t fair, std::uint64_t lag, std::size_t groups, std::uint64_t seed,
                        std::uint64_t prefill) {
  const audit_pack pack = standard_pack();
  shufl::xoshiro256pp_engine engine(shufl::key_from_seed("replay-runs-delay"), seed);
  auto window = std::make_shared<replay_window>();
  {
    std::vector<std::uint32_t> deck(52);
    for (std::uint64_t t = 0; t < prefill; ++t) {
      std::iota(deck.begin(), deck.end(), 0u);
      shufl::fisher_yates(std::span<std::uint32_t>(deck), engine);
      window->add((std::uint64_t{1} << 63) | t);  // distinct stand-ins for the decks' hashes
      window->add_runs(deck, 10, 6, 5);           // the detector's shape for 52 cards
    }
  }
  std::vector<change_detector> d;
  for (std::size_t g = 0; g < groups; ++g) d.emplace_back(pack, 1e9, change_detector::default_windows, window);
  std::vector<std::vector<std::uint32_t>> log;
  for (std::uint64_t t = 0; t < fair + 10; ++t) {
    std::vector<std::uint32_t> deck(52);
    std::iota(deck.begin(), deck.end(), 0u);
    shufl::fisher_yates(std::span<std::uint32_t>(deck), engine);
    if (t >= fair) {
      const std::vector<std::uint32_t>& old = log[log.size() - lag];
      const std::size_t from = engine() % 33, to = engine() % 33;
      std::vector<std::uint32_t> stretch(old.begin() + static_cast<std::ptrdiff_t>(from),
                                         old.begin() + static_cast<std::ptrdiff_t>(from + 20));
      std::vector<std::uint32_t> rest;
      for (const std::uint32_t c : deck)
        if (std::find(stretch.begin(), stretch.end(), c) == stretch.end()) rest.push_back(c);
      rest.insert(rest.begin() + static_cast<std::ptrdiff_t>(to), stretch.begin(), stretch.end());
      deck = rest;
    }
    change_detector& det = d[t % groups];
    det.add_deck(deck);
    log.push_back(deck);
    if (t < fair) {
      if (det.alarmed()) return 0;  // a false alarm: fails the caller's check
    } else if (det.alarmed()) {
      EXPECT_EQ(det.current().leader, "replay");
      return t - fair + 1;
    }
  }
  return 100;
}


}  // namespace shufl::test
