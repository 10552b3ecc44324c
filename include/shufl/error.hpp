// The one exception type users see, and "did you mean" suggestions for mistyped names.
#pragma once

#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace shufl {

/// An error to report to the user: `main` prints `shufl: ` + what() on stderr and exits with
/// `exit_status` (1 for every error, as GNU tools do). Library code throws it for bad input;
/// hot loops never throw.
class error : public std::runtime_error {
 public:
  explicit error(const std::string& message, int exit_status = 1)
      : std::runtime_error(message), exit_status_(exit_status) {}
  int exit_status() const noexcept { return exit_status_; }

 private:
  int exit_status_;
};

/// The candidate closest to `name` by Levenshtein edit distance, if it is within
/// max(2, |name| / 3) edits; empty otherwise. For "unknown algorithm 'fisher-yate'; did you mean
/// 'fisher-yates'?" messages.
std::string closest_name(std::string_view name, std::span<const std::string_view> candidates);

/// "unknown WHAT 'name'" plus "; did you mean 'x'?" when a close candidate exists, plus the list
/// of valid names. Returned as an error ready to throw.
error unknown_name_error(std::string_view what, std::string_view name,
                         std::span<const std::string_view> candidates);

}  // namespace shufl
