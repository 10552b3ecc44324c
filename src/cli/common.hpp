// Shared by the subcommands of the command line: number parsing, stdout handling, and the
// table of subcommands that main() wires up. Only src/cli/ knows about CLI11 and exit codes.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <exception>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <utility>
#include <string_view>

#include "shufl/io/side_file.hpp"

namespace shufl::render {}  // src/render/: reports, pictures and pages, below the command line

namespace shufl::cli {

// The command line prints what the render layer makes; its names are used here unqualified.
using namespace shufl::render;

/// Exit statuses, the same for every subcommand (DESIGN.md).
inline constexpr int exit_ok = 0;
inline constexpr int exit_error = 1;
inline constexpr int exit_bias_found = 3;  ///< `shufl bias --check` found bias.
inline constexpr int exit_bias_unreliable = 4;  ///< `shufl bias --check`: no bias found, some verdict unreliable.
inline constexpr int exit_partial = 5;
inline constexpr int exit_audit_failed = 3;  ///< `shufl audit --check`: a test failed.      ///< `shufl bias --merge` lacks shards of a seeded run.

/// Parses a whole decimal unsigned integer for option `option` (no sign, no octal, no suffix,
/// no overflow); throws shufl::error "invalid value 'X' for OPTION: ..." otherwise.
std::uint64_t parse_uint(std::string_view option, std::string_view text);

/// Parses a count such as `--trials`: a whole decimal unsigned integer as parse_uint does, or
/// scientific notation that denotes an exact integer (`1e6`, `2.5E6`, `1e+3`; the README writes
/// "1e9 trials"). Computed in integers, never through a double: `1.5e0` and `1e-3` are refused
/// as not whole, values above 2^64 - 1 as too large. Throws shufl::error naming `option`.
std::uint64_t parse_count(std::string_view option, std::string_view text);

/// --shard I/N: (I, N) with 0 <= I < N (and N <= max_shards, when not 0: "at most 2^32 shards"
/// names the limit of audit's). Throws shufl::error naming the text.
std::pair<std::uint64_t, std::uint64_t> parse_shard(const std::string& text, std::uint64_t max_shards = 0);

/// Parses a decimal floating-point number in the C locale (whole string); throws shufl::error.
double parse_double(std::string_view option, std::string_view text);

/// Checks a `--seed` value: an empty seed is an error in every subcommand (DESIGN.md), since it
/// is almost always an unset shell variable (`--seed "$SEED"`). Throws shufl::error
/// "empty --seed: ..." naming that likely cause; returns `seed` otherwise.
const std::string& check_seed(const std::string& seed);

/// Returns the index of `value` in `choices`; otherwise throws shufl::error
/// "invalid value 'X' for OPTION: expected a, b or c".
std::size_t parse_choice(std::string_view option, std::string_view value,
                         std::initializer_list<std::string_view> choices);
std::size_t parse_choice(std::string_view option, std::string_view value, std::span<const std::string_view> choices);

/// The licence line of `shufl --version` and `shufl lines --version` (LICENSE at the top of the
/// source tree; SPDX identifier MIT).
inline constexpr const char* license_notice =
    "Copyright (c) 2026 the shufl authors. License: MIT (SPDX-License-Identifier: MIT).\n"
    "This is free software: you are free to change and redistribute it. There is NO WARRANTY.";

/// The library's side_file_errors (shufl/io/side_file.hpp) and the command line's end of them.
struct side_file_errors : io::side_file_errors {
  /// Prints "shufl: MESSAGE" on stderr for each failure (call after the report was written);
  /// returns `status` when none failed, else exit_error.
  int finish(int status) const;
};

/// Writes `data` to stdout (unlocked, fully buffered).
void write_stdout(std::string_view data);

/// Flushes stdout and reports a failed write ("write error: No space left on device") as a
/// shufl::error. Called once at exit by main().
void finish_stdout();

/// The one line main() prints for an exception that is not a shufl::error: "memory exhausted"
/// for std::bad_alloc and std::length_error (a size past what can be allocated), a JSON
/// library error in words (its internal text never reaches the user), else the exception's own
/// message. Never throws.
std::string exception_message(std::exception_ptr e) noexcept;

/// A subcommand registered with CLI11: `add` declares its options on `sub`, and returns the
/// function that runs it once parsing succeeded (returning the exit status).
struct subcommand {
  std::string_view name;
  std::string_view description;
  std::function<std::function<int()>(CLI::App& sub)> add;
};

/// `shufl bias`.
subcommand bias_subcommand();

/// `shufl audit`.
subcommand audit_subcommand();

/// `shufl deck`.
subcommand deck_subcommand();

/// `shufl trace`.
subcommand trace_subcommand();

/// `shufl lines` / the binary invoked as `shuf`: GNU shuf's command line (getopt_long, not
/// CLI11). `argv[0]` is the name to use in messages. Returns the exit status.
int run_lines(int argc, char** argv, const char* program_name);

}  // namespace shufl::cli
