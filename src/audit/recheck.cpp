// Recomputing a report (audit/recheck.hpp).
#include "shufl/audit/recheck.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "shufl/audit/deck_file.hpp"
#include "shufl/audit/tally.hpp"
#include "shufl/deck.hpp"
#include "shufl/error.hpp"
#include "shufl/text_input.hpp"

namespace shufl::audit {

namespace {

using json = nlohmann::ordered_json;

std::string shown(const json& v) {
  std::string s = v.dump();
  return s.size() > 80 ? s.substr(0, 77) + "..." : s;
}

void compare(const json& page, const json& now, const std::string& path, std::vector<std::string>& out, std::size_t max) {
  if (out.size() >= max) return;
  const auto differ = [&] { out.push_back(fmt::format("{}: page {}, recomputed {}", path, shown(page), shown(now))); };
  if (page.is_number() && now.is_number()) {
    if (page.is_number_float() || now.is_number_float()) {
      const double a = page.get<double>(), b = now.get<double>();
      if (!(std::fabs(a - b) <= 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)}))) differ();
    } else if (page != now) {
      differ();
    }
  } else if (page.type() != now.type()) {
    differ();
  } else if (page.is_object()) {
    for (const auto& [key, value] : page.items()) {
      if (!now.contains(key)) out.push_back(fmt::format("{}.{}: not in the recomputed report", path, key));
      else compare(value, now[key], path + "." + key, out, max);
    }
    for (const auto& [key, value] : now.items()) {
      if (!page.contains(key)) out.push_back(fmt::format("{}.{}: not on the page", path, key));
    }
  } else if (page.is_array()) {
    if (page.size() != now.size()) {
      out.push_back(fmt::format("{}: {} entries on the page, {} recomputed", path, page.size(), now.size()));
      return;
    }
    for (std::size_t i = 0; i < page.size(); ++i) compare(page[i], now[i], fmt::format("{}[{}]", path, i), out, max);
  } else if (page != now) {
    differ();
  }
}

}  // namespace

json parse_report_data(std::string_view text) {
  try {
    json docs = json::parse(text);
    if (docs.is_array()) return docs;
  } catch (const nlohmann::json::exception&) {
  }
  throw error("the page's audit data is not JSON");
}

report_settings settings_of_report(const json& doc) {
  if (!doc.contains("settings")) {
    throw error("the page's audit data has no settings (a page from before shufl 0.2.0 recorded them): it cannot be "
                "recomputed");
  }
  try {
    report_settings s;
    const json& pack = doc.at("pack");
    const json& set = doc.at("settings");
    const std::string name = pack.at("name").get<std::string>();
    s.reader.decks = pack.at("decks").get<std::uint64_t>();
    s.reader.jokers = pack.at("jokers").get<std::uint64_t>();
    if (name == "custom") {
      for (const json& label : set.at("labels")) {
        if (!label.is_string()) throw error("the page's custom pack has a label that is not text; it cannot be recomputed");
        s.reader.custom_labels.push_back(label.get<std::string>());
      }
      if (s.reader.custom_labels.empty()) throw error("the page's custom pack has no cards");
    } else {
      s.reader.pack = parse_pack(name);
    }
    if (!pack.at("dealt").is_null()) s.reader.dealt = pack.at("dealt").get<std::size_t>();
    s.reader.skip_bad = doc.at("skipped").get<std::uint64_t>() > 0;
    s.options.alpha = doc.at("alpha").get<double>();
    s.options.lags = set.at("lags").get<std::size_t>();
    if (!set.at("game").is_null()) {
      const std::string game = set.at("game").get<std::string>();
      if (game != "poker" && game != "blackjack") throw error(fmt::format("the page names an unknown game '{}'", game));
      s.options.game.game = game == "poker" ? game_kind::poker : game_kind::blackjack;
      s.options.game.hands = set.at("deal").at("hands").get<std::size_t>();
      s.options.game.cards = set.at("deal").at("cards").get<std::size_t>();
    }
    return s;
  } catch (const nlohmann::json::exception&) {
    throw error("the page's audit data lacks the settings of its audit");
  }
}

std::vector<std::string> report_differences(const json& page, const json& now, std::size_t max) {
  std::vector<std::string> out;
  compare(page, now, "audit", out, max);
  return out;
}

json recheckable_document(std::string_view data) {
  const json docs = parse_report_data(data);
  if (docs.size() != 1 || !docs[0].contains("input") || !docs[0]["input"].contains("sha256")) {
    throw error("only the page of one deck file can be recomputed");
  }
  return docs[0];
}

recheck_run recheck_deck_file(const json& doc, const std::string& file, unsigned threads) {
  const report_settings s = settings_of_report(doc);
  audit_options options = s.options;
  options.threads = threads;
  const auto opened = deck_file::open(file);
  if (!opened) throw error(fmt::format("'{}': give the deck file itself (a regular file)", file));
  auto [tally, sha] = tally_deck_file(*opened, {0, opened->size()}, input_display_name(file), s.reader, options);
  recheck_run run;
  run.report = report_of(tally, options.alpha, options.threads);
  run.pack = std::move(tally.pack);
  run.sha256 = std::move(sha);
  run.bytes = opened->size();
  return run;
}

}  // namespace shufl::audit
