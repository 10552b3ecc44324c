// `shufl audit --report FILE.html` (audit_report.cpp): a self-contained, print-ready test report.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "shufl/audit.hpp"
#include "shufl/audit/deck_reader.hpp"
#include "html_pages.hpp"

namespace shufl::render {

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
/// shufl's version and build; the date in UTC and the command line, from `made`), the battery table with the
/// text report's numbers and wording, the card × position, suit × position and rank × position
/// heatmaps (heatmap.hpp's quantity and scale), each total against the interval its null law
/// gives, the poker classes observed and expected (--game poker) and a glossary of what each
/// test catches. Self-contained (inline CSS, no script but the embedded JSON, element id
/// "audit-data"), with print styles for A4. Every text from the user is escaped (xml_escape).
std::string audit_report_page(const std::vector<audit_page_section>& sections, const page_provenance& made);

}  // namespace shufl::render
