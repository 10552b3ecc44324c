// Tests of the replay predictor's windows against brute force (include/shufl/audit/detector.hpp
// replay_window, include/shufl/audit/replay_runs.hpp run_window; docs/monitor.md, "Replays at
// any lag"): a deck dealt 100,000 times among a few others (the index keeps one entry per
// distinct key, so this is the stream where a wrong count or a stale entry would show), and
// random streams full of repeats at random lags, inside and beyond the window. The reference is
// a std::deque of the decks in the window, searched in full for every deck.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <numeric>
#include <span>
#include <vector>

#include "shufl/audit/detector.hpp"
#include "shufl/audit/replay_runs.hpp"
#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"

namespace {

using shufl::audit::newest_index;
using shufl::audit::replay_window;
using shufl::audit::run_window;
using deck = std::vector<std::uint32_t>;

// The packed key of faces[from .. from + length − 1], `bits` bits per face, the first face highest.
std::uint64_t key_at(const deck& faces, std::size_t from, unsigned length, unsigned bits) {
  std::uint64_t k = 0;
  for (std::size_t i = from; i < from + length; ++i) k = (k << bits) | faces[i];
  return k;
}

// What run_window and replay_window must answer for `next`, from the decks of the window alone
// (the newest last), by brute force.
struct reference {
  std::size_t window;
  unsigned length, bits;
  std::size_t slots;
  std::deque<deck> decks;
  std::deque<std::vector<std::uint64_t>> keys;  // the aligned windows of each deck

  std::vector<std::uint64_t> aligned(const deck& d) const {
    std::vector<std::uint64_t> k;
    for (std::size_t s = 0; s < slots && (s + 1) * length <= d.size(); ++s) k.push_back(key_at(d, s * length, length, bits));
    return k;
  }
  run_window::look runs(const deck& next) const {
    run_window::look l;
    for (const auto& k : keys) l.stored += k.size();
    for (std::size_t from = 0; from + length <= next.size(); ++from) {
      const std::uint64_t k = key_at(next, from, length, bits);
      for (std::size_t back = 1; back <= keys.size(); ++back) {
        const std::vector<std::uint64_t>& old = keys[keys.size() - back];
        if (std::find(old.begin(), old.end(), k) == old.end()) continue;
        if (l.matches++ == 0) l.lag = back;
        break;
      }
    }
    return l;
  }
  replay_window::look whole(const deck& next) const {
    replay_window::look l;
    for (std::size_t i = 0; i < decks.size(); ++i)
      l.distinct += std::find(decks.begin() + static_cast<std::ptrdiff_t>(i + 1), decks.end(), decks[i]) == decks.end();
    for (std::size_t back = 1; back <= decks.size(); ++back)
      if (decks[decks.size() - back] == next) {
        l.hit = true;
        l.lag = back;
        break;
      }
    return l;
  }
  void push(const deck& d) {
    decks.push_back(d);
    keys.push_back(aligned(d));
    if (decks.size() > window) {
      decks.pop_front();
      keys.pop_front();
    }
  }
};

// A deck's hash for replay_window: exact for these tests (distinct decks, distinct values).
std::uint64_t hash_of(const deck& d) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const std::uint32_t f : d) h = (h ^ (f + 1)) * 0x100000001b3ULL;
  return h;
}

// Feeds `stream` to both windows and to the reference; every answer must agree.
void check_stream(const std::vector<deck>& stream, std::size_t window, unsigned length, unsigned bits,
                  std::size_t slots) {
  run_window runs(window, length, bits, slots);
  replay_window whole(window);
  reference ref{window, length, bits, slots, {}, {}};
  std::size_t run_hits = 0, deck_hits = 0;
  for (std::size_t t = 0; t < stream.size(); ++t) {
    const deck& d = stream[t];
    const run_window::look want_r = ref.runs(d);
    const replay_window::look want_w = ref.whole(d);
    const run_window::look got_r = runs.add(d);
    const replay_window::look got_w = whole.add(hash_of(d));
    ASSERT_EQ(got_r.matches, want_r.matches) << "deck " << t;
    ASSERT_EQ(got_r.lag, want_r.lag) << "deck " << t;
    ASSERT_EQ(got_r.stored, want_r.stored) << "deck " << t;
    ASSERT_EQ(got_w.hit, want_w.hit) << "deck " << t;
    ASSERT_EQ(got_w.lag, want_w.lag) << "deck " << t;
    ASSERT_EQ(got_w.distinct, want_w.distinct) << "deck " << t;
    run_hits += got_r.matches > 0;
    deck_hits += got_w.hit;
    ref.push(d);
  }
  // The streams are built to hit often and to miss often.
  EXPECT_GT(run_hits, stream.size() / 10);
  EXPECT_GT(deck_hits, stream.size() / 10);
  EXPECT_LT(deck_hits, stream.size() - stream.size() / 10);
}

deck fresh_deck(shufl::xoshiro256pp_engine& engine) {
  deck d(52);
  std::iota(d.begin(), d.end(), 0u);
  shufl::fisher_yates(std::span<std::uint32_t>(d), engine);
  return d;
}

TEST(AuditReplayWindow, OneDeckDealtAHundredThousandTimesKeepsExactAnswers) {
  // Deck A 100,000 times in a window of 8 decks; between its copies a fresh deck every 5th deck
  // and, every 10,000 decks, 20 fresh decks in a row (A leaves the window and comes back).
  shufl::xoshiro256pp_engine engine(shufl::key_from_seed("replay-window-one-deck"), 0);
  const deck a = fresh_deck(engine);
  std::vector<deck> stream;
  std::size_t copies = 0;
  for (std::size_t t = 0; copies < 100000; ++t) {
    if (t % 10000 < 20 || t % 5 == 0) {
      stream.push_back(fresh_deck(engine));
    } else {
      stream.push_back(a);
      ++copies;
    }
  }
  check_stream(stream, 8, 10, 6, 5);
}

TEST(AuditReplayWindow, RandomStreamsFullOfRepeatsMatchBruteForce) {
  // 5,000 52-card decks, window 50: a third copy a deck from 1 to 80 decks back (some beyond the
  // window), a sixth carry a stretch of 20 cards of such a deck, the rest fresh.
  shufl::xoshiro256pp_engine engine(shufl::key_from_seed("replay-window-brute"), 0);
  std::vector<deck> stream;
  for (std::size_t t = 0; t < 5000; ++t) {
    const std::uint64_t roll = engine() % 6;
    if (t > 0 && roll < 2) {
      stream.push_back(stream[t - 1 - engine() % std::min<std::uint64_t>(t, 80)]);
    } else if (t > 0 && roll == 2) {
      deck d = fresh_deck(engine);
      const deck& old = stream[t - 1 - engine() % std::min<std::uint64_t>(t, 80)];
      const std::size_t from = engine() % 33, to = engine() % 33;
      // Move the stretch's cards out of place in d, then copy the stretch in (faces may repeat:
      // run_window takes any faces).
      std::copy(old.begin() + static_cast<std::ptrdiff_t>(from), old.begin() + static_cast<std::ptrdiff_t>(from + 20),
                d.begin() + static_cast<std::ptrdiff_t>(to));
      stream.push_back(d);
    } else {
      stream.push_back(fresh_deck(engine));
    }
  }
  check_stream(stream, 50, 10, 6, 5);
}

TEST(AuditReplayWindow, FewFacesAndShortDecksMatchBruteForce) {
  // Faces 0..3 (2 bits), windows of 4 cards: 256 keys, so every key has many copies, often
  // several in one deck; decks of 2 to 24 cards (0 to 6 aligned windows), so the index also
  // grows after the window has turned over; whole decks repeated at random lags.
  shufl::xoshiro256pp_engine engine(shufl::key_from_seed("replay-window-few-faces"), 0);
  std::vector<deck> stream;
  for (std::size_t t = 0; t < 5000; ++t) {
    if (t > 0 && engine() % 3 == 0) {
      stream.push_back(stream[t - 1 - engine() % std::min<std::uint64_t>(t, 80)]);
      continue;
    }
    // Short decks first, then longer ones: more windows stored per deck as the stream goes on.
    const std::size_t len = 2 + engine() % (t < 2500 ? 8 : 23);
    deck d(len);
    for (auto& f : d) f = static_cast<std::uint32_t>(engine() % 4);
    stream.push_back(d);
  }
  check_stream(stream, 50, 4, 2, 6);
}

TEST(AuditReplayWindow, IndexEntriesFarFromHomeSurviveEveryDeletion) {
  // 16 slots, 11 keys: 8 with home 3 and one each with homes 4, 5, 6, so entries sit up to 10
  // slots from home (beyond the 3-bit distance field, which saturates at 7). Deleted in random
  // orders, every other key must stay findable at its position, and a deleted one gone.
  std::vector<std::uint64_t> keys;
  for (std::uint64_t k = 1; keys.size() < 8; ++k)
    if ((newest_index::mix(k) & 15) == 3) keys.push_back(k);
  for (std::uint64_t home = 4; home <= 6; ++home)
    for (std::uint64_t k = 1;; ++k)
      if ((newest_index::mix(k) & 15) == home) {
        keys.push_back(k);
        break;
      }
  std::vector<std::uint64_t> ring(64, 0);
  shufl::xoshiro256pp_engine engine(shufl::key_from_seed("replay-index-far"), 0);
  for (int round = 0; round < 300; ++round) {
    newest_index index(ring.size());
    index.reset(16);
    std::vector<std::size_t> pos(keys.size());
    for (std::size_t j = 0; j < keys.size(); ++j) {
      pos[j] = 2 * j;
      ring[pos[j]] = keys[j];
      ASSERT_TRUE(index.put(keys[j], newest_index::mix(keys[j]), pos[j], ring));
    }
    // A newer copy of some keys: the same entry, at the new position.
    for (std::size_t j = 0; j < keys.size(); j += 3) {
      pos[j] = 2 * j + 1;
      ring[pos[j]] = keys[j];
      ASSERT_FALSE(index.put(keys[j], newest_index::mix(keys[j]), pos[j], ring));
    }
    std::vector<std::size_t> order(keys.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    shufl::fisher_yates(std::span<std::size_t>(order), engine);
    std::vector<bool> gone(keys.size(), false);
    for (const std::size_t victim : order) {
      const std::size_t i = index.find(keys[victim], newest_index::mix(keys[victim]), ring);
      ASSERT_NE(i, newest_index::npos);
      index.erase(i, ring);
      gone[victim] = true;
      for (std::size_t j = 0; j < keys.size(); ++j) {
        const std::size_t at = index.find(keys[j], newest_index::mix(keys[j]), ring);
        if (gone[j]) {
          ASSERT_EQ(at, newest_index::npos) << "round " << round;
        } else {
          ASSERT_NE(at, newest_index::npos) << "round " << round;
          ASSERT_EQ(index.position(at), pos[j]) << "round " << round;
        }
      }
    }
  }
}

TEST(AuditReplayWindow, WholeDeckWindowMemoryMatchesTheStatedBytes) {
  // docs/monitor.md: a ring of 8 bytes per deck and an index of 4-byte slots at most 70 % full (a
  // power of two): for 2^20 distinct decks 8 MiB + 2^21·4 = 16 MiB (16,777,216 bytes).
  replay_window w;
  std::uint64_t x = 0;
  for (std::size_t t = 0; t < (std::size_t{1} << 20) + 1000; ++t) {
    x += 0x9e3779b97f4a7c15ULL;  // distinct values (an odd step mod 2^64)
    ASSERT_FALSE(w.add(x).hit);
  }
  EXPECT_EQ(w.bytes(), 16777216u);
}

}  // namespace
