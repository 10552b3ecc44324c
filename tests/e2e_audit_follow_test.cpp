// End-to-end tests of `shufl audit --follow`: the real binary on a fair stream (`shufl deck
// --count`), on decks with a planted flaw (three riffle shuffles from the canonical order, made
// here with the test's own random numbers), on a regular file that grows while it is followed
// (stopped with SIGINT), with --keep-going, --on-alarm, --state across a restart and --metrics
// read back through prometheus-node-exporter. The mixture is checked against its definition
// (the average of the predictors' e-values) and the anytime p against min(1, 1/max e).
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <numeric>
#include <regex>
#include <string>
#include <vector>

#include "support/background.hpp"
#include "support/node_exporter.hpp"
#include "support/run.hpp"
#include "support/test_rng.hpp"

namespace shufl::test {
namespace {


// `count` decks, each three riffles of the canonical order (a flaw the monitor finds in a few decks).
std::string three_riffles(std::size_t count, std::uint64_t seed) {
  test_rng rng{seed};
  std::string text;
  for (std::size_t t = 0; t < count; ++t) {
    std::vector<std::uint32_t> d(52);
    std::iota(d.begin(), d.end(), 0u);
    for (int r = 0; r < 3; ++r) d = gsr_riffle(d, rng);
    text += deck_line(d);
  }
  return text;
}

// A status line without its leading time ("2026-12-03T12:40:00.125Z "), which must be there.
std::string untimed(const std::string& line) {
  const std::regex time(R"(^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z )");
  EXPECT_TRUE(std::regex_search(line, time)) << line;
  return line.size() > 25 ? line.substr(25) : line;
}

std::vector<nlohmann::json> json_lines(const std::string& out) {
  std::vector<nlohmann::json> v;
  for (const auto& line : lines(out)) v.push_back(nlohmann::json::parse(line));
  return v;
}

// The documented relations of a status: mixture = log10 of the average of the predictors'
// e-values; anytime p = min(1, 10^−max log10 mixture); the leader has the largest e-value.
void check_status(const nlohmann::json& s) {
  ASSERT_EQ(s["log10_e"].size(), 4u);
  double sum = 0, best = -1e300;
  std::string leader;
  for (auto it = s["log10_e"].begin(); it != s["log10_e"].end(); ++it) {
    const double value = it.value().get<double>();
    sum += std::pow(10.0, value);
    if (value > best) best = value, leader = it.key();
  }
  EXPECT_NEAR(s["log10_e_mixture"].get<double>(), std::log10(sum / 4), 1e-9);
  EXPECT_EQ(s["leader"], leader);
  const double max = s["max_log10_e_mixture"].get<double>();
  EXPECT_GE(max, s["log10_e_mixture"].get<double>() - 1e-12);
  EXPECT_NEAR(s["anytime_p"].get<double>(), std::min(1.0, std::pow(10.0, -max)), 1e-12);
}

TEST(AuditFollow, FairStreamPassesWithStatusesAndFinalReport) {
  const std::string bin = shufl_binary();
  const auto r = run_shell(bin + " deck --count 3000 --seed follow-fair | " + bin +
                           " audit --follow - --format json --every 1000");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto v = json_lines(r.out);
  ASSERT_EQ(v.size(), 4u) << r.out;
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(v[i]["type"], "status");
    EXPECT_EQ(v[i]["decks"], 1000 * (i + 1));
    EXPECT_FALSE(v[i]["alarm"].get<bool>());
    check_status(v[i]);
  }
  const auto& f = v[3];
  EXPECT_EQ(f["type"], "final");
  EXPECT_EQ(f["reason"], "end of input");
  EXPECT_EQ(f["decks"], 3000);
  EXPECT_EQ(f["alpha"], 0.001);
  EXPECT_EQ(f["arl"], 1e9);
  EXPECT_EQ(f["threshold_log10_m"], 9.0);
  EXPECT_LT(f["log10_m"].get<double>(), 9.0);
  EXPECT_EQ(f["alarms"], 0);
  EXPECT_LT(f["max_log10_e_mixture"].get<double>(), 3.0);
  check_status(f);
  EXPECT_EQ(f["report"]["command"], "audit");
  EXPECT_EQ(f["report"]["decks"], 3000);
  EXPECT_EQ(f["report"]["result"], "pass");

  // Text: one status line per 1000 decks, the final status and the battery's table.
  const auto t = run_shell(bin + " deck --count 2000 --seed follow-fair | " + bin + " audit --follow --every 1000");
  ASSERT_EQ(t.status, 0) << t.err;
  const auto l = lines(t.out);
  ASSERT_GE(l.size(), 4u);
  EXPECT_EQ(untimed(l[0]).rfind("decks 1000  log10 e: position ", 0), 0u) << l[0];
  EXPECT_NE(l[0].find("detector log10 M "), std::string::npos) << l[0];
  EXPECT_NE(l[0].find("(alarm at 9.00: ARL >= 10^9 decks)"), std::string::npos) << l[0];
  EXPECT_EQ(untimed(l[2]).rfind("final (end of input): decks 2000 ", 0), 0u) << t.out;
  EXPECT_NE(t.out.find("audit of standard input: 2000 decks"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("result: pass"), std::string::npos);
}

TEST(AuditFollow, PlantedFlawAlarmsNamesThePredictorAndExits3) {
  const auto r = run_shufl({"audit", "--follow", "-", "--format", "json"}, three_riffles(200, 7));
  ASSERT_EQ(r.status, 3) << r.err;
  const auto v = json_lines(r.out);
  ASSERT_EQ(v.size(), 2u) << r.out;
  EXPECT_EQ(v[0]["type"], "alarm");
  EXPECT_GE(v[0]["log10_m"].get<double>(), 9.0);  // the detector's alarm at the default --arl 1e9
  EXPECT_LT(v[0]["decks"].get<int>(), 50);
  EXPECT_EQ(v[0]["detector_decks"], v[0]["decks"]);
  check_status(v[0]);
  EXPECT_FALSE(v[0]["evidence"].get<std::string>().empty());
  EXPECT_EQ(v[1]["type"], "final");
  EXPECT_EQ(v[1]["reason"], "alarm");
  EXPECT_EQ(v[1]["decks"], v[0]["decks"]);

  const auto t = run_shufl({"audit", "--follow", "-"}, three_riffles(200, 7));
  ASSERT_EQ(t.status, 3);
  EXPECT_EQ(untimed(t.out).rfind(fmt::format("ALARM after {} decks: ", v[0]["decks"].get<int>()), 0), 0u) << t.out;
  EXPECT_NE(t.out.find(fmt::format("leader {}: {}", v[0]["detector_leader"].get<std::string>(),
                                   v[0]["detector_evidence"].get<std::string>())),
            std::string::npos)
      << t.out;
  EXPECT_NE(t.out.find("final (alarm): "), std::string::npos);
}

TEST(AuditFollow, KeepGoingRestartsTheDetectorAfterEachAlarm) {
  const auto r = run_shufl({"audit", "--follow", "-", "--format", "json", "--every", "100", "--keep-going"},
                           three_riffles(300, 11));
  ASSERT_EQ(r.status, 3) << r.err;
  const auto v = json_lines(r.out);
  int alarms = 0;
  std::int64_t last = 0;
  for (const auto& o : v) {
    if (o["type"] != "alarm") continue;
    ++alarms;
    // Each alarm counts its own decks from the restart after the previous one.
    EXPECT_EQ(o["detector_decks"].get<std::int64_t>(), o["decks"].get<std::int64_t>() - last);
    last = o["decks"].get<std::int64_t>();
    EXPECT_EQ(o["alarms"], alarms);
  }
  EXPECT_GE(alarms, 2);
  EXPECT_EQ(v.back()["alarms"], alarms);
  ASSERT_EQ(v.back()["type"], "final");
  EXPECT_EQ(v.back()["decks"], 300);
  EXPECT_EQ(v.back()["reason"], "end of input");
  EXPECT_TRUE(v.back()["alarm"].get<bool>());
  EXPECT_EQ(v.back()["report"]["result"], "fail");  // the battery sees three riffles too
}

TEST(AuditFollow, OnAlarmGetsTheAlarmAsJsonAndItsFailureIsReported) {
  temp_dir dir;
  const std::string got = dir.file("alarm.json");
  const auto r = run_shufl({"audit", "--follow", "-", "--format", "json", "--on-alarm", "cat > '" + got + "'; echo hi"},
                           three_riffles(100, 5));
  ASSERT_EQ(r.status, 3) << r.err;
  const auto v = json_lines(r.out);  // the command's "hi" went to stderr, not into the JSON Lines
  ASSERT_EQ(v.size(), 2u);
  const auto sent = nlohmann::json::parse(read_file(got));
  EXPECT_EQ(sent, v[0]);
  EXPECT_NE(r.err.find("hi"), std::string::npos);

  const auto f = run_shufl({"audit", "--follow", "-", "--on-alarm", "exit 7"}, three_riffles(100, 5));
  EXPECT_EQ(f.status, 3);
  EXPECT_NE(f.err.find("shufl: --on-alarm command exited with status 7"), std::string::npos) << f.err;
  EXPECT_NE(f.out.find("final (alarm): "), std::string::npos);
}

TEST(AuditFollow, StateContinuesTheSameProcessAndRefusesAnotherPack) {
  temp_dir dir;
  const std::string state = dir.file("state.json");
  const std::string bin = shufl_binary();
  const std::string first = run_shufl({"deck", "--count", "1500", "--seed", "st"}).out;
  const std::string all = first + run_shufl({"deck", "--count", "1500", "--seed", "st2"}).out;
  const std::string second = all.substr(first.size());
  const auto a = run_shufl({"audit", "--follow", "-", "--format", "json", "--state", state}, first);
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_NE(a.err.find("does not exist yet"), std::string::npos);
  const auto b = run_shufl({"audit", "--follow", "-", "--format", "json", "--state", state}, second);
  ASSERT_EQ(b.status, 0) << b.err;
  const auto whole = run_shufl({"audit", "--follow", "-", "--format", "json"}, all);
  ASSERT_EQ(whole.status, 0) << whole.err;
  const auto fb = json_lines(b.out).back(), fw = json_lines(whole.out).back();
  EXPECT_EQ(fb["decks"], 3000);
  EXPECT_EQ(fb["decks_this_run"], 1500);
  EXPECT_EQ(fb["report"]["decks"], 1500);  // the battery covers this run
  // One process over the restart: the same e-values as one run over all the decks.
  for (auto it = fw["log10_e"].begin(); it != fw["log10_e"].end(); ++it) {
    EXPECT_NEAR(fb["log10_e"][it.key()].get<double>(), it.value().get<double>(), 1e-9) << it.key();
  }
  EXPECT_NEAR(fb["max_log10_e_mixture"].get<double>(), fw["max_log10_e_mixture"].get<double>(), 1e-9);

  const auto other = run_shufl({"audit", "--follow", "-", "--pack", "piquet", "--state", state},
                               run_shufl({"deck", "--count", "3", "--pack", "piquet", "--seed", "x"}).out);
  EXPECT_EQ(other.status, 1);
  EXPECT_TRUE(other.out.empty());
  EXPECT_NE(other.err.find("state file: written for the pack 'standard'"), std::string::npos) << other.err;
}

TEST(AuditFollow, ExitStatusThreeIsTheAlarmOnlyAFailedBatteryIsSix) {
  // A fair stream whose end-of-run battery fails (at --alpha 0.9 Holm fails by chance) and whose
  // detector does not alarm: 6, not 3.
  const std::string decks = run_shufl({"deck", "--count", "400", "--seed", "six"}).out;
  const auto r = run_shufl({"audit", "--follow", "-", "--format", "json", "--alpha", "0.9"}, decks);
  ASSERT_EQ(r.status, 6) << r.out << r.err;
  const auto f = json_lines(r.out).back();
  EXPECT_FALSE(f["alarm"].get<bool>());
  EXPECT_EQ(f["report"]["result"], "fail");
  // The same decks at the default level: 0.
  EXPECT_EQ(run_shufl({"audit", "--follow", "-", "--format", "json"}, decks).status, 0);
}

TEST(AuditFollow, RestoredAlarmIsGivenAgainUnlessReset) {
  temp_dir dir;
  const std::string state = dir.file("state.json");
  const auto a = run_shufl({"audit", "--follow", "-", "--format", "json", "--state", state}, three_riffles(60, 3));
  ASSERT_EQ(a.status, 3) << a.err;
  const std::string fair = run_shufl({"deck", "--count", "200", "--seed", "after-alarm"}).out;
  const std::string copy = dir.file("copy.json");
  {
    std::ofstream(copy) << read_file(state);
  }
  const auto again = run_shufl({"audit", "--follow", "-", "--format", "json", "--state", state}, fair);
  EXPECT_EQ(again.status, 3) << again.err;
  EXPECT_NE(again.err.find("holds an alarm: it is given again"), std::string::npos) << again.err;
  EXPECT_EQ(json_lines(again.out).front()["type"], "alarm");
  const auto reset = run_shufl({"audit", "--follow", "-", "--format", "json", "--state", copy, "--reset-alarm"}, fair);
  EXPECT_EQ(reset.status, 0) << reset.err;
  EXPECT_NE(reset.err.find("held an alarm: reset"), std::string::npos) << reset.err;
  const auto f = json_lines(reset.out).back();
  EXPECT_FALSE(f["alarm"].get<bool>());
  EXPECT_EQ(f["detector_decks"], 200);  // from 0 at the reset
  EXPECT_EQ(f["decks_this_run"], 200);
  EXPECT_GT(f["decks"].get<int>(), 200);  // the since-the-start e-process went on
}

TEST(AuditFollow, HostileStatesAreRefusedWithClearMessages) {
  temp_dir dir;
  const std::string state = dir.file("state.json");
  const std::string decks = run_shufl({"deck", "--count", "30", "--seed", "hostile"}).out;
  ASSERT_EQ(run_shufl({"audit", "--follow", "-", "--state", state}, decks).status, 0);
  const auto good = nlohmann::json::parse(read_file(state));
  const auto refused = [&](const nlohmann::json& j, const std::string& expect) {
    const std::string bad = dir.file("bad.json");
    std::ofstream(bad) << j.dump();
    const auto r = run_shufl({"audit", "--follow", "-", "--state", bad}, decks);
    EXPECT_EQ(r.status, 1) << j.dump().substr(0, 200);
    EXPECT_TRUE(r.out.empty());
    EXPECT_NE(r.err.find(expect), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("json.exception"), std::string::npos) << r.err;
  };
  auto j = good;
  j["decks"] = -1;
  refused(j, "'decks' holds a value that is not a whole number");
  j = good;
  j["position_counts"][0] = 1.5;
  refused(j, "'position_counts' holds a value that is not a whole number");
  j = good;
  j["position_counts"][0] = j["position_counts"][0].get<int>() + 1;
  refused(j, "'position_counts' does not add up");
  j = good;
  j["predictors"][0]["log_e"][1] = 1e308;
  refused(j, "an e-value out of range");
  j = good;
  j["max_log_mixture"] = 1e308;
  refused(j, "'max_log_mixture' is out of range");
  j = good;
  j["predictors"][0]["hits"] = "many";
  refused(j, "'hits' holds a value that is not a whole number");
  j = good;
  j["length"] = nullptr;
  refused(j, "state file:");
  j = good;
  j["follow_input"]["lines"] = -5;
  refused(j, "'follow_input' is malformed");
  j = good;
  for (auto& v : j["detector"]["log_sr"])
    if (v.is_number()) v = 1e300;
  refused(j, "a change detector statistic out of range");
}

TEST(AuditFollow, AStopSignalWhileStdoutIsBlockedStillGivesTheFinalReport) {
  // Standard output is a FIFO nobody reads: the monitor blocks in write() when its buffer is
  // full. SIGTERM interrupts that write; it is retried, and once the reader drains the FIFO the
  // run ends with its final status and report, exit 0 (not "write error: Interrupted system
  // call", exit 1).
  temp_dir dir;
  const std::string decks = dir.file("decks.txt"), fifo = dir.file("out.fifo");
  { std::ofstream(decks) << run_shufl({"deck", "--count", "3000", "--seed", "blocked"}).out; }
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const int reader = open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  background_run run({"audit", "--follow", decks, "--format", "json", "--every", "1"}, fifo, dir.file("err"));
  std::this_thread::sleep_for(std::chrono::milliseconds(800));  // the pipe fills, the writer blocks
  EXPECT_FALSE(run.exited());
  run.signal(SIGTERM);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  fcntl(reader, F_SETFL, 0);  // blocking: read to the end
  std::string out;
  char buffer[65536];
  for (;;) {
    const ssize_t got = read(reader, buffer, sizeof buffer);
    if (got > 0) {
      out.append(buffer, static_cast<std::size_t>(got));
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    break;
  }
  close(reader);
  EXPECT_EQ(run.wait(), 0) << read_file(dir.file("err"));
  EXPECT_EQ(read_file(dir.file("err")).find("write error"), std::string::npos) << read_file(dir.file("err"));
  const auto v = json_lines(out);
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v.back()["type"], "final");
  EXPECT_EQ(v.back()["reason"], "SIGTERM");
}

TEST(AuditFollow, FollowsAGrowingFileAndStopsOnSigint) {
  temp_dir dir;
  const std::string decks = dir.file("decks.txt");
  const std::string text = run_shufl({"deck", "--count", "800", "--seed", "grow"}).out;
  const std::size_t cut = text.find('\n', text.size() / 2) + 1;  // 400 decks first
  { std::ofstream(decks) << text.substr(0, cut); }
  background_run run({"audit", "--follow", decks, "--format", "json", "--every", "100"}, dir.file("out"),
                     dir.file("err"));
  const auto has = [&](const std::string& what) { return read_file(dir.file("out")).find(what) != std::string::npos; };
  ASSERT_TRUE(poll_until([&] { return has("\"decks\":400,"); }, 20)) << read_file(dir.file("err"));
  // The rest, with a pause inside a line: the monitor waits for its newline.
  const std::string rest = text.substr(cut);
  {
    std::ofstream out(decks, std::ios::app);
    out << rest.substr(0, 20) << std::flush;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_FALSE(run.exited());
  { std::ofstream(decks, std::ios::app) << rest.substr(20); }
  ASSERT_TRUE(poll_until([&] { return has("\"decks\":800,"); }, 20)) << read_file(dir.file("err"));
  EXPECT_FALSE(run.exited());
  run.signal(SIGINT);
  EXPECT_EQ(run.wait(), 0);
  const auto v = json_lines(read_file(dir.file("out")));
  ASSERT_EQ(v.back()["type"], "final");
  EXPECT_EQ(v.back()["reason"], "SIGINT");
  EXPECT_EQ(v.back()["decks"], 800);
  EXPECT_EQ(v.back()["report"]["decks"], 800);
  EXPECT_EQ(v.back()["report"]["input"]["bytes"], text.size());
}

// A monitor restarted with its --state on the same followed file resumes after the lines the
// state holds (they are not added twice: a fair log would otherwise look like repeated decks
// and alarm); decks appended since are added.
TEST(AuditFollow, RestartOnTheSameFileResumesAfterTheStatesLines) {
  temp_dir dir;
  const std::string decks = dir.file("decks.txt"), state = dir.file("state.json");
  const std::string text = run_shufl({"deck", "--count", "600", "--seed", "again"}).out;
  { std::ofstream(decks) << text; }
  const auto run_until = [&](const std::string& want, const char* where = "out") {
    background_run run({"audit", "--follow", decks, "--format", "json", "--every", "50", "--state", state},
                       dir.file("out"), dir.file("err"));
    EXPECT_TRUE(poll_until([&] { return read_file(dir.file(where)).find(want) != std::string::npos; }, 20))
        << read_file(dir.file("err"));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // reading on would add more
    run.signal(SIGTERM);
    EXPECT_EQ(run.wait(), 0) << read_file(dir.file("err"));
    return json_lines(read_file(dir.file("out"))).back();
  };
  const auto first = run_until("\"decks\":600,");
  EXPECT_EQ(first["decks"], 600);
  // Restarted on the unchanged file: nothing new.
  const auto second = run_until("its first 600 lines are in the state already", "err");
  EXPECT_EQ(second["decks"], 600);
  EXPECT_EQ(second["decks_this_run"], 0);
  // Decks appended since the stop are added.
  { std::ofstream(decks, std::ios::app) << run_shufl({"deck", "--count", "50", "--seed", "later"}).out; }
  const auto third = run_until("\"decks\":650,");
  EXPECT_EQ(third["decks"], 650);
  EXPECT_EQ(third["decks_this_run"], 50);
}

// --interval: a status comes while the monitor waits for more decks, once (an idle monitor is
// quiet), then the final status when the pipe ends.
TEST(AuditFollow, IntervalStatusWhileWaitingThenQuiet) {
  const std::string bin = shufl_binary();
  const auto r = run_shell("(" + bin + " deck --count 5 --seed iv; sleep 1) | " + bin +
                           " audit --follow - --pack standard --interval 0.2 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto v = json_lines(r.out);
  // Usually [status 5, final]; when the decks arrive in several reads (a slow or loaded
  // machine), a status may come after each of them too, but one per change only: the second
  // of waiting at 5 decks adds none (an idle monitor is quiet).
  ASSERT_GE(v.size(), 2u) << r.out;
  ASSERT_LE(v.size(), 6u) << r.out;
  const auto& last_status = v[v.size() - 2];
  EXPECT_EQ(last_status["type"], "status");
  EXPECT_EQ(last_status["decks"], 5);
  for (std::size_t i = 0; i + 2 < v.size(); ++i) {
    EXPECT_EQ(v[i]["type"], "status") << r.out;
    EXPECT_LT(v[i]["decks"].get<int>(), v[i + 1]["decks"].get<int>()) << r.out;
  }
  EXPECT_EQ(v.back()["type"], "final");
  EXPECT_EQ(v.back()["decks"], 5);
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

TEST(AuditFollow, MetricsFileReadBackThroughNodeExporter) {
  temp_dir dir;
  const std::string prom = dir.file("shufl.prom");
  const auto r = run_shufl({"audit", "--follow", "-", "--format", "json", "--metrics", prom},
                           run_shufl({"deck", "--count", "500", "--seed", "m"}).out);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto f = json_lines(r.out).back();
  const std::string text = read_file(prom);
  EXPECT_NE(text.find("# TYPE shufl_audit_decks_total counter\n"), std::string::npos);
  EXPECT_NE(text.find("# HELP shufl_audit_log10_e "), std::string::npos);
  auto m = metric_values(text);
  EXPECT_EQ(m["shufl_audit_decks_total{group=\"\"}"], 500);
  EXPECT_EQ(m["shufl_audit_alarm{group=\"\"}"], 0);
  EXPECT_NEAR(m["shufl_audit_detector_log10_threshold{group=\"\"}"], 9, 1e-12);
  EXPECT_EQ(m["shufl_audit_detector_log10_statistic{group=\"\"}"], f["log10_m"].get<double>());
  EXPECT_EQ(m["shufl_audit_alarms_total{group=\"\"}"], 0);
  EXPECT_EQ(m["shufl_audit_log10_e{group=\"\",predictor=\"mixture\"}"], f["log10_e_mixture"].get<double>());
  EXPECT_EQ(m["shufl_audit_log10_e{group=\"\",predictor=\"position\"}"], f["log10_e"]["position"].get<double>());

  const std::string exporter = "/usr/bin/prometheus-node-exporter";
  if (access(exporter.c_str(), X_OK) != 0) GTEST_SKIP() << exporter << " is not installed";
  run_result scraped;
  ASSERT_NO_FATAL_FAILURE(scrape_node_exporter(exporter, dir.path(), scraped));
  ASSERT_EQ(scraped.status, 0) << scraped.err;
  ASSERT_NE(scraped.out.find("shufl_audit_decks_total"), std::string::npos) << scraped.out;
  EXPECT_NE(scraped.out.find("\nnode_textfile_scrape_error 0\n"), std::string::npos) << scraped.out;
  auto back = metric_values(scraped.out);
  EXPECT_EQ(back["shufl_audit_decks_total{group=\"\"}"], 500);
  EXPECT_EQ(back["shufl_audit_alarm{group=\"\"}"], 0);
  EXPECT_NEAR(back["shufl_audit_log10_e{group=\"\",predictor=\"mixture\"}"], f["log10_e_mixture"].get<double>(), 1e-12);
  EXPECT_NEAR(back["shufl_audit_log10_e{group=\"\",predictor=\"suit-rank\"}"], f["log10_e"]["suit-rank"].get<double>(), 1e-12);
}

TEST(AuditFollow, OptionErrors) {
  auto r = run_shufl({"audit", "--every", "10", "-"}, "");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("--every applies to --follow"), std::string::npos) << r.err;
  r = run_shufl({"audit", "--follow", "--algo", "riffle:3", "-"}, "");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("--algo does not apply to --follow"), std::string::npos) << r.err;
  r = run_shufl({"audit", "--follow", "-", "--every", "0"}, "");
  EXPECT_EQ(r.status, 1);
  r = run_shufl({"audit", "--follow", "-"}, "");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("no decks in the input"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
  // An empty file name is refused, not silently left unwritten.
  for (const char* option : {"--state", "--metrics", "--report"}) {
    r = run_shufl({"audit", "--follow", "-", option, ""}, "");
    EXPECT_EQ(r.status, 1) << option;
    EXPECT_EQ(r.err, std::string("shufl: ") + option + " needs a file name\n");
  }
}

}  // namespace
}  // namespace shufl::test
