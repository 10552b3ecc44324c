// The `shufl` binary: dispatches to one subcommand. `shufl lines` (and the binary invoked as
// `shuf`) uses GNU's command-line rules; the other subcommands use CLI11.
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <openssl/crypto.h>
#include <sodium.h>
#include <utf8proc.h>

#include <boost/version.hpp>

#include <csignal>
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "choices.hpp"
#include "common.hpp"
#include "build_info.hpp"
#include "help.hpp"
#include "shufl/io/side_file.hpp"
#include "render/text_escape.hpp"
#include "shufl/error.hpp"
#include "shufl/version.hpp"

namespace {

constexpr const char* kExamples = R"(
Examples:
  shufl bias --n 3 --trials 60000            Fisher-Yates vs the naive shuffle, chi-squared verdicts
  shufl lines < file                         shuffle the lines of a file (GNU shuf compatible)
  seq 100 | shufl lines -n 5 --seed run-7    a reproducible sample of 5 lines
)";

// `shufl help help`, `shufl help --help`.
constexpr const char* kHelpHelp = R"(Usage: shufl help [COMMAND]
Show the help of COMMAND (lines, bias, deck, trace, audit or help): 'shufl help bias' is
'shufl bias --help'. Without COMMAND, the overview of every command ('shufl --help').

Options:
  -h, --help                  Print this help message and exit
)";

// `shufl --version`: the version, the licence, and every library the binary links with its version
// (compile-time macros; libsodium, utf8proc and OpenSSL's libcrypto report the shared library
// actually loaded).
std::string version_text() {
  return fmt::format(
      "shufl {} ({} build, commit {})\n"
      "{}\n"
      "built with: CLI11 {}, fmt {}.{}.{}, Boost {}.{}.{}, libsodium {}, nlohmann-json {}.{}.{}, utf8proc {}, "
      "OpenSSL libcrypto {}",
      SHUFL_VERSION, SHUFL_BUILD_TYPE, shufl::cli::build_commit(), shufl::cli::license_notice, CLI11_VERSION, FMT_VERSION / 10000,
      FMT_VERSION / 100 % 100, FMT_VERSION % 100, BOOST_VERSION / 100000, BOOST_VERSION / 100 % 1000,
      BOOST_VERSION % 100, sodium_version_string(), NLOHMANN_JSON_VERSION_MAJOR, NLOHMANN_JSON_VERSION_MINOR,
      NLOHMANN_JSON_VERSION_PATCH, utf8proc_version(), OpenSSL_version(OPENSSL_VERSION_STRING));
}

// Prints a usage error (`shufl: MESSAGE` and a pointer to the help of `command`); returns 1.
int usage_error(const std::string& message, std::string_view command) {
  std::fprintf(stderr, "shufl: %s\n%s\n", shufl::cli::escape_controls(message).c_str(),
               shufl::cli::try_help_line(command).c_str());
  return shufl::cli::exit_error;
}

int run_cli11(int argc, char** argv) {
  CLI::App app{"shufl: shuffle lines and decks, and measure whether a shuffle is fair", "shufl"};
  app.formatter(std::make_shared<shufl::cli::help_formatter>());
  app.footer(kExamples);
  app.set_version_flag("--version", version_text());
  app.require_subcommand(1);
  app.fallthrough(false);
  // `lines` is dispatched before CLI11 (GNU option rules); listed here only for --help.
  app.add_subcommand("lines", "Shuffle or sample lines (a drop-in for GNU shuf; see 'shufl lines --help')")
      ->allow_extras()
      ->prefix_command();

  std::vector<shufl::cli::subcommand> commands = {shufl::cli::bias_subcommand(), shufl::cli::deck_subcommand(), shufl::cli::trace_subcommand(),
                                                  shufl::cli::audit_subcommand()};
  std::vector<std::pair<CLI::App*, std::function<int()>>> runners;
  for (auto& c : commands) {
    CLI::App* sub = app.add_subcommand(std::string(c.name), std::string(c.description));
    // Unknown arguments are collected, not thrown, so the error can suggest the closest option.
    sub->allow_extras();
    runners.emplace_back(sub, c.add(*sub));
  }
  // `shufl help [COMMAND]` is answered before parsing (below); listed here only for --help.
  app.add_subcommand("help", "Show the help of a command: 'shufl help bias' is 'shufl bias --help'");

  // The command word: one of the commands, or a top-level option (U03: a typo gets the
  // closest command, as git does).
  std::vector<std::string_view> names = {"lines"};
  for (const auto& c : commands) names.push_back(c.name);
  names.emplace_back("help");
  const std::string_view word = argc > 1 ? std::string_view(argv[1]) : std::string_view();
  if (argc < 2) return usage_error("missing command (lines, bias, deck, trace, audit or help)", "");
  if (word == "--complete-values") {  // [COMMAND [OPTION]], for completions/: not in --help
    if (argc > 4) return usage_error("--complete-values takes at most COMMAND and OPTION", "");
    if (argc > 2 && std::find(names.begin(), names.end(), argv[2]) == names.end())
      return usage_error(shufl::unknown_name_error("command", argv[2], names).what(), "");
    shufl::cli::write_stdout(shufl::cli::choices::values_text(argc > 2 ? argv[2] : "", argc > 3 ? argv[3] : ""));
    return shufl::cli::exit_ok;
  }
  if (word == "help") {
    // As git does: `shufl help help` and `shufl help --help` show the help of `help` itself;
    // `shufl help COMMAND --help` (or -h) is `shufl help COMMAND`.
    bool help_asked = false;
    std::vector<std::string_view> targets;
    for (int i = 2; i < argc; ++i) {
      const std::string_view a = argv[i];
      if (a == "-h" || a == "--help") {
        help_asked = true;
      } else if (a.starts_with("--help=")) {
        return usage_error("option '--help' doesn't allow an argument", "help");
      } else if (a.size() > 1 && a[0] == '-') {
        return usage_error(fmt::format("unrecognized option '{}'", a), "help");
      } else {
        targets.push_back(a);
      }
    }
    if (targets.size() > 1) return usage_error("'help' takes at most one command", "help");
    if (targets.empty() && !help_asked) {
      char* top_help[] = {argv[0], const_cast<char*>("--help")};
      return run_cli11(2, top_help);
    }
    const std::string_view target = targets.empty() ? std::string_view("help") : targets.front();
    if (std::find(names.begin(), names.end(), target) == names.end()) {
      return usage_error(shufl::unknown_name_error("command", target, names).what(), "help");
    }
    if (target == "help") {
      shufl::cli::write_stdout(kHelpHelp);
      return shufl::cli::exit_ok;
    }
    char* help_args[] = {argv[0], const_cast<char*>(targets.front().data()), const_cast<char*>("--help")};
    if (target == "lines") return shufl::cli::run_lines(2, help_args + 1, "shufl");
    return run_cli11(3, help_args);
  }
  if (std::find(names.begin(), names.end(), word) == names.end()) {
    if (word.starts_with("-") && word != "-h" && word != "--help" && word != "--version") {
      const auto message = shufl::cli::flag_value_message(app, {word});
      return usage_error(message.empty() ? shufl::cli::unexpected_argument_message(app, word) : message, "");
    }
    if (!word.starts_with("-")) return usage_error(shufl::unknown_name_error("command", word, names).what(), "");
  }
  const bool is_command = std::find(names.begin(), names.end(), word) != names.end();
  const std::string_view command = is_command ? word : std::string_view();

  // A flag given a value ("--exact=3") is GNU getopt's error for every flag of every command,
  // checked before CLI11, which would read the value as a count or a boolean.
  const CLI::App* target = &app;
  for (auto& [sub, run] : runners) {
    if (sub->get_name() == command) target = sub;
  }
  {
    const std::vector<std::string_view> args(argv + (target == &app ? 1 : 2), argv + argc);
    if (const auto message = shufl::cli::flag_value_message(*target, args); !message.empty()) {
      return usage_error(message, command);
    }
  }
  // CLI11 takes a "--" right after an option with an optional value (--seed, for its S09 error on
  // `--seed $UNSET`) as the end of that option's values and drops it, so in `trace --seed 1 -- -a`
  // the "-a" would be an unknown option: such a "--" is given twice, one still ending the options.
  std::vector<char*> args(argv, argv + argc);
  const auto optional_value = [&](std::string_view arg) {
    if (!arg.starts_with("-") || arg.find('=') != std::string_view::npos) return false;
    const CLI::Option* opt = target->get_option_no_throw(std::string(arg));
    return opt != nullptr && opt->get_items_expected_min() == 0 && opt->get_items_expected_max() > 0;
  };
  for (std::size_t i = 2; i < args.size(); ++i) {
    if (std::string_view(args[i]) != "--") continue;
    if (optional_value(args[i - 1]) || (i >= 3 && optional_value(args[i - 2]) && !std::string_view(args[i - 1]).starts_with("-"))) {
      args.insert(args.begin() + static_cast<std::ptrdiff_t>(i), args[i]);
    }
    break;
  }
  try {
    app.parse(static_cast<int>(args.size()), args.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError&) {
    // Operands after "--" that no command takes reach the top level, which does not collect
    // extras: the same message as for an operand before "--" (an operand after "--" is never
    // an option, so it is never "unrecognized").
    for (auto& [sub, run] : runners) {
      if (!sub->parsed()) continue;
      std::vector<std::string> extras = app.remaining(true);
      extras.erase(std::remove(extras.begin(), extras.end(), "--"), extras.end());
      if (!extras.empty()) return usage_error(fmt::format("unexpected argument '{}'", extras.front()), sub->get_name());
    }
    return usage_error("unexpected argument", command);
  } catch (const CLI::ParseError& e) {
    // CLI11's "--n: 1 required N missing" in GNU's words.
    const std::string what = e.what();
    if (const auto colon = what.find(": 1 required "); colon != std::string::npos && what.ends_with(" missing")) {
      return usage_error(fmt::format("option '{}' requires an argument", what.substr(0, colon)), command);
    }
    // "--n: At Most 1 required but received 2": an option given twice.
    if (const auto at = what.find(": At Most 1 required but received "); at != std::string::npos) {
      return usage_error(fmt::format("option '{}' given more than once", what.substr(0, at)), command);
    }
    return usage_error(what, command);
  }
  for (auto& [sub, run] : runners) {
    if (!sub->parsed()) continue;
    // CLI11 also lists the "--" that ended the options among the extras: it is no extra.
    auto extras = sub->remaining();
    extras.erase(std::remove(extras.begin(), extras.end(), "--"), extras.end());
    if (!extras.empty()) {
      // The first unknown option, else the first unexpected operand.
      const auto option = std::find_if(extras.begin(), extras.end(),
                                       [](const std::string& a) { return a.size() > 1 && a[0] == '-'; });
      return usage_error(shufl::cli::unexpected_argument_message(*sub, option != extras.end() ? *option : extras.front()),
                         sub->get_name());
    }
    return run();
  }
  return usage_error("missing command (lines, bias, deck, trace, audit or help)", "");
}

// "shufl" or "shuf", for the last-resort handler below.
const char* g_program = "shufl";

// The last resort when an exception meets a noexcept boundary, where main's catch cannot see it:
// a destructor that allocates while unwinding from std::bad_alloc (nlohmann's json destructor
// flattens nested containers into a vector), a thread's function. One line and exit 1, as main
// reports the same exception; side files' temporaries removed; stdout's buffer is not flushed (no
// partial output). Allocates nothing it cannot do without.
[[noreturn]] void last_resort() noexcept {
  shufl::io::remove_side_temporaries();
  const char* message = "unknown error";
  std::string escaped;
  if (const std::exception_ptr e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
      message = "memory exhausted";
    } catch (const std::length_error&) {
      message = "memory exhausted";
    } catch (...) {
      try {
        escaped = shufl::cli::escape_controls(shufl::cli::exception_message(std::current_exception()));
        message = escaped.c_str();
      } catch (...) {
        message = "memory exhausted";
      }
    }
  }
  std::fprintf(stderr, "%s: %s\n", g_program, message);
  std::_Exit(shufl::cli::exit_error);
}

const char* base_name(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

}  // namespace

int main(int argc, char** argv) {
  // `| head -1` must end us quietly, whatever the parent did to SIGPIPE.
  std::signal(SIGPIPE, SIG_DFL);
  const char* program = argc > 0 ? base_name(argv[0]) : "shufl";
  const bool as_shuf = std::strcmp(program, "shuf") == 0;
  g_program = as_shuf ? "shuf" : "shufl";
  std::set_terminate(last_resort);
  int status = shufl::cli::exit_error;
  try {
    if (as_shuf) {
      status = shufl::cli::run_lines(argc, argv, "shuf");
    } else if (argc > 1 && std::strcmp(argv[1], "lines") == 0) {
      status = shufl::cli::run_lines(argc - 1, argv + 1, "shufl");
    } else {
      status = run_cli11(argc, argv);
    }
    shufl::cli::finish_stdout();
  } catch (const shufl::error& e) {
    // Messages quote user text (file names, seeds, names read from files): its control
    // characters are shown, never sent to the terminal as they are.
    std::fprintf(stderr, "%s: %s\n", as_shuf ? "shuf" : "shufl", shufl::cli::escape_controls(e.what()).c_str());
    return e.exit_status();
  } catch (...) {
    // Whatever else escaped (std::bad_alloc, std::length_error, a JSON library error, ...): one
    // clear line and exit 1, never std::terminate.
    std::fprintf(stderr, "%s: %s\n", as_shuf ? "shuf" : "shufl",
                 shufl::cli::escape_controls(shufl::cli::exception_message(std::current_exception())).c_str());
    return shufl::cli::exit_error;
  }
  return status;
}
