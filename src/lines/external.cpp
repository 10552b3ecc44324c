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
#include "temp_file.hpp"

namespace shufl::lines {

namespace {

using detail::background_writer;
using detail::file_ptr;
using detail::temp_file;

constexpr std::size_t kCopyChunk = std::size_t{1} << 20;
constexpr std::uint64_t kProgressEvery = std::uint64_t{16} << 20;


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
