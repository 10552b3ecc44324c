// The outputs of `shufl audit --follow` (follow_output.hpp).
#include "render/follow_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>

#include "render/text_escape.hpp"
#include "shufl/json_text.hpp"
#include "shufl/permutation.hpp"

namespace shufl::render {

namespace {

// p as the status shows it: 4 significant digits, then scientific, then from log10 when the
// double underflows.
std::string format_p(double p, double max_log10) {
  if (p >= 1e-4) return fmt::format("{:.4g}", p);
  if (p > 0) return fmt::format("{:.2e}", p);
  return scientific_from_log10(-max_log10);
}

// A number for the Prometheus text format (Go's ParseFloat reads these; +Inf/-Inf spelled so).
std::string prom_number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  return fmt::format("{}", v);
}

// "1 deck", "2 decks".
std::string decks_word(std::uint64_t n) { return fmt::format("{} {}", n, n == 1 ? "deck" : "decks"); }

// The detector's threshold A as the status states it: 10^k when it is one, else 6 digits.
std::string arl_text(double arl) {
  const double k = std::round(std::log10(arl));
  if (k >= 1 && k <= 300 && std::pow(10.0, k) == arl) return fmt::format("10^{}", static_cast<int>(k));
  return fmt::format("{:.6g}", arl);
}

// "group NAME  " before a grouped status (the name with control characters escaped).
std::string group_prefix(const audit::follow_status& f) {
  return f.grouped ? fmt::format("group {}  ", escape_controls(f.group)) : std::string();
}

}  // namespace

std::string follow_time_text(std::chrono::system_clock::time_point t) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm utc{};
  ::gmtime_r(&seconds, &utc);
  char buffer[32];
  const std::size_t n = std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return std::string(buffer, n);
}

std::string follow_status_text(const audit::follow_status& f) {
  const auto& s = f.e;
  std::string out = group_prefix(f) + fmt::format("decks {}  log10 e:", s.decks);
  for (const auto& [predictor, value] : s.log10_e) out += fmt::format(" {} {:.2f}", predictor, value);
  out += fmt::format("  mixture {:.2f}  p {}  leader {}  detector log10 M {:.2f} (alarm at {:.2f}: ARL >= {} decks)  leader {}\n",
                     s.log10_mixture, format_p(s.anytime_p, s.max_log10_mixture), s.leader, f.detector.log10_m,
                     f.detector.log10_threshold, arl_text(f.arl), f.detector.leader);
  return out;
}

nlohmann::ordered_json follow_status_json(const audit::follow_status& f, const char* type) {
  const auto& s = f.e;
  nlohmann::ordered_json j;
  j["type"] = type;
  j["group"] = f.grouped ? json_text<nlohmann::ordered_json>(f.group) : nlohmann::ordered_json(nullptr);
  j["decks"] = s.decks;
  j["decks_this_run"] = f.decks_this_run;
  nlohmann::ordered_json e = nlohmann::ordered_json::object();
  for (const auto& [predictor, value] : s.log10_e) e[predictor] = value;
  j["log10_e"] = std::move(e);
  j["log10_e_mixture"] = s.log10_mixture;
  j["max_log10_e_mixture"] = s.max_log10_mixture;
  j["anytime_p"] = s.anytime_p;
  j["log10_anytime_p"] = std::min(0.0, -s.max_log10_mixture);
  j["leader"] = s.leader;
  j["evidence"] = s.evidence;
  j["alpha"] = f.alpha;
  j["log10_m"] = f.detector.log10_m;
  j["threshold_log10_m"] = f.detector.log10_threshold;
  j["arl"] = f.arl;
  j["detector_decks"] = f.detector.decks;
  j["detector_leader"] = f.detector.leader;
  j["detector_evidence"] = f.detector.evidence;
  j["alarm"] = f.alarm;
  j["alarms"] = f.alarms;
  return j;
}

std::string follow_alarm_text(const audit::follow_status& f) {
  const auto& s = f.e;
  return escape_controls(fmt::format(
             "{}ALARM after {}: the change detector reached 10^{:.2f} >= 10^{:.2f} (ARL >= {} decks) after {} of "
             "its own; leader {}: {}; since the start: mixture 10^{:.2f}, anytime p {}",
             f.grouped ? fmt::format("group {}: ", f.group) : std::string(), decks_word(s.decks), f.detector.log10_m, f.detector.log10_threshold, arl_text(f.arl),
             decks_word(f.detector.decks), f.detector.leader, f.detector.evidence, s.log10_mixture,
             format_p(s.anytime_p, s.max_log10_mixture))) +
         "\n";
}

nlohmann::ordered_json follow_alarm_json(const audit::follow_status& f, const std::string& input) {
  nlohmann::ordered_json j = follow_status_json(f, "alarm");
  j["input"] = json_text<nlohmann::ordered_json>(input);
  j["time"] = follow_time_text(f.time);
  j["line"] = f.line;
  return j;
}

std::string follow_final_text(const audit::follow_status& s, const std::string& reason) {
  return fmt::format("final ({}): {}", reason, follow_status_text(s));
}

std::string follow_metrics_text(const audit::follow_status& f) {
  const auto& s = f.e;
  std::string m;
  const auto metric = [&m](const char* name, const char* type, const char* help) {
    m += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
  };
  metric("shufl_audit_decks_total", "counter", "Decks added to the monitor's e-process (restored states included).");
  m += fmt::format("shufl_audit_decks_total {}\n", s.decks);
  metric("shufl_audit_log10_e", "gauge", "log10 of the e-value of each predictor and of their mixture.");
  for (const auto& [predictor, value] : s.log10_e) {
    m += fmt::format("shufl_audit_log10_e{{predictor=\"{}\"}} {}\n", predictor, prom_number(value));
  }
  m += fmt::format("shufl_audit_log10_e{{predictor=\"mixture\"}} {}\n", prom_number(s.log10_mixture));
  metric("shufl_audit_max_log10_e_mixture", "gauge", "Largest log10 e-value of the mixture after any deck so far.");
  m += fmt::format("shufl_audit_max_log10_e_mixture {}\n", prom_number(s.max_log10_mixture));
  metric("shufl_audit_anytime_p", "gauge", "Anytime-valid p-value, min(1, 1/max e-value of the mixture).");
  m += fmt::format("shufl_audit_anytime_p {}\n", prom_number(s.anytime_p));
  metric("shufl_audit_detector_log10_m", "gauge", "log10 of the change detector's Shiryaev-Roberts statistic M.");
  m += fmt::format("shufl_audit_detector_log10_m {}\n", prom_number(f.detector.log10_m));
  metric("shufl_audit_detector_threshold_log10_m", "gauge",
         "log10 of the detector's threshold A: the average run length to a false alarm is at least A decks.");
  m += fmt::format("shufl_audit_detector_threshold_log10_m {}\n", prom_number(f.detector.log10_threshold));
  metric("shufl_audit_alarms_total", "counter", "Alarms of the change detector in this run.");
  m += fmt::format("shufl_audit_alarms_total {}\n", f.alarms);
  metric("shufl_audit_alarm", "gauge", "1 once the change detector has alarmed in this run, else 0.");
  m += fmt::format("shufl_audit_alarm {}\n", f.alarm ? 1 : 0);
  return m;
}

std::string follow_note_text(audit::follow_note kind, const std::string& text, std::uint64_t lines,
                             const std::string& input, const std::string& state) {
  switch (kind) {
    case audit::follow_note::inferred_pack:
      return fmt::format("shufl {}\n", text);
    case audit::follow_note::new_state:
      return fmt::format("shufl audit: {} does not exist yet: a new e-process starts\n", quote(state));
    case audit::follow_note::resuming:
      return fmt::format("shufl audit: {}: its first {} lines are in the state already: resuming after them\n",
                         quote(input), lines);
    case audit::follow_note::restored_alarm:
      return fmt::format("shufl audit: {} holds an alarm{}: it is given again (--reset-alarm re-arms the detector)\n",
                         quote(state), text.empty() ? std::string() : " of group " + escape_controls(text));
    case audit::follow_note::alarm_reset:
      return fmt::format("shufl audit: {} held an alarm{}: reset, the detector starts again from 0\n", quote(state),
                         text.empty() ? std::string() : " of group " + escape_controls(text));
    case audit::follow_note::other_input:
      return fmt::format("shufl audit: the state's decks came from another input than {}: it is read from its start\n",
                         quote(input));
  }
  return {};
}

}  // namespace shufl::render
