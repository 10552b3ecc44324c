// `shufl audit`'s text report and JSON document (audit_output.hpp).
#include "count_noun.hpp"
#include "audit_output.hpp"

#include <fmt/format.h>

#include <algorithm>

#include <cmath>

#include "text_escape.hpp"
#include "shufl/audit/coverage.hpp"
#include "shufl/error.hpp"
#include "shufl/json_text.hpp"
#include "shufl/text_input.hpp"
#include "shufl/permutation.hpp"
#include "shufl/version.hpp"

namespace shufl::render {

namespace {

nlohmann::ordered_json number_or_null(std::optional<double> v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

// A finite double for JSON (JSON has no infinities).
double finite(double v) { return std::isfinite(v) ? v : (v > 0 ? 1.7976931348623157e308 : -1.7976931348623157e308); }

}  // namespace

std::string audit_p_text(double p, double ln_p, bool bound) {
  std::string v;
  if (bound) {  // an upper bound: rounded up, never below what it bounds
    v = p >= 1e-4 ? fmt::format("{:.4f}", std::ceil(p * 1e4 - 1e-9) / 1e4)
                  : scientific_from_log10_up(ln_p / std::log(10.0));
  } else if (p >= 1e-4) {
    v = fmt::format("{:.4f}", p);
  } else if (p > 0 && ln_p > -700) {
    v = fmt::format("{:.2e}", p);
  } else {
    v = scientific_from_log10(ln_p / std::log(10.0));
  }
  return bound ? "<=" + v : v;
}

std::string tier_text(const audit::audit_report& r) {
  if (!r.tier) return {};
  const auto& t = *r.tier;
  return fmt::format("{}: {} decks{}, alpha {:g}, batches of {}, lags {}", t.name, t.decks,
                     r.tier_cut ? " (the first of a longer input; the rest not used)" : "", t.alpha, t.batch_size, t.lags);
}

std::string audit_statistic_text(double x) {
  if (x != 0 && (std::fabs(x) >= 1e7 || std::fabs(x) < 1e-3)) return fmt::format("{:.3e}", x);
  return fmt::format("{:.2f}", x);
}

// The text reports' one-line pointer to the plain meanings of their words.
constexpr const char* glossary_pointer =
    "words: p, Holm p, X2, z and df in plain terms: docs/glossary.md (share/doc/shufl/glossary.md when installed)\n";

std::string audit_text_report(const audit::audit_report& r, const audit_input& in) {
  std::string out;
  if (!in.merged.empty()) {
    std::string parts;
    for (const auto& p : in.parts) parts += (parts.empty() ? "" : ", ") + p;
    out += fmt::format("audit of {} (merged from {}): {} of a {}{}\n", escape_controls(parts),
                       count_noun(in.merged.size(), "counts file", "counts files"),
                       count_noun(r.decks, "deck", "decks"), r.pack_description,
                       r.positions < r.cards ? fmt::format(", first {} cards of each", r.positions) : std::string());
  } else if (in.generated) {
    out += fmt::format("audit of {}: {} of a {} ({}{})\n", in.algorithm, count_noun(r.decks, "deck", "decks"),
                       r.pack_description,
                       in.seed ? fmt::format("seed \"{}\", ", escape_controls(*in.seed)) : std::string("unseeded, "), in.engine);
  } else if (in.array) {
    out += fmt::format("audit of {}: {} of a {}{} (shape {}x{}, {})\n", escape_controls(in.array->name),
                       count_noun(r.decks, "deck", "decks"), r.pack_description,
                       r.positions < r.cards ? fmt::format(", first {} cards of each", r.positions) : std::string(),
                       in.array->rows, in.array->columns, escape_controls(in.array->dtype));
  } else {
    out += fmt::format("audit of {}: {} of a {}{} (sha256 {}, {})\n", escape_controls(in.name), count_noun(r.decks, "deck", "decks"),
                       r.pack_description,
                       r.positions < r.cards ? fmt::format(", first {} cards of each", r.positions) : std::string(),
                       in.sha256, count_noun(in.bytes, "byte", "bytes"));
  }
  for (const auto& [key, value] : in.meta) out += fmt::format("{}: {}\n", key, escape_controls(value));
  if (r.tier) out += "tier: " + tier_text(r) + "\n";
  if (r.skipped > 0) {
    out += fmt::format("skipped {} invalid deck{}", r.skipped, r.skipped == 1 ? "" : "s");
    out += r.skip_reasons.empty() ? "\n" : fmt::format(" (first: {})\n", r.skip_reasons.front());
  }
  out += fmt::format("{:<22} {:>9} {:>12} {:>7} {:>10} {:>10}  {}\n", "test", "decks", "statistic", "df", "p",
                     "Holm p", "result");
  std::string notes;
  for (const auto& t : r.tests) {
    const bool tested = t.result == audit::test_outcome::pass || t.result == audit::test_outcome::fail;
    const bool computed = tested || t.result == audit::test_outcome::not_valid;
    out += fmt::format("{:<22} {:>9} {:>12} {:>7} {:>10} {:>10}  {}\n", t.name, t.decks,
                       computed ? audit_statistic_text(t.statistic) : "-",
                       t.df ? fmt::format("{:.0f}", *t.df) : "-", computed ? audit_p_text(t.p, t.ln_p, t.p_bound) : "-",
                       t.holm_ln_p ? audit_p_text(std::exp(*t.holm_ln_p), *t.holm_ln_p, t.p_bound) : "-",
                       audit::outcome_name(t.result));
    if (!t.note.empty()) notes += fmt::format("  {}: {}\n", t.name, t.note);
  }
  if (!notes.empty()) out += "notes:\n" + notes;
  // A game test's hands by seat and class (the table its X² is computed from, before pooling).
  for (const auto& t : r.tests) {
    if (t.columns.empty() || t.table_columns != t.columns.size() || t.table_rows == 0 ||
        t.table.size() != t.table_rows * t.table_columns) {
      continue;
    }
    std::vector<std::size_t> width(t.columns.size());
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
      width[c] = t.columns[c].size();
      for (std::size_t row = 0; row < t.table_rows; ++row) {
        width[c] = std::max(width[c], fmt::formatted_size("{}", t.table[row * t.table_columns + c]));
      }
    }
    out += fmt::format("{} by seat (hands of each class, before pooling):\n  {:<6}", t.name, "seat");
    for (std::size_t c = 0; c < t.columns.size(); ++c) out += fmt::format(" {:>{}}", t.columns[c], width[c]);
    out += '\n';
    for (std::size_t row = 0; row < t.table_rows; ++row) {
      out += fmt::format("  {:<6}", row + 1);
      for (std::size_t c = 0; c < t.columns.size(); ++c) {
        out += fmt::format(" {:>{}}", t.table[row * t.table_columns + c], width[c]);
      }
      out += '\n';
    }
  }
  // Rule coverage, as the JSON's rule_coverage and the page's table.
  out += "rule coverage (each clause, the tests that answer it, their result; a map, not legal advice):\n";
  for (const auto& row : audit::rule_coverage(r.tests)) {
    std::string tests;
    for (const auto& t : row.tests) tests += (tests.empty() ? "" : ", ") + t;
    out += row.tests.empty() ? fmt::format("  {:<34} {}\n", row.rule, row.status)
                             : fmt::format("  {:<34} {:<8} {}\n", row.rule, row.status, tests);
  }
  // What the audit could have detected: the plan inverted (audit/plan.hpp).
  if (!r.detectable.empty()) {
    out += fmt::format("detectable with power about 0.9 (asymptotic) at {}, for the plan's effect models (another "
                       "structure of the same size may need more decks):\n",
                       count_noun(r.decks, "deck", "decks"));
    for (const auto& e : r.detectable) {
      out += fmt::format("  {:<22} {:>10.4g}  {}\n", e.name, e.effect, e.model.empty() ? "beyond the effect model's range" : e.model);
    }
  }
  out += fmt::format("statistic: scaled X2 for position tables, Wald W for position-pairs and gap, z of the total for "
                     "totals (p from the exact law), repeats for duplicates; Holm over {} test{}\n",
                     r.decision.family, r.decision.family == 1 ? "" : "s");
  out += glossary_pointer;
  out += fmt::format("result: {}: {}\n", r.decision.pass ? "pass" : "fail", r.decision.summary);
  return out;
}

std::string audit_overall_text(std::size_t algorithms, const std::vector<std::string>& failed, double alpha) {
  std::string out = fmt::format("\noverall: {}, each audited on its own at alpha {}\n",
                                count_noun(algorithms, "algorithm", "algorithms"), alpha);
  if (failed.empty()) {
    out += fmt::format("result: pass: no evidence of non-randomness in the decks of any of the {}\n",
                       count_noun(algorithms, "algorithm", "algorithms"));
  } else {
    std::string names;
    for (const auto& f : failed) names += (names.empty() ? "" : ", ") + f;
    out += fmt::format("result: fail: {} of {} failed: {}\n", failed.size(),
                       count_noun(algorithms, "algorithm", "algorithms"), names);
  }
  return out;
}

nlohmann::ordered_json audit_json_report(const audit::audit_report& r, const audit_input& in, const audit::audit_pack& pack) {
  nlohmann::ordered_json j;
  j["shufl_version"] = SHUFL_VERSION;
  j["command"] = "audit";
  if (!in.merged.empty()) {
    j["input"] = {{"merged", json_texts<nlohmann::ordered_json>(in.merged)},
                  {"parts", json_texts<nlohmann::ordered_json>(in.parts)}};
  } else if (in.generated) {
    j["input"] = {{"algorithm", in.algorithm},
                  {"seed", in.seed ? json_text(*in.seed) : nlohmann::ordered_json(nullptr)},
                  {"engine", in.engine},
                  {"trials", in.trials}};
  } else if (in.array) {
    j["input"] = {{"name", json_text(in.array->name)},
                  {"shape", nlohmann::ordered_json::array({in.array->rows, in.array->columns})},
                  {"dtype", json_text(in.array->dtype)}};
  } else {
    j["input"] = {{"name", json_text(in.name)}, {"sha256", in.sha256}, {"bytes", in.bytes}};
  }
  j["pack"] = {{"name", pack.name},
               {"description", json_text(r.pack_description)},
               {"cards", r.cards},
               {"decks", pack.decks},
               {"jokers", pack.jokers},
               {"dealt", r.positions < r.cards ? nlohmann::ordered_json(r.positions) : nlohmann::ordered_json(nullptr)}};
  nlohmann::ordered_json settings;  // what a recomputation needs beyond the pack's name and size (--verify FILE)
  auto labels = nlohmann::ordered_json(nullptr);
  if (pack.name == "custom") {
    labels = nlohmann::ordered_json::array();
    const std::size_t one_pack = pack.size() / std::max<std::uint64_t>(pack.decks, 1);
    for (std::size_t i = 0; i < one_pack; ++i) labels.push_back(json_text(pack.cards.cards[i].label));
  }
  settings["labels"] = std::move(labels);
  const bool game = r.game.game != audit::game_kind::none;
  settings["game"] = nullptr;
  settings["deal"] = nullptr;
  if (game) {
    settings["game"] = r.game.game == audit::game_kind::poker ? "poker" : "blackjack";
    settings["deal"] = {{"hands", r.game.hands}, {"cards", r.game.cards}};
  }
  settings["lags"] = r.lags;
  j["settings"] = std::move(settings);
  auto meta = nlohmann::ordered_json::object();
  for (const auto& [key, value] : in.meta) meta[key] = value;
  j["meta"] = std::move(meta);
  j["decks"] = r.decks;
  j["skipped"] = r.skipped;
  if (r.tier) {
    j["tier"] = {{"name", r.tier->name}, {"decks", r.tier->decks}, {"alpha", r.tier->alpha},
                 {"batch_size", r.tier->batch_size}, {"lags", r.tier->lags}, {"input_had_more", r.tier_cut}};
  }
  j["skip_reasons"] = json_texts<nlohmann::ordered_json>(r.skip_reasons);
  j["alpha"] = r.decision.alpha;
  j["correction"] = "holm";
  j["family"] = r.decision.family;
  auto tests = nlohmann::ordered_json::array();
  for (const auto& t : r.tests) {
    const bool computed = t.result != audit::test_outcome::not_applicable;
    nlohmann::ordered_json o;
    o["name"] = t.name;
    o["decks"] = t.decks;
    o["observed"] = computed ? nlohmann::ordered_json(finite(t.observed)) : nlohmann::ordered_json(nullptr);
    o["expected"] = computed ? nlohmann::ordered_json(finite(t.expected)) : nlohmann::ordered_json(nullptr);
    o["statistic"] = computed ? nlohmann::ordered_json(finite(t.statistic)) : nlohmann::ordered_json(nullptr);
    o["df"] = number_or_null(t.df);
    o["p"] = computed ? nlohmann::ordered_json(t.p) : nlohmann::ordered_json(nullptr);
    o["ln_p"] = computed ? nlohmann::ordered_json(finite(t.ln_p)) : nlohmann::ordered_json(nullptr);
    o["p_bound"] = t.p_bound;
    o["holm_p"] = t.holm_ln_p ? nlohmann::ordered_json(std::exp(*t.holm_ln_p)) : nlohmann::ordered_json(nullptr);
    o["ln_holm_p"] = number_or_null(t.holm_ln_p);
    o["result"] = audit::outcome_name(t.result);
    o["tail"] = t.tail.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(t.tail);
    o["law"] = t.law;
    o["note"] = t.note;
    if (!t.table.empty()) {
      auto rows = nlohmann::ordered_json::array();
      for (std::size_t i = 0; i < t.table_rows; ++i) {
        rows.push_back(std::vector<std::uint64_t>(t.table.begin() + static_cast<std::ptrdiff_t>(i * t.table_columns),
                                                  t.table.begin() + static_cast<std::ptrdiff_t>((i + 1) * t.table_columns)));
      }
      o["table"] = std::move(rows);
    }
    if (!t.columns.empty()) {
      o["columns"] = t.columns;
    }
    tests.push_back(std::move(o));
  }
  j["tests"] = std::move(tests);
  auto coverage = nlohmann::ordered_json::array();
  for (const auto& row : audit::rule_coverage(r.tests)) {
    coverage.push_back({{"rule", row.rule}, {"asks", row.asks}, {"tests", row.tests}, {"status", row.status}});
  }
  j["rule_coverage"] = std::move(coverage);
  auto detectable = nlohmann::ordered_json::array();
  for (const auto& e : r.detectable) {
    detectable.push_back({{"name", e.name}, {"effect", e.effect}, {"model", e.model}, {"power", 0.9}});
  }
  j["detectable"] = std::move(detectable);
  j["result"] = r.decision.pass ? "pass" : "fail";
  j["summary"] = r.decision.summary;
  return j;
}

audit_input generated_audit_input(std::string algorithm, std::optional<std::string> seed, std::string engine,
                                  std::uint64_t trials) {
  audit_input in;
  in.generated = true;
  in.algorithm = std::move(algorithm);
  in.seed = std::move(seed);
  in.engine = std::move(engine);
  in.trials = trials;
  return in;
}

audit_input merged_audit_input(const std::vector<std::string>& files, const audit::audit_counts& merged) {
  audit_input in;
  in.merged = files;
  for (const auto& part : merged.parts) in.parts.push_back(part.describe());
  return in;
}

std::vector<std::pair<std::string, std::string>> parse_audit_meta(const std::vector<std::string>& texts) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& text : texts) {
    const auto eq = text.find('=');
    const std::string key = text.substr(0, eq);
    const bool key_ok = eq != std::string::npos && !key.empty() && key.size() <= 64 &&
                        std::all_of(key.begin(), key.end(), [](char c) {
                          return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                                 c == '-' || c == '.';
                        });
    if (!key_ok) {
      throw error(fmt::format("--meta '{}': expected KEY=VALUE, KEY of letters, digits, '_', '-' or '.' (at most 64)",
                              escape_controls(text)));
    }
    const std::string value = text.substr(eq + 1);
    if (value.size() > 1000 || !is_valid_utf8(value) ||
        std::any_of(value.begin(), value.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; })) {
      throw error(fmt::format("--meta {}: the value must be UTF-8 text of at most 1000 bytes without control characters", key));
    }
    for (const auto& [k, v] : out) {
      if (k == key) throw error(fmt::format("--meta {} is given twice", key));
    }
    out.emplace_back(key, value);
  }
  return out;
}

nlohmann::ordered_json recheck_json_report(const nlohmann::ordered_json& doc, const audit::recheck_run& run) {
  audit_input in;
  in.name = doc["input"].value("name", "");  // the name as the page gives it
  in.sha256 = run.sha256;
  in.bytes = run.bytes;
  for (const auto& [key, value] : doc["meta"].items()) in.meta.emplace_back(key, value.is_string() ? value.get<std::string>() : "");
  return audit_json_report(run.report, in, run.pack);
}

}  // namespace shufl::render
