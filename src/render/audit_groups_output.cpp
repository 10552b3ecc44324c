// The reports of a grouped audit (audit_groups_output.hpp).
#include "render/audit_groups_output.hpp"

#include <fmt/format.h>

#include "render/count_noun.hpp"
#include "render/text_escape.hpp"
#include "shufl/json_text.hpp"
#include "shufl/text_input.hpp"
#include "shufl/version.hpp"

namespace shufl::render {

std::string audit_groups_text(const audit::grouped_report& r, const audit_input& in) {
  std::string out;
  for (const auto& g : r.groups) {
    audit_input one = in;
    one.name = fmt::format("{}, group {}", input_display_name(in.name), g.group);
    if (!out.empty()) out += "\n";
    out += audit_text_report(g.report, one);
  }
  std::size_t failed = 0;
  for (const auto& g : r.groups) failed += g.report.decision.pass ? 0 : 1;
  out += fmt::format("\noverall: {} in {}, Holm over the {} of every group at alpha {}\n",
                     count_noun(r.decks, "deck", "decks"), count_noun(r.groups.size(), "group", "groups"),
                     count_noun(r.decision.family, "test", "tests"), r.decision.alpha);
  if (r.skipped > 0) {
    out += fmt::format("skipped {} invalid line{}", r.skipped, r.skipped == 1 ? "" : "s");
    out += r.skip_reasons.empty() ? "\n" : fmt::format(" (first: {})\n", escape_controls(r.skip_reasons.front()));
  }
  out += escape_controls(fmt::format("result: {}: {}", r.decision.pass ? "pass" : "fail", r.decision.summary)) + "\n";
  (void)failed;
  return out;
}

nlohmann::ordered_json audit_groups_json(const audit::grouped_report& r, const audit_input& in,
                                         const audit::audit_pack& pack) {
  nlohmann::ordered_json j;
  j["shufl_version"] = SHUFL_VERSION;
  j["command"] = "audit";
  j["alpha"] = r.decision.alpha;
  j["result"] = r.decision.pass ? "pass" : "fail";
  j["summary"] = json_text<nlohmann::ordered_json>(r.decision.summary);
  j["decks"] = r.decks;
  j["skipped"] = r.skipped;
  j["skip_reasons"] = json_texts<nlohmann::ordered_json>(r.skip_reasons);
  j["family"] = r.decision.family;
  auto audits = nlohmann::ordered_json::array();
  for (const auto& g : r.groups) {
    nlohmann::ordered_json a = audit_json_report(g.report, in, pack);
    a["group"] = json_text<nlohmann::ordered_json>(g.group);
    audits.push_back(std::move(a));
  }
  j["audits"] = std::move(audits);
  return j;
}

std::string audit_groups_stdout(const audit::grouped_report& r, const audit_input& in, const audit::audit_pack& pack,
                                bool json) {
  return json ? audit_groups_json(r, in, pack).dump(2) + "\n" : audit_groups_text(r, in);
}

}  // namespace shufl::render
