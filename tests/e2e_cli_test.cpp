// End-to-end tests of the command-line conventions shared by every subcommand: side files (U05),
// empty seeds (S09), "did you mean" (U03), option conventions (U04).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>

#include "support/run.hpp"

namespace shufl {
namespace {

using test::run_shufl;

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

std::size_t files_in(const std::string& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

// U05: a side file in a missing directory fails at once, with the reason, before any trial
// (20,000,000 trials of n = 52 take 12 s of CPU in Release, far more in a sanitizer build; the
// refusal takes milliseconds, up to 0.5 s of start-up under sanitizers). CPU time, not wall time: a loaded machine must not fail the test.
TEST(E2eCli, U05SideFileInMissingDirectoryFailsBeforeTheWork) {
  for (const char* option : {"--plot", "--save-counts"}) {
    const double before = test::children_cpu_seconds();
    const auto r = run_shufl({"bias", "--n", "52", "--trials", "20000000", option, "/nonexistent/x.svg"});
    const double seconds = test::children_cpu_seconds() - before;
    EXPECT_EQ(r.status, 1) << option;
    EXPECT_EQ(r.out, "") << option;
    EXPECT_EQ(r.err, std::string("shufl: cannot write '/nonexistent/x.svg' (") + option +
                         "): No such file or directory\n");
    EXPECT_LT(seconds, 2.0) << option << ": the simulation ran before the check (CPU seconds)";
  }
  // A directory as the target is refused at once too.
  test::temp_dir dir;
  const auto r = run_shufl({"bias", "--n", "3", "--trials", "600", "--plot", dir.path()});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err, "Is a directory")) << r.err;
}

// U05: a failed run never truncates an old file, and leaves no temporary file behind.
TEST(E2eCli, U05FailedRunKeepsTheOldFile) {
  test::temp_dir dir;
  const std::string old = dir.write("m.svg", "old contents\n");
  // --input with a malformed permutation fails after the side files were prepared.
  const auto r = run_shufl({"bias", "--input", "-", "--plot", old, "--save-counts", dir.file("c.json")},
                           "1 2 3\n1 1 2\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(test::read_file(old), "old contents\n");
  EXPECT_EQ(files_in(dir.path()), 1u) << "a temporary or partial file was left behind";
}

// U05: a good run replaces the file whole (mode 0666 minus the umask, like any new file), and
// leaves nothing else in the directory.
TEST(E2eCli, U05SuccessfulRunReplacesTheFile) {
  test::temp_dir dir;
  const std::string old = dir.write("m.svg", "old contents\n");
  const auto r = run_shufl({"bias", "--n", "3", "--trials", "600", "--seed", "1", "--plot", old});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string svg = test::read_file(old);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_EQ(files_in(dir.path()), 1u);
  struct stat st {};
  ASSERT_EQ(::stat(old.c_str(), &st), 0);
  const mode_t mask = ::umask(022);
  ::umask(mask);
  EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask);
}

// U05: a side file that fails at the very end (here /dev/full: opened fine, every write fails):
// the report is printed all the same, the error is on stderr, the exit status is 1.
TEST(E2eCli, U05LateFailurePrintsTheReportAndExits1) {
  const auto r = run_shufl({"bias", "--n", "3", "--trials", "600", "--seed", "1", "--plot", "/dev/full"});
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "verdict:")) << r.out;
  EXPECT_EQ(r.err, "shufl: cannot write '/dev/full' (--plot): No space left on device\n");
  // /dev/null is written in place, never replaced.
  const auto ok = run_shufl({"bias", "--n", "3", "--trials", "600", "--save-counts", "/dev/null"});
  EXPECT_EQ(ok.status, 0) << ok.err;
  struct stat st {};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

}  // namespace
}  // namespace shufl

namespace shufl {
namespace {

// S09: an empty --seed (almost always an unset shell variable) is an error in every subcommand,
// also in the `shuf` personality and in the --seed= form; nothing on stdout.
TEST(E2eCli, S09EmptySeedIsAnErrorEverywhere) {
  const std::string message =
      "shufl: empty --seed: probably an unset shell variable (as in --seed \"$SEED\"); give a non-empty "
      "string, or omit --seed for a run seeded by the operating system\n";
  const std::vector<std::vector<std::string>> runs = {
      {"bias", "--n", "3", "--trials", "600", "--seed", ""},
      {"bias", "--seed="},
      {"bias", "--seed", "--trials", "600"},  // --seed $SEED, unquoted and unset
      {"lines", "-e", "a", "b", "--seed", ""},
      {"lines", "--seed=", "-e", "a", "b"},
      {"lines", "--se=", "-i", "1-3"},
      {"deck", "--seed", ""},
      {"deck", "--deal", "2x2", "--seed="},
      {"trace", "--n", "4", "--seed", ""},
      {"trace", "--n", "4", "--seed"},
  };
  for (const auto& args : runs) {
    const auto r = run_shufl(args);
    EXPECT_EQ(r.status, 1) << args[0] << " " << args.back();
    EXPECT_EQ(r.out, "") << args[0];
    EXPECT_EQ(r.err, message) << args[0];
  }
  const auto shuf = test::run_program(test::shufl_binary(), {"--seed=", "-e", "a"}, "", "shuf");
  EXPECT_EQ(shuf.status, 1);
  EXPECT_EQ(shuf.out, "");
  EXPECT_TRUE(contains(shuf.err, "shuf: empty --seed: probably an unset shell variable")) << shuf.err;
  // A one-character seed is still a seed.
  EXPECT_EQ(run_shufl({"lines", "-e", "a", "b", "--seed", " "}).status, 0);
}

}  // namespace
}  // namespace shufl

namespace shufl {
namespace {

// Found by the new-user review: `bias --input` with --plot or --report failed with nlohmann's
// "type must be string, but is null" (the JSON of a read run has no engine). Kind: the pictures
// and pages read every provenance field the report may write as null or {"hex"}: --input, a
// non-UTF-8 seed and label, a merge.
TEST(E2eCli, PicturesOfEveryKindOfRunAreDrawn) {
  test::temp_dir dir;
  const std::string perms = dir.write("perms.txt", "1 2 3\n1 3 2\n2 1 3\n2 3 1\n3 1 2\n3 2 1\n");
  const auto input = run_shufl({"bias", "--input", perms, "--plot", dir.file("in.svg"), "--report", dir.file("in.html")});
  EXPECT_EQ(input.status, 0) << input.err;
  EXPECT_EQ(input.err, "");
  const std::string svg = test::read_file(dir.file("in.svg"));
  EXPECT_TRUE(contains(svg, "6 permutations read from &#39;" + perms + "&#39;")) << svg.substr(0, 600);
  EXPECT_TRUE(contains(test::read_file(dir.file("in.html")), "permutations read from"));
  const auto odd = run_shufl({"bias", "--n", "3", "--trials", "600", "--seed", "run-\xff", "--plot", dir.file("s.svg"),
                              "--report", dir.file("s.html"), "--save-counts", dir.file("s.json")});
  EXPECT_EQ(odd.status, 0) << odd.err;
  EXPECT_TRUE(contains(test::read_file(dir.file("s.svg")), "seed &quot;hex:72756e2dff&quot;"));
  const auto merged = run_shufl({"bias", "--merge", dir.file("s.json"), "--plot", dir.file("m.svg")});
  EXPECT_EQ(merged.status, 0) << merged.err;
  EXPECT_TRUE(contains(test::read_file(dir.file("m.svg")), "seed &quot;hex:72756e2dff&quot;"));
}

}  // namespace
}  // namespace shufl

namespace shufl {
namespace {

// Found by the new-user review: `--plot same.x --save-counts same.x` exited 0 with only the SVG
// left. Kind: two outputs in one file, or a picture over an input, are refused before any work,
// and nothing is written.
TEST(E2eCli, OutputsThatWouldOverwriteEachOtherOrAnInputAreRefused) {
  test::temp_dir dir;
  const std::string perms = dir.write("perms.txt", "1 2 3\n1 3 2\n");
  const auto both = run_shufl({"bias", "--n", "3", "--trials", "600", "--seed", "1", "--plot", dir.file("same.x"),
                               "--save-counts", dir.file("same.x")});
  EXPECT_EQ(both.status, 1);
  EXPECT_EQ(both.out, "");
  EXPECT_EQ(both.err, "shufl: --save-counts and --plot name the same file '" + dir.file("same.x") + "'\n");
  EXPECT_FALSE(std::filesystem::exists(dir.file("same.x")));
  // The same file through another spelling of its path.
  const auto spelled = run_shufl({"bias", "--n", "3", "--trials", "600", "--report", dir.file("r.html"), "--plot",
                                  dir.path() + "/./r.html"});
  EXPECT_EQ(spelled.status, 1);
  EXPECT_TRUE(contains(spelled.err, "name the same file")) << spelled.err;
  const auto over_input = run_shufl({"bias", "--input", perms, "--plot", perms});
  EXPECT_EQ(over_input.status, 1);
  EXPECT_EQ(over_input.err, "shufl: --plot '" + perms + "' would overwrite the --input file\n");
  EXPECT_EQ(test::read_file(perms), "1 2 3\n1 3 2\n");
  // The counts file may extend the file it resumes or merges (read before it is replaced).
  ASSERT_EQ(run_shufl({"bias", "--n", "3", "--trials", "600", "--seed", "1", "--save-counts", dir.file("c.json")}).status, 0);
  EXPECT_EQ(run_shufl({"bias", "--merge", dir.file("c.json"), "--save-counts", dir.file("c.json")}).status, 0);
}

}  // namespace
}  // namespace shufl
