// `shufl audit --seed-search FAMILY --seeds RANGE`: the options, and the function the audit
// command calls to run the search and print its report (text or JSON).
#pragma once

#include <optional>
#include <string>

#include "render/seed_search_output.hpp"
#include "shufl/audit/deck_reader.hpp"
#include "shufl/audit/seed_search_run.hpp"

namespace shufl::cli {

/// What the audit command parsed for a seed search: the library's request (family, --seeds,
/// --reseed, --loop, ..., --threads, --shard, --max-chance) and what the command line adds.
struct seed_search_cli_options : audit::seed_search_request {
  std::string format = "text";     ///< --format text|json
  std::string input = "-";         ///< FILE or "-": logged deals, one per line, top card first
  audit::reader_options reader;    ///< --pack, --dealt K (the first K cards of each deal), ...
  bool progress = false;           ///< --progress: draw the bar even when stderr is not a terminal
};

/// The search's outcome as the JSON object "seed_search" of the audit document, its text report,
/// and the exit status (render/seed_search_output.hpp).
using seed_search_report = render::seed_search_report;

/// Opens the deals, has the library read them and run the search (audit::run_seed_search, with the
/// progress bar and the time estimate on stderr) and render build both reports. Throws
/// shufl::error on bad input. `with_battery` (audit --report): the battery reads the input after
/// the search, so it must be a regular file, and the search is whole (no --shard).
seed_search_report make_seed_search_report(const seed_search_cli_options& options, bool with_battery = false);

/// The exit status of a battery and a seed search run together: 3 when either found what it looks
/// for, else 4 when either is inconclusive, else 0 (the battery's status alone without a search).
int worse_status(int battery, const std::optional<seed_search_report>& search) noexcept;

/// make_seed_search_report, then the report in options.format on stdout; returns the exit status.
int run_seed_search(const seed_search_cli_options& options);

}  // namespace shufl::cli
