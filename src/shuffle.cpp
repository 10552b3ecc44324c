#include "shufl/shuffle.hpp"

#include <fmt/format.h>

#include <charconv>

#include "shufl/detail/algorithm_ops.hpp"
#include "shufl/error.hpp"

namespace shufl {

namespace {

template <class Algorithm>
constexpr algorithm_info make_info(std::string_view name, std::string_view definition) {
  algorithm_info info;
  info.name = name;
  info.definition = definition;
  info.run_scripted = &detail::algorithm_ops<Algorithm>::run_scripted;
  info.count_table = &detail::algorithm_ops<Algorithm>::count_table;
  info.run_traced = &detail::algorithm_ops<Algorithm>::run_traced;
  return info;
}

const algorithm_info kAlgorithms[] = {
    make_info<fisher_yates_algorithm>("fisher-yates",
                                      "i from n-1 down to 1: j uniform in [0, i]; swap a[i], a[j]"),
    make_info<naive_algorithm>("naive",
                               "i from 0 up to n-1: j uniform in [0, n-1]; swap a[i], a[j]"),
};

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
