// The weight reader of `shufl lines --weight-field` (lines/modes.hpp): the fast decimal parse,
// the word-at-a-time field reads and weighted_sampler::pass_records, which read the input bytes
// 8 or 64 at a time. Byte 0 picks the field (1..3), byte 1 the sample size K (1..8) and the seed,
// the rest is the input (a final newline added). Properties: weight_or_negative (fast path) is
// the same double as weight_or_negative_slow (std::from_chars) for every field of every record;
// the bulk pass (pass_records, then pass/offer where it stops, as the CLI does) keeps exactly
// the sample that pass/offer record by record keeps; for_each_window yields the records whole.
// The input sits in an exact-size heap buffer so a word read past its end is an ASan report.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "../support/weighted_reference.hpp"
#include "fuzz_support.hpp"
#include "shufl/lines/modes.hpp"
#include "shufl/lines/records.hpp"
#include "shufl/random.hpp"

using namespace shufl;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::size_t field = 1 + data[0] % 3;
  const std::uint64_t k = 1 + data[1] % 8;
  std::string input(fuzz::bytes(data + 2, size - 2));
  if (input.empty() || input.back() != '\n') input += '\n';
  const std::unique_ptr<char[]> heap(new char[input.size()]);
  std::memcpy(heap.get(), input.data(), input.size());
  const std::string_view exact(heap.get(), input.size());

  std::string_view rest = exact;
  while (!rest.empty()) {
    const std::string_view body = rest.substr(0, rest.find('\n'));
    for (std::size_t f = 1; f <= 3; ++f) {
      std::string_view text;
      if (!lines::find_field(body, f, '\t', text)) continue;
      const double fast = lines::weight_or_negative(text);
      const double slow = lines::weight_or_negative_slow(text);
      fuzz::check(std::memcmp(&fast, &slow, sizeof fast) == 0 || (fast < 0 && slow < 0),
                  "the fast weight parse is the same double as from_chars");
    }
    rest.remove_prefix(body.size() + 1);
  }

  const auto key = key_from_seed(std::string(1, static_cast<char>(data[1])));
  fuzz::check(test::weighted_sample_by(exact, field, k, key, true) == test::weighted_sample_by(exact, field, k, key, false),
              "bulk passing keeps the sample that record-by-record passing keeps");

  std::string joined;
  lines::record_reader reader(exact, '\n');
  reader.for_each_window([&](std::string_view w) {
    fuzz::check(!w.empty() && w.back() == '\n', "a window is whole records");
    joined += w;
  });
  fuzz::check(joined == input, "the windows re-join to the input");
  return 0;
}
