// Reading a `shufl bias --format json` document for the pictures and pages (bias_view.hpp).
#include "count_noun.hpp"
#include "bias_view.hpp"

#include <fmt/format.h>

#include <cmath>

#include "shufl/exact_count.hpp"

namespace shufl::render {

namespace {

std::string primary_name(const nlohmann::json& result, std::size_t n) {
  const std::string test = result.value("test", "");
  if (test == "table") {
    // Exact digits (a crafted document may name any n; a double is exact only to 18!), or the
    // formula itself for an n whose digits would not be worth computing.
    return fmt::format("chi-squared (table of {} orders)", n <= 100 ? factorial_decimal(n) : fmt::format("{}!", n));
  }
  if (test == "position") return "position test";
  return test;
}

}  // namespace

deciding_test find_deciding_test(const nlohmann::json& result, std::size_t n) {
  deciding_test d;
  // The document names the deciding test itself (and its adjusted ln p) when it can.
  if (result.contains("deciding_test") && result["deciding_test"].is_string()) {
    d.name = result["deciding_test"].get<std::string>();
    d.ln_p = result.value("ln_p_adjusted", 0.0);
    d.adjusted = result.value("tests_in_verdict", 1) > 1;
    d.bound = result.value("p_adjusted_is_bound", false);
    return d;
  }
  d.name = primary_name(result, n);
  d.ln_p = result.contains("chi_squared") ? result["chi_squared"].value("ln_p", 0.0) : 0.0;
  if (result.value("correction", "none") == "holm") {
    d.adjusted = true;
    d.ln_p = result.value("ln_p_adjusted", d.ln_p);
    if (result.contains("secondary")) {
      for (const auto& s : result["secondary"]) {
        if (s.value("in_verdict", false) && s.value("ln_p_adjusted", 0.0) < d.ln_p) {
          d.ln_p = s.value("ln_p_adjusted", 0.0);
          d.name = s.value("name", "");
        }
      }
    }
  }
  return d;
}

std::string primary_test_name(const nlohmann::json& result, std::size_t n) {
  if (result.contains("primary") && result["primary"].is_object()) return result["primary"].value("name", "");
  return primary_name(result, n);
}

std::string primary_adjusted_path(const nlohmann::json& result) {
  if (result.contains("primary") && result["primary"].is_object() && result["primary"].contains("ln_p_adjusted")) {
    return "primary.ln_p_adjusted";
  }
  return "ln_p_adjusted";
}

std::string format_ln_p_short(double ln_p, bool bound) {
  if (bound) {
    return ln_p < std::log(1e-308) ? fmt::format("p <= 10^{:.2f} (a bound)", ln_p / std::log(10.0))
                                   : fmt::format("p <= {:.4g} (a bound)", std::exp(ln_p));
  }
  if (ln_p < std::log(1e-308)) return fmt::format("p < 1e-308 (ln p = {:.2f})", ln_p);
  return fmt::format("p = {:.4g}", std::exp(ln_p));
}

std::vector<std::string> deciding_lines(const nlohmann::json& result, std::size_t n) {
  if (result.value("verdict", "") == "unreliable") return {"no verdict: too few trials per cell"};
  if (result.contains("exact")) return {"decided by: the exact law"};
  const auto d = find_deciding_test(result, n);
  return {fmt::format("decided by: {}", d.name),
          fmt::format("{}{}", d.adjusted ? "Holm-adjusted " : "", format_ln_p_short(d.ln_p, d.bound))};
}

std::string field_text(const nlohmann::json& j, const char* key, const std::string& fallback) {
  if (!j.is_object() || !j.contains(key)) return fallback;
  const auto& v = j[key];
  if (v.is_string()) return v.get<std::string>();
  if (v.is_object() && v.contains("hex") && v["hex"].is_string()) return "hex:" + v["hex"].get<std::string>();
  return fallback;
}

std::string run_header(const nlohmann::json& doc) {
  const auto n = doc.value("n", std::size_t{0});
  const auto trials = doc.value("trials", std::uint64_t{0});
  if (doc.contains("input")) {  // --input: read, not simulated (no seed, engine or threads)
    const std::string name = field_text(doc, "input", "stdin");
    return fmt::format("shufl bias: n = {}, {} read from {}", n, count_noun(trials, "permutation", "permutations"),
                       name == "stdin" ? std::string("standard input") : "'" + name + "'");
  }
  const std::string seed = doc.contains("seed") && !doc["seed"].is_null()
                               ? fmt::format("seed \"{}\"", field_text(doc, "seed"))
                               : std::string("unseeded");
  return fmt::format("shufl bias: n = {}, {} per algorithm, {}, engine {}", n, count_noun(trials, "trial", "trials"), seed,
                     field_text(doc, "engine", "none"));
}

}  // namespace shufl::render
