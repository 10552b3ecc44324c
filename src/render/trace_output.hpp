// The text report and the --format json document of `shufl trace` (the HTML page is built from
// that document: html_pages.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
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

/// An upper bound of the bytes one step adds to the output in `format` (0 text, 1 JSON, 2 HTML),
/// for run_trace's output limit (trace_options::step_bytes): its row of every label, and its
/// words with the fixed fields around them. `labels` as the format shows them; `colour`: ANSI
/// escapes in the text.
std::uint64_t trace_step_bytes(const std::vector<std::string>& labels, std::size_t format, bool colour);

}  // namespace shufl::render
