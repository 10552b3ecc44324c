// The one input-text convention for every structured text file shufl reads (`bias --input`,
// `deck --cards-file`, `bias --merge`): UTF-8, an optional byte-order mark at the start (dropped),
// lines ending in LF or CRLF (the CR is dropped), a last line with or without its newline. Bytes
// that are not UTF-8 are an error naming the file, the line and the byte. Every read error
// carries the system's reason ("cannot read 'dir': Is a directory").
//
// Not for `shufl lines` input or `--random-source`: those are bytes, passed through untouched as
// GNU shuf does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace shufl {

/// Longest line a text_reader accepts (bytes, without the line end): 1 MiB. A longer line is an
/// error, so a file without newlines cannot make a reader hold more than this.
inline constexpr std::size_t text_max_line_bytes = std::size_t{1} << 20;

/// True when `bytes` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates
/// U+D800–U+DFFF, nothing above U+10FFFF). The empty string is valid.
bool is_valid_utf8(std::string_view bytes) noexcept;

/// Offset of the first byte of `bytes` that does not start a well-formed UTF-8 sequence (or
/// starts a truncated one); bytes.size() when all of it is valid.
std::size_t first_invalid_utf8(std::string_view bytes) noexcept;

/// Length in bytes of the UTF-8 sequence starting at `bytes[0]` (1 to 4), for text already
/// checked by is_valid_utf8. Precondition: !bytes.empty().
std::size_t utf8_sequence_length(std::string_view bytes) noexcept;

/// The name a file is shown by in messages: "standard input" for "-", else 'PATH'.
std::string input_display_name(std::string_view path);

/// Reads a structured text file line by line under the convention above, either from memory or
/// streaming from a file (then at most one line plus 64 KiB is held). Not copyable.
class text_reader {
 public:
  /// Reads `text` (already in memory); `name` is used in messages ("'counts.json'").
  text_reader(std::string_view text, std::string name);
  /// Opens `path` ("-" = standard input) for streaming. Throws shufl::error
  /// "cannot open 'PATH': REASON" (strerror). Read errors ("Is a directory") come from next().
  /// `max_bytes` bounds the whole file (0 = no bound): a larger file is an error.
  static text_reader open(const std::string& path, std::uint64_t max_bytes = 0);
  /// Streams from `source` instead of a file (`audit --follow`, which waits at the end of a
  /// growing file): source(buffer, size) stores up to `size` bytes in `buffer` and returns how
  /// many, 0 at the end of the input; it may block. What it throws passes through next().
  using byte_source = std::function<std::size_t(char* buffer, std::size_t size)>;
  text_reader(byte_source source, std::string name);
  text_reader(text_reader&& other) noexcept;
  text_reader(const text_reader&) = delete;
  text_reader& operator=(const text_reader&) = delete;
  text_reader& operator=(text_reader&&) = delete;
  ~text_reader();

  /// The next line without its line end (and without the BOM on line 1); false at the end.
  /// The view stays valid until the next call. Throws shufl::error
  /// "NAME: line N: invalid UTF-8 (byte 0xFF at column C)", "NAME: line N is longer than 1 MiB",
  /// "NAME is larger than the limit of X bytes" or "cannot read NAME: REASON".
  bool next(std::string_view& line);
  /// Lenient reading (`audit --skip-bad`): a line that is not UTF-8, or is longer than 1 MiB, is
  /// not an error. next() returns it (a long line as an empty view: its bytes are passed over, not
  /// held) and bad_line() says why, as the error would ("NAME: line N: invalid UTF-8 (...)");
  /// bad_line() is empty after a good line. Call before the first next().
  void set_lenient(bool on) noexcept { lenient_ = on; }
  /// Why the line next() returned last is bad (lenient reading only); empty when it is good.
  const std::string& bad_line() const noexcept { return bad_; }
  /// Hands every byte the reader takes in to `observer`, in order and unchanged (BOM and CR
  /// included), as it is read: from a file each read's bytes, in memory the whole text at once.
  /// Call before the first next(). For a checksum of the input as read (`audit`'s SHA-256).
  void observe_bytes(std::function<void(std::string_view)> observer);
  /// Number of the line last returned by next() (1-based).
  std::uint64_t line_number() const noexcept { return line_number_; }
  /// For a reader of a part of a text that starts after `lines` earlier lines (call before the
  /// first next()): line numbers in messages go on from there, and no BOM is looked for.
  void continue_after_lines(std::uint64_t lines) noexcept { line_number_ = lines; }
  /// In memory: the offset in the text of the first byte next() has not consumed.
  std::size_t offset() const noexcept { return pos_; }
  /// The name used in messages: 'PATH', "standard input", or the name given.
  const std::string& name() const noexcept { return name_; }

 private:
  text_reader(int fd, bool owns_fd, std::string name, std::uint64_t max_bytes);
  bool fill();  // reads more into buffer_; false at end of file

  int fd_ = -1;          // -1: in memory
  bool owns_fd_ = false;
  std::string name_;
  std::uint64_t max_bytes_ = 0;
  std::uint64_t total_read_ = 0;
  // Streaming: buffer_[0, size_) read, unconsumed from pos_ (grown without zero-filling).
  std::unique_ptr<char[]> buffer_;
  std::size_t size_ = 0, capacity_ = 0;
  std::string_view text_; // in memory, or a view of buffer_
  std::size_t pos_ = 0;
  bool eof_ = false;
  std::uint64_t line_number_ = 0;
  std::function<void(std::string_view)> observer_;
  byte_source source_;    // when set: read through it instead of fd_
  bool lenient_ = false;  // set_lenient
  std::string bad_;       // bad_line
  [[nodiscard]] bool streaming() const noexcept { return fd_ >= 0 || source_; }
};

/// Reads a whole structured text file ("-" = standard input) under the convention: the BOM
/// dropped, the rest checked to be UTF-8 (CR LF is left as it is: JSON treats CR as space).
/// Throws shufl::error "cannot open 'PATH': REASON", "cannot read 'PATH': REASON",
/// "'PATH' is larger than the limit of X bytes" (when max_bytes > 0), or
/// "'PATH': line N: invalid UTF-8 (byte 0xFF at column C)".
std::string read_text_file(const std::string& path, std::uint64_t max_bytes = 0);

/// The same file's bytes as they are (no BOM dropped, no UTF-8 check), for a reader that checks
/// them itself and names what the file should have been. Throws the same open/read/limit errors.
std::string read_file_bytes(const std::string& path, std::uint64_t max_bytes = 0);

/// Same checks on text already in memory (`name` in messages): returns it without its BOM.
std::string_view check_text(std::string_view text, std::string_view name);

}  // namespace shufl
