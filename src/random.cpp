#include "shufl/random.hpp"

#include <sodium.h>

#include <cstring>

namespace shufl {

namespace {

// libsodium must be initialised once before use; sodium_init is idempotent and thread-safe.
void ensure_sodium() noexcept {
  static const bool ok = sodium_init() >= 0;
  (void)ok;
}

std::uint64_t load_le64(const std::uint8_t* p) noexcept {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

void store_le64(std::uint8_t* p, std::uint64_t v) noexcept {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

constexpr std::string_view kEngineNames[] = {"chacha20", "xoshiro256pp", "mt19937", "minstd"};

}  // namespace

seed_key key_from_seed(std::string_view seed) {
  ensure_sodium();
  seed_key key;
  crypto_generichash(key.bytes.data(), key.bytes.size(),
                     reinterpret_cast<const unsigned char*>(seed.data()), seed.size(), nullptr, 0);
  return key;
}

seed_key key_from_os() {
  ensure_sodium();
  seed_key key;
  randombytes_buf(key.bytes.data(), key.bytes.size());
  return key;
}

seed_key derive_key(const seed_key& key, std::string_view domain, std::uint64_t stream) {
  ensure_sodium();
  std::string message(domain);
  message.push_back('\0');
  std::uint8_t le[8];
  store_le64(le, stream);
  message.append(reinterpret_cast<const char*>(le), 8);
  seed_key out;
  crypto_generichash(out.bytes.data(), out.bytes.size(),
                     reinterpret_cast<const unsigned char*>(message.data()), message.size(),
                     key.bytes.data(), key.bytes.size());
  return out;
}

std::string to_hex(const seed_key& key) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(64);
  for (const auto b : key.bytes) {
    out.push_back(digits[b >> 4]);
    out.push_back(digits[b & 15]);
  }
  return out;
}

engine_kind parse_engine(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kEngineNames); ++i) {
    if (name == kEngineNames[i]) return static_cast<engine_kind>(i);
  }
  if (name == "xoshiro" || name == "xoshiro256++") return engine_kind::xoshiro256pp;
  throw unknown_name_error("engine", name, kEngineNames);
}

std::string_view engine_name(engine_kind kind) noexcept {
  return kEngineNames[static_cast<std::size_t>(kind)];
}

std::span<const std::string_view> engine_names() noexcept { return kEngineNames; }

double engine_seed_bits(engine_kind kind) noexcept {
  switch (kind) {
    case engine_kind::mt19937: return 32.0;
    case engine_kind::minstd: return 30.999999999328193;  // log2(2^31 - 2)
    default: return 256.0;
  }
}

chacha20_engine::chacha20_engine(const seed_key& key, std::uint64_t stream) noexcept
    : key_(key.bytes) {
  ensure_sodium();
  store_le64(nonce_.data(), stream);
}

void chacha20_engine::refill() noexcept {
  auto* bytes = reinterpret_cast<unsigned char*>(buffer_.data());
  std::memset(bytes, 0, sizeof buffer_);
  crypto_stream_chacha20_xor_ic(bytes, bytes, sizeof buffer_, nonce_.data(), block_, key_.data());
  block_ += sizeof buffer_ / 64;
  // The keystream is defined as bytes; read words little-endian whatever the host byte order.
  for (auto& word : buffer_) {
    std::uint8_t raw[8];
    std::memcpy(raw, &word, 8);
    word = load_le64(raw);
  }
  pos_ = 0;
}

xoshiro256pp_engine::xoshiro256pp_engine(const seed_key& key, std::uint64_t stream) noexcept {
  const seed_key k = derive_key(key, "xoshiro256pp", stream);
  for (std::size_t i = 0; i < 4; ++i) s_[i] = load_le64(k.bytes.data() + 8 * i);
  if ((s_[0] | s_[1] | s_[2] | s_[3]) == 0) s_[0] = 0x9E3779B97F4A7C15ULL;
}

mt19937_engine::mt19937_engine(const seed_key& key, std::uint64_t stream) noexcept {
  const seed_key k = derive_key(key, "mt19937", stream);
  mt_.seed(static_cast<std::uint32_t>(load_le64(k.bytes.data())));
}

minstd_engine::minstd_engine(const seed_key& key, std::uint64_t stream) noexcept {
  const seed_key k = derive_key(key, "minstd", stream);
  // std::minstd_rand maps a seed of 0 (mod m) to 1; keep 31 bits as the design says.
  lcg_.seed(static_cast<std::uint32_t>(load_le64(k.bytes.data()) & 0x7FFFFFFF));
}

void os_engine::refill() noexcept {
  ensure_sodium();
  randombytes_buf(buffer_.data(), sizeof buffer_);
  pos_ = 0;
}

}  // namespace shufl

// ---------------------------------------------------------------------------------------------
// GNU random-source reader.
// ---------------------------------------------------------------------------------------------

#include <unistd.h>

#include <cerrno>

namespace shufl {

std::uint8_t gnu_random_source::next_byte() {
  if (pos_ == end_) {
    ssize_t n = 0;
    do {
      n = ::read(fd_, buffer_.data(), buffer_.size());
    } while (n < 0 && errno == EINTR);
    if (n < 0) throw error(quoted_name_ + ": read error: " + std::strerror(errno));
    if (n == 0) throw error(quoted_name_ + ": end of file");
    pos_ = 0;
    end_ = static_cast<std::size_t>(n);
  }
  ++used_;
  return buffer_[pos_++];
}

std::uint64_t gnu_random_source::draw_max(std::uint64_t genmax) {
  std::uint64_t value = value_;
  std::uint64_t max = max_;
  const std::uint64_t choices = genmax + 1;  // 0 only for genmax = 2^64 - 1, where max == genmax
  for (;;) {
    if (max < genmax) {
      // GNU reads all the bytes it needs with one call; on a short file it fails before using any.
      std::size_t needed = 0;
      std::uint64_t probe = max;
      do {
        probe = (probe << 8) + 255;
        ++needed;
      } while (probe < genmax);
      std::uint8_t bytes[8];
      for (std::size_t i = 0; i < needed; ++i) bytes[i] = next_byte();
      std::size_t i = 0;
      do {
        value = (value << 8) + bytes[i++];
        max = (max << 8) + 255;
      } while (max < genmax);
    }
    if (max == genmax) {
      value_ = max_ = 0;
      return value;
    }
    const std::uint64_t excess = max - genmax;
    const std::uint64_t unusable = excess % choices;
    const std::uint64_t last_usable = max - unusable;
    const std::uint64_t reduced = value % choices;
    if (value <= last_usable) {
      value_ = value / choices;
      max_ = excess / choices;
      return reduced;
    }
    value = reduced;
    max = unusable - 1;
  }
}

}  // namespace shufl
