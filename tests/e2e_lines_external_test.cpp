// End-to-end tests of issue 6 in `shufl lines`: --memory / --temp-dir (the external shuffle gives
// the same bytes as the in-memory one for every memory size, file or pipe), clean errors (too
// little memory, a full disk, signals), and the --header and --delimiter extensions.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "shufl/random.hpp"
#include "shufl/size.hpp"
#include "support/run.hpp"

namespace {

using shufl::test::read_file;
using shufl::test::record_multiset;
using shufl::test::run_program;
using shufl::test::run_result;
using shufl::test::run_shell;
using shufl::test::temp_dir;

// In the C locale, so that quotes in messages are '...'.
run_result lines(std::vector<std::string> args, const std::string& input = {}) {
  args.insert(args.begin(), "lines");
  return run_program(shufl::test::shufl_binary(), args, input, {}, {"LC_ALL=C"});
}

std::string sh_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string shufl_cmd() { return sh_quote(shufl::test::shufl_binary()) + " lines"; }

// 120000 records of varied length (about 5 MB, ending without a newline): more than the leaf
// size, and more than the record budget of --memory 16M, so that runs through 256 bucket files.
const std::string& big_input() {
  static const std::string input = [] {
    shufl::xoshiro256pp_engine e(shufl::key_from_seed("e2e-external"));
    std::string s;
    for (int i = 0; i < 120000; ++i) {
      s += std::to_string(i);
      s.append(static_cast<std::size_t>(e() % 64), 'x');
      s += '\n';
    }
    s.pop_back();
    return s;
  }();
  return input;
}


TEST(E2eLinesExternal, SameBytesWhateverMemoryFileOrPipe) {
  temp_dir dir;
  const std::string file = dir.write("in", big_input());
  const auto reference = lines({"--seed", "ext", file});
  ASSERT_EQ(reference.status, 0) << reference.err;
  EXPECT_EQ(record_multiset(reference.out), record_multiset(big_input() + "\n"));
  EXPECT_EQ(reference.out.size(), big_input().size() + 1) << "last line gets its newline";
  for (const auto& extra : std::vector<std::vector<std::string>>{
           {"--memory", "16M"}, {"--memory=16m"}, {"--mem", "17000000"}, {"--memory", "64G"}, {}}) {
    auto with_file = extra;
    with_file.insert(with_file.end(), {"--seed", "ext", file});
    auto with_pipe = extra;
    with_pipe.insert(with_pipe.end(), {"--seed", "ext"});
    const auto a = lines(with_file);
    const auto b = lines(with_pipe, big_input());
    EXPECT_EQ(a.out, reference.out) << extra.size();
    EXPECT_EQ(b.out, reference.out) << extra.size();
    EXPECT_EQ(a.err + b.err, "") << "no progress display when stderr is not a terminal";
  }
  // The external path really ran: an unusable --temp-dir fails only for the big input.
  const auto failed = lines({"--memory", "16M", "--temp-dir", "/nonexistent-shufl", file});
  EXPECT_EQ(failed.status, 1);
  EXPECT_EQ(failed.out, "");
  EXPECT_EQ(failed.err,
            "shufl: cannot create temporary file in '/nonexistent-shufl': No such file or directory\n");
  EXPECT_EQ(lines({"--memory", "16M", "--temp-dir", "/nonexistent-shufl", "-e", "a"}).status, 0);
  // -z, and -o onto the input itself.
  std::string zero = big_input();
  std::replace(zero.begin(), zero.end(), '\n', '\0');
  EXPECT_EQ(lines({"-z", "--seed", "ext", "--memory", "16M"}, zero).out,
            lines({"-z", "--seed", "ext"}, zero).out);
  EXPECT_EQ(lines({"--seed", "ext", "--memory", "16M", "-o", file, file}).status, 0);
  EXPECT_EQ(read_file(file), reference.out);
}

TEST(E2eLinesExternal, MemoryOptionErrors) {
  const auto small = lines({"--memory", "1M", "-e", "a"});
  EXPECT_EQ(small.status, 1);
  EXPECT_EQ(small.err, "shufl: --memory 1M is too small: the smallest workable amount is 16M\n");
  EXPECT_EQ(lines({"--memory", "16777215", "-e", "a"}).status, 1);
  // F05: GNU sort -S's forms only; the error lists them.
  const std::string forms = std::string(shufl::size_forms);
  EXPECT_EQ(lines({"--memory", "12X", "-e", "a"}).err, "shufl: invalid memory size: '12X'; expected " + forms + "\n");
  for (const char* bad : {"16 ", " 16M", "0.5G", "16MiB", "16MB", "-16M", "16M ", "1e9", "16KK", "K", "16p"}) {
    const auto r = lines({"--memory", bad, "-e", "a"});
    EXPECT_EQ(r.status, 1) << bad;
    EXPECT_EQ(r.out, "") << bad;
    EXPECT_EQ(r.err, "shufl: invalid memory size: '" + std::string(bad) + "'; expected " + forms + "\n") << bad;
  }
  for (const char* good : {"16M", "16m", "16384K", "16384k", "1G", "1g", "1T", "1P", "1E", "1Q", "99%", "17000000", "17000000b"}) {
    EXPECT_EQ(lines({"--memory", good, "-e", "a"}).status, 0) << good;
  }
  EXPECT_EQ(lines({"--memory", "", "-e", "a"}).status, 1);
  const auto gnu = lines({"--memory", "1G", "--random-source=/dev/zero", "-e", "a"});
  EXPECT_EQ(gnu.status, 1);
  EXPECT_EQ(gnu.err,
            "shufl: cannot combine --memory and --random-source options\n"
            "Try 'shufl lines --help' for more information.\n");
  // Accepted (and without effect) where nothing is shuffled externally.
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"-n", "2"}, {"-r", "-n", "2"}, {"-e", "a", "b"}, {"-i", "1-3"}}) {
    auto a = args;
    a.insert(a.end(), {"--memory", "16M", "--seed", "1"});
    auto b = args;
    b.insert(b.end(), {"--seed", "1"});
    // Only the modes that read stdin get input (a writer to a closed pipe would get SIGPIPE).
    const std::string input = args[0] == "-n" || args[0] == "-r" ? "x\ny\nz\n" : "";
    EXPECT_EQ(lines(a, input).out, lines(b, input).out);
  }
  const auto help = lines({"--help"});
  for (const char* word : {"--memory", "--temp-dir", "--header", "--delimiter"}) {
    EXPECT_NE(help.out.find(word), std::string::npos) << word;
  }
}

TEST(E2eLinesExternal, FullDiskIsACleanErrorWithNoOutputFile) {
  if (::geteuid() != 0) GTEST_SKIP() << "mounting a tmpfs needs root";
  temp_dir dir;
  const std::string mnt = dir.file("mnt");
  ::mkdir(mnt.c_str(), 0700);
  if (run_shell("mount -t tmpfs -o size=1M tmpfs " + sh_quote(mnt) + " 2>/dev/null").status != 0) {
    GTEST_SKIP() << "cannot mount a tmpfs here";
  }
  const std::string in = dir.write("in", big_input());
  const std::string out = dir.file("out");
  const auto r = lines({"--memory", "16M", "--temp-dir", mnt, "-o", out, in});
  const auto to_stdout = run_shell(shufl_cmd() + " --memory 16M --temp-dir " + sh_quote(mnt) + " < " + sh_quote(in));
  dir.write("kept", "old\n");
  const auto kept = lines({"--memory", "16M", "--temp-dir", mnt, "-o", dir.file("kept"), in});
  const auto left = run_shell("ls -A " + sh_quote(mnt) + " | wc -l");
  run_shell("umount " + sh_quote(mnt));
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "shufl: write error: " + mnt + ": No space left on device\n");
  EXPECT_NE(::access(out.c_str(), F_OK), 0) << "no output file";
  EXPECT_EQ(to_stdout.status, 1);
  EXPECT_EQ(to_stdout.out, "");
  EXPECT_EQ(kept.status, 1);
  EXPECT_EQ(read_file(dir.file("kept")), "old\n") << "an existing -o file is untouched";
  EXPECT_EQ(left.out, "0\n") << "nothing left in the temporary directory";
}

TEST(E2eLinesExternal, TemporaryFilesHaveNoNameEvenWhileRunningOrKilled) {
  temp_dir dir;
  const std::string in = dir.write("in", big_input());
  const std::string tmp = dir.file("tmp");
  ::mkdir(tmp.c_str(), 0700);
  // The input never ends (the shell holds the FIFO's write end open), so shufl is mid-scatter
  // when it is stopped. Polls for the 256 unnamed bucket files instead of sleeping a fixed time,
  // so a loaded machine only makes the test slower, never wrong.
  const std::string fifo = dir.file("fifo");
  const auto r = run_shell("mkfifo " + sh_quote(fifo) + "; exec 3<>" + sh_quote(fifo) + "; " + shufl_cmd() +
                           " --memory 16M --temp-dir " + sh_quote(tmp) + " < " + sh_quote(fifo) +
                           " > /dev/null 2>&1 & pid=$!; cat " + sh_quote(in) + " >&3; " +
                           "for i in $(seq 1200); do [ \"$(ls -l /proc/$pid/fd | grep -c '(deleted)')\" -ge 256 ] && break; sleep 0.05; done; " +
                           "ls -A " + sh_quote(tmp) + " | wc -l; ls -l /proc/$pid/fd | grep -c '(deleted)'; " +
                           "kill -TERM $pid; wait $pid; echo $?; exec 3>&-; ls -A " + sh_quote(tmp) + " | wc -l");
  EXPECT_EQ(r.out.substr(0, 2), "0\n") << r.out;
  const auto lines_out = record_multiset(r.out);
  EXPECT_TRUE(lines_out.count("143")) << r.out;
  std::vector<std::string> v(lines_out.begin(), lines_out.end());
  EXPECT_EQ(std::count(v.begin(), v.end(), "0"), 2) << r.out;
  EXPECT_TRUE(lines_out.count("256")) << "256 unnamed bucket files while scattering: " << r.out;
}

TEST(E2eLinesHeader, FirstLinesStayInPlace) {
  temp_dir dir;
  const std::string body = "a\nb\nc\nd\ne\nf\ng\n";
  const std::string file = dir.write("in", "h1\nh2\n" + body);
  const auto full = lines({"--header", "2", "--seed", "1", file});
  EXPECT_EQ(full.out, "h1\nh2\n" + lines({"--seed", "1"}, body).out);
  EXPECT_EQ(lines({"--header", "2", "--seed", "1"}, "h1\nh2\n" + body).out, full.out) << "pipe";
  EXPECT_EQ(lines({"--header=2", "-n", "3", "--seed", "1", file}).out,
            "h1\nh2\n" + lines({"-n", "3", "--seed", "1"}, body).out)
      << "-n counts the lines after the header";
  EXPECT_EQ(lines({"--header", "2", "-n", "0", file}).out, "h1\nh2\n");
  EXPECT_EQ(lines({"--header", "9", file}).out, "h1\nh2\n" + body);
  EXPECT_EQ(lines({"--header", "1"}, "only").out, "only\n");
  EXPECT_EQ(lines({"--heade=1", "--seed", "1", "-e", "x", "y", "z"}).out,
            "x\n" + lines({"--seed", "1", "-e", "y", "z"}).out);
  EXPECT_EQ(lines({"--header", "2", "--seed", "4", "-i", "1-10"}).out,
            "1\n2\n" + lines({"--seed", "4", "-i", "3-10"}).out);
  // --head is still GNU's --head-count.
  EXPECT_EQ(record_multiset(lines({"--head=3", file}).out).size(), 3u);
  EXPECT_EQ(lines({"--header", "x", file}).err, "shufl: invalid header line count: 'x'\n");
  // External: the header first, then the same bytes as the rest shuffled alone.
  const std::string big = dir.write("big", "title\n" + big_input());
  EXPECT_EQ(lines({"--header", "1", "--memory", "16M", "--seed", "h", big}).out,
            "title\n" + lines({"--seed", "h"}, big_input()).out);
  // GNU mode: the rest is shuffled exactly as GNU shuf shuffles it.
  const std::string src = dir.write("src", std::string(64, '\x5a'));
  if (::access("/usr/bin/shuf", X_OK) == 0) {
    const auto gnu = run_program("/usr/bin/shuf", {"--random-source=" + src}, body);
    EXPECT_EQ(lines({"--header", "2", "--random-source=" + src, file}).out, "h1\nh2\n" + gnu.out);
    EXPECT_EQ(lines({"--header", "2", "--random-source=" + src}, "h1\nh2\n" + body).out, "h1\nh2\n" + gnu.out);
  }
}

TEST(E2eLinesDelimiter, AnySingleByte) {
  const auto comma = lines({"--delimiter", ",", "--seed", "2"}, "a,b,c");
  EXPECT_EQ(record_multiset(comma.out, ','), (std::multiset<std::string>{"a", "b", "c"}));
  EXPECT_EQ(comma.out.size(), 6u);
  EXPECT_EQ(comma.out.back(), ',');
  EXPECT_EQ(lines({"--delimiter", "\\x2c", "--seed", "2"}, "a,b,c").out, comma.out);
  EXPECT_EQ(lines({"--delimiter", "\\t", "--seed", "2"}, "a\tb\tc").out.size(), 6u);
  const std::string nul("a\0b\0c\0", 6);
  EXPECT_EQ(lines({"--delimiter", "\\0", "--seed", "2"}, nul).out, lines({"-z", "--seed", "2"}, nul).out);
  EXPECT_EQ(lines({"-z", "--delimiter", "\\0", "--seed", "2"}, nul).status, 0);
  EXPECT_EQ(lines({"-z", "--delimiter", ","}).err, "shufl: multiple delimiters specified\n");
  EXPECT_EQ(lines({"--delimiter", "ab"}).err,
            "shufl: invalid delimiter: 'ab' (one byte, or \\0 \\t \\n \\r \\v \\f \\\\ \\xHH)\n");
  // Newlines are data with another delimiter; the external path uses it too.
  std::string commas = big_input();
  std::replace(commas.begin(), commas.end(), '\n', ',');
  EXPECT_EQ(lines({"--delimiter", ",", "--seed", "d", "--memory", "16M"}, commas).out,
            lines({"--delimiter", ",", "--seed", "d"}, commas).out);
  EXPECT_EQ(lines({"--delimiter", ",", "-e", "a", "b", "--seed", "1"}).out.size(), 4u);
}

}  // namespace

namespace {

// On a terminal (util-linux `script` provides one) the external shuffle shows a one-line
// progress display on stderr, and erases it at the end; never when stderr is not a terminal.
TEST(E2eLinesExternal, ProgressOnlyOnATerminal) {
  if (run_shell("script -qec true /dev/null >/dev/null 2>&1").status != 0) {
    GTEST_SKIP() << "no working script(1) or no pseudo-terminal";
  }
  temp_dir dir;
  const std::string in = dir.write("in", big_input());
  const auto tty = run_shell("script -qec \"" + shufl_cmd() + " --seed 1 --memory 16M " + sh_quote(in) +
                             " > /dev/null\" /dev/null");
  EXPECT_EQ(tty.status, 0);
  EXPECT_NE(tty.out.find("\rshufl: writing "), std::string::npos) << tty.out;
  EXPECT_NE(tty.out.find("\r\033[K"), std::string::npos) << "erased at the end";
  const auto pipe = run_shell(shufl_cmd() + " --seed 1 --memory 16M " + sh_quote(in) + " 2>&1 >/dev/null | cat");
  EXPECT_EQ(pipe.out, "");
}

}  // namespace
