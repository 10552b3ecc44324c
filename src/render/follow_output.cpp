// The outputs of `shufl audit --follow` (follow_output.hpp).
#include "render/follow_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>

#include "render/audit_output.hpp"
#include "render/text_escape.hpp"
#include "shufl/text_input.hpp"
#include "shufl/error.hpp"
#include "shufl/io/side_file.hpp"
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

// The body of a status line (without the time).
std::string status_body(const audit::follow_status& f) {
  const auto& s = f.e;
  std::string out = group_prefix(f) + fmt::format("decks {}  log10 e:", s.decks);
  for (const auto& [predictor, value] : s.log10_e) out += fmt::format(" {} {:.2f}", predictor, value);
  out += fmt::format("  mixture {:.2f}  p {}  leader {}  detector log10 M {:.2f} (alarm at {:.2f}: ARL >= {} decks)  leader {}\n",
                     s.log10_mixture, format_p(s.anytime_p, s.max_log10_mixture), s.leader, f.detector.log10_m,
                     f.detector.log10_threshold, arl_text(f.arl), f.detector.leader);
  return out;
}

// A Prometheus label value: backslash, double quote and newline escaped.
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

}  // namespace

std::pair<std::string, std::string> parse_metrics_label(const std::string& text) {
  const auto eq = text.find('=');
  const std::string name = text.substr(0, eq);
  bool ok = eq != std::string::npos && !name.empty() && !(name[0] >= '0' && name[0] <= '9') && name.rfind("__", 0) != 0;
  for (const char c : name)
    ok = ok && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_');
  if (!ok)
    throw error(fmt::format("--metrics-label must be NAME=VALUE with NAME of letters, digits and _ (not a digit or __ first), not {}",
                            quote(text)));
  for (const char* own : {"group", "predictor", "version", "pack", "arl"})
    if (name == own) throw error(fmt::format("--metrics-label: the monitor sets the label '{}' itself", own));
  return {name, text.substr(eq + 1)};
}

std::vector<std::pair<std::string, std::string>> parse_metrics_labels(const std::vector<std::string>& texts) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& text : texts) {
    auto pair = parse_metrics_label(text);
    for (const auto& [k, v] : out)
      if (k == pair.first) throw error(fmt::format("--metrics-label: '{}' given twice", k));
    out.push_back(std::move(pair));
  }
  return out;
}

std::string rfc3339_utc(double seconds) {
  const double whole = std::floor(seconds);
  const std::time_t t = static_cast<std::time_t>(whole);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  const int ms = std::min(999, static_cast<int>((seconds - whole) * 1000));
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                     tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
}

std::string follow_status_text(const audit::follow_status& f) { return rfc3339_utc(f.time) + " " + status_body(f); }

nlohmann::ordered_json follow_status_json(const audit::follow_status& f, const char* type) {
  const auto& s = f.e;
  nlohmann::ordered_json j;
  j["type"] = type;
  j["time"] = rfc3339_utc(f.time);
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
  return rfc3339_utc(f.time) + " " + escape_controls(fmt::format(
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
  j["line"] = f.line;  // `time` (when the alarm was raised) is every status's
  return j;
}

std::string follow_status_line(const audit::follow_status& s, bool json) {
  return json ? follow_status_json(s, "status").dump() + "\n" : follow_status_text(s);
}

follow_alarm_lines follow_alarm_output(const audit::follow_status& s, const std::string& input, bool json) {
  follow_alarm_lines out;
  out.hook = follow_alarm_json(s, input).dump() + "\n";
  out.line = json ? out.hook : follow_alarm_text(s);
  return out;
}

std::string follow_end_reason(const audit::follow_final& f) {
  return f.end == audit::follow_end::end_of_input ? "end of input"
         : f.end == audit::follow_end::alarm      ? "alarm"
                                                  : io::signal_name(f.stop_signal);
}

std::string follow_final_text(const audit::follow_status& s, const std::string& reason) {
  return fmt::format("{} final ({}): {}", rfc3339_utc(s.time), reason, status_body(s));
}

std::string follow_metrics_text(const follow_metrics_info& info, const std::vector<audit::follow_group_record>& groups,
                               std::uint64_t skipped_lines, double now) {
  std::string base;  // the --metrics-label pairs, on every series
  for (const auto& [k, v] : info.labels) base += fmt::format("{}{}=\"{}\"", base.empty() ? "" : ",", k, label_value(v));
  const auto labels = [&base](const std::string& more) {
    if (base.empty() && more.empty()) return std::string();
    return "{" + base + (base.empty() || more.empty() ? "" : ",") + more + "}";
  };
  const auto group = [](const audit::follow_group_record& g) { return fmt::format("group=\"{}\"", label_value(g.name)); };
  std::string m;
  // HELP texts are constants: node_exporter refuses one metric with two texts across files.
  const auto family = [&m](const char* name, const char* type, const char* help) {
    m += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
  };
  const auto per_group = [&](const char* name, const char* type, const char* help, auto value) {
    family(name, type, help);
    for (const auto& g : groups) m += fmt::format("{}{} {}\n", name, labels(group(g)), value(g));
  };
  family("shufl_audit_info", "gauge", "The monitor's version, pack and detector threshold (ARL, decks) as labels; always 1.");
  m += fmt::format("shufl_audit_info{} 1\n",
                   labels(fmt::format("version=\"{}\",pack=\"{}\",arl=\"{}\"", label_value(info.version),
                                      label_value(info.pack), prom_number(info.arl))));
  family("shufl_audit_heartbeat_timestamp_seconds", "gauge",
         "When the monitor last wrote this file (Unix time); it does at least every --metrics-interval.");
  m += fmt::format("shufl_audit_heartbeat_timestamp_seconds{} {}\n", labels(""), prom_number(now));
  family("shufl_audit_skipped_lines_total", "counter",
         "Lines skipped as not decks (--skip-bad) in this run: a flood of them is junk written into the log.");
  m += fmt::format("shufl_audit_skipped_lines_total{} {}\n", labels(""), skipped_lines);
  per_group("shufl_audit_last_deck_timestamp_seconds", "gauge", "When the group's last deck was read (Unix time; 0: none yet).",
            [](const auto& g) { return prom_number(g.last_deck_time); });
  per_group("shufl_audit_decks_total", "counter", "Decks added to the monitor's e-process (restored states included).",
            [](const auto& g) { return fmt::format("{}", g.status.e.decks); });
  family("shufl_audit_log10_e", "gauge", "log10 of the e-value of each predictor and of their mixture.");
  for (const auto& g : groups) {
    for (const auto& [predictor, value] : g.status.e.log10_e)
      m += fmt::format("shufl_audit_log10_e{} {}\n", labels(group(g) + fmt::format(",predictor=\"{}\"", predictor)),
                       prom_number(value));
    m += fmt::format("shufl_audit_log10_e{} {}\n", labels(group(g) + ",predictor=\"mixture\""),
                     prom_number(g.status.e.log10_mixture));
  }
  per_group("shufl_audit_max_log10_e_mixture", "gauge", "Largest log10 e-value of the mixture after any deck so far.",
            [](const auto& g) { return prom_number(g.status.e.max_log10_mixture); });
  per_group("shufl_audit_anytime_p", "gauge", "Anytime-valid p-value, min(1, 1/max e-value of the mixture).",
            [](const auto& g) { return prom_number(g.status.e.anytime_p); });
  per_group("shufl_audit_detector_log10_statistic", "gauge", "log10 of the change detector's Shiryaev-Roberts statistic M.",
            [](const auto& g) { return prom_number(g.status.detector.log10_m); });
  per_group("shufl_audit_detector_log10_threshold", "gauge",
            "log10 of the detector's threshold A: the average run length to a false alarm is at least A decks.",
            [](const auto& g) { return prom_number(g.status.detector.log10_threshold); });
  per_group("shufl_audit_alarms_total", "counter", "Alarms of the change detector in this run.",
            [](const auto& g) { return fmt::format("{}", g.status.alarms); });
  per_group("shufl_audit_alarm", "gauge", "1 once the change detector has alarmed in this run, else 0.",
            [](const auto& g) { return std::string(g.status.alarm ? "1" : "0"); });
  return m;
}

std::string follow_note_text(audit::follow_note kind, const std::string& text, std::uint64_t lines,
                             const std::string& input_path, const std::string& state) {
  // The input as a note names it: "standard input" for "-", else the quoted path.
  const std::string input = input_path == "-" ? std::string("standard input") : quote(input_path);
  switch (kind) {
    case audit::follow_note::inferred_pack:
      return fmt::format("shufl {}\n", text);
    case audit::follow_note::new_state:
      return fmt::format("shufl audit: {} does not exist yet: a new e-process starts\n", quote(state));
    case audit::follow_note::resuming:
      return lines == 1 ? fmt::format("shufl audit: {}: its first line is in the state already: resuming after it\n", input)
                        : fmt::format("shufl audit: {}: its first {} lines are in the state already: resuming after them\n",
                                      input, lines);
    case audit::follow_note::restored_alarm:
      return fmt::format("shufl audit: {} holds an alarm{}: it is given again (--reset-alarm re-arms the detector)\n",
                         quote(state), text.empty() ? std::string() : " of group " + escape_controls(text));
    case audit::follow_note::alarm_reset:
      return fmt::format("shufl audit: {} held an alarm{}: reset, the detector starts again from 0\n", quote(state),
                         text.empty() ? std::string() : " of group " + escape_controls(text));
    case audit::follow_note::overlap_skipped:
      return lines == 1 ? fmt::format("shufl audit: the first deck of {} is the last deck in {}: skipped\n", input, quote(state))
                        : fmt::format("shufl audit: the first {} decks of {} are the last decks in {}: skipped\n", lines,
                                      input, quote(state));
    case audit::follow_note::truncated:
      return fmt::format("shufl audit: {} was truncated: reading it from its start\n", input);
    case audit::follow_note::rotated:
      return fmt::format("shufl audit: {} names a new file (rotated): reading it from its start\n", input);
    case audit::follow_note::reopened:
      return fmt::format("shufl audit: SIGHUP: reopened {}: a new file, read from its start\n", input);
    case audit::follow_note::reopen_same:
      return fmt::format("shufl audit: SIGHUP: {} is still the same file: reading goes on\n", input);
    case audit::follow_note::reopen_not_a_file:
      return fmt::format("shufl audit: SIGHUP: {} is not a file to reopen: reading goes on\n", input);
    case audit::follow_note::cut_line:
      return fmt::format("shufl audit: {}: line {}, the last before the file was rotated or truncated, had no newline: "
                         "read as a line of its own\n",
                         input, lines);
    case audit::follow_note::other_input:
      return fmt::format("shufl audit: the state's decks came from another input than {}: it is read from its start\n",
                         input);
  }
  return {};
}

std::string follow_final_output(const audit::follow_final& f, const std::string& reason, const std::string& input,
                                bool json) {
  audit_input in;
  in.sha256 = f.sha256;
  in.bytes = f.bytes;
  if (json) {
    in.name = input;
    nlohmann::ordered_json j = follow_status_json(f.status, "final");
    j["reason"] = reason;
    j["report"] = f.report ? audit_json_report(*f.report, in, *f.pack) : nlohmann::ordered_json(nullptr);
    return j.dump() + "\n";
  }
  in.name = input_display_name(input);
  std::string out = follow_final_text(f.status, reason);
  if (!f.report) return out.append("no decks in this run: no battery report\n");
  out += '\n';
  return out.append(audit_text_report(*f.report, in));
}

}  // namespace shufl::render
