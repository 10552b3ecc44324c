// The CSV record reader of `shufl lines --csv` (lines/csv.hpp): csv_scanner over a whole buffer
// (csv_record_starts), over the lines of a record_reader (record_source's CSV kind) and over
// pieces of any size, and the field reads of each record. Byte 0 picks the field delimiter
// (',' ';' TAB '|') and the piece size (1..64), the rest is the input (a final newline added).
// Properties: malformed input is a shufl::error, the same one from every way of reading;
// otherwise every way finds the same records, which re-join to the input, each ending with
// LF; csv_field(i) is csv_fields' i-th value; a key of all fields (csv_key) reads back as those
// values. The input sits in an exact-size heap buffer (ASan sees a read past its end).
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "shufl/lines/csv.hpp"
#include "shufl/lines/modes.hpp"
#include "shufl/lines/records.hpp"

using namespace shufl;

namespace {

// The records found by `read`, or the error message it threw.
template <class Read>
std::vector<std::string> records_or_error(Read&& read, std::string& error_message) {
  std::vector<std::string> out;
  try {
    read(out);
  } catch (const shufl::error& e) {
    error_message = e.what();
    out.clear();
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const char delimiter = ",;\t|"[data[0] & 3];
  const std::size_t piece = 1 + (data[0] >> 2);
  std::string input(fuzz::bytes(data + 1, size - 1));
  if (!input.empty() && input.back() != '\n') input += '\n';
  const std::unique_ptr<char[]> heap(new char[input.size() + 1]);
  std::memcpy(heap.get(), input.data(), input.size());
  const std::string_view exact(heap.get(), input.size());

  std::string whole_error, lines_error, pieces_error;
  const auto whole = records_or_error(
      [&](std::vector<std::string>& out) {
        const auto starts = lines::csv_record_starts(exact, delimiter);
        fuzz::check(!starts.empty() && starts.front() == 0 && starts.back() == exact.size(), "starts span the data");
        for (std::size_t i = 0; i + 1 < starts.size(); ++i) {
          fuzz::check(starts[i] < starts[i + 1], "records are not empty");
          out.emplace_back(exact.substr(starts[i], starts[i + 1] - starts[i]));
        }
      },
      whole_error);
  const auto by_lines = records_or_error(
      [&](std::vector<std::string>& out) {
        lines::record_reader reader(exact, '\n');
        lines::csv_scanner scanner(delimiter);
        lines::record_source source(reader, scanner);
        std::string_view record;
        while (source.next(record)) out.emplace_back(record);
      },
      lines_error);
  const auto by_pieces = records_or_error(
      [&](std::vector<std::string>& out) {
        lines::csv_scanner scanner(delimiter);
        std::string current;
        for (std::size_t at = 0; at < exact.size(); at += piece) {
          const char* p = exact.data() + at;
          const char* const end = exact.data() + std::min(exact.size(), at + piece);
          while (p != end) {
            const char* lf = scanner.find_end(p, end);
            current.append(p, lf ? lf + 1 : end);
            if (!lf) break;
            out.push_back(std::move(current));
            current.clear();
            p = lf + 1;
          }
        }
        scanner.finish();
        fuzz::check(current.empty(), "nothing is left after the last record");
      },
      pieces_error);
  fuzz::check(whole_error == lines_error && whole_error == pieces_error, "every way of reading gives the same error");
  fuzz::check(whole == by_lines && whole == by_pieces, "every way of reading finds the same records");

  std::string joined;
  std::vector<std::string> values;
  std::string value, key;
  for (const auto& r : whole) {
    fuzz::check(!r.empty() && r.back() == '\n', "a record ends with LF");
    joined += r;
    const std::string_view body = lines::csv_body(r);
    lines::csv_fields(body, delimiter, values);
    fuzz::check(!values.empty(), "a record has a field");
    for (std::size_t i = 1; i <= values.size() + 1; ++i) {
      const bool found = lines::csv_field(body, i, delimiter, value);
      fuzz::check(found == (i <= values.size()) && (!found || value == values[i - 1]), "csv_field is csv_fields' value");
    }
    const lines::field_list all{{{1, SIZE_MAX}}};
    fuzz::check(lines::csv_key(body, all, delimiter, key), "every record has field 1");
    std::vector<std::string> back;
    lines::csv_fields(key, delimiter, back);
    fuzz::check(back == values, "a key reads back as its values");
  }
  fuzz::check(whole_error.empty() ? joined == input : true, "the records re-join to the input");
  return 0;
}
