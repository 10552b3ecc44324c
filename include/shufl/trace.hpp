// `shufl trace` as a library: run one registered algorithm on a small deck with a recording
// observer and return every step as data, plus the counting argument for the run. No CLI, no
// terminal: src/cli/trace_cmd.cpp formats what run_trace returns (text or JSON).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "shufl/shuffle.hpp"

namespace shufl {

/// The largest deck `run_trace` accepts: the deck is made of std::uint8_t indices.
inline constexpr std::size_t max_trace_n = 255;
/// The largest trace recorded: steps × items (every step keeps the deck before and after it, and
/// the text prints it). Longer runs are refused with a message giving this limit (issue 11).
inline constexpr std::uint64_t max_trace_cells = 10'000'000;

/// The largest output a trace may print, in bytes (trace_options::step_bytes counts them):
/// longer runs are refused before anything is formatted, with a message giving this limit.
inline constexpr std::uint64_t max_trace_bytes = std::uint64_t{64} << 20;

/// What to trace.
struct trace_options {
  algorithm_spec algorithm;  ///< The algorithm and its parameter (from parse_algorithm_list).
  std::size_t n = 5;         ///< Number of items, 1..max_trace_n; the deck is 0..n-1.
  /// Scripted draws (`--draws`): the raw values returned by each draw, in order; a draw of s
  /// choices takes a value in [0, s). Every value must be in range and every value must be used.
  std::optional<std::vector<std::uint64_t>> draws;
  /// Seed string (`--seed`): ChaCha20 keyed by derive_key(key_from_seed(seed), "trace", 0),
  /// stream 0. Without draws and seed, ChaCha20 is keyed by 32 bytes from the OS.
  std::optional<std::string> seed;
  /// The bytes the caller prints for one step (its row of labels and its words), for the
  /// output limit: a run of k steps is refused when k × step_bytes > max_trace_bytes. 0 = only
  /// the max_trace_cells limit applies.
  std::uint64_t step_bytes = 0;
};

/// One observed step: the shuffle_step the algorithm reported (with its action owned here) and
/// the deck right after it.
struct trace_record {
  std::string action;                      ///< "swap", "compare", "cut", ... (shuffle_step::action).
  shuffle_step step;                       ///< As reported; `step.action` is cleared (use `action`).
  std::vector<std::uint8_t> before;        ///< The deck before this step (item indices).
  std::vector<std::uint8_t> after;         ///< The deck after this step (item indices).
  /// Whether the step's value was not taken from the source of draws but from a generator that
  /// an earlier step seeded (weak-seed: its Fisher–Yates j's all follow from the one seed).
  bool seeded = false;
  /// Whether the step reports a drawn value (step.draw is set).
  bool has_draw() const noexcept { return step.draw != ~std::uint64_t{0}; }
  /// Whether the step marks a non-empty finalized region [final_begin, final_end).
  bool has_final_region() const noexcept { return step.final_end > step.final_begin; }
};

/// How the random choices of an algorithm relate to its outcomes (for the counting argument).
enum class path_kind {
  /// Every run makes the same number of draws from the same ranges: the Π s paths are equally
  /// likely (Fisher–Yates, naive, sattolo, modulo:B, ...).
  equally_likely,
  /// Only coin flips, but a number that varies between runs (sorts with a coin comparator).
  coin_flips,
  /// The Gilbert–Shannon–Reeds riffle: draws vary between runs; probabilities are multiples of
  /// 1/2^(K·n) (Bayer and Diaconis, "Trailing the dovetail shuffle to its lair", 1992).
  riffle,
  /// trace knows nothing about this algorithm's paths (or it did not behave as expected).
  unknown,
};

/// The counting argument for one traced run.
struct counting_argument {
  path_kind kind = path_kind::unknown;
  std::size_t n = 0;
  std::vector<std::uint64_t> ranges;  ///< The number of choices s of each draw, in order.
  std::string paths;                  ///< Π s over the draws of this run, in decimal.
  std::string paths_formula;          ///< Π s written out: "5 × 4 × 3 × 2", "5^5", "1".
  double log10_paths = 0;
  std::string n_factorial;            ///< n! in decimal.
  bool divisible = false;             ///< Whether n! divides Π s.
  std::string statement;              ///< The argument in words (one sentence, no newline).
};

/// A whole traced run.
struct trace_result {
  std::vector<trace_record> steps;
  std::vector<std::uint8_t> result;   ///< The final deck (item indices).
  std::size_t draws = 0;              ///< Number of random draws made.
  /// The value of each draw, in order: as `draws` they replay this run exactly.
  std::vector<std::uint64_t> values;
  bool marks_final = false;           ///< Whether any step marks a finalized region.
  counting_argument counting;
};

/// Runs `options.algorithm` on the deck 0..n-1 and records every step. Throws shufl::error for
/// n outside 1..max_trace_n, and, with scripted draws, for a value out of range for its draw
/// ("--draws: 7 is out of range for step 3, which draws from [0, 2]"), too few values or values
/// left over, for runs longer than max_trace_cells steps × items, and for runs whose steps ×
/// step_bytes pass max_trace_bytes. Throws std::bad_alloc when the steps cannot be kept in memory
/// (the algorithms run noexcept: the recording stops and the error is raised once they return).
/// Nothing is returned on error.
trace_result run_trace(const trace_options& options);

/// Parses `--draws LIST`: comma-separated whole decimal numbers ("2,0,2,0"); the empty string is
/// no draws. Throws shufl::error "invalid value 'X' for --draws: expected a non-negative decimal
/// integer" (or "...: too large") for an item that is not one, empty items included.
std::vector<std::uint64_t> parse_draw_list(std::string_view text);

/// What `kind` trace assumes for the algorithm named `name` (registry name, no parameter).
path_kind known_path_kind(std::string_view name) noexcept;

/// Builds the counting argument for a run of `kind` on n items whose draws had `ranges` choices
/// (`algorithm_label` and `parameter` name the algorithm in the sentence, e.g. K of riffle:K).
/// "Divisible by n!" is stated as necessary for uniformity, never as sufficient.
counting_argument make_counting_argument(path_kind kind, std::size_t n,
                                         std::span<const std::uint64_t> ranges,
                                         std::string_view algorithm_label, std::uint64_t parameter);

/// A step in words for a newcomer, e.g. "i = 4, j = 2 (j in [0, 4]): swap a[4] and a[2] (E and C)".
/// `labels[k]` names item k. Knows "swap", "compare", "cut", "drop", "key", "sort", "strike",
/// "place", "pick" and "seed"; any other action is described field by field. A "compare" is
/// reported before the algorithm acts on it: what followed it (record.before → record.after) is
/// worded after the coin.
std::string describe_step(const trace_record& record, std::span<const std::string> labels);

}  // namespace shufl
