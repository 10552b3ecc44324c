// Unit tests of the randomness core: seeds, engines against published test vectors, Lemire's
// bounded integers (exhaustively, on a narrow word), the scripted engine.
#include "shufl/random.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

#include "shufl/error.hpp"

namespace shufl {
namespace {

// BLAKE2b-256 digests computed independently with Python's hashlib.blake2b(digest_size=32).
TEST(Seed, HashesWithBlake2b256) {
  EXPECT_EQ(to_hex(key_from_seed("1")), "92cdf578c47085a5992256f0dcf97d0b19f1f1c9de4d5fe30c3ace6191b6e5db");
  EXPECT_EQ(to_hex(key_from_seed("4294967297")),
            "f999b2969016c38ffedbe660dd656ece877230e3b95e99841ad0898db353f9fc");
  EXPECT_EQ(to_hex(key_from_seed("")), "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8");
}

TEST(Seed, NeverTruncatedTo32Bits) {
  // 4294967297 = 2^32 + 1: a 32-bit truncation would make it equal to seed 1.
  EXPECT_NE(key_from_seed("1"), key_from_seed("4294967297"));
  xoshiro256pp_engine a(key_from_seed("1")), b(key_from_seed("4294967297"));
  EXPECT_NE(a(), b());
}

TEST(Seed, OsKeysDiffer) { EXPECT_NE(key_from_os(), key_from_os()); }

TEST(Seed, DerivedStreamsAreDistinct) {
  const seed_key k = key_from_seed("x");
  EXPECT_NE(derive_key(k, "bias/naive", 0), derive_key(k, "bias/naive", 1));
  EXPECT_NE(derive_key(k, "bias/naive", 0), derive_key(k, "bias/fisher-yates", 0));
  EXPECT_EQ(derive_key(k, "bias/naive", 7), derive_key(k, "bias/naive", 7));
}

// ChaCha20 with an all-zero key and nonce: the first keystream block of the original
// (Bernstein) ChaCha20 test vector starts 76 b8 e0 ad a0 f1 3d 90 | 40 5d 6a e5 53 86 bd 28.
TEST(Engine, ChaCha20MatchesZeroKeyTestVector) {
  chacha20_engine e(seed_key{}, 0);
  EXPECT_EQ(e(), 0x903df1a0ade0b876ULL);
  EXPECT_EQ(e(), 0x28bd8653e56a5d40ULL);
}

TEST(Engine, ChaCha20ContinuesAcrossBuffers) {
  // Words read one at a time across the 512-byte buffer boundary equal a fresh engine's
  // sequence: the block counter continues rather than restarting.
  chacha20_engine a(key_from_seed("k"), 3);
  std::vector<std::uint64_t> first;
  for (int i = 0; i < 200; ++i) first.push_back(a());
  chacha20_engine b(key_from_seed("k"), 3);
  for (int i = 0; i < 200; ++i) EXPECT_EQ(b(), first[static_cast<std::size_t>(i)]);
  EXPECT_EQ(std::set<std::uint64_t>(first.begin(), first.end()).size(), first.size());
}

// xoshiro256++ reference implementation (Blackman & Vigna) from state {1, 2, 3, 4}:
// first output rotl(1 + 4, 23) + 1 = 41943041; the next ones computed by hand from the
// published update rule.
TEST(Engine, Xoshiro256ppMatchesReference) {
  auto e = xoshiro256pp_engine::from_state({1, 2, 3, 4});
  EXPECT_EQ(e(), 41943041ULL);
  EXPECT_EQ(e(), 58720359ULL);
  EXPECT_EQ(e(), 3588806011781223ULL);
}

TEST(Engine, MtAndMinstdAreStandardEngines) {
  // The weak engines are the standard's fully specified ones: std::mt19937's 10000th output
  // from the default seed is 4123659995 (C++ [rand.predef]).
  std::mt19937 mt;
  mt.discard(9999);
  EXPECT_EQ(mt(), 4123659995u);
  std::minstd_rand lcg;
  lcg.discard(9999);
  EXPECT_EQ(lcg(), 399268537u);
}

TEST(Engine, ParseNamesAndSuggest) {
  EXPECT_EQ(parse_engine("chacha20"), engine_kind::chacha20);
  EXPECT_EQ(parse_engine("xoshiro256pp"), engine_kind::xoshiro256pp);
  EXPECT_EQ(parse_engine("mt19937"), engine_kind::mt19937);
  EXPECT_EQ(parse_engine("minstd"), engine_kind::minstd);
  try {
    parse_engine("chacha");
    FAIL() << "expected an error";
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean 'chacha20'?"), std::string::npos) << e.what();
  }
  EXPECT_EQ(engine_seed_bits(engine_kind::mt19937), 32.0);
  EXPECT_EQ(engine_seed_bits(engine_kind::chacha20), 256.0);
}

// An 8-bit engine that yields the given first word and then all-ones words (which Lemire's method
// always accepts: low = 2^w − s ≥ 2^w mod s), so we can see whether the first word was accepted.
struct one_word_engine {
  std::uint8_t first;
  int calls = 0;
  std::uint32_t operator()() noexcept { return calls++ == 0 ? first : 0xFF; }
};

// Exhaustive check of exact uniformity on an 8-bit word: for every bound s in [1, 256) and every
// one of the 256 first words, the accepted words map onto [0, s) exactly floor(256 / s) times
// each, and the rejected ones are exactly 256 mod s. This is the same template as uniform_below.
TEST(UniformBelow, ExactlyUniformOverEvery8BitWord) {
  for (unsigned s = 1; s < 256; ++s) {
    std::vector<unsigned> hits(s, 0);
    unsigned rejected = 0;
    for (unsigned x = 0; x < 256; ++x) {
      one_word_engine e{static_cast<std::uint8_t>(x)};
      const auto v = detail::lemire_below<std::uint8_t, std::uint32_t>(e, static_cast<std::uint8_t>(s));
      ASSERT_LT(v, s);
      if (e.calls == 1) {
        ++hits[v];
      } else {
        ++rejected;
      }
    }
    for (unsigned v = 0; v < s; ++v) ASSERT_EQ(hits[v], 256 / s) << "s=" << s << " v=" << v;
    ASSERT_EQ(rejected, 256 % s) << "s=" << s;
  }
}

// The same on a 16-bit word for a spread of bounds, including powers of two and near-2^16 ones.
TEST(UniformBelow, ExactlyUniformOverEvery16BitWord) {
  struct engine16 {
    std::uint16_t first;
    int calls = 0;
    std::uint32_t operator()() noexcept { return calls++ == 0 ? first : 0xFFFF; }
  };
  for (unsigned s : {1u, 2u, 3u, 5u, 6u, 7u, 100u, 255u, 256u, 1000u, 32768u, 40000u, 65535u}) {
    std::vector<unsigned> hits(s, 0);
    for (unsigned x = 0; x < 65536; ++x) {
      engine16 e{static_cast<std::uint16_t>(x)};
      const auto v = detail::lemire_below<std::uint16_t, std::uint32_t>(e, static_cast<std::uint16_t>(s));
      ASSERT_LT(v, s);
      if (e.calls == 1) ++hits[v];
    }
    for (unsigned v = 0; v < s; ++v) ASSERT_EQ(hits[v], 65536 / s) << "s=" << s;
  }
}

TEST(UniformBelow, SixtyFourBitBoundsStayInRange) {
  xoshiro256pp_engine e(key_from_seed("range"));
  for (std::uint64_t s : {1ULL, 2ULL, 3ULL, (1ULL << 63) + 1, ~0ULL}) {
    for (int i = 0; i < 1000; ++i) ASSERT_LT(uniform_below(e, s), s);
  }
}

TEST(ScriptedEngine, ReplaysAndReportsFailures) {
  scripted_engine e({2, 0});
  EXPECT_EQ(uniform_below(e, 3), 2u);
  EXPECT_EQ(uniform_below(e, 5), 0u);
  EXPECT_FALSE(e.failed());
  EXPECT_EQ(e.bounds(), (std::vector<std::uint64_t>{3, 5}));
  uniform_below(e, 2);  // script used up
  EXPECT_TRUE(e.failed());

  scripted_engine out_of_range({4});
  uniform_below(out_of_range, 4);
  EXPECT_TRUE(out_of_range.failed());

  scripted_engine extended({1}, true);
  EXPECT_EQ(uniform_below(extended, 2), 1u);
  EXPECT_EQ(uniform_below(extended, 9), 0u);
  EXPECT_FALSE(extended.failed());
}

}  // namespace
}  // namespace shufl
