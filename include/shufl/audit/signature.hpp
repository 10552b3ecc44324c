// Ed25519 keys and signatures for signed audit reports (`shufl audit --keygen/--sign/--verify`),
// on libsodium (crypto_sign_*: RFC 8032 Ed25519, pure, no pre-hash), in files OpenSSL 3 reads:
// the secret key as PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----", RFC 8410: the 32-byte seed) and
// the public key as SubjectPublicKeyInfo PEM ("-----BEGIN PUBLIC KEY-----", RFC 8410), so
// `openssl pkeyutl -verify -rawin -pubin -inkey NAME.pub` checks what shufl signs. The
// fingerprint of a key is the SHA-256 of its 32 public key bytes in hex, as
// `openssl pkey -pubin -in NAME.pub -outform DER | tail -c 32 | sha256sum` prints it.
#pragma once

#include <array>
#include <string>
#include <string_view>

namespace shufl::audit {

/// An Ed25519 public key: its 32 bytes (RFC 8032 encoding).
struct public_key {
  std::array<unsigned char, 32> bytes{};
};

/// An Ed25519 secret key: the 32-byte seed and the public key it gives.
struct secret_key {
  std::array<unsigned char, 32> seed{};
  public_key pub;
};

/// A 64-byte Ed25519 signature.
using signature = std::array<unsigned char, 64>;

/// The two files of a new key pair, as text.
struct key_pair_files {
  std::string secret_pem;  ///< PKCS#8 PEM of the seed (keep it private: mode 0600)
  std::string public_pem;  ///< SubjectPublicKeyInfo PEM
  public_key pub;
};

/// A new key pair from the operating system's random source (libsodium randombytes_buf).
/// Throws shufl::error when libsodium cannot start.
key_pair_files generate_key_pair();

/// `shufl audit --keygen NAME` as a library call: a new key pair (generate_key_pair) written to
/// NAME (secret, mode 0600) and NAME.pub (mode 0644), whatever the umask, each created new and
/// synced. Never overwrites: throws shufl::error "--keygen: 'PATH' exists: a key is never
/// overwritten" (a symbolic link counts) before writing anything; "--keygen: cannot create
/// 'PATH': REASON" or "cannot write ..." when a file fails, after removing what it wrote.
/// Returns the pair (its public key gives the fingerprint).
key_pair_files write_key_pair(const std::string& name);

/// Reads a secret key file's text (PKCS#8 PEM of an Ed25519 seed, as generate_key_pair or
/// `openssl genpkey -algorithm ed25519` writes it). Throws shufl::error "not an Ed25519 private
/// key (PKCS#8 PEM)" for anything else. At most 64 KiB of text is looked at.
secret_key parse_secret_key(std::string_view pem);

/// Reads a public key file's text (SubjectPublicKeyInfo PEM of an Ed25519 key). Throws
/// shufl::error "not an Ed25519 public key (PEM)" for anything else.
public_key parse_public_key(std::string_view pem);

/// The key's fingerprint: SHA-256 of its 32 bytes, 64 lowercase hex digits.
std::string fingerprint(const public_key& key);

/// The Ed25519 signature of `message` (all its bytes) with `key`.
signature sign(std::string_view message, const secret_key& key);

/// Whether `sig` is `key`'s Ed25519 signature of `message`.
bool verify(std::string_view message, const signature& sig, const public_key& key) noexcept;

/// Standard base64 (RFC 4648, with padding) of bytes; and back: false for anything that is
/// not exactly such text of `out.size()` bytes.
std::string base64(const unsigned char* data, std::size_t size);
bool from_base64(std::string_view text, unsigned char* out, std::size_t size) noexcept;

}  // namespace shufl::audit
