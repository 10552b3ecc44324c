// Long tests of the external shuffle (built with -DSHUFL_LONG_TESTS=ON, ctest label "long"):
// the command line itself going two levels deep into temporary files, and more seeds for the
// uniformity of orders through files.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <string>
#include <vector>

#include "shufl/lines.hpp"
#include "shufl/permutation.hpp"
#include "shufl/stats.hpp"
#include "support/run.hpp"

namespace {

std::string sh_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// 17,500,000 records of 56 bytes (980 MB): a root bucket holds about 68,000 records (> 65,536)
// and 3.8 MB (> the record budget of --memory 16M), so it is scattered again into files. The
// output must be the same bytes as the in-memory shuffle, from a file and from a pipe.
TEST(LinesExternalLong, TwoLevelsOfFilesFromTheCommandLine) {
  shufl::test::temp_dir dir;
  const std::string in = dir.file("in");
  const std::string shufl = sh_quote(shufl::test::shufl_binary()) + " lines --seed deep ";
  const auto r = shufl::test::run_shell(
      "awk 'BEGIN { for (i = 0; i < 17500000; i++) printf \"%055d\\n\", i }' > " + sh_quote(in) +
      " && " + shufl + sh_quote(in) + " | sha256sum && " + shufl + "--memory 16M " + sh_quote(in) +
      " | sha256sum && cat " + sh_quote(in) + " | " + shufl + "--memory 16M --temp-dir " +
      sh_quote(dir.path()) + " | sha256sum");
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(r.out.size(), 3 * 68u) << r.out;
  EXPECT_EQ(r.out.substr(0, 68), r.out.substr(68, 68));
  EXPECT_EQ(r.out.substr(0, 68), r.out.substr(136, 68));
}

// Chi-squared over the 120 orders of 5 records with no RAM at all and leaf size 2 (the root
// and any bucket with three or more records go to files), many seeds.
TEST(LinesExternalLong, OrdersOfFiveAreUniformThroughFiles) {
  const std::string input = "0\n1\n2\n3\n4";
  const std::string temp = ::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  std::vector<std::uint64_t> counts(120, 0);
  for (int s = 0; s < 6000; ++s) {
    shufl::test::temp_dir dir;
    const std::string out_path = dir.file("out");
    {
      const int fd = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      shufl::lines::fd_writer out(fd);
      shufl::lines::record_reader reader(std::string_view(input), '\n');
      shufl::lines::external_settings settings;
      settings.memory_budget = 0;
      settings.leaf_records = 2;
      settings.bucket_buffer = 4096;
      settings.temp_dir = temp;
      shufl::lines::external_shuffle ext(
          reader, '\n', shufl::lines::scatter_root_key(shufl::key_from_seed(std::to_string(s))), settings);
      ext.write(out);
      out.flush();
      ::close(fd);
    }
    const std::string got = shufl::test::read_file(out_path);
    ASSERT_EQ(got.size(), 10u);
    std::array<std::uint8_t, 5> order{};
    for (std::size_t i = 0; i < 5; ++i) order[i] = static_cast<std::uint8_t>(got[2 * i] - '0');
    ++counts[shufl::rank_permutation(std::span<const std::uint8_t>(order))];
  }
  EXPECT_GT(shufl::pearson_uniform(counts).p_value, 1e-4);
}

}  // namespace
