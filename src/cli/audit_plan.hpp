// Private to src/cli/: `shufl audit --plan` (audit_plan.cpp: decks needed per test, text or JSON),
// run by audit_cmd.cpp.
#pragma once

#include <string>

#include "shufl/audit.hpp"
#include "shufl/audit/deck_reader.hpp"

namespace shufl::cli {

/// `shufl audit --plan` options, parsed and checked by audit_cmd.cpp except --effect and --power.
struct audit_plan_cli {
  audit::audit_pack pack;
  audit::audit_options options;    ///< --game and --deal, --alpha, --lags, --batch-size, --tier (applied).
  std::string power;               ///< --power as given (default "0.9").
  std::string effect;              ///< --effect as given: "D" or "TEST=D,TEST=D,..." (empty: defaults).
  std::string format = "text";
};

/// Prints the plan (text table or JSON, schema/audit-plan.schema.json); returns the exit status.
int run_audit_plan(const audit_plan_cli& o);

}  // namespace shufl::cli
