// End-to-end tests of the edges of `shufl audit --follow` (docs/monitor.md, "Running the
// monitor" and "Running it as a service"): a regular file on standard input is followed like
// `tail -f` does it while a pipe ends with its writer; a --state file that is not a monitor's
// state says so (with --group-by too) and is left as it was; a last line without its newline at
// a rotation (rename or copytruncate) is a line of its own, never joined to the new file's first
// line; the notes and messages count in words ("1 deck", "the first deck").
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "support/background.hpp"
#include "support/follow.hpp"
#include "support/run.hpp"

namespace shufl::test {
namespace {

// GNU tail -f follows a regular file on standard input (by its descriptor: it ignores -f only
// for a pipe or FIFO), and so does the monitor: decks appended after its end are read, a
// truncation is noticed, and only a stop signal ends the run (exit 0, the final report). The same
// decks through a pipe end with the pipe.
TEST(AuditFollowEdges, RegularFileOnStdinIsFollowedLikeTailFAPipeEnds) {
  temp_dir dir;
  const std::string log = dir.file("decks.log"), out = dir.file("out"), err = dir.file("err");
  const std::string a = decks(20, "stdin-a"), b = decks(10, "stdin-b"), c = decks(10, "stdin-c");
  { std::ofstream(log) << a; }
  background_run run({"audit", "--follow", "-", "--format", "json", "--every", "10"}, out, err, log);
  ASSERT_TRUE(poll_until([&] { return contains(out, "\"decks\":20,"); }, 20)) << read_file(err);
  { std::ofstream(log, std::ios::app) << b; }  // after its end: still read
  ASSERT_TRUE(poll_until([&] { return contains(out, "\"decks\":30,"); }, 20)) << read_file(err);
  EXPECT_FALSE(run.exited());
  { std::ofstream(log, std::ios::trunc) << c; }  // in place, like copytruncate
  ASSERT_TRUE(poll_until([&] { return contains(out, "\"decks\":40,"); }, 20)) << read_file(err);
  EXPECT_TRUE(contains(err, "shufl audit: standard input was truncated: reading it from its start")) << read_file(err);
  ASSERT_TRUE(poll_until([&] { return run.catches(SIGTERM); }, 20));
  run.signal(SIGTERM);
  EXPECT_EQ(run.wait(), 0) << read_file(err);
  const auto v = json_lines(read_file(out));
  EXPECT_EQ(v.back()["type"], "final");
  EXPECT_EQ(v.back()["reason"], "SIGTERM");
  EXPECT_EQ(v.back()["decks"], 40);
  EXPECT_EQ(v.back()["report"]["input"]["bytes"], a.size() + b.size() + c.size());

  // A pipe: read to its writer's end, then the final report, without a signal.
  const auto piped = run_shell("cat '" + log + "' | '" + shufl_binary() + "' audit --follow - --format json --every 10");
  ASSERT_EQ(piped.status, 0) << piped.err;
  EXPECT_EQ(json_lines(piped.out).back()["reason"], "end of input");
  EXPECT_EQ(json_lines(piped.out).back()["decks"], 10);
}

// A --state file that is not a monitor's state is named as such, with or without --group-by:
// exit 1, nothing on standard output, the file left byte for byte. A single-stream state with
// --group-by (and the reverse) is the other kind, and says so.
TEST(AuditFollowEdges, AStateFileThatIsNotOneSaysWhatIsWrongAndIsLeftAlone) {
  temp_dir dir;
  const std::string state = dir.file("state.json");
  const std::string grouped_decks = run_shell("'" + shufl_binary() + "' deck --count 5 --seed edge-g | sed 's/^/T1 /'").out;
  const std::string plain_decks = decks(5, "edge-p");
  const auto refused = [&](const std::string& content, bool grouped, const std::string& expect) {
    { std::ofstream(state, std::ios::binary | std::ios::trunc) << content; }
    std::vector<std::string> args{"audit", "--follow", "-", "--state", state};
    if (grouped) args.insert(args.end(), {"--group-by", "1"});
    const auto r = run_shufl(args, grouped ? grouped_decks : plain_decks);
    EXPECT_EQ(r.status, 1) << content;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("shufl: --state '" + state + "': state file: " + expect), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("without --group-by"), std::string::npos) << r.err;
    EXPECT_EQ(read_file(state), content);
  };
  for (const bool grouped : {true, false}) {
    refused("garbage\n", grouped, "not JSON: not a state file of shufl audit --follow, or a damaged one");
    refused("", grouped, "not JSON: not a state file of shufl audit --follow, or a damaged one");
    refused("{\"format\":\"shufl audit follow gro", grouped, "not JSON: not a state file of shufl audit --follow, or a damaged one");
    refused("[1, 2]", grouped, "not a JSON object: not a state file of shufl audit --follow");
    refused("{\"a\": 1}", grouped, "no 'format' in it: not a state file of shufl audit --follow");
    refused("{\"format\": \"shufl audit change detector\"}", grouped,
            "its format is \"shufl audit change detector\", not a state file of shufl audit --follow");
    // Bytes that are not UTF-8 text: the state is named first, then the byte (not the bare
    // "line 1: invalid UTF-8" of a text file).
    refused(std::string("{\"format\"\xff: 1}\n"), grouped,
            "not a state file of shufl audit --follow, or a damaged one: line 1: invalid UTF-8 (byte 0xff at column 10)");
    std::string noise(2000, '\0');
    std::uint32_t x = 2463534242u;  // xorshift32: fixed bytes, 0x80..0xff among them
    for (char& c : noise) {
      x ^= x << 13, x ^= x >> 17, x ^= x << 5;
      c = static_cast<char>(x >> 24);
    }
    refused(noise, grouped, "not a state file of shufl audit --follow, or a damaged one: line ");
  }
  // The other kind: a state of one stream given --group-by, and a grouped one without it.
  const std::string single = dir.file("single.json"), groups = dir.file("groups.json");
  ASSERT_EQ(run_shufl({"audit", "--follow", "-", "--state", single}, plain_decks).status, 0);
  ASSERT_EQ(run_shufl({"audit", "--follow", "-", "--group-by", "1", "--state", groups}, grouped_decks).status, 0);
  const std::string single_text = read_file(single), groups_text = read_file(groups);
  auto r = run_shufl({"audit", "--follow", "-", "--group-by", "1", "--state", single}, grouped_decks);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("state file: written by a monitor without --group-by: drop --group-by, or start a new state"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(read_file(single), single_text);
  r = run_shufl({"audit", "--follow", "-", "--state", groups}, plain_decks);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("state file: it holds the groups of a monitor run with --group-by"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(groups), groups_text);
}

// The followed file's last line has no newline when the file is rotated: here a whole deck
// (a writer that ends its lines late). It is read as a line of its own, with a note, and the
// new file's first line is read as it is: every deck counted once, none joined to another.
// The checksum and byte count are of the files' bytes (the line end the monitor adds is in no file).
void cut_line_at_rotation(bool rename_rotation) {
  temp_dir dir;
  const std::string log = dir.file("decks.log"), out = dir.file("out"), err = dir.file("err");
  const std::string a = decks(4, rename_rotation ? "cut-a" : "cut-c");
  const std::string cut = a.substr(0, a.size() - 1);  // 4 decks, the last without its newline
  const std::string b = decks(3, rename_rotation ? "cut-b" : "cut-d");
  { std::ofstream(log) << cut; }
  background_run run({"audit", "--follow", log, "--format", "json", "--every", "1", "--state", dir.file("st.json")}, out, err);
  ASSERT_TRUE(poll_until([&] { return contains(out, "\"decks\":3,"); }, 20)) << read_file(err);
  if (rename_rotation) {
    ASSERT_EQ(rename(log.c_str(), dir.file("decks.log.1").c_str()), 0);
    { std::ofstream(dir.file("new")) << b; }
    ASSERT_EQ(rename(dir.file("new").c_str(), log.c_str()), 0);
  } else {
    { std::ofstream(log, std::ios::trunc); }
    ASSERT_TRUE(poll_until([&] { return contains(err, "was truncated"); }, 20)) << read_file(err);
    { std::ofstream(log, std::ios::app) << b; }
  }
  ASSERT_TRUE(poll_until([&] { return contains(out, "\"decks\":7,"); }, 20)) << read_file(err);
  ASSERT_TRUE(poll_until([&] { return run.catches(SIGTERM); }, 20));
  run.signal(SIGTERM);
  EXPECT_EQ(run.wait(), 0) << read_file(err);
  const std::string e = read_file(err);
  EXPECT_NE(e.find("shufl audit: \xE2\x80\x98" + log +
                   "\xE2\x80\x99: line 4, the last before the file was rotated or truncated, had no newline: read as a "
                   "line of its own\n"),
            std::string::npos)
      << e;
  EXPECT_LT(e.find("line 4, the last"), e.find(rename_rotation ? "names a new file" : "was truncated")) << e;
  const auto v = json_lines(read_file(out));
  ASSERT_EQ(v.size(), 8u) << read_file(out);  // 7 statuses and the final one
  EXPECT_EQ(v.back()["type"], "final");
  EXPECT_EQ(v.back()["decks"], 7);
  EXPECT_EQ(v.back()["report"]["decks"], 7);
  EXPECT_EQ(v.back()["report"]["input"]["bytes"], cut.size() + b.size());
  { std::ofstream(dir.file("both"), std::ios::binary) << cut << b; }
  EXPECT_EQ(v.back()["report"]["input"]["sha256"], run_shell("sha256sum '" + dir.file("both") + "' | cut -c1-64").out.substr(0, 64));
  // The cut deck was line 4 of the old file: the state says 3 lines of the new one are read.
  EXPECT_EQ(nlohmann::json::parse(read_file(dir.file("st.json")))["follow_input"]["lines"], 3);
}

TEST(AuditFollowEdges, ALastLineWithoutNewlineAtARenameRotationIsALineOfItsOwn) { cut_line_at_rotation(true); }

TEST(AuditFollowEdges, ALastLineWithoutNewlineAtACopytruncateIsALineOfItsOwn) { cut_line_at_rotation(false); }

// A cut line that is not a whole deck is a bad line like any other: with --skip-bad it is
// skipped and counted, and the new file's first deck still counts (it was not joined to it).
TEST(AuditFollowEdges, ACutPartOfADeckAtARotationIsABadLineNotJoinedToTheNext) {
  temp_dir dir;
  const std::string log = dir.file("decks.log"), out = dir.file("out"), err = dir.file("err");
  const std::string a = decks(3, "part-a"), b = decks(2, "part-b");
  const std::string part = a.substr(0, a.find('\n', a.find('\n') + 1) + 1 + 60);  // 2 decks and 20 cards of a third
  { std::ofstream(log) << part; }
  background_run run({"audit", "--follow", log, "--format", "json", "--every", "1", "--skip-bad"}, out, err);
  ASSERT_TRUE(poll_until([&] { return contains(out, "\"decks\":2,"); }, 20)) << read_file(err);
  ASSERT_EQ(rename(log.c_str(), dir.file("decks.log.1").c_str()), 0);
  { std::ofstream(dir.file("new")) << b; }
  ASSERT_EQ(rename(dir.file("new").c_str(), log.c_str()), 0);
  ASSERT_TRUE(poll_until([&] { return contains(out, "\"decks\":4,"); }, 20)) << read_file(err);
  ASSERT_TRUE(poll_until([&] { return run.catches(SIGTERM); }, 20));
  run.signal(SIGTERM);
  EXPECT_EQ(run.wait(), 0) << read_file(err);
  const auto v = json_lines(read_file(out));
  EXPECT_EQ(v.back()["decks"], 4);
  EXPECT_EQ(v.back()["report"]["skipped"], 1);
  EXPECT_TRUE(contains(err, "line 3, the last before the file was rotated or truncated, had no newline")) << read_file(err);
}

// Counts in words: a state of another pack names both packs ("1 deck", "0 jokers", "1 joker"),
// a pipe that brings again the one last deck of the state skips "the first deck", and
// --max-groups 1 is "1 group".
TEST(AuditFollowEdges, MessagesCountInWords) {
  temp_dir dir;
  const std::string state = dir.file("st.json");
  ASSERT_EQ(run_shufl({"audit", "--follow", "-", "--state", state}, decks(3, "words")).status, 0);
  const std::string shoe = run_shufl({"deck", "--count", "3", "--seed", "words", "--decks", "2", "--jokers", "1"}).out;
  const auto r = run_shufl({"audit", "--follow", "-", "--decks", "2", "--jokers", "1", "--state", state}, shoe);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("written for the pack 'standard' (52 cards, 1 deck, 0 jokers), this stream's pack is "
                       "'standard' (106 cards, 2 decks, 1 joker)"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("(s)"), std::string::npos) << r.err;

  const std::string one = decks(1, "words-one"), state1 = dir.file("one.json");
  ASSERT_EQ(run_shufl({"audit", "--follow", "-", "--state", state1}, one).status, 0);
  const auto again = run_shufl({"audit", "--follow", "-", "--state", state1}, one);
  EXPECT_EQ(again.status, 0) << again.err;
  EXPECT_NE(again.err.find("shufl audit: the first deck of standard input is the last deck in \xE2\x80\x98" + state1 +
                           "\xE2\x80\x99: skipped\n"),
            std::string::npos)
      << again.err;
  EXPECT_NE(again.out.find("no decks in this run: no battery report"), std::string::npos) << again.out;

  // One group too many at --max-groups 1: "1 group", for the monitor and the batch audit.
  const std::string two = run_shell("'" + shufl_binary() + "' deck --count 2 --seed words-g | sed '1s/^/T1 /; 2s/^/T2 /'").out;
  for (const bool follow : {true, false}) {
    std::vector<std::string> args{"audit", "-", "--group-by", "1", "--max-groups", "1"};
    if (follow) args.push_back("--follow");
    const auto g = run_shufl(args, two);
    EXPECT_EQ(g.status, 1) << g.err;
    EXPECT_NE(g.err.find("shufl: more than 1 group (--max-groups 1)\n"), std::string::npos) << g.err;
  }
}

}  // namespace
}  // namespace shufl::test
