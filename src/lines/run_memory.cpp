// `shufl lines`' runner: the --header reader and the --memory budget (and its default).
#include "run_internal.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>

#include "shufl/error.hpp"

namespace shufl::lines {

// Half the memory available now (MemAvailable, capped by a cgroup v2 limit), at least the
// smallest workable amount.
std::uint64_t default_memory() {
  std::uint64_t available = 0;
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemAvailable:") {
      available = kib * 1024;
      break;
    }
  }
  if (available == 0) {
    available = static_cast<std::uint64_t>(::sysconf(_SC_PHYS_PAGES)) *
                static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  }
  std::ifstream cgroup("/sys/fs/cgroup/memory.max");
  std::uint64_t limit = 0;
  if (cgroup >> limit && limit > 0) available = std::min(available, limit);
  return std::max(available / 2, min_memory);
}

}  // namespace shufl::lines

namespace shufl::lines::runner {

// Reads the first `count` records of `fd` in blocks. A regular file is repositioned right after
// them; from anything else the bytes read past them are returned as `pending`.
header_input read_header(int fd, std::uint64_t count, char delimiter, std::uint64_t limit,
                         shufl::lines::csv_scanner* csv) {
  header_input h;
  std::string& header = h.text;
  std::uint64_t got = 0;
  struct stat st {};
  const off_t start = ::lseek(fd, 0, SEEK_CUR);
  const bool seekable = start >= 0 && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  constexpr std::size_t kBlock = std::size_t{256} << 10;
  const std::unique_ptr<char[]> block(new char[kBlock]);
  while (got < count) {
    const ssize_t n = ::read(fd, block.get(), kBlock);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw error(std::string("read error: ") + std::strerror(errno));
    }
    if (n == 0) {
      if (!header.empty() && header.back() != delimiter) {
        header += delimiter;  // a last record without its newline gets one, as everywhere
        if (csv) csv->find_end(&header.back(), header.data() + header.size());  // (`"a"\r` then ends)
      }
      if (csv) csv->finish();
      return h;
    }
    const char* p = block.get();
    const char* const end = p + n;
    while (p < end && got < count) {
      const void* hit = csv ? csv->find_end(p, end) : std::memchr(p, delimiter, static_cast<std::size_t>(end - p));
      const char* stop = hit ? static_cast<const char*>(hit) + 1 : end;
      header.append(p, stop);
      if (hit) ++got;
      p = stop;
    }
    if (header.size() > limit) {
      throw error("--header " + std::to_string(count) + (csv ? ": the header records" : ": the header lines") +
                  " take more than half of --memory (" +
                  std::to_string(limit) + " bytes)");
    }
    if (p < end) {
      if (seekable) {
        if (::lseek(fd, start + static_cast<off_t>(header.size()), SEEK_SET) < 0) {
          throw error(std::string("read error: ") + std::strerror(errno));
        }
      } else {
        h.pending.assign(p, end);
      }
    }
  }
  return h;
}

// --memory (or its default) split into the RAM budget for records and the buffers around it.
shufl::lines::external_settings external_settings_for(const options& opts) {
  shufl::lines::external_settings s;
  const std::uint64_t memory = opts.memory ? *opts.memory : default_memory();
  std::uint64_t buffer = memory / 16 / shufl::lines::scatter_buckets;
  buffer = std::clamp<std::uint64_t>(buffer, 16 << 10, 1 << 20) / 4096 * 4096;
  s.bucket_buffer = static_cast<std::size_t>(buffer);
  // The 256 bucket buffers, the input window (4 MiB), the output buffer (1 MiB), a copy chunk
  // (1 MiB) and some slack for the program itself.
  const std::uint64_t overhead = shufl::lines::scatter_buckets * buffer + (std::uint64_t{7} << 20);
  s.memory_budget = memory - overhead;  // memory >= min_memory > overhead
  const char* tmpdir = std::getenv("TMPDIR");
  s.temp_dir = opts.temp_dir ? *opts.temp_dir : (tmpdir && *tmpdir ? tmpdir : "/tmp");
  return s;
}

}  // namespace shufl::lines::runner
