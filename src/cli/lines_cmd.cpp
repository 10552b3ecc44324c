// `shufl lines`: placeholder until the GNU-compatible implementation lands (issue 3).
#include "common.hpp"
#include "shufl/error.hpp"

namespace shufl::cli {

int run_lines(int /*argc*/, char** /*argv*/, const char* /*program_name*/) {
  throw error("'lines' is not implemented yet");
}

}  // namespace shufl::cli
