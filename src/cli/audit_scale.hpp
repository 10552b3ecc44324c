// `shufl audit` over large inputs: a deck file mapped into memory (read by several threads, see
// audit/tally.hpp) and its SHA-256; counts files (--save-counts, --merge, --shard; audit/counts.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <string>
#include <string_view>

namespace shufl::cli {

/// A regular file mapped read-only into memory (private mapping, read ahead sequentially).
class mapped_file {
 public:
  /// The file at `path` ("-": standard input) when it is a regular file; nullopt for a pipe, a
  /// terminal or another kind of file (read those as a stream). Throws shufl::error "cannot open
  /// 'PATH': REASON".
  static std::optional<mapped_file> open(const std::string& path);
  mapped_file(mapped_file&& other) noexcept;
  mapped_file(const mapped_file&) = delete;
  mapped_file& operator=(const mapped_file&) = delete;
  mapped_file& operator=(mapped_file&&) = delete;
  ~mapped_file();
  [[nodiscard]] std::string_view text() const noexcept { return {data_, size_}; }
  /// Drops the whole pages inside `part` (a part of text() already read) from memory; a later
  /// read of them faults them in again from the page cache.
  void release(std::string_view part) const noexcept;
  /// Whether read_at can read the file (it has a descriptor of its own).
  [[nodiscard]] bool readable() const noexcept { return fd_ >= 0; }
  /// Reads up to `size` bytes at `offset` into `buffer` (pread: no page of the mapping touched);
  /// returns the bytes read (fewer at the end of the file or on an error).
  std::size_t read_at(std::size_t offset, char* buffer, std::size_t size) const;

 private:
  mapped_file(const char* data, std::size_t size, int fd = -1) noexcept : data_(data), size_(size), fd_(fd) {}
  const char* data_ = nullptr;
  std::size_t size_ = 0;
  int fd_ = -1;
};

/// SHA-256 of `bytes` as 64 lowercase hex digits (OpenSSL's libcrypto, which uses the CPU's SHA
/// instructions where it has them).
/// With `m`: reads the bytes in windows and releases each (mapped_file::release) once hashed.
std::string sha256_hex(std::string_view bytes, const mapped_file* m = nullptr);
/// SHA-256 of `part` (a part of file.text()) read with read_at rather than through the mapping,
/// so the thread that hashes neither faults the pages in nor drops them under the threads that
/// parse them; as sha256_hex(part, &file) when the file has no descriptor.
std::string sha256_hex(const mapped_file& file, std::string_view part);

/// --shard I/N: (I, N) with 0 <= I < N; shufl::error otherwise.
std::pair<std::uint64_t, std::uint64_t> parse_audit_shard(const std::string& text);

/// Shard `shard` of `shards` of a deck file: the whole lines that start in bytes
/// [floor(shard*S/shards), floor((shard+1)*S/shards)) of its S bytes (a line starts at byte 0
/// and after each newline), so the shards cut the file into contiguous runs of lines, every
/// line in exactly one, each shard about S/shards bytes. Returns the offset of the first byte.
std::pair<std::size_t, std::string_view> shard_lines(std::string_view text, std::uint64_t shard, std::uint64_t shards);

}  // namespace shufl::cli
