// Test support: golden-output tables. A directory holds `cases.txt` (one case per line:
// `NAME WORD...`, `#` comments) and `NAME.out` (the pinned stdout of that case).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace shufl::test {

/// Runs every case of `dir`/cases.txt through the shufl binary with the arguments
/// `make_args(words)` (words = the line's words after NAME) and expects exit status 0 and stdout
/// equal to `dir`/NAME.out, after replacing `"shufl_version": "X.Y.Z"` by `"shufl_version":
/// "VERSION"` (the version is not part of the pinned contract). With SHUFL_UPDATE_GOLDEN set,
/// rewrites the .out files instead. Returns the number of cases run.
int check_golden_cases(const std::string& dir,
                       const std::function<std::vector<std::string>(const std::vector<std::string>&)>& make_args);

}  // namespace shufl::test
