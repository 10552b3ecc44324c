// The JSON text rule of json_text.hpp.
#include "shufl/json_text.hpp"

#include <fmt/format.h>

#include "shufl/error.hpp"

namespace shufl {

std::string hex_bytes(std::string_view bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes.size());
  for (const char ch : bytes) {
    const auto c = static_cast<unsigned char>(ch);
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

bool bytes_from_hex(std::string_view hex, std::string& out) {
  if (hex.size() % 2 != 0) return false;
  const auto value = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  out.clear();
  out.reserve(hex.size() / 2);
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const int hi = value(hex[i]), lo = value(hex[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out += static_cast<char>(hi * 16 + lo);
  }
  return true;
}

void throw_json_text_error(std::string_view field) {
  throw error(fmt::format("{}: expected a string or {{\"hex\": \"...\"}} (its bytes as hex digits)", field));
}

}  // namespace shufl
