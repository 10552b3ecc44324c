// For the harnesses that link src/cli/lines_cmd.cpp (GNU option parsing) without running
// anything: lines::run only records the options it was handed.
#include "lines_run_stub.hpp"

namespace shufl::fuzz {
std::optional<cli::lines::options> last_lines_options;
}

namespace shufl::cli::lines {
int run(const options& opts) {
  fuzz::last_lines_options = opts;
  return 0;
}
}  // namespace shufl::cli::lines
