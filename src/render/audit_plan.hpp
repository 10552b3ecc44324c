// `shufl audit --plan`'s text table and JSON document (schema/audit-plan.schema.json) of what
// audit::plan_audit returns.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "shufl/audit/deck_reader.hpp"
#include "shufl/audit/plan.hpp"

namespace shufl::render {

/// The text table: a header line (power, alpha, Holm's family and level), one row per test (its
/// effect, the decks it needs and its effect model, or "-" and why it is not planned) and the
/// decks every planned test needs. `pack` is the pack's description.
std::string audit_plan_text(const audit::audit_plan& p, const std::string& pack);

/// The JSON document (schema/audit-plan.schema.json): the pack, alpha, power, the family and
/// level, and per test its effect, model, df, non-centrality and decks (null when not planned).
nlohmann::ordered_json audit_plan_json(const audit::audit_plan& p, const audit::audit_pack& pack);

/// What `shufl audit --plan` writes: audit_plan_json indented by 2 with a newline when `json`,
/// else audit_plan_text with the pack's description.
std::string audit_plan_stdout(const audit::audit_plan& p, const audit::audit_pack& pack, bool json);

}  // namespace shufl::render
