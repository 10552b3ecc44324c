#include "text_escape.hpp"

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

}  // namespace shufl::render
