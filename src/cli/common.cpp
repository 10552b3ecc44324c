#include "common.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>

#include "shufl/error.hpp"

namespace shufl::cli {

std::uint64_t parse_uint(std::string_view option, std::string_view text) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value, 10);
  if (text.empty() || ec == std::errc::invalid_argument || ptr != end) {
    throw error(fmt::format("invalid value '{}' for {}: expected a non-negative decimal integer",
                            text, option));
  }
  if (ec == std::errc::result_out_of_range) {
    throw error(fmt::format("invalid value '{}' for {}: too large", text, option));
  }
  return value;
}

double parse_double(std::string_view option, std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc{} || ptr != end) {
    throw error(fmt::format("invalid value '{}' for {}: expected a decimal number", text, option));
  }
  return value;
}

const std::string& check_seed(const std::string& seed) {
  if (seed.empty()) {
    throw error(
        "empty --seed: probably an unset shell variable (as in --seed \"$SEED\"); give a non-empty "
        "string, or omit --seed for a run seeded by the operating system");
  }
  return seed;
}

std::size_t parse_choice(std::string_view option, std::string_view value,
                         std::initializer_list<std::string_view> choices) {
  std::size_t i = 0;
  std::string expected;
  for (const auto choice : choices) {
    if (choice == value) return i;
    if (i > 0) expected += i + 1 == choices.size() ? " or " : ", ";
    expected += choice;
    ++i;
  }
  throw error(fmt::format("invalid value '{}' for {}: expected {}", value, option, expected));
}

void write_stdout(std::string_view data) {
  if (data.empty()) return;
  if (std::fwrite(data.data(), 1, data.size(), stdout) != data.size()) {
    throw error(fmt::format("write error: {}", std::strerror(errno)));
  }
}

void finish_stdout() {
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    const int e = errno;
    throw error(fmt::format("write error{}{}", e ? ": " : "", e ? std::strerror(e) : ""));
  }
}

}  // namespace shufl::cli
