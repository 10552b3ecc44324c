// The monitor's groups and their state document (include/shufl/audit/follow_groups.hpp).
#include "shufl/audit/follow_groups.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include "shufl/audit/monitor_state.hpp"
#include "shufl/error.hpp"

namespace shufl::audit {

namespace {

constexpr const char* kGroupsFormat = "shufl audit follow groups";
constexpr const char* kStreamFormat = "shufl audit monitor state";  // one stream's (e_process::serialize)

// One group's state as compact JSON text: the e-process's own fields, its detector, whether it
// had alarmed (an alarm the detector has not restarted after: a restart gives it again, or
// resets it).
std::string group_state(const follow_group& g) {
  return stream_state(g.e, g.detector, g.detector.alarmed() || g.restored_alarm);
}

// Restores one group from group_state's object; true when it had alarmed.
bool restore_one(follow_group& g, const nlohmann::json& j) {
  if (!j.is_object()) throw error("state file: a group's state is not a JSON object");
  const stream_state_parts parts = split_stream_state(j.dump());
  g.e.deserialize(parts.e_process);
  g.detector.deserialize(parts.detector);
  return parts.alarm;
}

}  // namespace

follow_group_set::follow_group_set(const audit_pack& pack, double arl, bool grouped, std::size_t max_groups)
    : pack_(pack), arl_(arl), grouped_(grouped), max_groups_(max_groups), replay_(std::make_shared<replay_window>()) {
  if (max_groups == 0) throw error("--max-groups must be at least 1");
}

follow_group_set::follow_group_set(const follow_group_set& o)
    : pack_(o.pack_), arl_(o.arl_), grouped_(o.grouped_), max_groups_(o.max_groups_),
      replay_(std::make_shared<replay_window>(*o.replay_)), by_name_(o.by_name_) {
  for (const auto& g : o.groups_) {
    groups_.push_back(std::make_unique<follow_group>(*g));
    groups_.back()->detector.share_replay(replay_);
  }
}

double follow_group_set::log_sum_m() const {
  double top = -std::numeric_limits<double>::infinity();
  for (const auto& g : groups_) top = std::max(top, g->detector.log_m());
  if (!std::isfinite(top)) return top;
  double sum = 0;
  for (const auto& g : groups_) sum += std::exp(g->detector.log_m() - top);
  return top + std::log(sum);
}

follow_group& follow_group_set::get(std::string_view name) {
  if (!grouped_) name = {};
  if (!grouped_ && !groups_.empty()) return *groups_.front();
  if (grouped_) {
    const auto it = by_name_.find(name);
    if (it != by_name_.end()) return *groups_[it->second];
    if (groups_.size() >= max_groups_) {
      throw error(fmt::format("more than {} {} (--max-groups {})", max_groups_, max_groups_ == 1 ? "group" : "groups", max_groups_));
    }
  }
  groups_.push_back(std::make_unique<follow_group>(std::string(name), pack_, arl_, replay_));
  by_name_.emplace(std::string(name), groups_.size() - 1);
  return *groups_.back();
}

std::string follow_group_set::serialize() const {
  if (!grouped_) return groups_.empty() ? std::string("{}") : group_state(*groups_.front());
  // The compact dump of {"format", "groups": [{"group", "state"}, ...]}, each group's state
  // spliced in as stream_state wrote it (a parse and a dump less per group and save).
  std::string text = "{\"format\":" + nlohmann::ordered_json(kGroupsFormat).dump() + ",\"groups\":[";
  for (std::size_t i = 0; i < groups_.size(); ++i) {
    const follow_group& g = *groups_[i];
    if (i > 0) text += ',';
    text += "{\"group\":" + nlohmann::ordered_json(g.name).dump() + ",\"state\":";
    text += group_state(g);
    text += '}';
  }
  text += "]}";
  return text;
}

std::vector<std::string> follow_group_set::deserialize(std::string_view json_text) {
  const nlohmann::json j = nlohmann::json::parse(json_text, nullptr, false);
  // What the file is, before what it holds: a file that is not a monitor's state at all (or is
  // damaged) is said to be so, whichever of the two kinds this run expects.
  if (j.is_discarded()) throw error("state file: not JSON: not a state file of shufl audit --follow, or a damaged one");
  if (!j.is_object()) throw error("state file: not a JSON object: not a state file of shufl audit --follow");
  const nlohmann::json format = j.value("format", nlohmann::json(""));
  const bool has_groups = format == kGroupsFormat;
  if (!has_groups && format != kStreamFormat) {
    throw error(format.is_string() && !format.get<std::string>().empty()
                    ? fmt::format("state file: its format is {}, not a state file of shufl audit --follow", format.dump())
                    : std::string("state file: no 'format' in it: not a state file of shufl audit --follow"));
  }
  if (has_groups && !grouped_) {
    throw error("state file: it holds the groups of a monitor run with --group-by: give --group-by as then");
  }
  std::vector<std::string> alarmed;
  try {
    if (!grouped_) {
      follow_group& g = get({});
      if (restore_one(g, j)) alarmed.push_back(g.name);
      return alarmed;
    }
    if (!has_groups) throw error("state file: written by a monitor without --group-by: drop --group-by, or start a new state");
    const auto& list = j.at("groups");
    if (!list.is_array()) throw error("state file: 'groups' is not a list");
    if (list.size() > max_groups_) {
      throw error(fmt::format("state file: {} groups, more than --max-groups {}", list.size(), max_groups_));
    }
    for (const auto& item : list) {
      if (!item.is_object() || !item.contains("group") || !item["group"].is_string() || !item.contains("state")) {
        throw error("state file: a group without its name or state");
      }
      const std::string name = item["group"].get<std::string>();
      if (name.empty() || name.size() > max_group_bytes) throw error("state file: a group name is empty or too long");
      if (by_name_.count(name) != 0) throw error(fmt::format("state file: group {} appears twice", nlohmann::json(name).dump()));
      follow_group& g = get(name);
      if (restore_one(g, item["state"])) alarmed.push_back(name);
    }
  } catch (const nlohmann::json::exception&) {
    throw error("state file: the groups' part is malformed");
  }
  return alarmed;
}

}  // namespace shufl::audit
