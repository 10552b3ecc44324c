// Unit tests for shufl::gnu_random_source: GNU randint_genmax's byte consumption.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <string>

#include "shufl/error.hpp"
#include "shufl/random.hpp"
#include "support/run.hpp"

namespace {

struct source_file {
  shufl::test::temp_dir dir;
  int fd = -1;
  explicit source_file(const std::string& bytes) {
    fd = ::open(dir.write("src", bytes).c_str(), O_RDONLY);
  }
  ~source_file() { ::close(fd); }
};

TEST(GnuRandomSource, PowerOfTwoRangesUseBitsExactly) {
  source_file f(std::string("\xAB\xCD", 2));
  shufl::gnu_random_source s(f.fd, "'src'");
  EXPECT_EQ(s.draw_max(255), 0xABu);  // max == genmax: value returned, state reset
  EXPECT_EQ(s.draw_max(255), 0xCDu);
  EXPECT_EQ(s.bytes_used(), 2u);
  EXPECT_THROW(s.draw_max(1), shufl::error);
}

TEST(GnuRandomSource, KeepsLeftoverEntropy) {
  // Byte 200 for [0, 6]: max 255, excess 249, unusable 249 % 7 = 4, last usable 251;
  // 200 <= 251 -> 200 % 7 = 4, leftover value 200 / 7 = 28, max 249 / 7 = 35.
  source_file f(std::string(1, static_cast<char>(200)));
  shufl::gnu_random_source s(f.fd, "'src'");
  EXPECT_EQ(s.choose(7), 4u);
  // Next draw in [0, 6] uses the leftover (28 of 0..35): excess 29, unusable 1, last 34 -> 0.
  EXPECT_EQ(s.choose(7), 0u);
  EXPECT_EQ(s.bytes_used(), 1u);
}

TEST(GnuRandomSource, RejectsAndRetriesWithTheRemainder) {
  // 254 for [0, 2]: max 255, excess 253, unusable 253 % 3 = 1, last usable 254: accepted.
  // 255 would be rejected: value 255 % 3 = 0, max 0, so a new byte is appended.
  source_file f(std::string("\xFF\x05", 2));
  shufl::gnu_random_source s(f.fd, "'src'");
  // After rejection: value 0, max 0; one byte: value 5, max 255; 5 % 3 = 2.
  EXPECT_EQ(s.choose(3), 2u);
  EXPECT_EQ(s.bytes_used(), 2u);
}

TEST(GnuRandomSource, AllOnesIsRejectedForeverUnlessPowerOfTwo) {
  source_file f(std::string(64, '\xFF'));
  shufl::gnu_random_source s(f.fd, "'src'");
  try {
    s.choose(3);
    FAIL() << "expected end of file";
  } catch (const shufl::error& e) {
    EXPECT_STREQ(e.what(), "'src': end of file");
  }
}

TEST(GnuRandomSource, WideRangesWrapModulo2To64) {
  // genmax needs 8 bytes: big-endian accumulation.
  source_file f(std::string("\x01\x02\x03\x04\x05\x06\x07\x08", 8));
  shufl::gnu_random_source s(f.fd, "'src'");
  EXPECT_EQ(s.draw_max(UINT64_MAX), 0x0102030405060708u);
}

TEST(GnuRandomSource, ZeroBoundConsumesNothing) {
  source_file f("");
  shufl::gnu_random_source s(f.fd, "'src'");
  EXPECT_EQ(s.draw_max(0), 0u);
  EXPECT_EQ(s.bytes_used(), 0u);
}

}  // namespace
