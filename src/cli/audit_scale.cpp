// `shufl audit` over large inputs (audit_scale.hpp): the mapped deck file and its SHA-256.
#include "audit_scale.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <openssl/evp.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <algorithm>

#include "common.hpp"
#include "shufl/error.hpp"

namespace shufl::cli {

std::optional<mapped_file> mapped_file::open(const std::string& path) {
  int fd = STDIN_FILENO;
  if (path != "-") {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw error(fmt::format("cannot open '{}': {}", path, std::strerror(errno)));
  }
  struct closer {
    int fd;
    bool owned;
    ~closer() {
      if (owned) ::close(fd);
    }
  } close_it{fd, path != "-"};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  // Standard input redirected from a file may start past its beginning (a shell that read part).
  const off_t at = path == "-" ? ::lseek(fd, 0, SEEK_CUR) : 0;
  if (at != 0) return std::nullopt;
  const auto size = static_cast<std::size_t>(st.st_size);
  if (size == 0) return mapped_file(nullptr, 0);
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (p == MAP_FAILED) return std::nullopt;  // read as a stream instead
  ::madvise(p, size, MADV_SEQUENTIAL);
  // A descriptor of its own for read_at (-1 when none: then the mapping is hashed instead).
  return mapped_file(static_cast<const char*>(p), size, ::fcntl(fd, F_DUPFD_CLOEXEC, 0));
}

mapped_file::mapped_file(mapped_file&& other) noexcept : data_(other.data_), size_(other.size_), fd_(other.fd_) {
  other.data_ = nullptr;
  other.size_ = 0;
  other.fd_ = -1;
}

mapped_file::~mapped_file() {
  if (data_ != nullptr) ::munmap(const_cast<char*>(data_), size_);
  if (fd_ >= 0) ::close(fd_);
}

std::size_t mapped_file::read_at(std::size_t offset, char* buffer, std::size_t size) const {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t got = ::pread(fd_, buffer + done, size - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    done += static_cast<std::size_t>(got);
  }
  return done;
}

void mapped_file::release(std::string_view part) const noexcept {
  static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = (reinterpret_cast<std::uintptr_t>(part.data()) + page - 1) / page * page;
  const auto end = (reinterpret_cast<std::uintptr_t>(part.data()) + part.size()) / page * page;
  if (data_ != nullptr && end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

namespace {

// A digest's bytes in lowercase hexadecimal.
std::string hex_of(const unsigned char* digest, unsigned length) {
  std::string out;
  out.reserve(2 * std::size_t{length});
  constexpr char hex[] = "0123456789abcdef";
  for (unsigned i = 0; i < length; ++i) {
    out += hex[digest[i] >> 4];
    out += hex[digest[i] & 15];
  }
  return out;
}

}  // namespace

std::string sha256_hex(std::string_view bytes, const mapped_file* m) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  bool ok = ctx != nullptr && EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr) == 1;
  constexpr std::size_t kWindow = std::size_t{8} << 20;
  for (std::size_t at = 0; ok && at < bytes.size(); at += kWindow) {
    const std::string_view window = bytes.substr(at, kWindow);
    ok = EVP_DigestUpdate(ctx, window.data(), window.size()) == 1;
    if (m != nullptr) m->release(window);
  }
  ok = ok && EVP_DigestFinal_ex(ctx, digest, &length) == 1 && length == 32;
  EVP_MD_CTX_free(ctx);
  if (!ok) throw error("SHA-256 failed (libcrypto)");
  return hex_of(digest, length);
}

std::string sha256_hex(const mapped_file& file, std::string_view part) {
  if (!file.readable()) return sha256_hex(part, &file);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  bool ok = ctx != nullptr && EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr) == 1;
  constexpr std::size_t kBuffer = std::size_t{1} << 20;
  const auto buffer = std::make_unique_for_overwrite<char[]>(kBuffer);
  const auto begin = static_cast<std::size_t>(part.data() - file.text().data());
  for (std::size_t at = 0; ok && at < part.size(); at += kBuffer) {
    const std::size_t want = std::min(kBuffer, part.size() - at);
    // The mapping shows the same bytes; a short read means the file shrank while mapped.
    ok = file.read_at(begin + at, buffer.get(), want) == want &&
         EVP_DigestUpdate(ctx, buffer.get(), want) == 1;
  }
  ok = ok && EVP_DigestFinal_ex(ctx, digest, &length) == 1 && length == 32;
  EVP_MD_CTX_free(ctx);
  if (!ok) throw error("SHA-256 failed (libcrypto, or the file changed while read)");
  return hex_of(digest, length);
}

std::pair<std::uint64_t, std::uint64_t> parse_audit_shard(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) throw error(fmt::format("--shard: expected I/N (shard I of N, 0 <= I < N), got '{}'", text));
  const auto i = parse_uint("--shard", text.substr(0, slash));
  const auto n = parse_uint("--shard", text.substr(slash + 1));
  if (n == 0 || i >= n) throw error(fmt::format("--shard {}: shards are numbered 0 to N-1 (0 <= I < N)", text));
  if (n > (std::uint64_t{1} << 32)) throw error(fmt::format("--shard {}: at most 2^32 shards", text));
  return {i, n};
}

std::pair<std::size_t, std::string_view> shard_lines(std::string_view text, std::uint64_t shard, std::uint64_t shards) {
  const auto at = [&](std::uint64_t k) -> std::size_t {
    // floor(S·k/N) without overflow (N ≤ 2^32, so r·k < 2^64).
    const std::uint64_t size = text.size(), q = size / shards, r = size % shards;
    const auto byte = static_cast<std::size_t>(q * k + r * k / shards);
    if (byte == 0 || byte >= text.size()) return std::min(byte, text.size());
    const std::size_t nl = text.find('\n', byte - 1);  // a line starts at byte when byte - 1 is a newline
    return nl == std::string_view::npos ? text.size() : nl + 1;
  };
  const std::size_t begin = at(shard), end = at(shard + 1);
  return {begin, text.substr(begin, end - begin)};
}

}  // namespace shufl::cli
