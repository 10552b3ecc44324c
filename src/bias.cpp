#include "shufl/bias.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>
#include <thread>

#include "shufl/detail/replay_engine.hpp"
#include "shufl/error.hpp"
#include "shufl/permutation.hpp"

namespace shufl {

namespace {

// Path-code counting (detail::path_coder) is used when an algorithm's paths number at most this.
constexpr std::uint64_t kMaxPathCodes = std::uint64_t{1} << 20;

// Runs chunk(thread, chunk index, first trial, trials) for every chunk of bias_chunk_trials, on
// `threads` threads taking chunks in turn. Which thread runs a chunk never matters: each chunk has
// its own stream and writes only to its thread's accumulators or its own slice.
template <class F>
void run_chunks(std::uint64_t trials, unsigned threads, F&& chunk, const bias_progress& progress = {},
                const std::string& label = {}) {
  const std::uint64_t chunks = (trials + bias_chunk_trials - 1) / bias_chunk_trials;
  std::atomic<std::uint64_t> next{0}, done{0};
  auto worker = [&](unsigned t) {
    for (std::uint64_t c; (c = next.fetch_add(1, std::memory_order_relaxed)) < chunks;) {
      const std::uint64_t begin = c * bias_chunk_trials;
      const std::uint64_t size = std::min(bias_chunk_trials, trials - begin);
      chunk(t, c, begin, size);
      const std::uint64_t so_far = done.fetch_add(size, std::memory_order_relaxed) + size;
      if (t == 0 && progress) progress(so_far, trials, label);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker, t);
  worker(0);
  for (auto& th : pool) th.join();
}

unsigned clamp_threads(unsigned threads, std::uint64_t trials) {
  const std::uint64_t chunks = (trials + bias_chunk_trials - 1) / bias_chunk_trials;
  return static_cast<unsigned>(std::clamp<std::uint64_t>(threads, 1, std::max<std::uint64_t>(chunks, 1)));
}

// Per-thread accumulators, each its own allocation padded to whole cache lines so threads never
// write to the same line.
std::vector<std::vector<std::uint64_t>> padded_tables(unsigned threads, std::uint64_t cells) {
  constexpr std::size_t pad = 64 / sizeof(std::uint64_t);
  return std::vector<std::vector<std::uint64_t>>(threads, std::vector<std::uint64_t>(cells + pad, 0));
}

// The bounds of an algorithm's draws (when they are fixed): one run along the all-zero path.
std::vector<std::uint64_t> fixed_path_bounds(const algorithm_spec& algorithm, std::size_t n) {
  auto engine = std::make_unique<detail::replay_engine>();
  std::array<std::uint8_t, 256> deck{};
  algorithm.info->run_replay(std::span<std::uint8_t>(deck.data(), n), *engine, algorithm.parameter);
  if (engine->overflow) return {};
  return {engine->bounds.begin(), engine->bounds.begin() + static_cast<std::ptrdiff_t>(engine->used)};
}

// Writes the permutation of rank `rank` into out[0, n) (n ≤ 20), allocation-free.
void unrank_into(std::uint64_t rank, std::size_t n, std::uint8_t* out) noexcept {
  std::array<std::uint8_t, max_rank_n> code{}, unused{};
  for (std::size_t i = n; i-- > 0;) {
    const std::uint64_t base = n - i;
    code[i] = static_cast<std::uint8_t>(rank % base);
    rank /= base;
  }
  for (std::size_t i = 0; i < n; ++i) unused[i] = static_cast<std::uint8_t>(i);
  std::size_t left = n;
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = unused[code[i]];
    std::copy(unused.begin() + code[i] + 1, unused.begin() + static_cast<std::ptrdiff_t>(left), unused.begin() + code[i]);
    --left;
  }
}

// Number of values that repeat an earlier one. LSD radix sort (four 16-bit digits) first: about
// twice as fast as std::sort on the million fingerprints of the birthday test (28 vs 58 ms).
std::uint64_t count_repeats(std::vector<std::uint64_t>& values) {
  std::vector<std::uint64_t> scratch(values.size());
  std::vector<std::size_t> offsets(65536);
  for (unsigned shift = 0; shift < 64; shift += 16) {
    std::fill(offsets.begin(), offsets.end(), 0);
    for (const auto v : values) ++offsets[(v >> shift) & 0xFFFF];
    std::size_t sum = 0;
    for (auto& o : offsets) {
      const std::size_t c = o;
      o = sum;
      sum += c;
    }
    for (const auto v : values) scratch[offsets[(v >> shift) & 0xFFFF]++] = v;
    values.swap(scratch);
  }
  std::uint64_t repeats = 0;
  for (std::size_t i = 1; i < values.size(); ++i) repeats += values[i] == values[i - 1];
  return repeats;
}

double harmonic(std::size_t n, double power) {
  double h = 0;
  for (std::size_t k = 1; k <= n; ++k) h += 1 / std::pow(static_cast<double>(k), power);
  return h;
}

// Pearson X² and G of an n × n position matrix against T/n per cell, both scaled by (n − 1)/n.
std::pair<test_result, test_result> position_tests(const std::vector<std::uint64_t>& m, std::size_t n,
                                                  std::uint64_t trials) {
  const double expected = static_cast<double>(trials) / static_cast<double>(n);
  double x2 = 0, g = 0;
  for (const auto c : m) {
    const double o = static_cast<double>(c);
    x2 += (o - expected) * (o - expected);
    if (c) g += o * std::log(o / expected);
  }
  x2 /= expected;
  const double scale = static_cast<double>(n - 1) / static_cast<double>(n);
  const double df = static_cast<double>((n - 1) * (n - 1));
  return {chi_squared_upper_tail(x2 * scale, df), chi_squared_upper_tail(2 * g * scale, df)};
}

// The verdict: the primary test alone, or the family (primary + secondary tests in the verdict)
// with Holm's correction. A Monte-Carlo p-value, when present, replaces the asymptotic one.
void decide_family(bias_result& r, double alpha) {
  std::vector<double> ln_ps{r.monte_carlo ? r.monte_carlo->ln_p : r.chi_squared.ln_p};
  for (const auto& s : r.secondary) {
    if (s.in_verdict) ln_ps.push_back(s.result.ln_p);
  }
  const auto adjusted = ln_ps.size() > 1 ? holm_adjust_ln(ln_ps) : ln_ps;
  r.correction = ln_ps.size() > 1 ? "holm" : "none";
  r.ln_p_primary_adjusted = adjusted[0];
  std::size_t k = 1;
  for (auto& s : r.secondary) s.ln_p_adjusted = s.in_verdict ? adjusted[k++] : s.result.ln_p;
  const double min_adjusted = *std::min_element(adjusted.begin(), adjusted.end());
  if (r.expected < 5 && !r.monte_carlo) {
    r.outcome = verdict::unreliable;
  } else {
    r.outcome = min_adjusted < std::log(alpha) ? verdict::biased : verdict::no_evidence;
  }
}

}  // namespace

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
                                              const seed_key& key, unsigned threads,
                                              const bias_progress& progress) {
  const std::uint64_t cells = factorial(n);
  const seed_key algorithm_key = derive_key(key, "bias/" + algorithm.label(), 0);
  threads = clamp_threads(threads, trials);

  // Path codes: when the draws' bounds are fixed and their product is small, count codes (cheap)
  // and map each code to the rank of its permutation once at the end. Same draws, same counts.
  std::uint64_t codes = 0;
  std::vector<std::uint64_t> bounds;
  if (algorithm.info->fixed_bounds && algorithm.info->count_paths != nullptr) {
    bounds = fixed_path_bounds(algorithm, n);
    codes = 1;
    for (const auto s : bounds) {
      if (s == 0 || codes > kMaxPathCodes / s) {
        codes = 0;
        break;
      }
      codes *= s;
    }
    if (bounds.empty()) codes = 0;
  }

  auto tables = padded_tables(threads, codes ? codes : cells);
  run_chunks(trials, threads, [&](unsigned t, std::uint64_t c, std::uint64_t, std::uint64_t size) {
    if (codes) {
      algorithm.info->count_paths(engine, algorithm_key, c, algorithm.parameter, n, size, tables[t].data());
    } else {
      algorithm.info->count_table(engine, algorithm_key, c, algorithm.parameter, n, size, tables[t].data());
    }
  }, progress, algorithm.label());

  std::vector<std::uint64_t> total(cells, 0);
  if (!codes) {
    for (const auto& table : tables) {
      for (std::uint64_t i = 0; i < cells; ++i) total[i] += table[i];
    }
    return total;
  }
  auto replay = std::make_unique<detail::replay_engine>();
  std::array<std::uint8_t, 256> deck{};
  const std::span<std::uint8_t> d(deck.data(), n);
  for (std::uint64_t code = 0; code < codes; ++code) {
    std::uint64_t sum = 0;
    for (const auto& table : tables) sum += table[code];
    if (sum == 0) continue;
    std::uint64_t rest = code;
    for (std::size_t k = bounds.size(); k-- > 0;) {
      replay->draws[k] = rest % bounds[k];
      rest /= bounds[k];
    }
    replay->prefix = bounds.size();
    replay->restart();
    for (std::size_t i = 0; i < n; ++i) deck[i] = static_cast<std::uint8_t>(i);
    algorithm.info->run_replay(d, *replay, algorithm.parameter);
    total[rank_permutation(std::span<const std::uint8_t>(d))] += sum;
  }
  return total;
}

bias_tallies count_positions(const algorithm_spec& algorithm, std::size_t n, std::uint64_t trials,
                             engine_kind engine, const seed_key& key, unsigned threads,
                             bool secondary, const bias_progress& progress) {
  const seed_key algorithm_key = derive_key(key, "bias/" + algorithm.label(), 0);
  threads = clamp_threads(threads, trials);
  auto tables = padded_tables(threads, n * n);
  std::vector<permutation_sums> sums(threads);
  bias_tallies out;
  out.n = n;
  out.trials = trials;
  out.birthday_trials = std::min(trials, bias_birthday_trials);
  std::vector<std::uint64_t> hashes(out.birthday_trials);
  run_chunks(trials, threads, [&](unsigned t, std::uint64_t c, std::uint64_t begin, std::uint64_t size) {
    const std::uint64_t hash_count = begin < out.birthday_trials ? std::min(size, out.birthday_trials - begin) : 0;
    permutation_sums local;
    algorithm.info->count_positions(engine, algorithm_key, c, algorithm.parameter, n, size,
                                    tables[t].data(), secondary ? &local : nullptr,
                                    hash_count ? hashes.data() + begin : nullptr, hash_count);
    sums[t] += local;
  }, progress, algorithm.label());
  out.positions.assign(n * n, 0);
  for (const auto& table : tables) {
    for (std::size_t i = 0; i < n * n; ++i) out.positions[i] += table[i];
  }
  for (const auto& s : sums) out.sums += s;
  out.duplicates = count_repeats(hashes);
  return out;
}

bias_tallies tally_permutations(std::span<const std::uint8_t> perms, std::size_t n, bool table) {
  bias_tallies out;
  out.n = n;
  out.trials = n ? perms.size() / n : 0;
  out.positions.assign(n * n, 0);
  if (table) out.table.assign(factorial(n), 0);
  out.birthday_trials = std::min(out.trials, bias_birthday_trials);
  std::vector<std::uint64_t> hashes;
  hashes.reserve(out.birthday_trials);
  for (std::uint64_t t = 0; t < out.trials; ++t) {
    const auto perm = perms.subspan(t * n, n);
    for (std::size_t p = 0; p < n; ++p) ++out.positions[perm[p] * n + p];
    out.sums.add(perm);
    if (table) ++out.table[rank_permutation(perm)];
    if (t < out.birthday_trials) hashes.push_back(permutation_fingerprint(perm));
  }
  out.duplicates = count_repeats(hashes);
  return out;
}

std::string choose_test(bias_test test, std::size_t n, std::uint64_t trials) {
  if (test == bias_test::table) return "table";
  if (test == bias_test::position) return "position";
  if (n > bias_max_table_n || factorial(n) > bias_auto_table_cells) return "position";
  const double expected = static_cast<double>(trials) / static_cast<double>(factorial(n));
  // Small decks keep the table even when it is short of trials (the verdict is then
  // "unreliable" and a few more trials fix it); from n = 5 the position matrix takes over.
  if (expected < 5 && n >= 5) return "position";
  return "table";
}

bias_result evaluate_tallies(const bias_tallies& t, const bias_options& o, const std::string& test) {
  bias_result r;
  r.test = test;
  r.n = t.n;
  r.trials = t.trials;
  const std::size_t n = t.n;
  const double trials = static_cast<double>(t.trials);
  r.position_counts = t.positions;
  r.sums = t.sums;
  const double power = 0.9;
  if (test == "table") {
    r.counts = t.table;
    const double cells = static_cast<double>(t.table.size());
    r.expected = trials / cells;
    r.chi_squared = pearson_uniform(r.counts);
    r.g_test = g_test_uniform(r.counts);
    r.plug_in_tv = plug_in_tv_from_uniform(r.counts);
    // Hardest case for a given TV δ: every cell off by 2δ/k, non-centrality 4Tδ².
    r.detectable_tv = std::sqrt(detectable_noncentrality(cells - 1, o.alpha, power) / (4 * trials));
    if (r.expected < 5) {
      r.warnings.push_back(fmt::format(
          "expected count per permutation is {:.4g} (< 5): the chi-squared approximation is "
          "unreliable; use at least {} trials{}",
          r.expected, static_cast<std::uint64_t>(5 * cells),
          o.monte_carlo ? "" : " or --monte-carlo B"));
    }
  } else {
    auto [x2, g] = position_tests(t.positions, n, t.trials);
    r.chi_squared = x2;
    r.g_test = g;
    r.expected = trials / static_cast<double>(n);
    for (std::size_t e = 0; e < n; ++e) {
      r.row_tests.push_back(pearson_uniform(std::span<const std::uint64_t>(t.positions).subspan(e * n, n)));
    }
    // Every row off by the same per-card TV δ spread evenly: non-centrality 4(n−1)Tδ².
    r.detectable_tv = std::sqrt(detectable_noncentrality(static_cast<double>((n - 1) * (n - 1)), o.alpha, power) /
                                (4 * static_cast<double>(n - 1) * trials));
    if (r.expected < 5) {
      r.warnings.push_back(fmt::format(
          "expected count per cell of the position matrix is {:.4g} (< 5): the chi-squared "
          "approximation is unreliable; use at least {} trials",
          r.expected, 5 * n));
    }
  }

  const bool family = test == "position";
  if (t.sums.trials > 0 && n >= 2) {
    const double nn = static_cast<double>(n);
    const double h1 = harmonic(n, 1), h2 = harmonic(n, 2);
    struct moment {
      const char* name;
      std::uint64_t sum;
      double mean, variance;
    };
    const moment moments[] = {
        {"fixed points", t.sums.fixed_points, 1.0, 1.0},
        {"cycles", t.sums.cycles, h1, h1 - h2},
        {"inversions", t.sums.inversions, nn * (nn - 1) / 4, nn * (nn - 1) * (2 * nn + 5) / 72},
        {"rising sequences", t.sums.rising_sequences, (nn + 1) / 2, (nn + 1) / 12},
    };
    const double st = static_cast<double>(t.sums.trials);
    for (const auto& m : moments) {
      secondary_test s;
      s.name = m.name;
      s.result = z_test_two_sided(static_cast<double>(m.sum), st, m.mean, m.variance);
      s.in_verdict = family;
      s.detail = fmt::format("mean {:.6g} (uniform: {:.6g})", static_cast<double>(m.sum) / st, m.mean);
      r.secondary.push_back(std::move(s));
    }
  }
  if (t.birthday_trials > 1) {
    const double d = static_cast<double>(t.birthday_trials);
    double inverse_cells = std::exp(-std::lgamma(static_cast<double>(n) + 1));
    if (n > max_rank_n) inverse_cells += std::ldexp(1.0, -64);  // 64-bit fingerprints
    const double lambda = d * (d - 1) / 2 * inverse_cells;
    if (lambda <= 1) {
      secondary_test s;
      s.name = "duplicates";
      s.result = poisson_upper_tail(static_cast<double>(t.duplicates), lambda);
      s.in_verdict = family;
      s.detail = fmt::format("{} repeated permutations among the first {} (uniform: {:.3g} expected)",
                             t.duplicates, t.birthday_trials, lambda);
      r.secondary.push_back(std::move(s));
    }
  }

  decide_family(r, o.alpha);
  return r;
}

namespace {

void validate(const bias_options& o) {
  if (o.n < 2 || o.n > bias_max_n) {
    throw error(fmt::format("--n must be between 2 and {} (got {})", bias_max_n, o.n));
  }
  if (!o.input && !o.exact && o.trials == 0) throw error("--trials must be at least 1");
  if (!(o.alpha > 0 && o.alpha < 1)) {
    throw error(fmt::format("--alpha must be strictly between 0 and 1 (got {})", o.alpha));
  }
  if (!o.input && o.algorithms.empty()) throw error("no algorithm given");
  if (o.test == bias_test::table && o.n > bias_max_table_n) {
    throw error(fmt::format("--test table needs n <= {} (n! cells); use --test position", bias_max_table_n));
  }
}

// Monte-Carlo p-value of the primary statistic: B tables of the same size from Fisher–Yates
// (exactly uniform), p = (1 + #{X²_b ≥ X²}) / (B + 1).
test_result monte_carlo_p(const bias_result& r, const bias_options& o, const seed_key& key) {
  const algorithm_spec fy{&find_algorithm("fisher-yates"), 0};
  std::uint64_t at_least = 0;
  for (std::uint64_t b = 0; b < o.monte_carlo; ++b) {
    const seed_key k = derive_key(key, "bias/monte-carlo", b);
    double x2 = 0;
    if (r.test == "table") {
      x2 = pearson_uniform(count_permutations(fy, r.n, r.trials, o.engine, k, o.threads)).statistic;
    } else {
      x2 = position_tests(count_positions(fy, r.n, r.trials, o.engine, k, o.threads, false).positions,
                          r.n, r.trials).first.statistic;
    }
    at_least += x2 >= r.chi_squared.statistic;
  }
  test_result mc = r.chi_squared;
  mc.p_value = static_cast<double>(1 + at_least) / static_cast<double>(o.monte_carlo + 1);
  mc.ln_p = std::log(mc.p_value);
  mc.log10_p = std::log10(mc.p_value);
  return mc;
}

bias_result finish(bias_tallies tallies, const bias_options& o, const std::string& test,
                   const seed_key& key) {
  bias_result r = evaluate_tallies(tallies, o, test);
  if (o.monte_carlo) {
    r.monte_carlo = monte_carlo_p(r, o, key);
    decide_family(r, o.alpha);
    for (auto& w : r.warnings) {
      w += fmt::format(" (the verdict uses a Monte-Carlo p-value from {} simulated tables)", o.monte_carlo);
    }
  }
  return r;
}

}  // namespace

bias_report run_bias(const bias_options& options) {
  validate(options);
  bias_report report;
  report.options = options;
  const std::size_t n = options.n;

  if (options.input) {
    const std::uint64_t trials = options.input->size() / n;
    if (trials == 0) throw error("no permutations in the input");
    const std::string test = choose_test(options.test, n, trials);
    const seed_key key = options.seed ? key_from_seed(*options.seed) : key_from_os();
    bias_result r = finish(tally_permutations(*options.input, n, test == "table"), options, test, key);
    r.label = options.input_name;
    report.options.trials = trials;
    report.results.push_back(std::move(r));
  } else if (options.exact) {
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
    for (const auto& algorithm : options.algorithms) {
      const std::string test = choose_test(options.test, n, options.trials);
      bias_tallies tallies;
      if (test == "table") {
        tallies.n = n;
        tallies.trials = options.trials;
        tallies.table = count_permutations(algorithm, n, options.trials, options.engine, key, options.threads,
                                           options.progress);
        // The position matrix and the secondary sums follow from the table.
        tallies.positions.assign(n * n, 0);
        std::array<std::uint8_t, max_rank_n> perm{};
        for (std::uint64_t rank = 0; rank < tallies.table.size(); ++rank) {
          const std::uint64_t c = tallies.table[rank];
          if (c == 0) continue;
          unrank_into(rank, n, perm.data());
          const std::span<const std::uint8_t> p(perm.data(), n);
          for (std::size_t i = 0; i < n; ++i) tallies.positions[perm[i] * n + i] += c;
          if (options.secondary) {
            permutation_sums one;
            one.add(p);
            tallies.sums.trials += c;
            tallies.sums.fixed_points += c * one.fixed_points;
            tallies.sums.cycles += c * one.cycles;
            tallies.sums.inversions += c * one.inversions;
            tallies.sums.rising_sequences += c * one.rising_sequences;
          }
        }
      } else {
        tallies = count_positions(algorithm, n, options.trials, options.engine, key, options.threads,
                                  options.secondary, options.progress);
      }
      bias_result r = finish(std::move(tallies), options, test, key);
      r.label = algorithm.label();
      r.definition = std::string(algorithm.info->definition);
      report.results.push_back(std::move(r));
    }
  }
  for (const auto& r : report.results) {
    if (r.correction == "holm") report.correction = "holm";
  }
  return report;
}

}  // namespace shufl
