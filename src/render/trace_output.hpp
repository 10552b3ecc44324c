// The text report and the --format json document of `shufl trace` (the HTML page is built from
// that document: html_pages.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "shufl/trace.hpp"

namespace shufl::render {

/// The text report: the algorithm and its definition, where the draws came from (and the
/// `replay: --draws` line), a row per step (its sentence, then the order with '|' at the edges of
/// the finalized region; with `colour`, finalized items green and touched positions bold, as ANSI
/// escapes), the counting argument and the result. Items are padded to the widest label's
/// display width. `labels` are shown as given (the caller makes them safe for a terminal).
std::string trace_text_report(const trace_options& o, const trace_result& t, const std::vector<std::string>& labels,
                              bool colour);

/// The --format json document: the run's provenance, every step (action, cursor, draw and its
/// range, positions, the finalized region, its sentence and the order after it), the draws and
/// the counting argument.
nlohmann::ordered_json trace_json(const trace_options& o, const trace_result& t, const std::vector<std::string>& labels);

}  // namespace shufl::render
