// Private to src/cli/: what a page states about its making that only the running process knows
// (the clock, /proc/self/cmdline, the commit it was built from), handed to the page renderers of
// src/render/.
#pragma once

#include <string>

#include "render/html_pages.hpp"

namespace shufl::cli {

/// Now, as "YYYY-MM-DD HH:MM:SS UTC" (when a page was written).
std::string page_date_utc();

/// The command line that runs this process (/proc/self/cmdline), the program named "shufl" and
/// every other word as a POSIX shell reads it (bare when safe, else single-quoted).
std::string page_command_line();

/// Both and build_commit(), for report_page and audit_report_page.
render::page_provenance page_provenance_now();

}  // namespace shufl::cli
