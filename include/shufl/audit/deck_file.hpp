// A deck file as `shufl audit` reads it when it is a regular file: read at offsets by several
// threads (audit/tally.hpp) while another computes its SHA-256, cut into shards of whole lines
// (`--shard I/N`), and checked to be the same file from the first byte read to the last.
//
// The file is read with pread(2), never through a memory mapping: a file truncated while it is
// read (a log rotated with copytruncate) makes a mapping's pages raise SIGBUS, while a short
// read is an error like any other. Every change during the read (truncated, rewritten, appended
// to) ends it with one error, "NAME: the file changed while it was read ...".
#pragma once

#include <cstddef>
#include <cstdint>
#include <ctime>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "shufl/audit/tally.hpp"

namespace shufl::audit {

/// A regular file opened for reading at offsets; its size and modification time are those of
/// open(). Movable, not copyable; closes its descriptor.
class deck_file {
 public:
  /// The file at `path` ("-": standard input) when it is a regular file read from its first
  /// byte; nullopt for a pipe, a terminal, another kind of file, or standard input already
  /// advanced (read those as a stream). Throws shufl::error "cannot open 'PATH': REASON".
  static std::optional<deck_file> open(const std::string& path);
  deck_file(deck_file&& other) noexcept;
  deck_file(const deck_file&) = delete;
  deck_file& operator=(const deck_file&) = delete;
  deck_file& operator=(deck_file&&) = delete;
  ~deck_file();

  /// Bytes of the file when it was opened.
  [[nodiscard]] std::uint64_t size() const noexcept { return size_; }
  /// The name in messages: 'PATH' or "standard input".
  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  /// Reads min(size, size() - offset) bytes at `offset` into `buffer` (0 when offset >= size())
  /// and returns their number. Throws shufl::error changed_message() when the file holds fewer
  /// bytes than it did at open() (it shrank), "cannot read NAME: REASON" on an I/O error.
  /// Safe to call from several threads at once.
  std::size_t read_at(std::uint64_t offset, char* buffer, std::size_t size) const;
  /// Throws shufl::error changed_message() when the file's size or modification time differ
  /// from open()'s; call it after the last byte was read (and when a read failed, before its
  /// error, which a changed file explains).
  void check_unchanged() const;
  /// "NAME: the file changed while it was read (truncated, rewritten or appended to, e.g. a log
  /// rotated with copytruncate): audit a copy or a rotated file".
  [[nodiscard]] std::string changed_message() const;

 private:
  deck_file(int fd, bool owned, std::string name, std::uint64_t size, timespec mtime) noexcept
      : fd_(fd), owned_(owned), name_(std::move(name)), size_(size), mtime_(mtime) {}
  int fd_ = -1;
  bool owned_ = false;
  std::string name_;
  std::uint64_t size_ = 0;
  timespec mtime_{};
};

/// Bytes [begin, end) of a file.
struct byte_range {
  std::uint64_t begin = 0, end = 0;
  [[nodiscard]] std::uint64_t size() const noexcept { return end - begin; }
  friend bool operator==(const byte_range&, const byte_range&) = default;
};

/// SHA-256 (FIPS 180-4, OpenSSL's libcrypto: the CPU's SHA instructions where it has them) of
/// `bytes` as 64 lowercase hex digits. Throws shufl::error when libcrypto fails.
std::string sha256_hex(std::string_view bytes);
/// SHA-256 of bytes `range` of `file`, read with read_at; throws what read_at throws.
std::string sha256_hex(const deck_file& file, byte_range range);

/// The identity of the file's content for merges of counts files: SHA-256 (64 hex digits) of
/// its first min(S, 2^20) bytes followed by its last min(S, 2^20) bytes, S = file.size() (two
/// reads of a MiB, so a shard costs no more than its own bytes). Throws what read_at throws.
std::string deck_file_id(const deck_file& file);

/// Shard `shard` of `shards` (0 <= shard < shards <= 2^32) of a file of S = file.size() bytes:
/// the whole lines that start in bytes [floor(shard*S/shards), floor((shard+1)*S/shards)) (a
/// line starts at byte 0 and after each newline), so the shards cut the file into contiguous
/// runs of lines, every line in exactly one, each about S/shards bytes.
byte_range shard_range(const deck_file& file, std::uint64_t shard, std::uint64_t shards);

/// The battery's sums over bytes `range` of `file` and the SHA-256 of those bytes, computed at
/// once (tally_text_at on options.threads threads, the hash on one more). `name` names the input
/// in messages; `allow_empty` and `on_inferred` as in tally_text. Throws the first error in input
/// order, or changed_message() when the file changed while it was read (checked at the end, and
/// before any other error).
std::pair<audit_tally, std::string> tally_deck_file(const deck_file& file, byte_range range, const std::string& name,
                                                    const reader_options& reader, const audit_options& options,
                                                    bool allow_empty = false,
                                                    const std::function<void(const std::string&)>& on_inferred = {});

}  // namespace shufl::audit
