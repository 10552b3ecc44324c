// CSV records for `shufl lines --csv` (lines/csv.hpp): the record scanner, which checks
// RFC 4180's quoting, and the field values of a record.
#include "shufl/lines/csv.hpp"

#include <cstring>
#include <fmt/format.h>

#include "shufl/error.hpp"

namespace shufl::lines {

void csv_scanner::fail(const char* what) const { throw error(fmt::format("line {}: {}", line_, what)); }

// A UTF-8 byte order mark at the start of the input leaves the first field at its start (the
// mark may come in pieces); bytes that begin one and then differ are data of an unquoted field.
const char* csv_scanner::skip_bom(const char* p, const char* end) noexcept {
  static constexpr unsigned char kBom[3] = {0xEF, 0xBB, 0xBF};
  for (; p != end && bom_ < 3; ++p, ++bom_) {
    if (static_cast<unsigned char>(*p) != kBom[bom_]) {
      if (bom_ > 0) state_ = state::unquoted;
      bom_ = 3;
      break;
    }
  }
  return p;
}

const char* csv_scanner::find_end(const char* p, const char* end) {
  if (p == end) return nullptr;
  any_ = true;
  if (bom_ < 3) [[unlikely]] {
    p = skip_bom(p, end);
    if (p == end) return nullptr;
  }
  if (state_ == state::field_start || state_ == state::unquoted) {
    // The common case: no quote before the next newline, so the record ends there.
    const auto* lf = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    const char* stop = lf ? lf : end;
    if (!std::memchr(p, '"', static_cast<std::size_t>(stop - p))) {
      if (lf) {
        state_ = state::field_start;
        any_ = false;
        record_line_ = ++line_;
        return lf;
      }
      state_ = end[-1] == delimiter_ ? state::field_start : state::unquoted;
      return nullptr;
    }
  }
  for (; p != end; ++p) {
    const char c = *p;
    switch (state_) {
      case state::field_start:
        if (c == '"') {
          state_ = state::quoted;
          quote_line_ = line_;
          break;
        }
        [[fallthrough]];
      case state::unquoted:
        if (c == '\n') goto record_end;
        if (c == delimiter_) {
          state_ = state::field_start;
        } else if (c == '"') {
          fail("a double quote inside an unquoted CSV field (RFC 4180: quote the whole field and double "
               "each quote in it)");
        } else {
          state_ = state::unquoted;
        }
        break;
      case state::quoted:
        if (c == '"') state_ = state::after_quote;
        else if (c == '\n') ++line_;
        break;
      case state::after_quote:
        if (c == '"') state_ = state::quoted;  // "" stands for one quote
        else if (c == delimiter_) state_ = state::field_start;
        else if (c == '\n') goto record_end;
        else if (c == '\r') state_ = state::after_quote_cr;
        else fail("text after the closing quote of a quoted CSV field");
        break;
      case state::after_quote_cr:
        if (c == '\n') goto record_end;
        fail("text after the closing quote of a quoted CSV field");
    }
  }
  return nullptr;
record_end:
  state_ = state::field_start;
  any_ = false;
  record_line_ = ++line_;
  return p;
}

void csv_scanner::finish() const {
  if (state_ == state::quoted) {
    throw error(fmt::format("line {}: a quoted CSV field opens here and the input ends inside it", quote_line_));
  }
  if (state_ == state::after_quote_cr) {
    throw error(fmt::format("line {}: text after the closing quote of a quoted CSV field", line_));
  }
}

std::vector<std::uint64_t> csv_record_starts(std::string_view data, char field_delimiter, std::uint64_t first_line) {
  csv_scanner scanner(field_delimiter, first_line);
  std::vector<std::uint64_t> starts;
  starts.reserve(data.size() / 32 + 2);
  starts.push_back(0);
  const char* const begin = data.data();
  const char* const end = begin + data.size();
  const char* p = begin;
  while (p != end) {
    const char* lf = scanner.find_end(p, end);
    if (!lf) break;
    p = lf + 1;
    starts.push_back(static_cast<std::uint64_t>(p - begin));
  }
  scanner.finish();
  if (p != end) starts.push_back(data.size());  // no final LF: the last record ends the data
  return starts;
}

namespace {

// Calls f(number, value) for each field of a CSV record body in order, values unquoted; stops
// when f returns false. Tolerates malformed bodies (text after a closing quote is kept, an open
// quote runs to the end), which the scanner has refused before. Only the fields numbered
// `wanted` or more are unquoted into `value` (the ones before get an empty value), so a huge
// field before the one asked for costs no copy.
template <class F>
void for_each_field(std::string_view body, char delimiter, std::string& value, F&& f, std::size_t wanted = 1) {
  // A byte order mark before a quoted first field (the scanner allows it at the input start).
  std::size_t i = body.starts_with("\xEF\xBB\xBF\"") && !csv_scanner::in_bom(delimiter) ? 3 : 0;
  const std::size_t n = body.size();
  for (std::size_t number = 1;; ++number) {
    value.clear();
    const bool keep = number >= wanted;
    if (i < n && body[i] == '"') {
      ++i;
      for (;;) {
        const std::size_t q = body.find('"', i);
        if (q == std::string_view::npos) {
          if (keep) value.append(body.substr(i));
          i = n;
          break;
        }
        if (keep) value.append(body.substr(i, q - i));
        i = q + 1;
        if (i < n && body[i] == '"') {
          if (keep) value += '"';
          ++i;
        } else {
          break;
        }
      }
    }
    const std::size_t stop = std::min(body.find(delimiter, i), n);
    if (keep) value.append(body.substr(i, stop - i));
    if (!f(number, static_cast<const std::string&>(value))) return;
    if (stop == n) return;
    i = stop + 1;
  }
}

}  // namespace

void csv_fields(std::string_view body, char field_delimiter, std::vector<std::string>& out) {
  out.clear();
  std::string value;
  for_each_field(body, field_delimiter, value, [&](std::size_t, const std::string& v) {
    out.push_back(v);
    return true;
  });
}

bool csv_field(std::string_view body, std::size_t number, char field_delimiter, std::string& out) {
  bool found = false;
  for_each_field(
      body, field_delimiter, out,
      [&](std::size_t i, const std::string&) {
        found = i == number;
        return i < number;
      },
      number);
  return found;
}

bool csv_key(std::string_view body, const field_list& fields, char field_delimiter, std::string& out) {
  out.clear();
  std::string value;
  std::size_t count = 0, r = 0;
  bool first = true;
  for_each_field(body, field_delimiter, value, [&](std::size_t number, const std::string& v) {
    count = number;
    while (r < fields.ranges.size() && fields.ranges[r].hi < number) ++r;
    if (r == fields.ranges.size()) return false;  // past the last range: the key is complete
    if (fields.ranges[r].lo <= number) {
      if (!first) out += field_delimiter;
      first = false;
      if (v.find(field_delimiter) == std::string::npos && v.find('"') == std::string::npos) {
        out += v;
      } else {
        out += '"';
        for (const char c : v) {
          if (c == '"') out += '"';
          out += c;
        }
        out += '"';
      }
    }
    return true;
  });
  return count >= fields.needed();
}

}  // namespace shufl::lines
