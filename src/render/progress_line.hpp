// The text of the progress lines on stderr, without the terminal's "\r" and "\033[K" (src/cli/
// draws them): `shufl bias`'s bar and `shufl lines`' external shuffle.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace shufl::render {

/// The bar line of `shufl bias` for algorithm `k` (0-based) of `m` at `done` of `total` trials,
/// `seconds` after the run started, at most `columns` - 1 wide: "naive (2 of 3) [####    ]  45%
/// 12.3M trials/s  0:07 left" (the bar up to 40 wide; dropped when the line would not fit; a
/// very long label cut). The rate is over the whole run (each algorithm runs `total` trials);
/// the time left is seconds × (1 − f) / f, f = (k + done / total) / m ("--:--" before 0.2 s or
/// 0.1 %). `columns` at least 20.
std::string bias_progress_line(const std::string& label, std::size_t k, std::size_t m, std::uint64_t done,
                               std::uint64_t total, double seconds, std::size_t columns);

/// The line of `shufl lines`' external shuffle: "shufl: PHASE 1.25 GiB (45%)" (`done` bytes of
/// `total`; without the percentage when `total` is 0).
std::string lines_progress_line(std::string_view phase, std::uint64_t done, std::uint64_t total);

}  // namespace shufl::render
