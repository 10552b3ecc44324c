// The closed lists of values options take: parse_choice's tables (here) and the library's own
// (seed-search families, loops and reductions, engines, packs, card styles). `shufl --complete-values SUB OPTION`
// prints them for the shell completions (completions/), and `--complete-values SUB` which options
// take them or a path, so a value or option added here is completed without editing those files.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shufl::cli::choices {

inline constexpr std::string_view text_json[] = {"text", "json"};
inline constexpr std::string_view bias_format[] = {"text", "json", "csv"};
inline constexpr std::string_view trace_format[] = {"text", "json", "html"};
inline constexpr std::string_view bias_test[] = {"auto", "table", "position"};
inline constexpr std::string_view reseed[] = {"per-deal", "once"};
inline constexpr std::string_view deck_order[] = {"suit-major", "rank-major"};

/// The values `option` of subcommand `command` takes ("audit", "--game"), one per line; empty
/// when its values are not a closed list. With `option` empty: how each option of `command` that
/// completes does, "OPTION values" (a closed list), "OPTION files" or "OPTION directories", one per
/// line (an option may have two lines), and "positional files" when its non-option words are files
/// (lines, audit). With both empty: every "COMMAND OPTION" that has a list.
std::string values_text(std::string_view command, std::string_view option);

}  // namespace shufl::cli::choices
