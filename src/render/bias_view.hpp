// What the pictures and pages of `shufl bias` (--plot, --report) show about
// a run, read from its `--format json` document, so that every field of that document (the
// contract other tools parse) flows into them and they cannot disagree with it.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "heatmap.hpp"

namespace shufl::render {

/// The test that decided a result's verdict and its p-value as used for the verdict.
struct deciding_test {
  std::string name;     ///< "chi-squared (table of 6 orders)", "position test", "duplicates", ...
  double ln_p = 0;      ///< ln p (Holm-adjusted when `adjusted`).
  bool adjusted = false;///< Whether ln_p is Holm-adjusted.
  bool bound = false;   ///< Whether ln_p is only an upper bound (the most extreme outcome's).
};

/// The deciding test of one element of the document's "results": the document's own
/// "deciding_test" (with "ln_p_adjusted", "tests_in_verdict", "p_adjusted_is_bound") when it has
/// one; otherwise the primary test alone (correction "none"), or,
/// with Holm's correction, the test with the smallest adjusted p among those in the verdict.
deciding_test find_deciding_test(const nlohmann::json& result, std::size_t n);

/// A p-value given by ln p as the text report shows it: "p = 0.0123", or below the double range
/// "p < 1e-308 (ln p = -350.44)"; a bound reads "p <= 1.2e-05 (a bound)".
std::string format_ln_p_short(double ln_p, bool bound = false);

/// The primary test's name: the document's "primary"."name" when present, else derived from "test".
std::string primary_test_name(const nlohmann::json& result, std::size_t n);

/// Path (below the result) of the primary test's Holm-adjusted ln p: "primary.ln_p_adjusted" when
/// the document has it, else "ln_p_adjusted".
std::string primary_adjusted_path(const nlohmann::json& result);

/// {"decided by: position test", "Holm-adjusted p = 0.0123"} (or {"no verdict: too few trials
/// per cell"}).
std::vector<std::string> deciding_lines(const nlohmann::json& result, std::size_t n);

/// "shufl bias: n = 3, 60000 trials, seed "1", engine xoshiro256pp" from the document.
std::string run_header(const nlohmann::json& doc);

/// A text field of the report's JSON for display, whatever the run wrote there: the string;
/// "hex:fffe" for a {"hex": "fffe"} object (a non-UTF-8 seed or label: pictures and pages stay
/// valid UTF-8); `fallback` when the field is absent, null or of another type. Never throws (a
/// picture of a run must not fail on its provenance fields).
std::string field_text(const nlohmann::json& j, const char* key, const std::string& fallback = "");

/// The text form of a JSON verdict word: "no-evidence" → "no evidence of bias".
std::string verdict_words(const std::string& json_word);

/// The document's "items" (--input) as display text (field_text of each); empty when absent.
std::vector<std::string> item_labels(const nlohmann::json& doc);

/// item_order_sentence (bias_report.hpp) from the document's "item_order" and "items"; empty
/// without --input.
std::string item_order_line(const nlohmann::json& doc);

/// One heatmap panel per result that has "position_counts": its label, verdict line and
/// deciding_lines; the trials are the sum of the first row (so --input and --merge runs work).
std::vector<heat_panel> heat_panels(const nlohmann::json& doc);

}  // namespace shufl::render
