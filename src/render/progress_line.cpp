#include "render/progress_line.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace shufl::render {

namespace {

// 12.3M, 950K, 4.20G: three significant digits.
std::string rate_text(double per_second) {
  const char* unit = "";
  for (const char* u : {"K", "M", "G"}) {
    if (per_second < 1000) break;
    per_second /= 1000;
    unit = u;
  }
  return fmt::format("{:.{}f}{}", per_second, per_second < 10 ? 2 : per_second < 100 ? 1 : 0, unit);
}

// 0:07, 12:34, 1:02:03.
std::string duration_text(double seconds) {
  const auto s = static_cast<std::uint64_t>(std::llround(std::max(seconds, 0.0)));
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

}  // namespace

std::string bias_progress_line(const std::string& label, std::size_t k, std::size_t m, std::uint64_t done,
                               std::uint64_t total, double seconds, std::size_t columns) {
  const double part = total > 0 ? std::min(1.0, static_cast<double>(done) / static_cast<double>(total)) : 0.0;
  const double overall = m > 0 ? (static_cast<double>(k) + part) / static_cast<double>(m) : part;
  const std::string head = fmt::format("{} ({} of {}) ", label, k + 1, m);
  std::string tail = fmt::format(" {:3.0f}%", 100 * part);
  // The rate over the whole run (each algorithm runs `total` trials).
  const double trials_done = static_cast<double>(k) * static_cast<double>(total) + static_cast<double>(done);
  if (trials_done > 0 && seconds > 0.2) tail += fmt::format("  {:>5} trials/s", rate_text(trials_done / seconds));
  tail += overall > 0.001 && seconds > 0.2 ? fmt::format("  {} left", duration_text(seconds * (1 - overall) / overall))
                                           : std::string("  --:-- left");
  const std::size_t room = columns - 1;
  std::string out;
  if (head.size() + tail.size() + 12 <= room) {
    const std::size_t width = std::min<std::size_t>(40, room - head.size() - tail.size() - 2);
    const auto filled = static_cast<std::size_t>(part * static_cast<double>(width));
    out = head + "[" + std::string(filled, '#') + std::string(width - filled, ' ') + "]" + tail;
  } else {
    out = head + tail.substr(1);
  }
  if (out.size() > room) out.resize(room);  // a very long label on a narrow terminal
  return out;
}

std::string lines_progress_line(std::string_view phase, std::uint64_t done, std::uint64_t total) {
  const double gib = static_cast<double>(done) / (1 << 30);
  char buffer[128];
  if (total > 0) {
    const auto percent = static_cast<int>(100.0 * static_cast<double>(done) / static_cast<double>(total));
    std::snprintf(buffer, sizeof buffer, " %.2f GiB (%d%%)", gib, percent);
  } else {
    std::snprintf(buffer, sizeof buffer, " %.2f GiB", gib);
  }
  return "shufl: " + std::string(phase) + buffer;
}

}  // namespace shufl::render
