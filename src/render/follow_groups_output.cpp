// The grouped monitor's final texts (follow_groups_output.hpp).
#include "render/follow_groups_output.hpp"

#include <fmt/format.h>

#include "render/audit_groups_output.hpp"
#include "render/follow_output.hpp"

namespace shufl::render {

std::string follow_groups_final(const audit::follow_final& f, const std::string& reason, const std::string& input,
                                bool json) {
  audit_input in;
  in.name = input;
  in.sha256 = f.sha256;
  in.bytes = f.bytes;
  std::string out;
  for (std::size_t i = 0; i < f.group_statuses.size(); ++i) {
    const auto& s = f.group_statuses[i];
    if (!json) {
      out += follow_final_text(s, reason);
      continue;
    }
    nlohmann::ordered_json j = follow_status_json(s, "final");
    j["reason"] = reason;
    if (i + 1 == f.group_statuses.size()) {
      j["report"] = f.group_reports ? audit_groups_json(*f.group_reports, in, *f.pack) : nlohmann::ordered_json(nullptr);
    }
    out += j.dump() + "\n";
  }
  if (!json && f.group_reports) {
    out += '\n';
    out += audit_groups_text(*f.group_reports, in);
  } else if (!json) {
    out += "no decks in this run: no battery report\n";
  }
  return out;
}

}  // namespace shufl::render
