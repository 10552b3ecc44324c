// Helpers of the `shufl audit --follow` end-to-end tests: its JSON lines parsed, decks made by
// the binary, and a poll-friendly "does this file hold that text yet". Header-only.
#pragma once

#include <unistd.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "run.hpp"

namespace shufl::test {

/// Each line of `out` parsed as one JSON value (the --format json records, in order).
inline std::vector<nlohmann::json> json_lines(const std::string& out) {
  std::vector<nlohmann::json> v;
  for (const auto& line : lines(out)) v.push_back(nlohmann::json::parse(line));
  return v;
}

/// `count` decks of `shufl deck --seed seed` (one deck a line).
inline std::string decks(int count, const std::string& seed) {
  return run_shufl({"deck", "--count", std::to_string(count), "--seed", seed}).out;
}

/// Whether the file holds `what` (false while it does not exist yet).
inline bool contains(const std::string& path, const std::string& what) {
  if (access(path.c_str(), R_OK) != 0) return false;
  return read_file(path).find(what) != std::string::npos;
}

}  // namespace shufl::test
