// `shufl bias` as a library: run shuffle algorithms many times, count the resulting permutations
// and test the counts for uniformity. Returns plain values; the CLI formats them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"
#include "shufl/stats.hpp"

namespace shufl {

/// Trials are split into chunks of this many; chunk c of an algorithm uses its own engine stream,
/// so the counts for a seed do not depend on the number of threads.
inline constexpr std::uint64_t bias_chunk_trials = 1u << 16;

/// Largest n for the full permutation table (n! cells): 10! = 3,628,800.
inline constexpr std::size_t bias_max_table_n = 10;

/// Options of one `shufl bias` run (validated by the caller; run_bias re-checks and throws).
struct bias_options {
  std::size_t n = 3;                       ///< Deck size (cards 1..n), 2 ≤ n ≤ bias_max_table_n.
  std::uint64_t trials = 60000;            ///< Shuffles per algorithm, ≥ 1.
  std::optional<std::string> seed;         ///< --seed; unseeded runs key the engine from the OS.
  std::vector<algorithm_spec> algorithms;  ///< Non-empty.
  double alpha = 0.01;                     ///< Significance level per algorithm, in (0, 1).
  unsigned threads = 1;                    ///< Worker threads, ≥ 1; never changes the counts.
  engine_kind engine = engine_kind::xoshiro256pp;
};

/// Verdict words (JSON form): "no-evidence", "biased", "unreliable".
enum class verdict { no_evidence, biased, unreliable };
std::string_view verdict_json(verdict v) noexcept;   ///< "no-evidence" | "biased" | "unreliable"
std::string_view verdict_text(verdict v) noexcept;   ///< "no evidence of bias" | "biased" | "unreliable"

/// The verdict of one primary test: `unreliable` when the expected count per cell is below 5
/// (the rule is about expected, not observed, counts); otherwise `biased` when p < alpha (upper
/// tail only: a suspiciously small statistic is not bias), else `no_evidence`. Compares ln p with
/// ln alpha so that p-values below the double range still count.
verdict decide_verdict(const test_result& primary, double expected_per_cell, double alpha) noexcept;

/// Result for one algorithm: the full permutation table test.
struct bias_result {
  algorithm_spec algorithm;
  std::string test = "table";          ///< Which primary test gave the verdict.
  std::vector<std::uint64_t> counts;   ///< counts[rank]: n! cells in lexicographic order.
  double expected = 0;                 ///< Expected count per cell under uniformity (trials / n!).
  test_result chi_squared;             ///< Pearson X², df = n! − 1: the primary test.
  test_result g_test;                  ///< G statistic, df = n! − 1: reported, not used for the verdict.
  double plug_in_tv = 0;               ///< Plug-in TV distance from uniform (biased upward).
  verdict outcome = verdict::no_evidence;
  std::vector<std::string> warnings;
};

/// A whole run: the options as used, and one result per algorithm, in the order given.
struct bias_report {
  bias_options options;
  std::vector<bias_result> results;
};

/// Runs every algorithm `trials` times on the deck 1..n and tests the permutation counts.
/// Determinism: for a seed, counts depend only on (seed, engine, algorithm label, n, trials).
/// Verdict: "unreliable" (with a warning) when the expected count per cell is below 5; otherwise
/// "biased" when p < alpha, else "no evidence of bias". Upper tail only: a small X² is not bias.
/// Throws shufl::error for invalid options.
bias_report run_bias(const bias_options& options);

/// Counts only: `trials` runs of `algorithm` on 0..n-1, split into chunks over `threads` threads.
/// Returns n! counts indexed by lexicographic rank.
std::vector<std::uint64_t> count_permutations(const algorithm_spec& algorithm, std::size_t n,
                                              std::uint64_t trials, engine_kind engine,
                                              const seed_key& key, unsigned threads);

}  // namespace shufl
