// End-to-end tests of `shufl audit --follow` run as a service (docs/monitor.md, "Running it as
// a service"): a followed file rotated by rename and by copytruncate, SIGHUP (a reopen, not a
// stop), RFC 3339 UTC times, a restart through `tail -F` (its default 10 lines, skipped only
// where they are the state's last decks) and after a SIGKILL, --on-alarm-timeout, the metrics of
// two monitors read back through prometheus-node-exporter, and the example systemd unit.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "support/background.hpp"
#include "support/follow.hpp"
#include "support/node_exporter.hpp"
#include "support/run.hpp"

namespace shufl::test {
namespace {

// The first `n` lines of `text`, and the rest.
std::string head_lines(const std::string& text, std::size_t n) {
  std::size_t at = 0;
  for (std::size_t i = 0; i < n; ++i) at = text.find('\n', at) + 1;
  return text.substr(0, at);
}

// The followed file renamed away and a new one created at its path, then a copy and a
// truncation in place: every deck of the three contents is read once, each rotation is one
// line on stderr, and the state names the file followed last and its lines.
TEST(AuditFollowService, RenameAndCopytruncateRotationsAreFollowed) {
  temp_dir dir;
  const std::string log = dir.file("decks.log"), out = dir.file("out"), err = dir.file("err");
  const std::string a = decks(300, "rot-a"), b = decks(200, "rot-b"), c = decks(100, "rot-c");
  { std::ofstream(log) << a; }
  background_run run({"audit", "--follow", log, "--format", "json", "--every", "100", "--state", dir.file("st.json")}, out,
                     err);
  ASSERT_TRUE(poll_until([&] { return contains(out, "\"decks\":300,"); }, 20)) << read_file(err);
  ASSERT_EQ(rename(log.c_str(), dir.file("decks.log.1").c_str()), 0);
  { std::ofstream(dir.file("new")) << b; }
  ASSERT_EQ(rename(dir.file("new").c_str(), log.c_str()), 0);
  ASSERT_TRUE(poll_until([&] { return contains(out, "\"decks\":500,"); }, 20)) << read_file(err);
  EXPECT_TRUE(contains(err, "names a new file (rotated): reading it from its start")) << read_file(err);
  // copytruncate: copy, truncate in place, then the writer goes on at the start.
  { std::ofstream(log, std::ios::trunc); }
  ASSERT_TRUE(poll_until([&] { return contains(err, "was truncated: reading it from its start"); }, 20)) << read_file(err);
  { std::ofstream(log, std::ios::app) << c; }
  ASSERT_TRUE(poll_until([&] { return contains(out, "\"decks\":600,"); }, 20)) << read_file(err);
  run.signal(SIGTERM);
  EXPECT_EQ(run.wait(), 0) << read_file(err);
  const auto v = json_lines(read_file(out));
  EXPECT_EQ(v.back()["type"], "final");
  EXPECT_EQ(v.back()["decks"], 600);
  EXPECT_EQ(v.back()["report"]["decks"], 600);
  EXPECT_EQ(v.back()["report"]["input"]["bytes"], a.size() + b.size() + c.size());
  struct stat st {};
  ASSERT_EQ(stat(log.c_str(), &st), 0);
  const auto state = nlohmann::json::parse(read_file(dir.file("st.json")));
  EXPECT_EQ(state["follow_input"]["id"], fmt::format("{}:{}", st.st_dev, st.st_ino));
  EXPECT_EQ(state["follow_input"]["lines"], 100);
}

// SIGHUP reopens, it does not stop: on the same file reading goes on; after a rename the new
// file is read from its start; through a pipe nothing changes. SIGTERM then ends the run.
TEST(AuditFollowService, SighupReopensTheFileAndDoesNotStop) {
  temp_dir dir;
  const std::string log = dir.file("decks.log"), out = dir.file("out"), err = dir.file("err");
  { std::ofstream(log) << decks(100, "hup-a"); }
  background_run run({"audit", "--follow", log, "--format", "json", "--every", "50"}, out, err);
  ASSERT_TRUE(poll_until([&] { return contains(out, "\"decks\":100,"); }, 20)) << read_file(err);
  ASSERT_TRUE(poll_until([&] { return run.catches(SIGHUP); }, 20));
  run.signal(SIGHUP);
  ASSERT_TRUE(poll_until([&] { return contains(err, "SIGHUP: \xE2\x80\x98" + log + "\xE2\x80\x99 is still the same file"); }, 20))
      << read_file(err);
  EXPECT_FALSE(run.exited());
  { std::ofstream(log, std::ios::app) << decks(50, "hup-b"); }
  ASSERT_TRUE(poll_until([&] { return contains(out, "\"decks\":150,"); }, 20)) << read_file(err);
  run.signal(SIGTERM);
  EXPECT_EQ(run.wait(), 0) << read_file(err);
  const auto v = json_lines(read_file(out));
  EXPECT_EQ(v.back()["reason"], "SIGTERM");
  EXPECT_EQ(v.back()["decks"], 150);

  // Through a pipe: SIGHUP changes nothing, the end of the pipe ends the run.
  const std::string bin = shufl_binary();
  // (An asynchronous command's standard input is /dev/null unless redirected: hence 3.)
  const auto r = run_shell("(" + bin + " deck --count 20 --seed hup-p; sleep 0.5; " + bin +
                           " deck --count 20 --seed hup-q) | (exec 3<&0; " + bin +
                           " audit --follow - --format json --every 10 <&3 & P=$!; sleep 0.3; kill -HUP $P; wait $P)");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("is not a file to reopen: reading goes on"), std::string::npos) << r.err;
  EXPECT_EQ(json_lines(r.out).back()["decks"], 40);
  EXPECT_EQ(json_lines(r.out).back()["reason"], "end of input");
}

// Text status, alarm and final lines start with an RFC 3339 UTC time (milliseconds, "Z"), the
// time of the run; JSON statuses carry the same as "time".
TEST(AuditFollowService, StatusLinesStartWithAnRfc3339UtcTime) {
  const auto before = std::chrono::system_clock::now();
  const auto r = run_shufl({"audit", "--follow", "-", "--every", "10"}, decks(20, "times"));
  const auto after = std::chrono::system_clock::now();
  ASSERT_EQ(r.status, 0) << r.err;
  const std::regex stamp(R"(^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.(\d{3})Z (decks|final) )");
  const auto l = lines(r.out);
  ASSERT_GE(l.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    std::smatch m;
    ASSERT_TRUE(std::regex_search(l[i], m, stamp)) << l[i];
    std::tm tm{};
    tm.tm_year = std::stoi(m[1]) - 1900;
    tm.tm_mon = std::stoi(m[2]) - 1;
    tm.tm_mday = std::stoi(m[3]);
    tm.tm_hour = std::stoi(m[4]);
    tm.tm_min = std::stoi(m[5]);
    tm.tm_sec = std::stoi(m[6]);
    const auto t = std::chrono::system_clock::from_time_t(timegm(&tm)) + std::chrono::milliseconds(std::stoi(m[7]));
    EXPECT_GE(t, std::chrono::time_point_cast<std::chrono::seconds>(before)) << l[i];
    EXPECT_LE(t, after) << l[i];
  }
  const auto j = run_shufl({"audit", "--follow", "-", "--every", "10", "--format", "json"}, decks(10, "times"));
  const auto v = json_lines(j.out);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_TRUE(std::regex_match(v[0]["time"].get<std::string>(), std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)")));
}

// `tail -F LOG | shufl audit --follow - --state S` after a stop: tail repeats the log's last
// 10 lines; they are the state's last 10 decks and are skipped (only those), decks appended
// later are added. Fed instead 10 decks that are not the state's last ones, every deck counts.
TEST(AuditFollowService, RestartThroughTailSkipsOnlyTheStatesLastDecks) {
  temp_dir dir;
  const std::string log = dir.file("decks.log"), fifo = dir.file("fifo"), state = dir.file("st.json");
  const std::string first = decks(300, "tail-a"), later = decks(50, "tail-b");
  { std::ofstream(log) << first; }
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  // One run: the monitor reads the FIFO, `tail -F` writes it; SIGTERM ends the monitor (its
  // state saved), then tail is stopped.
  const auto run_with_tail = [&](const std::string& want, const std::function<void()>& meanwhile) {
    background_run run({"audit", "--follow", fifo, "--format", "json", "--every", "1000", "--interval", "0.1", "--state",
                        state},
                       dir.file("out"), dir.file("err"));
    const auto t = run_shell("tail -F " + log + " > " + fifo + " 2>/dev/null & echo $!");
    const pid_t tail_pid = std::stoi(t.out);
    meanwhile();
    EXPECT_TRUE(poll_until([&] { return contains(dir.file("out"), want); }, 20)) << read_file(dir.file("err"));
    run.signal(SIGTERM);
    EXPECT_EQ(run.wait(), 0) << read_file(dir.file("err"));
    kill(tail_pid, SIGTERM);
    return json_lines(read_file(dir.file("out"))).back();
  };
  // The first run sees only tail's last 10 lines of the log.
  const auto one = run_with_tail("\"decks\":10,", [] {});
  EXPECT_EQ(one["decks"], 10);
  // Restarted: the same 10 lines are skipped; 50 decks appended later are added.
  const auto two = run_with_tail("\"decks\":60,", [&] {
    EXPECT_TRUE(poll_until([&] { return contains(dir.file("err"), "skipped"); }, 20));
    std::ofstream(log, std::ios::app) << later;
  });
  EXPECT_NE(read_file(dir.file("err")).find("the first 10 decks of \xE2\x80\x98" + fifo + "\xE2\x80\x99 are the last decks in"),
            std::string::npos)
      << read_file(dir.file("err"));
  EXPECT_EQ(two["decks"], 60);
  EXPECT_EQ(two["decks_this_run"], 50);
  // Decks that match the state's last decks only in part (its 10th to 2nd last, not up to its
  // last) are not skipped: they are added, and the detector sees the replay at its first deck.
  const std::string tail_of_later = later.substr(head_lines(later, 40).size());  // its last 10
  const auto partial =
      run_shufl({"audit", "--follow", "-", "--format", "json", "--state", state}, head_lines(tail_of_later, 9));
  EXPECT_EQ(partial.status, 3) << partial.err;
  EXPECT_EQ(partial.err.find("skipped"), std::string::npos) << partial.err;
  EXPECT_EQ(json_lines(partial.out).front()["type"], "alarm");
  EXPECT_EQ(json_lines(partial.out).front()["decks"], 61);
}

// A SIGKILL loses at most the decks read since the last saved status (--every): on a followed
// file none (the restart reads on from the state's line), through a pipe those not given again.
TEST(AuditFollowService, SigkillLosesAtMostTheDecksSinceTheLastSave) {
  temp_dir dir;
  const std::string log = dir.file("decks.log"), state = dir.file("st.json"), fifo = dir.file("fifo");
  const std::string text = decks(250, "kill");
  { std::ofstream(log) << text; }
  {
    background_run run({"audit", "--follow", log, "--format", "json", "--every", "100", "--state", state},
                       dir.file("out"), dir.file("err"));
    ASSERT_TRUE(poll_until([&] { return contains(dir.file("out"), "\"decks\":200,"); }, 20));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // decks 201..250 read, not saved
    run.signal(SIGKILL);
    run.wait();
  }
  EXPECT_EQ(nlohmann::json::parse(read_file(state))["follow_input"]["lines"], 200);
  {
    background_run run({"audit", "--follow", log, "--format", "json", "--every", "100", "--state", state},
                       dir.file("out"), dir.file("err"));
    ASSERT_TRUE(poll_until([&] { return contains(dir.file("err"), "its first 200 lines are in the state"); }, 20));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    run.signal(SIGTERM);
    EXPECT_EQ(run.wait(), 0);
    const auto f = json_lines(read_file(dir.file("out"))).back();
    EXPECT_EQ(f["decks"], 250);  // nothing lost
    EXPECT_EQ(f["decks_this_run"], 50);
  }
  // Through a pipe: killed after the status at 300; the restart is given tail's last 10 lines
  // (decks 341..350, not in the state): the 40 decks between are lost, no more than --every.
  const std::string more = decks(350, "kill-pipe");
  const std::string pipe_state = dir.file("pipe.json");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  {
    background_run run({"audit", "--follow", fifo, "--format", "json", "--every", "100", "--state", pipe_state},
                       dir.file("out"), dir.file("err"));
    const int w = open(fifo.c_str(), O_WRONLY);
    ASSERT_GE(w, 0);
    ASSERT_EQ(write(w, more.data(), more.size()), static_cast<ssize_t>(more.size()));
    ASSERT_TRUE(poll_until([&] { return contains(dir.file("out"), "\"decks\":300,"); }, 20));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    run.signal(SIGKILL);
    run.wait();
    close(w);
  }
  const std::string last10 = more.substr(head_lines(more, 340).size());
  const auto r = run_shufl({"audit", "--follow", "-", "--format", "json", "--state", pipe_state}, last10);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find("skipped"), std::string::npos) << r.err;
  EXPECT_EQ(json_lines(r.out).back()["decks"], 310);
}

// --interval with --group-by: the statuses of every group that dealt come at once and the state
// (which holds every group) is saved once after them, holding each group's last deck; killed
// after those statuses, nothing of the three groups is lost.
TEST(AuditFollowService, AnIntervalsStatusesOfManyGroupsSaveOneStateWithEveryGroup) {
  temp_dir dir;
  const std::string log = dir.file("decks.log"), state = dir.file("st.json");
  const auto plain = lines(decks(12, "interval-groups"));
  std::string text;
  for (std::size_t i = 0; i < plain.size(); ++i) text += fmt::format("T{} {}\n", i % 3, plain[i]);
  { std::ofstream(log) << text; }
  {
    background_run run({"audit", "--follow", log, "--group-by", "1", "--format", "json", "--interval", "0.2", "--state",
                        state},
                       dir.file("out"), dir.file("err"));
    ASSERT_TRUE(poll_until([&] { return lines(read_file(dir.file("out"))).size() >= 3; }, 20)) << read_file(dir.file("err"));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    run.signal(SIGKILL);
    run.wait();
  }
  const auto j = nlohmann::json::parse(read_file(state));
  EXPECT_EQ(j["follow_input"]["lines"], 12);
  ASSERT_EQ(j["groups"].size(), 3u);
  for (const auto& g : j["groups"]) EXPECT_EQ(g["state"]["decks"], 4) << g["group"];
}

// One garbage line in a followed log: without --skip-bad every restart resumes just before it
// and ends there (exit 1), so a later alarm is never seen; with --skip-bad (as the example unit
// runs) the line is skipped and the replayed deck after it alarms.
TEST(AuditFollowService, AGarbageLineEndsEveryRestartUnlessSkipBad) {
  temp_dir dir;
  const std::string log = dir.file("decks.log"), state = dir.file("st.json");
  const std::string text = decks(20, "garbage-line");
  { std::ofstream(log) << text << "garbage\n" << lines(text).back() << "\n"; }
  for (int i = 0; i < 2; ++i) {
    const auto r = run_shell(fmt::format("timeout 5 '{}' audit --follow '{}' --pack standard --every 10 --state '{}'",
                                         shufl_binary(), log, state));
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.err.find("line 21"), std::string::npos) << r.err;
  }
  const std::string metrics = dir.file("shufl.prom");
  const auto r = run_shell(fmt::format(
      "timeout 5 '{}' audit --follow '{}' --pack standard --every 10 --state '{}' --skip-bad --metrics '{}'",
      shufl_binary(), log, state, metrics));
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.out.find("ALARM"), std::string::npos) << r.out;
  // The skipped line shows in the metrics while the monitor runs, not only in the final report.
  std::ifstream in(metrics);
  const std::string prom((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(prom.find("\nshufl_audit_skipped_lines_total 1\n"), std::string::npos) << prom;
}

// --on-alarm-timeout: a hook that hangs is stopped after S seconds, reported, and the run ends
// with its alarm (a deck repeated at once alarms through the replay predictor).
TEST(AuditFollowService, OnAlarmTimeoutStopsAHangingHook) {
  const std::string deck = decks(1, "hook");
  const auto start = std::chrono::steady_clock::now();
  const auto r = run_shufl({"audit", "--follow", "-", "--format", "json", "--on-alarm", "sleep 30", "--on-alarm-timeout", "0.5"},
                           deck + deck);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.err.find("--on-alarm command did not end within 0.5 s: stopped"), std::string::npos) << r.err;
  EXPECT_LT(took, 20);
  EXPECT_EQ(json_lines(r.out).front()["type"], "alarm");
  const auto bad = run_shufl({"audit", "--follow", "-", "--on-alarm-timeout", "1"}, deck);
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("--on-alarm-timeout applies to --on-alarm"), std::string::npos) << bad.err;
}

// Metric values of the Prometheus text format: "name{labels} value" lines.
std::map<std::string, double> metric_values(const std::string& text) {
  std::map<std::string, double> m;
  for (const auto& line : lines(text)) {
    if (line.empty() || line[0] == '#') continue;
    const auto space = line.rfind(' ');
    m[line.substr(0, space)] = std::stod(line.substr(space + 1));
  }
  return m;
}

// Two monitors, told apart by --metrics-label, write into one textfile directory;
// node_exporter serves both without a collision or an error. An idle monitor rewrites its file
// every --metrics-interval (the heartbeat moves, the last deck's time does not).
TEST(AuditFollowService, TwoMonitorsMetricsThroughNodeExporterAndAnIdleHeartbeat) {
  temp_dir dir;
  const std::string log = dir.file("decks.log"), out = dir.file("out"), err = dir.file("err");
  const std::string prom_a = dir.file("a.prom"), prom_b = dir.file("b.prom");
  { std::ofstream(log) << decks(30, "metrics-a"); }
  background_run run({"audit", "--follow", log, "--format", "json", "--every", "10", "--metrics", prom_a,
                      "--metrics-label", "table=07", "--metrics-label", "room=main", "--metrics-interval", "0.3"},
                     out, err);
  const auto r = run_shufl({"audit", "--follow", "-", "--format", "json", "--metrics", prom_b, "--metrics-label", "table=08",
                            "--metrics-label", "room=main"},
                           decks(20, "metrics-b"));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string g = R"({table="07",room="main",group=""})";
  ASSERT_TRUE(poll_until([&] { return contains(prom_a, "shufl_audit_decks_total" + g + " 30\n"); }, 20)) << read_file(err);
  const auto first = metric_values(read_file(prom_a));
  ASSERT_TRUE(poll_until(
      [&] {
        const auto now = metric_values(read_file(prom_a));
        return now.at(R"(shufl_audit_heartbeat_timestamp_seconds{table="07",room="main"})") >
               first.at(R"(shufl_audit_heartbeat_timestamp_seconds{table="07",room="main"})") + 0.25;
      },
      20));
  const auto idle = metric_values(read_file(prom_a));
  EXPECT_EQ(idle.at("shufl_audit_last_deck_timestamp_seconds" + g), first.at("shufl_audit_last_deck_timestamp_seconds" + g));
  EXPECT_NEAR(idle.at(R"(shufl_audit_heartbeat_timestamp_seconds{table="07",room="main"})"),
              std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(), 30);
  const std::string b_text = read_file(prom_b);
  EXPECT_NE(b_text.find(R"(shufl_audit_info{table="08",room="main",version=")"), std::string::npos) << b_text;
  EXPECT_NE(b_text.find(R"(",pack="standard",arl="1000000000"} 1)"), std::string::npos) << b_text;
  // The HELP lines of the two files are the same constants.
  const auto helps = [](const std::string& text) {
    std::string h;
    for (const auto& line : lines(text))
      if (line.rfind("# HELP", 0) == 0) h += line + "\n";
    return h;
  };
  EXPECT_EQ(helps(read_file(prom_a)), helps(b_text));
  // Label errors.
  for (const char* bad : {"group=x", "9x=1", "__x=1", "noequals", "a-b=1"}) {
    const auto e = run_shufl({"audit", "--follow", "-", "--metrics", dir.file("x.prom"), "--metrics-label", bad}, "");
    EXPECT_EQ(e.status, 1) << bad;
    EXPECT_NE(e.err.find("--metrics-label"), std::string::npos) << e.err;
  }

  const std::string exporter = "/usr/bin/prometheus-node-exporter";
  if (access(exporter.c_str(), X_OK) != 0) GTEST_SKIP() << exporter << " is not installed";
  run_result scraped;
  ASSERT_NO_FATAL_FAILURE(scrape_node_exporter(exporter, dir.path(), scraped));
  ASSERT_EQ(scraped.status, 0) << scraped.err;
  EXPECT_NE(scraped.out.find("\nnode_textfile_scrape_error 0\n"), std::string::npos) << scraped.out;
  EXPECT_EQ(scraped.err.find("level=error"), std::string::npos) << scraped.err;
  EXPECT_EQ(scraped.err.find("collected before"), std::string::npos) << scraped.err;
  const auto back = metric_values(scraped.out);
  EXPECT_EQ(back.at(R"(shufl_audit_decks_total{group="",room="main",table="07"})"), 30);
  EXPECT_EQ(back.at(R"(shufl_audit_decks_total{group="",room="main",table="08"})"), 20);
  EXPECT_EQ(back.count(R"(shufl_audit_heartbeat_timestamp_seconds{room="main",table="08"})"), 1u) << scraped.out;
  run.signal(SIGTERM);
  EXPECT_EQ(run.wait(), 0);
}

// The example unit keeps the documented contract.
TEST(AuditFollowService, ExampleSystemdUnitStatesTheContract) {
  const std::string unit = read_file(source_dir() + "/examples/systemd/shufl-monitor@.service");
  for (const char* key : {"\nRestart=on-failure\n", "\nRestartPreventExitStatus=3\n", "\nSuccessExitStatus=6\n", "\nUser=shufl\n",
                          "\nStateDirectory=shufl-monitor\n", "\nExecReload=/bin/kill -HUP $MAINPID\n", "--on-alarm-timeout ",
                          "--metrics-label table=%i", "--state /var/lib/shufl-monitor/", " --skip-bad "})
    EXPECT_NE(unit.find(key), std::string::npos) << key;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(unit, m, std::regex(R"(\nTimeoutStopSec=(\d+)\n)")));
  EXPECT_GE(std::stoi(m[1]), 60);
}

}  // namespace
}  // namespace shufl::test
