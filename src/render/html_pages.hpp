// The self-contained HTML pages of `shufl trace --format html`
// (html_trace.cpp) and `shufl bias --report FILE.html` (html_report.cpp). Each page is one file:
// inline CSS and JavaScript, no network (a Content-Security-Policy `default-src 'none'` forbids
// it), works from file://, and embeds the command's --format json document. The same document
// gives the same page, byte for byte.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "shufl/shuffle.hpp"

namespace shufl::render {

/// `doc` as compact JSON that is safe inside an HTML <script> element: '<', '>' and '&' are
/// written \u003c, \u003e, \u0026 (and U+2028/U+2029 escaped too), so a label "</script>" cannot
/// end the element; JSON.parse reads it back unchanged.
std::string json_for_html(const nlohmann::ordered_json& doc);

/// The trace page built from the document of `shufl trace --format json`: the deck as cards
/// (finalized and unshuffled regions coloured and labelled, cursor i, picked j and the range j
/// was drawn from marked), Step / Back / Play / Reset buttons, a slider and the keyboard (arrows,
/// space, Home, End), panels "cursor i", "picked j", "locked", the step's sentence (the text
/// output's wording), the counting argument and the `replay: --draws` line.
/// `many_runs_html` (many_runs_section) goes after the step-through view; the deck wraps into
/// rows that fit the window for any n up to 255, each row with its own band for the i / j marks.
std::string trace_page(const nlohmann::ordered_json& trace_doc, const std::string& many_runs_html = "");

/// The head every page opens with: the policy (nothing may be fetched; only the inline style
/// and script run), the viewport and an empty icon. Each page adds its <style> and the rest.
inline constexpr const char* page_head = R"~(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
)~";

/// The many-runs view draws bars for n up to this, the card × position heatmap above it.
inline constexpr std::size_t many_runs_bars_max_n = 5;
/// The largest n the many-runs view is drawn for (a heatmap of 64 × 64 cells per algorithm).
inline constexpr std::size_t many_runs_max_n = 64;
/// The default number of runs of each algorithm (`trace --runs`).
inline constexpr std::uint64_t many_runs_default = 6000;

/// The trace page's "many runs" section: `traced` (unless it is one of them), Fisher–Yates and
/// the naive shuffle each run `runs` times on the n = labels.size() items by run_bias with one
/// seed (bias's xoshiro256++ streams, 1 thread), side by side: per algorithm a bar per final order
/// (`rect.order-bar` with data-order and data-count, n ≤ many_runs_bars_max_n) coloured by its
/// z-score against runs/n!, else the card × position heatmap (heatmap.hpp). A sentence instead
/// for n < 2, n > many_runs_max_n or runs = 0. `seed_given`: whether the seed is the user's.
/// Throws shufl::error from run_bias.
std::string many_runs_section(const algorithm_spec& traced, const std::vector<std::string>& labels,
                              const std::string& seed, bool seed_given, std::uint64_t runs);

/// What a page states about its making that only the running command knows (the command line
/// fills it: src/cli/page_provenance.hpp). The same document and provenance give the same page.
struct page_provenance {
  std::string date_utc;      ///< When the page was written: "YYYY-MM-DD HH:MM:SS UTC".
  std::string command_line;  ///< The command that wrote it, as a POSIX shell reads it.
  /// `audit --sign`: the fingerprint of the signing key (audit::fingerprint), stated on the page
  /// (element id "key-fingerprint"); "" for an unsigned page.
  std::string key_fingerprint;
  /// The commit the binary was built from, as `shufl --version` names it ("aefef8d",
  /// "v0.2.0-3-gaefef8d", "unknown"); the audit report's tool line states it unless "".
  std::string commit{};  // "{}": initialisers that stop at key_fingerprint stay warning-free
};

/// The report page built from the document of `shufl bias --format json`: the run's header, per
/// algorithm the order histogram (n ≤ 6) or the position heatmap (heatmap.hpp's quantity and
/// scale) with its colour bar, the tests (statistic, df, p, ln p, Holm-adjusted p), the deciding
/// test, verdict, power statement and warnings, rounded as the text report shows them, where the
/// page came from (`made`; an --input file's SHA-256 as it reads now), and the whole document
/// embedded (element id "bias-data").
std::string report_page(const nlohmann::ordered_json& bias_doc, const page_provenance& made);

}  // namespace shufl::render
