// `shufl lines` command line: the options struct filled by GNU-style parsing (lines_cmd.cpp)
// and run by lines_run.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "shufl/lines/modes.hpp"
#include "render/text_escape.hpp"

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
  char delimiter = '\n';                     ///< '\0' with -z, or --delimiter C
  std::optional<std::uint64_t> memory;       ///< --memory SIZE in bytes (full shuffle in RAM up to this)
  std::optional<std::string> temp_dir;       ///< --temp-dir DIR (default $TMPDIR, else /tmp)
  std::uint64_t header = 0;                  ///< --header N: the first N records stay in place
  std::vector<std::string> operands;         ///< FILE, or the -e lines
  // The sampler modes (issue 17; none exists in GNU shuf, none is accepted with --random-source).
  bool keep_order = false;                   ///< --keep-order: a sample comes out in input order
  std::optional<double> prob;                ///< --prob P: Bernoulli sampling, 0 < P <= 1
  shufl::lines::field_list key_fields;       ///< --key-fields LIST: distinct sampling (with --prob)
  std::optional<char> field_delimiter;       ///< --field-delimiter C (default TAB; with --csv ',')
  /// --weight-field F: weighted sampling / shuffle. 0 while F is a field name not yet looked up
  /// in the header (weight_field_name).
  std::optional<std::size_t> weight_field;
  std::optional<std::string> weight_field_name;  ///< --weight-field NAME (needs --header)
  /// --key-fields with names (`name,city`; items are names or field numbers): key_fields is
  /// then {0-0} until the names are looked up in the header.
  std::optional<std::string> key_field_names;
  bool csv = false;                          ///< --csv: RFC 4180 records and field values
  bool with_replacement = false;             ///< --with-replacement (with -n COUNT)
  bool skip_bad_weights = false;             ///< --bad-weights=skip (default: error)
  /// The field delimiter in effect.
  char fields_by() const noexcept { return field_delimiter.value_or(csv ? ',' : '\t'); }
  /// Whether a field spec is a name to look up in the header line.
  bool names_fields() const noexcept { return weight_field_name || key_field_names; }
};

/// Whether a --weight-field / --key-fields spec is a field name (or a list with names) rather
/// than field numbers: it holds a character other than digits, ',', '-' and blanks.
bool is_field_name_spec(std::string_view spec) noexcept;

/// Looks up the field names of opts (weight_field_name, key_field_names) among the fields of
/// `header_line` (header line 1 without its delimiter; a CSV record with --csv, else split at
/// the field delimiter; a UTF-8 BOM and a final CR are not part of the names) and sets
/// opts.weight_field / opts.key_fields. Throws shufl::error for an unknown name, listing the
/// names there are.
void resolve_field_names(options& opts, std::string_view header_line);

/// The note for --bad-weights=skip and the errors of field reads when a line holds a double
/// quote without --csv: "quoted CSV fields need --csv ...".
inline constexpr const char* quoted_csv_hint =
    "the line holds a double quote: without --csv, fields are split at every field delimiter and "
    "quotes are data; quoted CSV fields need --csv";

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

/// The smallest workable --memory: the 256 bucket write buffers, the input window and the output
/// buffer, plus a few MiB of records.
inline constexpr std::uint64_t min_memory = std::uint64_t{16} << 20;

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

