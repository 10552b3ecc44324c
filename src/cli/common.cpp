#include "common.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdint>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <new>
#include <stdexcept>

#include "shufl/error.hpp"
#include "shufl/quote.hpp"

namespace shufl::cli {

std::string exception_message(std::exception_ptr e) noexcept {
  try {
    try {
      std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
      return "memory exhausted";
    } catch (const std::length_error&) {
      return "memory exhausted";
    } catch (const nlohmann::json::type_error& x) {
      // 316: a string that is not UTF-8 reached a JSON writer (every writer goes through
      // json_text, so this is a bug, told in words).
      return x.id == 316 ? "internal error: text that is not valid UTF-8 reached the JSON output"
                         : "internal error while building JSON output";
    } catch (const nlohmann::json::parse_error&) {
      return "internal error: shufl produced JSON it cannot read back";
    } catch (const nlohmann::json::exception&) {
      return "internal error in the JSON library";
    } catch (const std::exception& x) {
      return x.what();
    } catch (...) {
      return "unknown error";
    }
  } catch (...) {
    return "memory exhausted";  // the message itself could not be made
  }
}

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

std::uint64_t parse_count(std::string_view option, std::string_view text) {
  const std::size_t e = text.find_first_of("eE");
  if (e == std::string_view::npos) return parse_uint(option, text);
  const auto invalid = [&]() {
    return error(fmt::format("invalid value '{}' for {}: expected a non-negative integer such as 60000 or 6e4",
                             text, option));
  };
  // MANTISSA = DIGITS [. DIGITS], EXPONENT = [+] DIGITS.
  std::string_view mantissa = text.substr(0, e);
  std::string_view exponent_text = text.substr(e + 1);
  if (!exponent_text.empty() && exponent_text.front() == '+') exponent_text.remove_prefix(1);
  const auto all_digits = [](std::string_view s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
  };
  const std::size_t dot = mantissa.find('.');
  std::string digits(mantissa.substr(0, dot));
  std::string fraction(dot == std::string_view::npos ? std::string_view() : mantissa.substr(dot + 1));
  if (!all_digits(digits) || (!fraction.empty() && !all_digits(fraction)) || !all_digits(exponent_text)) {
    throw invalid();
  }
  if (exponent_text.size() > 4) throw error(fmt::format("invalid value '{}' for {}: too large", text, option));
  std::int64_t exponent = 0;
  for (const char c : exponent_text) exponent = exponent * 10 + (c - '0');
  // value = DIGITS FRACTION × 10^(exponent − |FRACTION|); trailing zeros of the fraction carry nothing.
  while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  exponent -= static_cast<std::int64_t>(fraction.size());
  digits += fraction;
  if (exponent < 0) {
    throw error(fmt::format("invalid value '{}' for {}: not a whole number", text, option));
  }
  const auto too_large = [&]() { return error(fmt::format("invalid value '{}' for {}: too large", text, option)); };
  std::uint64_t value = 0;
  for (const char c : digits) {
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (value > (UINT64_MAX - d) / 10) throw too_large();
    value = value * 10 + d;
  }
  for (std::int64_t k = 0; k < exponent && value != 0; ++k) {
    if (value > UINT64_MAX / 10) throw too_large();
    value *= 10;
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
  return parse_choice(option, value, std::span<const std::string_view>(choices.begin(), choices.size()));
}

std::size_t parse_choice(std::string_view option, std::string_view value, std::span<const std::string_view> choices) {
  std::string expected;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (choices[i] == value) return i;
    if (i > 0) expected += i + 1 == choices.size() ? " or " : ", ";
    expected += choices[i];
  }
  throw error(fmt::format("invalid value '{}' for {}: expected {}", value, option, expected));
}

void write_stdout(std::string_view data) {
  if (data.empty()) return;
  if (std::fwrite(data.data(), 1, data.size(), stdout) != data.size()) {
    throw error(fmt::format("write error: {}", std::strerror(errno)));
  }
}

int side_file_errors::finish(int status) const {
  for (const auto& m : messages()) std::fprintf(stderr, "shufl: %s\n", escape_controls(m).c_str());
  return messages().empty() ? status : exit_error;
}

void finish_stdout() {
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    const int e = errno;
    throw error(fmt::format("write error{}{}", e ? ": " : "", e ? std::strerror(e) : ""));
  }
}

std::pair<std::uint64_t, std::uint64_t> parse_shard(const std::string& text, std::uint64_t max_shards) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) throw error(fmt::format("--shard: expected I/N (shard I of N, 0 <= I < N), got '{}'", text));
  const auto i = parse_uint("--shard", text.substr(0, slash));
  const auto n = parse_uint("--shard", text.substr(slash + 1));
  if (n == 0 || i >= n) throw error(fmt::format("--shard {}: shards are numbered 0 to N-1 (0 <= I < N)", text));
  if (max_shards != 0 && n > max_shards) throw error(fmt::format("--shard {}: at most 2^32 shards", text));
  return {i, n};
}

}  // namespace shufl::cli
