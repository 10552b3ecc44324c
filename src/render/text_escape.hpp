// The one escaping function of each output format, used by every writer of that format:
// terminal text and error messages (GNU quote/quotef, control characters made visible), CSV
// (RFC 4180 quoting, spreadsheet formulas defused), XML/HTML/SVG text (markup escaped, the C0
// controls XML 1.0 forbids replaced). JSON has its own rule: shufl/json_text.hpp.
#pragma once

#include <string>
#include <string_view>

#include "shufl/quote.hpp"

namespace shufl::render {

/// GNU quote/quotef and the escapes of terminal text live below every layer, in shufl/quote.hpp
/// (the library's error messages use them); here they are the render layer's as well.
using shufl::escape_controls;
using shufl::quote;
using shufl::quotef;
using shufl::shown;
using shufl::utf8_locale;

/// Text for XML 1.0 content and attribute values (SVG, HTML): & < > " ' as entities; the C0
/// controls XML forbids (all but tab, LF, CR) as their Unicode control pictures (U+2400 + c:
/// U+0001 is shown as U+2401); bytes that are not UTF-8 as U+FFFD.
std::string xml_escape(std::string_view text);

/// One text cell of CSV (RFC 4180): in double quotes, with " doubled, when it holds , " CR or
/// LF; a cell that starts with = + - @ (or tab or CR, which some spreadsheets skip) gets a
/// leading ' so that no spreadsheet runs it as a formula (OWASP, "CSV Injection"). For text
/// cells only: numbers shufl writes itself (-10.68) are written as they are.
std::string csv_field(std::string_view text);

/// A command line as a POSIX shell reads it, from its words separated by NUL bytes (as
/// /proc/self/cmdline holds them): the program named "shufl", each other word bare when it holds
/// only safe characters (letters, digits, _./:=,+-%@), else single-quoted ('\'' for a quote).
std::string shell_command_line(std::string_view words);

}  // namespace shufl::render
