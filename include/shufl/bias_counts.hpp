// Counts files of `shufl bias` (--save-counts, --merge, --resume, --shard): the format
// `shufl-bias-counts-2` (provenance, chunk ranges, birthday fingerprints, 128-bit totals), its
// strict validator, its writer, and the merge of many files into one report.
// The format is described in README.md ("Counts files") and schema/bias-counts-2.schema.json.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shufl/bias.hpp"

namespace shufl {

/// The format name written in every file (version 1 files, "shufl-bias-counts-1", stay readable).
inline constexpr std::string_view bias_counts_format = "shufl-bias-counts-2";
/// How trials are counted: chunks of bias_chunk_trials, one stream per (algorithm label, chunk)
/// derived from the seed's key, fingerprints by permutation_fingerprint. Files with another
/// scheme hold other trials for the same seed and are never merged with these.
inline constexpr std::string_view bias_counting_scheme = "chunks-65536-blake2b-streams-1";

/// Limits of the reader, stated in its errors (hostile files cannot take unbounded memory).
inline constexpr std::uint64_t counts_max_bytes = std::uint64_t{512} << 20;   ///< File size: 512 MiB.
inline constexpr int counts_max_depth = 8;                                    ///< JSON nesting depth.
inline constexpr std::uint64_t counts_max_cells = std::uint64_t{1} << 24;     ///< Table + position cells per file.
inline constexpr std::uint64_t counts_max_fingerprints = std::uint64_t{1} << 24;  ///< Fingerprints per file.
inline constexpr std::uint64_t counts_max_values = std::uint64_t{1} << 20;    ///< Other JSON values per file.

/// The validated contents of a counts file. Each result uses label, definition, test, n,
/// trials, counts (n! cells, table test only), position_counts (n × n), sums and parts.
struct bias_counts {
  int version = 2;              ///< 1 or 2 (the file's format).
  std::string shufl_version;    ///< The shufl that wrote it.
  std::string counting = std::string(bias_counting_scheme);
  std::size_t n = 0;            ///< Deck size, 2..bias_max_n.
  bool secondary = true;        ///< Whether the secondary sums were computed.
  std::vector<bias_run> runs;   ///< Every run whose trials the file holds.
  std::vector<bias_result> results;  ///< One per algorithm (or input), no tests.
};

/// Parses and validates a counts file's bytes (version 1 or 2) before any arithmetic on them:
/// every field's type and range, array sizes, chunk ranges within their run, fingerprints, and
/// internal consistency (table sum = trials = every row and column sum of the position matrix,
/// trials = the trials of the recorded chunks, secondary sums within their possible range and
/// the fixed-point sum = the matrix's diagonal). Bounded: nesting depth counts_max_depth, at
/// most counts_max_cells counts, counts_max_fingerprints fingerprints and counts_max_values other
/// values. Throws shufl::error with one line naming `name` and the field ("'a.json':
/// results[0].table[3]: ...").
bias_counts parse_counts_file(std::string_view text, std::string_view name);

/// Reads and parses a counts file ('-': standard input); refuses files over counts_max_bytes
/// and reports read errors with their cause.
bias_counts read_counts_file(const std::string& path);

/// --resume: checks that `saved` is a part of the seeded run `options` describes (seed, engine,
/// trials, n, --no-secondary, --shard, algorithms and tests); throws shufl::error
/// "--resume 'FILE': saved with ...: run the same command that saved it" otherwise.
void check_resume(const bias_counts& saved, const bias_options& options, const std::string& file);

/// --shard and --resume before a run of trials: sets options.chunks, per algorithm, to the
/// chunks of options.shard (when options.shard.second is not 0; else every chunk), less those the
/// counts file `resume_file` (none when "") already holds: read_counts_file and check_resume
/// first, and options.evaluate = false (resumed_counts evaluates). Returns the file's counts.
std::optional<bias_counts> plan_chunks(bias_options& options, const std::string& resume_file);

/// After a resumed run: `resumed` (the file `name`) and the counts of this run's `report`
/// merged. Unless the run was interrupted or is a shard, `report` becomes the merge's, evaluated
/// with `options` (evaluate = true) and reported as one run never interrupted.
bias_counts resumed_counts(const bias_counts& resumed, const std::string& name, bias_report& report,
                           bias_options& options);

/// The counts file of a report (--save-counts): its runs and every non-exact result.
bias_counts counts_of_report(const bias_report& report);

/// Writes counts as `shufl-bias-counts-2` JSON (one line and a newline). Integers above 2^53
/// are written as decimal strings.
std::string write_counts_file(const bias_counts& counts);

/// Adds counts files into one experiment (streaming: memory is the totals plus at most
/// bias_birthday_trials fingerprints per algorithm, whatever the number of files).
/// Files must agree on the counting scheme, n, the secondary statistics, the algorithms (labels,
/// definitions and tests) and the engine; parts of one run (same seed and engine, or the same
/// run id) must have the same trials and disjoint chunks; different runs are independent and
/// all listed. Totals are checked: what cannot be represented is refused, never wrapped.
class bias_merge {
 public:
  /// Adds one file's counts; throws shufl::error naming `name` when it cannot be merged.
  void add(const bias_counts& counts, const std::string& name);
  /// Number of files added.
  std::size_t files() const noexcept { return names_.size(); }
  /// The merged counts (for --save-counts), runs sorted by key.
  bias_counts merged() const;
  /// For each seeded run lacking chunks: a description naming the missing shards or chunks.
  std::vector<std::string> missing() const;
  /// Tests the merged counts as run_bias does (Monte Carlo with `o.monte_carlo`, keyed by the
  /// seed when the merge holds one seeded run, else by o.seed, else the OS).
  bias_report report(bias_options o) const;

 private:
  struct total {
    std::string definition, test;
    std::uint64_t trials = 0;
    std::vector<std::uint64_t> table, positions;
    bias_sums sums;
    std::map<std::string, chunk_set> chunks;  // by run key
    // Birthday fingerprints by (run key, chunk), at most bias_birthday_trials in all: the first
    // ones in that order are kept, whatever the order of the files.
    std::map<std::pair<std::string, std::uint64_t>, std::vector<std::uint64_t>> fingerprints;
    std::uint64_t fingerprint_count = 0;
    bool fingerprints_incomplete = false;
  };
  std::vector<std::string> names_;
  std::size_t n_ = 0;
  bool secondary_ = true;
  std::string counting_, shufl_version_;
  std::map<std::string, bias_run> runs_;     // by key
  std::vector<std::string> order_;           // algorithm labels in the first file's order
  std::map<std::string, total> totals_;
};

/// --merge: reads and validates each file (read_counts_file) and adds it to one merge, a file at
/// a time (memory: the totals, not the files). Throws shufl::error naming the file that fails.
bias_merge merge_counts_files(const std::vector<std::string>& files);

}  // namespace shufl
