// The `shufl` binary: dispatches to one subcommand. `shufl lines` (and the binary invoked as
// `shuf`) uses GNU's command-line rules; the other subcommands use CLI11.
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sodium.h>

#include <boost/version.hpp>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "common.hpp"
#include "shufl/error.hpp"

namespace {

constexpr const char* kExamples = R"(
Examples:
  shufl bias --n 3 --trials 60000            Fisher-Yates vs the naive shuffle, chi-squared verdicts
  shufl lines < file                         shuffle the lines of a file (GNU shuf compatible)
  seq 100 | shufl lines -n 5 --seed run-7    a reproducible sample of 5 lines
)";

std::string version_text() {
  return fmt::format(
      "shufl {} ({} build)\n"
      "built with: CLI11 {}, fmt {}.{}.{}, Boost {}.{}.{}, libsodium {}, nlohmann-json {}.{}.{}",
      SHUFL_VERSION, SHUFL_BUILD_TYPE, CLI11_VERSION, FMT_VERSION / 10000, FMT_VERSION / 100 % 100,
      FMT_VERSION % 100, BOOST_VERSION / 100000, BOOST_VERSION / 100 % 1000, BOOST_VERSION % 100,
      sodium_version_string(), NLOHMANN_JSON_VERSION_MAJOR, NLOHMANN_JSON_VERSION_MINOR,
      NLOHMANN_JSON_VERSION_PATCH);
}

int run_cli11(int argc, char** argv) {
  CLI::App app{"shufl: shuffle lines and decks, and measure whether a shuffle is fair", "shufl"};
  app.footer(kExamples);
  app.set_version_flag("--version", version_text());
  app.require_subcommand(1);
  app.fallthrough(false);
  // `lines` is dispatched before CLI11 (GNU option rules); listed here only for --help.
  app.add_subcommand("lines", "Shuffle or sample lines (a drop-in for GNU shuf; see 'shufl lines --help')")
      ->allow_extras()
      ->prefix_command();

  std::vector<shufl::cli::subcommand> commands = {shufl::cli::bias_subcommand(), shufl::cli::deck_subcommand(), shufl::cli::trace_subcommand()};
  std::vector<std::pair<CLI::App*, std::function<int()>>> runners;
  for (auto& c : commands) {
    CLI::App* sub = app.add_subcommand(std::string(c.name), std::string(c.description));
    runners.emplace_back(sub, c.add(*sub));
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "shufl: %s\nRun 'shufl --help' for more information.\n", e.what());
    return shufl::cli::exit_error;
  }
  for (auto& [sub, run] : runners) {
    if (sub->parsed()) return run();
  }
  return shufl::cli::exit_error;
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
    std::fprintf(stderr, "%s: %s\n", as_shuf ? "shuf" : "shufl", e.what());
    return e.exit_status();
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: memory exhausted\n", as_shuf ? "shuf" : "shufl");
    return shufl::cli::exit_error;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", as_shuf ? "shuf" : "shufl", e.what());
    return shufl::cli::exit_error;
  }
  return status;
}
