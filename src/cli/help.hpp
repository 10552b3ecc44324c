// How the CLI11 subcommands present themselves: the --help layout (names joined by ", ", typed
// placeholders, descriptions wrapped to 80 columns) and the usage errors of git's kind
// ("unrecognized option '--trails'; did you mean '--trials'?" + "Try 'shufl bias --help' ...").
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace shufl::cli {

/// The --help layout of every CLI11 (sub)command: option names joined by ", " (`-n, --n`), the
/// placeholder and default as `N=3`, descriptions wrapped at 80 columns (continuation lines
/// indented to the description column), so the man page generated from --help fits 80 columns
/// too; subcommand rows likewise. Set on the top-level app before subcommands are added (they inherit it).
class help_formatter : public CLI::Formatter {
 public:
  help_formatter();
  std::string make_option_name(const CLI::Option* opt, bool is_positional) const override;
  std::string make_option(const CLI::Option* opt, bool is_positional) const override;
  std::string make_subcommand(const CLI::App* sub) const override;
};

/// The names a user can type for `app`'s options: "--long" and "-s" forms, in declaration order
/// (including --help). For suggestions.
std::vector<std::string> option_names(const CLI::App& app);

/// The message for an argument `arg` that `app` (the CLI11 app of `shufl COMMAND`) did not
/// accept: "unrecognized option '--trails'; did you mean '--trials'?" for an option (the name
/// before any '=' is compared with shufl::closest_name, the one "did you mean" mechanism of
/// every name shufl takes), "unexpected argument 'X'" otherwise. No "shufl: " prefix, no hint.
std::string unexpected_argument_message(const CLI::App& app, std::string_view arg);

/// The GNU getopt message for the first argument of `args` that gives a value to a flag of `app`
/// (an option that takes none, --help included): "option '--exact' doesn't allow an argument" for
/// "--exact=3", "--exact=" or "--exact=true"; "" when there is none. Arguments after "--" are
/// operands. One check for every flag of every CLI11 command, run before CLI11 parses (CLI11 itself
/// would read "--exact=3" as a count or a boolean and accept it).
std::string flag_value_message(const CLI::App& app, const std::vector<std::string_view>& args);

/// "Try 'shufl COMMAND --help' for more information." (or 'shufl --help' for an empty command).
std::string try_help_line(std::string_view command);

}  // namespace shufl::cli
