// The options the stubbed lines::run last received (see lines_run_stub.cpp).
#pragma once

#include <optional>

#include "lines_cmd.hpp"

namespace shufl::fuzz {
/// Set by the stub each time run_lines parsed a command line successfully.
extern std::optional<cli::lines::options> last_lines_options;
}  // namespace shufl::fuzz
