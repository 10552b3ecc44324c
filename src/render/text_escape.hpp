// The one escaping function of each output format, used by every writer of that format:
// terminal text and error messages (GNU quote/quotef, control characters made visible), CSV
// (RFC 4180 quoting, spreadsheet formulas defused), XML/HTML/SVG text (markup escaped, the C0
// controls XML 1.0 forbids replaced). JSON has its own rule: shufl/json_text.hpp.
#pragma once

#include <string>
#include <string_view>

namespace shufl::render {

/// Whether the user's locale (LC_CTYPE from the environment) uses UTF-8; read once. Nothing
/// else of shufl depends on the locale (it is reset to "C" after the check).
bool utf8_locale();

/// ‘text’ in a UTF-8 locale, 'text' otherwise (GNU `quote`), unprintable characters escaped
/// as escape_controls does (GNU: ‘\001’).
std::string quote(std::string_view text);

/// A file name as GNU `quotef` shows it: bare when it is shell-safe, else in '...' quotes, with
/// every unprintable character as $'\n' or $'\ooo' (gnulib's shell-escape style, ':' quoted too).
std::string quotef(std::string_view name);

/// Text for a terminal: `text` itself when every character prints (printable ASCII, valid
/// UTF-8 beyond ASCII except C1 controls), else quotef(text) — so an escape sequence in a
/// seed, a label or an algorithm name read from a file is shown, never obeyed.
std::string shown(std::string_view text);

/// Makes every unprintable byte of a message visible in place: C0 controls and DEL as \a \b
/// \t \n \v \f \r or \ooo, C1 controls and bytes that are not UTF-8 as \ooo per byte (the
/// escapes of quotef). For whole lines such as error messages, whose user parts are already
/// between quotes, and for the lines of a text report (`keep_newlines`: LF stays a line end).
std::string escape_controls(std::string_view text, bool keep_newlines = false);

/// Text for XML 1.0 content and attribute values (SVG, HTML): & < > " ' as entities; the C0
/// controls XML forbids (all but tab, LF, CR) as their Unicode control pictures (U+2400 + c:
/// U+0001 is shown as U+2401); bytes that are not UTF-8 as U+FFFD.
std::string xml_escape(std::string_view text);

/// One text cell of CSV (RFC 4180): in double quotes, with " doubled, when it holds , " CR or
/// LF; a cell that starts with = + - @ (or tab or CR, which some spreadsheets skip) gets a
/// leading ' so that no spreadsheet runs it as a formula (OWASP, "CSV Injection"). For text
/// cells only: numbers shufl writes itself (-10.68) are written as they are.
std::string csv_field(std::string_view text);

}  // namespace shufl::render
