// When a page was written and the command line that wrote it (page_provenance.hpp).
#include "page_provenance.hpp"

#include <ctime>
#include <fstream>
#include <iterator>

#include "build_info.hpp"
#include "render/text_escape.hpp"

namespace shufl::cli {

std::string page_date_utc() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char date[40];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", &utc);
  return date;
}

std::string page_command_line() {
  std::ifstream cmdline("/proc/self/cmdline", std::ios::binary);
  const std::string raw((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
  return render::shell_command_line(raw);
}

render::page_provenance page_provenance_now() { return {page_date_utc(), page_command_line(), {}, build_commit()}; }

}  // namespace shufl::cli
