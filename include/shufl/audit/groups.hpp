// Audits of many groups in one log (`shufl audit --group-by N`, docs/audit-input.md): a table's
// or machine's id in field N of each line names its group, and every group has a battery of its
// own (its serial tests pair each deck with the previous deck of the same group). The decision is
// Holm's over every applicable and valid test of every group at once (S. Holm, Scand. J. Statist.
// 1979), so `alpha` stays the family-wise level of the whole log, however many groups it holds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "shufl/audit.hpp"
#include "shufl/audit/deck_reader.hpp"

namespace shufl::audit {

/// A hash of group names that looks up a std::string_view without making a std::string.
struct group_name_hash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};

/// --max-groups' default: the most groups one run keeps.
inline constexpr std::size_t default_max_groups = 10000;

/// One group's audit within a grouped run.
struct group_audit {
  std::string group;    ///< its name (the field's text)
  audit_report report;  ///< its battery; holm_ln_p and results from the joint decision
};

/// A grouped run's audits, in the order the groups first appeared, and the joint decision.
struct grouped_report {
  std::vector<group_audit> groups;
  audit_decision decision;     ///< Holm over every test of every group
  std::uint64_t decks = 0;     ///< decks of every group
  std::uint64_t skipped = 0;   ///< invalid lines skipped (--skip-bad)
  std::vector<std::string> skip_reasons;
};

/// Sets holm_ln_p and result of every applicable, valid test of every group from one Holm
/// adjustment over all of them at `alpha`; each group's decision says whether any of its tests
/// failed (its `family` is the joint family's size), and the returned decision is the whole
/// run's ("... in T decks of G groups ...: group X: TESTS failed; ...").
audit_decision decide_groups(std::vector<group_audit>& groups, std::uint64_t decks, double alpha);

/// The batteries of a grouped stream: decks come one at a time with their group, each group
/// keeps a small block of decks (64) for its battery and its own previous deck.
class group_batteries {
 public:
  /// At most `max_groups` groups (>= 1), each with a battery of `shape`.
  group_batteries(const battery_shape& shape, std::size_t max_groups);
  /// The index of group `name` (from 0, in order of first appearance), made at its first deck.
  /// Throws shufl::error "more than M groups (--max-groups M)" for one group too many.
  std::size_t index_of(std::string_view name);
  /// Adds one deck (shape.positions face ids) to group `index`'s battery.
  void add(std::size_t index, std::span<const std::uint32_t> faces);
  [[nodiscard]] std::size_t size() const noexcept { return groups_.size(); }
  [[nodiscard]] const std::string& name(std::size_t index) const;
  [[nodiscard]] std::uint64_t decks() const noexcept { return decks_; }
  /// Evaluates every group's battery and decides jointly (decide_groups) at `alpha`.
  grouped_report finish(const audit_pack& pack, double alpha, unsigned threads = 1);

 private:
  struct group;
  void flush(group& g);
  battery_shape shape_;
  std::size_t max_groups_;
  std::vector<std::unique_ptr<group>> groups_;
  std::unordered_map<std::string, std::size_t, group_name_hash, std::equal_to<>> by_name_;
  std::uint64_t decks_ = 0;

 public:
  ~group_batteries();
  group_batteries(group_batteries&&) noexcept;
  group_batteries& operator=(group_batteries&&) noexcept;
};

/// Audits every deck `reader` yields (its options' group_field set) with one battery per group
/// and the joint decision. Single-threaded reading; `options.threads` for evaluating. Throws the
/// reader's shufl::error, "no decks in the input", and the max_groups error.
grouped_report audit_groups(deck_reader& reader, const audit_options& options, std::size_t max_groups);

/// A grouped audit of a file or standard input, with what its reports say of the input.
struct grouped_input_report {
  grouped_report report;
  audit_pack pack;
  std::string sha256;         ///< of every byte read, hex
  std::uint64_t bytes = 0;
};

/// Opens `path` ("-": standard input) and runs audit_groups on it with `reader` (group_field set),
/// hashing what it reads; `note` gets the reader's note on an inferred pack (when there is one).
/// Throws as text_reader::open and audit_groups do.
grouped_input_report audit_groups_input(const std::string& path, const reader_options& reader,
                                        const audit_options& options, std::size_t max_groups,
                                        const std::function<void(const std::string&)>& note);

}  // namespace shufl::audit
