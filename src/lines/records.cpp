#include "shufl/lines/records.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <condition_variable>
#include <mutex>
#include <thread>

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
constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
constexpr std::size_t kHugeAdvise = std::size_t{8} << 20;  // buffers from this size on
constexpr std::uint64_t kParallelRead = std::uint64_t{64} << 20;  // files read by two threads

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

struct pread_result {
  std::size_t got = 0;
  int error = 0;
};

// pread(2) until `n` bytes or end of file, restarted on EINTR.
pread_result pread_fully(int fd, char* p, std::size_t n, off_t offset) noexcept {
  pread_result r;
  while (r.got < n) {
    const ssize_t got = ::pread(fd, p + r.got, std::min(n - r.got, std::size_t{1} << 30),
                                offset + static_cast<off_t>(r.got));
    if (got < 0) {
      if (errno == EINTR) continue;
      r.error = errno;
      break;
    }
    if (got == 0) break;
    r.got += static_cast<std::size_t>(got);
  }
  return r;
}

}  // namespace

void advise_huge_pages(void* p, std::size_t size) noexcept {
  const auto begin = (reinterpret_cast<std::uintptr_t>(p) + kHugePage - 1) / kHugePage * kHugePage;
  const auto end = (reinterpret_cast<std::uintptr_t>(p) + size) / kHugePage * kHugePage;
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

namespace {

constexpr std::size_t kMapFrom = std::size_t{1} << 20;  // byte_buffers from this size are mappings

std::size_t page_round(std::size_t n) noexcept {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return (n + page - 1) / page * page;
}

}  // namespace

void byte_buffer::release() noexcept {
  if (mapped_) ::munmap(data_, capacity_);
  else std::free(data_);
  data_ = nullptr;
  size_ = capacity_ = 0;
  mapped_ = false;
}

byte_buffer::~byte_buffer() { release(); }

byte_buffer::byte_buffer(byte_buffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)),
      mapped_(std::exchange(other.mapped_, false)) {}

byte_buffer& byte_buffer::operator=(byte_buffer&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    mapped_ = std::exchange(other.mapped_, false);
  }
  return *this;
}

void byte_buffer::reserve(std::size_t capacity) {
  if (capacity <= capacity_) return;
#if defined(__linux__)
  if (capacity >= kMapFrom) {
    // A mapping: mremap moves or extends its pages without copying them, and the new room is
    // not resident until written. A malloc'd block (below 1 MiB) is copied once into it.
    capacity = page_round(capacity);
    void* p = mapped_ ? ::mremap(data_, capacity_, capacity, MREMAP_MAYMOVE)
                      : ::mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    if (!mapped_) {
      if (size_ != 0) std::memcpy(p, data_, size_);
      std::free(data_);
      mapped_ = true;
    }
    data_ = static_cast<char*>(p);
    capacity_ = capacity;
    // The whole mapping, never an aligned part: a mapping split into areas of different
    // flags could no longer be moved by mremap (EFAULT).
    if (capacity >= kHugeAdvise) ::madvise(data_, capacity_, MADV_HUGEPAGE);
    return;
  }
#endif
  void* p = std::realloc(data_, capacity);
  if (!p) throw std::bad_alloc();
  data_ = static_cast<char*>(p);
  capacity_ = capacity;
  if (capacity >= kHugeAdvise) advise_huge_pages(data_, capacity_);
}

void byte_buffer::append(std::string_view bytes) {
  if (bytes.empty()) return;  // memcpy from a null pointer is undefined even for 0 bytes (fuzz_records)
  if (bytes.size() > capacity_ - size_) {
    reserve(std::max(size_ + bytes.size(), capacity_ + capacity_ / 2 + 64));
  }
  std::memcpy(data_ + size_, bytes.data(), bytes.size());
  size_ += bytes.size();
}

void byte_buffer::assign(std::string_view bytes) {
  if (bytes.size() > capacity_ || (capacity_ >= (std::size_t{1} << 16) && bytes.size() < capacity_ / 4)) {
    release();
    reserve(bytes.size());
  }
  size_ = 0;
  append(bytes);
}

std::uint64_t remaining_input_size(int fd) noexcept {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return std::numeric_limits<std::uint64_t>::max();
  const off_t offset = ::lseek(fd, 0, SEEK_CUR);
  if (offset < 0) return std::numeric_limits<std::uint64_t>::max();
  return st.st_size > offset ? static_cast<std::uint64_t>(st.st_size - offset) : 0;
}

byte_buffer read_all(int fd, std::string_view pending) {
  byte_buffer buffer;
  const std::uint64_t remaining = remaining_input_size(fd);
  // One spare byte for a missing last delimiter, one more to see end of file without growing.
  if (remaining != std::numeric_limits<std::uint64_t>::max()) {
    buffer.reserve(pending.size() + static_cast<std::size_t>(remaining) + 2);
  } else {
    buffer.reserve(std::max(kReadSize, pending.size() + 2));
  }
  buffer.append(pending);
  if (remaining != std::numeric_limits<std::uint64_t>::max() && remaining >= kParallelRead) {
    // A large file: two threads read a half each (the page faults, zeroing and copying of the
    // kernel then take two cores). A file that shrinks meanwhile gives what the halves got up
    // to the first short one; the loop below reads anything appended since.
    const off_t start = ::lseek(fd, 0, SEEK_CUR);
    const auto half = static_cast<std::size_t>(remaining / 2);
    const auto rest = static_cast<std::size_t>(remaining) - half;
    char* const base = buffer.data() + buffer.size();
    pread_result second;
    std::thread other([&] { second = pread_fully(fd, base + half, rest, start + static_cast<off_t>(half)); });
    const pread_result first = pread_fully(fd, base, half, start);
    other.join();
    if (first.error != 0) throw_read_error(first.error);
    if (first.got == half && second.error != 0) throw_read_error(second.error);
    const std::size_t total = first.got < half ? first.got : half + second.got;
    buffer.set_size(buffer.size() + total);
    if (::lseek(fd, start + static_cast<off_t>(total), SEEK_SET) < 0) throw_read_error(errno);
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

input_data input_data::load(int fd, char delimiter, std::string_view pending) {
  input_data in;
  in.buffer_ = read_all(fd, pending);
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

// Counting delimiters is a popcount per 64 bytes: a clone with the POPCNT instruction, chosen
// once at load time, instead of libgcc's software popcount of a baseline x86-64 build.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__POPCNT__) && !defined(__SANITIZE_ADDRESS__)
#define SHUFL_RECORDS_POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define SHUFL_RECORDS_POPCNT_CLONES
#endif

SHUFL_RECORDS_POPCNT_CLONES
std::uint64_t count_records(std::string_view data, char delimiter) noexcept {
  std::uint64_t n = 0;
  const char* p = data.data();
  const char* const end = p + data.size();
  for (; end - p >= 64; p += 64) n += static_cast<std::uint64_t>(__builtin_popcountll(delimiter_mask64(p, delimiter)));
  while (p < end) {
    const void* hit = std::memchr(p, delimiter, static_cast<std::size_t>(end - p));
    if (!hit) break;
    p = static_cast<const char*>(hit) + 1;
    ++n;
  }
  return n;
}

record_reader::record_reader(int fd, char delimiter, std::string_view pending)
    : fd_(fd), delimiter_(delimiter), buffer_(new char[std::max(kReadSize, pending.size())]) {
  if (!pending.empty()) std::memcpy(buffer_, pending.data(), pending.size());
  pos_ = buffer_;
  end_ = buffer_ + pending.size();
}

record_reader::record_reader(std::string_view data, char delimiter) noexcept
    : delimiter_(delimiter), pos_(data.data()), end_(data.data() + data.size()), eof_(true) {}

record_reader::~record_reader() { delete[] buffer_; }

bool record_reader::fill() {
  if (eof_) return false;
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
          carry_.append(std::string_view(pos_, static_cast<std::size_t>(stop - pos_)));
          record = carry_.view();
        }
        pos_ = stop;
        return true;
      }
      carry_.append(std::string_view(pos_, static_cast<std::size_t>(end_ - pos_)));
      pos_ = end_;
    }
    if (!fill()) {
      if (carry_.empty()) return false;
      carry_.append(std::string_view(&delimiter_, 1));  // a last record without its delimiter gets one
      record = carry_.view();
      return true;
    }
  }
}

bool record_reader::append_next(byte_buffer& out) {
  const std::size_t start = out.size();
  for (;;) {
    if (pos_ != end_) {
      const void* hit = std::memchr(pos_, delimiter_, static_cast<std::size_t>(end_ - pos_));
      const char* stop = hit ? static_cast<const char*>(hit) + 1 : end_;
      out.append(std::string_view(pos_, static_cast<std::size_t>(stop - pos_)));
      pos_ = stop;
      if (hit) return true;
    }
    if (!fill()) {
      if (out.size() == start) return false;
      out.append(std::string_view(&delimiter_, 1));  // a last record without its delimiter gets one
      return true;
    }
  }
}

namespace {

// write(2) of everything, restarted on EINTR; returns 0 or the errno of the failure.
int write_all(int fd, const char* p, std::size_t n) noexcept {
  while (n > 0) {
    const ssize_t put = ::write(fd, p, std::min(n, std::size_t{1} << 30));
    if (put < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    p += put;
    n -= static_cast<std::size_t>(put);
  }
  return 0;
}

}  // namespace

// The second thread of a background fd_writer and the buffer it is writing.
struct fd_writer::background_state {
  std::mutex mutex;
  std::condition_variable cv;
  char* spare = nullptr;       // the buffer not being filled (owned)
  std::size_t pending = 0;     // bytes of `spare` to write; 0 = idle
  bool stop = false;
  int error = 0;               // errno of the first failed write
  std::thread thread;

  explicit background_state(int fd) : spare(new char[kCapacity]) {
    thread = std::thread([this, fd] {
      std::unique_lock lock(mutex);
      for (;;) {
        cv.wait(lock, [this] { return stop || pending != 0; });
        if (pending == 0) return;
        const std::size_t n = pending;
        const bool failed = error != 0;  // after a failure, nothing more is written
        lock.unlock();
        const int e = failed ? 0 : write_all(fd, spare, n);
        lock.lock();
        if (e != 0 && error == 0) error = e;
        pending = 0;
        cv.notify_all();
      }
    });
  }
  ~background_state() {
    {
      std::lock_guard lock(mutex);
      stop = true;
    }
    cv.notify_all();
    thread.join();
    delete[] spare;
  }
};

fd_writer::fd_writer(int fd, bool background)
    : fd_(fd), buffer_(new char[kCapacity]), background_(background) {}

fd_writer::~fd_writer() {
  delete bg_;
  delete[] buffer_;
}

void fd_writer::write_fully(const char* p, std::size_t n) {
  if (const int e = write_all(fd_, p, n); e != 0) throw error(std::string("write error: ") + std::strerror(e));
}

void fd_writer::drain() {
  if (!bg_) return;
  std::unique_lock lock(bg_->mutex);
  bg_->cv.wait(lock, [this] { return bg_->pending == 0; });
  if (bg_->error != 0) throw error(std::string("write error: ") + std::strerror(bg_->error));
}

void fd_writer::hand_over() {
  if (!bg_) {
    struct stat st {};
    if (::fstat(fd_, &st) == 0 && S_ISFIFO(st.st_mode)) {
      (void)::fcntl(fd_, F_SETPIPE_SZ, static_cast<int>(kCapacity));  // where allowed; else as is
    }
    bg_ = new background_state(fd_);
  }
  std::unique_lock lock(bg_->mutex);
  bg_->cv.wait(lock, [this] { return bg_->pending == 0; });
  if (bg_->error != 0) throw error(std::string("write error: ") + std::strerror(bg_->error));
  std::swap(buffer_, bg_->spare);
  bg_->pending = std::exchange(used_, 0);
  lock.unlock();
  bg_->cv.notify_all();
}

void fd_writer::flush() {
  drain();
  const std::size_t n = std::exchange(used_, 0);
  write_fully(buffer_, n);
}

void fd_writer::write_slow(std::string_view bytes) {
  if (background_ && used_ != 0 && bytes.size() < kCapacity) {
    hand_over();
    std::memcpy(buffer_, bytes.data(), bytes.size());
    used_ = bytes.size();
    return;
  }
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

SHUFL_RECORDS_POPCNT_CLONES
const char* skip_delimiters(const char* p, const char* end, char delimiter,
                            std::uint64_t& count) noexcept {
#if defined(__SSE2__)
  while (end - p >= 64) {
    std::uint64_t mask = delimiter_mask64(p, delimiter);
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
