// `--algo` lists (shuffle.hpp, parse_algorithm_list) and `trace --draws` (trace.hpp,
// parse_draw_list, run_trace with scripted draws). Input: "ALGO-LIST\nDRAWS\nN". Properties: each
// parsed algorithm's label parses back to itself; a traced run's result is a permutation of
// 0..n-1 and replaying its own draws gives the same result.
#include <algorithm>
#include <vector>

#include "fuzz_support.hpp"
#include "shufl/shuffle.hpp"
#include "shufl/trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace shufl;
  const std::string_view text = fuzz::bytes(data, size);
  const std::size_t nl = std::min(text.find('\n'), text.size());
  const std::string_view algo = text.substr(0, nl);
  const std::string_view rest = nl < text.size() ? text.substr(nl + 1) : std::string_view();
  const std::size_t nl2 = std::min(rest.find('\n'), rest.size());
  const std::string_view draws_text = rest.substr(0, nl2);
  const std::size_t n = nl2 < rest.size() && !rest.substr(nl2 + 1).empty()
                            ? static_cast<unsigned char>(rest[nl2 + 1]) % 12 : 5;

  std::vector<algorithm_spec> specs;
  try {
    specs = parse_algorithm_list(algo);
  } catch (const error&) {
    return 0;
  }
  fuzz::check(!specs.empty(), "a parsed list is not empty");
  for (const auto& s : specs) {
    const auto again = parse_algorithm_list(s.label());
    fuzz::check(again.size() == 1 && again[0].info == s.info && again[0].parameter == s.parameter,
                "a label parses back to itself");
  }
  std::vector<std::uint64_t> draws;
  try {
    draws = parse_draw_list(draws_text);
  } catch (const error&) {
    return 0;
  }
  trace_options o;
  o.algorithm = specs[0];
  o.n = n;
  o.draws = draws;
  try {
    const trace_result t = run_trace(o);
    std::vector<std::uint8_t> sorted = t.result;
    std::sort(sorted.begin(), sorted.end());
    fuzz::check(sorted.size() == n, "n items");
    for (std::size_t i = 0; i < n; ++i) fuzz::check(sorted[i] == i, "the result is a permutation");
    o.draws = t.values;
    fuzz::check(run_trace(o).result == t.result, "replaying the draws gives the same result");
  } catch (const error&) {
  }
  return 0;
}
