// The default thread count (cpus.hpp): affinity mask and cgroup CPU quota.
#include "shufl/cpus.hpp"

#include <sched.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <fstream>
#include <string>
#include <thread>

namespace shufl {

namespace {

std::optional<std::uint64_t> parse_u64(std::string_view s) noexcept {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<unsigned> cpus_of_quota(std::uint64_t quota, std::uint64_t period) noexcept {
  if (period == 0 || quota == 0) return std::nullopt;
  const std::uint64_t cpus = quota / period + (quota % period != 0 ? 1 : 0);
  return static_cast<unsigned>(std::min<std::uint64_t>(cpus, 1u << 20));
}

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// The smallest quota of the process's cgroup and its parents (v2), or of its cpu controller (v1).
std::optional<unsigned> cgroup_cpus() {
  std::optional<unsigned> best;
  const auto take = [&](std::optional<unsigned> c) {
    if (c && (!best || *c < *best)) best = c;
  };
  std::ifstream in("/proc/self/cgroup");
  for (std::string line; std::getline(in, line);) {
    // ID:CONTROLLERS:PATH; v2 has ID 0 and no controllers.
    const auto c1 = line.find(':'), c2 = c1 == std::string::npos ? c1 : line.find(':', c1 + 1);
    if (c2 == std::string::npos) continue;
    std::string controllers(1, ',');
    controllers.append(line, c1 + 1, c2 - c1 - 1);
    controllers += ',';
    std::string path = line.substr(c2 + 1);
    if (path == "/") path.clear();
    if (controllers == ",,") {  // v2: the process's cgroup and each parent up to the root
      for (;;) {
        take(cpus_of_cpu_max(first_line("/sys/fs/cgroup" + path + "/cpu.max")));
        if (path.empty()) break;
        path = path.substr(0, path.rfind('/'));
      }
    } else if (controllers.find(",cpu,") != std::string::npos) {  // v1: the cpu controller's hierarchy
      const std::string base = "/sys/fs/cgroup/cpu" + path;
      const auto q = parse_u64(first_line(base + "/cpu.cfs_quota_us"));  // -1 (no limit) does not parse
      const auto p = parse_u64(first_line(base + "/cpu.cfs_period_us"));
      if (q && p) take(cpus_of_quota(*q, *p));
    }
  }
  return best;
}

}  // namespace

std::optional<unsigned> cpus_of_cpu_max(std::string_view line) noexcept {
  while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.remove_suffix(1);
  const auto space = line.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  const auto quota = parse_u64(line.substr(0, space)), period = parse_u64(line.substr(space + 1));
  if (!quota || !period) return std::nullopt;  // "max 100000": no limit
  return cpus_of_quota(*quota, *period);
}

unsigned default_threads() noexcept {
  unsigned cpus = 0;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0) cpus = static_cast<unsigned>(CPU_COUNT(&set));
  if (cpus == 0) cpus = std::thread::hardware_concurrency();
  try {
    if (const auto quota = cgroup_cpus(); quota && *quota < cpus) cpus = *quota;
  } catch (...) {  // an unreadable cgroup file system: the mask alone
  }
  return std::max(1u, cpus);
}

}  // namespace shufl
