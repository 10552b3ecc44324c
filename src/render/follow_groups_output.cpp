// The grouped monitor's metrics (follow_groups_output.hpp).
#include "render/follow_groups_output.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>

#include "render/audit_groups_output.hpp"
#include "render/follow_output.hpp"

namespace shufl::render {

namespace {

// A label value as the text format wants it: backslash, double quote and newline escaped.
std::string label_value(const std::string& v) {
  std::string out;
  for (const char c : v) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  return fmt::format("{}", v);
}

}  // namespace

std::string follow_group_metrics_text(const std::vector<audit::follow_group_record>& groups, double log10_threshold) {
  std::string m;
  const auto metric = [&m](const char* name, const char* type, const char* help) {
    m += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
  };
  const auto each = [&](const char* name, auto value) {
    for (const auto& g : groups) m += fmt::format("{}{{group=\"{}\"}} {}\n", name, label_value(g.name), value(g));
  };
  metric("shufl_audit_decks_total", "counter", "Decks added to the group's e-process (restored states included).");
  each("shufl_audit_decks_total", [](const audit::follow_group_record& g) { return fmt::format("{}", g.decks); });
  metric("shufl_audit_last_deck_timestamp_seconds", "gauge", "When the group's last deck was read (Unix time; 0: none in this run).");
  each("shufl_audit_last_deck_timestamp_seconds", [](const audit::follow_group_record& g) {
    const auto s = std::chrono::duration_cast<std::chrono::seconds>(g.last_deck.time_since_epoch()).count();
    return fmt::format("{}", static_cast<long long>(s));
  });
  metric("shufl_audit_detector_log10_m", "gauge", "log10 of the group's change detector statistic M (Shiryaev-Roberts).");
  each("shufl_audit_detector_log10_m", [](const audit::follow_group_record& g) { return number(g.log10_m); });
  metric("shufl_audit_detector_threshold_log10_m", "gauge",
         "log10 of the detectors' threshold A: the average run length to a false alarm is at least A decks of the whole log.");
  m += fmt::format("shufl_audit_detector_threshold_log10_m {}\n", number(log10_threshold));
  metric("shufl_audit_alarms_total", "counter", "Alarms of the group's change detector in this run.");
  each("shufl_audit_alarms_total", [](const audit::follow_group_record& g) { return fmt::format("{}", g.alarms); });
  metric("shufl_audit_alarm", "gauge", "1 once the group's change detector has alarmed in this run, else 0.");
  each("shufl_audit_alarm", [](const audit::follow_group_record& g) { return std::string(g.alarm ? "1" : "0"); });
  return m;
}

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
