// The --state document's outer layer (shufl/audit/monitor_state.hpp).
#include "shufl/audit/monitor_state.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "shufl/error.hpp"

namespace shufl::audit {
namespace {

TEST(MonitorState, RecordsRoundTripInOrder) {
  monitor_records r;
  r.input_id = "2049:77";
  r.lines = 12;
  r.recent = {0x0123456789abcdefULL, 0xfedcba9876543210ULL, 1};
  const std::string text = write_monitor_state(R"({"decks":3,"alarm":false})", r);
  EXPECT_EQ(text,
            R"({"decks":3,"alarm":false,"follow_input":{"id":"2049:77","lines":12},)"
            R"("recent_decks":["0123456789abcdef","fedcba9876543210","0000000000000001"]})"
            "\n");
  const monitor_document doc = read_monitor_document(text);
  EXPECT_TRUE(doc.has_input);
  EXPECT_EQ(doc.records.input_id, "2049:77");
  EXPECT_EQ(doc.records.lines, 12u);
  EXPECT_EQ(doc.records.recent, r.recent);
  EXPECT_EQ(doc.groups_state, R"({"alarm":false,"decks":3})");
  // Only the last max_recent hashes are kept.
  const monitor_document last = read_monitor_document(text, 2);
  EXPECT_EQ(last.records.recent, (std::deque<std::uint64_t>{0xfedcba9876543210ULL, 1}));
}

TEST(MonitorState, MalformedRecordsAreRefused) {
  for (const char* bad : {R"({"recent_decks":["123"]})", R"({"recent_decks":"x"})", R"({"recent_decks":["0123456789abcdeg"]})",
                          R"({"recent_decks":[1]})"}) {
    try {
      read_monitor_document(bad);
      ADD_FAILURE() << bad;
    } catch (const error& e) {
      EXPECT_STREQ(e.what(), "state file: 'recent_decks' is malformed");
    }
  }
  EXPECT_THROW(read_monitor_document(R"({"follow_input":{"lines":-1}})"), error);
  // Not a JSON object: returned whole for the groups' reader to name.
  EXPECT_EQ(read_monitor_document("nonsense").groups_state, "nonsense");
  try {
    read_monitor_state("nonsense");
    ADD_FAILURE();
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "state file: not JSON");
  }
}

TEST(MonitorState, DeckHashOfAGroupAppendsItsName) {
  const std::vector<std::uint32_t> faces = {3, 1, 2};
  EXPECT_EQ(deck_hash(faces), deck_hash(faces, ""));
  EXPECT_NE(deck_hash(faces), deck_hash(faces, "t1"));
  EXPECT_NE(deck_hash(faces), deck_hash(std::vector<std::uint32_t>{1, 2, 3}));
}

// A stream's state that is a --group-by document, or another program's JSON, is named as such,
// not as "written by an older monitor" (the Python Detector.load says what split_stream_state says).
TEST(MonitorState, AGroupsDocumentOrForeignJsonIsNotCalledAnOlderMonitor) {
  const auto message = [](const char* text) {
    try {
      (void)split_stream_state(text);
    } catch (const error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message(R"({"format":"shufl audit follow groups","groups":[]})"),
            "state file: it holds the groups of a monitor run with --group-by, not one stream's state");
  EXPECT_EQ(message(R"({"name":"something else"})"),
            "state file: not a state of shufl audit --follow (no e-process or change detector in it)");
  EXPECT_EQ(message(R"({"predictors":[],"decks":3})"), "state file: no change detector in it (written by an older monitor)");
}

// The records are appended to the state's text as a parse, two insertions and a dump would
// write them (nlohmann's dump computed here independently), for an empty object, an escaped
// name and numbers.
TEST(MonitorState, AppendedRecordsEqualTheDumpOfTheMergedObject) {
  monitor_records r;
  r.input_id = "8:1";
  r.lines = 7;
  r.recent = {0xabcULL, 0xffffffffffffffffULL};
  for (const char* state : {"{}", R"({"format":"shufl audit follow groups","groups":[{"group":"a\"b\u001b","state":{"x":0.1}}]})",
                            R"({"decks":3,"v":[1.5e-300,-2,true,null]})"}) {
    auto j = nlohmann::ordered_json::parse(state);
    j["follow_input"] = {{"id", "8:1"}, {"lines", 7}};
    j["recent_decks"] = {"0000000000000abc", "ffffffffffffffff"};
    EXPECT_EQ(write_monitor_state(state, r), j.dump() + "\n") << state;
  }
  r.recent.clear();
  EXPECT_EQ(write_monitor_state("{}", r), "{\"follow_input\":{\"id\":\"8:1\",\"lines\":7},\"recent_decks\":[]}\n");
}

}  // namespace
}  // namespace shufl::audit
