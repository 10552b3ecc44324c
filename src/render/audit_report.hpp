// `shufl audit --report FILE.html` (audit_report.cpp): a self-contained, print-ready test report.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shufl/audit.hpp"
#include "shufl/audit/deck_reader.hpp"
#include "audit_output.hpp"
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
  std::optional<audit_array_input> array;  ///< Decks from an in-memory array (input_name is its name).
};

/// The section of one audit: its report, where its decks came from (`in`, names as given; merged
/// counts files named together) and its --format json document.
audit_page_section audit_page_section_of(const audit::audit_report& r, const audit_input& in, nlohmann::ordered_json doc);

/// The page: "what was tested" (input and digest or algorithm, seed and engine; pack; decks;
/// shufl's version and build; the date in UTC and the command line, from `made`), the battery table with the
/// text report's numbers and wording, the card × position, suit × position and rank × position
/// heatmaps (heatmap.hpp's quantity and scale), each total against the interval its null law
/// gives, the poker classes observed and expected (--game poker) and a glossary of what each
/// test catches. Self-contained (inline CSS, no script but the embedded JSON, element id
/// "audit-data"), with print styles for A4. Every text from the user is escaped (xml_escape).
std::string audit_report_page(const std::vector<audit_page_section>& sections, const page_provenance& made);

/// One audit as an HTML fragment for a Jupyter cell (the Python result's _repr_html_): the page's
/// section of `s` (result, what was tested, the battery table, rule coverage, what it could
/// detect, the heatmaps, totals and poker classes) and the page's table of words, inside
/// <div class="shufl-audit">, with the page's styles scoped to it: every selector of its one
/// <style> element starts with ".shufl-audit", none is for the body, print or the paper, so the
/// notebook around it keeps its look. No script. Every element id, and every link to one, starts
/// with `id_prefix` ("battery-0" becomes "<id_prefix>battery-0"), so fragments made with
/// different prefixes can share one document (a notebook) without repeating an id.
std::string audit_report_fragment(const audit_page_section& s, std::string_view id_prefix);

}  // namespace shufl::render
