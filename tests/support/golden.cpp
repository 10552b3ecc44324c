#include "support/golden.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "support/run.hpp"
#include "shufl/version.hpp"

namespace shufl::test {

int check_golden_cases(const std::string& dir,
                       const std::function<std::vector<std::string>(const std::vector<std::string>&)>& make_args) {
  const bool update = std::getenv("SHUFL_UPDATE_GOLDEN") != nullptr;
  const std::string version = std::string("\"shufl_version\": \"") + SHUFL_VERSION + "\"";
  std::istringstream table(read_file(dir + "/cases.txt"));
  int cases = 0;
  for (std::string line; std::getline(table, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name;
    fields >> name;
    std::vector<std::string> words;
    for (std::string w; fields >> w;) words.push_back(w);
    const run_result r = run_shufl(make_args(words));
    EXPECT_EQ(r.status, 0) << name << ": " << r.err;
    std::string out = r.out;
    if (const auto at = out.find(version); at != std::string::npos) {
      out.replace(at, version.size(), "\"shufl_version\": \"VERSION\"");
    }
    const std::string path = dir + "/" + name + ".out";
    if (update) {
      std::ofstream(path, std::ios::binary) << out;
    } else {
      EXPECT_EQ(out, read_file(path)) << name;
    }
    ++cases;
  }
  return cases;
}

}  // namespace shufl::test
