// GNU quote/quotef and the other escapes of terminal text and messages (quote.hpp).
#include "shufl/quote.hpp"

#include <langinfo.h>
#include <locale.h>

#include <clocale>
#include <cstdint>
#include <cstring>
#include <cwchar>
#include <cwctype>

namespace shufl {

std::size_t utf8_sequence(std::string_view text, std::size_t i, std::uint32_t& code) noexcept {
  const auto b = static_cast<unsigned char>(text[i]);
  std::size_t size = 0;
  std::uint32_t c = 0, min = 0;
  if (b < 0x80) {
    code = b;
    return 1;
  } else if (b >= 0xC2 && b <= 0xDF) {
    size = 2, c = b & 0x1Fu, min = 0x80;
  } else if (b >= 0xE0 && b <= 0xEF) {
    size = 3, c = b & 0x0Fu, min = 0x800;
  } else if (b >= 0xF0 && b <= 0xF4) {
    size = 4, c = b & 0x07u, min = 0x10000;
  } else {
    return 0;
  }
  if (i + size > text.size()) return 0;
  for (std::size_t k = 1; k < size; ++k) {
    const auto t = static_cast<unsigned char>(text[i + k]);
    if ((t & 0xC0) != 0x80) return 0;
    c = (c << 6) | (t & 0x3Fu);
  }
  if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
  code = c;
  return size;
}

namespace {

void append_octal(std::string& out, unsigned char b) {
  out += '\\';
  out += static_cast<char>('0' + (b >> 6));
  out += static_cast<char>('0' + ((b >> 3) & 7));
  out += static_cast<char>('0' + (b & 7));
}

}  // namespace

bool utf8_locale() {
  static const bool utf8 = [] {
    std::setlocale(LC_CTYPE, "");
    const char* codeset = nl_langinfo(CODESET);
    const bool yes = codeset && (std::strcmp(codeset, "UTF-8") == 0 || std::strcmp(codeset, "utf8") == 0);
    std::setlocale(LC_CTYPE, "C");  // nothing else of ours may depend on the locale
    return yes;
  }();
  return utf8;
}

namespace {

// One character of a file name for quotef: its bytes, and whether it prints (a printable ASCII
// byte, or a printable multibyte character in a UTF-8 locale). An invalid byte is a unit of its
// own; an incomplete sequence at the end is one unit of all its bytes.
struct name_unit {
  std::size_t size;
  bool printable;
};

name_unit next_unit(std::string_view name, std::size_t i) {
  const auto b = static_cast<unsigned char>(name[i]);
  if (b < 0x80) return {1, b >= 0x20 && b < 0x7f};
  if (!utf8_locale()) return {1, false};
  static const locale_t utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", locale_t{});
  if (utf8 == locale_t{}) return {1, false};
  const locale_t old = uselocale(utf8);
  std::mbstate_t state{};
  wchar_t w = 0;
  const std::size_t n = std::mbrtowc(&w, name.data() + i, name.size() - i, &state);
  name_unit u{1, false};
  if (n == static_cast<std::size_t>(-2)) {
    u = {name.size() - i, false};
  } else if (n != static_cast<std::size_t>(-1) && n != 0) {
    u = {n, std::iswprint(static_cast<wint_t>(w)) != 0};
  }
  uselocale(old);
  return u;
}

// The C escape letter of \a \b \f \n \r \t \v, else 0.
char escape_letter(char c) noexcept {
  switch (c) {
    case '\a': return 'a';
    case '\b': return 'b';
    case '\f': return 'f';
    case '\n': return 'n';
    case '\r': return 'r';
    case '\t': return 't';
    case '\v': return 'v';
    default: return 0;
  }
}

bool quotef_plain(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         (c != '\0' && std::strchr("%+,-./]_", c) != nullptr);
}

}  // namespace

// GNU quote = gnulib's locale quoting style: ‘text’ in a UTF-8 locale, 'text' otherwise; inside,
// a backslash as \\, \a \b \f \n \r \t \v as those escapes, any other unprintable byte as
// \ooo (a printable multibyte character stays in a UTF-8 locale), and the closing quote
// itself with a backslash before it.
std::string quote(std::string_view text) {
  const bool utf8 = utf8_locale();
  const std::string_view open = utf8 ? "\u2018" : "'";
  const std::string_view close = utf8 ? "\u2019" : "'";
  std::string out(open);
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    const name_unit u = next_unit(text, i);
    if (c == '\\') {
      out += "\\\\";
    } else if (const char letter = escape_letter(c); letter != 0) {
      out += '\\';
      out += letter;
    } else if (u.printable) {
      if (text.substr(i, u.size) == close) out += '\\';
      out.append(text.substr(i, u.size));
    } else {
      for (std::size_t k = 0; k < u.size; ++k) {
        const auto b = static_cast<unsigned char>(text[i + k]);
        out += '\\';
        out += static_cast<char>('0' + (b >> 6));
        out += static_cast<char>('0' + ((b >> 3) & 7));
        out += static_cast<char>('0' + (b & 7));
      }
    }
    i += u.size;
  }
  out += close;
  return out;
}

// GNU quotef = gnulib's shell-escape quoting style with ':' quoted too (coreutils' quotef):
// 1. bare when every character is safe for the shell: letters, digits, % + , - . / ] _ @,
//    printable multibyte characters, '#' and '~' except first, '{' and '}' except alone;
// 2. else, when the name has a single quote and otherwise only characters that need no
//    escape ("compatible": letters, digits, % + , - . / : ] _, space, the quote, '#'/'~' first,
//    '{'/'}' alone, printable multibyte characters and '@'), in double quotes: "it's";
// 3. else in single quotes, a single quote as '\'', and each unprintable character as
//    $'\n' (\a \b \f \n \r \t \v) or $'\ooo' per byte, the $'...' closed by '' before the next
//    printable character.
// (GNU coreutils 9.1's gnulib misquotes a name that has a single quote and ends with an
// escape; this follows the corrected rule of gnulib 2024-04.)
std::string quotef(std::string_view name) {
  bool bare = !name.empty();
  bool single_quote = false, compatible = true;
  for (std::size_t i = 0; i < name.size();) {
    const char c = name[i];
    const name_unit u = next_unit(name, i);
    bool safe = false, compat = false;
    if (quotef_plain(c)) {
      safe = compat = true;
    } else if (c == ':') {
      compat = true;
    } else if (c == '#' || c == '~') {
      safe = i != 0;
      compat = !safe;
    } else if (c == '{' || c == '}') {
      safe = name.size() != 1;
      compat = !safe;
    } else if (c == ' ') {
      compat = true;
    } else if (c == '\'') {
      compat = single_quote = true;
    } else if (c == '@' || u.size > 1) {
      safe = compat = u.printable;
    }
    bare = bare && safe;
    compatible = compatible && compat;
    i += u.size;
  }
  if (bare) return std::string(name);
  if (single_quote && compatible) {
    std::string quoted = "\"";
    quoted.append(name);
    quoted += '"';
    return quoted;
  }
  std::string out = "'";
  bool in_escape = false;  // inside $'...'
  for (std::size_t i = 0; i < name.size();) {
    const char c = name[i];
    const name_unit u = next_unit(name, i);
    if (u.printable) {
      if (c == '\'') {
        out += "'\\''";
        in_escape = false;
      } else {
        if (in_escape) out += "''";
        in_escape = false;
        out.append(name.substr(i, u.size));
      }
    } else {
      if (!in_escape) out += "'$'";
      in_escape = true;
      if (const char letter = escape_letter(c); letter != 0) {
        out += '\\';
        out += letter;
      } else {
        for (std::size_t k = 0; k < u.size; ++k) {
          const auto b = static_cast<unsigned char>(name[i + k]);
          out += '\\';
          out += static_cast<char>('0' + (b >> 6));
          out += static_cast<char>('0' + ((b >> 3) & 7));
          out += static_cast<char>('0' + (b & 7));
        }
      }
    }
    i += u.size;
  }
  out += "'";
  return out;
}

std::string shown(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    std::uint32_t c = 0;
    const std::size_t size = utf8_sequence(text, i, c);
    if (size == 0 || c < 0x20 || (c >= 0x7F && c <= 0x9F)) return quotef(text);
    i += size;
  }
  return std::string(text);
}

std::string escape_controls(std::string_view text, bool keep_newlines) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    std::uint32_t c = 0;
    const std::size_t size = utf8_sequence(text, i, c);
    if (size != 0 && ((c >= 0x20 && c != 0x7F && !(c >= 0x80 && c <= 0x9F)) || (keep_newlines && c == '\n'))) {
      out.append(text.substr(i, size));
      i += size;
      continue;
    }
    const std::size_t bytes = size == 0 ? 1 : size;
    const char letter = bytes == 1 ? escape_letter(text[i]) : 0;
    if (letter != 0) {
      out += '\\';
      out += letter;
    } else {
      for (std::size_t k = 0; k < bytes; ++k) append_octal(out, static_cast<unsigned char>(text[i + k]));
    }
    i += bytes;
  }
  return out;
}

}  // namespace shufl
