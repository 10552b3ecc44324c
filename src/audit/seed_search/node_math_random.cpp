// node-math-random (see seed_search.hpp): V8's Math.random state recovered from logged cards by
// linear algebra over GF(2), and the deals a state makes.
//
// Every bit of state0 after m xorshift128+ steps is a linear form (XOR of a subset) of the 128
// bits of the starting state, since the step only shifts and XORs. A logged card that is final
// when drawn gives j = floor(u·k) for one Math.random() value u, and u's leading bits are
// state0's leading bits under both ToDouble rules; every u of [j/k, (j+1)/k) shares the common
// leading bits of the interval's ends, so each draw gives that many exact equations. The cache of
// 64 is served from its end, so draw t of a shuffle that starts `offset` values into a block is
// state number 64·b + 64 − ((offset + t) mod 64), b = ⌊(offset + t)/64⌋, counted from that block's
// start: one linear system per offset.
#include "node_math_random.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <optional>
#include <utility>
#include <vector>

#include "shufl/error.hpp"

namespace shufl::audit {

namespace {

using seeds::node_math_random;

// A linear form over the state's 128 bits: bit i of `a` is state0's bit i, of `b` state1's.
struct form {
  std::uint64_t a = 0, b = 0;
  form& operator^=(const form& o) noexcept {
    a ^= o.a;
    b ^= o.b;
    return *this;
  }
  [[nodiscard]] bool zero() const noexcept { return a == 0 && b == 0; }
  [[nodiscard]] int top() const noexcept {  // highest set bit, 0..127 (b above a)
    return b != 0 ? 127 - std::countl_zero(b) : 63 - std::countl_zero(a);
  }
  [[nodiscard]] bool bit(int i) const noexcept { return i >= 64 ? ((b >> (i - 64)) & 1) != 0 : ((a >> i) & 1) != 0; }
};
using word = std::array<form, 64>;

// state0 after each step m = 1..steps, as forms of the starting state.
std::vector<word> symbolic_outputs(std::size_t steps) {
  word s0{}, s1{};
  for (int i = 0; i < 64; ++i) {
    s0[i].a = std::uint64_t{1} << i;
    s1[i].b = std::uint64_t{1} << i;
  }
  std::vector<word> out(steps + 1);
  for (std::size_t m = 1; m <= steps; ++m) {
    const word x = s0, y = s1;  // s1 := old state0, s0 := old state1
    word t = x;
    for (int i = 63; i >= 23; --i) t[i] ^= x[i - 23];  // s1 ^= s1 << 23
    const word t1 = t;
    for (int i = 0; i + 17 < 64; ++i) t[i] ^= t1[i + 17];  // s1 ^= s1 >> 17
    for (int i = 0; i < 64; ++i) {
      t[i] ^= y[i];                    // s1 ^= s0
      if (i + 26 < 64) t[i] ^= y[i + 26];  // s1 ^= s0 >> 26
    }
    s0 = y;
    s1 = t;
    out[m] = s0;
  }
  return out;
}

// One revealed draw: Math.floor(Math.random() * k) = j at draw t of the log.
struct observation {
  std::size_t draw;
  std::uint32_t k, j;
};

// The draws the logged cards reveal (cards in list indices, dealt order). false: no shuffle of
// this loop deals them (a card drawn from a position already passed).
bool observe(const std::vector<std::vector<std::uint32_t>>& deals, std::size_t n, shuffle_loop loop,
             std::vector<observation>& out) {
  std::vector<std::uint32_t> at(n), pos(n);
  std::vector<std::int64_t> known(n);
  for (std::size_t d = 0; d < deals.size(); ++d) {
    const std::size_t start = d * (n - 1);
    for (std::size_t i = 0; i < n; ++i) at[i] = pos[i] = static_cast<std::uint32_t>(i);
    std::fill(known.begin(), known.end(), -1);
    const auto& deal = deals[d];
    for (std::size_t q = 0; q < deal.size(); ++q) known[loop == shuffle_loop::pop ? n - 1 - q : q] = deal[q];
    if (deal.size() == n - 1) {  // the last card is the one left
      std::vector<bool> seen(n);
      for (const auto c : deal) seen[c] = true;
      const auto last = static_cast<std::uint32_t>(std::find(seen.begin(), seen.end(), false) - seen.begin());
      known[loop == shuffle_loop::pop ? 0 : n - 1] = last;
    }
    auto swap_at = [&](std::size_t i, std::size_t p) {
      std::swap(at[i], at[p]);
      pos[at[i]] = static_cast<std::uint32_t>(i);
      pos[at[p]] = static_cast<std::uint32_t>(p);
    };
    if (loop == shuffle_loop::up) {
      for (std::size_t i = 0; i + 1 < n && known[i] >= 0; ++i) {
        const std::size_t p = pos[static_cast<std::size_t>(known[i])];
        if (p < i) return false;
        out.push_back({start + i, static_cast<std::uint32_t>(n - i), static_cast<std::uint32_t>(p - i)});
        swap_at(i, p);
      }
    } else {
      for (std::size_t i = n - 1; i >= 1 && known[i] >= 0; --i) {
        const std::size_t p = pos[static_cast<std::size_t>(known[i])];
        if (p > i) return false;
        out.push_back({start + (n - 1 - i), static_cast<std::uint32_t>(i + 1), static_cast<std::uint32_t>(p)});
        swap_at(i, p);
      }
    }
  }
  return true;
}

// deck.sort(() => Math.random() - 0.5) as V8 sorts fewer than 64 elements (one run, then binary
// insertion; checked against Node 20's own sort with Math.random replaced): each comparison takes
// one value u and its sign, u < 0.5, is state0's top bit. The final order tells every comparison's
// outcome, given where the first run ends: one way of dealing per run length that replays to the
// final order. `bits` holds the top bits in draw order (1: order >= 0).
template <class Compare>
void v8_small_sort(std::vector<std::uint32_t>& a, Compare&& less_than_zero) {
  const std::size_t n = a.size();
  if (n < 2) return;
  std::size_t run = 2;
  const bool descending = less_than_zero(a[1], a[0]);
  for (std::size_t i = 2; i < n; ++i) {
    const bool below = less_than_zero(a[i], a[i - 1]);
    if (descending ? !below : below) break;
    ++run;
  }
  if (descending) std::reverse(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(run));
  for (std::size_t start = run; start < n; ++start) {
    std::size_t left = 0, right = start;
    const std::uint32_t pivot = a[start];
    while (left < right) {
      const std::size_t mid = left + ((right - left) >> 1);
      if (less_than_zero(pivot, a[mid])) right = mid;
      else left = mid + 1;
    }
    std::move_backward(a.begin() + static_cast<std::ptrdiff_t>(left), a.begin() + static_cast<std::ptrdiff_t>(start),
                       a.begin() + static_cast<std::ptrdiff_t>(start) + 1);
    a[left] = pivot;
  }
}

std::vector<std::vector<bool>> sort_replays(const std::vector<std::uint32_t>& deal, std::size_t n) {
  std::vector<std::size_t> pos(n);
  for (std::size_t i = 0; i < n; ++i) pos[deal[i]] = i;
  std::vector<std::vector<bool>> out;
  for (std::size_t run = 2; run <= n; ++run) {
    // The first run is [0, run): its comparisons say "continue", the one at `run` "stop"; every
    // later comparison's outcome is read from the final order.
    std::vector<bool> bits;
    std::size_t call = 0;
    bool fits = true;
    std::vector<std::uint32_t> a(n);
    for (std::size_t i = 0; i < n; ++i) a[i] = static_cast<std::uint32_t>(i);
    const bool descending = pos[1] < pos[0];
    v8_small_sort(a, [&](std::uint32_t x, std::uint32_t y) {
      bool below;
      if (call == 0) below = descending;
      else if (call < run - 1) below = descending;  // continue the run
      else if (call == run - 1 && run < n) below = !descending;  // the run stops
      else below = pos[x] < pos[y];
      if (call >= 1 && call < run - 1 && (pos[x] < pos[y]) != descending) fits = false;
      ++call;
      bits.push_back(!below);
      return below;
    });
    if (fits && a == deal) out.push_back(std::move(bits));
    if (!fits) break;  // a longer first run cannot fit either
  }
  return out;
}

// The leading bits of every state0 whose u gives floor(u·k) = j, as (count, value in the top
// `count` bits of 32). Widened by one unit of 2^-32 each side: ToDouble drops state0's low bits
// and the product u·k is rounded, both of which move u·k by far less.
std::pair<int, std::uint32_t> known_bits(std::uint32_t k, std::uint32_t j) noexcept {
  const std::uint64_t two32 = std::uint64_t{1} << 32;
  std::uint64_t lo = (std::uint64_t{j} * two32) / k;
  std::uint64_t hi = ((std::uint64_t{j} + 1) * two32 - 1) / k;
  if (lo > 0) --lo;
  if (hi < two32 - 1) ++hi;
  const auto diff = static_cast<std::uint32_t>(lo ^ hi);
  const int count = diff == 0 ? 32 : std::countl_zero(diff);
  return {count, static_cast<std::uint32_t>(lo)};
}

struct row {
  form f;
  bool rhs = false;
};

// Gaussian elimination over GF(2), one pivot per top bit.
class system {
 public:
  bool add(row r) noexcept {  // false: inconsistent
    while (!r.f.zero()) {
      const int p = r.f.top();
      if (!basis_[p]) {
        basis_[p] = r;
        ++rank_;
        return true;
      }
      r.f ^= basis_[p]->f;
      r.rhs ^= basis_[p]->rhs;
    }
    return !r.rhs;
  }
  [[nodiscard]] std::size_t rank() const noexcept { return rank_; }
  // Every solution when at most 2^max_free, each passed to `each` as (state0, state1).
  template <class Each>
  void solutions(int max_free, Each&& each) const {
    std::vector<int> free;
    for (int i = 0; i < 128; ++i)
      if (!basis_[i]) free.push_back(i);
    if (static_cast<int>(free.size()) > max_free) return;
    for (std::uint64_t choice = 0; choice < (std::uint64_t{1} << free.size()); ++choice) {
      form x;
      for (std::size_t f = 0; f < free.size(); ++f)
        if ((choice >> f) & 1) (free[f] >= 64 ? x.b : x.a) |= std::uint64_t{1} << (free[f] % 64);
      for (int p = 0; p < 128; ++p) {
        if (!basis_[p]) continue;
        const form& r = basis_[p]->f;
        const bool v = basis_[p]->rhs ^
                       ((std::popcount((r.a & x.a) ^ (r.b & x.b)) & 1) != 0);  // x[p] is still 0 here
        if (v) (p >= 64 ? x.b : x.a) |= std::uint64_t{1} << (p % 64);
      }
      each(x.a, x.b);
    }
  }

 private:
  std::array<std::optional<row>, 128> basis_{};
  std::size_t rank_ = 0;
};

bool reproduces(const xorshift_state& s, const std::vector<std::vector<std::uint32_t>>& deals, std::size_t n,
                shuffle_loop loop) {
  const auto made = node_deals(s, n, deals.size(), loop);
  for (std::size_t d = 0; d < deals.size(); ++d)
    if (!std::equal(deals[d].begin(), deals[d].end(), made[d].begin())) return false;
  return true;
}

constexpr int max_free_bits = 12;           // enumerate at most 2^12 solutions of a short rank
constexpr std::size_t max_equation_draws = 4096;  // draws past this only confirm
constexpr std::size_t max_replays = 256;          // sort: ways of dealing tried

}  // namespace

std::vector<std::vector<std::uint32_t>> node_deals(const xorshift_state& state, std::size_t n, std::size_t deals,
                                                   shuffle_loop loop, std::size_t* values_used) {
  node_math_random g(state);
  std::vector<std::vector<std::uint32_t>> out(deals, std::vector<std::uint32_t>(n));
  const auto size = static_cast<std::uint32_t>(n);
  for (auto& a : out) {
    for (std::uint32_t i = 0; i < size; ++i) a[i] = i;
    if (loop == shuffle_loop::sort) {
      v8_small_sort(a, [&](std::uint32_t, std::uint32_t) { return g.next() - 0.5 < 0; });
    } else if (loop == shuffle_loop::up) {
      for (std::uint32_t i = 0; i + 1 < size; ++i) std::swap(a[i], a[i + g.below(size - i)]);
    } else {
      for (std::uint32_t i = size; i-- > 1;) std::swap(a[i], a[g.below(i + 1)]);
      if (loop == shuffle_loop::pop) std::reverse(a.begin(), a.end());
    }
  }
  if (values_used) *values_used = g.served();
  return out;
}

std::vector<double> node_values(const xorshift_state& state, std::size_t skip, std::size_t count) {
  node_math_random g(state);
  for (std::size_t i = 0; i < skip; ++i) g.next();
  std::vector<double> out(count);
  for (auto& v : out) v = g.next();
  return out;
}

state_recovery recover_node_state(const seed_search_options& o) {
  const auto start = std::chrono::steady_clock::now();
  const shuffle_loop loop = o.variant.loop;
  if (loop == shuffle_loop::naive)
    throw error("--loop naive: node-math-random needs a loop that leaves each card final when drawn (down, up, pop, sort)");
  if (loop == shuffle_loop::down)
    for (std::size_t d = 0; d < o.deals.size(); ++d)
      if (o.deals[d].size() + 1 < o.n)
        throw error(fmt::format(
            "node-math-random --loop down needs whole decks (deal {} has {} of {} cards): the downward loop decides "
            "the first cards of the list last; code that deals with pop() is --loop pop, the upward loop --loop up",
            d + 1, o.deals[d].size(), o.n));
  state_recovery r;
  // The equations: (draw, known leading bits) per way the cards can have been dealt (one, but for
  // sort: one per combination of each deal's replays, at most max_replays).
  using equations = std::vector<std::pair<std::size_t, std::pair<int, std::uint32_t>>>;
  std::vector<equations> ways;
  if (loop == shuffle_loop::sort) {
    if (o.n >= 64) throw error("--loop sort: node-math-random models V8's sort of fewer than 64 cards (one run)");
    std::vector<std::vector<std::vector<bool>>> replays;
    for (std::size_t d = 0; d < o.deals.size(); ++d) {
      if (o.deals[d].size() + 1 < o.n)
        throw error(fmt::format("node-math-random --loop sort needs whole decks (deal {} has {} of {} cards)", d + 1,
                                o.deals[d].size(), o.n));
      auto deal = o.deals[d];
      if (deal.size() + 1 == o.n) {
        std::vector<bool> seen(o.n);
        for (const auto c : deal) seen[c] = true;
        deal.push_back(static_cast<std::uint32_t>(std::find(seen.begin(), seen.end(), false) - seen.begin()));
      }
      replays.push_back(sort_replays(deal, o.n));
      if (replays.back().empty()) return r;  // V8's sort cannot end in this order
    }
    std::vector<std::size_t> pick(replays.size(), 0);
    for (std::size_t way = 0; way < max_replays; ++way) {
      equations e;
      std::size_t draw = 0;
      for (std::size_t d = 0; d < replays.size(); ++d)
        for (const bool b : replays[d][pick[d]]) e.push_back({draw++, {1, b ? 0x80000000u : 0u}});
      ways.push_back(std::move(e));
      std::size_t d = 0;
      while (d < pick.size() && ++pick[d] == replays[d].size()) pick[d++] = 0;
      if (d == pick.size()) break;
    }
    r.draws_seen = ways.front().size();
  } else {
    std::vector<observation> seen;
    if (!observe(o.deals, o.n, loop, seen)) {
      r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      return r;  // no shuffle of this loop deals these cards
    }
    r.draws_seen = seen.size();
    ways.emplace_back();
    for (const auto& s : seen) {
      const auto bits = known_bits(s.k, s.j);
      if (bits.first > 0) ways.back().push_back({s.draw, bits});
    }
  }
  for (const auto& used0 : ways) {
  equations used;
  for (const auto& e : used0)
    if (e.first < max_equation_draws) used.push_back(e);
  std::size_t equation_count = 0;
  for (const auto& e : used) equation_count += static_cast<std::size_t>(e.second.first);
  r.equations = std::max(r.equations, equation_count);
  const std::size_t last_draw = used.empty() ? 0 : used.back().first;
  const auto outputs = symbolic_outputs(64 * ((63 + last_draw) / 64 + 1));
  for (unsigned offset = 0; offset < 64; ++offset) {
    system sys;
    bool consistent = true;
    for (const auto& [draw, bits] : used) {
      const std::size_t q = offset + draw;
      const std::size_t step = 64 * (q / 64) + 64 - q % 64;
      const word& w = outputs[step];
      for (int b = 0; b < bits.first && consistent; ++b)
        consistent = sys.add({w[63 - b], ((bits.second >> (31 - b)) & 1) != 0});
      if (!consistent) break;
    }
    if (!consistent) continue;
    ++r.offsets_consistent;
    r.best_rank = std::max(r.best_rank, sys.rank());
    sys.solutions(max_free_bits, [&](std::uint64_t s0, std::uint64_t s1) {
      for (const bool double53 : {false, true}) {  // Node 20's rule first
        const xorshift_state candidate{s0, s1, offset, double53};
        if (reproduces(candidate, o.deals, o.n, loop) &&
            std::none_of(r.states.begin(), r.states.end(), [&](const xorshift_state& f) {
              return f.state0 == s0 && f.state1 == s1 && f.offset == offset && f.double53 == double53;
            })) {
          r.states.push_back(candidate);
          if (r.states.size() >= std::max<std::size_t>(1, o.max_matches)) return;
        }
      }
    });
  }
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace shufl::audit
