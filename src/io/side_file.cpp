#include "shufl/io/side_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>
#include <vector>
#include <atomic>
#include <csignal>
#include <pthread.h>

#include "shufl/error.hpp"
#include "shufl/quote.hpp"

namespace shufl::io {

namespace {

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

mode_t file_mode() {
  // umask can only be read by setting it; we are single-threaded while options are checked.
  const mode_t mask = ::umask(022);
  ::umask(mask);
  return static_cast<mode_t>(0666 & ~mask);
}

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t wrote = ::write(fd, data.data(), data.size());
    if (wrote < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<std::size_t>(wrote));
  }
  return true;
}

// The temporaries a signal handler removes: fixed storage (a handler may not allocate or
// lock), a slot per live temporary. A path is copied in before its slot is marked used.
constexpr int kSlots = 16;
char g_temp_paths[kSlots][PATH_MAX];
std::atomic<bool> g_temp_used[kSlots];
std::atomic<bool> g_handlers_installed{false};

extern "C" void remove_temporaries_and_die(int sig) {
  const int saved = errno;
  remove_side_temporaries();
  // Die of the signal as if it had not been caught (the shell sees 128 + sig).
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  ::sigaction(sig, &dfl, nullptr);
  ::raise(sig);  // blocked in this handler: delivered when it returns
  errno = saved;
}

// Installs remove_temporaries_and_die for each of side_file_signals whose disposition is the
// default (an ignored signal stays ignored: `nohup`; a command's own handler stays).
void install_handlers() {
  if (g_handlers_installed.exchange(true)) return;
  for (const int sig : side_file_signals) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;
    struct sigaction sa {};
    sa.sa_handler = remove_temporaries_and_die;
    sigemptyset(&sa.sa_mask);
    for (const int other : side_file_signals) sigaddset(&sa.sa_mask, other);
    ::sigaction(sig, &sa, nullptr);
  }
}

// Takes a slot for `path`; -1 when the path does not fit or no slot is free (the temporary is
// then removed by the destructor only).
int register_temporary(const std::string& path) noexcept {
  if (path.size() >= PATH_MAX) return -1;
  for (int k = 0; k < kSlots; ++k) {
    if (g_temp_used[k].load()) continue;
    std::memcpy(g_temp_paths[k], path.c_str(), path.size() + 1);
    g_temp_used[k].store(true);
    return k;
  }
  return -1;
}

void unregister_temporary(int& slot) noexcept {
  if (slot >= 0) g_temp_used[slot].store(false);
  slot = -1;
}

// Blocks side_file_signals on this thread for its lifetime: between creating a temporary and
// registering it, a signal must not end the process.
class signals_blocked {
 public:
  signals_blocked() {
    sigset_t block;
    sigemptyset(&block);
    for (const int sig : side_file_signals) sigaddset(&block, sig);
    ::pthread_sigmask(SIG_BLOCK, &block, &old_);
  }
  ~signals_blocked() { ::pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  signals_blocked(const signals_blocked&) = delete;
  signals_blocked& operator=(const signals_blocked&) = delete;

 private:
  sigset_t old_;
};

}  // namespace

std::string signal_name(int sig) {
  switch (sig) {
    case SIGHUP: return "SIGHUP";
    case SIGINT: return "SIGINT";
    case SIGPIPE: return "SIGPIPE";
    case SIGTERM: return "SIGTERM";
    default: return "signal " + std::to_string(sig);
  }
}

void remove_side_temporaries() noexcept {
  for (int k = 0; k < kSlots; ++k) {
    if (g_temp_used[k].load()) ::unlink(g_temp_paths[k]);
  }
}

void check_side_format(std::string_view option, const std::string& path, side_format format) {
  if (format == side_format::any) return;
  const std::string base = base_of(path);
  const auto dot = base.rfind('.');
  if (dot == std::string::npos || dot == 0) return;  // no extension (".name" is a hidden file)
  std::string extension = base.substr(dot);
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (format == side_format::svg && extension != ".svg") {
    throw error(fmt::format("{} '{}': only SVG is supported; name the file .svg (rsvg-convert turns SVG into "
                            "PNG or PDF)", option, path));
  }
  if (format == side_format::html && extension != ".html" && extension != ".htm") {
    throw error(fmt::format("{} '{}': only HTML is supported; name the file .html", option, path));
  }
}

namespace {

// What identifies a named file: device and inode when it exists, else its canonical path.
struct file_identity {
  bool known = false;    // false: not a file that can be overwritten (a pipe, /dev/null)
  bool exists = false;
  dev_t dev = 0;
  ino_t ino = 0;
  std::string canonical;
  bool operator==(const file_identity& o) const {
    if (!known || !o.known || exists != o.exists) return false;
    return exists ? dev == o.dev && ino == o.ino : canonical == o.canonical;
  }
};

file_identity identity_of(const std::string& path) {
  file_identity id;
  struct stat st {};
  const int r = path == "-" ? ::fstat(STDIN_FILENO, &st) : ::stat(path.c_str(), &st);
  if (r == 0) {
    id.known = S_ISREG(st.st_mode);
    id.exists = true;
    id.dev = st.st_dev;
    id.ino = st.st_ino;
    return id;
  }
  if (path == "-" || errno != ENOENT) return id;
  std::error_code e;
  const auto canonical = std::filesystem::weakly_canonical(path, e);
  id.known = !e;
  id.canonical = canonical.string();
  return id;
}

}  // namespace

void check_distinct_files(const std::vector<named_file>& files) {
  std::vector<file_identity> ids;
  ids.reserve(files.size());
  for (const auto& f : files) ids.push_back(identity_of(f.path));
  const auto input_name = [](const named_file& f) { return f.option.empty() ? std::string("input") : f.option; };
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!files[i].output) continue;
    for (std::size_t k = i + 1; k < files.size(); ++k) {
      if (files[k].output && ids[i] == ids[k]) {
        throw error(fmt::format("{} and {} name the same file '{}'", files[i].option, files[k].option,
                                escape_controls(files[i].path)));
      }
    }
    for (std::size_t k = 0; k < files.size(); ++k) {
      if (!files[k].output && files[k].replaced_by != files[i].option && ids[i] == ids[k]) {
        throw error(fmt::format("{} '{}' would overwrite the {} file", files[i].option, escape_controls(files[i].path),
                                input_name(files[k])));
      }
    }
  }
}

side_file::side_file(std::string option, std::string path, side_format format)
    : option_(std::move(option)), path_(std::move(path)) {
  check_side_format(option_, path_, format);
  const auto fail = [&](int e) {
    return error(fmt::format("cannot write '{}' ({}): {}", path_, option_, std::strerror(e)));
  };
  if (path_.empty()) throw error(fmt::format("{} needs a file name", option_));
  target_ = path_;
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw fail(EISDIR);
    if (!S_ISREG(st.st_mode)) {
      fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd_ < 0) throw fail(errno);
      return;
    }
    char resolved[PATH_MAX];
    if (::realpath(path_.c_str(), resolved) != nullptr) target_ = resolved;
    // Replacing a file we may not write would succeed through the directory: refuse it as
    // writing it in place would.
    if (::access(target_.c_str(), W_OK) != 0) throw fail(errno);
  }
  std::string pattern = directory_of(target_) + "/." + base_of(target_) + ".XXXXXX";
  install_handlers();
  {
    const signals_blocked blocked;
    fd_ = ::mkostemp(pattern.data(), O_CLOEXEC);
    if (fd_ >= 0) slot_ = register_temporary(pattern);
  }
  if (fd_ < 0) throw fail(errno);
  temp_ = std::move(pattern);
  ::fchmod(fd_, file_mode());
}

side_file::side_file(side_file&& other) noexcept
    : option_(std::move(other.option_)),
      path_(std::move(other.path_)),
      target_(std::move(other.target_)),
      temp_(std::exchange(other.temp_, {})),
      fd_(std::exchange(other.fd_, -1)),
      slot_(std::exchange(other.slot_, -1)) {}

side_file::~side_file() {
  if (fd_ >= 0) ::close(fd_);
  // Unlinked before the handler forgets it: a signal in between finds it gone, never left.
  if (!temp_.empty()) ::unlink(temp_.c_str());
  unregister_temporary(slot_);
}

std::string side_file::commit(std::string_view data) noexcept {
  try {
    if (fd_ < 0) return fmt::format("cannot write '{}' ({}): already written", path_, option_);
    int e = 0;
    if (!write_all(fd_, data)) e = errno;
    // On the disk before the rename, so a crash leaves the old file or the new one, never an
    // empty one (a regular temporary; a FIFO or a device target is written in place: EINVAL).
    if (e == 0 && !temp_.empty() && ::fsync(fd_) != 0 && errno != EINVAL) e = errno;
    if (::close(fd_) != 0 && e == 0) e = errno;
    fd_ = -1;
    if (e == 0 && !temp_.empty()) {
      if (::rename(temp_.c_str(), target_.c_str()) != 0) {
        e = errno;
      } else {
        temp_.clear();
        unregister_temporary(slot_);  // a signal in between unlinks a name that is gone
      }
    }
    if (e != 0) return fmt::format("cannot write '{}' ({}): {}", path_, option_, std::strerror(e));
    return {};
  } catch (...) {
    return "out of memory";
  }
}

void side_file_errors::commit(side_file& file, std::string_view data) {
  std::string message = file.commit(data);
  if (!message.empty()) messages_.push_back(std::move(message));
}

rewritten_file::rewritten_file(std::string option, std::string path) : option_(std::move(option)), path_(std::move(path)) {
  const side_file check(option_, path_);  // fails now, before the work, if it cannot be written
}

std::string rewritten_file::write(std::string_view data) noexcept {
  std::string message;
  try {
    side_file f(option_, path_);
    message = f.commit(data);
  } catch (const std::exception& e) {
    try {
      message = e.what();
    } catch (...) {
      message = "out of memory";
    }
  }
  if (message.empty() || failed_) return {};
  failed_ = true;
  return message;
}

}  // namespace shufl::io
