// Private to src/cli/: the two additions to `shufl audit` that live outside audit_cmd.cpp:
// `--report FILE.html` (audit_report.cpp: a self-contained, print-ready test report) and
// `--plan` (audit_plan.cpp: decks needed per test, text or JSON).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "shufl/audit.hpp"
#include "shufl/audit/deck_reader.hpp"

namespace shufl::cli {

/// One audit on the page: the report, where its decks came from, and its --format json document
/// (embedded in the page).
struct audit_page_section {
  audit::audit_report report;
  bool generated = false;          ///< --algo: decks shufl made.
  std::string input_name;          ///< A file: its name as given ("-": standard input).
  std::string sha256;
  std::uint64_t bytes = 0;
  std::string algorithm;           ///< --algo
  std::optional<std::string> seed;
  std::string engine;
  std::uint64_t trials = 0;
  nlohmann::ordered_json json;
};

/// The page: "what was tested" (input and digest or algorithm, seed and engine; pack; decks;
/// shufl's version and build; the date in UTC; the command line), the battery table with the
/// text report's numbers and wording, the card × position, suit × position and rank × position
/// heatmaps (heatmap.hpp's quantity and scale), each total against the interval its null law
/// gives, the poker classes observed and expected (--game poker) and a glossary of what each
/// test catches. Self-contained (inline CSS, no script but the embedded JSON, element id
/// "audit-data"), with print styles for A4. Every text from the user is escaped (xml_escape).
std::string audit_report_page(const std::vector<audit_page_section>& sections);

/// The text report's roundings of a p-value (from p and ln p; "<=" for a bound) and of a
/// statistic (audit_cmd.cpp), so the page shows the very same cells.
std::string audit_p_text(double p, double ln_p, bool bound);
std::string audit_statistic_text(double x);

/// `shufl audit --plan` options, parsed and checked by audit_cmd.cpp except --effect and --power.
struct audit_plan_cli {
  audit::audit_pack pack;
  audit::game_deal game;           ///< --game and --deal.
  double alpha = 0.01;
  std::string power;               ///< --power as given (default "0.9").
  std::string effect;              ///< --effect as given: "D" or "TEST=D,TEST=D,..." (empty: defaults).
  std::string format = "text";
};

/// Prints the plan (text table or JSON, schema/audit-plan.schema.json); returns the exit status.
int run_audit_plan(const audit_plan_cli& o);

}  // namespace shufl::cli
