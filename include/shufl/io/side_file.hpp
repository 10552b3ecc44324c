// Side files: files a subcommand writes beside its report (`bias --plot`, `--save-counts`,
// `--report`, ...). NOT for `lines -o`, which keeps GNU shuf's late open. The library's io room:
// the command line uses it, and so may the Python module or any program linking libshufl.
//
// Use it for EVERY such option of bias, deck and trace (DESIGN.md, "Command line"):
//
//   std::optional<side_file> plot;
//   if (!o.plot.empty()) plot.emplace("--plot", o.plot, side_format::svg);  // before the work: fails at once
//   ... the long work ...
//   side_file_errors errors;
//   if (plot) errors.commit(*plot, svg_plot(report));      // temp file → rename into place
//   write_stdout(report_text);                              // the report is printed all the same
//   return errors.finish(exit_ok);     // src/cli/: "shufl: ..." per failure of messages(), exit 1
//
// The target is never truncated by a failed run: the data goes to a temporary file in the target's
// directory, renamed over the target only once completely written.
//
// Signals: while a temporary file exists, SIGHUP, SIGINT, SIGPIPE and SIGTERM (side_file_signals)
// remove it before they end the process (a handler installed with the first side file, for each
// of these signals not ignored; it unlinks every live temporary, then dies of the signal). A
// command that catches these signals itself (bias --save-counts stops and saves) removes the
// temporaries on its way out through the destructors.
#pragma once

#include <array>
#include <csignal>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace shufl::io {

/// The signals that end a run and whose arrival removes every side file's temporary: a dropped
/// terminal or ssh session (SIGHUP), Ctrl-C (SIGINT), a closed pipe (SIGPIPE), kill (SIGTERM).
inline constexpr std::array<int, 4> side_file_signals{SIGHUP, SIGINT, SIGPIPE, SIGTERM};

/// "SIGHUP", "SIGINT", "SIGPIPE", "SIGTERM", else "signal N".
std::string signal_name(int sig);

/// Unlinks the temporary file of every side file not yet committed or destroyed.
/// Async-signal-safe (only unlink(2) on paths stored at creation): for signal handlers.
void remove_side_temporaries() noexcept;

/// What a side file holds, when its name must agree: `--plot` draws SVG only and `--report`
/// writes HTML only. A user of matplotlib expects `savefig("x.png")` to write a PNG (the format
/// follows the extension); shufl cannot, so it refuses such a name instead of writing SVG into it.
enum class side_format {
  any,   ///< no rule (counts files)
  svg,   ///< a picture: no extension, or .svg (any case)
  html,  ///< a page: no extension, or .html / .htm (any case)
};

/// Checks that `path` may receive `format` (see side_format); throws shufl::error
/// "OPTION 'x.png': only SVG is supported (...)" otherwise. Called by side_file's constructor,
/// before the work starts.
void check_side_format(std::string_view option, const std::string& path, side_format format);

/// A file a command names: an input it reads or an output (a side file) it writes.
struct named_file {
  named_file(std::string option_name, std::string file_path, bool is_output, std::string replaced_by_option = {})
      : option(std::move(option_name)), path(std::move(file_path)), output(is_output),
        replaced_by(std::move(replaced_by_option)) {}
  std::string option;   ///< "--save-counts", "--merge", ...; "" for the positional input.
  std::string path;     ///< As given; "-" is standard input.
  bool output = false;
  /// An input that this output option may replace, having read it whole first (bias --resume
  /// and --merge with --save-counts: the new counts include the old).
  std::string replaced_by;
};

/// Refuses, before any work, two outputs that are one file and an output that is an input:
/// one would overwrite the other. Two names are one file when both exist and have the same
/// device and inode (symbolic links, "./" and hard links included; standard input by its
/// descriptor), or when neither exists yet and their canonical paths agree. Files that exist and
/// are not regular files (/dev/null, a FIFO, a terminal) are never refused. Throws shufl::error
/// "A and B name the same file 'PATH'" or "OUTPUT 'PATH' would overwrite the INPUT file".
void check_distinct_files(const std::vector<named_file>& files);

/// One side file being prepared. The constructor creates a temporary file in the target's
/// directory (so the final rename stays within one file system) and throws shufl::error
/// "cannot write 'PATH' (OPTION): REASON" (REASON from strerror) when that is impossible, or the
/// error of check_side_format when the name does not fit `format`: call it
/// before the work starts. A target that exists and is not a regular file (/dev/null, a FIFO, a
/// terminal) is opened for writing instead and written in place at commit; a symbolic link is
/// followed (the file it names is replaced, the link stays). The destructor removes an
/// uncommitted temporary file. Not copyable; movable.
class side_file {
 public:
  side_file(std::string option, std::string path, side_format format = side_format::any);
  ~side_file();
  side_file(side_file&& other) noexcept;
  side_file& operator=(side_file&&) = delete;
  side_file(const side_file&) = delete;
  side_file& operator=(const side_file&) = delete;

  /// Writes `data` to the temporary file and renames it into place (or writes it to the
  /// non-regular target). Never throws: returns "" on success, else the message
  /// "cannot write 'PATH' (OPTION): REASON". The permissions are 0666 minus the umask.
  std::string commit(std::string_view data) noexcept;

  /// The path the user gave.
  const std::string& path() const noexcept { return path_; }

 private:
  std::string option_;
  std::string path_;    // as given
  std::string target_;  // what is finally replaced (symbolic links resolved)
  std::string temp_;    // the temporary file's path; empty when writing in place
  int fd_ = -1;
  int slot_ = -1;       // where the signal handler finds temp_ (-1: not registered)
};

/// Collects the failures of side-file commits at the end of a run (the command line prints them
/// after the report and exits 1).
class side_file_errors {
 public:
  /// Commits `file` with `data`; remembers the message if it fails.
  void commit(side_file& file, std::string_view data);
  /// The messages of the failed commits, in order ("cannot write 'PATH' (OPTION): REASON").
  [[nodiscard]] const std::vector<std::string>& messages() const noexcept { return messages_; }

 private:
  std::vector<std::string> messages_;
};

/// A side file rewritten many times (`audit --follow`'s --state and --metrics): each write() is a
/// fresh side_file renamed into place, so a reader always finds a whole version. The constructor
/// makes (and drops) one side_file, so a name that cannot be written fails at once, before the
/// work, with side_file's error.
class rewritten_file {
 public:
  rewritten_file(std::string option, std::string path);
  /// Writes `data` as the file's new version. Never throws: "" on success or after an earlier
  /// failure (a failure is told once per file), else the message of the first failure.
  std::string write(std::string_view data) noexcept;
  /// Whether any write failed.
  [[nodiscard]] bool failed() const noexcept { return failed_; }

 private:
  std::string option_, path_;
  bool failed_ = false;
};

}  // namespace shufl::io
