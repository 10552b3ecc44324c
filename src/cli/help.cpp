#include "help.hpp"

#include <fmt/format.h>

#include <string_view>

#include "shufl/error.hpp"

namespace shufl::cli {

namespace {

constexpr std::size_t kHelpWidth = 80;
constexpr std::size_t kNameColumn = 30;

// `text` wrapped at spaces into lines of at most `width` columns (a longer word stays whole).
std::vector<std::string> wrap_words(std::string_view text, std::size_t width) {
  std::vector<std::string> lines(1);
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(start, end - start);
    start = end + 1;
    if (word.empty()) continue;
    if (!lines.back().empty() && lines.back().size() + 1 + word.size() > width) lines.emplace_back();
    if (!lines.back().empty()) lines.back() += ' ';
    lines.back() += word;
  }
  return lines;
}

// One row of a help list: `name` (already indented), then `description` from column 30, wrapped
// at 80 columns; a name reaching column 30 puts the description on the next line.
std::string help_row(const std::string& name, const std::string& description) {
  std::string out = name;
  if (description.empty()) return out + "\n";
  if (name.size() >= kNameColumn) {
    out += '\n';
    out.append(kNameColumn, ' ');
  } else {
    out.append(kNameColumn - name.size(), ' ');
  }
  const auto lines = wrap_words(description, kHelpWidth - kNameColumn);
  for (std::size_t k = 0; k < lines.size(); ++k) {
    if (k > 0) out += '\n' + std::string(kNameColumn, ' ');
    out += lines[k];
  }
  return out + "\n";
}

}  // namespace

help_formatter::help_formatter() { column_width(kNameColumn); }

std::string help_formatter::make_option_name(const CLI::Option* opt, bool is_positional) const {
  if (is_positional) return opt->get_name(true, false);
  std::string out;
  for (const auto& s : opt->get_snames()) out += (out.empty() ? "-" : ", -") + s;
  for (const auto& l : opt->get_lnames()) out += (out.empty() ? "--" : ", --") + l;
  return out;
}

std::string help_formatter::make_option(const CLI::Option* opt, bool is_positional) const {
  return help_row("  " + make_option_name(opt, is_positional) + make_option_opts(opt), make_option_desc(opt));
}

std::string help_formatter::make_subcommand(const CLI::App* sub) const {
  return help_row("  " + sub->get_display_name(true), sub->get_description());
}

std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : app.get_options()) {
    for (const auto& l : opt->get_lnames()) names.push_back("--" + l);
    for (const auto& s : opt->get_snames()) names.push_back("-" + s);
  }
  return names;
}

std::string unexpected_argument_message(const CLI::App& app, std::string_view arg) {
  if (arg.size() < 2 || arg[0] != '-') return fmt::format("unexpected argument '{}'", arg);
  const std::string_view name = arg.substr(0, arg.find('='));
  std::vector<std::string> names;  // long options only: one letter has no meaningful neighbour
  for (const auto& candidate : option_names(app)) {
    if (candidate.starts_with("--")) names.push_back(candidate);
  }
  const std::vector<std::string_view> candidates(names.begin(), names.end());
  std::string message = fmt::format("unrecognized option '{}'", arg);
  if (const auto suggestion = name.size() > 2 ? closest_name(name, candidates) : std::string();
      !suggestion.empty()) {
    message += fmt::format("; did you mean '{}'?", suggestion);
  }
  return message;
}

std::string flag_value_message(const CLI::App& app, const std::vector<std::string_view>& args) {
  for (const std::string_view arg : args) {
    if (arg == "--") break;
    const auto eq = arg.find('=');
    if (!arg.starts_with("--") || eq == std::string_view::npos) continue;
    const std::string name(arg.substr(0, eq));
    const CLI::Option* opt = app.get_option_no_throw(name);
    if (opt != nullptr && opt->get_expected_max() == 0) return fmt::format("option '{}' doesn't allow an argument", name);
  }
  return {};
}

std::string try_help_line(std::string_view command) {
  return command.empty() ? "Try 'shufl --help' for more information."
                         : fmt::format("Try 'shufl {} --help' for more information.", command);
}

}  // namespace shufl::cli
