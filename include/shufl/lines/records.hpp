// Records for `shufl lines`: reading a whole input into memory, splitting it into records at a
// delimiter byte ('\n', or '\0' with -z), reading records one at a time from a stream, and
// writing output through a large buffer with write(2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace shufl::lines {

/// Bit i of the result is set when p[i] == delimiter, for i in 0..63 (all 64 bytes at p must be
/// readable). SSE2 compares on x86-64, a byte loop elsewhere.
inline std::uint64_t delimiter_mask64(const char* p, char delimiter) noexcept {
#if defined(__SSE2__)
  const __m128i needle = _mm_set1_epi8(delimiter);
  const auto mask16 = [&](int at) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, needle))));
  };
  return mask16(0) | (mask16(16) << 16) | (mask16(32) << 32) | (mask16(48) << 48);
#else
  std::uint64_t mask = 0;
  for (int i = 0; i < 64; ++i) mask |= static_cast<std::uint64_t>(p[i] == delimiter) << i;
  return mask;
#endif
}

/// Finds the delimiters of a buffer in order, 64 bytes at a time (delimiter_mask64), so that
/// short records cost a bit scan each instead of a memchr call. `next(from)` returns the first
/// delimiter at or after `from`, where `from` is the buffer's start on the first call and just
/// past the previous result after that. The buffer must end with the delimiter.
class delimiter_scanner {
 public:
  /// Scans [begin, end) for `delimiter` (not copied; the bytes must outlive the scanner).
  delimiter_scanner(const char* begin, const char* end, char delimiter) noexcept
      : block_(begin), end_(end), delimiter_(delimiter) {
    if (end_ - block_ >= 64) mask_ = delimiter_mask64(block_, delimiter_);
    else tail_ = true;
  }

  /// The next delimiter at or after `from` (see the class comment).
  const char* next(const char* from) noexcept {
    while (!tail_) {
      if (mask_ != 0) {
        const char* hit = block_ + __builtin_ctzll(mask_);
        mask_ &= mask_ - 1;
        return hit;
      }
      block_ += 64;
      if (end_ - block_ < 64) {
        tail_ = true;
        break;
      }
      mask_ = delimiter_mask64(block_, delimiter_);
    }
    if (from < block_) from = block_;  // the tail starts at block_: no delimiter before it is left
    return static_cast<const char*>(std::memchr(from, delimiter_, static_cast<std::size_t>(end_ - from)));
  }

 private:
  const char* block_;
  const char* end_;
  char delimiter_;
  std::uint64_t mask_ = 0;
  bool tail_ = false;
};

/// Asks for transparent huge pages (madvise MADV_HUGEPAGE) on the 2 MiB-aligned part of
/// [p, p + size): gathering records at random from a large buffer then misses the TLB far
/// less often. A hint only; nothing changes where THP is off.
void advise_huge_pages(void* p, std::size_t size) noexcept;

/// A growable byte buffer on malloc/realloc for small sizes and, from 1 MiB on, on an anonymous
/// mapping grown with mremap(2) (Linux; realloc elsewhere). Growing a mapping moves its pages
/// without copying and without touching the new room, so a buffer of S bytes costs about S of
/// resident memory whatever its capacity: a 300 MB record assembled a read at a time peaks near
/// 300 MB, not at the 2–3 times of a doubling std::string (old and new blocks both live while
/// one is copied into the other). Unlike std::string/std::vector it does not zero-fill what it
/// is about to overwrite. Buffers of 8 MiB and more are advised to use huge pages. Also the
/// type of the records a sampler keeps (keep_record), so a huge record is never copied.
class byte_buffer {
 public:
  byte_buffer() noexcept = default;
  /// A buffer holding a copy of `bytes` (exactly sized below 1 MiB).
  explicit byte_buffer(std::string_view bytes) { assign(bytes); }
  ~byte_buffer();
  byte_buffer(byte_buffer&& other) noexcept;
  byte_buffer& operator=(byte_buffer&& other) noexcept;
  byte_buffer(const byte_buffer&) = delete;
  byte_buffer& operator=(const byte_buffer&) = delete;

  /// The bytes (nullptr when nothing was ever reserved).
  char* data() noexcept { return data_; }
  /// The bytes (nullptr when nothing was ever reserved).
  const char* data() const noexcept { return data_; }
  /// Number of bytes held.
  std::size_t size() const noexcept { return size_; }
  /// Whether no byte is held.
  bool empty() const noexcept { return size_ == 0; }
  /// The bytes as a view.
  std::string_view view() const noexcept { return {data_, size_}; }
  /// The bytes as a view.
  operator std::string_view() const noexcept { return view(); }
  /// Makes room for at least `capacity` bytes; throws std::bad_alloc.
  void reserve(std::size_t capacity);
  /// Appends bytes, growing geometrically (by half the capacity, at least to the size needed).
  void append(std::string_view bytes);
  /// Replaces the bytes with a copy of `bytes`: the block is reused when it fits, and replaced
  /// by an exactly sized one when it is too small or more than four times too large (a slot
  /// that held a huge record and now holds a short one gives the memory back).
  void assign(std::string_view bytes);
  /// Drops the bytes, keeping the block.
  void clear() noexcept { size_ = 0; }
  /// Sets the size after bytes were written past the old size (within capacity).
  void set_size(std::size_t size) noexcept { size_ = size; }
  /// Bytes allocated.
  std::size_t capacity() const noexcept { return capacity_; }

  /// Byte-wise equality of the contents.
  friend bool operator==(const byte_buffer& a, const byte_buffer& b) noexcept { return a.view() == b.view(); }
  /// Byte-wise equality with a view.
  friend bool operator==(const byte_buffer& a, std::string_view b) noexcept { return a.view() == b; }

 private:
  void release() noexcept;
  char* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
  bool mapped_ = false;  // data_ is a mapping (munmap/mremap), else malloc'd
};

/// Reads everything from `fd` (until end of file) into memory, after the bytes `pending` (bytes
/// already taken from `fd`, e.g. by the --header reader of a pipe). For a regular file the buffer
/// is sized once from fstat (size minus the current offset); a file that shrinks or grows while
/// it is read gives the bytes read() returned (never a fault: nothing is mapped). Throws
/// shufl::error "read error: STRERROR" (e.g. "read error: Is a directory"); std::bad_alloc when
/// out of memory.
byte_buffer read_all(int fd, std::string_view pending = {});

/// A whole input in memory, records ending with the delimiter: a private copy read with read(2),
/// never a mapping, so the input file may shrink (logrotate's copytruncate) or be overwritten by
/// our own output (`shufl lines f 1<>f`) without changing or faulting what was read.
class input_data {
 public:
  /// Reads everything from `fd` after the bytes `pending` (see read_all) and appends a missing
  /// last delimiter. Throws as read_all.
  static input_data load(int fd, char delimiter, std::string_view pending = {});
  /// Wraps a buffer (e.g. the joined -e operands), appending a missing last delimiter.
  static input_data from_buffer(byte_buffer buffer, char delimiter);

  /// The input bytes; empty, or ending with the delimiter.
  const char* data() const noexcept { return buffer_.data(); }
  /// Number of input bytes.
  std::size_t size() const noexcept { return buffer_.size(); }
  /// The input bytes as a view.
  std::string_view view() const noexcept { return buffer_.view(); }

 private:
  byte_buffer buffer_;
};

/// Appends `delimiter` when the data is non-empty and does not end with it: GNU shuf adds the
/// missing delimiter of a last line. Afterwards every record ends with the delimiter.
void terminate_last_record(byte_buffer& data, char delimiter);

/// Number of records in `data`, which is empty or ends with `delimiter`.
std::uint64_t count_records(std::string_view data, char delimiter) noexcept;

/// The remaining size of a regular file open on `fd` (st_size minus the current offset), or
/// UINT64_MAX for anything else (pipes, terminals, errors): GNU shuf's `input_size`.
std::uint64_t remaining_input_size(int fd) noexcept;

/// Skipping records without looking at them one by one (for skip-based sampling): in
/// [p, end), finds the `count`-th occurrence of `delimiter` (count >= 1) and returns the
/// position just past it, setting count to 0; when there are fewer, returns nullptr and lowers
/// `count` by the number found. Counts 64 bytes at a time (SSE2 compare masks and popcount on
/// x86-64; memchr elsewhere), so the cost is a pass over the bytes, not a call per record.
const char* skip_delimiters(const char* p, const char* end, char delimiter,
                            std::uint64_t& count) noexcept;

/// Reads records one at a time from a file descriptor or from memory, each returned with its
/// delimiter (added to a last record that lacks one). Files and pipes alike are read 1 MiB at a
/// time with read(2) (never mapped: a file that shrinks while it is read just ends early). A
/// record spanning two reads is assembled in a side buffer, so memory is O(1 MiB + longest
/// record).
class record_reader {
 public:
  /// Reads from `fd` (not owned), after the bytes `pending` (already taken from `fd`, e.g. by
  /// the --header reader of a pipe; copied).
  record_reader(int fd, char delimiter, std::string_view pending = {});
  /// Reads from `data` (not copied; must outlive the reader).
  record_reader(std::string_view data, char delimiter) noexcept;
  ~record_reader();
  record_reader(const record_reader&) = delete;
  record_reader& operator=(const record_reader&) = delete;

  /// The next record including its delimiter, valid until the next call; false at end of input.
  /// Throws shufl::error "read error: STRERROR".
  bool next(std::string_view& record);

  /// Passes over the next `count` records without returning them (delimiters are counted by
  /// skip_delimiters; a record crossing a read or window is not assembled). Returns how many
  /// were skipped: fewer than `count` only at end of input. Throws as `next`.
  std::uint64_t skip(std::uint64_t count);

  /// Calls `f(record)` for every remaining record, in order (the same records as `next`), with
  /// a tight loop over each read or window; records crossing a boundary go through `next`.
  template <class F>
  void for_each(F&& f) {
    std::string_view record;
    for (;;) {
      const char* p = pos_;
      const char* const end = end_;
      while (p != end) {
        const void* hit = std::memchr(p, delimiter_, static_cast<std::size_t>(end - p));
        if (!hit) break;
        const char* stop = static_cast<const char*>(hit) + 1;
        f(std::string_view(p, static_cast<std::size_t>(stop - p)));
        p = stop;
      }
      pos_ = p;
      if (!next(record)) return;
      f(record);
    }
  }

  /// Calls `f(window)` with the remaining records in order as windows of whole records (each
  /// window is non-empty and ends with the delimiter): the records of each read or window
  /// that it holds whole, at once, then a record that crosses a boundary (assembled by `next`)
  /// alone. For callers that find records in bulk (e.g. 64 bytes at a time).
  template <class F>
  void for_each_window(F&& f) {
    std::string_view record;
    for (;;) {
      const char* last = pos_ == end_ ? nullptr
                                      : static_cast<const char*>(::memrchr(pos_, delimiter_, static_cast<std::size_t>(end_ - pos_)));
      if (last) {
        const char* const start = pos_;
        pos_ = last + 1;
        f(std::string_view(start, static_cast<std::size_t>(pos_ - start)));
      }
      if (!next(record)) return;
      f(record);
    }
  }
  /// Appends the next record including its delimiter to `out` (a record crossing reads goes
  /// straight into `out`, never through a side buffer, so assembling a huge CSV record of many
  /// lines holds its bytes once); false at end of input, with `out` unchanged. Throws as `next`.
  bool append_next(byte_buffer& out);

  /// The buffer holding `record` (the one `next` last returned) when it was assembled across
  /// reads, else nullptr; its bytes may be taken (keep_record): the next call starts afresh.
  byte_buffer* owner(std::string_view record) noexcept {
    return !carry_.empty() && record.data() == carry_.data() ? &carry_ : nullptr;
  }

 private:
  bool fill();
  int fd_ = -1;
  char delimiter_;
  char* buffer_ = nullptr;
  const char* pos_ = nullptr;
  const char* end_ = nullptr;
  bool eof_ = false;
  byte_buffer carry_;
};

/// Buffered output to a file descriptor with write(2): large writes, no stdio, no locale.
/// Errors throw shufl::error "write error: STRERROR" (e.g. "No space left on device"); a
/// closed pipe raises SIGPIPE, which `main` leaves at its default so `| head` ends quietly.
///
/// With `background`, once the output passes one buffer (1 MiB) a second thread does the
/// write(2) calls while the caller fills the next buffer (two buffers, so gathering records
/// and the pipe or disk overlap on two cores), and a pipe is enlarged to 1 MiB with
/// F_SETPIPE_SZ where the system allows it. The bytes and their order are the same; a write
/// error is thrown by the next write() that hands over a buffer, or by flush().
class fd_writer {
 public:
  /// Writes to `fd` (not owned, not closed); `background`: see above.
  explicit fd_writer(int fd, bool background = false);
  /// Lets a write in progress finish; bytes not yet flushed are dropped.
  ~fd_writer();
  fd_writer(const fd_writer&) = delete;
  fd_writer& operator=(const fd_writer&) = delete;

  /// Appends the record that starts at `p`: its bytes up to and including the first
  /// `delimiter` in [p, end), which must hold one. A record that ends within 16 bytes (and 16
  /// readable bytes at p) is found and copied with one 16-byte load and store, with no call;
  /// a longer one through memchr and write. Throws on a write error.
  void write_record(const char* p, const char* end, char delimiter) {
#if defined(__SSE2__)
    if (end - p >= 16 && kCapacity - used_ >= 16) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      const auto m = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8(delimiter))));
      if (m != 0) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(buffer_ + used_), bytes);
        used_ += static_cast<std::size_t>(__builtin_ctz(m)) + 1;
        return;
      }
    }
#endif
    const auto* stop = static_cast<const char*>(std::memchr(p, delimiter, static_cast<std::size_t>(end - p)));
    write(std::string_view(p, static_cast<std::size_t>(stop + 1 - p)));
  }
  /// Appends bytes to the buffer, writing it out when full. Throws on a write error.
  void write(std::string_view bytes) {
    if (bytes.size() <= kCapacity - used_) {
      std::memcpy(buffer_ + used_, bytes.data(), bytes.size());
      used_ += bytes.size();
    } else {
      write_slow(bytes);
    }
  }
  /// Writes `value` in decimal followed by `delimiter`.
  void write_number(std::uint64_t value, char delimiter);
  /// Writes out everything buffered (and waits for the background thread); throws on a
  /// write error.
  void flush();

 private:
  struct background_state;
  static constexpr std::size_t kCapacity = std::size_t{1} << 20;
  void write_slow(std::string_view bytes);
  void write_fully(const char* p, std::size_t n);
  void hand_over();  // gives the full buffer to the background thread, takes the other one
  void drain();      // waits until the background thread has written everything handed over
  int fd_;
  char* buffer_;
  std::size_t used_ = 0;
  bool background_;
  background_state* bg_ = nullptr;
};

}  // namespace shufl::lines
