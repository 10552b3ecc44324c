// End-to-end: text from the user is escaped in every output: a seed with U+FFFE or U+FFFF in
// the SVG (XML has no such characters), a file name with control bytes in the audit header.
#include <gtest/gtest.h>

#include <string>

#include "support/run.hpp"
#include "support/test_rng.hpp"

namespace shufl::test {
namespace {

// A seed with U+FFFE or U+FFFF made the SVG one that XML parsers refuse; the audit text header
// printed a file name's ESC raw (a terminal obeyed it).
TEST(E2eEscapes, SvgTakesAnySeedAndTheAuditHeaderEscapesTheFileName) {
  temp_dir dir;
  const std::string svg = dir.file("plot.svg");
  const run_result b = run_shufl({"bias", "--n", "3", "--trials", "600", "--seed", "s\xEF\xBF\xBE\xEF\xBF\xBF", "--plot", svg});
  ASSERT_EQ(b.status, 0) << b.err;
  const run_result parsed =
      run_shell("/usr/bin/python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1]); print(\"ok\")' '" +
                svg + "'");
  EXPECT_EQ(parsed.out, "ok\n") << parsed.err;
  const std::string named = dir.write("a\x1b[31m.txt", deck_line(test_rng{1}.deck(52)));
  const run_result a = run_shufl({"audit", named});
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_EQ(a.out.find('\x1b'), std::string::npos);
  EXPECT_NE(a.out.find("audit of '" + dir.path() + "/a\\033[31m.txt': 1 deck "), std::string::npos) << a.out.substr(0, 200);
}

}  // namespace
}  // namespace shufl::test
