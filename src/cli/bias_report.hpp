// Private to src/cli/: the output formats and files of `shufl bias` (bias_report.cpp,
// bias_files.cpp), used by bias_cmd.cpp.
#pragma once

#include <string>
#include <vector>

#include "shufl/bias.hpp"

namespace shufl::cli {

/// The text report: per algorithm, the table or the position heatmap, the tests, power, warnings
/// and the verdict. `seed_text` is the seed as shown ("\"1\"" or "none (from the OS)").
std::string text_report(const bias_report& report, const std::string& seed_text, unsigned threads);
/// The JSON report (DESIGN.md's schema, with secondary, position_counts and exact).
std::string json_report(const bias_report& report, unsigned threads);
/// One CSV line per test: algorithm,test,statistic,df,p_value,ln_p,ln_p_adjusted,verdict.
std::string csv_report(const bias_report& report);
/// An SVG heatmap of every result's position matrix (heatmap.hpp: z-score colours, axes, colour bar).
std::string svg_plot(const bias_report& report);

/// Writes a whole file; throws shufl::error when it cannot.
void write_file(const std::string& path, const std::string& data);
/// Reads a whole file ("-": standard input); throws shufl::error when it cannot.
std::string read_all(const std::string& path);
/// The --save-counts file: tallies per algorithm with engine, seed and version.
std::string saved_counts(const bias_report& report);
/// --merge: adds saved tallies per algorithm and tests the sums; refuses two files with the same
/// engine and seed (their trials would be the same trials).
bias_report merge_saved(const std::vector<std::string>& files, bias_options o);

}  // namespace shufl::cli
