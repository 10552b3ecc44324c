// `shufl audit --plan`: the decks each test of the battery needs to detect its stated effect with
// the stated power (shufl/audit/plan.hpp), as a text table or JSON (schema/audit-plan.schema.json).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <optional>

#include "audit_plan.hpp"
#include "common.hpp"
#include "shufl/audit/plan.hpp"
#include "shufl/error.hpp"
#include "shufl/json_text.hpp"
#include "shufl/version.hpp"

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

std::string text_plan(const audit::audit_plan& p, const std::string& pack) {
  std::string out = fmt::format(
      "plan for a {}: power {:g} per test at family-wise alpha {:g} (Holm over {} tests; planned at alpha/{} = "
      "{:.3g} each, which Holm never tests below)\n",
      pack, p.power, p.alpha, p.family, p.family, p.level);
  out += fmt::format("{:<19} {:>8} {:>10}  {}\n", "test", "effect", "decks", "effect model");
  std::string notes;
  for (const auto& t : p.tests) {
    if (t.planned) {
      out += fmt::format("{:<19} {:>8} {:>10}  {}{}{}\n", t.name, fmt::format("{:g}", t.effect), t.decks, t.model,
                         t.validity_bound ? " (the least for a valid chi-squared)" : "",
                         t.note.empty() ? "" : " (" + t.note + ")");
    } else {
      out += fmt::format("{:<19} {:>8} {:>10}  {}\n", t.name, "-", "-", t.note);
    }
  }
  out += fmt::format("decks for every planned test: {}\n", p.decks);
  return out;
}

nlohmann::ordered_json json_plan(const audit::audit_plan& p, const audit::audit_pack& pack) {
  nlohmann::ordered_json j;
  j["shufl_version"] = SHUFL_VERSION;
  j["command"] = "audit-plan";
  j["pack"] = {{"name", pack.name},
               {"description", json_text(pack.cards.description)},
               {"cards", pack.size()},
               {"decks", pack.decks},
               {"jokers", pack.jokers}};
  j["alpha"] = p.alpha;
  j["power"] = p.power;
  j["family"] = p.family;
  j["correction"] = "bonferroni";
  j["level"] = p.level;
  auto tests = nlohmann::ordered_json::array();
  for (const auto& t : p.tests) {
    nlohmann::ordered_json o;
    o["name"] = t.name;
    o["planned"] = t.planned;
    o["effect"] = t.planned ? nlohmann::ordered_json(t.effect) : nlohmann::ordered_json(nullptr);
    o["model"] = t.planned ? nlohmann::ordered_json(t.model) : nlohmann::ordered_json(nullptr);
    o["df"] = t.planned && t.df ? nlohmann::ordered_json(*t.df) : nlohmann::ordered_json(nullptr);
    o["noncentrality_per_deck"] = t.planned ? nlohmann::ordered_json(t.per_deck) : nlohmann::ordered_json(nullptr);
    o["noncentrality"] = t.planned ? nlohmann::ordered_json(t.noncentrality) : nlohmann::ordered_json(nullptr);
    o["decks"] = t.planned ? nlohmann::ordered_json(t.decks) : nlohmann::ordered_json(nullptr);
    o["validity_bound"] = t.validity_bound;
    o["note"] = t.note;
    tests.push_back(std::move(o));
  }
  j["tests"] = std::move(tests);
  j["decks"] = p.decks;
  return j;
}

}  // namespace

int run_audit_plan(const audit_plan_cli& c) {
  audit::plan_options o;
  o.alpha = c.alpha;
  o.power = parse_double("--power", c.power);
  if (!(o.power > 0 && o.power < 1)) throw error(fmt::format("--power must be between 0 and 1, not {}", c.power));
  parse_effects(c.effect, o);
  audit::battery_shape shape = audit::make_shape(c.pack);
  audit::set_game(shape, c.pack, c.game);
  const audit::audit_plan plan = audit::plan_audit(shape, o);
  if (c.format == "json") {
    write_stdout(json_plan(plan, c.pack).dump(2) + "\n");
  } else {
    write_stdout(text_plan(plan, c.pack.cards.description));
  }
  return exit_ok;
}

}  // namespace shufl::cli
