// Display width of text in a terminal, for aligning columns (U06): utf8proc's character widths
// (East Asian wide = 2, combining marks = 0), not a hand-written table.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace shufl::render {

/// Columns `text` takes in a terminal: the sum of utf8proc_charwidth over its code points (wide
/// characters 2, combining marks and controls 0); a byte that is not valid UTF-8 counts 1 (a
/// terminal shows it as one replacement character).
std::size_t display_width(std::string_view text);

/// `text` padded with spaces to `width` columns (on the right; on the left when `right_align`).
/// Text already as wide is returned unchanged.
std::string pad_to_width(std::string_view text, std::size_t width, bool right_align = false);

}  // namespace shufl::render
