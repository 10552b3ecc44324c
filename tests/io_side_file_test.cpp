// Unit tests of shufl/io/side_file.hpp as a library call (the command line's use of it is in
// e2e_side_files_test.cpp): nothing reaches the target before commit, an uncommitted temporary
// is removed, the format and same-file checks, and rewritten_file's one-message-per-file rule.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "shufl/error.hpp"
#include "shufl/io/side_file.hpp"
#include "support/run.hpp"

namespace shufl {
namespace {

std::size_t entries(const std::string& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

TEST(IoSideFile, TheTargetKeepsItsOldTextUntilCommit) {
  const test::temp_dir dir;
  const std::string target = dir.write("counts.json", "old\n");
  {
    io::side_file f("--save-counts", target);
    EXPECT_EQ(test::read_file(target), "old\n");
    EXPECT_EQ(entries(dir.path()), 2u);  // the target and its temporary
    EXPECT_EQ(f.commit("new\n"), "");
    EXPECT_EQ(f.commit("again\n"), "cannot write '" + target + "' (--save-counts): already written");
  }
  EXPECT_EQ(test::read_file(target), "new\n");
  EXPECT_EQ(entries(dir.path()), 1u);
}

TEST(IoSideFile, AnUncommittedTemporaryIsRemoved) {
  const test::temp_dir dir;
  const std::string target = dir.file("plot.svg");
  { const io::side_file f("--plot", target, io::side_format::svg); }
  EXPECT_EQ(entries(dir.path()), 0u);
}

TEST(IoSideFile, ANameOfAnotherFormatIsRefusedBeforeAnyFile) {
  const test::temp_dir dir;
  EXPECT_THROW(io::side_file("--plot", dir.file("plot.png"), io::side_format::svg), error);
  EXPECT_THROW(io::check_side_format("--report", "page.pdf", io::side_format::html), error);
  EXPECT_NO_THROW(io::check_side_format("--report", "PAGE.HTM", io::side_format::html));
  EXPECT_NO_THROW(io::check_side_format("--plot", ".hidden", io::side_format::svg));
  EXPECT_EQ(entries(dir.path()), 0u);
}

TEST(IoSideFile, AnOutputOverAnInputIsRefused) {
  const test::temp_dir dir;
  const std::string in = dir.write("in.txt", "x\n");
  const std::string link = dir.file("link.txt");
  ASSERT_EQ(::symlink(in.c_str(), link.c_str()), 0);
  try {
    io::check_distinct_files({{"", in, false}, {"--save-counts", link, true}});
    FAIL() << "not refused";
  } catch (const error& e) {
    EXPECT_EQ(std::string(e.what()), "--save-counts '" + link + "' would overwrite the input file");
  }
  EXPECT_NO_THROW(io::check_distinct_files({{"--resume", in, false, "--save-counts"}, {"--save-counts", in, true}}));
  EXPECT_THROW(io::check_distinct_files({{"--plot", dir.file("a"), true}, {"--report", dir.path() + "/./a", true}}), error);
}

TEST(IoSideFile, ARewrittenFileTellsItsFailureOnce) {
  const test::temp_dir dir;
  const std::string sub = dir.file("sub");
  ASSERT_EQ(::mkdir(sub.c_str(), 0700), 0);
  std::optional<io::rewritten_file> f;
  f.emplace("--state", sub + "/state.json");
  EXPECT_EQ(f->write("1\n"), "");
  EXPECT_EQ(test::read_file(sub + "/state.json"), "1\n");
  std::filesystem::remove_all(sub);  // the directory is gone: every later write fails
  EXPECT_NE(f->write("2\n"), "");
  EXPECT_EQ(f->write("3\n"), "");
  EXPECT_TRUE(f->failed());
  EXPECT_THROW(io::rewritten_file("--metrics", sub + "/m.prom"), error);
}

}  // namespace
}  // namespace shufl
