// The live monitor's loop (include/shufl/audit/follow.hpp, docs/monitor.md).
//
// One thread: the deck reader pulls bytes through follow_source, which waits for more (poll on
// a pipe, a 0.2 s sleep at the end of a regular file) and, while waiting, lets the loop make a
// status that the interval made due. A stop request is noticed by the source (a signal makes
// the blocking calls return EINTR, the waits are at most 0.2 s), which throws follow_stopped and
// so abandons a partial last line. Every deck goes to the e-process and, a block of decks at a
// time, to the battery's accumulators.
#include "shufl/audit/follow.hpp"

#include <poll.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <vector>

#include "shufl/error.hpp"
#include "shufl/text_input.hpp"

namespace shufl::audit {

namespace {

using clock_type = std::chrono::steady_clock;

// Thrown by the source when a stop was requested: unwinds out of the deck reader.
struct follow_stopped {};

constexpr int kWaitMs = 200;  // the longest wait between looks at the stop flag and the clock

// Bytes of the followed input: a pipe or FIFO until its end, a regular file forever (its end is
// only "no more yet"). `idle` runs at every wait.
class follow_source {
 public:
  follow_source(int fd, bool regular, std::string name, const std::function<int()>& stop, std::function<void()> idle)
      : fd_(fd), regular_(regular), name_(std::move(name)), stop_(stop), idle_(std::move(idle)) {}

  std::size_t read(char* buffer, std::size_t size) {
    for (;;) {
      if (stopped()) throw follow_stopped{};
      if (!regular_) {
        pollfd p{fd_, POLLIN, 0};
        const int ready = ::poll(&p, 1, kWaitMs);
        if (ready < 0 && errno != EINTR) fail(errno);
        if (ready <= 0) {
          idle_();
          continue;
        }
      }
      const ssize_t got = ::read(fd_, buffer, size);
      if (got > 0) return static_cast<std::size_t>(got);
      if (got < 0) {
        if (errno == EINTR || errno == EAGAIN) continue;
        fail(errno);
      }
      if (!regular_) return 0;  // the writer closed the pipe: the end
      idle_();
      const timespec pause{0, kWaitMs * 1000000L};
      ::nanosleep(&pause, nullptr);  // EINTR: look at the flag at once
    }
  }

 private:
  bool stopped() const { return stop_ && stop_() != 0; }
  [[noreturn]] void fail(int e) const { throw error(fmt::format("cannot read {}: {}", name_, std::strerror(e))); }
  int fd_;
  bool regular_;
  std::string name_;
  const std::function<int()>& stop_;
  std::function<void()> idle_;
};

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
    struct stat st {};
    if (::fstat(s_.fd, &st) != 0) throw error(fmt::format("cannot read {}: {}", s_.name, std::strerror(errno)));
    if (S_ISDIR(st.st_mode)) throw error(fmt::format("cannot read {}: {}", s_.name, std::strerror(EISDIR)));
    regular_ = S_ISREG(st.st_mode);
    input_id_ = regular_ ? fmt::format("{}:{}", static_cast<unsigned long long>(st.st_dev),
                                       static_cast<unsigned long long>(st.st_ino))
                         : std::string();
    follow_source source(s_.fd, regular_, s_.name, s_.stop, [this] { idle(); });
    text_reader in(text_reader::byte_source([&source](char* b, std::size_t n) { return source.read(b, n); }), s_.name);
    crypto_hash_sha256_init(&sha_);
    in.observe_bytes([this](std::string_view b) {
      crypto_hash_sha256_update(&sha_, reinterpret_cast<const unsigned char*>(b.data()), b.size());
      bytes_ += b.size();
    });
    deck_reader reader(in, s_.reader);
    reader_ = &reader;
    const auto& r = s_.reader;
    if (r.pack || !r.custom_labels.empty() || r.decks != 1 || r.jokers != 0) start_process(make_audit_pack(r));

    next_time_ = clock_type::now() + interval_duration();
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
        if (reader.line_number() <= resume_lines_) {
          // This file's decks up to the state's line are in the restored e-process already.
          if (!resume_told_) {
            ev_.note(follow_note::resuming, {}, resume_lines_);
            resume_told_ = true;
          }
          if ((sig = stop_value()) != 0) {
            end = follow_end::stopped;
            break;
          }
          continue;
        }
        follow_group& g = groups_->get(reader.group());  // throws past --max-groups
        g.detector.add_deck(faces);  // checks the deck first: throws before anything changes
        g.e.add_deck(faces);
        batteries_->add(batteries_->index_of(g.name), faces);
        ++run_decks_;
        ++g.decks_this_run;
        g.last_line = reader.line_number();
        g.last_deck = std::chrono::system_clock::now();
        if (g.detector.alarmed() || g.restored_alarm) {
          g.restored_alarm = false;
          alarm(g);
          if (!s_.keep_going) {
            end = follow_end::alarm;
            break;
          }
          g.detector.restart();
        }
        if (s_.every != 0 && g.e.decks() % s_.every == 0) {
          status(g);
        } else if (s_.interval > 0 && clock_type::now() >= next_time_) {
          status_all();
        }
      }
      if ((sig = stop_value()) != 0) {
        end = follow_end::stopped;
        break;
      }
      if (!more) break;
    }
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

  std::chrono::nanoseconds interval_duration() const {
    return std::chrono::nanoseconds(static_cast<std::int64_t>((s_.interval > 0 ? s_.interval : 1e6) * 1e9));
  }

  void start_process(const audit_pack& pack) {
    groups_.emplace(pack, s_.arl, s_.reader.group_field != 0, s_.max_groups);
    if (!groups_->grouped()) groups_->get({});  // one stream: its group exists from the start
    if (!s_.keep_state) return;
    if (!s_.state_text) {
      ev_.note(follow_note::new_state, {}, 0);
      return;
    }
    std::string text = *s_.state_text;
    // The monitor's own record beside the groups' states: which regular file (device:inode) it
    // followed and through which line, so a restart on the same file does not add its decks
    // twice (a pipe or another file is read whole: its decks are new).
    try {
      auto j = nlohmann::json::parse(text);
      if (j.is_object() && j.contains("follow_input")) {
        const auto f = j["follow_input"];
        j.erase("follow_input");
        if (!f.is_object() || !f.value("id", nlohmann::json("")).is_string() ||
            !f.value("lines", nlohmann::json(0u)).is_number_unsigned())
          throw error(fmt::format("--state '{}': state file: 'follow_input' is malformed", state_name_));
        text = j.dump();
        if (f.is_object() && f.value("id", std::string()) == input_id_ && !input_id_.empty()) {
          resume_lines_ = f.value("lines", std::uint64_t{0});
        } else if (f.is_object() && f.value("lines", std::uint64_t{0}) > 0) {
          ev_.note(follow_note::other_input, {}, 0);
        }
      }
    } catch (const nlohmann::json::exception&) {
      // not JSON: the library's reader says what is wrong
    }
    std::vector<std::string> had_alarm;
    try {
      had_alarm = groups_->deserialize(text);
    } catch (const error& e) {
      throw error(fmt::format("--state '{}': {}", state_name_, e.what()));
    }
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
  // since their last one: an idle monitor stays quiet).
  void idle() {
    if (groups_ && s_.interval > 0 && clock_type::now() >= next_time_) status_all();
  }

  follow_status current(const follow_group& g) const {
    follow_status f;
    f.grouped = groups_->grouped();
    f.group = g.name;
    f.line = g.last_line;
    f.time = std::chrono::system_clock::now();
    f.e = g.e.current();
    f.detector = g.detector.current();
    f.arl = s_.arl;
    f.alarms = g.alarms;
    f.decks_this_run = g.decks_this_run;
    f.alpha = s_.alpha;
    f.threshold_log10 = threshold_log10_;
    f.alarm = g.alarmed;
    return f;
  }

  void status(follow_group& g) {
    const follow_status f = current(g);
    ev_.status(f);
    save(f);
    g.last_status_decks = f.e.decks;
    next_time_ = clock_type::now() + interval_duration();
  }

  // A status of every group with decks since its last one.
  void status_all() {
    for (auto& g : groups_->all())
      if (g->e.decks() != g->last_status_decks && g->decks_this_run > 0) status(*g);
    next_time_ = clock_type::now() + interval_duration();
  }

  void save(const follow_status& f) {
    std::string state;
    if (s_.keep_state) {
      auto j = nlohmann::ordered_json::parse(groups_->serialize());
      const std::uint64_t lines = reader_ != nullptr ? std::max(reader_->line_number(), resume_lines_) : resume_lines_;
      j["follow_input"] = {{"id", input_id_}, {"lines", regular_ ? lines : 0}};
      state = j.dump() + "\n";
    }
    ev_.groups(groups_->records());
    ev_.save(f, state);
  }

  void alarm(follow_group& g) {
    g.alarmed = true;
    ++g.alarms;
    alarmed_ = true;
    const follow_status f = current(g);
    ev_.alarm(f);
    save(f);
    g.last_status_decks = f.e.decks;
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
    out.alarmed = alarmed_;
    out.battery_failed = fin.report ? !fin.report->decision.pass : fin.group_reports && !fin.group_reports->decision.pass;
  }

  const follow_settings& s_;
  follow_events& ev_;
  const std::string& state_name_;
  double threshold_log10_ = 3;
  clock_type::time_point next_time_{};
  std::optional<follow_group_set> groups_;
  std::optional<group_batteries> batteries_;
  std::uint64_t run_decks_ = 0;
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
};

}  // namespace

follow_outcome follow(const follow_settings& settings, follow_events& events, const std::string& state_name) {
  follow_loop loop(settings, events, state_name);
  return loop.run();
}

}  // namespace shufl::audit
