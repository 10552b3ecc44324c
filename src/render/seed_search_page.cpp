// The seed search on the audit page (see seed_search_output.hpp): made from the JSON object
// "seed_search" the page also embeds, so the page and the data say the same.
#include <fmt/format.h>

#include <string>

#include "render/seed_search_output.hpp"
#include "text_escape.hpp"

namespace shufl::render {

namespace {

std::string row(const std::string& name, const std::string& value_html) {
  return fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", xml_escape(name), value_html);
}

std::string text_of(const nlohmann::ordered_json& j) { return j.is_string() ? j.get<std::string>() : j.dump(); }

// E as the text report writes it: three significant digits, or 10^x when a double cannot hold it.
std::string e_text(const nlohmann::ordered_json& e) {
  const double v = e.value("value", 0.0);
  if (v >= 1e-300 && v <= 1e300) return fmt::format("{:.3g}", v);
  if (e.contains("log10") && e["log10"].is_number()) return fmt::format("10^{:.1f}", e["log10"].get<double>());
  return "0";
}

std::string cards_line(const nlohmann::ordered_json& cards) {
  std::string out;
  for (const auto& c : cards) {
    if (!out.empty()) out += ' ';
    out += c.is_string() ? c.get<std::string>() : std::string("??");
  }
  return out;
}

}  // namespace

std::string seed_search_page_result(const nlohmann::ordered_json& j, std::size_t k) {
  const std::string verdict = j["chance"].value("verdict", "not-found");
  const std::string word = verdict == "predictable" ? "predictable"
                           : verdict == "chance"    ? "consistent with chance"
                           : verdict == "undecided" ? "undecided"
                                                    : "not found";
  const std::string kind = verdict == "predictable" ? "fail" : verdict == "not-found" ? "pass" : "inconclusive";
  return fmt::format("<p class=\"overall {}\" id=\"seed-search-{}\">seed search: {}: {}, E = {} (at most {:g} to call "
                     "it predictable)</p>\n",
                     kind, k, word, xml_escape(text_of(j["family"])), e_text(j["chance"]["expected_chance_matches"]),
                     j["chance"].value("max_chance", 0.0));
}

std::string seed_search_page_section(const nlohmann::ordered_json& j, std::size_t k) {
  std::string out = fmt::format("<h3 id=\"seed-search-section-{}\">Seed search</h3>\n<table class=\"facts\">\n", k);
  out += row("family", "<code>" + xml_escape(text_of(j["family"])) + "</code>: " + xml_escape(text_of(j["definition"])));
  if (j["seeds"].is_object()) {
    const auto& s = j["seeds"];
    out += row("searched", xml_escape(fmt::format("seeds {} ({} seeds, {}), {}", text_of(s["range"]), text_of(s["count"]),
                                                  text_of(s["unit"]),
                                                  j.value("reseed", "") == "once" ? "seeded once" : "reseeded before every deal")));
  } else {
    out += row("searched", "the generator's 128-bit state, recovered from the cards (64 cache offsets, 2 ToDouble rules)");
  }
  std::size_t cards = 0;
  for (const auto& c : j["cards_logged"]) cards += c.get<std::size_t>();
  out += row("logged", xml_escape(fmt::format("{} deal{}, {} cards", j.value("deals", 0), j.value("deals", 0) == 1 ? "" : "s", cards)));
  const auto& c = j["chance"];
  out += row("E", xml_escape(fmt::format("{} matches expected by chance (from decks this family did not make); "
                                         "predictable needs E <= {:g}",
                                         e_text(c["expected_chance_matches"]), c.value("max_chance", 0.0))));
  out += row("verdict", xml_escape(text_of(c["verdict"])));
  if (j.contains("states") && !j["states"].empty()) {
    const auto& s = j["states"].front();
    out += row("state", xml_escape(fmt::format("state0 {}, state1 {}, cache offset {}, ToDouble {}{}", text_of(s["state0"]),
                                               text_of(s["state1"]), text_of(s["cache_offset"]), text_of(s["to_double"]),
                                               j["states"].size() > 1 ? fmt::format(" ({} states in all)", j["states"].size())
                                                                      : std::string())));
  } else if (j.contains("matches") && !j["matches"].empty()) {
    std::string seeds;
    for (const auto& m : j["matches"]) {
      if (!seeds.empty()) seeds += ", ";
      seeds += text_of(m["seed"]);
    }
    out += row("seeds found", xml_escape(seeds));
  }
  if (j.contains("predicted_next_deal") && j["predicted_next_deal"].is_array())
    out += row("predicted next deal", "<code>" + xml_escape(cards_line(j["predicted_next_deal"])) + "</code>");
  out += "</table>\n";
  out += fmt::format("<p>{}</p>\n", xml_escape(text_of(j["statement"])));
  return out;
}

}  // namespace shufl::render
