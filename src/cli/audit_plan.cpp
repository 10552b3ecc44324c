// `shufl audit --plan`: --power and --effect read, the plan computed (shufl/audit/plan.hpp) and
// printed by the render layer (render/audit_plan.hpp: text table or JSON).
#include <fmt/format.h>

#include <optional>

#include "audit_plan.hpp"
#include "common.hpp"
#include "shufl/audit/plan.hpp"
#include "shufl/error.hpp"
#include "render/audit_plan.hpp"

namespace shufl::cli {

namespace {

// --effect: "D" (every test with an effect model) or "TEST=D,TEST=D" (those tests), or both: a
// named test takes its own value whatever the order.
void parse_effects(const std::string& text, audit::plan_options& o) {
  if (text.empty()) return;
  std::optional<double> all;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(start, end - start);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos) {
      all = parse_double("--effect", item);
    } else {
      o.effects[item.substr(0, eq)] = parse_double("--effect", item.substr(eq + 1));
    }
    start = end + 1;
  }
  if (all) {
    for (const auto name : audit::battery_test_names) {
      if (audit::has_effect_model(name)) o.effects.emplace(std::string(name), *all);
    }
  }
}

}  // namespace

int run_audit_plan(const audit_plan_cli& c) {
  audit::plan_options o;
  o.power = parse_double("--power", c.power);
  if (!(o.power > 0 && o.power < 1)) throw error(fmt::format("--power must be between 0 and 1, not {}", c.power));
  parse_effects(c.effect, o);
  write_stdout(render::audit_plan_stdout(audit::plan_audit(c.pack, c.options, o), c.pack, c.format == "json"));
  return exit_ok;
}

}  // namespace shufl::cli
