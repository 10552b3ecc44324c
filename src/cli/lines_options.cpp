// `shufl lines` option values and combinations: GNU's number rules (-n, -i, --header), --memory
// sizes, delimiters, probabilities, and which options go together (usage errors in GNU's
// style). The option table and the getopt loop are in lines_cmd.cpp.
#include <cerrno>
#include <charconv>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "common.hpp"
#include "lines_cmd.hpp"
#include "shufl/error.hpp"
#include "shufl/size.hpp"

namespace shufl::cli::lines {

namespace {

bool c_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

}  // namespace

// GNU xstrtoumax in base 10 with no suffixes: leading white space and '+' accepted, a '-' is
// invalid, digits required, nothing may follow; a too-large value is `overflow` unless garbage
// follows it (then `invalid`).
number_status parse_gnu_number(std::string_view text, std::uint64_t& value) {
  std::size_t i = 0;
  while (i < text.size() && c_space(text[i])) ++i;
  if (i < text.size() && text[i] == '-') return number_status::invalid;
  if (i < text.size() && text[i] == '+') ++i;
  const std::size_t digits_start = i;
  bool overflow = false;
  std::uint64_t v = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    const auto d = static_cast<std::uint64_t>(text[i] - '0');
    if (v > (UINT64_MAX - d) / 10) overflow = true;
    v = overflow ? UINT64_MAX : v * 10 + d;
    ++i;
  }
  if (i == digits_start || i != text.size()) return number_status::invalid;
  value = v;
  return overflow ? number_status::overflow : number_status::ok;
}

// GNU xdectoumax for -i: any failure is "invalid input range: ‘PART’", plus ": Value too large
// for defined data type" for a plain overflow.
std::uint64_t parse_range_part(std::string_view part) {
  std::uint64_t v = 0;
  switch (parse_gnu_number(part, v)) {
    case number_status::ok: return v;
    case number_status::overflow:
      throw error("invalid input range: " + quote(part) + ": " + std::strerror(EOVERFLOW));
    case number_status::invalid: break;
  }
  throw error("invalid input range: " + quote(part));
}

std::uint64_t parse_memory(std::string_view text) {
  const auto v = parse_size(text, physical_memory_bytes());
  if (!v) throw error("invalid memory size: " + quote(text) + "; expected " + std::string(size_forms));
  if (*v < min_memory) {
    throw error("--memory " + std::string(text) + " is too small: the smallest workable amount is " +
                std::to_string(min_memory >> 20) + "M");
  }
  return *v;
}

char parse_delimiter(std::string_view text) {
  if (text.size() == 1) return text[0];
  if (text.size() == 2 && text[0] == '\\') {
    switch (text[1]) {
      case '0': return '\0';
      case 't': return '\t';
      case 'n': return '\n';
      case 'r': return '\r';
      case 'v': return '\v';
      case 'f': return '\f';
      case '\\': return '\\';
      default: break;
    }
  }
  const auto hex = [](char c) {
    return (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
  };
  if (text.size() == 4 && text[0] == '\\' && text[1] == 'x' && hex(text[2]) >= 0 && hex(text[3]) >= 0) {
    return static_cast<char>(hex(text[2]) * 16 + hex(text[3]));
  }
  throw error("invalid delimiter: " + quote(text) + " (one byte, or \\0 \\t \\n \\r \\v \\f \\\\ \\xHH)");
}

double parse_probability(std::string_view text) {
  // A decimal (correctly rounded by from_chars, so the same double everywhere), 0 < P <= 1.
  double p = 0;
  const char* end = text.data() + text.size();
  const auto r = text.empty() || !((text[0] >= '0' && text[0] <= '9') || text[0] == '.')
                     ? std::from_chars_result{text.data(), std::errc::invalid_argument}
                     : std::from_chars(text.data(), end, p, std::chars_format::general);
  if (r.ec != std::errc() || r.ptr != end || !(p > 0 && p <= 1)) {
    throw error("invalid probability: " + quote(text) + " (a decimal number P, 0 < P <= 1)");
  }
  return p;
}

void check_modes(const options& o) {
  const auto combine = [](const char* a, const char* b) {
    throw usage_error(std::string("cannot combine ") + a + " and " + b + " options");
  };
  const auto needs = [](const char* a, const char* b) {
    throw usage_error(std::string("option ") + a + " needs " + b);
  };
  if (o.csv) {
    // CSV records come from FILE or standard input and end at a newline outside quotes.
    if (o.delimiter != '\n') combine(o.delimiter == '\0' ? "-z" : "--delimiter", "--csv");
    if (o.echo) combine("-e", "--csv");
    if (o.input_range) combine("-i", "--csv");
    if (o.fields_by() == '"' || o.fields_by() == '\n' || o.fields_by() == '\r') {
      throw usage_error("with --csv the field delimiter cannot be a double quote, CR or LF");
    }
  }
  if (o.names_fields() && o.header == 0) {
    throw usage_error(fmt::format("{} {}: field names are read from the first header {}: they need --header 1 "
                                  "(or more)", o.weight_field_name ? "--weight-field" : "--key-fields",
                                  quote(o.weight_field_name ? *o.weight_field_name : *o.key_field_names),
                                  o.csv ? "record" : "line"));
  }
  const bool any = o.keep_order || o.prob || !o.key_fields.ranges.empty() || (o.field_delimiter && !o.csv) ||
                   o.weight_field || o.with_replacement || o.skip_bad_weights;
  if (!any) return;
  // GNU's byte-compatible mode reproduces GNU shuf; the sampler modes do not exist there.
  if (o.random_source) {
    combine(o.keep_order ? "--keep-order" : o.prob ? "--prob" : !o.key_fields.ranges.empty() ? "--key-fields"
            : o.field_delimiter ? "--field-delimiter" : o.weight_field ? "--weight-field"
            : o.with_replacement ? "--with-replacement" : "--bad-weights", "--random-source");
  }
  if (o.repeat) {  // -r repeats forever, GNU's; -r -n K stays GNU's
    combine("-r", o.keep_order ? "--keep-order" : o.prob ? "--prob" : o.with_replacement ? "--with-replacement"
                  : o.weight_field ? "--weight-field" : !o.key_fields.ranges.empty() ? "--key-fields"
                  : o.field_delimiter ? "--field-delimiter" : "--bad-weights");
  }
  if (o.prob && o.weight_field) combine("--prob", "--weight-field");
  if (o.prob && o.with_replacement) combine("--prob", "--with-replacement");
  if (!o.key_fields.ranges.empty() && !o.prob) needs("--key-fields", "--prob P (distinct sampling)");
  if (o.field_delimiter && o.key_fields.ranges.empty() && !o.weight_field && !o.csv) {
    needs("--field-delimiter", "--key-fields or --weight-field");
  }
  if ((!o.key_fields.ranges.empty() || o.weight_field) && o.fields_by() == o.delimiter) {
    throw usage_error("the field delimiter cannot be the line delimiter");
  }
  if (o.skip_bad_weights && !o.weight_field) needs("--bad-weights", "--weight-field");
  if (o.with_replacement && (!o.head_given || o.head == UINT64_MAX)) {
    needs("--with-replacement", "-n COUNT (-r repeats without end)");
  }
  if (o.keep_order && !o.head_given && !o.prob) needs("--keep-order", "-n COUNT");
}

}  // namespace shufl::cli::lines
