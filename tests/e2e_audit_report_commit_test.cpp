// The audit report page names the build as `shufl --version` does: "shufl VERSION (TYPE build,
// commit C)", the commit read at configure time (src/cli/build_info.cpp.in).
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "support/run.hpp"

namespace shufl {
namespace {

TEST(E2eAuditReportCommit, ToolLineIsTheVersionLineWithItsCommit) {
  const auto version = test::run_shufl({"--version"});
  ASSERT_EQ(version.status, 0) << version.err;
  const std::string first = test::lines(version.out).at(0);
  std::smatch m;
  ASSERT_TRUE(std::regex_match(first, m, std::regex(R"(shufl \S+ \(\w+ build, commit (\S+)\))"))) << first;
  EXPECT_FALSE(m[1].str().empty());

  test::temp_dir dir;
  const std::string page = dir.file("page.html");
  const auto run = test::run_shufl({"audit", "--algo", "fisher-yates", "--trials", "300", "--seed", "1", "--report", page});
  ASSERT_EQ(run.status, 0) << run.err;
  const std::string html = test::read_file(page);
  const std::string row = "<tr><th>tool</th><td>" + first + "</td></tr>";
  EXPECT_NE(html.find(row), std::string::npos) << "no row " << row;
}

}  // namespace
}  // namespace shufl
