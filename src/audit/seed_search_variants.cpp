// --try-variants (see seed_search.hpp): every loop, draw, deck order and carry-over of a family,
// and the search of them in turn.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string>

#include "shufl/audit/seed_search.hpp"

namespace shufl::audit {

namespace {

std::vector<family_variant> loops_of(seed_family family, std::size_t n, std::size_t logged) {
  using L = shuffle_loop;
  using R = draw_reduction;
  switch (family) {
    case seed_family::cpp_mt19937:
    case seed_family::asf_poker:
    case seed_family::php_mt_rand_legacy: return {{}};
    case seed_family::c_rand:
    case seed_family::glibc_rand_r: {
      std::vector<family_variant> v;
      for (const auto r : {R::native, R::div})
        for (const auto l : {L::down, L::up, L::naive, L::inside_out}) v.push_back({l, r});
      return v;
    }
    case seed_family::go_math_rand:
      return {{L::down, R::native}, {L::down, R::mod}, {L::up, R::native}, {L::naive, R::native}, {L::inside_out, R::native}};
    case seed_family::python_random: {
      std::vector<family_variant> v{{L::down, R::native}, {L::up, R::native}, {L::naive, R::native}, {L::inside_out, R::native}};
      family_variant s{L::sample, R::native};
      s.sample_size = logged;
      v.push_back(s);
      // random.sample picks its method by k: the set method for small k against n, the pool otherwise.
      const auto pool = [n](std::size_t k) {
        std::size_t setsize = 21;
        if (k > 5) {
          std::size_t p = 1;
          while (p < 3 * k) p *= 4;
          setsize += p;
        }
        return n <= setsize;
      };
      if (logged < n && pool(logged) != pool(n)) {
        s.sample_size = n;
        v.push_back(s);
      }
      return v;
    }
    default: return {{L::down, R::native}, {L::up, R::native}, {L::naive, R::native}, {L::inside_out, R::native}};
  }
}

}  // namespace

std::vector<search_variant> family_variants(const seed_search_options& o, const std::string& fixed_order_name) {
  const seed_family family = o.family;
  const std::size_t n = o.n, deals = o.deals.size();
  std::size_t logged = 0;
  for (const auto& d : o.deals) logged = std::max(logged, d.size());
  std::vector<std::pair<std::vector<std::uint32_t>, std::string>> orders;
  if (!fixed_order_name.empty()) {
    orders.emplace_back(o.deck_order, fixed_order_name);
  } else {
    orders.emplace_back(std::vector<std::uint32_t>{}, std::string{});
    if (n == 52) {
      std::string suits = "cdhs";  // every permutation, in lexicographic order
      do {
        for (const std::string_view major : {"suit-major", "rank-major"})
          for (const std::string_view ranks : {"A23456789TJQK", "23456789TJQKA"}) {
            const std::string name = fmt::format("{}:{}:{}", major, suits, ranks);
            auto order = parse_deck_order(name, n);
            if (!order.empty()) orders.emplace_back(std::move(order), name);
          }
      } while (std::next_permutation(suits.begin(), suits.end()));
    }
  }
  const bool carry = o.reseed == reseed_mode::once && deals > 1;
  std::vector<search_variant> out;
  for (const bool carry_over : {false, true}) {
    if (carry_over && !carry) break;
    for (const auto& [order, name] : orders)
      for (auto v : loops_of(family, n, logged)) {
        if (carry_over && v.loop == shuffle_loop::sample) continue;
        v.carry_over = carry_over;
        out.push_back({v, order, name});
      }
  }
  return out;
}

variant_search_result search_variants(seed_search_options& o, const std::vector<search_variant>& variants) {
  variant_search_result r;
  r.variant = variants.size();
  for (std::size_t i = 0; i < variants.size() && (o.stop == nullptr || !o.stop->load()); ++i) {
    o.variant = variants[i].variant;
    o.deck_order = variants[i].deck_order;
    auto one = search_seeds(o);
    r.seeds_tried += one.seeds_tried;
    if (!one.matches.empty()) {
      r.variant = i;
      r.result = std::move(one);
      break;
    }
    if (i == 0) r.result = std::move(one);
  }
  r.result.seeds_tried = r.seeds_tried;
  if (r.variant == variants.size() && !variants.empty()) {
    o.variant = variants[0].variant;
    o.deck_order = variants[0].deck_order;
  }
  return r;
}

}  // namespace shufl::audit
