// `shufl bias` as a library: run shuffle algorithms many times (or read permutations produced by
// any other program), count the permutations or the element × position matrix, and test the
// counts for uniformity. Returns plain values; the CLI formats them.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "shufl/exact.hpp"
#include "shufl/permutation.hpp"
#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"
#include "shufl/stats.hpp"
#include "shufl/text_input.hpp"

namespace shufl {

/// Trials are split into chunks of this many; chunk c of an algorithm uses its own engine stream,
/// so the counts for a seed do not depend on the number of threads.
inline constexpr std::uint64_t bias_chunk_trials = 1u << 16;

/// Largest --trials accepted: 10^15 (days of computing; far from 64-bit overflow in the chunking).
inline constexpr std::uint64_t bias_max_trials = 1'000'000'000'000'000;

/// Largest n for the full permutation table (n! cells): 10! = 3,628,800.
inline constexpr std::size_t bias_max_table_n = 10;
/// Largest deck size (cards are bytes).
inline constexpr std::size_t bias_max_n = 255;
/// `--test auto` uses the table when n! is at most this and every expected count is ≥ 5.
inline constexpr std::uint64_t bias_auto_table_cells = 1'000'000;
/// Memory for the per-thread permutation tables of one run, in all: the threads are capped so that
/// threads × n! × 8 bytes stays below it (issue 11).
inline constexpr std::uint64_t bias_max_table_memory = std::uint64_t{256} << 20;
/// The most threads the table test uses at deck size n: bias_max_table_memory / (n! · 8), at least 1.
std::uint64_t bias_max_table_threads(std::size_t n);
/// The duplicate-permutation (birthday) test looks at the first this-many trials.
inline constexpr std::uint64_t bias_birthday_trials = std::uint64_t{1} << 20;
/// The most cells `--monte-carlo B` with the table test may simulate: B tables of n! counts
/// (B × n!; each simulated table is counted, summed and squared whole). Beyond, run_bias refuses
/// before any work: 30 tables at n = 10 (1.1·10^8 cells) took 42 s.
inline constexpr std::uint64_t bias_max_monte_carlo_cells = std::uint64_t{1} << 26;

/// Number of chunks of bias_chunk_trials covering `trials` (the last one may be shorter).
constexpr std::uint64_t bias_chunk_count(std::uint64_t trials) noexcept {
  return trials / bias_chunk_trials + (trials % bias_chunk_trials != 0);
}

/// A set of chunk indices as sorted, disjoint, non-touching half-open ranges [begin, end):
/// which chunks of a run a tally (or a counts file, or a shard) holds.
struct chunk_set {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  /// Every chunk of a run of `trials` trials: [0, bias_chunk_count(trials)).
  static chunk_set all_of(std::uint64_t trials);
  /// Number of chunks in the set.
  std::uint64_t count() const noexcept;
  bool empty() const noexcept { return ranges.empty(); }
  /// Whether chunk `c` is in the set.
  bool contains(std::uint64_t c) const noexcept;
  /// Whether any chunk is in both sets.
  bool overlaps(const chunk_set& other) const noexcept;
  /// Whether every chunk of `other` is in this set.
  bool covers(const chunk_set& other) const noexcept;
  /// Adds [begin, end) (any position; joins neighbours).
  void add(std::uint64_t begin, std::uint64_t end);
  /// Adds every range of `other`.
  void add(const chunk_set& other);
  /// This set's chunks missing from `other`.
  chunk_set minus(const chunk_set& other) const;
  /// The k-th chunk in increasing order (k < count()).
  std::uint64_t nth(std::uint64_t k) const noexcept;
  /// The first k chunks in increasing order.
  chunk_set prefix(std::uint64_t k) const;
  /// Trials in these chunks of a run of `run_trials` trials (chunks at or past its end count 0).
  std::uint64_t trials_in(std::uint64_t run_trials) const noexcept;
  /// "0..3, 7" (inclusive chunk ranges), "none" when empty.
  std::string text() const;
  friend bool operator==(const chunk_set&, const chunk_set&) = default;
};

/// Shard `shard` of `shards` (0 ≤ shard < shards) of a run of `trials` trials: the contiguous
/// chunks [⌊shard·C/shards⌋, ⌊(shard+1)·C/shards⌋) with C = bias_chunk_count(trials). Shards
/// differ by at most one chunk; a shard is empty when shards > C. Throws shufl::error when
/// shards is 0 or shard ≥ shards.
chunk_set bias_shard_chunks(std::uint64_t trials, std::uint64_t shard, std::uint64_t shards);

/// The shard of `shards` that holds chunk `chunk` of a run of `trials` trials (the inverse of
/// bias_shard_chunks, in O(1) whatever the number of shards). Throws shufl::error when shards
/// is 0 or the chunk is not one of the run's.
std::uint64_t bias_shard_of_chunk(std::uint64_t trials, std::uint64_t chunk, std::uint64_t shards);

/// Totals of the secondary statistics over many trials, in 128 bits: the inversion sum of
/// 10^15 trials at n = 255 passes 2^64, and merged totals can too.
struct bias_sums {
  uint128 trials = 0;
  uint128 fixed_points = 0;
  uint128 cycles = 0;
  uint128 inversions = 0;
  uint128 rising_sequences = 0;
  /// Adds one permutation.
  template <class T>
  constexpr void add(std::span<const T> perm) noexcept {
    permutation_sums one;
    one.add(perm);
    *this += one;
  }
  /// Adds 64-bit sums (of one chunk).
  constexpr bias_sums& operator+=(const permutation_sums& o) noexcept {
    trials += o.trials;
    fixed_points += o.fixed_points;
    cycles += o.cycles;
    inversions += o.inversions;
    rising_sequences += o.rising_sequences;
    return *this;
  }
  /// Adds other totals (128-bit: cannot wrap for fewer than 2^64 trials of n ≤ 255).
  constexpr bias_sums& operator+=(const bias_sums& o) noexcept {
    trials += o.trials;
    fixed_points += o.fixed_points;
    cycles += o.cycles;
    inversions += o.inversions;
    rising_sequences += o.rising_sequences;
    return *this;
  }
  friend bool operator==(const bias_sums&, const bias_sums&) = default;
};

/// Which chunks a counting call computes and how it stops early.
struct chunk_plan {
  /// These chunks only (nullptr: every chunk of the trials). Chunks past the end are ignored.
  const chunk_set* only = nullptr;
  /// When it becomes true, no new chunk starts; the chunks already started are finished.
  const std::atomic<bool>* stop = nullptr;
  /// Receives the chunks actually computed (when not nullptr).
  chunk_set* done = nullptr;
};

/// Which primary test gives the verdict.
enum class bias_test { automatic, table, position };

/// Progress of a run of trials: called with done = 0 when an algorithm starts, then after each
/// chunk with the trials done so far of the current algorithm, its total, and its label. Called
/// from every worker thread, concurrently (so it must be thread-safe and cheap: it stores
/// numbers, it never draws); `done` values of one algorithm may arrive out of order.
using bias_progress = std::function<void(std::uint64_t done, std::uint64_t total, const std::string& label)>;

/// Where the identity order of `--input` items comes from: the order against which fixed points,
/// inversions, cycles and rising sequences are measured, and the rows of the position matrix.
enum class item_order : std::uint8_t {
  numbers,  ///< Numbers, by value (0- or 1-based indices).
  cards,    ///< Cards in any `shufl deck` notation, in the pack's canonical order (deck.hpp).
  listed,   ///< As the caller listed them (`--items`).
  bytes,    ///< Other symbols, by their bytes: an order nobody chose (the CLI says so).
};
/// "numbers" | "cards" | "items" | "bytes" (the JSON field `item_order`).
std::string_view item_order_name(item_order o) noexcept;

/// Options of one `shufl bias` run (validated by the caller; run_bias re-checks and throws).
struct bias_options {
  std::size_t n = 3;                       ///< Deck size (cards 1..n), 2 ≤ n ≤ bias_max_n.
  std::uint64_t trials = 60000;            ///< Shuffles per algorithm, ≥ 1.
  std::optional<std::string> seed;         ///< --seed; unseeded runs key the engine from the OS.
  std::vector<algorithm_spec> algorithms;  ///< Non-empty unless `input` is given.
  double alpha = 0.01;                     ///< Significance level per algorithm (family-wise), in (0, 1).
  unsigned threads = 1;                    ///< Worker threads, ≥ 1; never changes the counts.
  engine_kind engine = engine_kind::xoshiro256pp;
  bias_test test = bias_test::automatic;   ///< --test.
  bool exact = false;                      ///< --exact: exact laws only, no trials.
  bool secondary = true;                   ///< Compute the secondary statistics.
  std::uint64_t monte_carlo = 0;           ///< --monte-carlo B: B simulated tables for the p-value.
  /// --input: permutations of 0..n-1 (n = this->n), flattened; replaces the algorithms.
  std::optional<std::vector<std::uint8_t>> input;
  std::string input_name = "input";        ///< Label of the input's result.
  /// --input: the label of each item 0..n-1 as the user wrote it (permutation_list::symbols);
  /// reports show permutations in these labels. Empty: the cards 1..n.
  std::vector<std::string> input_symbols;
  /// --input: where the identity order of the items came from (permutation_list::order).
  item_order input_order = item_order::numbers;
  bias_progress progress;                  ///< Optional (the CLI draws a bar on a terminal).
  /// Per algorithm (same order), the chunks to compute (a shard, or what a resumed run lacks);
  /// empty: every chunk. The result then holds only those chunks' counts.
  std::vector<chunk_set> chunks;
  /// The shard (index, count) this run computes, recorded in its counts; {0, 0} when none.
  std::pair<std::uint64_t, std::uint64_t> shard{0, 0};
  /// Set asynchronously (a signal) to stop early: finished chunks are kept, the report is
  /// marked interrupted and not evaluated.
  const std::atomic<bool>* stop = nullptr;
  /// Whether to test the counts (false: counts only, e.g. a shard).
  bool evaluate = true;
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

/// A secondary test with its own p-value.
struct secondary_test {
  std::string name;        ///< "fixed points", "cycles", "inversions", "rising sequences", "duplicates", "G".
  test_result result;      ///< statistic: z for the z-tests, the count for duplicates.
  bool in_verdict = false; ///< Whether it feeds the verdict (with Holm's correction): valid and in the family.
  double ln_p_adjusted = 0;///< Holm-adjusted ln p when in_verdict, else ln p.
  std::string detail;      ///< e.g. "mean 1.0012 (uniform: 1)".
  /// Whether its approximation holds at this sample size (z-tests: at least bias_min_z_trials
  /// trials; duplicates: always, it is only computed when its Poisson mean is at most 1) and it
  /// could be computed. A test that is not valid never feeds the verdict.
  bool valid = true;
  std::string validity;    ///< Why it is not valid ("normal approximation needs ..."), else empty.
  std::string approximation;  ///< "normal", "Poisson": what stops being meaningful below the floor.
};

/// The z-tests (fixed points, cycles, inversions, rising sequences) are normal approximations of a
/// sum of T independent values; they feed the verdict only from this many trials.
inline constexpr std::uint64_t bias_min_z_trials = 30;

/// Sums of the statistics computed while counting (everything the tests need).
struct bias_tallies {
  std::size_t n = 0;
  std::uint64_t trials = 0;
  std::vector<std::uint64_t> table;      ///< n! counts by rank (table test), else empty.
  std::vector<std::uint64_t> positions;  ///< n × n: positions[e * n + p].
  bias_sums sums;                        ///< Secondary statistic sums.
  std::uint64_t birthday_trials = 0;     ///< Trials looked at by the duplicate test.
  std::uint64_t duplicates = 0;          ///< Among them, repeats of an earlier permutation.
  /// The chunks counted (of a run of the options' trials).
  chunk_set chunks;
  /// The birthday test's fingerprints (permutation_fingerprint) of the counted trials among
  /// the first bias_birthday_trials, in trial order (position test only; empty for the table).
  std::vector<std::uint64_t> fingerprints;
};

/// Where a result's trials come from: which chunks of which run, and their fingerprints.
struct bias_part {
  std::size_t run = 0;                     ///< Index into bias_report::runs.
  chunk_set chunks;                        ///< The chunks of that run counted.
  std::vector<std::uint64_t> fingerprints; ///< Birthday fingerprints of those chunks (trial order).
};

/// One run whose trials a report holds (its provenance).
struct bias_run {
  std::optional<std::string> seed;   ///< --seed, when seeded.
  std::string run_id;                ///< Unseeded runs and --input: 32 hex digits naming the run.
  std::string input;                 ///< --input: the file's name (then engine is meaningless).
  engine_kind engine = engine_kind::xoshiro256pp;
  std::uint64_t trials = 0;          ///< The run's --trials (all its chunks).
  /// Shards (index, count) of this run that were merged or computed (sorted; empty: unsharded).
  std::vector<std::pair<std::uint64_t, std::uint64_t>> shards;
  /// What identifies the run for overlap checks: engine and seed, or the run id.
  std::string key() const;
  /// "seed \"1\" (xoshiro256pp)", "unseeded run 1a2b… (xoshiro256pp)", "input 'f.txt'".
  std::string describe() const;
};

/// Result for one algorithm.
struct bias_result {
  std::string label;                   ///< "fisher-yates", "modulo:8", or the input's name.
  std::string definition;              ///< One-line definition (empty for input).
  std::string test = "table";          ///< Which primary test gave the verdict: "table" | "position".
  std::size_t n = 0;
  std::uint64_t trials = 0;
  std::vector<std::uint64_t> counts;   ///< counts[rank]: n! cells (table test), else empty.
  std::vector<std::uint64_t> position_counts;  ///< n × n element (row) × position (column).
  bias_sums sums;                      ///< The secondary statistics' sums (for --save-counts).
  std::vector<bias_part> parts;        ///< Which chunks of which runs were counted (for --save-counts).
  double expected = 0;                 ///< Expected count per cell of the primary test.
  test_result chi_squared;             ///< The primary test: table X² (df n!−1) or scaled position X² (df (n−1)²).
  test_result g_test;                  ///< G statistic of the same cells (position: scaled too).
  std::vector<test_result> row_tests;  ///< Position matrix: one plain multinomial test per card (df n−1).
  std::vector<secondary_test> secondary;
  std::string correction = "none";     ///< "holm" when several tests feed the verdict.
  double ln_p_primary_adjusted = 0;    ///< The primary's Holm-adjusted ln p (= ln p with "none").
  /// Whether the primary test is valid at this sample size: a Monte-Carlo p-value, or every
  /// expected count at least 5 (the chi-squared approximation).
  bool primary_valid = true;
  std::string primary_name;            ///< "table chi-squared", "position chi-squared", "table Monte-Carlo", ...
  std::size_t tests_in_verdict = 0;    ///< Number of valid tests feeding the verdict (Holm's family size m).
  /// The test that decided: the one with the smallest Holm-adjusted p among those feeding the
  /// verdict (the primary when none does). Text, JSON and CSV all report these three.
  std::string deciding_test;
  double ln_p_deciding_adjusted = 0;   ///< Its Holm-adjusted ln p.
  bool deciding_bound = false;         ///< Whether that p is a bound (see test_result::bound).
  double plug_in_tv = 0;               ///< Plug-in TV distance from uniform (table; biased upward).
  /// Power of the decision rule actually used: every law at TV ≥ detectable_tv (see
  /// power_alternative) is flagged with probability ≥ 90%, asymptotically, since the primary test
  /// alone at alpha / tests_in_verdict rejects that often and then Holm's first step rejects.
  /// NaN when not stated (primary not valid, or Monte-Carlo tables too few to reach that level).
  double detectable_tv = 0;
  double power_alpha = 0;              ///< The level the power refers to: alpha / tests_in_verdict.
  std::string power_alternative;       ///< The alternative in words.
  std::optional<test_result> monte_carlo;  ///< Monte-Carlo p-value of the primary statistic.
  std::uint64_t monte_carlo_tables = 0;    ///< B of --monte-carlo (0 without).
  verdict outcome = verdict::no_evidence;
  std::vector<std::string> warnings;
  std::optional<exact_distribution> exact;  ///< With --exact (then no trials are run).
};

/// A whole run: the options as used, and one result per algorithm, in the order given.
struct bias_report {
  bias_options options;
  std::vector<bias_result> results;
  /// "holm" when any result's verdict comes from several tests, else "none".
  std::string correction = "none";
  /// The runs whose trials the results hold (one for a plain run; several after --merge).
  std::vector<bias_run> runs;
  /// --merge: the files merged (empty otherwise).
  std::vector<std::string> merged_files;
  /// --merge: what is missing from a seeded run ("shard 2/4 of seed \"1\" ..."); empty when complete.
  std::vector<std::string> missing;
  /// Whether the run was stopped early (options.stop): results hold counts only, not tested.
  bool interrupted = false;
};

/// Runs every algorithm `trials` times on the deck 1..n (or analyses `input`) and tests the counts.
/// Primary test (`test`): the permutation table when n! ≤ 10^6 and every expected count is ≥ 5,
/// otherwise the element × position matrix, its Pearson X² scaled by (n−1)/n with (n−1)² df
/// (each trial adds a whole permutation matrix). With the table the verdict is that test alone;
/// with the position matrix, the fixed point, cycle, inversion and rising-sequence z-tests and
/// the duplicate (birthday) test join it and Holm's correction keeps the family-wise level at
/// alpha. Determinism: for a seed, counts depend only on (seed, engine, algorithm label, n,
/// trials). Throws shufl::error for invalid options.
bias_report run_bias(const bias_options& options);

/// Tests tallies (from trials, a merge or an input file) as run_bias does.
bias_result evaluate_tallies(const bias_tallies& tallies, const bias_options& options,
                             const std::string& test);

/// evaluate_tallies plus, with options.monte_carlo, the Monte-Carlo p-value of the primary
/// statistic from simulated Fisher–Yates tables keyed by `key` (as run_bias does).
bias_result test_tallies(const bias_tallies& tallies, const bias_options& options, const std::string& test,
                         const seed_key& key);

/// The primary test run_bias would choose ("table" or "position").
std::string choose_test(bias_test test, std::size_t n, std::uint64_t trials);

/// Counts only: `trials` runs of `algorithm` on 0..n-1, split into chunks over `threads` threads.
/// Returns n! counts indexed by lexicographic rank (n ≤ bias_max_table_n).
std::vector<std::uint64_t> count_permutations(const algorithm_spec& algorithm, std::size_t n,
                                              std::uint64_t trials, engine_kind engine,
                                              const seed_key& key, unsigned threads,
                                              const bias_progress& progress = {}, const chunk_plan& plan = {});

/// Tallies of `trials` runs: the position matrix, secondary sums (when `secondary`) and the
/// duplicate count of the first bias_birthday_trials trials.
bias_tallies count_positions(const algorithm_spec& algorithm, std::size_t n, std::uint64_t trials,
                             engine_kind engine, const seed_key& key, unsigned threads,
                             bool secondary, const bias_progress& progress = {},
                             const chunk_plan& plan = {});

/// Tallies of the given permutations (flattened, each a permutation of 0..n-1); `table` asks
/// for the n! table too.
bias_tallies tally_permutations(std::span<const std::uint8_t> perms, std::size_t n, bool table);

}  // namespace shufl

namespace shufl {

/// Permutations read from text (`shufl bias --input`).
struct permutation_list {
  std::size_t n = 0;                  ///< Inferred deck size.
  std::vector<std::uint8_t> perms;    ///< Flattened, each a permutation of 0..n-1.
  std::vector<std::string> symbols;   ///< symbols[i] is the item mapped to i (as the first line wrote it; numbers without leading zeros).
  item_order order = item_order::numbers;  ///< Where the order of the items 0..n-1 came from.
};

/// Parses permutations, one per line, read under the input-text convention of text_input.hpp (UTF-8 checked, BOM
/// dropped, LF or CRLF, last line with or without newline): items separated by spaces, tabs or commas; a line may be
/// wrapped in [ ] or ( ) (Python's print of a list or tuple) and an item in matching quotes ('a', "a"); 0- or 1-based
/// indices or any symbols ("b a c"); a line that is one token of several characters (and no separators) is read one
/// character (code point) per item ("bac"). An array printed over several lines (Node's console.log, numpy: a line
/// starting with '[' or '(' without the matching bracket at its end, up to the line that ends with it; at most 1 MiB)
/// is one permutation ("lines A-B" in messages). Blank lines and lines starting with '#' are skipped. The first line
/// fixes the items: all decimal numbers → numbers compared by value ("01" = "1", shown as "1"), ordered numerically;
/// cards in any notation of `shufl deck` (every item of the first line names a card as the one card reader reads it,
/// cards.hpp read_line_items: "As 2s", "A♠ 10♥", "Ace of Spades, Two of Spades") → the cards in the
/// pack's canonical order (canonical_card_key: As 2s … Ks, Ah … Kh, Ad … Kd, Ac … Kc, jokers, trumps; a line may
/// mix notations); otherwise symbols ordered by their bytes. `items` (non-empty: `--items`) gives the order instead:
/// each entry names one item of the first line (numbers by value, cards as cards, else the same text), each once.
/// Item k of that order becomes k (0..n-1 and 1..n both map to 0..n-1); symbols[k] is its label. Streams: memory is the permutations (n bytes each) plus one line or array. Throws
/// shufl::error naming the file and line for a line that is not a permutation of the same items (a wrong number of
/// items or console.log's "... N more items" with how to print one per line), an unclosed array, n < 2 or n > 255.
/// Messages quote items as cards::quote_input_text does ("'X♠' is not a card of the first line", "card 'As'
/// appears twice", "--items: 'Q' is not an item of the first line").
permutation_list parse_permutations(text_reader& reader, const std::vector<std::string>& items = {});

/// The same on text in memory (named "input" in messages).
permutation_list parse_permutations(std::string_view text, const std::vector<std::string>& items = {});

/// `shufl bias --input FILE [--items LIST|FILE]`: parse_permutations of FILE ('-': standard input)
/// with the items of `items`: empty (none), a comma-separated list (split_label_list), else a file
/// of one item per line (read_card_labels). Throws shufl::error as both do, and when FILE and the
/// items file are both standard input.
permutation_list read_permutation_input(const std::string& input, const std::string& items);

}  // namespace shufl
