// Random engines, seeding and unbiased bounded integers: the randomness contract of shufl.
//
// Every engine here is a "word engine": `operator()` returns a uniform 64-bit word and the
// output for a given key is fixed by this file alone (no standard-library distribution is
// involved), so seeded results are identical on every platform, compiler and standard library.
// Bounded integers come from `uniform_below`, Lemire's nearly-divisionless method.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "shufl/error.hpp"

namespace shufl {

/// Unsigned 128-bit integer (a GCC/Clang extension), for Lemire's multiply-high.
__extension__ using uint128 = unsigned __int128;

/// A 256-bit key: what a seed string hashes to, or 32 bytes from the operating system.
struct seed_key {
  std::array<std::uint8_t, 32> bytes{};
  friend bool operator==(const seed_key&, const seed_key&) = default;
};

/// Hashes a seed string (any bytes, e.g. "42" or "run-7") to a 256-bit key with BLAKE2b-256
/// (libsodium `crypto_generichash`, RFC 7693). Never truncates the seed: "1" and "4294967297"
/// give unrelated keys.
seed_key key_from_seed(std::string_view seed);

/// 32 bytes from the operating system's CSPRNG (getrandom, via libsodium `randombytes_buf`).
seed_key key_from_os();

/// Derives an independent 256-bit sub-key for stream number `stream` in the named domain
/// (e.g. domain "bias/naive", stream = chunk index): BLAKE2b-256 keyed with `key` over
/// `domain || 0x00 || stream as 8 little-endian bytes`. Used so that each algorithm and each chunk
/// of trials has its own stream, whatever the number of threads.
seed_key derive_key(const seed_key& key, std::string_view domain, std::uint64_t stream);

/// Hex encoding (64 lowercase hex digits) of a key, for --explain and the --commit commitment.
std::string to_hex(const seed_key& key);

/// The engines a user can choose with `--rng NAME`.
enum class engine_kind {
  chacha20,      ///< ChaCha20 keystream (libsodium), 256-bit key: default for `lines` and `deck`.
  xoshiro256pp,  ///< xoshiro256++ (Blackman & Vigna 2018), 256-bit state: default for `bias`.
  mt19937,       ///< Mersenne Twister seeded with 32 bits of the key: a deliberately weak demo.
  minstd,        ///< Park–Miller minimal standard LCG (a = 48271), 31-bit state: a weak demo.
};

/// Parses an engine name ("chacha20", "xoshiro256pp", "mt19937", "minstd"); throws
/// shufl::error with a "did you mean" suggestion for an unknown name.
engine_kind parse_engine(std::string_view name);
/// The canonical name of an engine.
std::string_view engine_name(engine_kind kind) noexcept;
/// All engine names, in the order of `engine_kind`.
std::span<const std::string_view> engine_names() noexcept;
/// log2 of the number of distinct states a seeded engine of this kind can start from
/// (256 for chacha20 and xoshiro256pp, 32 for mt19937, about 31 for minstd).
double engine_seed_bits(engine_kind kind) noexcept;

/// ChaCha20 (D. J. Bernstein, 2008) as a word engine: the keystream of libsodium's
/// `crypto_stream_chacha20` (64-bit nonce = `stream`, 64-bit block counter from 0), read as
/// little-endian 64-bit words.
class chacha20_engine {
 public:
  using result_type = std::uint64_t;
  explicit chacha20_engine(const seed_key& key, std::uint64_t stream = 0) noexcept;
  static constexpr result_type min() noexcept { return 0; }
  static constexpr result_type max() noexcept { return ~result_type{0}; }
  result_type operator()() noexcept {
    if (pos_ == buffer_.size()) refill();
    return buffer_[pos_++];
  }

 private:
  void refill() noexcept;
  std::array<std::uint8_t, 32> key_;
  std::array<std::uint8_t, 8> nonce_;
  std::uint64_t block_ = 0;  // next 64-byte block counter
  std::array<std::uint64_t, 64> buffer_{};  // 512 bytes = 8 blocks
  std::size_t pos_ = 64;
};

/// xoshiro256++ 1.0 (D. Blackman and S. Vigna, "Scrambled linear pseudorandom number
/// generators", ACM TOMS 2021). The state is the 256-bit key derived for `stream`
/// (an all-zero state, probability 2^-256, is replaced by a fixed non-zero one).
class xoshiro256pp_engine {
 public:
  using result_type = std::uint64_t;
  explicit xoshiro256pp_engine(const seed_key& key, std::uint64_t stream = 0) noexcept;
  /// An engine with the given raw state (for reference test vectors). Precondition: not all zero.
  static xoshiro256pp_engine from_state(const std::array<std::uint64_t, 4>& state) noexcept {
    xoshiro256pp_engine e;
    e.s_ = state;
    return e;
  }
  /// The raw state s0..s3 (what from_state takes): lets vector code run several engines in lanes.
  std::array<std::uint64_t, 4> state() const noexcept { return s_; }
  static constexpr result_type min() noexcept { return 0; }
  static constexpr result_type max() noexcept { return ~result_type{0}; }
  result_type operator()() noexcept {
    const std::uint64_t result = rotl(s_[0] + s_[3], 23) + s_[0];
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

 private:
  xoshiro256pp_engine() noexcept = default;
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) noexcept {
    return (x << k) | (x >> (64 - k));
  }
  std::array<std::uint64_t, 4> s_{};
};

/// std::mt19937 (whose output the C++ standard fixes) seeded with the first 32 bits of the
/// derived key: at most 2^32 different runs. Two 32-bit outputs make one word (high, then low).
class mt19937_engine {
 public:
  using result_type = std::uint64_t;
  explicit mt19937_engine(const seed_key& key, std::uint64_t stream = 0) noexcept;
  static constexpr result_type min() noexcept { return 0; }
  static constexpr result_type max() noexcept { return ~result_type{0}; }
  result_type operator()() noexcept {
    const std::uint64_t hi = mt_();
    return (hi << 32) | mt_();
  }

 private:
  std::mt19937 mt_;
};

/// std::minstd_rand (Park–Miller, a = 48271, m = 2^31 − 1; output fixed by the C++ standard)
/// seeded with 31 bits of the derived key. A word is built from three outputs, 22 + 21 + 21 low
/// bits. It is slightly non-uniform (outputs lie in [1, 2^31 − 2]); this engine exists to
/// demonstrate a weak generator, not to be used.
class minstd_engine {
 public:
  using result_type = std::uint64_t;
  explicit minstd_engine(const seed_key& key, std::uint64_t stream = 0) noexcept;
  static constexpr result_type min() noexcept { return 0; }
  static constexpr result_type max() noexcept { return ~result_type{0}; }
  result_type operator()() noexcept {
    const std::uint64_t a = lcg_() & 0x3FFFFF;
    const std::uint64_t b = lcg_() & 0x1FFFFF;
    const std::uint64_t c = lcg_() & 0x1FFFFF;
    return (a << 42) | (b << 21) | c;
  }

 private:
  std::minstd_rand lcg_;
};

/// Randomness straight from the operating system (getrandom via libsodium), buffered 4 KiB at a
/// time. Not reproducible; used by unseeded `deck` runs so every order of any deck can occur.
class os_engine {
 public:
  using result_type = std::uint64_t;
  os_engine() noexcept = default;
  static constexpr result_type min() noexcept { return 0; }
  static constexpr result_type max() noexcept { return ~result_type{0}; }
  result_type operator()() noexcept {
    if (pos_ == buffer_.size()) refill();
    return buffer_[pos_++];
  }

 private:
  void refill() noexcept;
  std::array<std::uint64_t, 512> buffer_{};
  std::size_t pos_ = 512;
};

namespace detail {
/// Lemire's method for any word width: `Word` is the engine's word type, `Wide` holds a
/// Word × Word product. uniform_below uses <uint64_t, uint128>; tests run <uint8_t, uint32_t>
/// exhaustively. Precondition: s >= 1.
template <class Word, class Wide, class Engine>
constexpr Word lemire_below(Engine& engine, Word s) noexcept {
  Wide m = static_cast<Wide>(static_cast<Word>(engine())) * s;
  auto low = static_cast<Word>(m);
  if (low < s) [[unlikely]] {
    const auto threshold = static_cast<Word>(static_cast<Word>(0 - s) % s);  // 2^w mod s
    while (low < threshold) {
      m = static_cast<Wide>(static_cast<Word>(engine())) * s;
      low = static_cast<Word>(m);
    }
  }
  return static_cast<Word>(m >> (8 * sizeof(Word)));
}
}  // namespace detail

/// A uniform integer in [0, s) from a word engine, by Lemire's nearly-divisionless method
/// (D. Lemire, "Fast Random Integer Generation in an Interval", ACM TOMACS 29(1), 2019):
/// multiply a 64-bit word by s, keep the high 64 bits, reject the rare low parts below
/// 2^64 mod s. Exactly uniform; one multiplication and usually no division.
/// Precondition: s >= 1 (s = 1 returns 0 and consumes one word).
template <class Engine>
inline std::uint64_t uniform_below(Engine& engine, std::uint64_t s) noexcept {
  return detail::lemire_below<std::uint64_t, uint128>(engine, s);
}

/// A scripted "engine" that returns prescribed draws instead of random ones. `uniform_below`
/// on it returns the next scripted value (checked against the bound) and records the bound, so
/// any algorithm written against `uniform_below` can be driven through chosen paths: this is how
/// tests and `--exact` enumerate every path of random choices, and how `trace --draws` replays.
class scripted_engine {
 public:
  /// Draws to return, in order. With `extend_with_zeros`, draws past the end of the script
  /// return 0 without failing (exact enumeration walks paths this way).
  explicit scripted_engine(std::vector<std::uint64_t> draws = {}, bool extend_with_zeros = false)
      : draws_(std::move(draws)), extend_(extend_with_zeros) {}
  /// Starts over with a new script, keeping allocated memory.
  void reset(const std::vector<std::uint64_t>& draws) {
    draws_.assign(draws.begin(), draws.end());
    bounds_.clear();
    next_ = 0;
    failed_ = false;
  }
  /// The next scripted draw for a request in [0, s). When the script is used up (and not
  /// extended with zeros), or the value is not below s, returns 0 and sets `failed()`; callers
  /// check `failed()` after the run.
  std::uint64_t draw(std::uint64_t s) noexcept {
    bounds_.push_back(s);
    if (next_ >= draws_.size()) {
      ++next_;
      if (!extend_) failed_ = true;
      return 0;
    }
    if (draws_[next_] >= s) {
      failed_ = true;
      ++next_;
      return 0;
    }
    return draws_[next_++];
  }
  /// The bounds s of every draw requested so far, in order.
  const std::vector<std::uint64_t>& bounds() const noexcept { return bounds_; }
  /// Number of draws consumed.
  std::size_t used() const noexcept { return next_; }
  /// Number of scripted draws not consumed.
  std::size_t left_over() const noexcept { return next_ < draws_.size() ? draws_.size() - next_ : 0; }
  /// Whether the script ran out or held a value out of range.
  bool failed() const noexcept { return failed_; }

 private:
  std::vector<std::uint64_t> draws_;
  std::vector<std::uint64_t> bounds_;
  std::size_t next_ = 0;
  bool extend_ = false;
  bool failed_ = false;
};

/// `uniform_below` on a scripted engine: the next scripted draw (see scripted_engine::draw).
inline std::uint64_t uniform_below(scripted_engine& engine, std::uint64_t s) noexcept {
  return engine.draw(s);
}

/// Calls `f(engine)` with a concrete engine of the given kind, keyed by `key` and `stream`, so
/// that hot loops are instantiated per engine type (no virtual call per draw).
template <class F>
decltype(auto) with_engine(engine_kind kind, const seed_key& key, std::uint64_t stream, F&& f) {
  switch (kind) {
    case engine_kind::chacha20: {
      chacha20_engine e(key, stream);
      return f(e);
    }
    case engine_kind::mt19937: {
      mt19937_engine e(key, stream);
      return f(e);
    }
    case engine_kind::minstd: {
      minstd_engine e(key, stream);
      return f(e);
    }
    case engine_kind::xoshiro256pp:
    default: {
      xoshiro256pp_engine e(key, stream);
      return f(e);
    }
  }
}

}  // namespace shufl

// ---------------------------------------------------------------------------------------------
// GNU random-source reader (`shufl lines --random-source=FILE`): consumes bytes exactly as GNU
// coreutils' randint_genmax does, so the same file gives the same choices as GNU shuf.
// ---------------------------------------------------------------------------------------------

namespace shufl {

/// Turns the bytes of a file into uniform integers exactly as GNU coreutils does (gnulib
/// `randint_genmax`, used by `shuf --random-source`): a state (value, max), value uniform in
/// [0, max], starts at (0, 0). A draw in [0, g] appends big-endian bytes (value = value·256 + b,
/// max = max·256 + 255, wrapping modulo 2^64) while max < g; returns value when max == g (state
/// reset); otherwise takes value mod (g + 1) if value lies in the last whole multiple of g + 1
/// below max, keeping the leftover entropy, and on rejection retries with the leftover.
/// Not a word engine: it is driven only through `draw_max` / `choose`.
class gnu_random_source {
 public:
  /// Reads from `fd` (not owned, not closed). `quoted_name` is the file name as messages show it,
  /// e.g. "‘src’" or "'src'".
  gnu_random_source(int fd, std::string quoted_name) noexcept
      : fd_(fd), quoted_name_(std::move(quoted_name)) {}

  /// A uniform integer in [0, genmax]. Throws shufl::error "QUOTED: end of file" when the file
  /// ends, or "QUOTED: read error: STRERROR" when reading fails.
  std::uint64_t draw_max(std::uint64_t genmax);

  /// A uniform integer in [0, n); precondition n >= 1 (GNU `randint_choose`).
  std::uint64_t choose(std::uint64_t n) { return draw_max(n - 1); }

  /// Bytes consumed from the file so far (read ahead into the buffer does not count).
  std::uint64_t bytes_used() const noexcept { return used_; }

 private:
  std::uint8_t next_byte();
  int fd_;
  std::string quoted_name_;
  std::uint64_t value_ = 0, max_ = 0;
  std::array<std::uint8_t, 4096> buffer_{};
  std::size_t pos_ = 0, end_ = 0;
  std::uint64_t used_ = 0;
};

}  // namespace shufl
