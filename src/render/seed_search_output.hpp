// The seed search's text report and its JSON object "seed_search" of the audit document, made
// from what audit::search_seeds returned (see shufl/audit/seed_search.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "shufl/audit/seed_search.hpp"
#include "shufl/audit/seed_search_run.hpp"
#include "shufl/deck.hpp"

namespace shufl::render {

/// What was searched, as the reports state it.
using seed_search_input = audit::seed_search_setting;

/// The JSON object, the text report and the exit status (3: a seed reproduces the deals and E is at
/// most max_chance; 4: seeds match but chance explains them; 0: none).
struct seed_search_report {
  nlohmann::ordered_json json;
  std::string text;
  int status = 0;
};

/// Both reports of one search, its chance accounting and its predictions (shown only when predictable).
seed_search_report seed_search_output(const seed_search_input& in, const audit::seed_search_result& result,
                                      const audit::seed_chance& chance, const audit::seed_prediction& prediction);
/// The same, of a search run_seed_search finished.
seed_search_report seed_search_output(const audit::seed_search_outcome& outcome);

/// What `shufl audit --seed-search` writes to stdout: the report's text, or with `json` the
/// document {"seed_search": report.json} indented by 2, with a newline.
std::string seed_search_stdout(const seed_search_report& report, bool json);

/// The audit page's seed search (audit --report with --seed-search), from the JSON object
/// "seed_search": its result line (class overall pass/fail/inconclusive, id seed-search-K) and its
/// section (family, what was searched, cards logged, E, verdict, what was found and predicted).
std::string seed_search_page_result(const nlohmann::ordered_json& seed_search, std::size_t k);
std::string seed_search_page_section(const nlohmann::ordered_json& seed_search, std::size_t k);

/// A variant's --loop as written: down, up, naive, inside-out, sample:K.
std::string variant_loop_name(const audit::family_variant& variant);

/// What --try-variants states up front on stderr: the variants, and the estimate of
/// seed_search_estimate for all of them (seeds = the seeds of one variant, over its searches).
std::string seed_search_variants_cost(const audit::seed_family_info& family,
                                      const std::vector<audit::search_variant>& variants, std::uint64_t seeds,
                                      unsigned threads, double rate_per_thread);

/// The line a long search starts with on stderr: "shufl: searching N seeds on T threads, about
/// D (R seeds/s per thread measured on this search's first seeds)".
std::string seed_search_estimate(std::uint64_t seeds, unsigned threads, double rate_per_thread);

}  // namespace shufl::render
