#include "shufl/bias.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>

#include "shufl/error.hpp"
#include "shufl/permutation.hpp"

namespace shufl {

std::string_view verdict_json(verdict v) noexcept {
  switch (v) {
    case verdict::biased: return "biased";
    case verdict::unreliable: return "unreliable";
    default: return "no-evidence";
  }
}

std::string_view verdict_text(verdict v) noexcept {
  switch (v) {
    case verdict::biased: return "biased";
    case verdict::unreliable: return "unreliable";
    default: return "no evidence of bias";
  }
}

verdict decide_verdict(const test_result& primary, double expected_per_cell, double alpha) noexcept {
  if (expected_per_cell < 5) return verdict::unreliable;
  return primary.ln_p < std::log(alpha) ? verdict::biased : verdict::no_evidence;
}

std::vector<std::uint64_t> count_permutations(const algorithm_spec& algorithm, std::size_t n,
                                              std::uint64_t trials, engine_kind engine,
                                              const seed_key& key, unsigned threads) {
  const std::uint64_t cells = factorial(n);
  const std::uint64_t chunks = (trials + bias_chunk_trials - 1) / bias_chunk_trials;
  const seed_key algorithm_key = derive_key(key, "bias/" + algorithm.label(), 0);
  threads = static_cast<unsigned>(std::clamp<std::uint64_t>(threads, 1, std::max<std::uint64_t>(chunks, 1)));

  // One table per thread, each its own allocation padded to whole cache lines, so threads never
  // write to the same line; summed at the end.
  constexpr std::size_t pad = 64 / sizeof(std::uint64_t);
  std::vector<std::vector<std::uint64_t>> tables(threads, std::vector<std::uint64_t>(cells + pad, 0));
  std::atomic<std::uint64_t> next_chunk{0};
  auto worker = [&](unsigned t) {
    std::uint64_t* counts = tables[t].data();
    for (std::uint64_t c; (c = next_chunk.fetch_add(1, std::memory_order_relaxed)) < chunks;) {
      const std::uint64_t begin = c * bias_chunk_trials;
      const std::uint64_t size = std::min(bias_chunk_trials, trials - begin);
      algorithm.info->count_table(engine, algorithm_key, c, algorithm.parameter, n, size, counts);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker, t);
  worker(0);
  for (auto& th : pool) th.join();

  std::vector<std::uint64_t> total(cells, 0);
  for (const auto& table : tables) {
    for (std::uint64_t i = 0; i < cells; ++i) total[i] += table[i];
  }
  return total;
}

bias_report run_bias(const bias_options& options) {
  if (options.n < 2 || options.n > bias_max_table_n) {
    throw error(fmt::format("--n must be between 2 and {} (got {})", bias_max_table_n, options.n));
  }
  if (options.trials == 0) throw error("--trials must be at least 1");
  if (!(options.alpha > 0 && options.alpha < 1)) {
    throw error(fmt::format("--alpha must be strictly between 0 and 1 (got {})", options.alpha));
  }
  if (options.algorithms.empty()) throw error("no algorithm given");

  bias_report report;
  report.options = options;
  const seed_key key = options.seed ? key_from_seed(*options.seed) : key_from_os();
  const double cells = static_cast<double>(factorial(options.n));

  for (const auto& algorithm : options.algorithms) {
    bias_result r;
    r.algorithm = algorithm;
    r.counts = count_permutations(algorithm, options.n, options.trials, options.engine, key,
                                  options.threads);
    r.expected = static_cast<double>(options.trials) / cells;
    r.chi_squared = pearson_uniform(r.counts);
    r.g_test = g_test_uniform(r.counts);
    r.plug_in_tv = plug_in_tv_from_uniform(r.counts);
    if (r.expected < 5) {
      r.warnings.push_back(fmt::format(
          "expected count per permutation is {:.4g} (< 5): the chi-squared approximation is "
          "unreliable; use at least {} trials",
          r.expected, static_cast<std::uint64_t>(5 * cells)));
    }
    r.outcome = decide_verdict(r.chi_squared, r.expected, options.alpha);
    report.results.push_back(std::move(r));
  }
  return report;
}

}  // namespace shufl
