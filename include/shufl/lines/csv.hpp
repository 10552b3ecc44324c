// CSV records for `shufl lines --csv` (RFC 4180): a record ends at a newline that is not inside
// a quoted field; a field may be quoted with '"', a doubled "" inside stands for one quote, and
// a quoted field may hold the field delimiter, CR and LF. Records keep their bytes verbatim
// (quotes, CRLF line ends and all): only the boundaries and the field values are read here.
// Malformed input (a quote inside an unquoted field, text after a closing quote, a quoted field
// still open at the end of the input) is an error naming the line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "shufl/lines/modes.hpp"

namespace shufl::lines {

/// Finds where CSV records end in bytes given piece by piece (a whole buffer, the blocks of a
/// read, or the newline-ended lines of a record_reader), checking RFC 4180's quoting as it
/// goes. The state carries over between calls, so a record may span pieces.
///
/// Lenient where RFC 4180 is silent: a bare CR is data; empty lines are records (of one empty
/// field); a record's fields may be of any number; a UTF-8 byte order mark (EF BB BF) at the
/// start of the input (line 1, before any byte scanned) is not part of the first field, so
/// that field may be quoted (as Excel's "CSV UTF-8" writes a quoted first name).
class csv_scanner {
 public:
  /// `field_delimiter` separates fields (not '"', CR or LF); `first_line` is the input line
  /// number of the first byte scanned (for messages); 1 means the start of the input, where a
  /// byte order mark may come first.
  explicit csv_scanner(char field_delimiter, std::uint64_t first_line = 1) noexcept
      : delimiter_(field_delimiter), bom_(first_line == 1 && !in_bom(field_delimiter) ? 0 : 3), line_(first_line),
        record_line_(first_line) {}

  /// Scans [p, end), continuing the record in progress: returns the LF that ends it, or nullptr
  /// when the record goes on past `end`. The next call starts just past the returned LF.
  /// Throws shufl::error "line L: ..." for malformed CSV.
  const char* find_end(const char* p, const char* end);

  /// At the end of the input: throws shufl::error when a quoted field is still open
  /// ("line L: a quoted CSV field opens here and the input ends inside it").
  void finish() const;

  /// Whether `c` is a byte of the UTF-8 byte order mark EF BB BF (such a field delimiter
  /// leaves the mark unread: its bytes are then delimiters or data).
  static constexpr bool in_bom(char c) noexcept {
    const auto u = static_cast<unsigned char>(c);
    return u == 0xEF || u == 0xBB || u == 0xBF;
  }

  /// Whether the bytes scanned since the last record end are all of a record (nothing pending).
  bool at_record_start() const noexcept { return !any_; }
  /// The input line on which the record in progress (or the next one) starts.
  std::uint64_t record_line() const noexcept { return record_line_; }

 private:
  enum class state : unsigned char { field_start, unquoted, quoted, after_quote, after_quote_cr };
  [[noreturn]] void fail(const char* what) const;
  const char* skip_bom(const char* p, const char* end) noexcept;
  char delimiter_;
  unsigned char bom_;              // bytes of a byte order mark matched at the input start; 3: done
  state state_ = state::field_start;
  bool any_ = false;               // some byte of the record in progress was scanned
  std::uint64_t line_;             // the line of the next byte
  std::uint64_t record_line_;      // the line where the record in progress started
  std::uint64_t quote_line_ = 0;   // the line where the open quoted field started
};

/// The byte offsets where the CSV records of `data` start, plus data.size() at the end
/// (n + 1 entries for n records). `data` must be empty or end with LF (input_data does that).
/// Throws as csv_scanner.
std::vector<std::uint64_t> csv_record_starts(std::string_view data, char field_delimiter,
                                             std::uint64_t first_line = 1);

/// The body of a CSV record for field reading: without its LF and a CR just before it.
inline std::string_view csv_body(std::string_view record) noexcept {
  if (!record.empty() && record.back() == '\n') record.remove_suffix(1);
  if (!record.empty() && record.back() == '\r') record.remove_suffix(1);
  return record;
}

/// Splits the body of a well-formed CSV record (csv_body; checked by csv_scanner) into its
/// field values, quotes removed and "" made one quote, appending them to `out` (cleared first).
/// A byte order mark before a quoted first field (the input's first record) is not part of it.
void csv_fields(std::string_view body, char field_delimiter, std::vector<std::string>& out);

/// The value of field `number` (1-based) of a well-formed CSV record body, unquoted, in `out`;
/// false when the record has fewer fields.
bool csv_field(std::string_view body, std::size_t number, char field_delimiter, std::string& out);

/// The key of --key-fields for a CSV record: the values of the fields in `fields` (in field
/// order) joined by the field delimiter, each written as the shortest CSV spelling of its value
/// (quoted, with "" for a quote, only when it holds the delimiter or a quote). So the key does
/// not depend on how the input quoted a value ("NY" and NY are one key), is the plain joined
/// text when no value needs quotes (the key of the same line without --csv), and tells values
/// apart unambiguously. False when the record has fewer than fields.needed() fields.
bool csv_key(std::string_view body, const field_list& fields, char field_delimiter, std::string& out);

}  // namespace shufl::lines
