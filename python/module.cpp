// The Python module shufl._shufl (pybind11): a thin layer over the library, as the CLI is one
// over the same functions (audit::audit_array and audit::audit_decks, lines::scatter_shuffle,
// render::audit_json_report, audit_text_report and audit_report_fragment). No statistics or
// formats here: the Python package (python/shufl/) builds its result objects from the JSON
// document, the text and the HTML render makes.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <fmt/format.h>

#include <atomic>
#include <map>
#include <cmath>
#include <span>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "render/audit_output.hpp"
#include "render/audit_plan.hpp"
#include "render/audit_report.hpp"
#include "render/bias_report.hpp"
#include "render/follow_output.hpp"
#include "render/seed_search_output.hpp"
#include "render/text_escape.hpp"
#include "shufl/audit.hpp"
#include "shufl/audit/card_array.hpp"
#include "shufl/audit/detector.hpp"
#include "shufl/audit/monitor.hpp"
#include "shufl/audit/monitor_state.hpp"
#include "shufl/audit/plan.hpp"
#include "shufl/audit/seed_search_input.hpp"
#include "shufl/audit/seed_search_run.hpp"
#include "shufl/audit/tier.hpp"
#include "shufl/bias.hpp"
#include "shufl/cpus.hpp"
#include "shufl/deck.hpp"
#include "shufl/error.hpp"
#include "shufl/lines/scatter.hpp"
#include "shufl/random.hpp"
#include "shufl/text_input.hpp"
#include "shufl/version.hpp"

namespace py = pybind11;
using namespace shufl;

namespace {

// What both audits share: the pack, the game and the options, from the Python arguments.
struct audit_args {
  std::string pack;
  std::uint64_t decks_in_shoe = 1;
  std::optional<std::size_t> dealt;
  std::optional<std::string> game;
  std::optional<std::string> deal;  // "HxC", as --deal
  double alpha = 0.01;
  unsigned threads = 1;
  std::size_t lags = 2;  // --lags
};

audit::reader_options reader_options_of(const audit_args& a) {
  audit::reader_options o;
  if (!a.pack.empty()) o.pack = parse_pack(a.pack);
  o.decks = a.decks_in_shoe;
  o.dealt = a.dealt;
  return o;
}

audit::audit_options audit_options_of(const audit_args& a) {
  audit::audit_options o;
  o.alpha = a.alpha;
  o.threads = a.threads;
  o.game = audit::parse_game(a.game, a.deal);
  o.lags = a.lags;
  return o;
}

// Polls Python's signal handlers from the audit's waiting thread: Ctrl-C stops the run and the
// KeyboardInterrupt stays set for the caller.
struct signal_poll {
  std::atomic<bool> raised{false};
  bool operator()() {
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) {
      raised = true;
      return true;
    }
    return false;
  }
};

// pack=None: the pack the CLI infers from a line of numbers 1..N (the deck reader's own rule,
// read from the identity deck).
audit::audit_pack inferred_pack(std::size_t columns, const audit_args& args) {
  std::string line;
  for (std::size_t k = 1; k <= columns; ++k) {
    if (k > 1) line.push_back(' ');
    line.append(std::to_string(k));
  }
  text_reader in(line, "<array>");
  audit::reader_options ro;
  ro.dealt = args.dealt;  // the reader refuses it without a declared pack, in the CLI's words
  audit::deck_reader reader(in, ro);
  std::vector<std::uint32_t> faces;
  reader.next(faces);
  return reader.pack();
}

audit::card_int card_int_of(const py::dtype& dt) {
  const char kind = dt.kind();
  if (kind != 'i' && kind != 'u') {
    throw py::type_error("decks must be an array of integers (card numbers), not of dtype " +
                         py::str(static_cast<const py::object&>(dt)).cast<std::string>());
  }
  const bool s = kind == 'i';
  switch (dt.itemsize()) {
    case 1: return s ? audit::card_int::i8 : audit::card_int::u8;
    case 2: return s ? audit::card_int::i16 : audit::card_int::u16;
    case 4: return s ? audit::card_int::i32 : audit::card_int::u32;
    case 8: return s ? audit::card_int::i64 : audit::card_int::u64;
    default: throw py::type_error("decks: integers of " + std::to_string(dt.itemsize()) + " bytes are not supported");
  }
}

// One audit's HTML fragment for a notebook (_repr_html_), made when asked for: it holds the
// heatmaps' SVG (about 0.7 MB for a 52-card pack), which a result per group need not carry. Its
// element ids start with "shufl-" and 48 random bits from the OS, so the fragments of several
// results in one notebook, even of kernels before a restart, do not repeat an id.
struct report_html {
  render::audit_page_section section;
  [[nodiscard]] std::string html() const {
    return render::audit_report_fragment(section, "shufl-" + to_hex(key_from_os()).substr(0, 12) + "-");
  }
};

// The JSON document, the text report and the source of the HTML fragment.
py::tuple reports(const audit::audit_report& r, const render::audit_input& in, const audit::audit_pack& pack) {
  nlohmann::ordered_json doc = render::audit_json_report(r, in, pack);
  std::string json = doc.dump();
  return py::make_tuple(std::move(json), render::audit_text_report(r, in),
                        report_html{render::audit_page_section_of(r, in, std::move(doc))});
}

// A 2-D integer array as the library reads it, where it lies (any strides); `row` names what a
// row holds in the error ("deck", or "deal" for the seed search).
audit::card_array card_array_of(const py::array& decks, bool zero_based, const char* row = "deck") {
  if (decks.ndim() != 2) {
    throw py::value_error(std::string("decks must be a 2-D array (one ") + row + " per row), not " + std::to_string(decks.ndim()) + "-D");
  }
  audit::card_array a;
  a.type = card_int_of(decks.dtype());
  a.data = decks.data();
  a.rows = static_cast<std::size_t>(decks.shape(0));
  a.columns = static_cast<std::size_t>(decks.shape(1));
  a.row_stride = decks.strides(0);
  a.column_stride = decks.strides(1);
  a.zero_based = zero_based;
  return a;
}

py::tuple audit_array(const py::array& decks, const audit_args& args, bool zero_based) {
  const audit::card_array a = card_array_of(decks, zero_based);
  const audit::audit_pack pack = args.pack.empty() ? inferred_pack(a.columns, args) : audit::make_audit_pack(reader_options_of(args));
  const audit::audit_options options = audit_options_of(args);
  signal_poll poll;
  audit::audit_report r;
  try {
    py::gil_scoped_release release;
    r = audit::audit_array(a, pack, args.dealt, options, [&] { return poll(); });
  } catch (const error&) {
    if (poll.raised) throw py::error_already_set();
    throw;
  }
  render::audit_input in;
  in.array = render::audit_array_input{a.name, a.rows, a.columns, py::str(static_cast<const py::object&>(decks.dtype())).cast<std::string>()};
  return reports(r, in, pack);
}

// Decks as lines of card labels (tab-separated), read by the CLI's own reader.
py::tuple audit_text(const std::string& text, const std::string& name, const audit_args& args, bool declared) {
  text_reader in(text, name);
  audit::reader_options ro = declared ? reader_options_of(args) : audit::reader_options{};
  if (!declared) ro.dealt = args.dealt;
  audit::deck_reader reader(in, ro);
  const audit::audit_options options = audit_options_of(args);
  audit::audit_report r;
  {
    py::gil_scoped_release release;
    r = audit::audit_decks(reader, options);
  }
  render::audit_input info;
  info.name = name;
  info.bytes = text.size();
  return reports(r, info, reader.pack());
}

// Runs `work` on a worker thread with the GIL released, while the calling thread polls Python's
// signal handlers every 50 ms (signal_poll): CPython runs them only on the main thread, so a poll
// from a helper thread never sees Ctrl-C. Ctrl-C sets `stop`, which the work reads to end early;
// once it has ended, the handler's exception (KeyboardInterrupt) is raised here. An exception of
// the work is rethrown on the calling thread. `work` must not touch Python objects.
template <class Work>
auto run_interruptible(std::atomic<bool>& stop, Work&& work) {
  std::optional<decltype(work())> result;
  std::exception_ptr failure;
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  signal_poll poll;
  {
    py::gil_scoped_release release;
    std::thread worker([&] {
      try {
        result.emplace(work());
      } catch (...) {
        failure = std::current_exception();
      }
      {
        std::lock_guard lock(m);
        done = true;
      }
      cv.notify_all();
    });
    std::unique_lock lock(m);
    while (!cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return done; })) {
      if (poll.raised) continue;  // asked once; the exception stays set until the work ends
      lock.unlock();
      if (poll()) stop = true;
      lock.lock();
    }
    lock.unlock();
    worker.join();
  }
  if (poll.raised) throw py::error_already_set();
  if (failure) std::rethrow_exception(failure);
  return std::move(*result);
}

// `shufl bias` (run_bias) and its JSON and text reports (render/bias_report.hpp).
py::tuple bias(std::size_t n, std::uint64_t trials, const std::string& algorithms, const std::optional<std::string>& seed,
               double alpha, const std::string& engine, const std::string& test, bool exact, unsigned threads) {
  bias_options b;
  b.n = n;
  b.trials = trials;
  if (seed && seed->empty()) throw error("--seed must not be empty");
  b.seed = seed;
  b.algorithms = parse_algorithm_list(algorithms);
  b.alpha = alpha;
  b.engine = parse_engine(engine);
  if (test != "auto" && test != "table" && test != "position") {
    throw error("test must be 'auto', 'table' or 'position', not '" + test + "'");
  }
  b.test = test == "auto" ? bias_test::automatic : test == "table" ? bias_test::table : bias_test::position;
  b.exact = exact;
  b.threads = threads;
  std::atomic<bool> stop{false};
  b.stop = &stop;
  const bias_report report = run_interruptible(stop, [&] { return run_bias(b); });
  const std::string seed_text = b.seed ? "\"" + escape_controls(*b.seed) + "\"" : "none (from the OS)";
  return py::make_tuple(render::json_report(report, b.threads), render::text_report(report, seed_text, b.threads));
}

// `shufl audit --plan`: the decks each test needs (plan_audit; render's JSON and text), for the
// battery of --lags and --batch-size or of --tier, which refuses the options it fixes when given
// (alpha_given, lags, batch_size, args.game and args.deal).
py::tuple plan(const audit_args& args, bool alpha_given, double power, const std::optional<double>& effect_all,
               const std::map<std::string, double>& effects, std::optional<std::uint64_t> lags,
               std::optional<std::uint64_t> batch_size, const std::optional<std::string>& tier) {
  if (!(args.alpha > 0 && args.alpha < 1)) throw error(fmt::format("--alpha must be between 0 and 1, not {}", args.alpha));
  if (!(power > 0 && power < 1)) throw error(fmt::format("--power must be between 0 and 1, not {}", power));
  audit::audit_options options = audit_options_of(args);
  if (lags) options.lags = static_cast<std::size_t>(*lags);
  if (batch_size) options.batch_size = *batch_size;
  if (tier) {
    audit::apply_tier(options, *tier, [&](std::string_view name) {
      return (name == "--alpha" && alpha_given) || (name == "--lags" && lags) || (name == "--batch-size" && batch_size) ||
             (name == "--game" && args.game) || (name == "--deal" && args.deal);
    });
  }
  audit::plan_options o;
  o.power = power;
  for (const auto& [name, delta] : effects) o.effects[name] = delta;
  if (effect_all) {  // as --effect X: every test that has an effect model
    for (const auto name : audit::battery_test_names) {
      if (audit::has_effect_model(name)) o.effects.emplace(std::string(name), *effect_all);
    }
  }
  const audit::audit_pack pack = audit::make_audit_pack(reader_options_of(args));
  const audit::audit_plan p = audit::plan_audit(pack, options, o);
  return py::make_tuple(render::audit_plan_json(p, pack).dump(), render::audit_plan_text(p, pack.cards.description));
}

// `shufl deck`: one deck's labels in shuffled order (shuffle_indices), or `count` decks from one
// stream (shuffle_decks, as `--count`) as card numbers 1..n.
py::object deck_cards(const std::string& pack_name, std::uint64_t decks, std::uint64_t jokers, std::optional<std::uint64_t> count,
                const std::optional<std::string>& seed, const std::optional<std::string>& engine, const std::string& style) {
  if (seed && seed->empty()) throw error("--seed must not be empty");
  const shufl::deck d = make_pack(parse_pack(pack_name), decks, jokers);
  const card_style cs = parse_card_style(style);
  deck_randomness r;
  r.seed = seed;
  if (engine) r.engine = parse_engine(*engine);
  const std::size_t n = d.cards.size();
  if (!count) {
    const std::vector<std::uint32_t> order = shuffle_indices(n, r);
    py::list out;
    for (const auto i : order) out.append(format_card(d.cards[i], cs));
    return out;
  }
  if (*count > (std::uint64_t{1} << 40) / n) throw error("count is too large");
  py::array_t<std::uint16_t> out({static_cast<py::ssize_t>(*count), static_cast<py::ssize_t>(n)});
  std::uint16_t* o = out.mutable_data();
  std::atomic<bool> stop{false};
  run_interruptible(stop, [&] {
    shuffle_decks(n, *count, r, [&](std::span<const std::uint32_t> order) {
      for (const auto i : order) *o++ = static_cast<std::uint16_t>(i + 1);
      return !stop;
    });
    return 0;
  });
  py::object result = out;
  return result;
}

// The order `shufl lines --seed SEED` gives n records: THE RULE of lines/scatter.hpp on the
// indices 0..n−1 (unseeded: a key from the OS).
std::vector<std::uint64_t> shuffle_order(std::uint64_t n, const std::optional<std::string>& seed) {
  if (seed && seed->empty()) throw error("--seed must not be empty");
  std::vector<std::uint64_t> order(n);
  std::iota(order.begin(), order.end(), std::uint64_t{0});
  const seed_key key = seed ? key_from_seed(*seed) : key_from_os();
  py::gil_scoped_release release;
  lines::scatter_shuffle(std::span<std::uint64_t>(order), lines::scatter_root_key(key));
  return order;
}

// The live monitor's e-process and change detector, fed decks from Python (no follow loop, no
// file): `shufl audit --follow`'s statistics and --state documents.
class detector {
 public:
  detector(const audit_args& args, double arl, double alpha)
      : pack_(args.pack.empty() ? throw error("pack must be named for a Detector") : audit::make_audit_pack(reader_options_of(args))),
        positions_(args.dealt.value_or(pack_.size())), arl_(arl), alpha_(alpha), e_(pack_), detector_(pack_, arl) {
    if (args.dealt && (*args.dealt == 0 || *args.dealt > pack_.size())) {
      throw error("--dealt must be between 1 and the pack's " + std::to_string(pack_.size()) + " cards");
    }
    if (!(alpha > 0 && alpha < 1)) throw error("--alpha must be between 0 and 1");
  }

  // Adds the rows of a 2-D integer array; returns whether the detector has alarmed.
  bool add_array(const py::array& decks, bool zero_based) {
    const audit::card_array a = card_array_of(decks, zero_based);
    std::atomic<bool> stop{false};
    run_interruptible(stop, [&] {
      std::vector<std::uint32_t> faces;
      for (std::size_t row = 0; row < a.rows && !stop; row += audit::audit_block_decks) {
        const std::size_t count = std::min(audit::audit_block_decks, a.rows - row);
        faces.resize(count * positions_);
        audit::card_array_faces(a, pack_, positions_, row, count, faces.data());
        for (std::size_t k = 0; k < count && !stop; ++k) {  // a deck can take milliseconds after an alarm
          const std::span<const std::uint32_t> deck(faces.data() + k * positions_, positions_);
          e_.add_deck(deck);
          detector_.add_deck(deck);
          recent_.push_back(audit::deck_hash(deck));  // the CLI's restart-overlap memory
          if (recent_.size() > audit::default_overlap_decks) recent_.pop_front();
          ++decks_this_run_;
          if (detector_.alarmed() && !alarmed_before_) {
            alarmed_before_ = true;
            ++alarms_;
          }
        }
      }
      return 0;
    });
    return alarm();
  }

  [[nodiscard]] bool alarm() const noexcept { return detector_.alarmed() || restored_alarm_; }

  std::string status_json() const {
    audit::follow_status f;
    f.e = e_.current();
    f.detector = detector_.current();
    f.arl = arl_;
    f.alarms = alarms_;
    f.decks_this_run = decks_this_run_;
    f.alpha = alpha_;
    f.threshold_log10 = -std::log10(alpha_);
    f.alarm = alarm();
    return render::follow_status_json(f, "status").dump();
  }

  std::string state() const {
    audit::monitor_records records;
    records.recent = recent_;
    return audit::write_monitor_state(e_, detector_, alarm(), records);
  }

  void restore(const std::string& text, bool reset_alarm) {
    const audit::monitor_state_parts parts = audit::read_monitor_state(text);
    audit::e_process e(pack_);
    audit::change_detector d(pack_, arl_);
    e.deserialize(parts.e_process);
    d.deserialize(parts.detector);
    e_ = std::move(e);
    detector_ = std::move(d);
    recent_ = parts.records.recent;
    restored_alarm_ = parts.alarm && !reset_alarm;
    if (parts.alarm && reset_alarm) detector_.restart();
    alarmed_before_ = alarm();
  }

  void restart() {
    detector_.restart();
    restored_alarm_ = false;
    alarmed_before_ = false;
  }

 private:
  audit::audit_pack pack_;
  std::size_t positions_;
  double arl_, alpha_;
  audit::e_process e_;
  audit::change_detector detector_;
  std::uint64_t decks_this_run_ = 0, alarms_ = 0;
  std::deque<std::uint64_t> recent_;  // deck_hash of the last decks, as follow.cpp keeps them
  bool restored_alarm_ = false, alarmed_before_ = false;
};

// `shufl audit --seed-search` on decks held in memory (audit::run_seed_search, render's reports):
// the search runs with the GIL released while this thread polls Ctrl-C (signal_poll).
py::tuple seed_search_deals(std::vector<std::vector<std::uint32_t>> deals, const deck& pack,
                            const audit::seed_search_request& request, const audit::seed_search_setup& setup) {
  audit::seed_search_hooks hooks;
  signal_poll poll;
  hooks.stop = [&] { return poll(); };
  hooks.deck_order_file = [](const std::string& file, const deck& cards) {
    auto in = text_reader::open(file, std::uint64_t{1} << 20);
    return audit::read_deck_order(in, cards);
  };
  audit::seed_search_outcome outcome;
  try {
    py::gil_scoped_release release;
    outcome = audit::run_seed_search(request, setup, std::move(deals), pack, hooks);
  } catch (const error&) {
    if (poll.raised) throw py::error_already_set();
    throw;
  }
  const render::seed_search_report report = render::seed_search_output(outcome);
  return py::make_tuple(report.json.dump(), report.text, report.status);
}

// The rows of a 2-D integer array as logged deals (pack as shufl.audit's; with dealt and no pack
// the standard deck, as read_logged_deals takes it).
py::tuple seed_search_array(const py::array& decks, const audit::seed_search_request& request, const audit_args& args,
                            bool zero_based) {
  const audit::seed_search_setup setup = audit::setup_seed_search(request);
  const audit::card_array a = card_array_of(decks, zero_based, "deal");
  audit::audit_pack pack;
  if (!args.pack.empty()) {
    pack = audit::make_audit_pack(reader_options_of(args));
  } else if (args.dealt) {
    audit::reader_options standard;
    standard.pack = pack_kind::standard;
    pack = audit::make_audit_pack(standard);
  } else {
    pack = inferred_pack(a.columns, args);
  }
  auto deals = audit::logged_deals_of_array(a, pack, args.dealt);
  return seed_search_deals(std::move(deals), pack.cards, request, setup);
}

// Logged deals as lines of tab-separated card labels, read by the CLI's own reader.
py::tuple seed_search_text(const std::string& text, const std::string& name, const audit::seed_search_request& request,
                           const audit_args& args, bool declared) {
  const audit::seed_search_setup setup = audit::setup_seed_search(request);
  text_reader in(text, name);
  audit::reader_options ro = declared ? reader_options_of(args) : audit::reader_options{};
  if (!declared) ro.dealt = args.dealt;
  audit::audit_pack pack;
  auto deals = audit::read_logged_deals(in, ro, pack);
  return seed_search_deals(std::move(deals), pack.cards, request, setup);
}

}  // namespace

PYBIND11_MODULE(_shufl, m) {
  m.doc() = "The compiled core of the shufl package (see shufl's docstrings).";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  m.attr("__version__") = SHUFL_VERSION;
  py::class_<audit_args>(m, "AuditArgs")
      .def(py::init<>())
      .def_readwrite("pack", &audit_args::pack)
      .def_readwrite("decks_in_shoe", &audit_args::decks_in_shoe)
      .def_readwrite("dealt", &audit_args::dealt)
      .def_readwrite("game", &audit_args::game)
      .def_readwrite("deal", &audit_args::deal)
      .def_readwrite("alpha", &audit_args::alpha)
      .def_readwrite("threads", &audit_args::threads)
      .def_readwrite("lags", &audit_args::lags);
  py::class_<report_html>(m, "ReportHtml")
      .def("html", &report_html::html, "The audit's section of the --report page as a notebook fragment.");
  m.def("audit_array", &audit_array, py::arg("decks"), py::arg("args"), py::arg("zero_based"),
        "Audits the rows of a 2-D integer array; returns (JSON text, text report, ReportHtml).");
  m.def("audit_text", &audit_text, py::arg("text"), py::arg("name"), py::arg("args"), py::arg("declared"),
        "Audits decks given as lines of tab-separated card labels; returns (JSON text, text report, ReportHtml).");
  m.def("shuffle_order", &shuffle_order, py::arg("n"), py::arg("seed"),
        "The permutation of 0..n-1 that `shufl lines --seed SEED` applies to n records.");
  m.def("bias", &bias, py::arg("n"), py::arg("trials"), py::arg("algorithms"), py::arg("seed"), py::arg("alpha"),
        py::arg("engine"), py::arg("test"), py::arg("exact"), py::arg("threads"),
        "Runs `shufl bias`; returns (JSON text, text report).");
  py::class_<detector>(m, "DetectorCore")
      .def(py::init<const audit_args&, double, double>(), py::arg("args"), py::arg("arl"), py::arg("alpha"))
      .def("add_array", &detector::add_array, py::arg("decks"), py::arg("zero_based"))
      .def_property_readonly("alarm", &detector::alarm)
      .def("status_json", &detector::status_json)
      .def("state", &detector::state)
      .def("restore", &detector::restore, py::arg("text"), py::arg("reset_alarm"))
      .def("restart", &detector::restart);
  m.def("plan", &plan, py::arg("args"), py::arg("alpha_given"), py::arg("power"), py::arg("effect_all"), py::arg("effects"),
        py::arg("lags"), py::arg("batch_size"), py::arg("tier"),
        "`shufl audit --plan`; returns (JSON text, text).");
  m.def("deck", &deck_cards, py::arg("pack"), py::arg("decks"), py::arg("jokers"), py::arg("count"), py::arg("seed"),
        py::arg("engine"), py::arg("style"), "`shufl deck`: one deck's labels, or count decks as card numbers.");
  m.def("default_threads", &default_threads, "The default number of worker threads.");
  py::class_<audit::seed_search_request>(m, "SeedSearchArgs")
      .def(py::init<>())
      .def_readwrite("family", &audit::seed_search_request::family)
      .def_readwrite("seeds", &audit::seed_search_request::seeds)
      .def_readwrite("reseed", &audit::seed_search_request::reseed)
      .def_readwrite("deck_order", &audit::seed_search_request::deck_order)
      .def_readwrite("loop", &audit::seed_search_request::loop)
      .def_readwrite("reduce", &audit::seed_search_request::reduce)
      .def_readwrite("carry_over", &audit::seed_search_request::carry_over)
      .def_readwrite("try_variants", &audit::seed_search_request::try_variants)
      .def_readwrite("all", &audit::seed_search_request::all)
      .def_readwrite("threads", &audit::seed_search_request::threads)
      .def_readwrite("shard", &audit::seed_search_request::shard)
      .def_readwrite("max_chance", &audit::seed_search_request::max_chance);
  m.def("seed_search_array", &seed_search_array, py::arg("decks"), py::arg("request"), py::arg("args"), py::arg("zero_based"),
        "`shufl audit --seed-search` on the rows of a 2-D integer array; returns (JSON text, text report, exit status).");
  m.def("seed_search_text", &seed_search_text, py::arg("text"), py::arg("name"), py::arg("request"), py::arg("args"),
        py::arg("declared"), "`shufl audit --seed-search` on lines of card labels; returns (JSON text, text report, exit status).");
  m.def("seed_search_families", [] {
    std::vector<std::string> names;
    for (const auto& f : audit::seed_families()) names.emplace_back(f.name);
    return names;
  }, "The seed-search family names, in documentation order.");
  m.def("pack_size", [](const std::string& pack, std::uint64_t decks) {
    audit::reader_options o;
    o.pack = parse_pack(pack);
    o.decks = decks;
    return audit::make_audit_pack(o).size();
  });
}
