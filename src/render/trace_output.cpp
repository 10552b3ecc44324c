// `shufl trace`'s text report and JSON document (trace_output.hpp).
#include "trace_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "text_width.hpp"
#include "shufl/json_text.hpp"
#include "shufl/version.hpp"

namespace shufl::render {

namespace {

// "A B E D | C": '|' at each edge of the finalized region that is inside the array. With colour,
// finalized items are green and the positions this step touched are bold.
// Items are padded to the widest label's display width (numbers right-aligned), so the columns
// of every row line up for any n (U06: 9 and 10 no longer shift the rows after them).
std::string format_order(const std::vector<std::uint8_t>& deck, const std::vector<std::string>& labels,
                         const shuffle_step* step, bool colour) {
  std::size_t item_width = 0;
  bool numeric = true;
  for (const auto& l : labels) {
    item_width = std::max(item_width, display_width(l));
    numeric = numeric && !l.empty() && l.find_first_not_of("0123456789") == std::string::npos;
  }
  const std::size_t fb = step ? step->final_begin : 0;
  const std::size_t fe = step ? step->final_end : 0;
  const bool region = fe > fb;
  std::string out;
  for (std::size_t k = 0; k < deck.size(); ++k) {
    if (k > 0) out += ' ';
    if (region && ((k == fb && fb > 0) || (k == fe && fe < deck.size()))) out += "| ";
    const bool final = region && k >= fb && k < fe;
    const bool touched = step && (k == step->a || k == step->b);
    std::string label = pad_to_width(labels[deck[k]], item_width, numeric);
    if (colour && (final || touched)) {
      label = fmt::format("\x1b[{}{}m{}\x1b[0m", final ? "32" : "", final && touched ? ";1" : (touched ? "1" : ""),
                          label);
    }
    out += label;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();  // no padding at the end of a row
  return out;
}

std::string join_labels(const std::vector<std::uint8_t>& deck, const std::vector<std::string>& labels) {
  std::string out;
  for (std::size_t k = 0; k < deck.size(); ++k) {
    if (k > 0) out += ' ';
    out += labels[deck[k]];
  }
  return out;
}

std::string source_text(const trace_options& o) {
  if (o.draws) return "the values given with --draws";
  if (o.seed) {
    return fmt::format("ChaCha20 keyed by the seed \"{}\" (derive_key(BLAKE2b-256 of the seed, \"trace\", 0))",
                       *o.seed);
  }
  return "ChaCha20 keyed from the operating system (not reproducible; use --seed to replay)";
}

std::string_view kind_json(path_kind k) {
  switch (k) {
    case path_kind::equally_likely: return "equally-likely-paths";
    case path_kind::coin_flips: return "coin-flips";
    case path_kind::riffle: return "riffle";
    case path_kind::unknown:
    default: return "unknown";
  }
}

nlohmann::ordered_json labels_json(const std::vector<std::uint8_t>& deck, const std::vector<std::string>& labels) {
  auto a = nlohmann::ordered_json::array();
  for (const auto d : deck) a.push_back(json_text(labels[d]));
  return a;
}

}  // namespace

std::string trace_text_report(const trace_options& o, const trace_result& t, const std::vector<std::string>& labels,
                        bool colour) {
  std::string out;
  out += fmt::format("{} on {} item{}: {}\n", o.algorithm.label(), o.n, o.n == 1 ? "" : "s",
                     o.algorithm.info->definition);
  out += fmt::format("draws: {}\n", source_text(o));
  if (!o.draws && !t.values.empty()) out += fmt::format("replay: --draws {}\n", fmt::join(t.values, ","));
  if (t.marks_final) {
    out += "'|' separates the unshuffled part from the finalized part, whose items never move again\n";
  }
  std::vector<std::string> heads;
  heads.emplace_back("start");
  for (std::size_t k = 0; k < t.steps.size(); ++k) {
    heads.push_back(fmt::format("step {}: {}", k + 1, describe_step(t.steps[k], labels)));
  }
  std::size_t width = 0;
  for (const auto& h : heads) width = std::max(width, display_width(h));
  const auto row = [&](const std::string& head, const std::string& order) {
    out += head;
    out.append(width - display_width(head) + 3, ' ');
    out += order;
    out += '\n';
  };
  std::vector<std::uint8_t> start(o.n);
  for (std::size_t k = 0; k < o.n; ++k) start[k] = static_cast<std::uint8_t>(k);
  row(heads[0], format_order(start, labels, nullptr, colour));
  for (std::size_t k = 0; k < t.steps.size(); ++k) {
    row(heads[k + 1], format_order(t.steps[k].after, labels, &t.steps[k].step, colour));
  }
  out += fmt::format("counting: {}\n", t.counting.statement);
  out += fmt::format("result: {}\n", join_labels(t.result, labels));
  return out;
}

nlohmann::ordered_json trace_json(const trace_options& o, const trace_result& t, const std::vector<std::string>& labels) {
  constexpr std::size_t none = shuffle_step::none;
  nlohmann::ordered_json j;
  j["shufl_version"] = SHUFL_VERSION;
  j["command"] = "trace";
  j["algorithm"] = o.algorithm.label();
  j["definition"] = o.algorithm.info->definition;
  j["n"] = o.n;
  j["items"] = json_texts(labels);
  j["source"] = o.draws ? "draws" : (o.seed ? "seed" : "os");
  j["seed"] = o.seed ? json_text(*o.seed) : nlohmann::ordered_json(nullptr);
  if (o.draws) j["draws_given"] = *o.draws;
  j["marks_final"] = t.marks_final;
  auto steps = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < t.steps.size(); ++k) {
    const auto& r = t.steps[k];
    const auto& s = r.step;
    nlohmann::ordered_json e;
    e["step"] = k + 1;
    e["action"] = r.action;
    if (s.cursor != none) e["cursor"] = s.cursor;
    if (r.has_draw()) {
      e["draw"] = s.draw;
      e["draw_range"] = {s.draw_lo, s.draw_hi};
    }
    if (r.seeded) e["seeded"] = true;  // drawn from a generator an earlier "seed" step seeded
    if (s.modulus != 0) e["modulus"] = s.modulus;  // b = draw % modulus (modulo:B)
    if (s.a_drawn) e["a_drawn"] = true;            // a was drawn too (transpositions)
    if (s.a != none) e["a"] = s.a;
    if (s.b != none) e["b"] = s.b;
    static constexpr std::string_view without_outcome[] = {"swap", "cut", "key", "sort", "strike", "place", "pick", "seed"};
    if (std::find(std::begin(without_outcome), std::end(without_outcome), r.action) == std::end(without_outcome)) {
      e["outcome"] = s.outcome;
    }
    if (r.has_final_region()) e["final"] = {s.final_begin, s.final_end};
    e["description"] = json_text(describe_step(r, labels));
    e["order"] = labels_json(r.after, labels);
    steps.push_back(std::move(e));
  }
  j["steps"] = std::move(steps);
  j["random_draws"] = t.draws;
  j["draw_values"] = t.values;
  j["draw_sizes"] = t.counting.ranges;
  nlohmann::ordered_json c;
  c["kind"] = kind_json(t.counting.kind);
  c["paths"] = t.counting.paths;
  c["paths_formula"] = t.counting.paths_formula;
  c["n_factorial"] = t.counting.n_factorial;
  c["divisible_by_n_factorial"] = t.counting.divisible;
  c["statement"] = t.counting.statement;
  j["counting"] = std::move(c);
  j["result"] = labels_json(t.result, labels);
  return j;
}

// An upper bound of the bytes one step adds to the output in `format` (0 text, 1 JSON, 2 HTML),
// for run_trace's output limit: its row of every label, and its words (which name up to two
// items) with the fixed fields around them.
std::uint64_t trace_step_bytes(const std::vector<std::string>& labels, std::size_t format, bool colour) {
  std::uint64_t row = 0, widest = 0;
  for (const auto& l : labels) {
    // Text: the label, padded to the widest display width (at most the widest label's bytes),
    // a space, the colour codes. JSON: the escaped string on a line of its own (indent, quotes,
    // comma); in the page, the compact document with < > & written as 6-byte escapes.
    std::uint64_t cost = l.size();
    if (format != 0) {
      cost = json_text(l).dump().size() + 12;
      if (format == 2) cost += 5 * static_cast<std::uint64_t>(std::count_if(l.begin(), l.end(), [](char c) {
                                 return c == '<' || c == '>' || c == '&';
                               }));
    }
    row += cost;
    widest = std::max(widest, cost);
  }
  if (format == 0) row += labels.size() * (widest + 1 + (colour ? 11 : 0));
  return row + 4 * widest + 256;
}

}  // namespace shufl::render
