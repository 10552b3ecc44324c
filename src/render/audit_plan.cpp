// `shufl audit --plan`'s report: the decks each test of the battery needs (shufl/audit/plan.hpp)
// as a text table or JSON (schema/audit-plan.schema.json).
#include "audit_plan.hpp"

#include <fmt/format.h>

#include <utility>

#include "shufl/json_text.hpp"
#include "shufl/version.hpp"

namespace shufl::render {

std::string audit_plan_text(const audit::audit_plan& p, const std::string& pack) {
  std::string out = fmt::format(
      "plan for a {}: power about {:g} per test (asymptotic) at family-wise alpha {:g} (Holm over {} tests; planned at alpha/{} = "
      "{:.3g} each, which Holm never tests below)\n",
      pack, p.power, p.alpha, p.family, p.family, p.level);
  if (p.tier) {
    out += fmt::format("tier: {}: {} decks, alpha {:g}, batches of {}, lags {}\n", p.tier->name, p.tier->decks, p.tier->alpha,
                       p.tier->batch_size, p.tier->lags);
  } else if (p.lags != 2 || p.batch_size > 0) {
    out += fmt::format("battery: lags {} (position-pairs){}\n", p.lags,
                       p.batch_size > 0 ? fmt::format(", batches of {}", p.batch_size) : std::string());
  }
  out += fmt::format("{:<22} {:>8} {:>10}  {}\n", "test", "effect", "decks", "effect model");
  std::string notes;
  for (const auto& t : p.tests) {
    if (t.planned) {
      out += fmt::format("{:<22} {:>8} {:>10}  {}{}{}\n", t.name, fmt::format("{:g}", t.effect), t.decks, t.model,
                         t.validity_bound ? " (the least for a valid chi-squared)" : "",
                         t.note.empty() ? "" : " (" + t.note + ")");
    } else {
      out += fmt::format("{:<22} {:>8} {:>10}  {}\n", t.name, "-", "-", t.note);
    }
  }
  out += fmt::format("decks for every planned test: {}\n", p.decks);
  if (p.tier) {
    std::size_t planned = 0;
    std::string short_of;
    for (const auto& t : p.tests) {
      if (!t.planned) continue;
      ++planned;
      if (t.tier_reached == false) short_of += fmt::format("{}{} ({})", short_of.empty() ? "" : ", ", t.name, t.decks);
    }
    out += short_of.empty()
               ? fmt::format("the {} tier's {} decks reach power about {:g} for every planned test\n", p.tier->name,
                             p.tier->decks, p.power)
               : fmt::format("the {} tier's {} decks fall short of power about {:g} for: {} (of {} planned tests)\n",
                             p.tier->name, p.tier->decks, p.power, short_of, planned);
  }
  return out;
}

nlohmann::ordered_json audit_plan_json(const audit::audit_plan& p, const audit::audit_pack& pack) {
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
  j["lags"] = p.lags;
  j["batch_size"] = p.batch_size;
  if (p.tier) {
    j["tier"] = {{"name", p.tier->name}, {"decks", p.tier->decks}, {"alpha", p.tier->alpha},
                 {"batch_size", p.tier->batch_size}, {"lags", p.tier->lags}};
  } else {
    j["tier"] = nullptr;
  }
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
    o["tier_reached"] = t.tier_reached ? nlohmann::ordered_json(*t.tier_reached) : nlohmann::ordered_json(nullptr);
    o["note"] = t.note;
    tests.push_back(std::move(o));
  }
  j["tests"] = std::move(tests);
  j["decks"] = p.decks;
  return j;
}

std::string audit_plan_stdout(const audit::audit_plan& p, const audit::audit_pack& pack, bool json) {
  return json ? audit_plan_json(p, pack).dump(2) + "\n" : audit_plan_text(p, pack.cards.description);
}

}  // namespace shufl::render
