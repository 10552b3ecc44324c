// The output formats of `shufl bias` (bias_report.cpp; the SVG in bias_plot.cpp): text, JSON, CSV
// and the --plot picture of a report.
#pragma once

#include <string>
#include <vector>

#include "shufl/bias.hpp"
#include "shufl/bias_counts.hpp"

namespace shufl::render {

/// One sentence on the identity order of --input items (fixed points, inversions, cycles and
/// rising sequences are measured against it), with the first and last labels: for the text
/// report's header, the note on stderr, the plot and the report page.
std::string item_order_sentence(item_order order, const std::vector<std::string>& symbols);

/// The text report: per algorithm, the table or the position heatmap, the tests, power, warnings
/// and the verdict. `seed_text` is the seed as shown ("\"1\"" or "none (from the OS)").
std::string text_report(const bias_report& report, const std::string& seed_text, unsigned threads);
/// The JSON report (DESIGN.md's schema, with secondary, position_counts and exact).
std::string json_report(const bias_report& report, unsigned threads);
/// `shufl bias --report FILE.html`: report_page (html_pages.hpp) of json_report(report, threads).
struct page_provenance;
std::string bias_report_page(const bias_report& report, unsigned threads, const page_provenance& made);
/// The line on stderr when a signal (named `signal`, e.g. "SIGINT") stopped a --save-counts run
/// whose saved `counts` hold some of the chunks `options` asked for: "shufl: interrupted by SIG:
/// saved D of C chunks to 'FILE'; finish with the same command and --resume FILE".
std::string bias_interrupted_text(const bias_counts& counts, const bias_options& options, const std::string& signal,
                                  const std::string& file);
/// The line on stderr after `--shard I/N --save-counts FILE` saved its part: "shufl bias: shard
/// I/N: chunks A..B of C, T trials per algorithm, saved to 'FILE'".
std::string bias_shard_saved_text(const bias_options& options, const std::string& file);
/// One CSV line per test: algorithm,test,statistic,df,p_value,ln_p,ln_p_adjusted,verdict.
std::string csv_report(const bias_report& report);
/// An SVG heatmap of every result's position matrix (heatmap.hpp: z-score colours, axes, colour bar).
std::string svg_plot(const bias_report& report);

/// The report as a terminal shows it safely (text format): names, seeds, symbols and file names
/// given by the user or read from files, with their control characters quoted (quotef for a
/// name, escapes in place within a sentence), newlines included.
void make_text_safe(bias_report& report);

/// `shufl bias --list`: one line per registered algorithm, its definition and its parameter's
/// default and range.
std::string algorithm_list_text();

}  // namespace shufl::render
