// `shufl bias --input` (bias.hpp, parse_permutations under text_input.hpp's convention), read
// both from memory and streaming from a file. Property: what is accepted is a list of
// permutations of 0..n-1 with n distinct labels, the same either way; anything else is
// shufl::error.
#include <algorithm>
#include <set>
#include <vector>

#include "fuzz_support.hpp"
#include "shufl/bias.hpp"
#include "shufl/text_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace shufl;
  const std::string_view text = fuzz::bytes(data, size);
  permutation_list list;
  bool ok = false;
  try {
    list = parse_permutations(text);
    ok = true;
  } catch (const error&) {
  }
  if (ok) {
    fuzz::check(list.n >= 2 && list.n <= bias_max_n, "2 <= n <= 255");
    fuzz::check(list.perms.size() % list.n == 0 && !list.perms.empty(), "whole permutations");
    fuzz::check(list.symbols.size() == list.n, "one label per item");
    fuzz::check(std::set<std::string>(list.symbols.begin(), list.symbols.end()).size() == list.n, "distinct labels");
    for (const auto& s : list.symbols) fuzz::check(is_valid_utf8(s) && !s.empty(), "labels are UTF-8");
    std::vector<bool> seen(list.n);
    for (std::size_t i = 0; i < list.perms.size(); i += list.n) {
      std::fill(seen.begin(), seen.end(), false);
      for (std::size_t k = 0; k < list.n; ++k) {
        const auto v = list.perms[i + k];
        fuzz::check(v < list.n && !seen[v], "each line is a permutation of 0..n-1");
        seen[v] = true;
      }
    }
  }
  // Streaming from a file gives the same answer.
  fuzz::memory_file file(text);
  try {
    text_reader reader = text_reader::open(file.path());
    const permutation_list streamed = parse_permutations(reader);
    fuzz::check(ok && streamed.perms == list.perms && streamed.symbols == list.symbols, "file = memory");
  } catch (const error&) {
    fuzz::check(!ok, "a file fails where memory fails");
  }
  return 0;
}
