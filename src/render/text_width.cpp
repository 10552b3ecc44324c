#include "text_width.hpp"

#include <utf8proc.h>

namespace shufl::render {

std::size_t display_width(std::string_view text) {
  std::size_t width = 0;
  const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  auto left = static_cast<utf8proc_ssize_t>(text.size());
  while (left > 0) {
    utf8proc_int32_t c = 0;
    const utf8proc_ssize_t used = utf8proc_iterate(p, left, &c);
    if (used <= 0) {  // invalid byte: one replacement character
      width += 1;
      ++p;
      --left;
      continue;
    }
    const int w = utf8proc_charwidth(c);
    width += w > 0 ? static_cast<std::size_t>(w) : 0;
    p += used;
    left -= used;
  }
  return width;
}

std::string pad_to_width(std::string_view text, std::size_t width, bool right_align) {
  const std::size_t have = display_width(text);
  if (have >= width) return std::string(text);
  std::string out;
  out.reserve(text.size() + width - have);
  if (right_align) out.append(width - have, ' ');
  out.append(text);
  if (!right_align) out.append(width - have, ' ');
  return out;
}

}  // namespace shufl::render
