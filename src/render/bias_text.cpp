// `shufl bias`'s text beside the report (bias_report.hpp): the report made safe for a terminal,
// and --list.
#include <fmt/format.h>

#include <cstdint>
#include <string>

#include "bias_report.hpp"
#include "text_escape.hpp"
#include "shufl/shuffle.hpp"

namespace shufl::render {

// The report as a terminal shows it safely (text format): names, seeds, symbols and file names
// given by the user or read from files, with their control characters quoted (quotef for a name,
// escapes in place within a sentence), newlines included.
void make_text_safe(bias_report& report) {
  for (auto& r : report.results) {
    r.label = shown(r.label);
    r.definition = shown(r.definition);
    for (auto& w : r.warnings) w = escape_controls(w);
  }
  for (auto& run : report.runs) {
    if (run.seed) *run.seed = escape_controls(*run.seed);
    run.input = escape_controls(run.input);
  }
  for (auto& m : report.missing) m = escape_controls(m);
  for (auto& f : report.merged_files) f = shown(f);
  report.options.input_name = escape_controls(report.options.input_name);
  for (auto& symbol : report.options.input_symbols) symbol = shown(symbol);
}

std::string algorithm_list_text() {
  std::string out;
  for (const auto& a : algorithms()) {
    using form = algorithm_info::form;
    std::string name = a.takes_parameter ? fmt::format("{}:{}", a.name, a.parameter_name) : std::string(a.name);
    // Parameters show their default and range: "riffle" alone is riffle:7.
    std::string parameter;
    if (a.takes_parameter) {
      const std::string deflt = fmt::format(" (default: {} = {}:{}; ", a.name, a.name, parameter_text(a, a.default_parameter));
      switch (a.parameter_form) {
        case form::count_passes:
          parameter = fmt::format("{}{} from {} to {}, P from 1 to 1000)", deflt, a.parameter_name, a.min_parameter,
                                  a.max_parameter);
          break;
        case form::decimal_passes:
          parameter = fmt::format("{}{} a decimal in (0, 1] with at most 6 digits after the point, K from 1 to 1000)",
                                  deflt, a.parameter_name);
          break;
        default:
          parameter = fmt::format("{}{} from {} to {})", deflt, a.parameter_name, a.min_parameter, a.max_parameter);
          break;
      }
    }
    if (a.parameter_form == form::sequence) name = "A+B+...";
    out += fmt::format("{:<20}  {}{}\n", name, a.definition, parameter);
  }
  return out;
}

std::string bias_interrupted_text(const bias_counts& counts, const bias_options& options, const std::string& signal,
                                  const std::string& file) {
  // Chunks of every algorithm: the stop may fall in any of them.
  std::uint64_t done = 0;
  for (const auto& result : counts.results) {
    for (const auto& part : result.parts) done += part.chunks.count();
  }
  const std::uint64_t per_algorithm = options.shard.second != 0
                                          ? bias_shard_chunks(options.trials, options.shard.first, options.shard.second).count()
                                          : bias_chunk_count(options.trials);
  return fmt::format("shufl: interrupted by {}: saved {} of {} chunks to '{}'; finish with the same command and --resume {}\n",
                     signal, done, counts.results.size() * per_algorithm, escape_controls(file), escape_controls(file));
}

std::string bias_shard_saved_text(const bias_options& options, const std::string& file) {
  const chunk_set mine = bias_shard_chunks(options.trials, options.shard.first, options.shard.second);
  return fmt::format("shufl bias: shard {}/{}: chunks {} of {}, {} trials per algorithm, saved to '{}'\n", options.shard.first,
                     options.shard.second, mine.text(), bias_chunk_count(options.trials), mine.trials_in(options.trials),
                     escape_controls(file));
}

}  // namespace shufl::render
