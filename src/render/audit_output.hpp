// The text report and the --format json document of `shufl audit` (schema/audit-report.schema.json),
// and their roundings of p-values and statistics, which the --report page (audit_report.hpp) shows
// as well.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "shufl/audit.hpp"
#include "shufl/audit/counts.hpp"
#include "shufl/audit/deck_reader.hpp"
#include "shufl/audit/recheck.hpp"

namespace shufl::render {

/// Decks from an in-memory array (the Python package): its name, shape and element type.
struct audit_array_input {
  std::string name = "<array>";
  std::uint64_t rows = 0, columns = 0;
  std::string dtype;  ///< numpy's name of the element type: "uint8", "int64", ...
};

/// Where an audit's decks came from, as its reports state it.
struct audit_input {
  bool generated = false;
  std::string name;                 // file: as given ("-" is "standard input")
  std::string sha256;
  std::uint64_t bytes = 0;
  std::string algorithm;            // --algo
  std::optional<std::string> seed;
  std::string engine;
  std::uint64_t trials = 0;
  std::vector<std::string> merged;  // --merge: the counts files
  std::vector<std::string> parts;   // --merge: what they hold
  /// Decks from an array: the reports state its shape and type instead of a file's digest and size.
  std::optional<audit_array_input> array;
  /// --meta KEY=VALUE: provenance the lab states (game, software version, window, exported by,
  /// lab, tester), in the order given.
  std::vector<std::pair<std::string, std::string>> meta;
};

/// The input of an --algo run: `trials` decks of `algorithm` from `engine`, seeded or not.
audit_input generated_audit_input(std::string algorithm, std::optional<std::string> seed, std::string engine,
                                  std::uint64_t trials);

/// The input of a --merge of the counts files `files`, whose merge is `merged` (each part described).
audit_input merged_audit_input(const std::vector<std::string>& files, const audit::audit_counts& merged);

/// Parses --meta KEY=VALUE texts: KEY of letters, digits, '_', '-', '.' (at most 64), VALUE valid
/// UTF-8 of at most 1000 bytes without control characters; a KEY given twice is an error. Throws
/// shufl::error naming the bad text.
std::vector<std::pair<std::string, std::string>> parse_audit_meta(const std::vector<std::string>& texts);

/// The text report: where the decks came from, the battery table (test, decks, statistic, df, p,
/// Holm p, result), notes and the decision.
std::string audit_text_report(const audit::audit_report& r, const audit_input& in);

/// The closing lines of a text audit of several `--algo` algorithms, after their own reports:
/// "overall: ..." and the overall "result: pass|fail: ...", so the last `result:` line is the
/// run's (as the JSON's top-level `result` and `--check`'s exit status are). `failed` lists the
/// labels of the algorithms whose audit failed, in order; `algorithms` counts all of them.
std::string audit_overall_text(std::size_t algorithms, const std::vector<std::string>& failed, double alpha);

/// The --format json document (schema/audit-report.schema.json); infinities written as the
/// largest finite doubles. An array's `input` is {"name": "<array>", "shape": [rows, columns],
/// "dtype": "uint8"}.
nlohmann::ordered_json audit_json_report(const audit::audit_report& r, const audit_input& in,
                                         const audit::audit_pack& pack);

/// The --format json document of a recomputed deck file (`--verify PAGE --key K FILE`), to
/// compare with the page's `doc` (audit::report_differences): the input named and described
/// (meta) as `doc` gives it, the file's SHA-256 and size as `run` found them.
nlohmann::ordered_json recheck_json_report(const nlohmann::ordered_json& doc, const audit::recheck_run& run);

/// The text report's roundings of a p-value (from p and ln p; "<=" for a bound, rounded up) and of
/// a statistic.
std::string audit_p_text(double p, double ln_p, bool bound);
std::string audit_statistic_text(double x);
/// --tier's line: "small: 10000 decks (the first of a longer input), alpha 0.01, batches of 500, lags 2".
std::string tier_text(const audit::audit_report& r);

}  // namespace shufl::render
