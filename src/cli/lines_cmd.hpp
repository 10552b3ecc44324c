// `shufl lines` command line: the library's options struct (shufl/lines/run.hpp) filled by
// GNU-style parsing (lines_cmd.cpp), then run by lines_progress.cpp through the library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "shufl/lines/run.hpp"
#include "render/text_escape.hpp"

namespace shufl::cli::lines {

/// Everything `shufl lines` was asked to do, after parsing and validation (the library's struct).
using options = shufl::lines::run_options;
using shufl::lines::is_field_name_spec;
using shufl::lines::min_memory;

/// GNU `quote` and `quotef` (text_escape.hpp: shared with the other commands).
using render::quote;
using render::quotef;

/// A usage error: "PROG: MESSAGE" then "Try 'PROG --help' for more information.".
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// How a number in GNU's syntax (parse_gnu_number) read.
enum class number_status { ok, overflow, invalid };

/// GNU xstrtoumax in base 10 with no suffixes: leading white space and '+' accepted, a '-' is
/// invalid, digits required, nothing may follow; a too-large value is `overflow` unless garbage
/// follows it (then `invalid`). Sets `value` unless invalid (UINT64_MAX on overflow).
number_status parse_gnu_number(std::string_view text, std::uint64_t& value);

/// A number of an -i range (GNU xdectoumax): throws shufl::error "invalid input range: ‘PART’",
/// plus ": Value too large for defined data type" for a plain overflow.
std::uint64_t parse_range_part(std::string_view part);

/// Writes the --help text with `usage_name` ("shufl lines" or "shuf") to standard output.
void print_help(const std::string& usage_name);

/// Parses --memory SIZE with shufl::parse_size (size.hpp: GNU sort -S's suffixes b K M G T P E
/// and %, a bare number in bytes). Throws shufl::error "invalid memory size: ‘X’; expected ..."
/// (UTF-8 quotes as GNU; the accepted forms listed) or "--memory X is too small: the smallest
/// workable amount is 16M".
std::uint64_t parse_memory(std::string_view text);

/// Parses --delimiter C: one byte, or one of the escapes \0 \t \n \r \v \f \\ \xHH. Throws
/// shufl::error "invalid delimiter: ‘X’ (one byte, or \0 \t \n \r \v \f \\ \xHH)".
char parse_delimiter(std::string_view text);

/// Parses --prob P: a decimal (std::from_chars, correctly rounded), 0 < P <= 1. Throws
/// shufl::error "invalid probability: ‘X’ (a decimal number P, 0 < P <= 1)".
double parse_probability(std::string_view text);

/// Checks the combinations of the sampler-mode options (issue 17) after parsing; throws a
/// usage error ("cannot combine A and B options", "option A needs B") for one that makes no
/// sense. Does nothing when no sampler option was given, so GNU command lines are untouched.
void check_modes(const options& opts);

/// Runs a parsed command; returns the exit status. Throws shufl::error for runtime errors.
int run(const options& opts);

}  // namespace shufl::cli::lines

