// The --state document's outer layer (audit/monitor_state.hpp).
#include "shufl/audit/monitor_state.hpp"

#include <nlohmann/json.hpp>

#include "shufl/error.hpp"

namespace shufl::audit {

std::string write_monitor_state(const e_process& e, const change_detector& detector, bool alarm,
                                const std::string& input_id, std::uint64_t lines) {
  auto j = nlohmann::ordered_json::parse(e.serialize());
  j["follow_input"] = {{"id", input_id}, {"lines", lines}};
  j["detector"] = nlohmann::ordered_json::parse(detector.serialize());
  j["alarm"] = alarm;
  return j.dump() + "\n";
}

monitor_state_parts read_monitor_state(const std::string& text) {
  monitor_state_parts parts;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception&) {
    throw error("state file: not JSON");
  }
  if (!j.is_object()) throw error("state file: not a JSON object");
  if (j.contains("follow_input")) {
    const auto f = j["follow_input"];
    if (!f.is_object() || !f.value("id", nlohmann::json("")).is_string() ||
        !f.value("lines", nlohmann::json(0u)).is_number_unsigned())
      throw error("state file: 'follow_input' is malformed");
    parts.input_id = f.value("id", std::string());
    parts.lines = f.value("lines", std::uint64_t{0});
    j.erase("follow_input");
  }
  if (!j.contains("detector")) throw error("state file: no change detector in it (written by an older monitor)");
  if (!j.value("alarm", nlohmann::json(false)).is_boolean()) throw error("state file: 'alarm' is not true or false");
  parts.alarm = j.value("alarm", false);
  parts.detector = j["detector"].dump();
  j.erase("detector");
  j.erase("alarm");
  parts.e_process = j.dump();
  return parts;
}

}  // namespace shufl::audit
