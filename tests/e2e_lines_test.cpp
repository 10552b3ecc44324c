// End-to-end tests of `shufl lines` (and the binary invoked as `shuf`): every behaviour of
// shared/gnu-shuf-compat.md, the handed cases L01–L09, differential runs against GNU
// /usr/bin/shuf with the same --random-source bytes (skipped where it is absent), golden files
// made with /usr/bin/shuf, and golden seeded outputs (tests/golden/lines/make_golden.sh).
#include <gtest/gtest.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "shufl/random.hpp"
#include "shufl/stats.hpp"
#include "support/run.hpp"

namespace {

using shufl::test::read_file;
using shufl::test::record_multiset;
using shufl::test::run_program;
using shufl::test::run_result;
using shufl::test::run_shell;
using shufl::test::run_shufl;
using shufl::test::temp_dir;

const std::string kGnuShuf = "/usr/bin/shuf";
const std::string kGolden = shufl::test::source_dir() + "/tests/golden/lines/";

bool have_gnu_shuf() { return ::access(kGnuShuf.c_str(), X_OK) == 0; }

#define REQUIRE_GNU_SHUF() \
  if (!have_gnu_shuf()) GTEST_SKIP() << kGnuShuf << " not present"

std::vector<std::string> lines_args(std::vector<std::string> args) {
  args.insert(args.begin(), "lines");
  return args;
}

run_result lines(const std::vector<std::string>& args, const std::string& input = {}) {
  return run_shufl(lines_args(args), input);
}

// Runs our binary as `shuf` (argv[0] = "shuf"), so messages match GNU's word for word.
run_result as_shuf(const std::vector<std::string>& args, const std::string& input = {},
                   const std::vector<std::string>& env = {}) {
  return run_program(shufl::test::shufl_binary(), args, input, "shuf", env);
}

run_result gnu(const std::vector<std::string>& args, const std::string& input = {},
               const std::vector<std::string>& env = {}) {
  return run_program(kGnuShuf, args, input, "shuf", env);
}

std::string sh_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string shufl_cmd() { return sh_quote(shufl::test::shufl_binary()) + " lines"; }

// Pseudo-random bytes from an explicitly seeded engine.
std::string random_bytes(std::size_t n, std::uint64_t seed) {
  shufl::xoshiro256pp_engine e(shufl::key_from_seed("e2e-source-" + std::to_string(seed)));
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; i += 8) {
    const std::uint64_t w = e();
    for (std::size_t b = 0; b < 8 && i + b < n; ++b) s[i + b] = static_cast<char>(w >> (8 * b));
  }
  return s;
}

std::string seq(std::size_t from, std::size_t to) {
  std::string s;
  for (std::size_t i = from; i <= to; ++i) s += std::to_string(i) + "\n";
  return s;
}


void expect_same(const run_result& ours, const run_result& theirs, const std::string& what) {
  EXPECT_EQ(ours.out, theirs.out) << what;
  EXPECT_EQ(ours.err, theirs.err) << what;
  EXPECT_EQ(ours.status, theirs.status) << what;
}

// ---------------------------------------------------------------------------------------------
// Differential tests against GNU shuf.

TEST(E2eLinesGnu, EveryModeWithEverySourceKind) {
  REQUIRE_GNU_SHUF();
  temp_dir dir;
  const std::string input = dir.write("in", "a\nb\nc\nd\ne\nf\ng\n");
  const std::string input_nonl = dir.write("in2", "one\ntwo\n\nthree");
  const std::vector<std::pair<std::string, std::string>> sources = {
      {"random", random_bytes(4096, 1)},   {"zeros", std::string(4096, '\0')},
      {"ones", std::string(4096, '\xFF')}, {"short", std::string("\x17\x80\x03", 3)},
      {"empty", ""},
  };
  const std::vector<std::vector<std::string>> modes = {
      {input},
      {input_nonl},
      {"-n", "3", input},
      {"-n", "1", input},
      {"-n", "100", input},
      {"-r", "-n", "20", input},
      {"-r", "-n", "100", input},
      {"-z", input},
      {"-z", "-n", "2", input_nonl},
      {"-e", "a", "b", "c"},
      {"-e", "a", "b"},
      {"x", "-e", "y", "z"},
      {"-e", "a", "-n", "2", "b", "c"},
      {"-r", "-n", "9", "-e", "p", "q", "r"},
      {"-i", "1-10"},
      {"-i", "7-7"},
      {"-i", "1-10", "-n", "3"},
      {"-i", "5-4"},
      {"-i", "1-2882303761517117440", "-n", "2"},
      {"-i", "1-18446744073709551615", "-n", "3"},
      {"-i", "0-18446744073709551614", "-n", "2"},
      {"-r", "-i", "1-5", "-n", "10"},
      {"-r", "-i", "1-18446744073709551615", "-n", "4"},
      {"-n", "0", input},
      {"-r", "-n", "0", input},
      {"-i", "1-1000", "-n", "1"},
  };
  for (const auto& [kind, bytes] : sources) {
    const std::string src = dir.write("src-" + kind, bytes);
    for (auto args : modes) {
      args.push_back("--random-source=" + src);
      std::string what = kind + ":";
      for (const auto& a : args) what += " " + a;
      expect_same(as_shuf(args), gnu(args), what);
    }
  }
}

TEST(E2eLinesGnu, PipesWithCountUseTheReservoir) {
  REQUIRE_GNU_SHUF();
  temp_dir dir;
  const std::string src = dir.write("src", random_bytes(1 << 16, 2));
  const std::string zeros = dir.write("zeros", std::string(1 << 16, '\0'));
  const std::string input = seq(1, 3000);
  for (const std::string count : {"1", "3", "10", "2999", "3000", "3001", "5000"}) {
    for (const auto& s : {src, zeros}) {
      const std::vector<std::string> args = {"-n", count, "--random-source=" + s};
      expect_same(as_shuf(args, input), gnu(args, input), "pipe -n " + count + " " + s);
    }
  }
  // The extra draw at end of input: one line, -n 1, an empty source.
  const std::string empty = dir.write("empty", "");
  expect_same(as_shuf({"-n", "1", "--random-source=" + empty}, "a\n"),
              gnu({"-n", "1", "--random-source=" + empty}, "a\n"), "extra draw");
  // All-zero bytes on the reservoir path: seq 10 | shuf -n 3 gives 10 2 3.
  EXPECT_EQ(as_shuf({"-n", "3", "--random-source=" + zeros}, seq(1, 10)).out, "10\n2\n3\n");
}

TEST(E2eLinesGnu, RegularFilesAroundEightMebibytes) {
  REQUIRE_GNU_SHUF();
  temp_dir dir;
  const std::string src = dir.write("src", random_bytes(6 << 20, 3));
  // Exactly 8 MiB (GNU reads it whole) and one byte more (GNU samples with a reservoir).
  std::string eight(8u << 20, 'x');
  for (std::size_t i = 99; i < eight.size(); i += 100) eight[i] = '\n';
  eight.back() = '\n';
  const std::string at = dir.write("at", eight);
  const std::string over = dir.write("over", eight + "y\n");
  for (const auto& file : {at, over}) {
    for (const std::string count : {"1", "5", "1000"}) {
      const std::vector<std::string> args = {"-n", count, "--random-source=" + src, file};
      expect_same(as_shuf(args), gnu(args), "file " + file + " -n " + count);
    }
  }
  // stdin redirected from the big file: the remaining size decides, as in GNU.
  const std::string cmd = " -n 4 --random-source=" + sh_quote(src) + " < " + sh_quote(over);
  EXPECT_EQ(run_shell(shufl_cmd() + cmd).out, run_shell(kGnuShuf + cmd).out);
  // A full shuffle of a file over 8 MiB (about 1.2 M lines).
  std::string big = seq(1, 1250000);
  ASSERT_GT(big.size(), 8u << 20);
  const std::string big_file = dir.write("big", big);
  const std::vector<std::string> full = {"--random-source=" + src, big_file};
  const auto ours = as_shuf(full);
  EXPECT_EQ(ours.status, 0) << ours.err;
  EXPECT_TRUE(ours.out == gnu(full).out);
}

TEST(E2eLinesGnu, RepeatWritesLinesDrawnBeforeTheSourceEnds) {
  REQUIRE_GNU_SHUF();
  temp_dir dir;
  const std::string src = dir.write("src", "\x12\x34\x56");
  const std::string in = dir.write("in", "1\n2\n3\n4\n5\n6\n7\n");
  const std::vector<std::string> args = {"-r", "-n", "100", "--random-source=" + src, in};
  const auto ours = as_shuf(args);
  expect_same(ours, gnu(args), "-r with a short source");
  EXPECT_EQ(ours.status, 1);
  EXPECT_EQ(record_multiset(ours.out).size(), 8u);  // as the compat notes say
}

TEST(E2eLinesGnu, ErrorMessagesInBothLocales) {
  REQUIRE_GNU_SHUF();
  temp_dir dir;
  const std::string src = dir.write("src", "ab");
  const std::string in = dir.write("in", "a\nb\n");
  const std::vector<std::vector<std::string>> cases = {
      {"-n", "1x"}, {"-n", "-0"}, {"-n", "-1"}, {"-n", "0x10"}, {"-n", ""}, {"-n", "5k", "-e", "a"},
      {"-n", "99999999999999999999x", "-e", "a"},
      {"-i", "1-1k"}, {"-i", "1-"}, {"-i", "-1-2"}, {"-i", "5"}, {"-i", "3-1"}, {"-i", "1 -3"},
      {"-i", "0x1-2"}, {"-i", "1-2-3"}, {"-i", "1-99999999999999999999999"},
      {"-i", "0-18446744073709551615"}, {"-i", "1-18446744073709551616"},
      {"-i", "1-2", "-i", "3-4"}, {"-e", "a", "-i", "1-2"}, {"-i", "1-3", "extra"},
      {in, "y"}, {"-o", "a", "-o", "b"}, {"--random-source=a", "--random-source=b"},
      {"--rep=3"}, {"--foo"}, {"-x"}, {"-n"}, {"--r"}, {"--h"},
      {"/nonexistent"}, {"-n", "1", "/nonexistent"}, {"/tmp"}, {"-n", "1", "/tmp"},
      {"-e", "a", "-o", "/nonexistent/x"}, {"-e", "a", "-o", "/tmp"},
      {"-e", "a", "--random-source=/nonexistent"}, {"-e", "a", "--random-source=a b"},
      {"-r", "-n", "0", "--random-source=/nonexistent"}, {"-r", "--random-source=" + src},
      {"-e", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p",
       "--random-source=" + src},
      {"-i", "1-18446744073709551615", "--random-source=" + src},
      {"-i", "1-18446744073709551615", "--random-source=/nonexistent"},
  };
  for (const std::string locale : {"LC_ALL=C", "LC_ALL=C.UTF-8"}) {
    for (const auto& args : cases) {
      std::string what = locale;
      for (const auto& a : args) what += " " + a;
      expect_same(as_shuf(args, "", {locale}), gnu(args, "", {locale}), what);
    }
  }
}

TEST(E2eLinesGnu, OptionParsingRules) {
  REQUIRE_GNU_SHUF();
  temp_dir dir;
  const std::string src = dir.write("src", random_bytes(4096, 4));
  const std::string in = dir.write("in", seq(1, 20));
  const std::string rs = "--random-source=" + src;
  const std::vector<std::vector<std::string>> cases = {
      {"--rep", "--head=3", in, rs},      {"--input=1-3", rs},          {in, "-n", "2", rs},
      {"--head-count", "4", in, rs},      {"-n", "5", "-n", "2", in, rs}, {"-n", " +5", in, rs},
      {"-n", "99999999999999999999", in, rs}, {"-n", "18446744073709551615", in, rs},
      {rs, "--", "-e"},                    {"-e", rs, "--", "-n", "x"}, {"-ze", "a", "b", rs},
      {"--zero", "-e", "a", "b", rs},      {"-n3", in, rs},            {"-i", " +1-+2", rs},
      {"--e", "a", "b", rs},               {"--random=" + src, "-e", "a", "b"},
      {"-o", dir.file("o"), "-o", dir.file("o"), "-e", "a", rs},
      {rs, rs, "-e", "a", "b"},
  };
  for (const auto& args : cases) {
    std::string what;
    for (const auto& a : args) what += " " + a;
    expect_same(as_shuf(args), gnu(args), what);
  }
}

TEST(E2eLinesGnu, SourceAndOutputAreOpenedWhenGnuOpensThem) {
  REQUIRE_GNU_SHUF();
  // The random source is opened whenever a line will be output (or -r / a reservoir), not for
  // no output or -n 0.
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"-e", "a"}, {"-n", "0", "-e", "a"}, {"-r", "-n", "0"}, {}, {"-r"}, {"-n", "1"}, {"-n", "0"},
           {"-i", "5-4"}, {"-i", "5-4", "-r"}}) {
    auto a = args;
    a.push_back("--random-source=/nonexistent");
    std::string what;
    for (const auto& x : a) what += " " + x;
    expect_same(as_shuf(a), gnu(a), what);
  }
}

// ---------------------------------------------------------------------------------------------
// Golden files (pinned where /usr/bin/shuf is absent).

TEST(E2eLinesGolden, GnuOutputsMadeWithUsrBinShuf) {
  const std::string src = "--random-source=" + kGolden + "source.bin";
  const std::string in = kGolden + "input.txt";
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"gnu_full.out", {src, in}},
      {"gnu_n5.out", {"-n", "5", src, in}},
      {"gnu_r7.out", {"-r", "-n", "7", src, in}},
      {"gnu_z.out", {"-z", src, in}},
      {"gnu_e.out", {"-e", "a", "b", "c", "d", "e", src}},
      {"gnu_i.out", {"-i", "10-40", src}},
      {"gnu_i_huge.out", {"-i", "1-2882303761517117440", "-n", "2", src}},
  };
  for (const auto& [file, args] : cases) {
    const auto r = lines(args);
    EXPECT_EQ(r.status, 0) << file << r.err;
    EXPECT_EQ(r.out, read_file(kGolden + file)) << file;
  }
  EXPECT_EQ(lines({"-n", "3", src}, read_file(in)).out, read_file(kGolden + "gnu_pipe_n3.out"));
}

TEST(E2eLinesGolden, SeededOutputsArePinned) {
  const std::string in = kGolden + "input.txt";
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"seed_full.out", {"--seed", "golden", in}},
      {"seed_n5.out", {"--seed", "golden", "-n", "5", in}},
      {"seed_r7.out", {"--seed", "golden", "-r", "-n", "7", in}},
      {"seed_z.out", {"--seed", "golden", "-z", in}},
      {"seed_e.out", {"--seed", "golden", "-e", "a", "b", "c", "d", "e"}},
      {"seed_i.out", {"--seed", "golden", "-i", "10-40"}},
      {"seed_i_n.out", {"--seed", "golden", "-i", "1-18446744073709551615", "-n", "3"}},
  };
  for (const auto& [file, args] : cases) {
    const auto r = lines(args);
    EXPECT_EQ(r.status, 0) << file << r.err;
    EXPECT_EQ(r.out, read_file(kGolden + file)) << file;
    // The same from a pipe.
    if (args.back() == in) {
      auto piped = args;
      piped.pop_back();
      EXPECT_EQ(lines(piped, read_file(in)).out, r.out) << file << " from a pipe";
    }
  }
  // -n 10 of 100000 lines: most records are skipped over (skip-based reservoir), from a pipe and
  // from a file; tests/golden/lines/independent_sample.py recomputes this golden in Python.
  {
    const std::string golden = read_file(kGolden + "seed_n10_seq100000.out");
    EXPECT_EQ(lines({"--seed", "golden", "-n", "10"}, seq(1, 100000)).out, golden);
    shufl::test::temp_dir dir;
    const std::string f = dir.write("seq", seq(1, 100000));
    EXPECT_EQ(lines({"--seed", "golden", "-n", "10", f}).out, golden);
  }
  // Above the scatter leaf size (two levels of the rule): pinned by SHA-256.
  const auto big = lines({"--seed", "golden", "-i", "1-200000"});
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(big.out.data()), big.out.size());
  char hex[2 * crypto_hash_sha256_BYTES + 1];
  sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
  std::string expected = read_file(kGolden + "seed_i_200000.sha256");
  expected.erase(expected.find_last_not_of("\n") + 1);
  EXPECT_EQ(std::string(hex), expected);
  // -i and the same numbers as lines give the same full shuffle.
  EXPECT_EQ(lines({"--seed", "golden"}, seq(1, 200000)).out, big.out);
}

// ---------------------------------------------------------------------------------------------
// Seeded mode.

TEST(E2eLinesSeed, FileAndPipeGiveTheSameOutputInEveryMode) {
  temp_dir dir;
  const std::string content = seq(1, 100000);
  const std::string file = dir.write("in", content);
  for (const auto& extra : std::vector<std::vector<std::string>>{
           {}, {"-n", "10"}, {"-n", "99999"}, {"-r", "-n", "50"}, {"-z"}}) {
    auto with_file = extra;
    with_file.insert(with_file.begin(), {"--seed", "same"});
    auto with_pipe = with_file;
    with_file.push_back(file);
    const auto a = lines(with_file);
    const auto b = lines(with_pipe, content);
    EXPECT_EQ(a.status, 0);
    EXPECT_EQ(a.out, b.out);
    if (extra.empty()) {
      EXPECT_EQ(record_multiset(a.out), record_multiset(content));
    }
  }
  // -e records and the same bytes as a file give the same shuffle and sample.
  const std::string abc = dir.write("abc", "a\nb\nc\nd\n");
  EXPECT_EQ(lines({"--seed", "3", "-e", "a", "b", "c", "d"}).out, lines({"--seed", "3", abc}).out);
  EXPECT_EQ(lines({"--seed", "3", "-n", "2", "-e", "a", "b", "c", "d"}).out,
            lines({"--seed", "3", "-n", "2", abc}).out);
}

TEST(E2eLinesSeed, SeedWithRandomSourceIsAnError) {
  const auto r = lines({"--seed", "1", "--random-source=/dev/zero", "-e", "a"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "shufl: cannot combine --seed and --random-source options\n"
            "Try 'shufl lines --help' for more information.\n");
  EXPECT_EQ(lines({"--seed", "1", "--seed", "2", "-e", "a"}).err, "shufl: multiple seeds specified\n");
}

TEST(E2eLinesSeed, HugeSparseRangeIsInstantAndHugeFullRangeFailsCleanly) {
  const auto start = std::chrono::steady_clock::now();
  const auto r = lines({"-i", "1-18446744073709551615", "-n", "3"});
  // A bound for a hang, not a speed test: walking the range would take centuries.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(record_multiset(r.out).size(), 3u);
  const auto full = lines({"--seed", "1", "-i", "1-18446744073709551615"});
  EXPECT_EQ(full.status, 1);
  EXPECT_EQ(full.err, "shufl: memory exhausted\n");
  EXPECT_EQ(full.out, "");
}

TEST(E2eLinesSeed, SampleOfAStreamUsesMemoryOfTheCountNotTheInput) {
  if (::access("/usr/bin/time", X_OK) != 0) GTEST_SKIP() << "/usr/bin/time not present";
#if defined(__SANITIZE_ADDRESS__) || defined(SHUFL_SANITIZED)  // (clang does not define the first)
  GTEST_SKIP() << "peak RSS is not meaningful under AddressSanitizer";
#endif
  const auto r = run_shell("seq 3000000 | /usr/bin/time -f %M " + shufl_cmd() +
                           " -n 3 --seed 1 2>&1 >/dev/null");
  ASSERT_EQ(r.status, 0);
  EXPECT_LT(std::stol(r.out), 16 * 1024) << "peak RSS in KiB";
}

// ---------------------------------------------------------------------------------------------
// General behaviour.

TEST(E2eLines, HelpVersionAndShufName) {
  const auto help = lines({"--help"});
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("Usage: shufl lines [OPTION]... [FILE]"), std::string::npos);
  EXPECT_NE(help.out.find("--seed"), std::string::npos);
  EXPECT_NE(help.out.find("--random-source"), std::string::npos);
  const auto version = lines({"--version"});
  EXPECT_EQ(version.status, 0);
  EXPECT_NE(version.out.find("License: MIT"), std::string::npos) << version.out;
  EXPECT_EQ(lines({"--hel"}).status, 0);
  // A real `shuf` symlink to the binary behaves as `shufl lines`, with `shuf:` messages.
  temp_dir dir;
  const std::string link = dir.file("shuf");
  std::filesystem::create_symlink(shufl::test::shufl_binary(), link);
  const auto ok = run_program(link, {"--seed", "1", "-e", "a", "b"}, "", "shuf");
  EXPECT_EQ(record_multiset(ok.out), (std::multiset<std::string>{"a", "b"}));
  const auto bad = run_shell("LC_ALL=C " + sh_quote(link) + " -n x");
  EXPECT_EQ(bad.err, "shuf: invalid line count: 'x'\n");
  EXPECT_EQ(run_shell(sh_quote(link) + " --help").out.rfind("Usage: shuf [OPTION]", 0), 0u);
  const auto usage = lines({"-e", "a", "-i", "1-2"});
  EXPECT_EQ(usage.err, "shufl: cannot combine -e and -i options\nTry 'shufl lines --help' for more information.\n");
  EXPECT_EQ(lines({"--bogus"}).err, "shufl: unrecognized option '--bogus'\nTry 'shufl lines --help' for more information.\n");
}

TEST(E2eLines, ModeExclusionsAndOperands) {
  EXPECT_EQ(lines({"-i", "1-3", "x"}).status, 1);
  EXPECT_EQ(lines({"a", "b"}).err.find("extra operand"), 7u);
  EXPECT_EQ(lines({"-i", "5-4"}).out, "");
  EXPECT_EQ(lines({"-i", "5-4"}).status, 0);
  EXPECT_EQ(lines({"-r"}, "").err, "shufl: no lines to repeat\n");
  EXPECT_EQ(lines({"-r", "-n", "0"}, "").status, 0);
  EXPECT_EQ(lines({"-n", "0", "/nonexistent"}).status, 0);  // -n 0 opens no input
  EXPECT_EQ(lines({"/tmp"}).err, "shufl: read error: Is a directory\n");
}

// L01: a last line without newline.
TEST(E2eLinesCases, L01LastLineWithoutNewline) {
  for (int s = 1; s <= 20; ++s) {
    for (const auto& extra : std::vector<std::vector<std::string>>{{}, {"-n", "3"}}) {
      auto args = extra;
      args.insert(args.end(), {"--seed", std::to_string(s)});
      const auto r = lines(args, "a\nb\nc");
      ASSERT_EQ(r.out.size(), 6u) << r.out;
      EXPECT_EQ(record_multiset(r.out), (std::multiset<std::string>{"a", "b", "c"})) << r.out;
      EXPECT_EQ(r.out.back(), '\n');
    }
  }
  EXPECT_EQ(lines({"-z"}, "a\nb").out, std::string("a\nb\0", 4));
}

// L02: NUL bytes inside lines survive without -z; newlines are data with -z.
TEST(E2eLinesCases, L02NulBytesAndZeroTerminated) {
  const std::string input("p1\nq\0r\ns1\n", 10);
  for (const auto& extra : std::vector<std::vector<std::string>>{{}, {"-n", "3"}, {"-n", "2"}}) {
    const auto r = lines(extra, input);
    const auto got = record_multiset(r.out);
    if (extra.empty() || extra[1] == "3") {
      EXPECT_EQ(r.out.size(), 10u);
      EXPECT_EQ(got, (std::multiset<std::string>{"p1", std::string("q\0r", 3), "s1"}));
    } else {
      EXPECT_EQ(got.size(), 2u);
    }
  }
  const auto z = lines({"-z", "--seed", "1"}, std::string("a\nb\0c\nd\0", 8));
  EXPECT_EQ(record_multiset(z.out, '\0'), (std::multiset<std::string>{"a\nb", "c\nd"}));
}

// L03: empty input, a lone newline, an empty line in the middle.
TEST(E2eLinesCases, L03EmptyInputAndEmptyLines) {
  for (const auto& extra : std::vector<std::vector<std::string>>{{}, {"-n", "5"}}) {
    const auto empty = lines(extra, "");
    EXPECT_EQ(empty.out, "");
    EXPECT_EQ(empty.status, 0);
    EXPECT_EQ(lines(extra, "\n").out, "\n");
    const auto three = lines(extra, "a\n\nb\n");
    EXPECT_EQ(record_multiset(three.out), (std::multiset<std::string>{"a", "", "b"}));
    EXPECT_EQ(three.out.size(), 5u);
  }
}

// L04: repeated options.
TEST(E2eLinesCases, L04RepeatedOptions) {
  EXPECT_EQ(record_multiset(lines({"-e", "a", "b", "-e", "c"}).out), (std::multiset<std::string>{"a", "b", "c"}));
  EXPECT_EQ(record_multiset(lines({"-n", "5", "-n", "2"}, seq(1, 10)).out).size(), 2u);
  temp_dir dir;
  const auto i2 = lines({"-i", "1-3", "-i", "4-5", "-o", dir.file("A")});
  EXPECT_EQ(i2.err, "shufl: multiple -i options specified\n");
  EXPECT_EQ(i2.status, 1);
  const auto o2 = lines({"-e", "a", "-o", dir.file("A"), "-o", dir.file("B")});
  EXPECT_EQ(o2.err, "shufl: multiple output files specified\n");
  EXPECT_FALSE(std::filesystem::exists(dir.file("A")));
  EXPECT_FALSE(std::filesystem::exists(dir.file("B")));
  EXPECT_EQ(lines({"-e", "a", "-i", "1-2"}).status, 1);
}

// L05: -r without -n into head ends quickly and quietly; -r with -z, -o, -i.
TEST(E2eLinesCases, L05RepeatIntoHead) {
  const auto start = std::chrono::steady_clock::now();
  const auto r = run_shell("printf 'a\\nb\\n' | " + shufl_cmd() + " -r | head -n 3");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));  // a bound for a hang
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(record_multiset(r.out).size(), 3u);
  const auto r1 = run_shell(shufl_cmd() + " -r -i 1-5 | head -1");
  EXPECT_EQ(r1.err, "");
  const auto z = lines({"-r", "-z", "-n", "4", "-e", "x", "y"});
  EXPECT_EQ(z.out.size(), 8u);
  EXPECT_EQ(std::count(z.out.begin(), z.out.end(), '\0'), 4);
  temp_dir dir;
  EXPECT_EQ(lines({"-r", "-n", "6", "-i", "1-3", "-o", dir.file("o")}).status, 0);
  EXPECT_EQ(record_multiset(read_file(dir.file("o"))).size(), 6u);
}

// L06: UTF-8 and arbitrary bytes, identical output in C and C.UTF-8.
TEST(E2eLinesCases, L06BytesPassThroughInAnyLocale) {
  const std::string input = "caf\xC3\xA9\n\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E\n\xF0\x9F\x98\x80\n\xFF\xFE\nplain\r\n";
  const auto c = run_program(shufl::test::shufl_binary(), lines_args({"--seed", "6"}), input, "", {"LC_ALL=C"});
  const auto u = run_program(shufl::test::shufl_binary(), lines_args({"--seed", "6"}), input, "", {"LC_ALL=C.UTF-8"});
  EXPECT_EQ(c.out, u.out);
  EXPECT_EQ(c.out.size(), input.size());
  EXPECT_EQ(record_multiset(c.out), record_multiset(input));
}

// L07: in place with -o.
TEST(E2eLinesCases, L07InPlace) {
  temp_dir dir;
  const std::string content = seq(1, 500);
  const std::string f = dir.write("f", content);
  EXPECT_EQ(lines({"--seed", "7", "-o", f, f}).status, 0);
  EXPECT_EQ(record_multiset(read_file(f)), record_multiset(content));
  EXPECT_NE(read_file(f), content);
  const auto r = run_shell(shufl_cmd() + " --seed 7 -o " + sh_quote(f) + " < " + sh_quote(f));
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(record_multiset(read_file(f)), record_multiset(content));
  // -n and -r in place, too; the input is never modified without -o.
  EXPECT_EQ(lines({"--seed", "7", "-n", "10", "-o", f, f}).status, 0);
  EXPECT_EQ(record_multiset(read_file(f)).size(), 10u);
  const std::string g = dir.write("g", content);
  lines({"--seed", "1", g});
  lines({"--seed", "1", "-n", "3", g});
  EXPECT_EQ(read_file(g), content);
}

TEST(E2eLines, OutputThroughALinkToTheInputIsSafe) {
  temp_dir dir;
  const std::string content = seq(1, 3000);
  const std::string f = dir.write("f", content);
  std::filesystem::create_symlink(f, dir.file("link"));
  EXPECT_EQ(lines({"--seed", "2", "-o", dir.file("link"), f}).status, 0);
  EXPECT_EQ(record_multiset(read_file(f)), record_multiset(content));
  std::filesystem::create_hard_link(f, dir.file("hard"));
  EXPECT_EQ(lines({"--seed", "3", "-o", dir.file("hard"), f}).status, 0);
  EXPECT_EQ(record_multiset(read_file(f)), record_multiset(content));
}

// The binary's full shuffle of a 4-line file over many seeds: chi-squared over the 24 orders.
TEST(E2eLinesSeed, TwentyFourOrdersAreUniform) {
  temp_dir dir;
  const std::string f = dir.write("four", "0\n1\n2\n3\n");
  std::map<std::string, std::uint64_t> seen;
  for (int s = 0; s < 480; ++s) {
    std::string seed = "u";
    seed += std::to_string(s);
    ++seen[lines({"--seed", seed, f}).out];
  }
  ASSERT_LE(seen.size(), 24u);
  std::vector<std::uint64_t> counts(24, 0);
  std::size_t i = 0;
  for (const auto& [order, count] : seen) {
    ASSERT_EQ(record_multiset(order), record_multiset("0\n1\n2\n3\n"));
    counts[i++] = count;
  }
  EXPECT_GT(shufl::pearson_uniform(counts).p_value, 1e-4);
}

// L08: seeds.
TEST(E2eLinesCases, L08Seeds) {
  const std::string input = seq(1, 20);
  EXPECT_EQ(lines({"--seed", "42"}, input).out, lines({"--seed", "42"}, input).out);
  EXPECT_NE(lines({"--seed", "42"}, input).out, lines({"--seed", "43"}, input).out);
  EXPECT_NE(lines({"--seed", "1"}, input).out, lines({"--seed", "4294967297"}, input).out);
  EXPECT_NE(lines({}, input).out, lines({}, input).out);
  EXPECT_EQ(record_multiset(lines({"--seed", "run-7"}, input).out), record_multiset(input));
}

// L09: a short random source.
TEST(E2eLinesCases, L09ShortRandomSource) {
  temp_dir dir;
  const std::string src = dir.write("src", "\x01");
  const std::string out = dir.write("out", "keep me\n");
  for (const auto& extra : std::vector<std::vector<std::string>>{{}, {"-n", "3"}, {"-i", "1-100"}}) {
    auto args = extra;
    args.insert(args.end(), {"--random-source=" + src, "-o", out});
    const auto r = lines(args, seq(1, 100));
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find(src), std::string::npos);
    EXPECT_NE(r.err.find("end of file"), std::string::npos);
    EXPECT_EQ(read_file(out), "keep me\n");
  }
}

TEST(E2eLines, OutputFileSemantics) {
  temp_dir dir;
  const std::string out = dir.write("out", "old\n");
  EXPECT_EQ(lines({"-n", "0", "-o", out}).status, 0);  // created/truncated even with -n 0
  EXPECT_EQ(read_file(out), "");
  const std::string fresh = dir.file("fresh");
  EXPECT_EQ(lines({"-n", "0", "-o", fresh}).status, 0);
  EXPECT_TRUE(std::filesystem::exists(fresh));
  EXPECT_EQ(lines({"-e", "a", "-o", out, "-o", out}).status, 0);  // the same name twice is fine
  EXPECT_EQ(read_file(out), "a\n");
  // A failure before writing leaves the file untouched.
  dir.write("keep", "keep\n");
  EXPECT_EQ(lines({"/nonexistent", "-o", dir.file("keep")}).status, 1);
  EXPECT_EQ(read_file(dir.file("keep")), "keep\n");
  // Except -r with no lines: GNU opens -o first, then reports it (issue 12 item 11; more in
  // e2e_lines_alias_test.cpp).
  EXPECT_EQ(lines({"-r", "-o", dir.file("keep")}, "").status, 1);
  EXPECT_EQ(read_file(dir.file("keep")), "");
}

TEST(E2eLines, WriteErrorsAndClosedPipes) {
  if (::access("/dev/full", W_OK) != 0) GTEST_SKIP() << "/dev/full not present";
  for (const std::string extra : {"", " -n 2", " -r -n 5", " -i 1-10"}) {
    const auto r = run_shell("seq 10 | " + shufl_cmd() + extra + " > /dev/full");
    EXPECT_EQ(r.status, 1) << extra;
    EXPECT_EQ(r.err, "shufl: write error: No space left on device\n") << extra;
  }
  const auto o = lines({"-e", "a", "-o", "/dev/full"});
  EXPECT_EQ(o.err, "shufl: write error: No space left on device\n");
  const auto pipe = run_shell("seq 100000 | " + shufl_cmd() + " | head -1");
  EXPECT_EQ(pipe.err, "");
  EXPECT_EQ(pipe.status, 0);
}

TEST(E2eLines, HundredMegabyteLinePassesThrough) {
  temp_dir dir;
  const std::string f = dir.file("big");
  const auto r = run_shell("{ printf 'short\\n'; head -c 100000000 /dev/zero | tr '\\0' x; echo; } > " +
                           sh_quote(f) + " && " + shufl_cmd() + " --seed 1 " + sh_quote(f) +
                           " | sort | cmp - " + sh_quote(f) + " && " + shufl_cmd() +
                           " --seed 1 -n 1 < " + sh_quote(f) + " | wc -c");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.out == "100000001\n" || r.out == "6\n") << r.out;
}

}  // namespace

namespace shufl::test {
namespace {

// A full permutation of a huge -i range cannot fit in memory: fail at once with GNU's message
// (it used to grow to many GB before failing).
TEST(E2eLinesReview, HugeRangeWithoutCountFailsAtOnce) {
  for (const std::vector<std::string>& extra : {std::vector<std::string>{"--seed", "1"}, std::vector<std::string>{}}) {
    std::vector<std::string> args = {"lines", "-i", "1-4000000000"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_shufl(args);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "shufl: memory exhausted\n");
  }
}

}  // namespace
}  // namespace shufl::test
