// `shufl audit --group-by N` (docs/audit-input.md): the options, and the batch audit of a grouped
// log (one battery per group, Holm over all: shufl/audit/groups.hpp; reports:
// render/audit_groups_output.hpp). With --follow the monitor takes the group field instead.
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "shufl/audit.hpp"
#include "shufl/audit/deck_reader.hpp"

namespace shufl::cli {

/// --group-by N and --max-groups M as parsed.
struct group_cli_options {
  std::size_t field = 0;          ///< 0: no --group-by
  std::size_t max_groups = 10000;
};

/// Checks --group-by (1..1000) and --max-groups (1..10^7, only with --group-by).
group_cli_options parse_group_options(bool has_group_by, const std::string& group_by, bool has_max_groups,
                                      const std::string& max_groups);

/// Refuses the batch options that do not take groups (--algo, --merge, --save-counts, --shard,
/// --seed-search, --plan, --report).
void check_group_batch_options(const CLI::App& sub);

/// Audits the grouped log `path` ("-": standard input) and prints the reports; returns the exit
/// status (3 with `check` when the joint decision fails).
int run_audit_groups(const std::string& path, const audit::reader_options& reader, audit::audit_options options,
                     std::size_t max_groups, const std::string& format, bool check,
                     std::vector<std::pair<std::string, std::string>> meta);

}  // namespace shufl::cli
