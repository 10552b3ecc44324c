// Sizes and numbers: shufl::parse_size (--memory, size.hpp), lines' parse_memory and
// parse_delimiter, the CLI's parse_uint / parse_double / parse_choice (src/cli/common.cpp).
// Properties: a size of plain digits is its decimal value (saturated); a suffixed size is that
// value times its power of 1024 (saturated); parse_uint accepts exactly the decimal strings that
// fit 64 bits and prints back to them without leading zeros; the escaping of every output
// format leaves no control character where it would act, and no CSV formula.
#include <charconv>
#include <string>

#include "common.hpp"
#include "fuzz_support.hpp"
#include "lines_cmd.hpp"
#include "render/text_escape.hpp"
#include "shufl/size.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace shufl;
  const std::string_view text = fuzz::bytes(data, size);
  const auto v = parse_size(text, std::uint64_t{1} << 33);
  const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
  if (digits) {
    std::uint64_t expected = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), expected);
    if (ec == std::errc::result_out_of_range) expected = UINT64_MAX;
    fuzz::check(v && *v == expected, "digits are bytes");
  }
  if (v && !digits) {
    const char suffix = text.back();
    const std::string_view number = text.substr(0, text.size() - 1);
    fuzz::check(!number.empty() && number.find_first_not_of("0123456789") == std::string_view::npos,
                "one suffix after digits");
    fuzz::check(std::string_view("bkKmMgGtTPEZYRQ%").find(suffix) != std::string_view::npos, "a sort -S suffix");
  }
  try {
    const std::uint64_t m = cli::lines::parse_memory(text);
    const auto same = parse_size(text, physical_memory_bytes());
    fuzz::check(same && *same == m && m >= cli::lines::min_memory, "parse_memory is parse_size");
  } catch (const error&) {
  }
  try {
    (void)cli::lines::parse_delimiter(text);
  } catch (const error&) {
  }
  try {
    const std::uint64_t u = cli::parse_uint("--n", text);
    fuzz::check(digits, "parse_uint takes digits only");
    const std::string_view trimmed = text.substr(std::min(text.find_first_not_of('0'), text.size() - 1));
    fuzz::check(std::to_string(u) == trimmed, "parse_uint reads the decimal value");
  } catch (const error&) {
  }
  try {
    (void)cli::parse_double("--alpha", text);
  } catch (const error&) {
  }
  try {
    (void)cli::parse_choice("--format", text, {"text", "json", "csv"});
  } catch (const error&) {
  }
  (void)cli::lines::quote(text);
  (void)cli::lines::quotef(text);
  // The escaping of each output format (text_escape.hpp): no control character survives where a
  // terminal or an XML parser would act on it; a CSV cell is one RFC 4180 field, never a formula.
  const auto controls = [](std::string_view out, std::string_view allowed) {
    for (const char c : out) {
      const auto b = static_cast<unsigned char>(c);
      if ((b < 0x20 || b == 0x7f) && allowed.find(c) == std::string_view::npos) return true;
    }
    return false;
  };
  fuzz::check(!controls(cli::escape_controls(text), ""), "escape_controls leaves no control byte");
  fuzz::check(!controls(cli::shown(text), ""), "shown leaves no control byte");
  fuzz::check(!controls(cli::xml_escape(text), "\t\n\r"), "xml_escape leaves only tab, LF, CR");
  const std::string cell = cli::csv_field(text);
  std::string content = cell;  // the field's value as a CSV reader sees it
  if (!cell.empty() && cell.front() == '"') {
    fuzz::check(cell.size() >= 2 && cell.back() == '"', "a quoted cell ends with its quote");
    content.clear();
    for (std::size_t i = 1; i + 1 < cell.size(); ++i) {
      content += cell[i];
      if (cell[i] == '"') {
        fuzz::check(cell[i + 1] == '"', "quotes inside a cell are doubled");
        ++i;
      }
    }
  } else {
    fuzz::check(cell.find_first_of(",\"\r\n") == std::string::npos, "an unquoted cell is plain");
  }
  fuzz::check(content.empty() || std::string_view("=+-@\t\r").find(content.front()) == std::string_view::npos,
              "a CSV cell never starts a formula");
  return 0;
}
