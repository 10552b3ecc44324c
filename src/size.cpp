// Size arguments: GNU sort -S's suffixes, a bare number in bytes.
#include "shufl/size.hpp"

#include <unistd.h>

#include <limits>

#include "shufl/random.hpp"

namespace shufl {

std::optional<std::uint64_t> parse_size(std::string_view text, std::uint64_t physical_memory) noexcept {
  constexpr auto max = std::numeric_limits<std::uint64_t>::max();
  std::size_t i = 0;
  uint128 v = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    v = v * 10 + static_cast<unsigned>(text[i] - '0');
    if (v > max) v = static_cast<uint128>(max) + 1;  // saturated; stays above max
    ++i;
  }
  if (i == 0 || text.size() - i > 1) return std::nullopt;
  if (i == text.size()) return v > max ? max : static_cast<std::uint64_t>(v);
  const char suffix = text[i];
  if (suffix == '%') {
    const uint128 bytes = v * physical_memory / 100;
    return bytes > max ? max : static_cast<std::uint64_t>(bytes);
  }
  constexpr std::string_view powers = "bKMGTPEZYRQ";
  std::size_t power = powers.find(suffix);
  if (power == std::string_view::npos) {
    const std::string_view lower = "bkmgt";  // sort also takes k m g t in lower case
    power = lower.find(suffix);
    if (power == std::string_view::npos || power == 0) return std::nullopt;
  }
  for (std::size_t k = 0; k < power; ++k) {
    v *= 1024;
    if (v > max) return max;
  }
  return static_cast<std::uint64_t>(v);
}

std::uint64_t physical_memory_bytes() noexcept {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
}

}  // namespace shufl
