// Ed25519 keys and signatures (audit/signature.hpp), on libsodium.
#include "shufl/audit/signature.hpp"

#include <sodium.h>

#include <cstring>
#include <fmt/format.h>

#include "shufl/error.hpp"

namespace shufl::audit {

namespace {

// The DER prefixes of RFC 8410's structures for Ed25519 (OID 1.3.101.112), followed by the 32 key
// bytes: PKCS#8 PrivateKeyInfo (version 0, no attributes, no public key) and SubjectPublicKeyInfo.
constexpr unsigned char kPkcs8Prefix[16] = {0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06,
                                            0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20};
constexpr unsigned char kSpkiPrefix[12] = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00};
constexpr std::size_t kMaxPem = 64 * 1024;

void start_sodium() {
  if (sodium_init() < 0) throw error("libsodium could not start");
}

std::string pem(const char* label, const unsigned char* prefix, std::size_t prefix_size, const unsigned char* key) {
  unsigned char der[48];
  std::memcpy(der, prefix, prefix_size);
  std::memcpy(der + prefix_size, key, 32);
  return fmt::format("-----BEGIN {0}-----\n{1}\n-----END {0}-----\n", label, base64(der, prefix_size + 32));
}

// The 32 key bytes of a PEM block `label` whose DER is `prefix` + 32 bytes; false otherwise.
// Lines may end with CR LF; text before and after the block is ignored (as OpenSSL does).
bool read_pem(std::string_view text, std::string_view label, const unsigned char* prefix, std::size_t prefix_size,
              unsigned char* key) {
  if (text.size() > kMaxPem) return false;
  const std::string begin = fmt::format("-----BEGIN {}-----", label), end = fmt::format("-----END {}-----", label);
  const auto b = text.find(begin);
  if (b == std::string_view::npos) return false;
  const auto e = text.find(end, b + begin.size());
  if (e == std::string_view::npos) return false;
  std::string body;
  for (const char c : text.substr(b + begin.size(), e - b - begin.size())) {
    if (c != '\n' && c != '\r' && c != ' ' && c != '\t') body += c;
  }
  unsigned char der[48];
  if (prefix_size + 32 > sizeof der || !from_base64(body, der, prefix_size + 32)) return false;
  if (std::memcmp(der, prefix, prefix_size) != 0) return false;
  std::memcpy(key, der + prefix_size, 32);
  return true;
}

}  // namespace

std::string base64(const unsigned char* data, std::size_t size) {
  std::string out(sodium_base64_encoded_len(size, sodium_base64_VARIANT_ORIGINAL), '\0');
  sodium_bin2base64(out.data(), out.size(), data, size, sodium_base64_VARIANT_ORIGINAL);
  out.resize(std::strlen(out.c_str()));
  return out;
}

bool from_base64(std::string_view text, unsigned char* out, std::size_t size) noexcept {
  std::size_t got = 0;
  const char* end = nullptr;
  if (sodium_base642bin(out, size, text.data(), text.size(), nullptr, &got, &end, sodium_base64_VARIANT_ORIGINAL) != 0) {
    return false;
  }
  return got == size && end == text.data() + text.size();
}

key_pair_files generate_key_pair() {
  start_sodium();
  secret_key k;
  randombytes_buf(k.seed.data(), k.seed.size());
  unsigned char sk[crypto_sign_SECRETKEYBYTES];
  crypto_sign_seed_keypair(k.pub.bytes.data(), sk, k.seed.data());
  sodium_memzero(sk, sizeof sk);
  key_pair_files f;
  f.secret_pem = pem("PRIVATE KEY", kPkcs8Prefix, sizeof kPkcs8Prefix, k.seed.data());
  f.public_pem = pem("PUBLIC KEY", kSpkiPrefix, sizeof kSpkiPrefix, k.pub.bytes.data());
  f.pub = k.pub;
  sodium_memzero(k.seed.data(), k.seed.size());
  return f;
}

secret_key parse_secret_key(std::string_view text) {
  start_sodium();
  secret_key k;
  if (!read_pem(text, "PRIVATE KEY", kPkcs8Prefix, sizeof kPkcs8Prefix, k.seed.data())) {
    throw error("not an Ed25519 private key (PKCS#8 PEM)");
  }
  unsigned char sk[crypto_sign_SECRETKEYBYTES];
  crypto_sign_seed_keypair(k.pub.bytes.data(), sk, k.seed.data());
  sodium_memzero(sk, sizeof sk);
  return k;
}

public_key parse_public_key(std::string_view text) {
  public_key k;
  if (!read_pem(text, "PUBLIC KEY", kSpkiPrefix, sizeof kSpkiPrefix, k.bytes.data())) {
    throw error("not an Ed25519 public key (PEM)");
  }
  return k;
}

std::string fingerprint(const public_key& key) {
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, key.bytes.data(), key.bytes.size());
  std::string hex;
  for (const unsigned char b : digest) hex += fmt::format("{:02x}", b);
  return hex;
}

signature sign(std::string_view message, const secret_key& key) {
  start_sodium();
  unsigned char pk[crypto_sign_PUBLICKEYBYTES], sk[crypto_sign_SECRETKEYBYTES];
  crypto_sign_seed_keypair(pk, sk, key.seed.data());
  signature sig{};
  crypto_sign_detached(sig.data(), nullptr, reinterpret_cast<const unsigned char*>(message.data()), message.size(), sk);
  sodium_memzero(sk, sizeof sk);
  return sig;
}

bool verify(std::string_view message, const signature& sig, const public_key& key) noexcept {
  if (sodium_init() < 0) return false;
  return crypto_sign_verify_detached(sig.data(), reinterpret_cast<const unsigned char*>(message.data()), message.size(),
                                     key.bytes.data()) == 0;
}

}  // namespace shufl::audit
