// Shared by the libFuzzer harnesses (tests/fuzz/*.cpp): what an expected rejection looks like,
// and a property check that aborts (so libFuzzer records the input) when it fails.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "shufl/error.hpp"

namespace shufl::fuzz {

/// Aborts with a message when a property of the reader does not hold.
inline void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz property failed: %s\n", what);
    std::abort();
  }
}

/// The fuzzer's bytes as a string view.
inline std::string_view bytes(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// An anonymous in-memory file holding `content`, positioned at its start; closed on
/// destruction. path() names it for readers that take a file name (/proc/self/fd/N).
class memory_file {
 public:
  explicit memory_file(std::string_view content) : fd_(memfd_create("fuzz", MFD_CLOEXEC)) {
    check(fd_ >= 0, "memfd_create");
    std::size_t done = 0;
    while (done < content.size()) {
      const ssize_t w = ::write(fd_, content.data() + done, content.size() - done);
      check(w > 0, "write to memfd");
      done += static_cast<std::size_t>(w);
    }
    check(::lseek(fd_, 0, SEEK_SET) == 0, "lseek");
  }
  ~memory_file() { ::close(fd_); }
  memory_file(const memory_file&) = delete;
  memory_file& operator=(const memory_file&) = delete;
  int fd() const noexcept { return fd_; }
  std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

 private:
  int fd_;
};

}  // namespace shufl::fuzz
