// Detection delay of the change detector (docs/monitor.md, "Delay after a long fair history"):
// for each seed, one stream of fair Fisher–Yates decks is dealt, and at each of the checkpoints
// (0, 10^4, 10^5 and, when asked, 10^6 fair decks) a copy of the detector takes a fault from then
// on, for each of five faults; the decks from the change to the alarm are the delay. Prints the
// median and 90th percentile over the seeds per fault and checkpoint, and the false alarms the
// fair stretches raised (the detector restarts after each and the stream goes on).
// Usage: monitor_delay SEEDS MAX_HISTORY ARL    (built and run by bench/monitor_delay.sh)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <deque>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "shufl/audit/deck_reader.hpp"
#include "shufl/audit/detector.hpp"
#include "shufl/deck.hpp"
#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"

using shufl::audit::change_detector;
using engine_t = shufl::xoshiro256pp_engine;
using deck_t = std::vector<std::uint32_t>;
using fault_t = std::function<void(deck_t&, const deck_t&, engine_t&)>;

static void fair(deck_t& d, engine_t& e) {
  std::iota(d.begin(), d.end(), 0u);
  shufl::fisher_yates(std::span<std::uint32_t>(d), e);
}

int main(int argc, char** argv) {
  const int seeds = argc > 1 ? std::atoi(argv[1]) : 20;
  const std::uint64_t max_history = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 100000;
  const double arl = argc > 3 ? std::strtod(argv[3], nullptr) : 1e9;
  const std::uint64_t cap = 200000;  // decks after the change before giving up
  const auto pack = shufl::audit::audit_pack_of(shufl::make_pack(shufl::pack_kind::standard), "standard", 1, 0);

  const std::vector<std::pair<std::string, fault_t>> faults = {
      {"3 riffles from a new pack",
       [](deck_t& d, const deck_t&, engine_t& e) {
         std::iota(d.begin(), d.end(), 0u);
         shufl::riffle_algorithm{}(std::span<std::uint32_t>(d), e, 3);
       }},
      {"naive swap",
       [](deck_t& d, const deck_t&, engine_t& e) {
         std::iota(d.begin(), d.end(), 0u);
         shufl::naive_shuffle(std::span<std::uint32_t>(d), e);
       }},
      {"shelf:10",
       [](deck_t& d, const deck_t&, engine_t& e) {
         std::deque<std::uint32_t> shelves[10];
         for (std::uint32_t c = 0; c < 52; ++c) {
           auto& s = shelves[shufl::uniform_below(e, 10)];
           if (shufl::uniform_below(e, 2)) s.push_front(c); else s.push_back(c);
         }
         std::size_t i = 0;
         for (auto& s : shelves) for (auto c : s) d[i++] = c;
       }},
      {"previous deck, cut",
       [](deck_t& d, const deck_t& prev, engine_t& e) {
         const std::size_t cut = shufl::uniform_below(e, 52);
         for (std::size_t i = 0; i < 52; ++i) d[i] = prev[(i + cut) % 52];
       }},
      {"stuck card (As on top)",
       [](deck_t& d, const deck_t&, engine_t& e) {
         std::iota(d.begin(), d.end(), 0u);
         shufl::fisher_yates(std::span<std::uint32_t>(d.data() + 1, 51), e);
       }},
  };
  std::vector<std::uint64_t> checkpoints = {0, 10000, 100000, 1000000};
  while (checkpoints.back() > max_history) checkpoints.pop_back();

  // delays[fault][checkpoint] over seeds
  std::vector<std::vector<std::vector<std::uint64_t>>> delays(
      faults.size(), std::vector<std::vector<std::uint64_t>>(checkpoints.size()));
  std::uint64_t fair_decks = 0, false_alarms = 0;
  const std::clock_t t0 = std::clock();
  for (int s = 0; s < seeds; ++s) {
    engine_t history_engine(shufl::key_from_seed("bench-delay-history"), static_cast<std::uint64_t>(s));
    change_detector d(pack, arl);
    deck_t deck(52), prev(52);
    std::iota(prev.begin(), prev.end(), 0u);
    std::uint64_t dealt = 0;
    for (std::size_t c = 0; c < checkpoints.size(); ++c) {
      for (; dealt < checkpoints[c]; ++dealt) {
        fair(deck, history_engine);
        d.add_deck(deck);
        prev = deck;
        if (d.alarmed()) {
          ++false_alarms;
          d.restart();
        }
      }
      for (std::size_t f = 0; f < faults.size(); ++f) {
        engine_t fault_engine(shufl::key_from_seed("bench-delay-fault"), static_cast<std::uint64_t>(s) * 16 + f);
        change_detector after = d;
        deck_t p = prev, x(52);
        std::uint64_t t = 1;
        for (; t <= cap; ++t) {
          faults[f].second(x, p, fault_engine);
          after.add_deck(x);
          p = x;
          if (after.alarmed()) break;
        }
        delays[f][c].push_back(t);
      }
    }
    fair_decks += dealt;
  }
  const double sec = static_cast<double>(std::clock() - t0) / CLOCKS_PER_SEC;

  std::printf("| fault |");
  for (auto c : checkpoints) std::printf(" after %llu fair: median / p90 |", static_cast<unsigned long long>(c));
  std::printf("\n|---|");
  for (std::size_t c = 0; c < checkpoints.size(); ++c) std::printf("---|");
  std::printf("\n");
  for (std::size_t f = 0; f < faults.size(); ++f) {
    std::printf("| %s |", faults[f].first.c_str());
    for (std::size_t c = 0; c < checkpoints.size(); ++c) {
      auto v = delays[f][c];
      std::sort(v.begin(), v.end());
      const auto median = v[(v.size() - 1) / 2], p90 = v[(v.size() * 9 + 9) / 10 - 1];
      std::printf(" %llu / %llu |", static_cast<unsigned long long>(median), static_cast<unsigned long long>(p90));
    }
    std::printf("\n");
  }
  std::printf("\nseeds %d, ARL threshold %g; fair decks dealt %llu, false alarms %llu; processor time %.1f s\n",
              seeds, arl, static_cast<unsigned long long>(fair_decks), static_cast<unsigned long long>(false_alarms), sec);
}
