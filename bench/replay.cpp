// CPU per deck of the replay predictor's windows (run_window and replay_window, as one
// detector uses them: 52-card decks, windows of 10 cards, 5 slots, 2^20 decks), on a fair
// stream and on one deck dealt again and again, with the window filling and full. The two
// streams in the same run: on any stream the work per deck should be about the same (the index
// keeps one entry per distinct key). The fair figures include dealing the decks (Fisher–Yates)
// and both include a cheap deck hash (not SipHash). Run by bench/replay.sh.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <span>
#include <vector>

#include "shufl/audit/detector.hpp"
#include "shufl/audit/replay_runs.hpp"
#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"

namespace {

using shufl::audit::replay_window;

std::uint64_t hash_of(const std::vector<std::uint32_t>& d) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const std::uint32_t f : d) h = (h ^ (f + 1)) * 0x100000001b3ULL;
  return h;
}

double cpu_seconds() {
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

// Feeds `fill` fair decks, then `measured` decks (fair, or one deck again and again); prints
// the CPU ns per deck of each phase and the hits seen.
void run(const char* label, std::size_t fill, std::size_t measured, bool repeat) {
  shufl::xoshiro256pp_engine engine(shufl::key_from_seed("bench-replay"), 0);
  replay_window w;
  std::vector<std::uint32_t> deck(52);
  std::iota(deck.begin(), deck.end(), 0u);
  std::uint64_t matches = 0, hits = 0;
  double t0 = cpu_seconds(), t1 = t0;
  for (std::size_t t = 0; t < fill + measured; ++t) {
    if (t == fill) t1 = cpu_seconds();
    if (!repeat || t <= fill) shufl::fisher_yates(std::span<std::uint32_t>(deck), engine);
    hits += w.add(hash_of(deck)).hit;
    matches += w.add_runs(deck, 10, 6, 5).matches;
  }
  const double t2 = cpu_seconds();
  std::printf("%-44s %8.0f ns/deck over %zu decks (fill: %zu decks, %.0f ns/deck); hits %llu, run matches %llu\n", label,
              (t2 - t1) / static_cast<double>(measured) * 1e9, measured, fill,
              fill ? (t1 - t0) / static_cast<double>(fill) * 1e9 : 0.0, static_cast<unsigned long long>(hits),
              static_cast<unsigned long long>(matches));
}

}  // namespace

int main() {
  const std::size_t full = replay_window::default_window;
  run("fair, empty window:", 0, 20000, false);
  run("one deck 20,000 times, empty window:", 0, 20000, true);
  run("fair, full window:", full, 250000, false);
  run("one deck 250,000 times, full window:", full, 250000, true);
}
