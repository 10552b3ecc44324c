// Trial throughput of `shufl bias`: permutations counted per second, by deck size and test.
//   build/bench/bias_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include "shufl/bias.hpp"
#include "shufl/exact.hpp"

namespace {

const shufl::seed_key kKey = shufl::key_from_seed("bench");

// Table test (n! counts): n = 3 and 8, on 1 and 2 threads.
void table(benchmark::State& state, const char* algo) {
  const auto spec = shufl::parse_algorithm_list(algo)[0];
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto threads = static_cast<unsigned>(state.range(1));
  const std::uint64_t trials = static_cast<std::uint64_t>(state.range(2));
  for (auto _ : state) {
    benchmark::DoNotOptimize(shufl::count_permutations(spec, n, trials, shufl::engine_kind::xoshiro256pp, kKey, threads));
  }
  state.counters["trials/s"] = benchmark::Counter(static_cast<double>(trials * state.iterations()), benchmark::Counter::kIsRate);
}

// Position matrix (+ secondary statistics when range(2) = 1): n = 52.
void positions(benchmark::State& state, const char* algo) {
  const auto spec = shufl::parse_algorithm_list(algo)[0];
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto threads = static_cast<unsigned>(state.range(1));
  const bool secondary = state.range(2) != 0;
  const std::uint64_t trials = 16'000'000;  // the birthday test hashes the first 2^20
  for (auto _ : state) {
    benchmark::DoNotOptimize(shufl::count_positions(spec, n, trials, shufl::engine_kind::xoshiro256pp, kKey, threads, secondary));
  }
  state.counters["trials/s"] = benchmark::Counter(static_cast<double>(trials * state.iterations()), benchmark::Counter::kIsRate);
}

void exact_naive8(benchmark::State& state) {
  const auto spec = shufl::parse_algorithm_list("naive")[0];
  for (auto _ : state) benchmark::DoNotOptimize(shufl::enumerate_exact(spec, 8));
}

}  // namespace

BENCHMARK_CAPTURE(table, fisher_yates, "fisher-yates")
    ->Args({3, 1, 200'000'000})->Args({3, 2, 200'000'000})->Args({8, 1, 40'000'000})->Args({8, 2, 40'000'000})
    ->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(table, naive, "naive")->Args({3, 2, 200'000'000})->Args({8, 2, 20'000'000})
    ->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(positions, fisher_yates, "fisher-yates")
    ->Args({52, 1, 0})->Args({52, 1, 1})->Args({52, 2, 0})->Args({52, 2, 1})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(exact_naive8)->Unit(benchmark::kMillisecond)->Iterations(1);
