// Size arguments (`shufl lines --memory SIZE`), read as GNU `sort -S` reads them, except that a
// bare number is bytes (sort's default unit is KiB).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace shufl {

/// The accepted forms, for error messages.
inline constexpr std::string_view size_forms =
    "a whole number of bytes, optionally followed by one suffix as in GNU sort -S: b (bytes), "
    "K, M, G, T, P, E (powers of 1024; k m g t too) or % (of physical memory), e.g. 512M, 2G, 50%";

/// Parses SIZE: decimal digits, then at most one suffix: `b` (×1), `K`/`k` (×1024), `M`/`m`,
/// `G`/`g`, `T`/`t`, `P`, `E`, `Z`, `Y`, `R`, `Q` (successive powers of 1024), or `%`
/// (that percentage of `physical_memory` bytes, rounded down). Nothing else: no spaces, signs,
/// fractions ("0.5G"), "B"/"iB" endings or empty strings (nullopt). A value beyond 2^64 − 1
/// saturates at UINT64_MAX (sort does the same for -S). Integer arithmetic only.
std::optional<std::uint64_t> parse_size(std::string_view text, std::uint64_t physical_memory) noexcept;

/// Physical memory in bytes (sysconf _SC_PHYS_PAGES × _SC_PAGESIZE), for `%` sizes.
std::uint64_t physical_memory_bytes() noexcept;

}  // namespace shufl
