// The monitor's figures for docs/monitor.md: drift of each predictor under fair Fisher–Yates
// decks, decks to alarm at alpha 0.001 for planted flaws (median and 90th percentile over seeds),
// and decks per second on one core (processor time). Built and run by bench/monitor.sh.
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <deque>
#include <numeric>
#include <string>
#include <vector>

#include "shufl/audit/deck_reader.hpp"
#include "shufl/audit/monitor.hpp"
#include "shufl/deck.hpp"
#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"

using shufl::audit::e_process;
using engine_t = shufl::xoshiro256pp_engine;
using deck_t = std::vector<std::uint32_t>;

static void fair(deck_t& d, engine_t& e) {
  std::iota(d.begin(), d.end(), 0u);
  shufl::fisher_yates(std::span<std::uint32_t>(d), e);
}

int main() {
  const auto pack = shufl::audit::audit_pack_of(shufl::make_pack(shufl::pack_kind::standard),
                                                "standard", 1, 0);
  const int seeds = 20;
  // Drift under a fair shuffle.
  std::vector<double> at1k(5, 0), at10k(5, 0);
  int crossed05 = 0;
  for (int s = 0; s < seeds; ++s) {
    engine_t eng(shufl::key_from_seed("bench-fair"), static_cast<std::uint64_t>(s));
    e_process e(pack);
    deck_t d(52);
    for (int k = 1; k <= 10000; ++k) {
      fair(d, eng);
      e.add_deck(d);
      if (k == 1000 || k == 10000) {
        auto st = e.current();
        auto& acc = k == 1000 ? at1k : at10k;
        for (int p = 0; p < 4; ++p) acc[p] += st.log10_e[p].second / seeds;
        acc[4] += st.log10_mixture / seeds;
      }
    }
    crossed05 += e.crossed(0.05);
  }
  const char* names[] = {"position", "successor", "repeat", "suit-rank", "mixture"};
  std::printf("fair Fisher-Yates, mean log10 e over %d streams:\n", seeds);
  for (int p = 0; p < 5; ++p)
    std::printf("  %-10s after 1,000 decks %+.3f   after 10,000 decks %+.3f\n", names[p], at1k[p],
                at10k[p]);
  std::printf("  streams crossing 1/0.05 within 10,000 decks: %d of %d\n", crossed05, seeds);

  // Planted flaws.
  auto run = [&](const char* name, auto make) {
    std::vector<long> runs;
    for (int s = 0; s < seeds; ++s) {
      engine_t eng(shufl::key_from_seed(std::string("bench-") + name), static_cast<std::uint64_t>(s));
      e_process e(pack);
      deck_t d(52), prev(52);
      fair(prev, eng);
      long k = 1;
      for (; k <= 100000; ++k) {
        make(d, prev, eng);
        e.add_deck(d);
        prev = d;
        if (e.crossed(0.001)) break;
      }
      runs.push_back(k);
    }
    std::sort(runs.begin(), runs.end());
    std::printf("  %-44s median %6ld   90th percentile %6ld   (%d seeds)\n", name,
                runs[runs.size() / 2], runs[(runs.size() * 9) / 10], seeds);
  };
  std::printf("decks to alarm at alpha 0.001:\n");
  run("repeat of the previous deck rotated by one, p 0.02", [](deck_t& d, const deck_t& prev, engine_t& e) {
    if (shufl::uniform_below(e, 50) == 0) std::rotate_copy(prev.begin(), prev.begin() + 1, prev.end(), d.begin());
    else fair(d, e);
  });
  run("repeat of the previous deck rotated by one, p 0.002", [](deck_t& d, const deck_t& prev, engine_t& e) {
    if (shufl::uniform_below(e, 500) == 0) std::rotate_copy(prev.begin(), prev.begin() + 1, prev.end(), d.begin());
    else fair(d, e);
  });
  auto glue = [](std::uint64_t one_in) {
    return [one_in](deck_t& d, const deck_t&, engine_t& e) {
      fair(d, e);
      for (std::uint32_t c = 0; c + 1 < 52; c += 2) {
        if (shufl::uniform_below(e, one_in) != 0) continue;
        d.erase(std::find(d.begin(), d.end(), c + 1));
        d.insert(std::find(d.begin(), d.end(), c) + 1, c + 1);
      }
    };
  };
  run("glued neighbours (each pair 2i,2i+1 w.p. 1/8)", glue(8));
  run("glued neighbours (each pair 2i,2i+1 w.p. 1/64)", glue(64));
  run("riffle:3 from the original order", [](deck_t& d, const deck_t&, engine_t& e) {
    std::iota(d.begin(), d.end(), 0u);
    shufl::riffle_algorithm{}(std::span<std::uint32_t>(d), e, 3);
  });
  run("riffle:7 from the original order", [](deck_t& d, const deck_t&, engine_t& e) {
    std::iota(d.begin(), d.end(), 0u);
    shufl::riffle_algorithm{}(std::span<std::uint32_t>(d), e, 7);
  });
  run("shelf shuffler, 10 shelves, from the original order", [](deck_t& d, const deck_t&, engine_t& e) {
    // Each card in turn goes to a uniform shelf, on top or at the bottom of its pile (fair
    // coin); the shelves are then stacked (Diaconis, Fulman, Holmes, Ann. Appl. Probab. 2013).
    std::deque<std::uint32_t> shelves[10];
    for (std::uint32_t c = 0; c < 52; ++c) {
      auto& s = shelves[shufl::uniform_below(e, 10)];
      if (shufl::uniform_below(e, 2)) s.push_front(c); else s.push_back(c);
    }
    std::size_t i = 0;
    for (auto& s : shelves) for (auto c : s) d[i++] = c;
  });

  // Speed: processor time for 200,000 decks (pre-shuffled).
  engine_t eng(shufl::key_from_seed("bench-speed"), 0);
  std::vector<deck_t> decks(2000, deck_t(52));
  for (auto& d : decks) fair(d, eng);
  e_process e(pack);
  const std::clock_t t0 = std::clock();
  for (int r = 0; r < 100; ++r) for (const auto& d : decks) e.add_deck(d);
  const double sec = static_cast<double>(std::clock() - t0) / CLOCKS_PER_SEC;
  std::printf("speed: %.0f decks of 52 per second (processor time, one core)\n", 200000 / sec);
}
