// The live monitor's loop (include/shufl/audit/follow.hpp, docs/monitor.md).
//
// One thread: the deck reader pulls bytes through follow_source (follow_source.hpp), which
// waits for more without spinning and, while waiting, lets the loop make a status or a metrics
// record that the clock made due. A stop request is noticed by the source, which throws
// follow_stopped and so abandons a partial last line. Every deck goes to its group's e-process
// and detector (follow_groups.hpp; one unnamed group without --group-by) and, a block of decks
// at a time, to its group's battery.
#include "shufl/audit/follow.hpp"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "shufl/audit/monitor_state.hpp"
#include "shufl/error.hpp"
#include "shufl/text_input.hpp"
#include "follow_source.hpp"

namespace shufl::audit {

namespace {

using clock_type = std::chrono::steady_clock;
using detail::follow_source;
using detail::follow_stopped;
using detail::follow_switch;

// Seconds since 1970-01-01 UTC, now.
double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

class follow_loop {
 public:
  follow_loop(const follow_settings& s, follow_events& ev, const std::string& state_name)
      : s_(s), ev_(ev), state_name_(state_name) {
    if (!(s.alpha > 0 && s.alpha < 1)) throw error(fmt::format("--alpha must be between 0 and 1, not {}", s.alpha));
    if (!(s.arl > 1 && s.arl <= 1e300)) throw error(fmt::format("--arl must be above 1, not {}", s.arl));
    threshold_log10_ = -std::log10(s.alpha);
  }

  follow_outcome run() {
    if (sodium_init() < 0) throw error("libsodium failed to initialise");
    follow_outcome out;
    follow_source::hooks hooks;
    hooks.stop = s_.stop;
    hooks.reopen = s_.reopen;
    hooks.wake_fd = s_.wake_fd;
    hooks.idle = [this] { idle(); };
    hooks.wait_budget = [this] { return wait_budget(); };
    hooks.switched = [this](follow_switch why) { switched(why); };
    follow_source source(s_.fd, s_.path, s_.name, std::move(hooks));
    source_ = &source;
    regular_ = source.regular();
    input_id_ = source.id();
    crypto_hash_sha256_init(&sha_);
    // The checksum is of the input's bytes: the line end the source adds after a line that a
    // rotation cut (follow_source::synthetic) is in no file, so it is left out.
    text_reader in(text_reader::byte_source([this, &source](char* b, std::size_t n) {
                     const std::size_t got = source.read(b, n);
                     if (!source.synthetic()) {
                       crypto_hash_sha256_update(&sha_, reinterpret_cast<const unsigned char*>(b), got);
                       bytes_ += got;
                     }
                     return got;
                   }),
                   s_.name);
    deck_reader reader(in, s_.reader);
    reader_ = &reader;
    const auto& r = s_.reader;
    if (r.pack || !r.custom_labels.empty() || r.decks != 1 || r.jokers != 0) start_process(make_audit_pack(r));

    next_time_ = clock_type::now() + interval_duration();
    next_metrics_ = clock_type::now() + metrics_duration();
    std::vector<std::uint32_t> faces;
    follow_end end = follow_end::end_of_input;
    int sig = 0;
    for (;;) {
      bool more = false;
      try {
        more = reader.next(faces);
      } catch (const follow_stopped&) {
        more = false;
      }
      if (more) {
        if (!groups_) {
          if (!reader.inference_note().empty()) ev_.note(follow_note::inferred_pack, reader.inference_note(), 0);
          start_process(reader.pack());
        }
        if (!batteries_) start_battery(reader.pack(), faces.size());
        if (source.lines_before() == 0 && reader.line_number() <= resume_lines_) {
          // This file's decks up to the state's line are in the restored e-process already.
          if (!resume_told_) {
            ev_.note(follow_note::resuming, {}, resume_lines_);
            resume_told_ = true;
          }
        } else if (overlap(faces, reader.group(), reader.line_number())) {
          // held back: perhaps the state's last decks again (tail -F after a restart)
        } else if (!take_pending() || !take(faces, reader.group(), reader.line_number())) {
          end = follow_end::alarm;
          break;
        }
      }
      if ((sig = stop_value()) != 0) {
        end = follow_end::stopped;
        break;
      }
      if (!more) break;
    }
    // Decks held back that did not reach the state's last deck are new after all.
    if (end != follow_end::alarm && !take_pending()) end = follow_end::alarm;
    out.end = end;
    out.stop_signal = sig;
    if (!groups_ || groups_->all().empty()) {
      if (end == follow_end::end_of_input) throw error(fmt::format("{}: no decks in the input", s_.name));
      return out;
    }
    out.any_deck = true;
    finish(reader, out);
    return out;
  }

 private:
  int stop_value() const { return s_.stop ? s_.stop() : 0; }

  // Adds one deck of group `name` (read at input line `line`) to everything; false when an
  // alarm ends the run.
  bool take(const std::vector<std::uint32_t>& faces, std::string_view name, std::uint64_t line) {
    follow_group& g = groups_->get(name);  // throws past --max-groups
    shared_.ready = false;  // the guessing predictors' work, done once for the three e-processes
    // The detector's learners and the since-the-start e-process in one pass (it checks the deck
    // first: throws before anything changes).
    g.detector.add_deck(faces, &shared_, &g.e);
    batteries_->add(batteries_->index_of(g.name), faces);
    ++g.decks_this_run;
    if (!g.unreported) {
      g.unreported = true;
      ++unreported_;
    }
    g.last_line = line;
    g.last_deck_time = unix_now();
    if (s_.overlap_decks > 0) {
      recent_.push_back(deck_hash(faces, groups_->grouped() ? std::string_view(g.name) : std::string_view()));
      if (recent_.size() > s_.overlap_decks) recent_.pop_front();
    }
    if (g.detector.alarmed() || g.restored_alarm) {
      g.restored_alarm = false;
      alarm(g);
      if (!s_.keep_going) return false;
      g.detector.restart();
    }
    if (s_.every != 0 && g.e.decks() % s_.every == 0) {
      status(g);
    } else if (s_.interval > 0 && clock_type::now() >= next_time_) {
      status_all();
    } else if (s_.metrics_interval > 0 && clock_type::now() >= next_metrics_) {
      metrics();  // a busy stream between statuses: the metrics are still rewritten on time
    }
    return true;
  }

  // At the start of a run through a pipe with a restored state: the leading decks are held
  // back while they match, in order, a stretch of the state's last decks; when the stretch
  // reaches the last deck saved they are skipped (they are in the e-process already: `tail -F`
  // after a restart repeats its last lines), else they are added after all (take_pending).
  // Only those decks: a replay further back is still seen by the detector. True: held back.
  bool overlap(const std::vector<std::uint32_t>& faces, std::string_view group, std::uint64_t line) {
    if (!matching_) return false;
    const std::uint64_t h = deck_hash(faces, groups_->grouped() ? group : std::string_view());
    const std::size_t m = pending_.size(), k = recent_.size();
    std::vector<std::size_t> next;
    if (m == 0) {
      for (std::size_t j = 0; j < k; ++j)
        if (recent_[j] == h) next.push_back(j);
    } else {
      for (const std::size_t j : candidates_)
        if (j + m < k && recent_[j + m] == h) next.push_back(j);
    }
    // A stretch reaching the state's last deck is skipped only when a fair shuffler could not
    // have dealt it by chance: together at most 2^-64 likely (one deck of 52 cards, 10 of 5).
    const std::size_t held = m + 1;
    bool skip = false;
    std::erase_if(next, [&](std::size_t j) {
      if (j + held != k) return false;
      skip = skip || static_cast<double>(held) * overlap_bits(faces.size()) >= 64;
      return true;
    });
    if (skip) {
      ev_.note(follow_note::overlap_skipped, {}, held);
      pending_.clear();
      candidates_.clear();
      matching_ = false;
      return true;
    }
    candidates_ = std::move(next);
    if (candidates_.empty()) {
      matching_ = false;
      return false;  // this deck is new; the held ones are added first by take_pending
    }
    pending_.push_back({faces, groups_->grouped() ? std::string(group) : std::string(), line});
    return true;
  }

  // −log2 of the largest null probability of one deck of `dealt` cards: Π copies! / n! for a
  // whole deck, at most Π_t min(copies, n − t) / (n − t) for a deal of fewer cards.
  double overlap_bits(std::size_t dealt) const {
    const audit_pack& pack = reader_->pack();
    const std::size_t n = pack.size();
    double log_p = 0;
    if (dealt == n) {
      for (const std::uint32_t c : pack.copies) log_p += std::lgamma(static_cast<double>(c) + 1);
      log_p -= std::lgamma(static_cast<double>(n) + 1);
    } else {
      const std::uint32_t most = *std::max_element(pack.copies.begin(), pack.copies.end());
      for (std::size_t t = 0; t < dealt; ++t)
        log_p += std::log(std::min<double>(most, static_cast<double>(n - t)) / static_cast<double>(n - t));
    }
    return -log_p / std::log(2.0);
  }

  bool take_pending() {
    matching_ = false;
    std::vector<held_deck> held;
    held.swap(pending_);
    for (const auto& d : held)
      if (!take(d.faces, d.group, d.line)) return false;
    return true;
  }

  // How long the source may wait now: until an interval status that decks made due, or the
  // next metrics record; no limit when neither is due (a quiet monitor sleeps).
  std::chrono::milliseconds wait_budget() const {
    using std::chrono::duration_cast;
    using std::chrono::milliseconds;
    const auto now = clock_type::now();
    std::int64_t ms = -1;
    const auto until = [&](clock_type::time_point t) {
      const std::int64_t d = std::max<std::int64_t>(0, duration_cast<milliseconds>(t - now).count() + 1);
      ms = ms < 0 ? d : std::min(ms, d);
    };
    if (groups_ && s_.interval > 0 && status_due()) until(next_time_);
    if (groups_ && s_.metrics_interval > 0) until(next_metrics_);
    return milliseconds(ms);
  }

  std::chrono::nanoseconds metrics_duration() const {
    return std::chrono::nanoseconds(static_cast<std::int64_t>((s_.metrics_interval > 0 ? s_.metrics_interval : 1e6) * 1e9));
  }

  void switched(follow_switch why) {
    input_id_ = source_->id();
    // A last line without its newline is a line of its own, never glued to the new bytes.
    if (source_->cut_line()) ev_.note(follow_note::cut_line, {}, source_->lines_before());
    switch (why) {
      case follow_switch::truncated: ev_.note(follow_note::truncated, {}, 0); break;
      case follow_switch::renamed: ev_.note(follow_note::rotated, {}, 0); break;
      case follow_switch::reopened: ev_.note(follow_note::reopened, {}, 0); break;
      case follow_switch::same_file: ev_.note(follow_note::reopen_same, {}, 0); break;
      case follow_switch::not_a_file: ev_.note(follow_note::reopen_not_a_file, {}, 0); break;
    }
  }

  // Whether some group had decks since its last status (O(1): a count kept by take and
  // reported).
  bool status_due() const { return unreported_ > 0; }

  // A status of g was given (or its alarm, which shows the same): no longer due.
  void reported(follow_group& g, std::uint64_t decks) {
    g.last_status_decks = decks;
    if (g.unreported) {
      g.unreported = false;
      --unreported_;
    }
  }

  // The metrics record: every group's status and last deck's time.
  void metrics() {
    next_metrics_ = clock_type::now() + metrics_duration();
    if (!groups_) return;
    follow_metrics_record r;
    r.pack = e_pack_name_;
    r.now = unix_now();
    r.skipped_lines = reader_ != nullptr ? reader_->skipped() : 0;
    r.groups.reserve(groups_->all().size());
    for (const auto& g : groups_->all()) {
      follow_group_record one;
      one.name = g->name;
      one.status = current(*g);
      one.last_deck_time = g->last_deck_time;
      r.groups.push_back(std::move(one));
    }
    ev_.metrics(r);
  }

  std::chrono::nanoseconds interval_duration() const {
    return std::chrono::nanoseconds(static_cast<std::int64_t>((s_.interval > 0 ? s_.interval : 1e6) * 1e9));
  }

  void start_process(const audit_pack& pack) {
    e_pack_name_ = pack.name;
    groups_.emplace(pack, s_.arl, s_.reader.group_field != 0, s_.max_groups);
    if (!groups_->grouped()) groups_->get({});  // one stream: its group exists from the start
    if (!s_.keep_state) return;
    if (!s_.state_text) {
      ev_.note(follow_note::new_state, {}, 0);
      return;
    }
    std::string text = *s_.state_text;
    // The monitor's own records beside the groups' states (the single-stream document or the
    // grouped one): which regular file (device:inode) it followed and through which line, so a
    // restart on the same file does not add its decks twice (a pipe or another file is read
    // whole: its decks are new), and the hashes of the last decks (a restarted pipe's overlap).
    try {
      monitor_document doc = read_monitor_document(text, s_.overlap_decks);
      text = std::move(doc.groups_state);
      if (doc.has_input) {
        if (doc.records.input_id == input_id_ && !input_id_.empty()) {
          resume_lines_ = doc.records.lines;
        } else if (doc.records.lines > 0) {
          ev_.note(follow_note::other_input, {}, 0);
        }
      }
      recent_ = std::move(doc.records.recent);
    } catch (const error& e) {
      throw error(fmt::format("--state '{}': {}", state_name_, e.what()));
    }
    std::vector<std::string> had_alarm;
    try {
      had_alarm = groups_->deserialize(text);  // each group's e-process, detector and alarm
    } catch (const error& e) {
      throw error(fmt::format("--state '{}': {}", state_name_, e.what()));
    }
    matching_ = !regular_ && !recent_.empty();
    for (const std::string& name : had_alarm) {
      follow_group& g = groups_->get(name);
      ev_.note(s_.reset_alarm ? follow_note::alarm_reset : follow_note::restored_alarm, name, 0);
      if (s_.reset_alarm) {
        g.detector.restart();
      } else {
        g.restored_alarm = true;
      }
    }
  }

  void start_battery(const audit_pack& pack, std::size_t dealt) {
    battery_shape shape = make_shape(pack, dealt);
    set_game(shape, pack, s_.game);
    batteries_.emplace(shape, s_.reader.group_field != 0 ? s_.max_groups : 1);
  }

  // While the source waits: statuses that the interval made due (only for groups with decks
  // since their last one: an idle monitor stays quiet), and the metrics every metrics_interval.
  void idle() {
    if (groups_ && s_.interval > 0 && clock_type::now() >= next_time_ && status_due()) status_all();
    if (groups_ && s_.metrics_interval > 0 && clock_type::now() >= next_metrics_) metrics();
  }

  follow_status current(const follow_group& g) const {
    follow_status f;
    f.grouped = groups_->grouped();
    f.group = g.name;
    f.line = g.last_line;
    f.e = g.e.current();
    f.detector = g.detector.current();
    f.arl = s_.arl;
    f.alarms = g.alarms;
    f.decks_this_run = g.decks_this_run;
    f.alpha = s_.alpha;
    f.threshold_log10 = threshold_log10_;
    f.alarm = g.alarmed;
    f.time = unix_now();
    return f;
  }

  // One group's status, its state and (unless more statuses follow at once) the metrics.
  // The state holds every group, so statuses that follow at once save it once (status_all).
  follow_status status(follow_group& g, bool alone = true) {
    follow_status f = current(g);
    ev_.status(f);
    if (alone) {
      save(f);
      metrics();
    }
    reported(g, f.e.decks);
    next_time_ = clock_type::now() + interval_duration();
    return f;
  }

  // A status of every group with decks since its last one, then one state and one metrics
  // record: saving the whole state after each group's status made an interval cost
  // O(groups^2).
  void status_all() {
    std::optional<follow_status> last;
    for (auto& g : groups_->all())
      if (g->e.decks() != g->last_status_decks && g->decks_this_run > 0) last = status(*g, false);
    if (last) {
      save(*last);
      metrics();
    }
    next_time_ = clock_type::now() + interval_duration();
  }

  void save(const follow_status& f) {
    std::string state;
    if (s_.keep_state) {
      const std::uint64_t base = source_ != nullptr ? source_->lines_before() : 0;
      const std::uint64_t read = reader_ != nullptr && reader_->line_number() > base ? reader_->line_number() - base : 0;
      const std::uint64_t lines = base == 0 ? std::max(read, resume_lines_) : read;
      // The last decks (hashes), so a pipe restarted with some of them again skips just those.
      monitor_records records{input_id_, regular_ ? lines : 0, recent_};
      state = write_monitor_state(groups_->serialize(), records);
    }
    ev_.save(f, state);
  }

  void alarm(follow_group& g) {
    g.alarmed = true;
    ++g.alarms;
    alarmed_ = true;
    const follow_status f = current(g);
    ev_.alarm(f);
    save(f);
    metrics();
    reported(g, f.e.decks);
  }

  void finish(const deck_reader& reader, follow_outcome& out) {
    follow_final fin;
    for (const auto& g : groups_->all()) fin.group_statuses.push_back(current(*g));
    fin.status = fin.group_statuses.back();
    fin.end = out.end;
    fin.stop_signal = out.stop_signal;
    fin.pack = &reader.pack();
    if (batteries_ && batteries_->decks() > 0) {
      grouped_report g = batteries_->finish(reader.pack(), s_.alpha);
      g.skipped = reader.skipped();
      g.skip_reasons = reader.skip_reasons();
      if (groups_->grouped()) {
        fin.group_reports = std::move(g);
      } else {
        // One stream: the battery's own decision, as `shufl audit` makes it.
        audit_report r = std::move(g.groups.front().report);
        r.decision = decide(r.tests, r.decks, s_.alpha);
        r.skipped = reader.skipped();
        r.skip_reasons = reader.skip_reasons();
        fin.report = std::move(r);
      }
    }
    unsigned char digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256_final(&sha_, digest);
    for (const unsigned char c : digest) fin.sha256 += fmt::format("{:02x}", c);
    fin.bytes = bytes_;
    ev_.final(fin);
    save(fin.status);
    metrics();
    out.alarmed = alarmed_;
    out.battery_failed = fin.report ? !fin.report->decision.pass : fin.group_reports && !fin.group_reports->decision.pass;
  }

  const follow_settings& s_;
  follow_events& ev_;
  const std::string& state_name_;
  double threshold_log10_ = 3;
  clock_type::time_point next_time_{};
  std::uint64_t unreported_ = 0;  // groups with decks since their last status
  e_process::shared_guesses shared_;
  std::optional<follow_group_set> groups_;
  std::optional<group_batteries> batteries_;
  bool alarmed_ = false;
  crypto_hash_sha256_state sha_{};
  std::uint64_t bytes_ = 0;
  // A state on a regular file: its identity (device:inode), and the lines a restored state
  // holds already (skipped on this run).
  bool regular_ = false;
  std::string input_id_;
  std::uint64_t resume_lines_ = 0;
  bool resume_told_ = false;
  const deck_reader* reader_ = nullptr;
  const follow_source* source_ = nullptr;
  clock_type::time_point next_metrics_{};
  std::string e_pack_name_;
  // The last decks added (hashes, oldest first), and a pipe's leading decks held back while
  // they match a stretch of them (start indices of the stretches still matching).
  std::deque<std::uint64_t> recent_;
  bool matching_ = false;
  struct held_deck {
    std::vector<std::uint32_t> faces;
    std::string group;  // "" without --group-by
    std::uint64_t line = 0;
  };
  std::vector<held_deck> pending_;
  std::vector<std::size_t> candidates_;
};

}  // namespace

namespace {
std::atomic<int> g_wake_write{-1};  // the write end of the one follow_wake
}  // namespace

follow_wake::follow_wake() noexcept {
  int fds[2];
  if (::pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0) return;
  read_fd_ = fds[0];
  g_wake_write.store(fds[1]);
}

follow_wake::~follow_wake() {
  if (read_fd_ < 0) return;
  ::close(read_fd_);
  const int w = g_wake_write.exchange(-1);
  if (w >= 0) ::close(w);
}

void follow_wake::notify() noexcept {
  const int w = g_wake_write.load();
  if (w < 0) return;
  const int saved = errno;
  const char byte = 1;
  [[maybe_unused]] const ssize_t n = ::write(w, &byte, 1);  // a full pipe: a wake is pending anyway
  errno = saved;
}

follow_outcome follow(const follow_settings& settings, follow_events& events, const std::string& state_name) {
  follow_loop loop(settings, events, state_name);
  return loop.run();
}

}  // namespace shufl::audit
