// The groups of the live monitor (`shufl audit --follow --group-by N`, docs/monitor.md "Many
// tables in one log"): one since-the-start e-process and one change detector per group, every
// detector betting on replays in one window shared by all groups; and the state document that
// holds every group. Without --group-by the monitor is one group with an empty name, and its
// state document is the single-stream one of earlier versions.
//
// The alarm of the whole log. Each group g alarms when its own Shiryaev–Roberts statistic
// M_g reaches A = --arl. Under the null every deck, whatever its group, adds exactly one to the
// conditional mean of Σ_g M_g (its own group's M_g − t_g is a martingale, t_g that group's decks;
// the others do not move), so S_t = Σ_g M_{g,t} − t is a martingale in t, the decks of the whole
// log. At the first alarm τ some M_g >= A, hence S_τ + τ >= A, and optional stopping (at τ ∧ n,
// then n → ∞; M >= 0) gives E0[τ] >= A: the first false alarm of the whole log comes on average
// after at least A decks of the whole log, with no division of A among the groups. A group new to
// the log starts at M = 0 and changes nothing in the argument.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "shufl/audit/detector.hpp"
#include "shufl/audit/groups.hpp"
#include "shufl/audit/monitor.hpp"

namespace shufl::audit {

/// One group of the monitor.
struct follow_group {
  std::string name;                     ///< "" without --group-by
  e_process e;                          ///< the evidence since the start
  change_detector detector;             ///< the alarm
  std::uint64_t decks_this_run = 0;
  std::uint64_t alarms = 0;             ///< alarms in this run
  bool alarmed = false;                 ///< alarmed in this run
  bool restored_alarm = false;          ///< a restored state had alarmed: given again at the first deck
  std::uint64_t last_status_decks = ~std::uint64_t{0};
  bool unreported = false;              ///< decks this run since the group's last status
  std::uint64_t last_line = 0;          ///< input line of the group's last deck (0: none this run)
  double last_deck_time = 0;            ///< when the group's last deck was read, seconds since 1970 UTC (0: none)
  follow_group(std::string n, const audit_pack& pack, double arl, std::shared_ptr<replay_window> replay)
      : name(std::move(n)), e(pack), detector(pack, arl, change_detector::default_windows, std::move(replay)) {}
};

/// Every group of one monitor.
class follow_group_set {
 public:
  /// `grouped`: --group-by was given (the state document then holds a list of groups).
  follow_group_set(const audit_pack& pack, double arl, bool grouped, std::size_t max_groups);
  /// A deep copy: its own replay window (a copy of this one's), shared by its own groups.
  follow_group_set(const follow_group_set& other);
  follow_group_set& operator=(const follow_group_set&) = delete;
  follow_group_set(follow_group_set&&) noexcept = default;
  follow_group_set& operator=(follow_group_set&&) noexcept = default;
  ~follow_group_set() = default;
  /// ln of Σ_g M_g over every group (−inf before any deck): the statistic of the whole log's
  /// guarantee (see above).
  [[nodiscard]] double log_sum_m() const;
  [[nodiscard]] bool grouped() const noexcept { return grouped_; }
  /// The group named `name` (without --group-by: the one group, whatever `name`), made at its
  /// first deck. Throws shufl::error "more than M groups (--max-groups M)".
  follow_group& get(std::string_view name);
  [[nodiscard]] std::vector<std::unique_ptr<follow_group>>& all() noexcept { return groups_; }
  [[nodiscard]] const std::vector<std::unique_ptr<follow_group>>& all() const noexcept { return groups_; }

  /// The state document of every group, as a JSON object's text: without --group-by the one
  /// group's e-process fields with "detector" and "alarm"; with it {"format": "shufl audit follow
  /// groups", "groups": [{"group": NAME, "state": ONE}, ...]}.
  [[nodiscard]] std::string serialize() const;
  /// Restores serialize()'s text (minus any keys the caller took out). Throws shufl::error
  /// "state file: ..." when it does not fit (a grouped state without --group-by, or the
  /// reverse; another pack; a malformed group). Returns the names of the groups that had alarmed.
  std::vector<std::string> deserialize(std::string_view json_text);

 private:
  audit_pack pack_;
  double arl_;
  bool grouped_;
  std::size_t max_groups_;
  std::shared_ptr<replay_window> replay_;
  std::vector<std::unique_ptr<follow_group>> groups_;
  std::unordered_map<std::string, std::size_t, group_name_hash, std::equal_to<>> by_name_;
};

}  // namespace shufl::audit
