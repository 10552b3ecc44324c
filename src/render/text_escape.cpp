#include "text_escape.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace shufl::render {

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    std::uint32_t c = 0;
    const std::size_t size = utf8_sequence(text, i, c);
    if (size == 0) {
      out += "\uFFFD";
      ++i;
      continue;
    }
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
          // U+2400 + c: three bytes E2 90 80+c.
          out += "\xE2\x90";
          out += static_cast<char>(0x80 + c);
        } else if (c == 0x7F) {
          out += "\u2421";  // DEL as its control picture, like the C0 controls
        } else if (c == 0xFFFE || c == 0xFFFF) {
          out += "\uFFFD";  // noncharacters outside XML 1.0's Char production: a parser stops at them
        } else {
          out.append(text.substr(i, size));
        }
    }
    i += size;
  }
  return out;
}

std::string csv_field(std::string_view text) {
  std::string cell;
  if (!text.empty() && text.front() != '\0' && std::strchr("=+-@\t\r", text.front()) != nullptr) cell += '\'';
  cell.append(text);
  if (cell.find_first_of(",\"\r\n") == std::string::npos) return cell;
  std::string out = "\"";
  for (const char c : cell) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

namespace {

// A word as a POSIX shell reads it: bare when it holds only safe characters, else single-quoted.
std::string shell_word(const std::string& w) {
  const bool safe = !w.empty() && std::all_of(w.begin(), w.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("_./:=,+-%@").find(c) != std::string_view::npos;
  });
  if (safe) return w;
  std::string out(1, '\'');
  for (const char c : w) {
    if (c == '\'') {
      out.append("'\\''");
    } else {
      out.push_back(c);
    }
  }
  out.push_back('\'');
  return out;
}

}  // namespace

std::string shell_command_line(std::string_view raw) {
  std::string command;
  std::size_t start = 0;
  for (std::size_t k = 0; start < raw.size(); ++k) {
    std::size_t end = raw.find('\0', start);
    if (end == std::string_view::npos) end = raw.size();
    if (k == 0) {
      command.append("shufl");
    } else {
      command.push_back(' ');
      command.append(shell_word(std::string(raw.substr(start, end - start))));
    }
    start = end + 1;
  }
  return command;
}

}  // namespace shufl::render
