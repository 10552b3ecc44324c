// `shufl audit --keygen`'s two files (write_key_pair in shufl/audit/signature.hpp).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "shufl/audit/signature.hpp"
#include "shufl/error.hpp"

namespace shufl::audit {

namespace {

// Creates `path` with `mode` (whatever the umask), never over an existing file, and writes and
// syncs `text`; a file it created and could not fill is removed. Throws shufl::error.
void write_new_file(const std::string& path, const std::string& text, mode_t mode) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0) {
    if (errno == EEXIST) throw error(fmt::format("--keygen: '{}' exists: a key is never overwritten", path));
    throw error(fmt::format("--keygen: cannot create '{}': {}", path, std::strerror(errno)));
  }
  bool ok = ::fchmod(fd, mode) == 0;
  for (std::size_t done = 0; ok && done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) done += static_cast<std::size_t>(n);
  }
  const int e = errno;
  ok = ::fsync(fd) == 0 && ok;
  if (::close(fd) != 0 || !ok) {
    ::unlink(path.c_str());
    throw error(fmt::format("--keygen: cannot write '{}': {}", path, std::strerror(e)));
  }
}

}  // namespace

key_pair_files write_key_pair(const std::string& name) {
  const std::string pub = name + ".pub";
  for (const auto& p : {name, pub}) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) == 0) throw error(fmt::format("--keygen: '{}' exists: a key is never overwritten", p));
  }
  key_pair_files keys = generate_key_pair();
  write_new_file(name, keys.secret_pem, 0600);
  try {
    write_new_file(pub, keys.public_pem, 0644);
  } catch (...) {
    ::unlink(name.c_str());
    throw;
  }
  return keys;
}

}  // namespace shufl::audit
