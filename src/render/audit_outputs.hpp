// What one `shufl audit` battery run writes (audit_outputs.cpp): its standard output (the text
// report or the --format json document) and its --report page, for one audit or for the audits
// of several --algo algorithms, and the note of a saved --shard part.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "audit_output.hpp"
#include "audit_report.hpp"
#include "seed_search_output.hpp"
#include "shufl/audit.hpp"
#include "shufl/audit/counts.hpp"
#include "shufl/audit/deck_reader.hpp"

namespace shufl::render {

/// Standard output and, when asked for, the --report page's sections (audit_report_page).
struct audit_outputs {
  std::string out;
  std::vector<audit_page_section> page;  ///< Empty when no page was asked for.
};

/// One audit (a file, standard input, a merge, or one --algo part): `out` is the JSON document
/// (audit_json_report, indented by 2, newline) when `json`, else the text report with a file
/// named as input_display_name shows it; `page`, when `page` is true, the --report page's section
/// of that audit (the input named as given, the document embedded). With `search` (--seed-search
/// with --report) the document holds its "seed_search" object and the text report ends with its
/// text after a blank line.
audit_outputs audit_outputs_of(const audit::audit_report& r, audit_input info, const audit::audit_pack& pack, bool json,
                               bool page, const seed_search_report* search = nullptr);

/// The audits of several --algo algorithms (each report with its input, in --algo order):
/// `out` is the one JSON document of a single algorithm, or {shufl_version, command, alpha,
/// result, audits} of several; as text, the reports one after the other (a blank line between)
/// and audit_overall_text's closing lines when there are several. `page` as audit_outputs_of,
/// a section per algorithm.
audit_outputs audit_algorithms_outputs(const std::vector<std::pair<audit::audit_report, audit_input>>& runs,
                                       const audit::audit_pack& pack, double alpha, bool json, bool page);

/// The line on stderr after `--shard I/N` (`shard`) `--save-counts FILE` saved its part `part` (`decks`
/// decks): "shufl audit: shard I/N: bytes B..E of S, D decks, saved to 'FILE'" for a deck file,
/// "... chunks B..E of C, ..." for an --algo run (C: its chunks of 65536 decks).
std::string audit_shard_saved_text(const audit::audit_part& part, std::pair<std::uint64_t, std::uint64_t> shard, std::uint64_t decks,
                                   const std::string& file);

}  // namespace shufl::render
