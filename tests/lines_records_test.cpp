// Unit tests for lines/records.hpp: reading, splitting, streaming records, buffered output.
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "shufl/lines/records.hpp"

namespace {

std::vector<std::string> all_records(shufl::lines::record_reader& reader) {
  std::vector<std::string> out;
  std::string_view r;
  while (reader.next(r)) out.emplace_back(r);
  return out;
}

TEST(LinesRecords, ReaderAddsMissingDelimiterAndKeepsEmptyLines) {
  shufl::lines::record_reader reader(std::string_view("a\n\nb"), '\n');
  EXPECT_EQ(all_records(reader), (std::vector<std::string>{"a\n", "\n", "b\n"}));
  shufl::lines::record_reader empty(std::string_view(""), '\n');
  EXPECT_TRUE(all_records(empty).empty());
}

TEST(LinesRecords, ReaderOnPipeAssemblesRecordsAcrossReads) {
  // A record longer than the 1 MiB read size, and NUL bytes inside records.
  std::string big(3u << 20, 'x');
  big[5] = '\0';
  const std::string input = "p1\nq" + std::string(1, '\0') + "r\n" + big + "\ns1";
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  std::string got;
  std::vector<std::string> records;
  if (fork() == 0) {
    close(fds[0]);
    std::size_t done = 0;
    while (done < input.size()) {
      const ssize_t n = write(fds[1], input.data() + done, input.size() - done);
      if (n <= 0) _exit(1);
      done += static_cast<std::size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  shufl::lines::record_reader reader(fds[0], '\n');
  records = all_records(reader);
  close(fds[0]);
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(records[0], "p1\n");
  EXPECT_EQ(records[1], std::string("q\0r\n", 4));
  EXPECT_EQ(records[2], big + "\n");
  EXPECT_EQ(records[3], "s1\n");
}

TEST(LinesRecords, ZeroDelimiterTreatsNewlinesAsData) {
  shufl::lines::record_reader reader(std::string_view("a\nb", 3), '\0');
  EXPECT_EQ(all_records(reader), (std::vector<std::string>{std::string("a\nb\0", 4)}));
}

TEST(LinesRecords, CountAndTerminate) {
  shufl::lines::byte_buffer b;
  b.append("x\ny");
  shufl::lines::terminate_last_record(b, '\n');
  EXPECT_EQ(b.view(), "x\ny\n");
  EXPECT_EQ(shufl::lines::count_records(b.view(), '\n'), 2u);
  shufl::lines::byte_buffer empty;
  shufl::lines::terminate_last_record(empty, '\n');
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_EQ(shufl::lines::count_records(empty.view(), '\n'), 0u);
}

}  // namespace
