// When a page was written and the command line that wrote it (page_provenance.hpp).
#include "page_provenance.hpp"

#include <algorithm>
#include <ctime>
#include <fstream>
#include <iterator>
#include <string_view>

namespace shufl::cli {

namespace {

// A word as a POSIX shell reads it: bare when it holds only safe characters, else single-quoted.
std::string shell_word(const std::string& w) {
  const bool safe = !w.empty() && std::all_of(w.begin(), w.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("_./:=,+-%@").find(c) != std::string_view::npos;
  });
  if (safe) return w;
  std::string out(1, '\'');
  for (const char c : w) {
    if (c == '\'') {
      out.append("'\\''");
    } else {
      out.push_back(c);
    }
  }
  out.push_back('\'');
  return out;
}

}  // namespace

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
  std::string command;
  std::size_t start = 0;
  for (std::size_t k = 0; start < raw.size(); ++k) {
    std::size_t end = raw.find('\0', start);
    if (end == std::string::npos) end = raw.size();
    if (k == 0) {
      command.append("shufl");
    } else {
      command.push_back(' ');
      command.append(shell_word(raw.substr(start, end - start)));
    }
    start = end + 1;
  }
  return command;
}

render::page_provenance page_provenance_now() { return {page_date_utc(), page_command_line(), {}}; }

}  // namespace shufl::cli
