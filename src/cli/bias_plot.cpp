// `shufl bias --plot FILE.svg`: the position matrix of every result as a heatmap (heatmap.hpp),
// drawn from the run's --format json document (bias_view.hpp).
#include <nlohmann/json.hpp>

#include "bias_report.hpp"
#include "bias_view.hpp"
#include "heatmap.hpp"

namespace shufl::cli {

std::string verdict_words(const std::string& json_word) {
  if (json_word == "no-evidence") return "no evidence of bias";
  return json_word;
}

std::vector<heat_panel> heat_panels(const nlohmann::json& doc) {
  std::vector<heat_panel> panels;
  const auto n = doc.value("n", std::size_t{0});
  for (const auto& r : doc["results"]) {
    if (!r.contains("position_counts")) continue;
    heat_panel p;
    p.title = field_text(r, "algorithm");
    p.n = n;
    p.lines.push_back("verdict: " + verdict_words(r.value("verdict", "")));
    for (auto& line : deciding_lines(r, n)) p.lines.push_back(std::move(line));
    for (const auto& row : r["position_counts"]) {
      for (const auto& c : row) p.counts.push_back(c.get<std::uint64_t>());
    }
    if (p.counts.size() != n * n) continue;
    // Every row sums to the permutations counted (trials, or those read or merged).
    for (std::size_t q = 0; q < n; ++q) p.trials += static_cast<double>(p.counts[q]);
    panels.push_back(std::move(p));
  }
  return panels;
}

std::string svg_plot(const bias_report& report) {
  const auto doc = nlohmann::json::parse(json_report(report, report.options.threads));
  return heatmap_svg(run_header(doc), heat_panels(doc));
}

}  // namespace shufl::cli
