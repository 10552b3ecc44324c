// What one `shufl audit` battery run writes (audit_outputs.hpp).
#include "audit_outputs.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "audit_report.hpp"
#include "text_escape.hpp"
#include "shufl/bias.hpp"
#include "shufl/text_input.hpp"
#include "shufl/version.hpp"

namespace shufl::render {

audit_outputs audit_outputs_of(const audit::audit_report& r, audit_input info, const audit::audit_pack& pack, bool json,
                               bool page, const seed_search_report* search) {
  nlohmann::ordered_json doc = audit_json_report(r, info, pack);
  if (search) doc["seed_search"] = search->json;
  audit_outputs outputs;
  if (page) outputs.page = {audit_page_section_of(r, info, doc)};  // the input named as given
  if (json) {
    outputs.out = doc.dump(2) + "\n";
  } else {
    if (!info.generated && info.merged.empty()) info.name = input_display_name(info.name);
    outputs.out = audit_text_report(r, info);
    if (search) outputs.out += "\n" + search->text;
  }
  return outputs;
}

audit_outputs audit_algorithms_outputs(const std::vector<std::pair<audit::audit_report, audit_input>>& runs,
                                       const audit::audit_pack& pack, double alpha, bool json, bool with_page) {
  std::vector<nlohmann::ordered_json> reports;
  std::vector<audit_page_section> page;
  std::string text;
  std::vector<std::string> failed;  // the labels of the algorithms whose audit failed
  for (const auto& [r, in] : runs) {
    if (!r.decision.pass) failed.push_back(in.algorithm);
    if (with_page) {
      page.push_back({r, true, {}, {}, 0, in.algorithm, in.seed, in.engine, in.trials, audit_json_report(r, in, pack), {}});
    }
    if (json) {
      reports.push_back(audit_json_report(r, in, pack));
    } else {
      if (!text.empty()) text += "\n";
      text += audit_text_report(r, in);
    }
  }
  audit_outputs outputs;
  if (json) {
    if (reports.size() == 1) {
      outputs.out = reports.front().dump(2) + "\n";
    } else {
      nlohmann::ordered_json j;
      j["shufl_version"] = SHUFL_VERSION;
      j["command"] = "audit";
      j["alpha"] = alpha;
      j["result"] = failed.empty() ? "pass" : "fail";
      j["audits"] = reports;
      outputs.out = j.dump(2) + "\n";
    }
  } else {
    if (runs.size() > 1) text += audit_overall_text(runs.size(), failed, alpha);
    outputs.out = std::move(text);
  }
  outputs.page = std::move(page);
  return outputs;
}

std::string audit_shard_saved_text(const audit::audit_part& part, std::pair<std::uint64_t, std::uint64_t> shard, std::uint64_t decks,
                                   const std::string& file) {
  const std::string where =
      part.generated ? fmt::format("chunks {}..{} of {}", part.begin, part.end - 1, bias_chunk_count(part.trials))
                     : fmt::format("bytes {}..{} of {}", part.bytes_begin, part.bytes_end, part.size);
  return fmt::format("shufl audit: shard {}/{}: {}, {} deck{}, saved to '{}'\n", shard.first, shard.second, where, decks,
                     decks == 1 ? "" : "s", escape_controls(file));
}

}  // namespace shufl::render
