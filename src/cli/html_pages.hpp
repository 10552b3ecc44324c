// Private to src/cli/: the self-contained HTML pages of `shufl trace --format html`
// (html_trace.cpp) and `shufl bias --report FILE.html` (html_report.cpp). Each page is one file:
// inline CSS and JavaScript, no network (a Content-Security-Policy `default-src 'none'` forbids
// it), works from file://, and embeds the command's --format json document. The same document
// gives the same page, byte for byte.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace shufl::cli {

/// `doc` as compact JSON that is safe inside an HTML <script> element: '<', '>' and '&' are
/// written \u003c, \u003e, \u0026 (and U+2028/U+2029 escaped too), so a label "</script>" cannot
/// end the element; JSON.parse reads it back unchanged.
std::string json_for_html(const nlohmann::ordered_json& doc);

/// The trace page built from the document of `shufl trace --format json`: the deck as cards
/// (finalized and unshuffled regions coloured and labelled, cursor i, picked j and the range j
/// was drawn from marked), Step / Back / Play / Reset buttons, a slider and the keyboard (arrows,
/// space, Home, End), panels "cursor i", "picked j", "locked", the step's sentence (the text
/// output's wording), the counting argument and the `replay: --draws` line.
std::string trace_page(const nlohmann::ordered_json& trace_doc);

/// The report page built from the document of `shufl bias --format json`: the run's header, per
/// algorithm the order histogram (n ≤ 6) or the position heatmap (heatmap.hpp's quantity and
/// scale) with its colour bar, the tests (statistic, df, p, ln p, Holm-adjusted p), the deciding
/// test, verdict, power statement and warnings, rounded as the text report shows them, and the
/// whole document embedded (element id "bias-data").
std::string report_page(const nlohmann::ordered_json& bias_doc);

/// Now, as "YYYY-MM-DD HH:MM:SS UTC" (when a page was written).
std::string page_date_utc();

/// The command line that runs this process (/proc/self/cmdline), the program named "shufl" and
/// every other word as a POSIX shell reads it (bare when safe, else single-quoted).
std::string page_command_line();

}  // namespace shufl::cli
