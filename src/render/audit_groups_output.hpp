// The reports of a grouped audit (`shufl audit --group-by N`, and the final report of
// `shufl audit --follow --group-by N`): one report per group and the joint decision.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "render/audit_output.hpp"
#include "shufl/audit/groups.hpp"

namespace shufl::render {

/// Text: each group's report (its input named "NAME, group G", NAME as input_display_name shows
/// `in.name`), then "overall: ..." and the
/// run's "result: pass|fail: ..." (the last `result:` line is the run's, as with several --algo).
std::string audit_groups_text(const audit::grouped_report& r, const audit_input& in);

/// JSON: the multi-audit document (schema/audit-report.schema.json) with `group` in each of
/// `audits`, and the run's `result` and `summary`.
nlohmann::ordered_json audit_groups_json(const audit::grouped_report& r, const audit_input& in,
                                         const audit::audit_pack& pack);

/// What `shufl audit --group-by N` writes to stdout: audit_groups_json indented by 2 with a
/// newline when `json`, else audit_groups_text.
std::string audit_groups_stdout(const audit::grouped_report& r, const audit_input& in, const audit::audit_pack& pack,
                                bool json);

}  // namespace shufl::render
