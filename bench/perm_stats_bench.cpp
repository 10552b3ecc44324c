// Cost per permutation of each secondary statistic of `shufl bias` at n = 52 (and of the
// position-matrix update alone), on a fixed set of random permutations held in L1/L2, so each
// figure is the statistic's own cost, not the shuffle's:
//   build/bench/perm_stats_bench --benchmark_min_time=0.2
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

#include "shufl/permutation.hpp"
#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"

namespace {

constexpr std::size_t kN = 52;
constexpr std::size_t kPerms = 1024;

const std::vector<std::uint8_t>& perms() {
  static const std::vector<std::uint8_t> all = [] {
    std::vector<std::uint8_t> v(kN * kPerms);
    shufl::xoshiro256pp_engine e(shufl::key_from_seed("perm-stats"));
    for (std::size_t t = 0; t < kPerms; ++t) {
      const std::span<std::uint8_t> p(v.data() + t * kN, kN);
      std::iota(p.begin(), p.end(), std::uint8_t{0});
      shufl::fisher_yates(p, e);
    }
    return v;
  }();
  return all;
}

template <class F>
void per_perm(benchmark::State& state, F&& f) {
  const auto& v = perms();
  std::uint64_t sink = 0;
  for (auto _ : state) {
    for (std::size_t t = 0; t < kPerms; ++t) {
      sink += f(std::span<const std::uint8_t>(v.data() + t * kN, kN));
    }
    benchmark::DoNotOptimize(sink);
  }
  state.counters["ns/perm"] = benchmark::Counter(static_cast<double>(state.iterations() * kPerms),
                                                 benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void fixed_points(benchmark::State& s) { per_perm(s, [](auto p) { return shufl::fixed_points(p); }); }
void cycles(benchmark::State& s) { per_perm(s, [](auto p) { return shufl::cycle_count(p); }); }
void inversions(benchmark::State& s) { per_perm(s, [](auto p) { return shufl::inversions(p); }); }
void rising_sequences(benchmark::State& s) { per_perm(s, [](auto p) { return shufl::rising_sequences(p); }); }
void fingerprint(benchmark::State& s) { per_perm(s, [](auto p) { return shufl::permutation_fingerprint(p); }); }
void all_sums(benchmark::State& s) {
  shufl::permutation_sums sums;
  per_perm(s, [&](auto p) {
    shufl::add_permutation_sums(sums, p);
    return sums.inversions;
  });
}
void position_matrix(benchmark::State& s) {
  std::vector<std::uint32_t> m(kN * kN, 0);
  per_perm(s, [&](auto p) {
    for (std::size_t i = 0; i < kN; ++i) ++m[p[i] * kN + i];
    return std::uint64_t{m[0]};
  });
}

}  // namespace

BENCHMARK(fixed_points);
BENCHMARK(cycles);
BENCHMARK(inversions);
BENCHMARK(rising_sequences);
BENCHMARK(fingerprint);
BENCHMARK(all_sums);
BENCHMARK(position_matrix);

namespace {
// The secondary statistics as the trial loop computes them: four decks per call.
void all_sums_batched(benchmark::State& state) {
  const auto& v = perms();
  shufl::permutation_sums sums;
  for (auto _ : state) {
    for (std::size_t t = 0; t < kPerms; t += 4) shufl::add_permutation_sums(sums, v.data() + t * kN, 4, kN);
    benchmark::DoNotOptimize(sums);
  }
  state.counters["ns/perm"] = benchmark::Counter(static_cast<double>(state.iterations() * kPerms),
                                                 benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
}  // namespace
BENCHMARK(all_sums_batched);
