// Test support: run the real `shufl` binary (or any program) with arguments and stdin, capture
// stdout, stderr and the exit status. Used by every end-to-end test (e2e_*_test.cpp).
#pragma once

#include <set>
#include <string>
#include <vector>

namespace shufl::test {

struct run_result {
  std::string out;   ///< Everything written to stdout.
  std::string err;   ///< Everything written to stderr.
  int status = -1;   ///< Exit status; 128 + signal number when killed by a signal.
};

/// Runs `program` with `args` (argv[1..]), feeding `input` on stdin, and waits for it.
/// `argv0` overrides argv[0] (e.g. "shuf"); `env` entries "NAME=VALUE" are added to the
/// environment. Never uses a shell, so arguments are passed exactly.
run_result run_program(const std::string& program, const std::vector<std::string>& args,
                       const std::string& input = {}, const std::string& argv0 = {},
                       const std::vector<std::string>& env = {});

/// Runs the `shufl` binary under test.
run_result run_shufl(const std::vector<std::string>& args, const std::string& input = {});

/// Runs a shell command line with /bin/sh -c (for pipelines such as `... | head -1`).
run_result run_shell(const std::string& command, const std::string& input = {});

/// Path of the `shufl` binary under test (from the build).
std::string shufl_binary();

/// Directory of the reference data (tests/reference/).
std::string reference_dir();

/// The source tree's top directory (where CMakeLists.txt is).
std::string source_dir();

/// Splits `text` at each `sep`; a trailing separator does not make an empty last field.
std::vector<std::string> split(const std::string& text, char sep);

/// The lines of `text` (split at '\n').
std::vector<std::string> lines(const std::string& text);

/// The records of `text` delimited by `delimiter`, as a multiset: for "the same records in any
/// order" checks. A last record without its delimiter counts.
std::multiset<std::string> record_multiset(const std::string& text, char delimiter = '\n');

/// Reads a whole file; throws std::runtime_error if it cannot.
std::string read_file(const std::string& path);

/// CPU seconds (user + system) used so far by this process's waited-for children
/// (getrusage(RUSAGE_CHILDREN)): the difference around run_shufl is that run's CPU time, which
/// unlike wall time does not grow with the machine's load.
double children_cpu_seconds();

/// A fresh temporary directory, removed (recursively) when the object dies.
class temp_dir {
 public:
  temp_dir();
  ~temp_dir();
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  const std::string& path() const noexcept { return path_; }
  /// path() + "/" + name.
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  /// Writes `content` to path()/name and returns the full path.
  std::string write(const std::string& name, const std::string& content) const;

 private:
  std::string path_;
};

}  // namespace shufl::test
