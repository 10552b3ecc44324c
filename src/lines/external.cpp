#include "shufl/lines/external.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "shufl/error.hpp"
#include "shufl/shuffle.hpp"

namespace shufl::lines {

namespace {

constexpr std::size_t kCopyChunk = std::size_t{1} << 20;
constexpr std::uint64_t kProgressEvery = std::uint64_t{16} << 20;

// write(2) of everything, restarted on EINTR; 0 or an errno value.
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

// Writes full bucket buffers on a second thread, so that splitting records into buckets (one
// core) overlaps with write(2) copying them into the page cache (the other). Writes are done in
// the order submitted. The destructor drops what is still queued (only on an error path) and
// joins.
class background_writer {
 public:
  background_writer() : thread_([this] { run(); }) {}
  ~background_writer() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  background_writer(const background_writer&) = delete;
  background_writer& operator=(const background_writer&) = delete;

  // Queues writing [p, p + n) to fd; *busy stays true until it is written.
  void submit(int fd, const char* p, std::size_t n, bool* busy) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      *busy = true;
      jobs_.push_back(job{fd, p, n, busy});
    }
    wake_.notify_one();
  }
  // Waits until *busy is false; returns the first write error so far (0 if none).
  int wait(const bool* busy) {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return !*busy; });
    return error_;
  }

 private:
  struct job {
    int fd;
    const char* p;
    std::size_t n;
    bool* busy;
  };
  void run() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stop_ || !jobs_.empty(); });
      if (stop_) {
        for (auto& j : jobs_) *j.busy = false;
        jobs_.clear();
        done_.notify_all();
        return;
      }
      const job j = jobs_.front();
      jobs_.pop_front();
      const bool failed = error_ != 0;
      lock.unlock();
      const int e = failed ? 0 : write_all(j.fd, j.p, j.n);
      lock.lock();
      if (e != 0 && error_ == 0) error_ = e;
      *j.busy = false;
      done_.notify_all();
    }
  }
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::deque<job> jobs_;
  int error_ = 0;
  bool stop_ = false;
  std::thread thread_;  // last: started once the members above exist
};

// An unlinked temporary file (no name exists once the constructor returns, so a crash, SIGKILL
// included, leaves nothing behind) with a write buffer it does not own.
class temp_file {
 public:
  explicit temp_file(const std::string& dir) : dir_(dir) {
    fd_ = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd_ < 0 && errno != ENOENT && errno != ENOTDIR && errno != EACCES) {
      // No O_TMPFILE on this file system: mkstemp, then unlink at once, with the signals that
      // would end us blocked in between so the name cannot be left behind.
      std::string name = dir + "/shufl-XXXXXX";
      sigset_t block, old;
      sigemptyset(&block);
      for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&block, s);
      ::pthread_sigmask(SIG_BLOCK, &block, &old);
      fd_ = ::mkostemp(name.data(), O_CLOEXEC);  // mode 0600
      const int saved = errno;
      if (fd_ >= 0) ::unlink(name.c_str());
      ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
      errno = saved;
    }
    if (fd_ < 0) {
      throw error("cannot create temporary file in '" + dir + "': " + std::strerror(errno));
    }
  }
  ~temp_file() { ::close(fd_); }
  temp_file(const temp_file&) = delete;
  temp_file& operator=(const temp_file&) = delete;

  // Gives the file a write buffer of `capacity` bytes (not owned). With a background writer it is
  // used as two halves: one is filled while the other is being written.
  void attach(char* buffer, std::size_t capacity, background_writer* writer = nullptr) noexcept {
    buffer_ = buffer;
    writer_ = writer;
    half_ = writer ? capacity / 2 : capacity;
    current_ = 0;
    used_ = 0;
  }
  void add(std::string_view record) {
    ++records;
    bytes += record.size();
    if (record.size() > half_ - used_) {
      hand_over();
      if (record.size() >= half_) {
        drain();
        check(write_all(fd_, record.data(), record.size()));
        return;
      }
    }
    std::memcpy(buffer_ + current_ * half_ + used_, record.data(), record.size());
    used_ += record.size();
  }
  void add_many(std::string_view records_bytes, std::uint64_t count) {
    flush();
    check(write_all(fd_, records_bytes.data(), records_bytes.size()));
    records += count;
    bytes += records_bytes.size();
  }
  // Writes out everything buffered (and waits for the background writer).
  void flush() {
    hand_over();
    drain();
  }
  int fd() const noexcept { return fd_; }

  // Reads [offset, offset + n) into p; throws on errors or a short file.
  void read_at(char* p, std::size_t n, std::uint64_t offset) const {
    while (n > 0) {
      const ssize_t got = ::pread(fd_, p, n, static_cast<off_t>(offset));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) throw error("read error: " + dir_ + ": " + std::strerror(got < 0 ? errno : EIO));
      p += got;
      n -= static_cast<std::size_t>(got);
      offset += static_cast<std::uint64_t>(got);
    }
  }

  // Writes [p, p + n) at `offset` (unbuffered).
  void write_at(const char* p, std::size_t n, std::uint64_t offset) const {
    while (n > 0) {
      const ssize_t put = ::pwrite(fd_, p, n, static_cast<off_t>(offset));
      if (put < 0 && errno == EINTR) continue;
      check(put < 0 ? errno : 0);
      p += put;
      n -= static_cast<std::size_t>(put);
      offset += static_cast<std::uint64_t>(put);
    }
  }

  std::uint64_t records = 0;
  std::uint64_t bytes = 0;

 private:
  void check(int e) const {
    if (e != 0) throw error("write error: " + dir_ + ": " + std::strerror(e));
  }
  // Writes the current half (in the background when there is a writer) and moves to the other.
  void hand_over() {
    if (used_ == 0) return;
    char* p = buffer_ + current_ * half_;
    if (!writer_) {
      check(write_all(fd_, p, used_));
    } else {
      writer_->submit(fd_, p, used_, &busy_[current_]);
      current_ ^= 1;
      check(writer_->wait(&busy_[current_]));
    }
    used_ = 0;
  }
  void drain() {
    if (writer_) check(writer_->wait(&busy_[current_ ^ 1]));
  }
  const std::string& dir_;
  int fd_ = -1;
  char* buffer_ = nullptr;
  background_writer* writer_ = nullptr;
  std::size_t half_ = 0;
  std::size_t current_ = 0;
  std::size_t used_ = 0;
  bool busy_[2] = {false, false};  // guarded by the writer's mutex
};

using file_ptr = std::unique_ptr<temp_file>;

// Visits the records of `data` (every one ends with the delimiter).
template <class F>
void for_each_record(std::string_view data, char delimiter, F&& f) {
  const char* p = data.data();
  const char* const end = p + data.size();
  while (p != end) {
    const char* stop = static_cast<const char*>(std::memchr(p, delimiter, static_cast<std::size_t>(end - p))) + 1;
    f(std::string_view(p, static_cast<std::size_t>(stop - p)));
    p = stop;
  }
}

// Shuffles the n records of `data` (in input order) by THE RULE with key `key` and writes them.
template <class Item>
void shuffle_in_memory(std::string_view data, std::uint64_t n, char delimiter, const seed_key& key,
                       std::uint64_t leaf, fd_writer& out) {
  std::vector<Item> items;
  items.reserve(static_cast<std::size_t>(n));
  for_each_record(data, delimiter, [&](std::string_view r) {
    items.push_back(static_cast<Item>(r.data() - data.data()));
  });
  scatter_shuffle(std::span<Item>(items), key, leaf);
  const char* const base = data.data();
  const char* const end = base + data.size();
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i + 16 < items.size()) __builtin_prefetch(base + items[i + 16]);
    const char* p = base + items[i];
    const auto* stop = static_cast<const char*>(std::memchr(p, delimiter, static_cast<std::size_t>(end - p)));
    out.write(std::string_view(p, static_cast<std::size_t>(stop + 1 - p)));
  }
}

void shuffle_in_memory(std::string_view data, std::uint64_t n, char delimiter, const seed_key& key,
                       std::uint64_t leaf, fd_writer& out) {
  if (data.size() < (std::uint64_t{1} << 32)) {
    shuffle_in_memory<std::uint32_t>(data, n, delimiter, key, leaf, out);
  } else {
    shuffle_in_memory<std::uint64_t>(data, n, delimiter, key, leaf, out);
  }
}

}  // namespace

namespace detail {

// One node of the output, in output order.
struct external_node {
  std::shared_ptr<temp_file> file;  // null for the root kept in RAM
  seed_key key;
  bool big_leaf = false;
  std::uint64_t offset = 0;   // where its records start in `file`
  std::uint64_t bytes = 0;    // bytes of records
  std::uint64_t records = 0;  // number of records
};

struct external_plan {
  char delimiter;
  external_settings settings;
  external_stats stats;
  std::vector<external_node> nodes;
  byte_buffer root_records;  // the whole input, when it fitted
  std::vector<char> arena;   // the 256 bucket write buffers
  std::uint64_t next_progress = kProgressEvery;

  void progress(std::string_view phase, std::uint64_t done, std::uint64_t total) {
    if (settings.progress) settings.progress(external_progress{phase, done, total});
  }

  file_ptr new_file() {
    auto f = std::make_unique<temp_file>(settings.temp_dir);
    ++stats.temp_files;
    return f;
  }

  // 256 bucket files fed in input order, labels from chacha20_engine(key, 0).
  struct scatterer {
    explicit scatterer(external_plan& plan, const seed_key& key) : engine(key, 0) {
      plan.arena.resize(scatter_buckets * plan.settings.bucket_buffer);
      for (std::size_t b = 0; b < scatter_buckets; ++b) {
        files[b] = plan.new_file();
        files[b]->attach(plan.arena.data() + b * plan.settings.bucket_buffer, plan.settings.bucket_buffer,
                         &writer);
      }
    }
    void add(std::string_view record) { files[uniform_below(engine, scatter_buckets)]->add(record); }
    chacha20_engine engine;
    std::array<file_ptr, scatter_buckets> files;
    background_writer writer;  // after `files`: stopped before any file is closed
  };

  std::array<file_ptr, scatter_buckets> finish(scatterer& s) {
    for (auto& f : s.files) f->flush();
    for (auto& f : s.files) {
      f->attach(nullptr, 0);
      stats.temp_bytes += f->bytes;
    }
    return std::move(s.files);
  }

  // Phase 2 for one node held in a file.
  void plan_node(file_ptr file, const seed_key& key, std::uint64_t depth) {
    if (file->records == 0) return;
    stats.max_depth = std::max(stats.max_depth, depth);
    const std::uint64_t bytes = file->bytes, records = file->records;
    if (in_memory_cost(bytes, records) <= settings.memory_budget) {
      nodes.push_back({std::move(file), key, false, 0, bytes, records});
      return;
    }
    if (records <= settings.leaf_records) {
      ++stats.big_leaves;
      nodes.push_back({std::move(file), key, true, 0, bytes, records});
      return;
    }
    std::array<file_ptr, scatter_buckets> children;
    {
      scatterer s(*this, key);
      if (::lseek(file->fd(), 0, SEEK_SET) < 0) throw error("read error: " + settings.temp_dir + ": " + std::strerror(errno));
      record_reader reader(file->fd(), delimiter);
      std::uint64_t done = 0;
      const std::uint64_t total = file->bytes;
      reader.for_each([&](std::string_view r) {
        s.add(r);
        done += r.size();
        if (done >= next_progress) {
          next_progress = done + kProgressEvery;
          progress("scattering", done, total);
        }
      });
      next_progress = kProgressEvery;
      children = finish(s);
    }
    file.reset();  // frees its disk space before the children are planned
    const std::size_t first = nodes.size();
    for (std::size_t b = 0; b < scatter_buckets; ++b) {
      plan_node(std::move(children[b]), scatter_child_key(key, b), depth + 1);
    }
    if (depth > 0) compact(first);  // the root's own 256 files are few enough
  }

  // Copies the nodes from `first` on (in order) into one file, so that a node scattered again
  // holds one file descriptor, not 256 (an input where every root bucket is scattered again
  // would otherwise need 65,536 open files).
  void compact(std::size_t first) {
    if (nodes.size() - first <= 1) return;
    auto joined = std::shared_ptr<temp_file>(new_file());
    std::uint64_t at = 0;
    for (std::size_t i = first; i < nodes.size(); ++i) {
      external_node& node = nodes[i];
      copy_range(*node.file, node.offset, node.bytes, *joined, at);
      node.file = joined;  // the old file closes when its last node lets go of it
      node.offset = at;
      at += node.bytes;
    }
    stats.temp_bytes += at;
  }

  // Copies [offset, offset + n) of `from` to `to` at `at`: copy_file_range (no copy through user
  // space), else pread/write.
  void copy_range(const temp_file& from, std::uint64_t offset, std::uint64_t n, temp_file& to,
                  std::uint64_t at) {
    auto in = static_cast<off_t>(offset);
    auto out = static_cast<off_t>(at);
    while (n > 0) {
      const ssize_t got = ::copy_file_range(from.fd(), &in, to.fd(), &out,
                                            static_cast<std::size_t>(std::min<std::uint64_t>(n, 1u << 30)), 0);
      if (got > 0) {
        n -= static_cast<std::uint64_t>(got);
        continue;
      }
      if (got < 0 && errno == EINTR) continue;
      if (got < 0 && errno != EXDEV && errno != ENOSYS && errno != EINVAL && errno != EOPNOTSUPP) {
        throw error("write error: " + settings.temp_dir + ": " + std::strerror(errno));
      }
      std::vector<char> chunk(kCopyChunk);
      while (n > 0) {
        const auto k = static_cast<std::size_t>(std::min<std::uint64_t>(n, kCopyChunk));
        from.read_at(chunk.data(), k, static_cast<std::uint64_t>(in));
        to.write_at(chunk.data(), k, static_cast<std::uint64_t>(out));
        in += static_cast<off_t>(k);
        out += static_cast<off_t>(k);
        n -= k;
      }
    }
  }

  // Phase 3 for a leaf too big for RAM: Fisher–Yates over record indices, records by pread.
  void write_big_leaf(const external_node& node, fd_writer& out) {
    const temp_file& file = *node.file;
    const seed_key& key = node.key;
    const std::uint64_t base = node.offset;
    std::vector<std::uint64_t> starts;
    starts.reserve(static_cast<std::size_t>(node.records) + 1);
    std::vector<char> chunk(kCopyChunk);
    starts.push_back(0);
    for (std::uint64_t offset = 0; offset < node.bytes;) {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(kCopyChunk, node.bytes - offset));
      file.read_at(chunk.data(), n, base + offset);
      for_each_delimiter(chunk.data(), n, [&](std::size_t at) { starts.push_back(offset + at + 1); });
      offset += n;
    }
    std::vector<std::uint64_t> order(starts.size() - 1);
    std::iota(order.begin(), order.end(), std::uint64_t{0});
    chacha20_engine engine(key, 1);
    fisher_yates(std::span<std::uint64_t>(order), engine);
    for (const std::uint64_t i : order) {
      for (std::uint64_t at = starts[i]; at < starts[i + 1];) {
        const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(kCopyChunk, starts[i + 1] - at));
        file.read_at(chunk.data(), n, base + at);
        out.write(std::string_view(chunk.data(), n));
        at += n;
      }
    }
  }

  template <class F>
  void for_each_delimiter(const char* p, std::size_t n, F&& f) const {
    const char* const begin = p;
    const char* const end = p + n;
    while (p != end) {
      const void* hit = std::memchr(p, delimiter, static_cast<std::size_t>(end - p));
      if (!hit) break;
      p = static_cast<const char*>(hit) + 1;
      f(static_cast<std::size_t>(p - 1 - begin));
    }
  }
};

}  // namespace detail

external_shuffle::external_shuffle(record_reader& reader, char delimiter, const seed_key& root,
                                   external_settings settings)
    : plan_(std::make_unique<detail::external_plan>()) {
  auto& p = *plan_;
  p.delimiter = delimiter;
  p.settings = std::move(settings);
  p.settings.bucket_buffer = std::max<std::size_t>(p.settings.bucket_buffer, 1);
  const std::uint64_t budget = p.settings.memory_budget;
  const std::uint64_t leaf = p.settings.leaf_records;

  enum class mode { collect, scatter, spill } m = mode::collect;
  byte_buffer& buffer = p.root_records;
  std::uint64_t collected = 0;
  std::optional<detail::external_plan::scatterer> scatter;
  file_ptr spill;

  reader.for_each([&](std::string_view r) {
    ++p.stats.records;
    p.stats.bytes += r.size();
    if (p.stats.bytes >= p.next_progress) {
      p.next_progress = p.stats.bytes + kProgressEvery;
      p.progress("reading", p.stats.bytes, 0);
    }
    switch (m) {
      case mode::collect:
        if (in_memory_cost(buffer.size() + r.size(), collected + 1) <= budget) {
          if (r.size() > buffer.capacity() - buffer.size()) {
            // Grow geometrically, but never past the budget.
            const std::uint64_t want = std::max<std::uint64_t>(
                {buffer.capacity() * std::uint64_t{2}, buffer.size() + r.size(), std::uint64_t{1} << 20});
            buffer.reserve(static_cast<std::size_t>(
                std::min<std::uint64_t>(want, std::max<std::uint64_t>(budget, buffer.size() + r.size()))));
          }
          buffer.append(r);
          ++collected;
          return;
        }
        if (collected + 1 > leaf) {
          m = mode::scatter;
          scatter.emplace(p, root);
          for_each_record(buffer.view(), delimiter, [&](std::string_view old) { scatter->add(old); });
          buffer = byte_buffer();
          scatter->add(r);
        } else {
          m = mode::spill;
          spill = p.new_file();
          spill->add_many(buffer.view(), collected);
          buffer = byte_buffer();
          spill->add_many(r, 1);
        }
        return;
      case mode::scatter:
        scatter->add(r);
        return;
      case mode::spill:
        spill->add_many(r, 1);  // few, big records: no buffer needed
        return;
    }
  });

  switch (m) {
    case mode::collect:
      p.stats.in_memory = true;
      if (collected > 0) p.nodes.push_back({nullptr, root, false});
      break;
    case mode::scatter: {
      auto children = p.finish(*scatter);
      scatter.reset();
      for (std::size_t b = 0; b < scatter_buckets; ++b) {
        p.plan_node(std::move(children[b]), scatter_child_key(root, b), 1);
      }
      break;
    }
    case mode::spill:
      p.stats.temp_bytes += spill->bytes;
      p.plan_node(std::move(spill), root, 0);
      break;
  }
  p.arena = std::vector<char>();
}

external_shuffle::~external_shuffle() = default;

const external_stats& external_shuffle::stats() const noexcept { return plan_->stats; }

void external_shuffle::write(fd_writer& out) {
  auto& p = *plan_;
  const std::uint64_t leaf = p.settings.leaf_records;
  std::uint64_t written = 0;
  for (auto& node : p.nodes) {
    if (!node.file) {
      shuffle_in_memory(p.root_records.view(), p.stats.records, p.delimiter, node.key, leaf, out);
      p.root_records = byte_buffer();
      continue;
    }
    if (node.big_leaf) {
      p.write_big_leaf(node, out);
    } else {
      const auto size = static_cast<std::size_t>(node.bytes);
      // Mapped rather than read: the bytes are already in the page cache, no copy is needed.
      const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
      const std::uint64_t start = node.offset / page * page;
      const auto skip = static_cast<std::size_t>(node.offset - start);
      void* map = ::mmap(nullptr, size + skip, PROT_READ, MAP_PRIVATE | MAP_POPULATE, node.file->fd(),
                         static_cast<off_t>(start));
      if (map != MAP_FAILED) {
        try {
          shuffle_in_memory(std::string_view(static_cast<const char*>(map) + skip, size), node.records,
                            p.delimiter, node.key, leaf, out);
        } catch (...) {
          ::munmap(map, size + skip);
          throw;
        }
        ::munmap(map, size + skip);
      } else {
        byte_buffer data;
        data.reserve(std::max<std::size_t>(size, 1));
        node.file->read_at(data.data(), size, node.offset);
        data.set_size(size);
        shuffle_in_memory(data.view(), node.records, p.delimiter, node.key, leaf, out);
      }
    }
    written += node.bytes;
    node.file.reset();
    p.progress("writing", written, p.stats.bytes);
  }
  p.nodes.clear();
}

}  // namespace shufl::lines
