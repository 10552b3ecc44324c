// Private to src/cli/: the files of `shufl bias` (bias_files.cpp): reading, --save-counts and
// --merge, used by bias_cmd.cpp.
#pragma once

#include <string>
#include <vector>

#include "shufl/bias.hpp"
#include "shufl/bias_counts.hpp"

namespace shufl::cli {

/// Reads a whole file ("-": standard input); throws shufl::error when it cannot.
std::string read_all(const std::string& path);
/// The --save-counts file: tallies per algorithm with engine, seed and version.
std::string saved_counts(const bias_report& report);
/// --merge: reads and validates every file (read_counts_file) and adds it to one merge.
bias_merge merge_files(const std::vector<std::string>& files);

}  // namespace shufl::cli
