// Unit tests of the external-memory shuffle (lines/external.hpp): the same bytes as the in-memory
// scatter shuffle for every budget (RAM, files, several levels of files, big leaves), a
// permutation of the input, uniform orders, and clean errors for the temporary directory.
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "shufl/lines.hpp"
#include "shufl/permutation.hpp"
#include "shufl/stats.hpp"
#include "support/run.hpp"

namespace {

using shufl::seed_key;
using shufl::lines::external_settings;
using shufl::lines::external_shuffle;
using shufl::lines::external_stats;

// Records of varied lengths (0 to 40 bytes of payload), explicitly seeded.
std::string make_input(std::size_t n, std::uint64_t seed, bool last_delimiter = true) {
  shufl::xoshiro256pp_engine e(shufl::key_from_seed("external-input-" + std::to_string(seed)));
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    s += std::to_string(i);
    s.append(static_cast<std::size_t>(e() % 40), static_cast<char>('a' + i % 26));
    s += '\n';
  }
  if (!last_delimiter && !s.empty()) s.pop_back();
  return s;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < s.size()) {
    const std::size_t end = s.find('\n', start);
    out.push_back(s.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

// The in-memory reference: THE RULE over record offsets, records written in that order.
std::string reference(std::string input, const seed_key& root, std::uint64_t leaf) {
  if (!input.empty() && input.back() != '\n') input += '\n';
  std::vector<std::uint64_t> items;
  for (std::size_t p = 0; p < input.size(); p = input.find('\n', p) + 1) items.push_back(p);
  shufl::lines::scatter_shuffle(std::span<std::uint64_t>(items), root, leaf);
  std::string out;
  for (const auto p : items) out += input.substr(p, input.find('\n', p) + 1 - p);
  return out;
}

// tmpfs when there is one (thousands of small temporary files are cheaper there), else /tmp.
std::string test_temp_dir() { return ::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"; }

// Runs the external shuffle over `input` (read from a pipe-like memory reader) into a file and
// returns what it wrote.
std::string run_external(const std::string& input, const seed_key& root, std::uint64_t budget,
                         std::uint64_t leaf, external_stats* stats = nullptr,
                         const std::string& temp_dir = test_temp_dir()) {
  shufl::test::temp_dir dir;
  const std::string out_path = dir.file("out");
  {
    const int fd = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    shufl::lines::fd_writer out(fd);
    shufl::lines::record_reader reader(std::string_view(input), '\n');
    external_settings settings;
    settings.memory_budget = budget;
    settings.leaf_records = leaf;
    settings.bucket_buffer = 4096;
    settings.temp_dir = temp_dir;
    external_shuffle ext(reader, '\n', root, settings);
    ext.write(out);
    out.flush();
    if (stats) *stats = ext.stats();
    ::close(fd);
  }
  return shufl::test::read_file(out_path);
}

seed_key root_of(const std::string& seed) {
  return shufl::lines::scatter_root_key(shufl::key_from_seed(seed));
}

TEST(LinesExternal, SameBytesAsInMemoryAtEveryBudget) {
  for (const bool last_delimiter : {true, false}) {
    const std::string input = make_input(3000, 1, last_delimiter);
    for (const std::uint64_t leaf : {std::uint64_t{4}, std::uint64_t{16}, std::uint64_t{65536}}) {
      const seed_key root = root_of("budget-" + std::to_string(leaf));
      const std::string expected = reference(input, root, leaf);
      for (const std::uint64_t budget : {std::uint64_t{1} << 30, std::uint64_t{20000},
                                         std::uint64_t{2000}, std::uint64_t{0}}) {
        external_stats stats;
        const std::string got = run_external(input, root, budget, leaf, &stats);
        ASSERT_EQ(got, expected) << "leaf " << leaf << " budget " << budget;
        EXPECT_EQ(stats.records, 3000u);
        EXPECT_EQ(stats.in_memory, budget == (std::uint64_t{1} << 30));
        if (leaf == 4 && budget == 0) {
          EXPECT_GE(stats.max_depth, 2u) << "several levels of files";
        }
        if (leaf == 65536 && budget < 20000) {
          EXPECT_EQ(stats.big_leaves, 1u) << "one big root leaf";
        }
      }
    }
  }
}

TEST(LinesExternal, AboveTheRealLeafSizeManyBucketFiles) {
  // 70000 records > 65536: the root scatters into 256 files (default leaf size).
  const std::string input = make_input(70000, 2, false);
  const seed_key root = root_of("many-chunks");
  const std::string expected = reference(input, root, shufl::lines::scatter_leaf_records);
  for (const std::uint64_t budget : {std::uint64_t{200000}, std::uint64_t{3000}}) {
    external_stats stats;
    const std::string got =
        run_external(input, root, budget, shufl::lines::scatter_leaf_records, &stats);
    ASSERT_EQ(got, expected) << budget;
    EXPECT_FALSE(stats.in_memory);
    EXPECT_GE(stats.temp_files, 256u);
    EXPECT_EQ(stats.max_depth, 1u);
    // A permutation: the same multiset of lines, none lost or duplicated.
    auto a = split(got), b = split(input);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    EXPECT_EQ(a, b);
  }
}

TEST(LinesExternal, BigRecordsAndEmptyInput) {
  // Records far larger than the budget go through a big leaf (pread in chunks).
  std::string input = "short\n";
  input.append(3u << 20, 'x');
  input.append("\n\nlast");
  const seed_key root = root_of("big");
  external_stats stats;
  EXPECT_EQ(run_external(input, root, 1024, 65536, &stats), reference(input, root, 65536));
  EXPECT_EQ(stats.big_leaves, 1u);
  EXPECT_EQ(run_external("", root, 0, 4), "");
  EXPECT_EQ(run_external("\n", root, 0, 4), "\n");
}

// Chi-squared over the 24 orders of 4 records (the last without its delimiter) with no RAM at
// all: every seed goes through temporary files.
TEST(LinesExternal, OrdersAreUniformThroughFiles) {
  const std::string input = "0\n1\n2\n3";
  // (a) Leaf size 1: the root and any colliding bucket are scattered to files again.
  // (b) The real leaf size: a big leaf, Fisher–Yates over record indices read back with pread.
  for (const std::uint64_t leaf : {std::uint64_t{1}, shufl::lines::scatter_leaf_records}) {
    const int seeds = leaf == 1 ? 960 : 2400;
    std::vector<std::uint64_t> counts(24, 0);
    for (int s = 0; s < seeds; ++s) {
      const std::string out = run_external(input, root_of(std::string("u").append(std::to_string(s))), 0, leaf);
      ASSERT_EQ(out.size(), 8u);
      std::array<std::uint8_t, 4> order{};
      for (std::size_t i = 0; i < 4; ++i) order[i] = static_cast<std::uint8_t>(out[2 * i] - '0');
      ++counts[shufl::rank_permutation(std::span<const std::uint8_t>(order))];
    }
    EXPECT_GT(shufl::pearson_uniform(counts).p_value, 1e-4) << "leaf " << leaf;
  }
}

TEST(LinesExternal, TemporaryDirectoryErrorsAndNothingLeftBehind) {
  const std::string input = make_input(100, 3);
  try {
    run_external(input, root_of("x"), 0, 4, nullptr, "/nonexistent-shufl-dir");
    FAIL() << "no error";
  } catch (const shufl::error& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot create temporary file in '/nonexistent-shufl-dir': No such file or directory");
  }
  shufl::test::temp_dir dir;
  run_external(input, root_of("x"), 0, 4, nullptr, dir.path());
  DIR* d = ::opendir(dir.path().c_str());
  ASSERT_NE(d, nullptr);
  int entries = 0;
  while (const dirent* e = ::readdir(d)) entries += std::string(e->d_name) != "." && std::string(e->d_name) != "..";
  ::closedir(d);
  EXPECT_EQ(entries, 0) << "temporary files have no name";
}

}  // namespace
