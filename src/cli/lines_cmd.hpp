// `shufl lines` command line: the options struct filled by GNU-style parsing (lines_cmd.cpp)
// and run by lines_run.cpp.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shufl::cli::lines {

/// Everything `shufl lines` was asked to do, after parsing and validation.
struct options {
  bool echo = false;         ///< -e: the operands are the records
  bool input_range = false;  ///< -i LO-HI
  bool repeat = false;       ///< -r
  std::uint64_t lo = 0, hi = 0;  ///< the -i range (hi = lo - 1 for an empty range)
  /// -n: at most this many records; UINT64_MAX = unlimited (also for values too large to store).
  std::uint64_t head = std::numeric_limits<std::uint64_t>::max();
  bool head_given = false;  ///< some -n was given (even an unlimited one)
  std::optional<std::string> output;         ///< -o FILE
  std::optional<std::string> random_source;  ///< --random-source FILE (GNU mode)
  std::optional<std::string> seed;           ///< --seed STRING
  char delimiter = '\n';                     ///< '\0' with -z
  std::vector<std::string> operands;         ///< FILE, or the -e lines
};

/// ‘text’ in a UTF-8 locale, 'text' otherwise (GNU `quote`).
std::string quote(std::string_view text);
/// A file name as GNU `quotef` shows it: bare when it is shell-safe, else in '...' quotes.
std::string quotef(std::string_view name);

/// Runs a parsed command; returns the exit status. Throws shufl::error for runtime errors.
int run(const options& opts);

}  // namespace shufl::cli::lines
