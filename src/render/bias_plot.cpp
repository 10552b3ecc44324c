// `shufl bias --plot FILE.svg`: the position matrix of every result as a heatmap (heatmap.hpp),
// drawn from the run's --format json document (bias_view.hpp).
#include <nlohmann/json.hpp>

#include "bias_report.hpp"
#include "bias_view.hpp"
#include "heatmap.hpp"

namespace shufl::render {

std::string verdict_words(const std::string& json_word) {
  if (json_word == "no-evidence") return "no evidence of bias";
  return json_word;
}

std::vector<std::string> item_labels(const nlohmann::json& doc) {
  std::vector<std::string> labels;
  if (!doc.contains("items") || !doc["items"].is_array()) return labels;
  for (const auto& item : doc["items"]) {
    const nlohmann::json holder = {{"item", item}};
    labels.push_back(field_text(holder, "item"));
  }
  return labels;
}

std::string item_order_line(const nlohmann::json& doc) {
  const auto labels = item_labels(doc);
  if (labels.empty()) return {};
  const std::string name = field_text(doc, "item_order", "numbers");
  item_order order = item_order::numbers;
  for (const auto o : {item_order::cards, item_order::listed, item_order::bytes}) {
    if (name == item_order_name(o)) order = o;
  }
  return item_order_sentence(order, labels);
}

std::vector<heat_panel> heat_panels(const nlohmann::json& doc) {
  std::vector<heat_panel> panels;
  const auto n = doc.value("n", std::size_t{0});
  const auto labels = item_labels(doc);
  for (const auto& r : doc["results"]) {
    if (!r.contains("position_counts")) continue;
    heat_panel p;
    p.title = field_text(r, "algorithm");
    p.n = n;
    if (labels.size() == n) p.row_labels = labels;
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
  const std::string order = item_order_line(doc);
  return heatmap_svg(order.empty() ? run_header(doc) : run_header(doc) + "; " + order, heat_panels(doc));
}

}  // namespace shufl::render
