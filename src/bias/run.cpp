// `shufl bias` as a whole: validation, --exact, --input, trials per algorithm, Monte-Carlo p-values.
#include "shufl/bias.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>
#include <thread>

#include "internal.hpp"
#include "shufl/error.hpp"
#include "shufl/exact.hpp"
#include "shufl/permutation.hpp"

namespace shufl {

namespace {

void validate(const bias_options& o) {
  if (o.n < 2 || o.n > bias_max_n) {
    throw error(fmt::format("--n must be between 2 and {} (got {})", bias_max_n, o.n));
  }
  if (!o.input && !o.exact && o.trials == 0) throw error("--trials must be at least 1");
  // Far beyond any run that finishes (1e15 trials take days), and keeps chunk arithmetic exact.
  if (o.trials > bias_max_trials) {
    throw error(fmt::format("--trials must be at most {} (got {})", bias_max_trials, o.trials));
  }
  if (!(o.alpha > 0 && o.alpha < 1)) {
    throw error(fmt::format("--alpha must be strictly between 0 and 1 (got {})", o.alpha));
  }
  if (!o.input && o.algorithms.empty()) throw error("no algorithm given");
  // --exact: enumeration needs n <= exact_max_n (the riffle closed form takes any n); the lower
  // bound is --n's own, so the message states the range bias really accepts.
  if (o.exact && o.n > exact_max_n) {
    for (const auto& algorithm : o.algorithms) {
      if (algorithm.info->name == "riffle") continue;
      throw error(fmt::format("--exact enumerates every path of {}: it needs 2 <= n <= {} (got {}); only "
                              "riffle:K has a closed form for larger n",
                              algorithm.label(), exact_max_n, o.n));
    }
  }
  if (!o.chunks.empty() && o.chunks.size() != o.algorithms.size()) {
    throw error("internal: one chunk set per algorithm expected");
  }
  if (o.test == bias_test::table && o.n > bias_max_table_n) {
    throw error(fmt::format("--test table needs n <= {} (n! cells); use --test position", bias_max_table_n));
  }
  // Each Monte-Carlo table of the table test is n! counts, whatever the trials: when n! passes the
  // trials (the work asked for), B × n! is bounded.
  const std::uint64_t trials = o.input ? o.input->size() / std::max<std::size_t>(o.n, 1) : o.trials;
  if (o.monte_carlo && !o.exact && o.n <= bias_max_table_n && choose_test(o.test, o.n, trials) == "table" &&
      factorial(o.n) > trials && o.monte_carlo > bias_max_monte_carlo_cells / factorial(o.n)) {
    throw error(fmt::format("--monte-carlo {} with the table test simulates {} tables of n! = {} counts; at most {} "
                            "counts in all (--monte-carlo {} at n = {}): use fewer tables or --test position",
                            o.monte_carlo, o.monte_carlo, factorial(o.n), bias_max_monte_carlo_cells,
                            bias_max_monte_carlo_cells / factorial(o.n), o.n));
  }
}

// Threads for the permutation table: each thread keeps its own n! counts, so cap the threads at
// bias_max_table_memory bytes of tables in all (issue 11: 1024 threads at n = 9 took 2.9 GB).
unsigned table_threads(unsigned threads, std::size_t n) {
  return static_cast<unsigned>(std::clamp<std::uint64_t>(threads, 1, bias_max_table_threads(n)));
}

// Σ c², exactly: for a fixed total and number of cells the Pearson statistic is an increasing
// function of it, so comparing it compares X² without the rounding of sums taken in different
// orders (which used to miss ties). 128 bits: counts go up to 10^15.
__extension__ typedef unsigned __int128 sum_of_squares;
sum_of_squares squares(const std::vector<std::uint64_t>& counts) {
  sum_of_squares s = 0;
  for (const auto c : counts) s += static_cast<sum_of_squares>(c) * c;
  return s;
}

// Monte-Carlo p-value of the primary statistic: B tables of the same size from Fisher–Yates
// (exactly uniform), p = (1 + #{X²_b ≥ X²}) / (B + 1), ties counted exactly (Σ c²).
test_result monte_carlo_p(const bias_result& r, const bias_options& o, const seed_key& key) {
  const algorithm_spec fy{&find_algorithm("fisher-yates"), 0};
  const sum_of_squares observed = squares(r.test == "table" ? r.counts : r.position_counts);
  std::uint64_t at_least = 0;
  for (std::uint64_t b = 0; b < o.monte_carlo; ++b) {
    const seed_key k = derive_key(key, "bias/monte-carlo", b);
    const sum_of_squares simulated =
        r.test == "table" ? squares(count_permutations(fy, r.n, r.trials, o.engine, k, table_threads(o.threads, r.n)))
                          : squares(count_positions(fy, r.n, r.trials, o.engine, k, o.threads, false).positions);
    at_least += simulated >= observed;
  }
  test_result mc = r.chi_squared;
  mc.bound = false;
  mc.p_value = static_cast<double>(1 + at_least) / static_cast<double>(o.monte_carlo + 1);
  mc.ln_p = std::log(mc.p_value);
  mc.log10_p = std::log10(mc.p_value);
  return mc;
}

// The counts of a result without tests (a shard, an interrupted run).
bias_result raw_result(const bias_tallies& t, const std::string& test) {
  bias_result r;
  r.test = test;
  r.n = t.n;
  r.trials = t.trials;
  r.counts = t.table;
  r.position_counts = t.positions;
  r.sums = t.sums;
  r.expected = static_cast<double>(t.trials) / (test == "table" ? static_cast<double>(t.table.size()) : static_cast<double>(t.n));
  return r;
}

// Tallies of the table test: the position matrix and the secondary sums follow from the table.
void complete_from_table(bias_tallies& tallies, bool secondary) {
  const std::size_t n = tallies.n;
  tallies.positions.assign(n * n, 0);
  std::array<std::uint8_t, max_rank_n> perm{};
  for (std::uint64_t rank = 0; rank < tallies.table.size(); ++rank) {
    const std::uint64_t c = tallies.table[rank];
    if (c == 0) continue;
    detail::unrank_into(rank, n, perm.data());
    const std::span<const std::uint8_t> p(perm.data(), n);
    for (std::size_t i = 0; i < n; ++i) tallies.positions[perm[i] * n + i] += c;
    if (secondary) {
      permutation_sums one;
      one.add(p);
      tallies.sums.trials += c;
      tallies.sums.fixed_points += uint128{c} * one.fixed_points;
      tallies.sums.cycles += uint128{c} * one.cycles;
      tallies.sums.inversions += uint128{c} * one.inversions;
      tallies.sums.rising_sequences += uint128{c} * one.rising_sequences;
    }
  }
}

}  // namespace

bias_result test_tallies(const bias_tallies& tallies, const bias_options& o, const std::string& test,
                         const seed_key& key) {
  bias_result r = evaluate_tallies(tallies, o, test);
  if (o.monte_carlo) {
    r.monte_carlo = monte_carlo_p(r, o, key);
    detail::decide_family(r, o.alpha);
    for (auto& w : r.warnings) {
      w += fmt::format(" (the verdict uses a Monte-Carlo p-value from {} simulated tables)", o.monte_carlo);
    }
    const double smallest = 1.0 / static_cast<double>(o.monte_carlo + 1);
    if (smallest > o.alpha) {
      r.warnings.push_back(fmt::format(
          "--monte-carlo {} can never reject at alpha = {}: its smallest p-value is 1/(B+1) = {:.4g}; "
          "use B >= {}",
          o.monte_carlo, o.alpha, smallest, static_cast<std::uint64_t>(std::ceil(1 / o.alpha - 1))));
    }
  }
  return r;
}

std::uint64_t bias_max_table_threads(std::size_t n) {
  if (n > bias_max_table_n) return 1;
  return std::max<std::uint64_t>(1, bias_max_table_memory / (factorial(n) * sizeof(std::uint64_t)));
}

bias_report run_bias(const bias_options& options) {
  validate(options);
  bias_report report;
  report.options = options;
  const std::size_t n = options.n;

  const auto stopped = [&] { return options.stop != nullptr && options.stop->load(); };
  if (options.input) {
    const std::uint64_t trials = options.input->size() / n;
    if (trials == 0) throw error("no permutations in the input");
    const std::string test = choose_test(options.test, n, trials);
    const seed_key key = options.seed ? key_from_seed(*options.seed) : key_from_os();
    bias_tallies tallies = tally_permutations(*options.input, n, test == "table");
    if (test == "table") tallies.fingerprints.clear();
    bias_result r = test_tallies(tallies, options, test, key);
    r.label = options.input_name;
    r.parts.push_back({0, tallies.chunks, std::move(tallies.fingerprints)});
    report.options.trials = trials;
    bias_run run;
    run.input = options.input_name;
    // The run's id: a hash of the permutations, so the same input saved twice cannot be merged.
    run.run_id = to_hex(key_from_seed(std::string_view(reinterpret_cast<const char*>(options.input->data()),
                                                       options.input->size()))).substr(0, 32);
    run.engine = options.engine;
    run.trials = trials;
    report.runs.push_back(std::move(run));
    report.results.push_back(std::move(r));
  } else if (options.exact) {
    // Every algorithm's law must be computable before the first is computed.
    for (const auto& algorithm : options.algorithms) check_exact_law(algorithm, n);
    for (const auto& algorithm : options.algorithms) {
      bias_result r;
      r.label = algorithm.label();
      r.definition = std::string(algorithm.info->definition);
      r.n = n;
      r.test = "exact";
      r.exact = exact_law(algorithm, n);
      r.outcome = r.exact->total_variation == "0" ? verdict::no_evidence : verdict::biased;
      report.results.push_back(std::move(r));
    }
  } else {
    const seed_key key = options.seed ? key_from_seed(*options.seed) : key_from_os();
    bias_run run;
    run.seed = options.seed;
    // An unseeded run is named by 128 random bits, so its counts cannot be merged twice.
    if (!options.seed) run.run_id = to_hex(key_from_os()).substr(0, 32);
    run.engine = options.engine;
    run.trials = options.trials;
    if (options.shard.second != 0) run.shards.push_back(options.shard);
    report.runs.push_back(std::move(run));
    for (std::size_t a = 0; a < options.algorithms.size(); ++a) {
      const auto& algorithm = options.algorithms[a];
      const std::string test = choose_test(options.test, n, options.trials);
      chunk_set done;
      const chunk_plan plan{options.chunks.empty() ? nullptr : &options.chunks[a], options.stop, &done};
      bias_tallies tallies;
      if (test == "table") {
        tallies.n = n;
        tallies.table = count_permutations(algorithm, n, options.trials, options.engine, key, table_threads(options.threads, n),
                                           options.progress, plan);
        tallies.chunks = done;
        tallies.trials = done.trials_in(options.trials);
        complete_from_table(tallies, options.secondary);
      } else {
        tallies = count_positions(algorithm, n, options.trials, options.engine, key, options.threads,
                                  options.secondary, options.progress, plan);
      }
      const bool evaluate = options.evaluate && !stopped() && tallies.trials > 0;
      bias_result r = evaluate ? test_tallies(tallies, options, test, key) : raw_result(tallies, test);
      r.label = algorithm.label();
      r.definition = std::string(algorithm.info->definition);
      r.parts.push_back({0, std::move(tallies.chunks), std::move(tallies.fingerprints)});
      report.results.push_back(std::move(r));
    }
    report.interrupted = stopped();
  }
  for (const auto& r : report.results) {
    if (r.correction == "holm") report.correction = "holm";
  }
  return report;
}

}  // namespace shufl
