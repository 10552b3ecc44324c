// Recomputing a report (`shufl audit --verify PAGE --key K FILE`): the settings an audit ran
// with, read back from its --format json document (schema/audit-report.schema.json), and the
// comparison of that document with the one a new audit of FILE gives.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
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

/// Where `now` (a recomputed document) differs from `page`: the same keys, strings and array
/// lengths, integers exactly, reals to 1e-9 (|a − b| ≤ 1e-9·max(1, |a|, |b|)). At most `max`
/// entries, each "PATH: page X, recomputed Y" with PATH like audit.tests[0].statistic.
std::vector<std::string> report_differences(const nlohmann::ordered_json& page, const nlohmann::ordered_json& now,
                                            std::size_t max = 10);

}  // namespace shufl::audit
