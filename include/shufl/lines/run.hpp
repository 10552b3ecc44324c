// `shufl lines` as a library: everything the subcommand was asked to do (run_options, filled by
// the CLI's GNU-style parsing or by a binding) and run(), which reads the input, picks the mode
// (GNU's --random-source, the sampler modes, seeded or unseeded ChaCha20: in memory, sampled, or
// larger than memory through temporary files) and writes the output to -o or standard output.
// Errors are shufl::error (message + exit status); nothing here parses argv or exits. The
// behaviour reproduced is DESIGN.md's and gnu-shuf-compat.md's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shufl/lines/external.hpp"
#include "shufl/lines/modes.hpp"

namespace shufl::lines {

/// Everything `shufl lines` was asked to do, after parsing and validation.
struct run_options {
  bool echo = false;         ///< -e: the operands are the records
  bool input_range = false;  ///< -i LO-HI
  bool repeat = false;       ///< -r
  std::uint64_t lo = 0, hi = 0;  ///< the -i range (hi = lo - 1 for an empty range)
  /// -n: at most this many records; UINT64_MAX = unlimited (also for values too large to store).
  std::uint64_t head = std::numeric_limits<std::uint64_t>::max();
  bool head_given = false;  ///< some -n was given (even an unlimited one)
  std::optional<std::string> output;         ///< -o FILE
  std::optional<std::string> random_source;  ///< --random-source FILE (GNU mode)
  std::optional<std::string> seed;           ///< --seed STRING
  char delimiter = '\n';                     ///< '\0' with -z, or --delimiter C
  std::optional<std::uint64_t> memory;       ///< --memory SIZE in bytes (full shuffle in RAM up to this)
  std::optional<std::string> temp_dir;       ///< --temp-dir DIR (default $TMPDIR, else /tmp)
  std::uint64_t header = 0;                  ///< --header N: the first N records stay in place
  std::vector<std::string> operands;         ///< FILE, or the -e lines
  // The sampler modes (issue 17; none exists in GNU shuf, none is accepted with --random-source).
  bool keep_order = false;                   ///< --keep-order: a sample comes out in input order
  std::optional<double> prob;                ///< --prob P: Bernoulli sampling, 0 < P <= 1
  shufl::lines::field_list key_fields;       ///< --key-fields LIST: distinct sampling (with --prob)
  std::optional<char> field_delimiter;       ///< --field-delimiter C (default TAB; with --csv ',')
  /// --weight-field F: weighted sampling / shuffle. 0 while F is a field name not yet looked up
  /// in the header (weight_field_name).
  std::optional<std::size_t> weight_field;
  std::optional<std::string> weight_field_name;  ///< --weight-field NAME (needs --header)
  /// --key-fields with names (`name,city`; items are names or field numbers): key_fields is
  /// then {0-0} until the names are looked up in the header.
  std::optional<std::string> key_field_names;
  bool csv = false;                          ///< --csv: RFC 4180 records and field values
  bool with_replacement = false;             ///< --with-replacement (with -n COUNT)
  bool skip_bad_weights = false;             ///< --bad-weights=skip (default: error)
  /// The field delimiter in effect.
  char fields_by() const noexcept { return field_delimiter.value_or(csv ? ',' : '\t'); }
  /// Whether a field spec is a name to look up in the header line.
  bool names_fields() const noexcept { return weight_field_name || key_field_names; }
};

/// Whether a --weight-field / --key-fields spec is a field name (or a list with names) rather
/// than field numbers: it holds a character other than digits, ',', '-' and blanks.
bool is_field_name_spec(std::string_view spec) noexcept;

/// The smallest workable --memory: the 256 bucket write buffers, the input window and the output
/// buffer, plus a few MiB of records.
inline constexpr std::uint64_t min_memory = std::uint64_t{16} << 20;

/// The default --memory: half of MemAvailable (capped by a cgroup v2 memory.max), at least
/// min_memory.
std::uint64_t default_memory();

/// Shows the progress of a full shuffle larger than memory (the CLI: a line on a terminal).
/// Made only when a run goes external; clear() erases it before the run finishes.
class progress_view {
 public:
  virtual ~progress_view() = default;
  virtual void operator()(const external_progress& p) = 0;
  virtual void clear() = 0;
};

/// Makes the progress view of a run that goes external, or nullptr for none.
using progress_factory = std::function<std::unique_ptr<progress_view>()>;

/// Runs `shufl lines`: reads the input (the FILE operand, standard input, the -e operands or
/// the -i range), writes the output (-o FILE, opened only once the randomness is consumed, or
/// standard output) and returns when it is written and closed. Throws shufl::error for every
/// runtime error (a message and DESIGN.md's exit status) after writing what GNU shuf writes
/// before the same error. `opts` must hold a combination the CLI accepts (check_modes).
void run(const run_options& opts, const progress_factory& progress = {});

}  // namespace shufl::lines
