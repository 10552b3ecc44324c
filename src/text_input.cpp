// The input-text convention of text_input.hpp: UTF-8 checking, BOM, CRLF, streaming lines.
#include "shufl/text_input.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "shufl/error.hpp"

namespace shufl {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";
constexpr std::size_t kChunk = 65536;

bool continuation(unsigned char c) noexcept { return (c & 0xC0) == 0x80; }

// Length of the well-formed sequence at bytes[i], or 0 when it is not one (RFC 3629, table 3-7
// of the Unicode standard: the second byte's range depends on the first).
std::size_t valid_sequence(std::string_view bytes, std::size_t i) noexcept {
  const auto at = [&](std::size_t k) { return static_cast<unsigned char>(bytes[i + k]); };
  const unsigned char c = at(0);
  if (c < 0x80) return 1;
  std::size_t len = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;  // no overlong forms
    if (c == 0xED) hi = 0x9F;  // no surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;  // no overlong forms
    if (c == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (bytes.size() - i < len) return 0;
  if (at(1) < lo || at(1) > hi) return 0;
  for (std::size_t k = 2; k < len; ++k) {
    if (!continuation(at(k))) return 0;
  }
  return len;
}

std::string utf8_message(std::string_view name, std::uint64_t line, std::string_view text, std::size_t offset) {
  return fmt::format("{}: line {}: invalid UTF-8 (byte 0x{:02x} at column {}); text files must be UTF-8", name, line,
                     static_cast<unsigned char>(text[offset]), offset + 1);
}

[[noreturn]] void throw_utf8(std::string_view name, std::uint64_t line, std::string_view text, std::size_t offset) {
  throw error(utf8_message(name, line, text, offset));
}

std::string strerror_text(int e) { return std::strerror(e); }

}  // namespace

std::size_t first_invalid_utf8(std::string_view bytes) noexcept {
  std::size_t i = 0;
  while (i < bytes.size()) {
    // Fast paths over ASCII: 32 bytes at a time (four words, one test), 8, then one.
    for (; i + 32 <= bytes.size(); i += 32) {
      std::uint64_t w[4];
      std::memcpy(w, bytes.data() + i, 32);
      if (((w[0] | w[1] | w[2] | w[3]) & 0x8080808080808080ull) != 0) break;
    }
    if (i == bytes.size()) break;  // all ASCII, in whole blocks of 32 (no byte at i to read)
    if (i + 8 <= bytes.size()) {
      std::uint64_t w;
      std::memcpy(&w, bytes.data() + i, 8);
      if ((w & 0x8080808080808080ull) == 0) {
        i += 8;
        continue;
      }
    }
    if (static_cast<unsigned char>(bytes[i]) < 0x80) {
      ++i;
      continue;
    }
    const std::size_t len = valid_sequence(bytes, i);
    if (len == 0) return i;
    i += len;
  }
  return bytes.size();
}

bool is_valid_utf8(std::string_view bytes) noexcept { return first_invalid_utf8(bytes) == bytes.size(); }

std::size_t utf8_sequence_length(std::string_view bytes) noexcept {
  const std::size_t len = valid_sequence(bytes, 0);
  return len == 0 ? 1 : len;
}

std::string input_display_name(std::string_view path) {
  return path == "-" ? std::string("standard input") : fmt::format("'{}'", path);
}

text_reader::text_reader(std::string_view text, std::string name) : name_(std::move(name)), text_(text), eof_(true) {}

text_reader::text_reader(int fd, bool owns_fd, std::string name, std::uint64_t max_bytes)
    : fd_(fd), owns_fd_(owns_fd), name_(std::move(name)), max_bytes_(max_bytes) {}

text_reader::text_reader(byte_source source, std::string name) : name_(std::move(name)), source_(std::move(source)) {}

text_reader::text_reader(text_reader&& other) noexcept
    : fd_(other.fd_),
      owns_fd_(other.owns_fd_),
      name_(std::move(other.name_)),
      max_bytes_(other.max_bytes_),
      total_read_(other.total_read_),
      buffer_(std::move(other.buffer_)),
      size_(other.size_),
      capacity_(other.capacity_),
      pos_(other.pos_),
      eof_(other.eof_),
      line_number_(other.line_number_),
      observer_(std::move(other.observer_)),
      source_(std::move(other.source_)) {
  text_ = streaming() ? std::string_view(buffer_.get(), size_) : other.text_;
  other.size_ = other.capacity_ = 0;
  other.fd_ = -1;
  other.owns_fd_ = false;
}

void text_reader::observe_bytes(std::function<void(std::string_view)> observer) {
  observer_ = std::move(observer);
  if (!streaming() && observer_) observer_(text_);
}

text_reader::~text_reader() {
  if (owns_fd_ && fd_ >= 0) ::close(fd_);
}

text_reader text_reader::open(const std::string& path, std::uint64_t max_bytes) {
  if (path == "-") return text_reader(STDIN_FILENO, false, input_display_name(path), max_bytes);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw error(fmt::format("cannot open '{}': {}", path, strerror_text(errno)));
  return text_reader(fd, true, input_display_name(path), max_bytes);
}

bool text_reader::fill() {
  if (eof_) return false;
  if (pos_ > 0) {
    std::memmove(buffer_.get(), buffer_.get() + pos_, size_ - pos_);
    size_ -= pos_;
    pos_ = 0;
  }
  const std::size_t old = size_;
  if (capacity_ < old + kChunk) {
    const std::size_t grown = std::max(2 * capacity_, old + kChunk);
    auto bigger = std::make_unique_for_overwrite<char[]>(grown);
    if (old > 0) std::memcpy(bigger.get(), buffer_.get(), old);
    buffer_ = std::move(bigger);
    capacity_ = grown;
  }
  ssize_t got = 0;
  if (source_) {
    try {
      got = static_cast<ssize_t>(source_(buffer_.get() + old, kChunk));
    } catch (...) {
      text_ = std::string_view(buffer_.get(), size_);
      throw;
    }
  } else {
    do {
      got = ::read(fd_, buffer_.get() + old, kChunk);
    } while (got < 0 && errno == EINTR);
  }
  if (got < 0) {
    const int e = errno;
    text_ = std::string_view(buffer_.get(), size_);
    throw error(fmt::format("cannot read {}: {}", name_, strerror_text(e)));
  }
  size_ = old + static_cast<std::size_t>(got);
  text_ = std::string_view(buffer_.get(), size_);
  if (observer_ && got > 0) observer_(text_.substr(old));
  total_read_ += static_cast<std::uint64_t>(got);
  if (max_bytes_ != 0 && total_read_ > max_bytes_) {
    throw error(fmt::format("{} is larger than the limit of {} bytes", name_, max_bytes_));
  }
  if (got == 0) eof_ = true;
  return got > 0;
}

bool text_reader::next(std::string_view& line) {
  bad_.clear();
  for (;;) {
    const std::size_t nl = text_.find('\n', pos_);
    if (nl != std::string_view::npos) {
      line = text_.substr(pos_, nl - pos_);
      pos_ = nl + 1;
      break;
    }
    if (text_.size() - pos_ > text_max_line_bytes) {
      const std::string why = fmt::format("{}: line {} is longer than {} bytes", name_, line_number_ + 1, text_max_line_bytes);
      if (!lenient_) throw error(why);
      // Passed over up to its newline (or the end) without holding it.
      for (;;) {
        pos_ = text_.size();
        if (!streaming() || eof_ || !fill()) break;
        const std::size_t end = text_.find('\n', pos_);
        if (end != std::string_view::npos) {
          pos_ = end + 1;
          break;
        }
      }
      ++line_number_;
      bad_ = why;
      line = {};
      return true;
    }
    if (!streaming() || eof_) {
      if (pos_ >= text_.size()) return false;
      line = text_.substr(pos_);  // the last line, without its newline
      pos_ = text_.size();
      break;
    }
    fill();
  }
  ++line_number_;
  if (line.size() > text_max_line_bytes) {
    const std::string why = fmt::format("{}: line {} is longer than {} bytes", name_, line_number_, text_max_line_bytes);
    if (!lenient_) throw error(why);
    bad_ = why;
    line = {};
    return true;
  }
  if (line_number_ == 1 && line.starts_with(kBom)) line.remove_prefix(kBom.size());
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  const std::size_t bad = first_invalid_utf8(line);
  if (bad != line.size()) {
    if (!lenient_) throw_utf8(name_, line_number_, line, bad);
    bad_ = utf8_message(name_, line_number_, line, bad);
  }
  return true;
}

std::string_view check_text(std::string_view text, std::string_view name) {
  if (text.starts_with(kBom)) text.remove_prefix(kBom.size());
  const std::size_t bad = first_invalid_utf8(text);
  if (bad != text.size()) {
    const std::size_t line_start = text.rfind('\n', bad) == std::string_view::npos ? 0 : text.rfind('\n', bad) + 1;
    const auto line = static_cast<std::uint64_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(bad), '\n')) + 1;
    throw_utf8(name, line, text.substr(line_start), bad - line_start);
  }
  return text;
}

std::string read_file_bytes(const std::string& path, std::uint64_t max_bytes) {
  int fd = STDIN_FILENO;
  if (path != "-") {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw error(fmt::format("cannot open '{}': {}", path, strerror_text(errno)));
  }
  const std::string name = input_display_name(path);
  struct closer {
    int fd;
    ~closer() {
      if (fd != STDIN_FILENO) ::close(fd);
    }
  } close_at_end{fd};
  std::string data;
  for (;;) {
    const std::size_t old = data.size();
    data.resize(old + kChunk);
    ssize_t got = 0;
    do {
      got = ::read(fd, data.data() + old, kChunk);
    } while (got < 0 && errno == EINTR);
    if (got < 0) throw error(fmt::format("cannot read {}: {}", name, strerror_text(errno)));
    data.resize(old + static_cast<std::size_t>(got));
    if (max_bytes != 0 && data.size() > max_bytes) {
      throw error(fmt::format("{} is larger than the limit of {} bytes", name, max_bytes));
    }
    if (got == 0) break;
  }
  return data;
}

std::string read_text_file(const std::string& path, std::uint64_t max_bytes) {
  std::string data = read_file_bytes(path, max_bytes);
  const std::size_t bom = data.size() - check_text(data, input_display_name(path)).size();
  data.erase(0, bom);
  return data;
}

}  // namespace shufl
