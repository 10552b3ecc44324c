// End-to-end tests of `shufl lines` for issue 12 items 9–11: inputs that change or alias the
// output during the run (a file truncated while being read, stdout opened on the input file,
// -o naming the input), the --header reader on pipes and its memory bound, GNU quotef file name
// quoting, -r with no lines and -o, and a repeated --header. Differential against GNU
// /usr/bin/shuf where GNU has the behaviour (skipped where it is absent).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

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

bool have_gnu_shuf() { return ::access(kGnuShuf.c_str(), X_OK) == 0; }

run_result lines(std::vector<std::string> args, const std::string& input = {}) {
  args.insert(args.begin(), "lines");
  return run_shufl(args, input);
}

std::string sh_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string shufl_lines() { return sh_quote(shufl::test::shufl_binary()) + " lines"; }

// `count` numbered lines padded to `width` bytes (few lines, many bytes: cheap to compare).
std::string padded_lines(int count, std::size_t width) {
  std::string s;
  for (int i = 0; i < count; ++i) {
    std::string line = std::to_string(i);
    line.resize(width - 1, '.');
    s += line + '\n';
  }
  return s;
}

std::string seq_text(int from, int to) {
  std::string s;
  for (int i = from; i <= to; ++i) s += std::to_string(i) + '\n';
  return s;
}

// Issue 12 item 10: the input is truncated (logrotate's copytruncate) after the output began,
// while most records are still to be gathered from it. The reader of the pipe takes one byte
// (so the program is writing, all input read), empties the file, then drains the pipe. With
// the input mapped this was SIGBUS; now the records read stay intact, as with GNU shuf.
TEST(E2eLinesInputChanges, FileTruncatedWhileOutputIsWrittenKeepsWhatWasRead) {
  temp_dir dir;
  const std::string body = padded_lines(40000, 64);  // 2.6 MB: far more than a pipe holds
  const std::vector<std::vector<std::string>> modes = {
      {"--seed", "1"}, {"--random-source=/dev/zero"}, {"-r", "-n", "30000"}, {}};
  for (const bool gnu : {false, true}) {
    if (gnu && !have_gnu_shuf()) continue;
    for (const auto& mode : modes) {
      if (gnu && !mode.empty() && mode[0] == "--seed") continue;
      const std::string file = dir.write("in", body);
      std::string cmd = gnu ? kGnuShuf : shufl_lines();
      for (const auto& a : mode) cmd += " " + sh_quote(a);
      const std::string status = dir.file("status");
      const auto r = run_shell("{ " + cmd + " " + sh_quote(file) + "; echo $? > " + sh_quote(status) +
                               "; } | { dd bs=1 count=1 2>/dev/null; : > " + sh_quote(file) + "; cat; }");
      const std::string what = (gnu ? "GNU " : "shufl ") + cmd;
      EXPECT_EQ(read_file(status), "0\n") << what << ": " << r.err;
      if (mode.size() > 1 && mode[0] == "-r") {
        EXPECT_EQ(record_multiset(r.out).size(), 30000u) << what;
      } else {
        EXPECT_EQ(r.out.size(), body.size()) << what;
        EXPECT_TRUE(record_multiset(r.out) == record_multiset(body)) << what;
      }
    }
  }
}

// Issue 12 item 10: standard output opened read-write on the input file (`shufl lines f 1<>f`):
// every record was read before the first byte is written, so the file ends up holding a
// permutation of its lines (GNU shuf does the same); -o naming the input keeps working.
TEST(E2eLinesInputChanges, OutputOnTheInputFileIsAPermutationOfIt) {
  temp_dir dir;
  const std::string body = seq_text(1, 1000) + padded_lines(30000, 64);
  const std::string big = padded_lines(100000, 100);  // beyond --memory 16M's budget: external
  struct variant {
    std::string args;
    const std::string* input;
  };
  const std::vector<variant> variants = {
      {"--seed 1", &body},           {"", &body},
      {"--random-source=/dev/zero", &body}, {"-n 1000 --seed 3", &body},
      {"--header 2 --seed 4", &body}, {"--memory 16M --seed 5", &big}};
  for (const bool gnu : {false, true}) {
    if (gnu && !have_gnu_shuf()) continue;
    for (const auto& v : variants) {
      if (gnu && (v.args.find("--seed") != std::string::npos || v.args.find("--header") != std::string::npos)) continue;
      const std::string file = dir.write("f", *v.input);
      const std::string cmd = (gnu ? kGnuShuf : shufl_lines()) + " " + v.args;
      const auto r = run_shell(cmd + " " + sh_quote(file) + " 1<>" + sh_quote(file));
      EXPECT_EQ(r.status, 0) << cmd << ": " << r.err;
      const std::string after = read_file(file);
      if (v.args.find("-n 1000") != std::string::npos) {
        // 1000 lines of the input written over the start of the file, the old tail after them.
        std::size_t pos = 0;
        for (int i = 0; i < 1000; ++i) pos = after.find('\n', pos) + 1;
        const auto all = record_multiset(body);
        for (const auto& line : record_multiset(after.substr(0, pos))) EXPECT_TRUE(all.count(line)) << cmd << line;
        EXPECT_EQ(after.substr(pos), v.input->substr(pos)) << cmd;
      } else {
        EXPECT_EQ(after.size(), v.input->size()) << cmd;
        EXPECT_TRUE(record_multiset(after) == record_multiset(*v.input)) << cmd;
        if (v.args.find("--header") != std::string::npos) {
          EXPECT_EQ(after.substr(0, 4), "1\n2\n");
        }
      }
    }
  }
  // -o naming the input (kept working): the file holds a permutation.
  const std::string file = dir.write("o", body);
  EXPECT_EQ(lines({"--seed", "1", "-o", file, file}).status, 0);
  EXPECT_TRUE(record_multiset(read_file(file)) == record_multiset(body));
}

// Issue 12 item 9: --header from a pipe is read in blocks; the bytes read past the header are
// the first bytes of the rest, in every mode (in memory, external, -n, -r, GNU mode).
TEST(E2eLinesHeaderPipe, BlocksReadPastTheHeaderAreKept) {
  temp_dir dir;
  // Headers ending inside, at the end of and across 256 KiB blocks.
  for (const int header : {1, 3, 37450, 100000}) {
    const std::string all = seq_text(1, 150000);
    const std::string file = dir.write("in", all);
    for (const std::vector<std::string>& mode :
         std::vector<std::vector<std::string>>{{"--seed", "1"},
                                               {"--seed", "2", "--memory", "16M"},
                                               {"--seed", "3", "-n", "5"},
                                               {"--seed", "4", "-r", "-n", "5"},
                                               {"--random-source=/dev/zero"}}) {
      std::vector<std::string> args = mode;
      args.push_back("--header=" + std::to_string(header));
      const auto from_pipe = lines(args, all);
      args.push_back(file);
      const auto from_file = lines(args);
      EXPECT_EQ(from_pipe.status, 0) << from_pipe.err;
      EXPECT_TRUE(from_pipe.out == from_file.out) << header << " " << mode[0] << " " << mode.back();
      EXPECT_EQ(from_pipe.out.substr(0, 2), "1\n");
    }
    // GNU mode -n from a pipe samples with GNU's reservoir (a small file does not): the lines
    // after the header give GNU shuf's sample of them, from a pipe.
    if (have_gnu_shuf()) {
      const std::string src = "/dev/zero";
      const auto ours = lines({"--header=" + std::to_string(header), "-n", "7", "--random-source=" + src}, all);
      const std::string body = seq_text(header + 1, 150000);
      const auto theirs = run_program(kGnuShuf, {"-n", "7", "--random-source=" + src}, body, "shuf");
      EXPECT_EQ(theirs.status, 0);
      EXPECT_TRUE(ours.out == seq_text(1, header) + theirs.out) << header;
    }
  }
  // Exactly at a block boundary: 256 KiB of header, nothing pending.
  const std::string line(1023, 'h');
  std::string header;
  for (int i = 0; i < 256; ++i) header += line + '\n';
  const auto r = lines({"--header", "256", "--seed", "9"}, header + "a\nb\nc\n");
  EXPECT_EQ(r.out.substr(0, header.size()), header);
  EXPECT_EQ(record_multiset(r.out.substr(header.size())), (std::multiset<std::string>{"a", "b", "c"}));
}

// Issue 12 item 9: the header waits in memory until the output opens, so it counts against
// --memory: more than half of it is an error, nothing is written, -o is untouched.
TEST(E2eLinesHeaderPipe, HeaderLargerThanHalfOfMemoryIsAnError) {
  temp_dir dir;
  const std::string out = dir.write("out", "keep\n");
  const std::string big = std::string(9u << 20, 'x') + "\nrest\n";
  const auto r = lines({"--header", "1", "--memory", "16M", "-o", out}, big);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "shufl: --header 1: the header lines take more than half of --memory (8388608 bytes)\n");
  EXPECT_EQ(read_file(out), "keep\n");
  // Up to half is fine, from a pipe or a file; the records after it are still shuffled.
  const std::string fits = std::string(7u << 20, 'x') + "\nb\nc\n";
  const auto ok = lines({"--header", "1", "--memory", "16M", "--seed", "1"}, fits);
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_EQ(ok.out.size(), fits.size());
}

// Issue 12 item 11: --header given more than once: the smallest wins (GNU's rule for -n), in
// either order; a value too large to store means every line.
TEST(E2eLinesHeaderPipe, RepeatedHeaderSmallestWins) {
  const std::string in = "h1\nh2\nh3\na\nb\n";
  const auto expect = [&](std::vector<std::string> args, const std::string& first) {
    args.insert(args.end(), {"--seed", "1"});
    const auto r = lines(args, in);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.substr(0, first.size()), first);
    return r.out;
  };
  EXPECT_EQ(expect({"--header", "0", "--header", "2"}, ""), lines({"--seed", "1"}, in).out);
  EXPECT_EQ(expect({"--header", "2", "--header", "0"}, ""), lines({"--seed", "1"}, in).out);
  EXPECT_EQ(expect({"--header", "3", "--header=1", "--header", "2"}, "h1\n"),
            "h1\n" + lines({"--seed", "1"}, "h2\nh3\na\nb\n").out);
  EXPECT_EQ(lines({"--header", "99999999999999999999999", "--header", "9"}, in).out, in);
  EXPECT_EQ(lines({"--header", "99999999999999999999999"}, in).out, in);
}

// Issue 12 item 11: file names are quoted as GNU's quotef does (shell-escape quoting, ':' too),
// in the C locale and in a UTF-8 one: differential against GNU shuf on names that do not exist.
TEST(E2eLinesQuotef, FileNamesQuotedLikeGnu) {
  if (!have_gnu_shuf()) GTEST_SKIP() << kGnuShuf << " not present";
  const std::vector<std::string> names = {
      "plain.txt", "a=b", "=a", "a:b", "a b", "a\tb", "a\nb", "a'b", "a~b", "~a", "a#b", "#a", "a%b",
      "a^b", "a{b", "{", "}", "{}", "a!b", "a\x7f" "b", "\xc3\xa9", "\xff", "a\xc3", "\xc3\xa9\xff",
      "\xc2\x85", "a,b", "+a", "a@b", "@", "a]b", "\x01", "a\"b", "a$b", "a*b", "a?b", "a[b", "a\\b",
      "a`b", "a|b", "a&b", "a;b", "a<b", "a(b", "", "a'b c", "a'b:c", "a'b$", "a'\xc3\xa9", "'",
      "a'b'c", "\n'", "ab'cd\te", "a\"b'", "#'", "a#'", "{'", "'~", "'@", "\a\b\f\v\r", "x'\xffy",
      "dir/sub dir/f", "-", "a'\n", "ab'\x01"};
  // A name with a single quote that ends with an escaped character, e.g. "a'\n", GNU coreutils
  // 9.1 misquotes with an extra '' after the opening quote (fixed in gnulib 2024-04): shufl
  // prints the corrected form.
  for (const char* locale : {"LC_ALL=C", "LC_ALL=C.UTF-8"}) {
    for (const auto& name : names) {
      if (name == "-") continue;  // stdin
      const auto g = run_program(kGnuShuf, {"--", name}, "", "shuf", {locale});
      const auto s = run_program(shufl::test::shufl_binary(), {"--", name}, "", "shuf", {locale});
      if (g.err.rfind("shuf: '''", 0) == 0) {
        // GNU 9.1's misquoting (see above): an extra '' after the opening quote.
        EXPECT_EQ("shuf: '''" + s.err.substr(7), g.err) << locale << " name [" << name << "]";
      } else {
        EXPECT_EQ(s.err, g.err) << locale << " name [" << name << "]";
      }
      EXPECT_EQ(s.status, g.status);
    }
    // The same quoting for -o and --random-source names.
    const auto g = run_program(kGnuShuf, {"-e", "x", "-o", "/nonexistent/a b=c"}, "", "shuf", {locale});
    const auto s = run_program(shufl::test::shufl_binary(), {"-e", "x", "-o", "/nonexistent/a b=c"}, "", "shuf", {locale});
    EXPECT_EQ(s.err, g.err);
    const auto gr = run_program(kGnuShuf, {"-e", "x", "--random-source=/nonexistent/x:y"}, "", "shuf", {locale});
    const auto sr = run_program(shufl::test::shufl_binary(), {"-e", "x", "--random-source=/nonexistent/x:y"}, "",
                                "shuf", {locale});
    EXPECT_EQ(sr.err, gr.err);
  }
}

// Issue 12 item 11: -r with no lines and -o: GNU opens (creates, truncates) the -o file first,
// then reports the empty input; a -o that cannot be opened is reported instead, and a random
// source that cannot be opened before both.
TEST(E2eLinesRepeatNoLines, OutputFileCreatedThenError) {
  temp_dir dir;
  const std::string empty = dir.write("empty", "");
  const std::vector<std::vector<std::string>> cases = {
      {"-r", empty},          {"-r", "--seed", "1", empty},  {"-r", "--random-source=/dev/zero", empty},
      {"-r", "-e"},           {"-r", "-i", "1-0"},           {"-r", "--header", "1", empty},
      {"-r", "--random-source=/nonexistent", empty}};
  for (const bool gnu : {false, true}) {
    if (gnu && !have_gnu_shuf()) continue;
    for (const auto& c : cases) {
      const bool gnu_has_it = std::find_if(c.begin(), c.end(), [](const std::string& a) {
                                return a == "--seed" || a == "--header";
                              }) == c.end();
      if (gnu && !gnu_has_it) continue;
      const std::string out = dir.file(gnu ? "gnu.out" : "shufl.out");
      ::unlink(out.c_str());
      dir.write("existing", "old\n");
      std::vector<std::string> args = c;
      args.insert(args.begin(), {"-o", out});
      const auto r = gnu ? run_program(kGnuShuf, args, "", "shuf") : run_program(shufl::test::shufl_binary(), args, "", "shuf");
      EXPECT_EQ(r.status, 1) << args.back();
      EXPECT_EQ(r.out, "");
      if (c[1] == "--random-source=/nonexistent") {
        EXPECT_EQ(r.err, "shuf: /nonexistent: No such file or directory\n");
        EXPECT_NE(::access(out.c_str(), F_OK), 0) << "the source is opened before -o";
        continue;
      }
      EXPECT_EQ(r.err, "shuf: no lines to repeat\n") << (gnu ? "GNU " : "shufl ") << c.back();
      EXPECT_EQ(::access(out.c_str(), F_OK), 0) << (gnu ? "GNU " : "shufl ") << c.back();
      EXPECT_EQ(read_file(out), "");
      // An existing -o file is truncated, as GNU does.
      const std::string existing = dir.write("existing", "old\n");
      std::vector<std::string> again = c;
      again.insert(again.begin(), {"-o", existing});
      (gnu ? run_program(kGnuShuf, again, "", "shuf") : run_program(shufl::test::shufl_binary(), again, "", "shuf"));
      EXPECT_EQ(read_file(existing), "");
      // An -o that cannot be opened is the error reported.
      std::vector<std::string> bad = c;
      bad.insert(bad.begin(), {"-o", "/nonexistent/o"});
      const auto b = gnu ? run_program(kGnuShuf, bad, "", "shuf") : run_program(shufl::test::shufl_binary(), bad, "", "shuf");
      EXPECT_EQ(b.err, "shuf: /nonexistent/o: No such file or directory\n");
    }
  }
}

}  // namespace
