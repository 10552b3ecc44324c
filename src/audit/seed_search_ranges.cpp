// Seed ranges of the seed search (see seed_search.hpp): A..B, time windows in a family's unit,
// and shards.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <vector>

#include "shufl/audit/seed_search.hpp"
#include "shufl/error.hpp"
#include "shufl/random.hpp"

namespace shufl::audit {

std::optional<std::int64_t> parse_utc_time(std::string_view t) noexcept {
  // YYYY-MM-DDTHH:MM:SSZ
  if (t.size() != 20 || t[4] != '-' || t[7] != '-' || (t[10] != 'T' && t[10] != 't') || t[13] != ':' ||
      t[16] != ':' || (t[19] != 'Z' && t[19] != 'z'))
    return std::nullopt;
  auto num = [&](std::size_t at, std::size_t len, int& v) {
    v = 0;
    for (std::size_t i = at; i < at + len; ++i) {
      if (t[i] < '0' || t[i] > '9') return false;
      v = v * 10 + (t[i] - '0');
    }
    return true;
  };
  int y, mo, d, h, mi, s;
  if (!num(0, 4, y) || !num(5, 2, mo) || !num(8, 2, d) || !num(11, 2, h) || !num(14, 2, mi) || !num(17, 2, s))
    return std::nullopt;
  if (y < 1970 || mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 59) return std::nullopt;
  static constexpr int days_in[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (d < 1 || d > days_in[mo - 1] + (mo == 2 && leap ? 1 : 0)) return std::nullopt;
  // Days since 1970-01-01 (proleptic Gregorian, counted from March 1 of year 0).
  const int yy = y - (mo <= 2 ? 1 : 0);
  const int era = yy / 400;
  const int yoe = yy - era * 400;
  const int doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const std::int64_t days = std::int64_t{era} * 146097 + doe - 719468;
  return days * 86400 + h * 3600 + mi * 60 + s;
}

namespace {

std::optional<std::uint64_t> parse_seed_number(std::string_view t) {
  std::uint64_t v = 0;
  if (t.size() > 2 && t[0] == '2' && t[1] == '^') {
    std::string_view rest = t.substr(2);
    bool minus_one = false;
    if (rest.size() > 2 && rest.substr(rest.size() - 2) == "-1") {
      minus_one = true;
      rest.remove_suffix(2);
    }
    unsigned k = 0;
    const auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), k);
    if (ec != std::errc() || p != rest.data() + rest.size() || k > 64 || (k == 64 && !minus_one)) return std::nullopt;
    v = k == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << k) - (minus_one ? 1 : 0);
    return v;
  }
  if (t.empty() || t[0] < '0' || t[0] > '9') return std::nullopt;
  const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || p != t.data() + t.size()) return std::nullopt;
  return v;
}

// A duration of uptime in milliseconds: digits with an optional unit ms (the default), s, m, h, d.
std::optional<std::uint64_t> parse_uptime(std::string_view t) {
  std::uint64_t scale = 1;
  for (const auto& [suffix, factor] : {std::pair<std::string_view, std::uint64_t>{"ms", 1}, {"s", 1000},
                                       {"m", 60'000}, {"h", 3'600'000}, {"d", 86'400'000}}) {
    if (t.size() > suffix.size() && t.ends_with(suffix)) {
      scale = factor;
      t.remove_suffix(suffix.size());
      break;
    }
  }
  std::uint64_t v = 0;
  const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || p != t.data() + t.size() || v > (std::uint64_t{1} << 40)) return std::nullopt;
  return v * scale;
}

}  // namespace

seed_range parse_seed_range(std::string_view text, const seed_family_info& family, std::string_view option) {
  seed_range r;
  if (family.family == seed_family::node_math_random) {
    if (!text.empty())
      throw error(fmt::format("{}: node-math-random has no seed range (its 128-bit state is recovered from the cards): "
                              "drop {}", option, option));
    return r;  // one "seed": the recovery
  }
  if (text.empty()) throw error(fmt::format("--seed-search needs {} RANGE (A..B or time:START..END)", option));
  r.text = std::string(text);
  std::string_view body = text;
  if (body.starts_with("time:")) {
    r.from_time = true;
    body.remove_prefix(5);
  }
  if (body.starts_with("uptime:")) {
    if (family.unit != time_unit::milliseconds_since_boot)
      throw error(fmt::format("invalid value '{}' for {}: uptime: ranges are for dotnet-random (Environment.TickCount); "
                              "{} is seeded with {}",
                              text, option, family.name,
                              family.unit == time_unit::unix_milliseconds ? "Unix milliseconds" : "a clock time or integer"));
    const auto dots = body.find("..");
    const auto a = dots == std::string_view::npos ? std::nullopt : parse_uptime(body.substr(7, dots - 7));
    const auto b = dots == std::string_view::npos ? std::nullopt : parse_uptime(body.substr(dots + 2));
    if (!a || !b)
      throw error(fmt::format("invalid value '{}' for {}: expected uptime:A..B, durations in ms (the default), s, m, h "
                              "or d (e.g. uptime:0..7d)",
                              text, option));
    if (*b < *a) throw error(fmt::format("invalid value '{}' for {}: the window ends before it starts", text, option));
    // TickCount is an int32 of milliseconds: from 2^31 ms (24.8 days) on it is negative and
    // Random takes its absolute value, so such a window covers every seed.
    r.from_time = true;
    r.first = *b > family.max_seed ? 0 : *a;
    r.last = std::min(*b, family.max_seed);
    return r;
  }
  const auto dots = body.find("..");
  if (dots == std::string_view::npos)
    throw error(fmt::format("invalid value '{}' for {}: expected A..B (e.g. 0..2^32-1) or "
                            "time:YYYY-MM-DDTHH:MM:SSZ..YYYY-MM-DDTHH:MM:SSZ",
                            text, option));
  const auto lo_text = body.substr(0, dots), hi_text = body.substr(dots + 2);
  if (r.from_time) {
    const auto t0 = parse_utc_time(lo_text), t1 = parse_utc_time(hi_text);
    if (!t0 || !t1)
      throw error(fmt::format("invalid value '{}' for {}: times are written YYYY-MM-DDTHH:MM:SSZ (UTC), e.g. "
                              "time:2026-12-01T00:00:00Z..2026-12-01T23:59:59Z",
                              text, option));
    if (*t1 < *t0) throw error(fmt::format("invalid value '{}' for {}: the window ends before it starts", text, option));
    const auto s0 = static_cast<std::uint64_t>(*t0), s1 = static_cast<std::uint64_t>(*t1);
    switch (family.unit) {
      case time_unit::unix_seconds:
        r.first = s0;
        r.last = s1;
        break;
      case time_unit::unix_milliseconds:
        r.first = s0 * 1000;
        r.last = s1 * 1000 + 999;
        break;
      case time_unit::milliseconds_since_boot:
        throw error(fmt::format("invalid value '{}' for {}: {} is seeded with milliseconds since boot "
                                "(Environment.TickCount), not a clock time: give uptime:A..B (e.g. uptime:0..7d)",
                                text, option, family.name));
      case time_unit::milliseconds_since_midnight:
        if (s1 - s0 >= 86400 || s0 % 86400 > s1 % 86400) {
          r.first = 0;
          r.last = 86'399'999;
        } else {
          r.first = (s0 % 86400) * 1000;
          r.last = (s1 % 86400) * 1000 + 999;
        }
        break;
    }
  } else {
    const auto a = parse_seed_number(lo_text), b = parse_seed_number(hi_text);
    if (!a || !b)
      throw error(fmt::format("invalid value '{}' for {}: seeds are whole numbers, 2^K or 2^K-1 (e.g. 0..2^32-1)", text,
                              option));
    if (*b < *a) throw error(fmt::format("invalid value '{}' for {}: the range ends before it starts", text, option));
    r.first = *a;
    r.last = *b;
  }
  if (r.last > family.max_seed)
    throw error(fmt::format("invalid value '{}' for {}: {} seeds go up to {} (larger ones give the same deals or "
                            "do not exist)",
                            text, option, family.name, family.max_seed));
  if (r.last - r.first >= max_search_seeds)
    throw error(fmt::format("invalid value '{}' for {}: {} seeds; one search covers at most 2^48", text, option,
                            static_cast<double>(r.last - r.first) + 1));
  return r;
}

std::optional<seed_range> shard_of(const seed_range& range, std::uint64_t shard, std::uint64_t shards) {
  if (shards == 0 || shard >= shards) throw error("--shard: shards are numbered 0 to N-1 (0 <= I < N)");
  const auto count = static_cast<uint128>(range.last - range.first) + 1;
  const auto b = static_cast<std::uint64_t>(count * shard / shards);
  const auto e = static_cast<std::uint64_t>(count * (shard + 1) / shards);
  if (b == e) return std::nullopt;
  seed_range r = range;
  r.first = range.first + b;
  r.last = range.first + e - 1;
  return r;
}

std::vector<std::uint32_t> parse_deck_order(std::string_view spec, std::size_t n) {
  constexpr std::string_view suits0 = "shdc", ranks0 = "A23456789TJQK";
  const auto bad = [&](std::string_view why) {
    return error(fmt::format("invalid value '{}' for --deck-order: {} (e.g. rank-major:cdhs or "
                             "suit-major:shdc:23456789TJQKA)",
                             spec, why));
  };
  std::string_view kind = spec, suits = suits0, ranks = ranks0;
  if (const auto c = spec.find(':'); c != std::string_view::npos) {
    kind = spec.substr(0, c);
    suits = spec.substr(c + 1);
    if (const auto c2 = suits.find(':'); c2 != std::string_view::npos) {
      ranks = suits.substr(c2 + 1);
      suits = suits.substr(0, c2);
    }
  }
  if (kind != "suit-major" && kind != "rank-major") throw bad("expected suit-major or rank-major");
  const auto permutation = [](std::string_view text, std::string_view of) {
    if (text.size() != of.size()) return false;
    for (const char ch : of)
      if (std::count(text.begin(), text.end(), ch) != 1) return false;
    return true;
  };
  if (!permutation(suits, suits0)) throw bad("the suits are the four letters s h d c, each once");
  if (!permutation(ranks, ranks0)) throw bad("the ranks are A 2 3 4 5 6 7 8 9 T J Q K, each once");
  if (n != 52) throw error(fmt::format("--deck-order: a suit or rank order needs the standard 52-card pack (this one has {})", n));
  std::vector<std::uint32_t> order;
  const auto card = [&](std::size_t s, std::size_t r) {
    return static_cast<std::uint32_t>(suits0.find(suits[s]) * 13 + ranks0.find(ranks[r]));
  };
  if (kind == "suit-major") {
    for (std::size_t s = 0; s < 4; ++s)
      for (std::size_t r = 0; r < 13; ++r) order.push_back(card(s, r));
  } else {
    for (std::size_t r = 0; r < 13; ++r)
      for (std::size_t s = 0; s < 4; ++s) order.push_back(card(s, r));
  }
  bool canonical = true;
  for (std::size_t i = 0; i < order.size(); ++i) canonical = canonical && order[i] == i;
  if (canonical) order.clear();
  return order;
}

}  // namespace shufl::audit
