// Unit tests for lines/records.hpp: reading, splitting, streaming records, buffered output.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "shufl/lines/records.hpp"
#include "support/run.hpp"

namespace {

std::vector<std::string> all_records(shufl::lines::record_reader& reader) {
  std::vector<std::string> out;
  std::string_view r;
  while (reader.next(r)) out.emplace_back(r);
  return out;
}

// The bytes a background fd_writer puts in a file when `fill` writes to it (then flushed).
template <class Fill>
std::string written_by(Fill&& fill) {
  shufl::test::temp_dir dir;
  const std::string path = dir.file("out");
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) throw std::runtime_error("cannot create " + path);
  {
    shufl::lines::fd_writer out(fd, true);
    fill(out);
    out.flush();
  }
  ::close(fd);
  return shufl::test::read_file(path);
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

TEST(LinesRecords, FileForEachAndNextAgreeAcrossReads) {
  // About 10 MiB of records of varying length (some longer than a 1 MiB read), no final
  // newline, also from a non-zero starting offset.
  std::string content = "xy\n";
  for (std::size_t i = 0; content.size() < (10u << 20); ++i) {
    content += std::string(i % 7 == 0 ? (i * 7919) % 5000000 : i % 300, static_cast<char>('a' + i % 26));
    content += '\n';
  }
  content += "tail";
  shufl::test::temp_dir dir;
  const std::string path = dir.write("f", content);
  shufl::lines::record_reader memory(std::string_view(content), '\n');
  const auto expected = all_records(memory);
  for (const off_t start : {off_t{0}, off_t{1}}) {
    const int fd1 = ::open(path.c_str(), O_RDONLY);
    const int fd2 = ::open(path.c_str(), O_RDONLY);
    ASSERT_EQ(::lseek(fd1, start, SEEK_SET), start);
    ASSERT_EQ(::lseek(fd2, start, SEEK_SET), start);
    shufl::lines::record_reader by_next(fd1, '\n');
    shufl::lines::record_reader by_each(fd2, '\n');
    std::vector<std::string> each;
    by_each.for_each([&](std::string_view r) { each.emplace_back(r); });
    const auto next = all_records(by_next);
    ::close(fd1);
    ::close(fd2);
    std::vector<std::string> want = expected;
    if (start == 1) want[0].erase(0, 1);
    EXPECT_TRUE(next == want);
    EXPECT_TRUE(each == want);
  }
}

// Issue 12 item 10: a file truncated while it is read (logrotate's copytruncate) ends the
// records early; nothing faults (the reader used to map the file: SIGBUS), and every record
// returned is a record of the original file, in order.
TEST(LinesRecords, FileTruncatedWhileReadEndsEarlyWithoutFault) {
  std::string content;
  for (int i = 0; content.size() < (12u << 20); ++i) content += "record " + std::to_string(i) + "\n";
  shufl::test::temp_dir dir;
  const std::string path = dir.write("f", content);
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  shufl::lines::record_reader reader(fd, '\n');
  std::string_view r;
  ASSERT_TRUE(reader.next(r));
  EXPECT_EQ(r, "record 0\n");
  ASSERT_EQ(::truncate(path.c_str(), 0), 0);
  std::string got(r);
  while (reader.next(r)) got += r;
  ::close(fd);
  EXPECT_LT(got.size(), content.size());
  // A record cut by the truncation gets its delimiter added, as any last record.
  ASSERT_FALSE(got.empty());
  EXPECT_EQ(got.back(), '\n');
  EXPECT_EQ(got.substr(0, got.size() - 1), content.substr(0, got.size() - 1));
  // input_data::load after a shrink: the bytes that are there, a private copy.
  const std::string path2 = dir.write("g", content);
  const int fd2 = ::open(path2.c_str(), O_RDONLY);
  ASSERT_GE(fd2, 0);
  const auto data = shufl::lines::input_data::load(fd2, '\n');
  ASSERT_EQ(::truncate(path2.c_str(), 0), 0);
  ::close(fd2);
  EXPECT_EQ(data.view(), content) << "still readable after the file was emptied";
}

// Issue 12 item 9: bytes already taken from a pipe (by the --header reader) come first.
TEST(LinesRecords, PendingBytesComeBeforeTheRestOfTheInput) {
  shufl::test::temp_dir dir;
  const std::string path = dir.write("f", "c\nd");
  for (const std::string& pending : {std::string(), std::string("a\nb"), std::string(3u << 20, 'p')}) {
    const int fd1 = ::open(path.c_str(), O_RDONLY);
    const int fd2 = ::open(path.c_str(), O_RDONLY);
    shufl::lines::record_reader reader(fd1, '\n', pending);
    std::string joined;
    for (const auto& rec : all_records(reader)) joined += rec;
    EXPECT_EQ(joined, pending + "c\nd\n");
    EXPECT_EQ(shufl::lines::input_data::load(fd2, '\n', pending).view(), pending + "c\nd\n");
    ::close(fd1);
    ::close(fd2);
  }
}

// A file of 64 MiB or more is read by two threads, a half each: the same bytes, from the
// current offset, and the offset left at the end (as a sequential read leaves it).
TEST(LinesRecords, LargeFileReadInTwoHalvesIsTheSameBytes) {
  std::string content;
  for (int i = 0; content.size() < (70u << 20); ++i) content += std::to_string(i * 2654435761u) + "\n";
  content += "tail";
  shufl::test::temp_dir dir;
  const std::string path = dir.write("big", content);
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::lseek(fd, 3, SEEK_SET), 3);
  const auto data = shufl::lines::input_data::load(fd, '\n');
  EXPECT_EQ(::lseek(fd, 0, SEEK_CUR), static_cast<off_t>(content.size()));
  ::close(fd);
  EXPECT_TRUE(data.view() == content.substr(3) + "\n");
}

// The background writer (two buffers, a second thread) writes the same bytes in the same
// order, across buffers and with writes larger than a buffer, and reports write errors.
TEST(LinesRecords, BackgroundWriterKeepsOrderAndReportsErrors) {
  std::string expected;
  const std::string written = written_by([&](shufl::lines::fd_writer& out) {
    for (int i = 0; i < 400000; ++i) {
      const std::string piece = i % 100000 == 7 ? std::string(3u << 20, static_cast<char>('a' + i % 26))
                                                : std::to_string(i) + "\n";
      out.write(piece);
      expected += piece;
    }
  });
  EXPECT_TRUE(written == expected);
  if (::access("/dev/full", W_OK) == 0) {
    const int fd = ::open("/dev/full", O_WRONLY);
    shufl::lines::fd_writer out(fd, true);
    try {
      for (int i = 0; i < 1000000; ++i) out.write("0123456789\n");
      out.flush();
      ADD_FAILURE() << "no write error";
    } catch (const std::exception& e) {
      EXPECT_STREQ(e.what(), "write error: No space left on device");
    }
    ::close(fd);
  }
}

// The full shuffle's record finding and copying: delimiter_scanner (64 bytes at a time, memchr
// in the last 63 bytes) and fd_writer::write_record (one 16-byte load and store for a short
// record). Records of every length 1..48 fall across 64-byte blocks, 16-byte loads and the end
// of the input; written in reverse order, more than the writer's 1 MiB buffer holds, so the
// 16-byte copy also meets a nearly full buffer. Expected values come from std::string::find.
TEST(LinesRecords, ScannerAndWriteRecordKeepEveryRecordWhole) {
  for (const char delimiter : {'\n', '\0'}) {
    std::string data;
    std::uint32_t x = 12345;
    while (data.size() < (3u << 20) / 2) {
      x = x * 1103515245u + 12345u;
      const std::size_t length = (x >> 16) % 48;  // bytes before the delimiter
      data.append(length, static_cast<char>('a' + length % 26));
      data += delimiter;
    }
    std::vector<std::string> expected;
    for (std::size_t at = 0; at < data.size();) {
      const std::size_t stop = data.find(delimiter, at) + 1;
      expected.push_back(data.substr(at, stop - at));
      at = stop;
    }
    std::vector<std::string> scanned;
    std::vector<const char*> starts;
    const char* p = data.data();
    const char* const end = p + data.size();
    shufl::lines::delimiter_scanner scanner(p, end, delimiter);
    while (p != end) {
      const char* stop = scanner.next(p) + 1;
      scanned.emplace_back(p, stop);
      starts.push_back(p);
      p = stop;
    }
    ASSERT_EQ(scanned, expected);
    EXPECT_EQ(shufl::lines::count_records(data, delimiter), expected.size());

    std::string want;
    const std::string written = written_by([&](shufl::lines::fd_writer& out) {
      for (std::size_t i = starts.size(); i-- > 0;) {
        out.write_record(starts[i], end, delimiter);
        want += expected[i];
      }
    });
    EXPECT_TRUE(written == want) << "delimiter " << static_cast<int>(delimiter);
  }
  // Short inputs: shorter than one block, and one whose last record starts within 16 bytes of the end.
  for (const std::string& data : {std::string("a\n"), std::string("\n\n\n"), std::string(70, 'x') + "\n" + std::string(14, 'y') + "\n"}) {
    const char* p = data.data();
    shufl::lines::delimiter_scanner scanner(p, p + data.size(), '\n');
    std::string joined;
    std::size_t records = 0;
    while (p != data.data() + data.size()) {
      const char* stop = scanner.next(p) + 1;
      EXPECT_EQ(stop[-1], '\n');
      joined.append(p, stop);
      ++records;
      p = stop;
    }
    EXPECT_EQ(joined, data);
    EXPECT_EQ(records, shufl::lines::count_records(data, '\n'));
  }
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

namespace shufl::lines {
namespace {
// Found by fuzz_records (issue 12): appending nothing to an empty buffer passed a null pointer
// to memcpy (undefined behaviour under UBSan).
TEST(LinesRecordsFuzz, AppendNothingToEmptyBuffer) {
  byte_buffer b;
  b.append(std::string_view());
  EXPECT_EQ(b.size(), 0u);
  b.append("ab");
  b.append(std::string_view());
  EXPECT_EQ(b.view(), "ab");
}
}  // namespace
}  // namespace shufl::lines
