// GNU `quote` and `quotef` and the escapes of terminal text: how a name, a label or any text
// read from outside appears in a message or on a terminal, never obeyed as an escape sequence.
// Below every layer because the library's error messages (shufl::error) quote what they name;
// the render layer's other escapes (XML, CSV) are in src/render/text_escape.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace shufl {

/// The length of the valid UTF-8 sequence at text[i] (1 to 4), 0 when there is none (an
/// overlong form, a surrogate, a code point above U+10FFFF, a truncated sequence); `code`
/// receives its code point. RFC 3629.
std::size_t utf8_sequence(std::string_view text, std::size_t i, std::uint32_t& code) noexcept;

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

}  // namespace shufl
