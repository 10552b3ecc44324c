// Unit tests of lines/csv.hpp: record boundaries (RFC 4180's examples and the edges: CRLF,
// quotes split across pieces, empty records), field values and keys, worked out by hand.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "shufl/error.hpp"
#include "shufl/lines/csv.hpp"

namespace {

using shufl::lines::csv_body;
using shufl::lines::csv_field;
using shufl::lines::csv_fields;
using shufl::lines::csv_key;
using shufl::lines::csv_record_starts;
using shufl::lines::csv_scanner;
using shufl::lines::field_list;

std::string error_of(const std::string& data) {
  try {
    csv_record_starts(data, ',');
  } catch (const shufl::error& e) {
    return e.what();
  }
  return "";
}

TEST(LinesCsv, RecordBoundaries) {
  using v = std::vector<std::uint64_t>;
  EXPECT_EQ(csv_record_starts("", ','), v({0}));
  EXPECT_EQ(csv_record_starts("a,b\nc\n", ','), v({0, 4, 6}));
  EXPECT_EQ(csv_record_starts("\"a\nb\",c\r\nd\n", ','), v({0, 9, 11}));    // a line break inside quotes
  EXPECT_EQ(csv_record_starts("\"a\"\"\n\"\n\n", ','), v({0, 7, 8}));        // "" then LF, still quoted
  EXPECT_EQ(csv_record_starts("a;\"b,\nc\";d\n", ';'), v({0, 11}));          // the delimiter decides field starts
}

TEST(LinesCsv, MalformedInputNamesTheLine) {
  EXPECT_EQ(error_of("a\nb\"c\n"), "line 2: a double quote inside an unquoted CSV field (RFC 4180: quote the whole "
                                    "field and double each quote in it)");
  EXPECT_EQ(error_of("\"a\"b\n"), "line 1: text after the closing quote of a quoted CSV field");
  EXPECT_EQ(error_of("\"a\"\rb\n"), "line 1: text after the closing quote of a quoted CSV field");
  EXPECT_EQ(error_of("a\n\"b\n\nc\n"), "line 2: a quoted CSV field opens here and the input ends inside it");
  EXPECT_EQ(error_of("a\"\n"), "line 1: a double quote inside an unquoted CSV field (RFC 4180: quote the whole "
                               "field and double each quote in it)");
}

TEST(LinesCsv, PiecesOfAnySizeFindTheSameEnds) {
  // A CR after a closing quote at the end of one piece, its LF in the next.
  const std::string data = "\"a,b\"\r\n\"c\"\"\nd\",e\n";
  for (std::size_t piece = 1; piece <= data.size(); ++piece) {
    csv_scanner scanner(',');
    std::vector<std::size_t> ends;
    for (std::size_t at = 0; at < data.size(); at += piece) {
      const char* p = data.data() + at;
      const char* end = data.data() + std::min(data.size(), at + piece);
      while (const char* lf = scanner.find_end(p, end)) {
        ends.push_back(static_cast<std::size_t>(lf - data.data()));
        p = lf + 1;
      }
    }
    scanner.finish();
    EXPECT_EQ(ends, (std::vector<std::size_t>{6, 16})) << piece;
  }
}

TEST(LinesCsv, ByteOrderMarkAtTheInputStart) {
  // Excel's "CSV UTF-8": a byte order mark, then a quoted first field. At the start of the
  // input the mark is not part of the field (in any pieces); elsewhere, or when the mark is
  // cut short, its bytes are data of an unquoted field, and a quote after them is malformed.
  const std::string bom = "\xEF\xBB\xBF";
  const std::string data = bom + "\"name\",w\n\"x\",1\n";
  EXPECT_EQ(csv_record_starts(data, ','), (std::vector<std::uint64_t>{0, 12, 18}));
  for (std::size_t piece = 1; piece <= 4; ++piece) {
    csv_scanner scanner(',');
    std::vector<std::size_t> ends;
    for (std::size_t at = 0; at < data.size(); at += piece) {
      const char* p = data.data() + at;
      const char* end = data.data() + std::min(data.size(), at + piece);
      while (const char* lf = scanner.find_end(p, end)) {
        ends.push_back(static_cast<std::size_t>(lf - data.data()));
        p = lf + 1;
      }
    }
    scanner.finish();
    EXPECT_EQ(ends, (std::vector<std::size_t>{11, 17})) << piece;
  }
  EXPECT_EQ(error_of("a\n" + bom + "\"b\"\n"), "line 2: a double quote inside an unquoted CSV field (RFC 4180: "
                                               "quote the whole field and double each quote in it)");
  EXPECT_EQ(error_of("\xEF\xBB\"b\"\n"), "line 1: a double quote inside an unquoted CSV field (RFC 4180: quote the "
                                         "whole field and double each quote in it)");
  EXPECT_THROW(csv_scanner(',', 2).find_end(data.data(), data.data() + data.size()), shufl::error);  // not the start
  EXPECT_EQ(error_of(bom + "a,b\n"), "");  // unquoted: the mark stays data, as without --csv
  // A field delimiter that is a byte of the mark: no mark is read, the bytes are what they are.
  EXPECT_EQ(csv_record_starts("\xEF\"a\xEF\"\n", '\xEF'), (std::vector<std::uint64_t>{0, 6}));
  std::vector<std::string> values;
  csv_fields(csv_body(data.substr(0, 12)), ',', values);
  EXPECT_EQ(values, (std::vector<std::string>{"name", "w"}));
  std::string value;
  EXPECT_TRUE(csv_field(bom + "\"2.5\",a", 1, ',', value));
  EXPECT_EQ(value, "2.5");
}

TEST(LinesCsv, FieldValuesAndKeys) {
  std::vector<std::string> values;
  csv_fields(csv_body("\"New York, NY\",\"a \"\"b\"\"\",,\"x\ny\",2.5\r\n"), ',', values);
  EXPECT_EQ(values, (std::vector<std::string>{"New York, NY", "a \"b\"", "", "x\ny", "2.5"}));
  std::string value;
  EXPECT_TRUE(csv_field("a,\"2.5\"", 2, ',', value));
  EXPECT_EQ(value, "2.5");
  EXPECT_FALSE(csv_field("a,\"2.5\"", 3, ',', value));
  // Keys: the shortest CSV spelling of each value, joined.
  std::string key;
  EXPECT_TRUE(csv_key("1,\"NY\",x", field_list{{{2, 3}}}, ',', key));
  EXPECT_EQ(key, "NY,x");
  EXPECT_TRUE(csv_key("1,NY,\"x\"", field_list{{{2, 3}}}, ',', key));
  EXPECT_EQ(key, "NY,x");
  EXPECT_TRUE(csv_key("\"a,b\",c", field_list{{{1, 1}}}, ',', key));
  EXPECT_EQ(key, "\"a,b\"");
  EXPECT_TRUE(csv_key("a,\"b,c\"", field_list{{{1, 2}}}, ',', key));
  EXPECT_EQ(key, "a,\"b,c\"");  // not the key of "a,b",c
  EXPECT_TRUE(csv_key("\"say \"\"hi\"\"\"", field_list{{{1, 1}}}, ',', key));
  EXPECT_EQ(key, "\"say \"\"hi\"\"\"");
  EXPECT_FALSE(csv_key("a,b", field_list{{{3, SIZE_MAX}}}, ',', key));
  EXPECT_TRUE(csv_key("a,b,c", field_list{{{3, SIZE_MAX}}}, ',', key));
  EXPECT_EQ(key, "c");
}

}  // namespace
