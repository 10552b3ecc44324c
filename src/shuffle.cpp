#include "shufl/shuffle.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <iterator>
#include <tuple>
#include <type_traits>
#include <utility>

#include "shufl/detail/algorithm_ops.hpp"
#include "shufl/shuffle/registered.hpp"
#include "shufl/error.hpp"

namespace shufl {

namespace {

// The registry's own part of each algorithm: its definition and parameters. The types come from
// registered_algorithms (shufl/shuffle/registered.hpp), in the same order, checked below.
struct entry {
  std::string_view name;
  std::string_view definition;
  std::uint64_t default_parameter = 0, min_parameter = 0, max_parameter = 0;
  bool weak_seed = false;
};

constexpr entry kEntries[] = {
    {"fisher-yates", "i from n-1 down to 1: j uniform in [0, i]; swap a[i], a[j]"},
    {"inside-out", "builds the shuffled copy while reading the input: i from 0 up to n-1: j uniform in [0, i]; b[i] = b[j]; b[j] = a[i]"},
    {"pencil-and-paper", "Fisher and Yates 1938: k uniform among the unstruck items; strike the k-th, write it at the end of the output"},
    {"two-array", "copy to a second array; repeatedly j uniform in [0, len-1]: output b[j], delete it from b"},
    {"naive", "i from 0 up to n-1: j uniform in [0, n-1]; swap a[i], a[j]"},
    {"sattolo", "i from n-1 down to 1: j uniform in [0, i-1]; swap a[i], a[j] (the off-by-one: only n-cycles)"},
    {"asf-poker", "i from 0 up to n-1: j uniform in [0, n-2]; swap a[i], a[j] (the 1999 online-poker flaw)"},
    {"sort-coin:insertion", "insertion sort, i from 1 to n-1, key=a[i]; while j>=0 and coin()==heads: a[j+1]=a[j], j-=1; a[j+1]=key"},
    {"sort-coin:merge", "top-down merge sort (split at n/2); each merge step takes the left head when a fair coin says so"},
    {"sort-coin:bubble", "bubble sort, pass i from 0 to n-2, j from 0 to n-2-i: swap a[j], a[j+1] when a fair coin says so"},
    {"sort-coin:selection", "selection sort, i from 0 to n-2: m = i; j from i+1 to n-1: m = j when a fair coin says so; swap a[i], a[m]"},
    {"random-keys", "random-keys:BITS: each item gets a key uniform in [0, 2^BITS-1]; stable sort by key (ties keep the input order)",
     16, 1, 63},
    {"modulo", "modulo:BITS: Fisher-Yates with j = r % (i+1), r uniform in [0, 2^BITS-1]", 8, 1, 63},
    {"transpositions", "transpositions:K: K times, x and y uniform in [0, n-1] (equal allowed); swap a[x], a[y]",
     10, 1, 1'000'000},
    {"riffle", "riffle:K: K Gilbert-Shannon-Reeds riffles (cut binomial(n, 1/2), drop from a pile with probability size/total)",
     7, 1, 1000},
    {"weak-seed", "Fisher-Yates on an engine seeded with 32 bits (at most 2^32 orders reachable)", 0, 0, 0, true},
};

template <class Algorithm>
constexpr algorithm_info make_info(const entry& e) {
  algorithm_info info;
  info.name = e.name;
  info.definition = e.definition;
  info.takes_parameter = e.max_parameter != 0;
  info.default_parameter = e.default_parameter;
  info.min_parameter = e.min_parameter;
  info.max_parameter = e.max_parameter;
  info.run_scripted = &detail::algorithm_ops<Algorithm>::run_scripted;
  info.run_traced = &detail::algorithm_ops<Algorithm>::run_traced;
  info.run_replay = &detail::algorithm_ops<Algorithm>::run_replay;
  info.fixed_bounds = Algorithm::fixed_bounds;
  info.weak_seed = e.weak_seed;
  return info;
}

template <std::size_t... I>
constexpr std::array<algorithm_info, sizeof...(I)> make_registry(std::index_sequence<I...>) {
  return {make_info<typename std::remove_cvref_t<decltype(std::get<I>(registered_algorithms))>::type>(kEntries[I])...};
}

constexpr bool entries_match_types() {
  if (std::size(kEntries) != registered_algorithm_count) return false;
  bool same = true;
  std::size_t i = 0;
  std::apply([&](const auto&... r) { ((same = same && r.name == kEntries[i++].name), ...); }, registered_algorithms);
  return same;
}
static_assert(entries_match_types(), "kEntries must list registered_algorithms' names in the same order");

constexpr std::array<algorithm_info, registered_algorithm_count> kAlgorithms =
    make_registry(std::make_index_sequence<registered_algorithm_count>{});

std::vector<std::string_view> algorithm_names() {
  std::vector<std::string_view> names;
  for (const auto& a : kAlgorithms) names.push_back(a.name);
  return names;
}

std::uint64_t parse_parameter(std::string_view text, const algorithm_info& info) {
  std::uint64_t value = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value, 10);
  if (text.empty() || ec != std::errc{} || ptr != end) {
    throw error(fmt::format("invalid parameter '{}' for algorithm '{}'", text, info.name));
  }
  if (value < info.min_parameter || value > info.max_parameter) {
    throw error(fmt::format("parameter {} for algorithm '{}' is outside [{}, {}]", value, info.name,
                            info.min_parameter, info.max_parameter));
  }
  return value;
}

}  // namespace

std::string algorithm_spec::label() const {
  if (info == nullptr) return "?";
  if (!info->takes_parameter) return std::string(info->name);
  return fmt::format("{}:{}", info->name, parameter);
}

std::span<const algorithm_info> algorithms() noexcept { return kAlgorithms; }

const algorithm_info& find_algorithm(std::string_view name) {
  for (const auto& a : kAlgorithms) {
    if (a.name == name) return a;
  }
  const auto names = algorithm_names();
  throw unknown_name_error("algorithm", name, names);
}

std::vector<algorithm_spec> parse_algorithm_list(std::string_view list) {
  std::vector<algorithm_spec> out;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const std::string_view item = list.substr(start, comma - start);
    start = comma + 1;
    if (item.empty()) throw error(fmt::format("empty algorithm name in '{}'", list));
    // Names may contain a colon themselves ("sort-coin:merge"): a whole-item match wins.
    if (const auto* whole = std::find_if(kAlgorithms.data(), kAlgorithms.data() + kAlgorithms.size(),
                                         [&](const auto& a) { return a.name == item; });
        whole != kAlgorithms.data() + kAlgorithms.size()) {
      out.push_back({whole, whole->default_parameter});
      continue;
    }
    const std::size_t colon = item.find(':');
    const auto& info = find_algorithm(item.substr(0, colon));
    if (colon == std::string_view::npos) {
      out.push_back({&info, info.default_parameter});
      continue;
    }
    if (!info.takes_parameter) {
      throw error(fmt::format("algorithm '{}' takes no parameter (got '{}')", info.name, item));
    }
    const std::string_view param = item.substr(colon + 1);
    if (const std::size_t dots = param.find(".."); dots != std::string_view::npos) {
      const std::uint64_t lo = parse_parameter(param.substr(0, dots), info);
      const std::uint64_t hi = parse_parameter(param.substr(dots + 2), info);
      if (hi < lo) throw error(fmt::format("empty parameter range '{}'", item));
      if (hi - lo >= 1000) throw error(fmt::format("parameter range '{}' is too long", item));
      for (std::uint64_t p = lo; p <= hi; ++p) out.push_back({&info, p});
    } else {
      out.push_back({&info, parse_parameter(param, info)});
    }
  }
  return out;
}

}  // namespace shufl
