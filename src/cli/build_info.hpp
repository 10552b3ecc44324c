// The commit the binary was built from, for `shufl --version`. Defined in the one generated file
// build/generated/build_info.cpp (from src/cli/build_info.cpp.in, written at configure time by
// `git describe`), so no other object depends on the commit and ccache shares them all.
#pragma once

namespace shufl::cli {

/// `git describe --always --tags` of the source tree at configure time ("aefef8d",
/// "v0.2.0-3-gaefef8d"), or "unknown" outside a git checkout (a release tarball).
const char* build_commit() noexcept;

}  // namespace shufl::cli
