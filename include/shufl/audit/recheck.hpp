// Recomputing a report (`shufl audit --verify PAGE --key K FILE`): the settings an audit ran
// with, read back from its --format json document (schema/audit-report.schema.json), and the
// comparison of that document with the one a new audit of FILE gives.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "shufl/audit.hpp"
#include "shufl/audit/deck_reader.hpp"

namespace shufl::audit {

/// How an audit of a deck file ran, as its report states it.
struct report_settings {
  reader_options reader;  ///< the pack (named, or --cards-file's labels), decks, jokers, --dealt; --skip-bad when decks were skipped
  audit_options options;  ///< alpha, --lags, and --game with its --deal (the document's `settings`)
};

/// The embedded documents of a report page (the text of its audit-data script): a JSON array
/// of audit documents. Throws shufl::error "the page's audit data is not JSON" otherwise.
nlohmann::ordered_json parse_report_data(std::string_view text);

/// The settings of one audit document of a deck file. Throws shufl::error when the document
/// lacks them (a page made before documents carried `settings`: "... has no settings ...").
report_settings settings_of_report(const nlohmann::ordered_json& doc);

/// The one document of a page's audit data (parse_report_data) that can be recomputed: a page
/// of one deck file, whose `input` states its sha256. Throws shufl::error "only the page of one
/// deck file can be recomputed" otherwise (nlohmann's exceptions for a document of another shape).
nlohmann::ordered_json recheckable_document(std::string_view data);

/// A deck file audited again as a document states it.
struct recheck_run {
  audit_report report;  ///< the battery and its decision at the document's alpha
  audit_pack pack;      ///< the pack the decks gave
  std::string sha256;   ///< the file's SHA-256 (hex)
  std::uint64_t bytes = 0;
};

/// Audits `file` (a regular file: else shufl::error "'FILE': give the deck file itself (a
/// regular file)") with the settings of `doc` (settings_of_report) on `threads` threads. The
/// reader's errors are shufl::error too.
recheck_run recheck_deck_file(const nlohmann::ordered_json& doc, const std::string& file, unsigned threads);

/// Where `now` (a recomputed document) differs from `page`: the same keys, strings and array
/// lengths, integers exactly, reals to 1e-9 (|a − b| ≤ 1e-9·max(1, |a|, |b|)). At most `max`
/// entries, each "PATH: page X, recomputed Y" with PATH like audit.tests[0].statistic.
std::vector<std::string> report_differences(const nlohmann::ordered_json& page, const nlohmann::ordered_json& now,
                                            std::size_t max = 10);

}  // namespace shufl::audit
