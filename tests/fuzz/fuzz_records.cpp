// The record splitter of `shufl lines` (lines/records.hpp): the first byte picks the delimiter,
// the rest is the input. Property: the records re-join to the input (plus the delimiter GNU adds
// to a last record without one), each ends with the delimiter and holds no other; reading from
// memory, from a file, with for_each and with delimiter_scanner give the same records;
// count_records agrees.
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "shufl/lines/records.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace shufl;
  if (size == 0) return 0;
  const char delimiter = static_cast<char>(data[0] % 3 == 0 ? '\n' : data[0] % 3 == 1 ? '\0' : data[0]);
  const std::string_view input = fuzz::bytes(data + 1, size - 1);
  std::string expected(input);
  if (!expected.empty() && expected.back() != delimiter) expected += delimiter;

  std::vector<std::string> from_memory;
  {
    lines::record_reader reader(input, delimiter);
    std::string_view record;
    while (reader.next(record)) {
      fuzz::check(!record.empty() && record.back() == delimiter, "a record ends with the delimiter");
      fuzz::check(record.find(delimiter) == record.size() - 1, "no delimiter inside a record");
      from_memory.emplace_back(record);
    }
  }
  std::string joined;
  for (const auto& r : from_memory) joined += r;
  fuzz::check(joined == expected, "records re-join to the input");
  fuzz::check(lines::count_records(expected, delimiter) == from_memory.size(), "count_records");

  {  // delimiter_scanner (the full shuffle's pass over the records) finds the same record ends
    std::vector<std::string> scanned;
    const char* p = expected.data();
    const char* const end = p + expected.size();
    lines::delimiter_scanner scanner(p, end, delimiter);
    while (p != end) {
      const char* stop = scanner.next(p) + 1;
      scanned.emplace_back(p, stop);
      p = stop;
    }
    fuzz::check(scanned == from_memory, "delimiter_scanner gives the same records");
  }

  std::vector<std::string> each;
  {
    lines::record_reader reader(input, delimiter);
    reader.for_each([&](std::string_view r) { each.emplace_back(r); });
  }
  fuzz::check(each == from_memory, "for_each gives the same records");

  fuzz::memory_file file(input);
  std::vector<std::string> from_file;
  {
    lines::record_reader reader(file.fd(), delimiter);
    std::string_view record;
    while (reader.next(record)) from_file.emplace_back(record);
  }
  fuzz::check(from_file == from_memory, "reading a file gives the same records");

  fuzz::memory_file again(input);
  lines::byte_buffer all = lines::read_all(again.fd());
  fuzz::check(all.view() == input, "read_all reads every byte");
  return 0;
}
