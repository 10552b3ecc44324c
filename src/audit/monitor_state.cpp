// The --state document's outer layer (audit/monitor_state.hpp).
#include "shufl/audit/monitor_state.hpp"

#include <sodium.h>

#include <charconv>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "shufl/error.hpp"
#include "shufl/text_input.hpp"

namespace shufl::audit {

std::uint64_t deck_hash(std::span<const std::uint32_t> faces, std::string_view group) {
  static const unsigned char key[crypto_shorthash_KEYBYTES] = {'s', 'h', 'u', 'f', 'l', ' ', 'o', 'v',
                                                               'e', 'r', 'l', 'a', 'p', ' ', 'k', 'y'};
  std::string bytes(reinterpret_cast<const char*>(faces.data()), faces.size() * sizeof(std::uint32_t));
  bytes += group;
  static const bool sodium_ready = sodium_init() >= 0;
  if (!sodium_ready) throw error("libsodium failed to initialise");
  unsigned char out[crypto_shorthash_BYTES];
  crypto_shorthash(out, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), key);
  std::uint64_t h = 0;
  for (int i = 0; i < 8; ++i) h = (h << 8) | out[i];
  return h;
}

std::string stream_state(const e_process& e, const change_detector& detector, bool alarm) {
  // Both serializers write compact JSON objects (e-process without "detector" or "alarm"):
  // spliced as the dump of the merged object would write them, without a parse and a dump of
  // every group at every save.
  std::string text = e.serialize();
  std::string det = detector.serialize();
  if (text.size() < 2 || text.back() != '}' || det.empty() || det.front() != '{') {
    auto j = nlohmann::ordered_json::parse(text);
    j["detector"] = nlohmann::ordered_json::parse(det);
    j["alarm"] = alarm;
    return j.dump();
  }
  text.pop_back();
  if (text.size() > 1) text += ',';
  text += "\"detector\":";
  text += det;
  text += alarm ? ",\"alarm\":true}" : ",\"alarm\":false}";
  return text;
}

stream_state_parts split_stream_state(std::string_view object) {
  nlohmann::json j = nlohmann::json::parse(object, nullptr, false);
  if (j.is_discarded()) throw error("state file: not JSON");
  if (!j.is_object()) throw error("state file: not a JSON object");
  // A --group-by document, or JSON that is no monitor's, named as such (not "older").
  if (j.contains("groups") && j.value("format", nlohmann::json()) == "shufl audit follow groups") {
    throw error("state file: it holds the groups of a monitor run with --group-by, not one stream's state");
  }
  if (!j.contains("detector") && !j.contains("predictors")) {
    throw error("state file: not a state of shufl audit --follow (no e-process or change detector in it)");
  }
  if (!j.contains("detector")) throw error("state file: no change detector in it (written by an older monitor)");
  if (!j.value("alarm", nlohmann::json(false)).is_boolean()) throw error("state file: 'alarm' is not true or false");
  stream_state_parts parts;
  parts.alarm = j.value("alarm", false);
  parts.detector = j["detector"].dump();
  j.erase("detector");
  j.erase("alarm");
  parts.e_process = j.dump();
  return parts;
}

std::string write_monitor_state(std::string_view groups_state, const monitor_records& records) {
  // The records appended to the compact object as its dump would (no parse of a state that
  // holds every group: a status of one group of many rewrites them all).
  nlohmann::ordered_json input = {{"id", records.input_id}, {"lines", records.lines}};
  std::string text;
  const bool appendable = groups_state.size() >= 2 && groups_state.front() == '{' && groups_state.back() == '}' &&
                          groups_state.find("\"follow_input\":") == std::string_view::npos &&
                          groups_state.find("\"recent_decks\":") == std::string_view::npos;
  if (!appendable) {
    auto j = nlohmann::ordered_json::parse(groups_state);
    j["follow_input"] = std::move(input);
    nlohmann::ordered_json recent = nlohmann::ordered_json::array();
    for (const std::uint64_t h : records.recent) recent.push_back(fmt::format("{:016x}", h));
    j["recent_decks"] = std::move(recent);
    return j.dump() + "\n";
  }
  text.reserve(groups_state.size() + 64 + 19 * records.recent.size());
  text.append(groups_state.substr(0, groups_state.size() - 1));
  if (groups_state.size() > 2) text += ',';
  text += "\"follow_input\":";
  text += input.dump();
  text += ",\"recent_decks\":[";
  bool first = true;
  for (const std::uint64_t h : records.recent) {
    text += fmt::format("{}\"{:016x}\"", first ? "" : ",", h);
    first = false;
  }
  text += "]}\n";
  return text;
}

std::string write_monitor_state(const e_process& e, const change_detector& detector, bool alarm,
                                const monitor_records& records) {
  return write_monitor_state(stream_state(e, detector, alarm), records);
}

monitor_document read_monitor_document(const std::string& bytes, std::size_t max_recent) {
  monitor_document doc;
  // What the file is, first: bytes that are not UTF-8 text are no state (binary garbage, another
  // program's file), said so before the reader's own words (the line and column of the bad byte).
  const std::string_view text = check_text(bytes, "state file: not a state file of shufl audit --follow, or a damaged one");
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object()) {
    doc.groups_state = std::string(text);
    return doc;
  }
  if (j.contains("follow_input")) {
    const auto f = j["follow_input"];
    if (!f.is_object() || !f.value("id", nlohmann::json("")).is_string() ||
        !f.value("lines", nlohmann::json(0u)).is_number_unsigned())
      throw error("state file: 'follow_input' is malformed");
    doc.has_input = true;
    doc.records.input_id = f.value("id", std::string());
    doc.records.lines = f.value("lines", std::uint64_t{0});
    j.erase("follow_input");
  }
  if (j.contains("recent_decks")) {
    const auto& recent = j["recent_decks"];
    if (!recent.is_array() || recent.size() > (std::size_t{1} << 20))
      throw error("state file: 'recent_decks' is malformed");
    for (const auto& h : recent) {
      const std::string hex = h.is_string() ? h.get<std::string>() : std::string();
      std::uint64_t v = 0;
      const auto [end, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), v, 16);
      if (hex.size() != 16 || ec != std::errc() || end != hex.data() + hex.size())
        throw error("state file: 'recent_decks' is malformed");
      doc.records.recent.push_back(v);
    }
    while (doc.records.recent.size() > max_recent) doc.records.recent.pop_front();
    j.erase("recent_decks");
  }
  doc.groups_state = j.dump();
  return doc;
}

monitor_state_parts read_monitor_state(const std::string& text, std::size_t max_recent) {
  monitor_document doc = read_monitor_document(text, max_recent);
  stream_state_parts one = split_stream_state(doc.groups_state);
  monitor_state_parts parts;
  parts.e_process = std::move(one.e_process);
  parts.detector = std::move(one.detector);
  parts.alarm = one.alarm;
  parts.records = std::move(doc.records);
  return parts;
}

}  // namespace shufl::audit
