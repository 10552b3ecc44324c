#include "shufl/shuffle.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <mutex>
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
  algorithm_info::form form = algorithm_info::form::count;
  std::string_view parameter_name = "K";
};

using form = algorithm_info::form;

// The passes of shelf:MxP and overhand:QxK: 1 to this.
constexpr std::uint64_t kMaxPasses = 1000;

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
     16, 1, 63, false, form::count, "BITS"},
    {"modulo", "modulo:BITS: Fisher-Yates with j = r % (i+1), r uniform in [0, 2^BITS-1]", 8, 1, 63, false,
     form::count, "BITS"},
    {"transpositions", "transpositions:K: K times, x and y uniform in [0, n-1] (equal allowed); swap a[x], a[y]",
     10, 1, 1'000'000},
    {"riffle", "riffle:K: K Gilbert-Shannon-Reeds riffles (cut binomial(n, 1/2), drop from a pile with probability size/total)",
     7, 1, 1000},
    {"thorp", "thorp:K: K Thorp shuffles: cut exactly in half (top half larger when n is odd); for each i a fair "
              "coin puts the i-th card of one half or the other first, the other's next; pairs stacked in order",
     1, 1, 1000},
    {"shelf", "shelf:M or shelf:MxP: P passes of the Diaconis-Fulman-Holmes casino shelf shuffler: cards fed from the bottom, "
              "each to a uniform one of M shelves, on top of or under its pile (1/2 each); piles stacked, shelf 1 on top",
     10, 1, 255, false, form::count_passes, "M"},
    {"overhand", "overhand:Q or overhand:QxK: K Pemantle overhands: each of the n-1 gaps a cut with probability Q; the packets "
                 "stacked in reverse order, each keeping its order",
     overhand_q_denominator / 2, 1, overhand_q_denominator, false, form::decimal_passes, "Q"},
    {"pile", "pile:K: deal round the table into K piles (each card on top of its pile), gather the piles in a "
             "uniformly random order",
     4, 1, 255},
    {"cut", "c uniform in [0, n-1]: the top c cards go under the rest (a rotation)"},
    {"sequence", "A+B+...: the parts (riffle, thorp, shelf, overhand, pile, cut) run in order on one deck, e.g. riffle:3+cut",
     0, 0, 0, false, form::sequence, ""},
    {"weak-seed", "Fisher-Yates on an engine seeded with 32 bits (at most 2^32 orders reachable)", 0, 0, 0, true},
};

template <class Algorithm>
constexpr algorithm_info make_info(const entry& e) {
  algorithm_info info;
  info.name = e.name;
  info.definition = e.definition;
  info.takes_parameter = e.max_parameter != 0;
  info.parameter_form = e.form;
  info.parameter_name = e.parameter_name;
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

std::uint64_t parse_number(std::string_view text, const algorithm_info& info, std::string_view what,
                           std::uint64_t lo, std::uint64_t hi) {
  std::uint64_t value = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value, 10);
  if (text.empty() || ec != std::errc{} || ptr != end) {
    throw error(fmt::format("invalid {} '{}' for algorithm '{}'", what, text, info.name));
  }
  if (value < lo || value > hi) {
    throw error(fmt::format("{} {} for algorithm '{}' is outside [{}, {}]", what, value, info.name, lo, hi));
  }
  return value;
}

std::uint64_t parse_parameter(std::string_view text, const algorithm_info& info) {
  return parse_number(text, info, "parameter", info.min_parameter, info.max_parameter);
}

// Q of overhand:Q as millionths: a decimal in (0, 1] with at most 6 digits after the point.
std::uint64_t parse_probability(std::string_view text, const algorithm_info& info) {
  const auto bad = [&](std::string_view why) {
    return error(fmt::format("invalid probability '{}' for algorithm '{}': {} (e.g. {}:0.5)", text, info.name, why,
                             info.name));
  };
  const std::size_t point = text.find('.');
  const std::string_view whole = text.substr(0, point);
  const std::string_view frac = point == std::string_view::npos ? std::string_view() : text.substr(point + 1);
  const auto digits = [](std::string_view t) { return std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; }); };
  if (text.empty() || !digits(whole) || !digits(frac) || (whole.empty() && frac.empty()) ||
      (point != std::string_view::npos && frac.empty())) {
    throw bad("expected a decimal such as 0.5");
  }
  if (frac.size() > 6) throw bad("at most 6 digits after the point");
  std::uint64_t value = 0;
  for (const char c : whole) {
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
    if (value > 1) throw bad("must be in (0, 1]");
  }
  value *= overhand_q_denominator;
  std::uint64_t scale = overhand_q_denominator;
  for (const char c : frac) {
    scale /= 10;
    value += static_cast<std::uint64_t>(c - '0') * scale;
  }
  if (value == 0 || value > overhand_q_denominator) throw bad("must be in (0, 1]");
  return value;
}

std::string decimal_text(std::uint64_t millionths) {
  std::string t = fmt::format("{}.{:06}", millionths / overhand_q_denominator, millionths % overhand_q_denominator);
  while (t.back() == '0') t.pop_back();
  if (t.back() == '.') t.pop_back();
  return t;
}

// The interned sequences: written only by intern_sequence (under the mutex, before the count
// that publishes them grows), then never changed.
constexpr std::size_t kMaxSequences = 256;
std::array<sequence_parts, kMaxSequences> g_sequences{};
std::atomic<std::size_t> g_sequence_count{0};
std::mutex g_sequence_mutex;

std::uint64_t intern_sequence(const sequence_parts& parts) {
  const std::lock_guard lock(g_sequence_mutex);
  const std::size_t count = g_sequence_count.load(std::memory_order_acquire);
  const auto same = [&](const sequence_parts& s) {
    if (s.count != parts.count) return false;
    for (std::size_t i = 0; i < s.count; ++i) {
      if (s.parts[i].algorithm != parts.parts[i].algorithm || s.parts[i].parameter != parts.parts[i].parameter) return false;
    }
    return true;
  };
  for (std::size_t i = 0; i < count; ++i) {
    if (same(g_sequences[i])) return i;
  }
  if (count == kMaxSequences) throw error(fmt::format("more than {} different sequences of algorithms", kMaxSequences));
  g_sequences[count] = parts;
  g_sequence_count.store(count + 1, std::memory_order_release);
  return count;
}

// One item of --algo without '+': its entries (a range gives several).
void parse_item(std::string_view item, std::vector<algorithm_spec>& out);

// A '+'-joined item: one sequence entry.
algorithm_spec parse_sequence(std::string_view item) {
  const algorithm_info& info = find_algorithm("sequence");
  sequence_parts parts;
  std::size_t start = 0;
  while (start <= item.size()) {
    const std::size_t plus = std::min(item.find('+', start), item.size());
    const std::string_view part = item.substr(start, plus - start);
    start = plus + 1;
    if (part.empty()) throw error(fmt::format("empty part in the sequence '{}'", item));
    std::vector<algorithm_spec> one;
    parse_item(part, one);
    if (one.size() != 1) throw error(fmt::format("a part of a sequence takes no parameter range (got '{}')", part));
    constexpr std::pair<std::string_view, composable> kParts[] = {
        {"riffle", composable::riffle}, {"thorp", composable::thorp}, {"shelf", composable::shelf}, {"overhand", composable::overhand},
        {"pile", composable::pile}, {"cut", composable::cut}};
    const auto* found = std::find_if(std::begin(kParts), std::end(kParts),
                                     [&](const auto& p) { return p.first == one[0].info->name; });
    if (found == std::end(kParts)) {
      throw error(fmt::format("'{}' cannot be part of a sequence (parts: riffle, thorp, shelf, overhand, pile, cut)", part));
    }
    if (parts.count == max_sequence_parts) {
      throw error(fmt::format("the sequence '{}' has more than {} parts", item, max_sequence_parts));
    }
    parts.parts[parts.count++] = {found->second, one[0].parameter};
  }
  return {&info, intern_sequence(parts)};
}

void parse_item(std::string_view item, std::vector<algorithm_spec>& out) {
  if (item.empty()) throw error("empty algorithm name");
  if (item.find('+') != std::string_view::npos) {
    out.push_back(parse_sequence(item));
    return;
  }
  // Names may contain a colon themselves ("sort-coin:merge"): a whole-item match wins.
  if (const auto* whole = std::find_if(kAlgorithms.data(), kAlgorithms.data() + kAlgorithms.size(),
                                       [&](const auto& a) { return a.name == item; });
      whole != kAlgorithms.data() + kAlgorithms.size()) {
    if (whole->parameter_form == form::sequence) {
      throw error("algorithm 'sequence' is written as its parts joined by '+', e.g. riffle:3+cut");
    }
    out.push_back({whole, whole->default_parameter});
    return;
  }
  const std::size_t colon = item.find(':');
  const auto& info = find_algorithm(item.substr(0, colon));
  if (colon == std::string_view::npos) {
    out.push_back({&info, info.default_parameter});
    return;
  }
  if (!info.takes_parameter) {
    throw error(fmt::format("algorithm '{}' takes no parameter (got '{}')", info.name, item));
  }
  const std::string_view param = item.substr(colon + 1);
  const auto range = [&](std::string_view text, const auto& parse_one, const auto& make) {
    if (const std::size_t dots = text.find(".."); dots != std::string_view::npos) {
      const std::uint64_t lo = parse_one(text.substr(0, dots));
      const std::uint64_t hi = parse_one(text.substr(dots + 2));
      if (hi < lo) throw error(fmt::format("empty parameter range '{}'", item));
      if (hi - lo >= 1000) throw error(fmt::format("parameter range '{}' is too long", item));
      for (std::uint64_t p = lo; p <= hi; ++p) out.push_back({&info, make(p)});
    } else {
      out.push_back({&info, make(parse_one(text))});
    }
  };
  if (info.parameter_form == form::count) {
    range(param, [&](std::string_view t) { return parse_parameter(t, info); }, [](std::uint64_t p) { return p; });
    return;
  }
  // BASExPASSES: a range only in the passes ("shelf:10x1..4").
  const std::size_t x = param.find('x');
  const std::string_view base_text = param.substr(0, x);
  const std::uint64_t base = info.parameter_form == form::decimal_passes ? parse_probability(base_text, info)
                                                                         : parse_parameter(base_text, info);
  // One pass is the base alone, as the default parameter is: every spelling of one pass
  // ("shelf", "shelf:10", "shelf:10x1") is the same parameter, so a label parses back to itself.
  const auto packed = [base](std::uint64_t passes) { return passes == 1 ? base : pack_passes(base, passes); };
  if (x == std::string_view::npos) {
    out.push_back({&info, packed(1)});
    return;
  }
  range(param.substr(x + 1),
        [&](std::string_view t) {
          return parse_number(t, info, info.parameter_form == form::decimal_passes ? "number of shuffles" : "number of passes",
                              1, kMaxPasses);
        },
        packed);
}

}  // namespace

const sequence_parts& sequence_at(std::uint64_t handle) noexcept {
  static const sequence_parts empty{};
  if (handle >= g_sequence_count.load(std::memory_order_acquire)) return empty;
  return g_sequences[handle];
}

std::string parameter_text(const algorithm_info& info, std::uint64_t parameter) {
  switch (info.parameter_form) {
    case form::count:
      return fmt::format("{}", parameter);
    case form::count_passes:
    case form::decimal_passes: {
      const std::uint64_t base = parameter_base(parameter);
      std::string text = info.parameter_form == form::count_passes ? fmt::format("{}", base) : decimal_text(base);
      if (parameter_passes(parameter) != 1) text += fmt::format("x{}", parameter_passes(parameter));
      return text;
    }
    case form::sequence: {
      const sequence_parts& s = sequence_at(parameter);
      std::vector<std::string> parts;
      for (std::size_t i = 0; i < s.count; ++i) {
        constexpr std::string_view kNames[] = {"riffle", "thorp", "shelf", "overhand", "pile", "cut"};
        const algorithm_info& part = find_algorithm(kNames[static_cast<std::size_t>(s.parts[i].algorithm)]);
        parts.push_back(part.takes_parameter ? fmt::format("{}:{}", part.name, parameter_text(part, s.parts[i].parameter))
                                             : std::string(part.name));
      }
      return fmt::format("{}", fmt::join(parts, "+"));
    }
  }
  return "?";
}

std::string algorithm_spec::label() const {
  if (info == nullptr) return "?";
  if (info->parameter_form == form::sequence) return parameter_text(*info, parameter);
  if (!info->takes_parameter) return std::string(info->name);
  return fmt::format("{}:{}", info->name, parameter_text(*info, parameter));
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
    parse_item(item, out);
  }
  return out;
}

}  // namespace shufl
