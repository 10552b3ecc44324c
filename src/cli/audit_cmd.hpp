// Private to src/cli/: the options of `shufl audit` as parsed (audit_cmd.cpp declares them), and
// the battery run (audit_battery.cpp: a deck file, standard input, --algo, --save-counts, --shard,
// --merge) that audit_cmd.cpp dispatches to.
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "audit_follow.hpp"
#include "audit_seed_search.hpp"
#include "audit_sign.hpp"
#include "shufl/audit.hpp"
#include "shufl/audit/deck_reader.hpp"

namespace shufl::cli {

struct audit_cli_options {
  std::string file;
  std::string pack;
  std::string decks = "1";
  std::string jokers = "0";
  std::string cards_file;
  std::string dealt;
  bool skip_bad = false;
  std::string alpha = "0.01";
  bool check = false;
  std::string format = "text";
  std::string threads;
  std::string algo;
  std::string trials = "100000";
  std::string seed;
  std::string rng = "xoshiro256pp";
  std::string game;
  std::string deal, lags = "2", batch_size = "0", tier;
  // --seed-search (src/cli/audit_seed_search.cpp): FAMILY, --seeds, --reseed, --all, --max-chance, ...
  seed_search_cli_options search;
  std::string shard;
  // --follow (src/cli/audit_follow.cpp)
  bool follow = false;
  std::string every, interval, on_alarm, state, metrics, arl;
  follow_service_options service;
  bool keep_going = false, reset_alarm = false;
  // --group-by, --max-groups (a battery per group: run_audit_groups; with --follow a detector per group)
  std::string group_by, max_groups;
  // --report and --plan (src/render/audit_report.cpp, src/cli/audit_plan.cpp)
  std::string report;
  std::vector<std::string> meta;  // --meta KEY=VALUE (provenance on the reports)
  audit_sign_options signing;     // --keygen, --sign, --verify, --key (src/cli/audit_sign.cpp)
  bool plan = false;
  std::string effect;
  std::string power = "0.9";
  // --save-counts, --merge, --shard (audit_battery.cpp, src/audit/parts.cpp, src/audit/counts.cpp)
  std::string save_counts;
  std::vector<std::string> merge;
  bool allow_partial = false;
};

/// --pack, --decks, --jokers, --cards-file, --dealt and --skip-bad, checked.
audit::reader_options reader_options_of(const audit_cli_options& o, const CLI::App& sub);

/// The battery on a deck file, standard input, --algo decks or --merge'd counts (with --report,
/// --save-counts, --shard): refuses the seed-search options (unless `search`), writes the reports
/// and side files, and returns the exit status. `options` and `reader` as run_audit checked them.
/// `search` (--seed-search with --report, already run): every output shows it too, and the exit
/// status is the worse of the two (worse_status).
int run_audit_battery(const audit_cli_options& o, const CLI::App& sub, audit::audit_options options,
                      const audit::reader_options& reader, bool generated,
                      const std::optional<seed_search_report>& search = std::nullopt);

/// --group-by N: one battery per group of `o.file` (Holm over all), the report on stdout; returns
/// the exit status (3 with --check when the joint decision fails).
int run_audit_groups(const audit_cli_options& o, const audit::audit_options& options, const audit::reader_options& reader,
                     std::size_t max_groups);

}  // namespace shufl::cli
