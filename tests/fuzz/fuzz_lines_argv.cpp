// GNU option parsing of `shufl lines` (src/cli/lines_cmd.cpp, getopt_long), with lines::run
// stubbed out. The input is argv, split at NUL bytes. Properties of an accepted command line:
// -e and -i are not both given; an -i range has lo <= hi + 1; --seed and --random-source, and
// --memory and --random-source, are not combined; --memory is at least 16M; -i takes no operand.
// Errors are shufl::error (or a printed usage message and status 1), never a crash.
#include <string>
#include <vector>

#include "common.hpp"
#include "fuzz_support.hpp"
#include "lines_run_stub.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace shufl;
  std::vector<std::string> words{"shufl"};
  std::string current;
  for (std::size_t i = 0; i < size && words.size() < 64; ++i) {
    if (data[i] == 0) {
      words.push_back(current);
      current.clear();
    } else {
      current += static_cast<char>(data[i]);
    }
  }
  if (!current.empty()) words.push_back(current);
  for (const auto& w : words) {
    if (w == "--help" || w.starts_with("--he") || w.starts_with("--v")) return 0;  // stdout noise only
  }
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  fuzz::last_lines_options.reset();
  int status = 0;
  try {
    status = cli::run_lines(static_cast<int>(words.size()), argv.data(), "shufl");
  } catch (const error&) {
    fuzz::check(!fuzz::last_lines_options, "an error means nothing ran");
    return 0;
  }
  if (!fuzz::last_lines_options) {
    fuzz::check(status == 1, "a usage error exits 1");
    return 0;
  }
  const auto& o = *fuzz::last_lines_options;
  fuzz::check(!(o.echo && o.input_range), "-e and -i are not combined");
  fuzz::check(!o.input_range || o.operands.empty(), "-i takes no operand");
  fuzz::check(!o.input_range || o.lo <= o.hi + 1, "an -i range is lo..hi");
  fuzz::check(!(o.seed && o.random_source), "--seed and --random-source are not combined");
  fuzz::check(!(o.memory && o.random_source), "--memory and --random-source are not combined");
  fuzz::check(!o.memory || *o.memory >= cli::lines::min_memory, "--memory >= 16M");
  fuzz::check(o.echo || o.input_range || o.operands.size() <= 1, "at most one FILE");
  return 0;
}
