#include "shufl/lines/records.hpp"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <limits>
#include <new>
#include <utility>

#include "shufl/error.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace shufl::lines {

namespace {

constexpr std::size_t kReadSize = std::size_t{1} << 20;
constexpr std::uint64_t kMapWindow = std::uint64_t{4} << 20;

[[noreturn]] void throw_read_error(int e) {
  throw error(std::string("read error: ") + std::strerror(e));
}

// read(2) restarted on EINTR; throws on errors.
std::size_t read_some(int fd, char* p, std::size_t n) {
  for (;;) {
    const ssize_t got = ::read(fd, p, n);
    if (got >= 0) return static_cast<std::size_t>(got);
    if (errno != EINTR) throw_read_error(errno);
  }
}

}  // namespace

byte_buffer::~byte_buffer() { std::free(data_); }

byte_buffer::byte_buffer(byte_buffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)) {}

byte_buffer& byte_buffer::operator=(byte_buffer&& other) noexcept {
  if (this != &other) {
    std::free(data_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
  }
  return *this;
}

void byte_buffer::reserve(std::size_t capacity) {
  if (capacity <= capacity_) return;
  void* p = std::realloc(data_, capacity);
  if (!p) throw std::bad_alloc();
  data_ = static_cast<char*>(p);
  capacity_ = capacity;
}

void byte_buffer::append(std::string_view bytes) {
  if (bytes.size() > capacity_ - size_) {
    reserve(std::max(size_ + bytes.size(), capacity_ + capacity_ / 2 + 4096));
  }
  std::memcpy(data_ + size_, bytes.data(), bytes.size());
  size_ += bytes.size();
}

std::uint64_t remaining_input_size(int fd) noexcept {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return std::numeric_limits<std::uint64_t>::max();
  const off_t offset = ::lseek(fd, 0, SEEK_CUR);
  if (offset < 0) return std::numeric_limits<std::uint64_t>::max();
  return st.st_size > offset ? static_cast<std::uint64_t>(st.st_size - offset) : 0;
}

byte_buffer read_all(int fd) {
  byte_buffer buffer;
  const std::uint64_t remaining = remaining_input_size(fd);
  // One spare byte for a missing last delimiter, one more to see end of file without growing.
  if (remaining != std::numeric_limits<std::uint64_t>::max()) {
    buffer.reserve(static_cast<std::size_t>(remaining) + 2);
  } else {
    buffer.reserve(kReadSize);
  }
  for (;;) {
    if (buffer.capacity() - buffer.size() < 2) {
      buffer.reserve(buffer.capacity() + std::max(kReadSize, buffer.capacity() / 2));
    }
    const std::size_t room = std::min(buffer.capacity() - buffer.size() - 1, std::size_t{1} << 30);
    const std::size_t got = read_some(fd, buffer.data() + buffer.size(), room);
    if (got == 0) break;
    buffer.set_size(buffer.size() + got);
  }
  return buffer;
}

input_data::~input_data() {
  if (map_) ::munmap(map_, map_size_);
}

input_data::input_data(input_data&& other) noexcept
    : buffer_(std::move(other.buffer_)),
      map_(std::exchange(other.map_, nullptr)),
      map_size_(std::exchange(other.map_size_, 0)),
      skip_(std::exchange(other.skip_, 0)),
      size_(std::exchange(other.size_, 0)) {}

input_data& input_data::operator=(input_data&& other) noexcept {
  if (this != &other) {
    if (map_) ::munmap(map_, map_size_);
    buffer_ = std::move(other.buffer_);
    map_ = std::exchange(other.map_, nullptr);
    map_size_ = std::exchange(other.map_size_, 0);
    skip_ = std::exchange(other.skip_, 0);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

input_data input_data::load(int fd, char delimiter, bool allow_map) {
  input_data in;
  struct stat st {};
  const off_t offset = ::lseek(fd, 0, SEEK_CUR);
  if (allow_map && offset >= 0 && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
      st.st_size > offset) {
    const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    const std::uint64_t start = static_cast<std::uint64_t>(offset) / page * page;
    const auto map_size = static_cast<std::size_t>(static_cast<std::uint64_t>(st.st_size) - start);
    void* p = ::mmap(nullptr, map_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd,
                     static_cast<off_t>(start));
    if (p != MAP_FAILED) {
      const char* bytes = static_cast<const char*>(p);
      if (bytes[map_size - 1] == delimiter) {
        ::madvise(p, map_size, MADV_WILLNEED);
        in.map_ = static_cast<char*>(p);
        in.map_size_ = map_size;
        in.skip_ = static_cast<std::size_t>(static_cast<std::uint64_t>(offset) - start);
        in.size_ = map_size - in.skip_;
        // Leave the offset where reading would have left it.
        ::lseek(fd, st.st_size, SEEK_SET);
        return in;
      }
      ::munmap(p, map_size);  // the last record needs a delimiter appended: read instead
    }
  }
  in.buffer_ = read_all(fd);
  terminate_last_record(in.buffer_, delimiter);
  return in;
}

input_data input_data::from_buffer(byte_buffer buffer, char delimiter) {
  input_data in;
  in.buffer_ = std::move(buffer);
  terminate_last_record(in.buffer_, delimiter);
  return in;
}

void terminate_last_record(byte_buffer& data, char delimiter) {
  if (data.size() != 0 && data.data()[data.size() - 1] != delimiter) {
    data.append(std::string_view(&delimiter, 1));
  }
}

std::uint64_t count_records(std::string_view data, char delimiter) noexcept {
  std::uint64_t n = 0;
  const char* p = data.data();
  const char* const end = p + data.size();
  while (p < end) {
    const void* hit = std::memchr(p, delimiter, static_cast<std::size_t>(end - p));
    if (!hit) break;
    p = static_cast<const char*>(hit) + 1;
    ++n;
  }
  return n;
}

record_reader::record_reader(int fd, char delimiter) : fd_(fd), delimiter_(delimiter) {
  // A regular file is read through a sliding read-only mapping (no copy into a buffer); the
  // window is unmapped as soon as it is passed, so memory stays O(window + longest record).
  struct stat st {};
  const off_t offset = ::lseek(fd, 0, SEEK_CUR);
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && offset >= 0 && st.st_size > offset) {
    map_offset_ = static_cast<std::uint64_t>(offset);
    map_end_ = static_cast<std::uint64_t>(st.st_size);
    mapped_ = true;
  } else {
    buffer_ = new char[kReadSize];
  }
}

record_reader::record_reader(std::string_view data, char delimiter) noexcept
    : delimiter_(delimiter), pos_(data.data()), end_(data.data() + data.size()), eof_(true) {}

record_reader::~record_reader() {
  delete[] buffer_;
  if (map_) ::munmap(map_, map_size_);
}

bool record_reader::fill() {
  if (eof_) return false;
  if (mapped_) {
    if (map_) ::munmap(map_, map_size_);
    map_ = nullptr;
    if (map_offset_ >= map_end_) {
      eof_ = true;
      return false;
    }
    const std::uint64_t page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    const std::uint64_t start = map_offset_ / page * page;
    const std::uint64_t stop = std::min(map_end_, start + kMapWindow);
    map_size_ = static_cast<std::size_t>(stop - start);
    void* p = ::mmap(nullptr, map_size_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd_,
                     static_cast<off_t>(start));
    if (p == MAP_FAILED) {
      // Fall back to read(2) from where the mapping stopped.
      if (::lseek(fd_, static_cast<off_t>(map_offset_), SEEK_SET) < 0) throw_read_error(errno);
      mapped_ = false;
      buffer_ = new char[kReadSize];
      return fill();
    }
    map_ = static_cast<char*>(p);
    pos_ = map_ + (map_offset_ - start);
    end_ = map_ + map_size_;
    map_offset_ = stop;
    return true;
  }
  const std::size_t got = read_some(fd_, buffer_, kReadSize);
  if (got == 0) {
    eof_ = true;
    return false;
  }
  pos_ = buffer_;
  end_ = buffer_ + got;
  return true;
}

bool record_reader::next(std::string_view& record) {
  carry_.clear();
  for (;;) {
    if (pos_ != end_) {
      const void* hit = std::memchr(pos_, delimiter_, static_cast<std::size_t>(end_ - pos_));
      if (hit) {
        const char* stop = static_cast<const char*>(hit) + 1;
        if (carry_.empty()) {
          record = std::string_view(pos_, static_cast<std::size_t>(stop - pos_));
        } else {
          carry_.append(pos_, stop);
          record = carry_;
        }
        pos_ = stop;
        return true;
      }
      carry_.append(pos_, end_);
      pos_ = end_;
    }
    if (!fill()) {
      if (carry_.empty()) return false;
      carry_.push_back(delimiter_);  // a last record without its delimiter gets one
      record = carry_;
      return true;
    }
  }
}

fd_writer::fd_writer(int fd) : fd_(fd), buffer_(new char[kCapacity]) {}

fd_writer::~fd_writer() { delete[] buffer_; }

void fd_writer::write_fully(const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t put = ::write(fd_, p, std::min(n, std::size_t{1} << 30));
    if (put < 0) {
      if (errno == EINTR) continue;
      throw error(std::string("write error: ") + std::strerror(errno));
    }
    p += put;
    n -= static_cast<std::size_t>(put);
  }
}

void fd_writer::flush() {
  const std::size_t n = std::exchange(used_, 0);
  write_fully(buffer_, n);
}

void fd_writer::write_slow(std::string_view bytes) {
  flush();
  if (bytes.size() >= kCapacity) {
    write_fully(bytes.data(), bytes.size());
  } else {
    std::memcpy(buffer_, bytes.data(), bytes.size());
    used_ = bytes.size();
  }
}

void fd_writer::write_number(std::uint64_t value, char delimiter) {
  char text[24];
  auto [end, ec] = std::to_chars(text, text + 20, value);
  (void)ec;
  *end++ = delimiter;
  write(std::string_view(text, static_cast<std::size_t>(end - text)));
}

}  // namespace shufl::lines

// ---------------------------------------------------------------------------------------------
// Skipping records (skip-based sampling): count delimiters instead of finding records.
// ---------------------------------------------------------------------------------------------

namespace shufl::lines {

const char* skip_delimiters(const char* p, const char* end, char delimiter,
                            std::uint64_t& count) noexcept {
#if defined(__SSE2__)
  const __m128i needle = _mm_set1_epi8(delimiter);
  while (end - p >= 64) {
    const auto mask16 = [&](int at) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
      return static_cast<std::uint64_t>(static_cast<std::uint32_t>(
          _mm_movemask_epi8(_mm_cmpeq_epi8(bytes, needle))));
    };
    std::uint64_t mask = mask16(0) | (mask16(16) << 16) | (mask16(32) << 32) | (mask16(48) << 48);
    const auto found = static_cast<std::uint64_t>(__builtin_popcountll(mask));
    if (found >= count) {
      for (std::uint64_t i = 1; i < count; ++i) mask &= mask - 1;  // drop the first count - 1
      count = 0;
      return p + __builtin_ctzll(mask) + 1;
    }
    count -= found;
    p += 64;
  }
#endif
  while (p != end) {
    const void* hit = std::memchr(p, delimiter, static_cast<std::size_t>(end - p));
    if (!hit) return nullptr;
    p = static_cast<const char*>(hit) + 1;
    if (--count == 0) return p;
  }
  return nullptr;
}

std::uint64_t record_reader::skip(std::uint64_t count) {
  const std::uint64_t wanted = count;
  bool partial = false;  // bytes of a record whose delimiter has not been seen yet
  while (count > 0) {
    if (pos_ != end_) {
      const char* stop = skip_delimiters(pos_, end_, delimiter_, count);
      if (stop) {
        pos_ = stop;
        return wanted;
      }
      partial = end_[-1] != delimiter_;
      pos_ = end_;
    }
    if (!fill()) {
      if (partial) --count;  // a last record without its delimiter is a record too
      break;
    }
  }
  return wanted - count;
}

}  // namespace shufl::lines
