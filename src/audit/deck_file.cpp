// A deck file read at offsets (audit/deck_file.hpp): pread, never a mapping, so a file that
// shrinks while read is an error and not SIGBUS; its SHA-256; its shards of whole lines.
#include "shufl/audit/deck_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <memory>
#include <thread>
#include <vector>

#include "shufl/error.hpp"
#include "shufl/text_input.hpp"

namespace shufl::audit {

std::optional<deck_file> deck_file::open(const std::string& path) {
  const bool owned = path != "-";
  int fd = STDIN_FILENO;
  if (owned) {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw error(fmt::format("cannot open '{}': {}", path, std::strerror(errno)));
  }
  struct stat st {};
  // Standard input redirected from a file may start past its beginning (a shell that read part).
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (!owned && ::lseek(fd, 0, SEEK_CUR) != 0)) {
    if (owned) ::close(fd);
    return std::nullopt;
  }
  return deck_file(fd, owned, input_display_name(path), static_cast<std::uint64_t>(st.st_size), st.st_mtim);
}

deck_file::deck_file(deck_file&& other) noexcept
    : fd_(other.fd_), owned_(other.owned_), name_(std::move(other.name_)), size_(other.size_), mtime_(other.mtime_) {
  other.fd_ = -1;
  other.owned_ = false;
}

deck_file::~deck_file() {
  if (owned_ && fd_ >= 0) ::close(fd_);
}

std::string deck_file::changed_message() const {
  return fmt::format("{}: the file changed while it was read (truncated, rewritten or appended to, e.g. a log rotated "
                     "with copytruncate): audit a copy or a rotated file",
                     name_);
}

std::size_t deck_file::read_at(std::uint64_t offset, char* buffer, std::size_t size) const {
  if (offset >= size_) return 0;
  const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(size, size_ - offset));
  std::size_t done = 0;
  while (done < want) {
    const ssize_t got = ::pread(fd_, buffer + done, want - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw error(fmt::format("cannot read {}: {}", name_, std::strerror(errno)));
    if (got == 0) throw error(changed_message());  // fewer bytes than at open: it shrank
    done += static_cast<std::size_t>(got);
  }
  return done;
}

void deck_file::check_unchanged() const {
  struct stat st {};
  if (::fstat(fd_, &st) != 0) throw error(fmt::format("cannot read {}: {}", name_, std::strerror(errno)));
  if (static_cast<std::uint64_t>(st.st_size) != size_ || st.st_mtim.tv_sec != mtime_.tv_sec ||
      st.st_mtim.tv_nsec != mtime_.tv_nsec) {
    throw error(changed_message());
  }
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

// SHA-256 of the bytes `feed` hands to its argument, in order.
template <typename Feed>
std::string sha256_of(Feed&& feed) {
  struct context {
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    ~context() { EVP_MD_CTX_free(ctx); }
  } c;
  bool ok = c.ctx != nullptr && EVP_DigestInit_ex(c.ctx, EVP_sha256(), nullptr) == 1;
  feed([&](const char* data, std::size_t size) { ok = ok && EVP_DigestUpdate(c.ctx, data, size) == 1; });
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  ok = ok && EVP_DigestFinal_ex(c.ctx, digest, &length) == 1 && length == 32;
  if (!ok) throw error("SHA-256 failed (libcrypto)");
  return hex_of(digest, length);
}

}  // namespace

std::string sha256_hex(std::string_view bytes) {
  return sha256_of([&](const auto& update) { update(bytes.data(), bytes.size()); });
}

std::string sha256_hex(const deck_file& file, byte_range range) {
  return sha256_of([&](const auto& update) {
    constexpr std::size_t kBuffer = std::size_t{1} << 20;
    const auto buffer = std::make_unique_for_overwrite<char[]>(kBuffer);
    for (std::uint64_t at = range.begin; at < range.end;) {
      const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(kBuffer, range.end - at));
      const std::size_t got = file.read_at(at, buffer.get(), want);
      if (got == 0) throw error(file.changed_message());  // a range past the end
      update(buffer.get(), got);
      at += got;
    }
  });
}

std::string deck_file_id(const deck_file& file) {
  constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
  const std::uint64_t edge = std::min(file.size(), kMiB);
  return sha256_of([&](const auto& update) {
    std::vector<char> buffer(static_cast<std::size_t>(edge));
    for (const std::uint64_t at : {std::uint64_t{0}, file.size() - edge}) {
      if (file.read_at(at, buffer.data(), buffer.size()) != buffer.size()) throw error(file.changed_message());
      update(buffer.data(), buffer.size());
    }
  });
}

byte_range shard_range(const deck_file& file, std::uint64_t shard, std::uint64_t shards) {
  const std::uint64_t size = file.size();
  const read_at_function read = [&file](std::uint64_t at, char* buffer, std::size_t n) { return file.read_at(at, buffer, n); };
  const auto at = [&](std::uint64_t k) {
    // floor(S·k/N) without overflow (N ≤ 2^32, so r·k < 2^64).
    const std::uint64_t q = size / shards, r = size % shards;
    return line_start_at(read, size, q * k + r * k / shards);
  };
  return {at(shard), at(shard + 1)};
}

std::pair<audit_tally, std::string> tally_deck_file(const deck_file& file, byte_range range, const std::string& name,
                                                    const reader_options& reader, const audit_options& options,
                                                    bool allow_empty,
                                                    const std::function<void(const std::string&)>& on_inferred) {
  // Ranges read in parallel do not know their decks' places: batches need audit_decks.
  if (options.batch_size > 0) throw error("audit: --batch-size needs the decks in input order (audit_decks), not ranges");
  std::string sha;
  std::optional<audit_tally> tally;
  std::exception_ptr hash_error, tally_error;
  {
    std::thread hasher([&] {
      try {
        sha = sha256_hex(file, range);
      } catch (...) {
        hash_error = std::current_exception();
      }
    });
    try {
      const read_at_function read = [&file, base = range.begin](std::uint64_t at, char* buffer, std::size_t size) {
        return file.read_at(base + at, buffer, size);
      };
      tally.emplace(tally_text_at(range.size(), read, name, 0, reader, options, allow_empty, on_inferred));
    } catch (...) {
      tally_error = std::current_exception();
    }
    hasher.join();
  }
  // A file that changed explains any error its bytes caused (a line cut short: "unknown card").
  file.check_unchanged();
  if (tally_error) std::rethrow_exception(tally_error);
  if (hash_error) std::rethrow_exception(hash_error);
  return {std::move(*tally), std::move(sha)};
}

}  // namespace shufl::audit
