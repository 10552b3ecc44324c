// `shufl audit --report FILE.html`: the audit as a test report a lab can print (A4) or hand over:
// what was tested, the battery table as the text report shows it, the position heatmaps, each
// total against its null law, the poker classes and a glossary. See audit_report.hpp.
#include "audit_report.hpp"
#include "audit_output.hpp"

#include <fmt/format.h>
#include <sodium.h>

#include <algorithm>
#include <cmath>

#include "heatmap.hpp"
#include "html_pages.hpp"
#include "seed_search_output.hpp"
#include "shufl/audit/laws.hpp"
#include "text_escape.hpp"
#include "shufl/audit/coverage.hpp"
#include "shufl/version.hpp"

namespace shufl::render {

namespace {

// The page's styles: the body's, those the sections share (scoped to .shufl-audit in the fragment),
// and the paper's.
constexpr const char* kBodyStyle = R"~(body { font-family: "DejaVu Sans", Verdana, sans-serif; margin: 1.5em auto; padding: 0 1.5em; color: #222; background: #fff; max-width: 56em; font-size: 15px; }
)~";
constexpr const char* kSectionStyle = R"~(h1 { font-size: 1.45em; margin: 0 0 .2em; } h2 { font-size: 1.2em; margin: 1.4em 0 .4em; border-top: 1px solid #bbb; padding-top: .6em; }
h3 { font-size: 1.02em; margin: 1em 0 .3em; }
.muted { color: #555; font-size: .92em; }
table { border-collapse: collapse; margin: .5em 0; font-size: .9em; }
th, td { border: 1px solid #bbb; padding: .22em .5em; vertical-align: top; }
table.facts th { text-align: left; background: #f3f3f3; font-weight: normal; white-space: nowrap; }
table.facts td { overflow-wrap: anywhere; word-break: break-word; }
table.facts code, .overall code { font-size: .95em; }
table.battery td { text-align: right; white-space: nowrap; } table.battery th { background: #f3f3f3; }
table.battery td:first-child, table.battery td:last-child { text-align: left; }
td.result-pass { color: #1e5e1e; } td.result-fail { color: #8a1020; font-weight: bold; }
td.result-not-valid, td.result-not-applicable { color: #666; }
.overall { font-weight: bold; padding: .35em .6em; border-radius: 4px; display: inline-block; margin: .3em 0; }
.overall.pass { background: #dcefd9; color: #1e5e1e; } .overall.fail { background: #f8d7da; color: #8a1020; }
.overall.inconclusive { background: #fff3cd; color: #6b4e00; }
.picture { margin: .4em 0; } .picture svg { max-width: 100%; height: auto; }
table.totals { width: 100%; font-size: .85em; } table.totals td { white-space: nowrap; text-align: right; }
table.totals td:first-child { text-align: left; } table.totals td.chart { padding: 0 .3em; width: 38%; min-width: 8em; }
table.totals td.chart svg { display: block; width: 100%; height: auto; }
table.glossary td:first-child { white-space: nowrap; font-family: monospace; }
)~";
constexpr const char* kPrintStyle = R"~(@page { size: A4; margin: 14mm 12mm 16mm;
  @bottom-right { content: "page " counter(page) " of " counter(pages); font: 8pt "DejaVu Sans", Verdana, sans-serif; color: #444; } }
@media print {
  body { margin: 0; padding: 0; max-width: none; font-size: 10pt; }
  h2, h3 { break-after: avoid; } table, .picture, figure { break-inside: avoid; }
  section.audit + section.audit { break-before: page; }
}
)~";

bool is_total(std::string_view t) {
  return t == "successions" || t == "adjacent-pairs" || t == "descents" || t == "rising-sequences" ||
         t == "runs-up-down" || t == "fixed-points" || t == "guessing" || t == "guessing-shelf";
}

std::vector<double> law_of(std::string_view t, std::size_t n) {
  if (t == "successions" || t == "serial-successions") return audit::successions_law(n);
  if (t == "adjacent-pairs") return audit::adjacent_pairs_law(n);
  if (t == "descents") return audit::descents_law(n);
  if (t == "rising-sequences") return audit::rising_sequences_law(n);
  if (t == "runs-up-down") return audit::runs_up_down_law(n);
  if (t == "fixed-points") return audit::fixed_points_law(n);
  return audit::guessing_law(n);
}

// What each test catches (docs/audit.md's table, shortened).
constexpr std::pair<const char*, const char*> kGlossary[] = {
    {"card-position", "cards that favour positions: a stuck card, a biased algorithm, too few shuffles"},
    {"suit-position", "suits that cluster at the top or bottom (a shuffler that leaves packs in suit order)"},
    {"rank-position", "ranks that favour positions (tens and faces in blackjack)"},
    {"successions", "original neighbours kept together (too little shuffling, clumps), or spread apart"},
    {"adjacent-pairs", "the same, also when clumps are reversed (overhand shuffles)"},
    {"descents", "trends along the deck"},
    {"rising-sequences", "too few riffle shuffles (a deck riffled 3 times has at most 8)"},
    {"runs-up-down", "local order: runs too long or too alternating"},
    {"fixed-points", "decks left partly unshuffled; shuffles where no card may stay in place"},
    {"guessing", "any structure a player who sees each card can exploit from the original order"},
    {"guessing-shelf", "rising and falling runs a guesser can follow: the structure a shelf shuffler leaves"},
    {"permutation-3", "local order: some orders of three neighbouring cards favoured"},
    {"permutation-4", "local order: some orders of four neighbouring cards favoured"},
    {"position-pairs", "cards that follow one another within a deck, 1 to L places apart (pairs of positions not independent)"},
    {"coupon-collector-suits", "suits that cluster or alternate: the cards dealt until every suit has appeared"},
    {"coupon-collector-ranks", "ranks that cluster or spread: the cards dealt until every rank has appeared"},
    {"gap", "suits dealt too evenly spread or too clustered: the gaps between consecutive cards of a suit"},
    {"batches", "a bias that comes and goes: every sample of --batch-size decks tested on its own, the p-values by Kolmogorov-Smirnov"},
    {"serial-successions", "a machine that partly repeats its last order (dependence only: tested against the decks' own margins)"},
    {"serial-position", "serial correlation: a card that tends to keep its place from deck to deck (dependence only)"},
    {"duplicates", "repeated decks: weak seeding, replayed random streams"},
    {"poker-hands", "the hands a poker game deals (classes of each seat's five cards)"},
    {"blackjack-hands", "the two-card hands a blackjack game deals (naturals, pairs, soft and hard totals)"},
};

// Plain meanings of the words in the tables' headers (docs/glossary.md has them all).
struct word {
  const char* id;
  const char* name;
  const char* text;
};
constexpr word kWords[] = {
    {"p", "p", "the chance that a uniformly random shuffle gives a result at least this far from what is expected; small p is "
               "hard to explain by chance, a large p only means no problem was seen"},
    {"holm-p", "Holm p", "p raised to allow for running many tests at once (Holm's procedure); a test fails when its "
                         "Holm p is below alpha"},
    {"statistic", "statistic", "the test's score: a scaled chi-squared (X2, how far a table of counts is from the "
                               "expected counts), z (how many standard deviations a total is from its expected "
                               "value) or the number of repeated decks"},
    {"df", "df", "degrees of freedom: a uniformly random shuffle's chi-squared score is about df"},
};

std::string fact(const std::string& name, const std::string& value_html) {
  return fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", xml_escape(name), value_html);
}

const audit::test_report* find_test(const audit::audit_report& r, std::string_view name) {
  for (const auto& t : r.tests) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

// A position table's heatmap: rows × K positions (the not-dealt column left out), each row's
// cell probability its share of the deck (row total / (decks · N)).
std::string position_heatmap(const audit::test_report& t, const audit::audit_report& r, std::size_t section,
                             const std::string& axis, std::vector<std::string> labels) {
  if (t.table.empty() || t.decks == 0 || t.table_rows == 0) return {};
  const std::size_t K = r.positions;
  heat_panel p;
  p.n = K;
  p.rows = t.table_rows;
  p.trials = static_cast<double>(t.decks);
  p.row_axis = axis;
  p.grid_width = labels.size() >= t.table_rows ? 480 : 520;  // the picture within 700 px, labels and all
  if (labels.size() >= t.table_rows) {
    labels.resize(t.table_rows);
    p.row_labels = std::move(labels);
  }
  for (std::size_t i = 0; i < t.table_rows; ++i) {
    std::uint64_t total = 0;
    for (std::size_t j = 0; j < t.table_columns; ++j) total += t.table[i * t.table_columns + j];
    p.row_p.push_back(static_cast<double>(total) / (static_cast<double>(t.decks) * static_cast<double>(r.cards)));
    for (std::size_t j = 0; j < K; ++j) p.counts.push_back(t.table[i * t.table_columns + j]);
  }
  const std::string id = fmt::format("heat-{}-{}", section, t.name);
  // The caption as text under the picture, and no text under 11.5 px: printed on A4 the picture
  // (at most 734 px wide: 703 px fit) keeps about its size and every word is at least 8 pt.
  return fmt::format("<figure class=\"picture\" data-picture=\"{}\">\n{}<figcaption class=\"muted\">{}</figcaption>\n</figure>\n",
                     xml_escape(t.name), heatmap_svg("", {p}, id, {false, 11.5}), xml_escape(heatmap_caption({p})));
}

// A total against its null law: the axis in totals (from the null law's mean ± 4 sd, widened to
// take the observed total), the central 99% of the null law (normal approximation with the
// exact per-deck mean and variance), the expected total and the observed one marked.
std::string total_chart(double observed, double mean, double sd) {
  const double w = 300, h = 40, pad = 8;  // numbers at 14 px: at least 8 pt when printed
  double lo = std::min(mean - 4 * sd, observed), hi = std::max(mean + 4 * sd, observed);
  const double margin = std::max((hi - lo) * 0.04, 0.5);
  lo = std::max(0.0, lo - margin);  // counts are never negative
  hi += margin;
  const auto x = [&](double v) { return pad + (v - lo) / (hi - lo) * (w - 2 * pad); };
  const double band_lo = std::max(lo, mean - 2.5758 * sd), band_hi = std::min(hi, mean + 2.5758 * sd);
  std::string out = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" class="total-chart" viewBox="0 0 {:.0f} {:.0f}" font-family="DejaVu Sans, Verdana, sans-serif">)" "\n",
      w, h);
  out += fmt::format(R"(<rect class="band" x="{:.1f}" y="6" width="{:.1f}" height="12" fill="#d1e5f0"/>)" "\n", x(band_lo),
                     std::max(x(band_hi) - x(band_lo), 1.5));
  out += fmt::format(R"(<line x1="{:.1f}" y1="12" x2="{:.1f}" y2="12" stroke="#666"/>)" "\n", pad, w - pad);
  out += fmt::format(R"(<line class="expected" x1="{0:.1f}" y1="3" x2="{0:.1f}" y2="21" stroke="#222" stroke-dasharray="3,2"/>)" "\n",
                     x(mean));
  out += fmt::format(R"(<path class="observed" d="M{0:.1f},4 l-5,-4 h10 z M{0:.1f},4 V20" stroke="#b2182b" fill="#b2182b" stroke-width="2"/>)" "\n",
                     x(std::clamp(observed, lo, hi)));
  out += fmt::format(R"(<text x="{:.1f}" y="37" font-size="14" text-anchor="start">{:.0f}</text>)" "\n", pad, lo);
  out += fmt::format(R"(<text x="{:.1f}" y="37" font-size="14" text-anchor="end">{:.0f}</text>)" "\n", w - pad, hi);
  out += "</svg>";
  return out;
}

std::string totals_section(const audit::audit_report& r) {
  std::string rows;
  for (const auto& t : r.tests) {
    if (!is_total(t.name) || t.result == audit::test_outcome::not_applicable || t.decks == 0) continue;
    const auto law = law_of(t.name, r.cards);
    double m = 0, v = 0;
    for (std::size_t k = 0; k < law.size(); ++k) m += static_cast<double>(k) * law[k];
    for (std::size_t k = 0; k < law.size(); ++k) v += (static_cast<double>(k) - m) * (static_cast<double>(k) - m) * law[k];
    const double T = static_cast<double>(t.decks);
    const double sd = std::sqrt(T * v);
    // A pass outside the per-test band says why on its row: Holm decides, over all the tests.
    const bool outside = std::fabs(t.observed - t.expected) > 2.5758 * sd;
    const bool explained = outside && t.result == audit::test_outcome::pass;
    rows += fmt::format(
        "<tr data-test=\"{}\"{}><td>{}</td><td>{:.0f}</td><td>{:.1f}</td><td>{:.1f} \u2013 {:.1f}</td><td>{}{}</td>"
        "<td class=\"chart\">{}</td></tr>\n",
        t.name, outside ? " data-outside-band=\"true\"" : "", t.name, t.observed, t.expected,
        t.expected - 2.5758 * sd, t.expected + 2.5758 * sd, audit_p_text(t.p, t.ln_p, t.p_bound),
        explained ? "<br><span class=\"muted\">outside its band, passes after Holm</span>" : "",
        total_chart(t.observed, t.expected, sd));
  }
  if (rows.empty()) return {};
  return "<h3>Totals against their exact laws</h3>\n"
         "<table class=\"totals\">\n<tr><th>test</th><th>observed</th><th>expected</th><th>central 99%</th>"
         "<th>p</th><th>observed (\u25bc), central 99% (band)</th></tr>\n" +
         rows +
         "</table>\n<p class=\"muted\">Each total is the sum over decks of a count with an exact per-deck law; the band "
         "is mean \u00b1 2.576 sd of that law's sum (a normal approximation, for the picture only); p comes from the "
         "exact law (the table above). The dashed line is the expected total. The band is for one test alone: a uniformly random "
         "shuffle puts a total outside it 1 time in 100. The verdict is Holm's over all the tests of the battery (a "
         "stricter level per test), so a marker outside its band can belong to a test that passes: see the Holm p "
         "column.</p>\n";
}

std::string poker_section(const audit::test_report& t) {
  if (t.table.size() != audit::poker_class_count || t.decks == 0) return {};
  const auto law = audit::poker_class_law();
  const double T = static_cast<double>(t.decks);
  std::string out = "<h3>Poker hands: classes of the first five cards</h3>\n<table class=\"poker\">\n"
                    "<tr><th>class</th><th>observed</th><th>expected</th><th>z</th></tr>\n";
  for (std::size_t c = audit::poker_class_count; c-- > 0;) {
    const double z = cell_z(static_cast<double>(t.table[c]), T, law[c]);
    const std::string name(audit::poker_class_name(static_cast<audit::poker_class>(c)));
    out += fmt::format(
        "<tr data-class=\"{}\"><td>{}</td><td style=\"text-align:right\">{}</td><td style=\"text-align:right\">{:.2f}</td>"
        "<td style=\"text-align:right;background:{}\">{:+.2f}</td></tr>\n",
        name, name, t.table[c], T * law[c], heat_colour(z), z);
  }
  out += "</table>\n<p class=\"muted\">Expected: decks \u00d7 the exact class frequency out of C(52,5) = 2,598,960; "
         "z coloured on the heatmaps' scale. The test pools the rarest classes until each pool expects 5 hands.</p>\n";
  return out;
}

// Rule coverage: each clause, the tests that answer it here and their result (audit/coverage.hpp).
std::string coverage_section(const audit::audit_report& r) {
  std::string out =
      "<h3>Rule coverage</h3>\n<table class=\"coverage\">\n<tr><th>rule</th><th>asks</th><th>tests</th><th>result</th></tr>\n";
  for (const auto& row : audit::rule_coverage(r.tests)) {
    std::string tests;
    for (const auto& t : row.tests) tests += (tests.empty() ? "" : ", ") + xml_escape(t);
    out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", xml_escape(row.rule),
                       xml_escape(row.asks), tests.empty() ? "&#8212;" : tests, xml_escape(row.status));
  }
  return out + "</table>\n";
}

// What the audit could detect: per planned test, the effect found with power about 0.9 at these
// decks (the plan inverted, audit/plan.hpp).
std::string detectable_section(const audit::audit_report& r) {
  if (r.detectable.empty()) return {};
  std::string out = fmt::format(
      "<h3>What this audit could detect</h3>\n<p class=\"muted\">With power about 0.9 (asymptotic) at {} decks, "
      "each test at the level Holm never tests below, for the plan's effect models (<code>shufl audit --plan</code>): "
      "an effect of another structure but the same size may need more decks.</p>\n"
      "<table class=\"coverage detectable\">\n<tr><th>test</th><th>effect</th><th>effect model</th></tr>\n",
      r.decks);
  for (const auto& e : r.detectable) {
    out += fmt::format("<tr data-test=\"{}\"><td>{}</td><td>{:.4g}</td><td>{}</td></tr>\n", xml_escape(e.name),
                       xml_escape(e.name), e.effect,
                       e.model.empty() ? std::string("beyond the effect model's range") : xml_escape(e.model));
  }
  return out + "</table>\n";
}

// The table of the words the battery table's header links to (#w-p, ...).
std::string words_section() {
  std::string out = "<h2 id=\"words\">Words</h2>\n<table class=\"glossary words\">\n";
  for (const auto& [id, word, text] : kWords) {
    out += fmt::format("<tr id=\"w-{}\"><td>{}</td><td>{}</td></tr>\n", id, word, text);
  }
  return out + "</table>\n<p class=\"muted\">More words, in plain terms: docs/glossary.md in shufl's sources.</p>\n";
}

// `css` (rules "SELECTORS { DECLARATIONS }", no at-rules) with every selector prefixed by `scope`.
std::string scoped_css(std::string_view css, std::string_view scope) {
  std::string out;
  for (std::size_t at = 0, open; (open = css.find('{', at)) != std::string_view::npos;) {
    const std::size_t close = css.find('}', open);
    const std::string_view selectors = css.substr(at, open - at);
    std::string scoped;
    for (std::size_t from = 0; from <= selectors.size();) {
      const std::size_t comma = std::min(selectors.find(',', from), selectors.size());
      std::string_view one = selectors.substr(from, comma - from);
      one.remove_prefix(std::min(one.find_first_not_of(" \n"), one.size()));
      one.remove_suffix(one.size() - std::min(one.find_last_not_of(" \n") + 1, one.size()));
      scoped += fmt::format("{}{} {}", scoped.empty() ? "" : ", ", scope, one);
      from = comma + 1;
    }
    out += scoped + " " + std::string(css.substr(open, close - open + 1)) + "\n";
    at = close + 1;
  }
  return out;
}

std::string render_section(const audit_page_section& s, std::size_t k) {
  const audit::audit_report& r = s.report;
  std::string out = fmt::format("<section class=\"audit\" data-audit=\"{}\">\n", k);
  out += fmt::format("<h2>{}</h2>\n", xml_escape(s.generated ? "Audit of algorithm " + s.algorithm
                                                            : "Audit of " + (s.input_name == "-" ? std::string("standard input")
                                                                                                 : s.input_name)));
  out += fmt::format("<p class=\"overall {}\" id=\"overall-{}\">result: {}: {}</p>\n", r.decision.pass ? "pass" : "fail", k,
                     r.decision.pass ? "pass" : "fail", xml_escape(r.decision.summary));
  const bool searched = s.json.contains("seed_search");  // --seed-search with --report
  if (searched) out += seed_search_page_result(s.json["seed_search"], k);

  out += "<h3>What was tested</h3>\n<table class=\"facts\">\n";
  // --meta: the provenance the lab states (game, software, window, exported by, lab, tester).
  if (s.json.contains("meta") && s.json["meta"].is_object()) {
    for (const auto& [key, value] : s.json["meta"].items()) {
      if (value.is_string()) out += fact(key, xml_escape(value.get<std::string>()));
    }
  }
  if (s.generated) {
    out += fact("decks from", "shufl's algorithm <code>" + xml_escape(s.algorithm) + "</code>");
    out += fact("seed", s.seed ? "<code>" + xml_escape(*s.seed) + "</code>" : std::string("none (unseeded: not reproducible)"));
    out += fact("engine", xml_escape(s.engine));
  } else if (s.array) {
    out += fact("decks from", "an in-memory array");
    out += fact("shape", xml_escape(fmt::format("{} \u00d7 {} (decks \u00d7 cards)", s.array->rows, s.array->columns)));
    out += fact("element type", xml_escape(s.array->dtype));
  } else {
    out += fact("input file", xml_escape(s.input_name == "-" ? std::string("standard input") : s.input_name));
    out += fact("SHA-256", "<code>" + xml_escape(s.sha256) + "</code>");
    out += fact("bytes", fmt::format("{}", s.bytes));
  }
  out += fact("pack", xml_escape(r.pack_description) +
                          (r.positions < r.cards ? xml_escape(fmt::format(", first {} cards of each deck", r.positions)) : ""));
  out += fact("decks", fmt::format("{}", r.decks));
  if (r.tier) out += fact("tier", xml_escape(tier_text(r)));
  if (r.skipped > 0) {
    out += fact("skipped", xml_escape(fmt::format("{} invalid deck{}{}", r.skipped, r.skipped == 1 ? "" : "s",
                                                  r.skip_reasons.empty() ? "" : " (first: " + r.skip_reasons.front() + ")")));
  }
  out += fact("decision", xml_escape(fmt::format("Holm over {} test{} at family-wise alpha {:g}", r.decision.family,
                                                 r.decision.family == 1 ? "" : "s", r.decision.alpha)));
  out += "</table>\n";

  out += "<h3>The battery</h3>\n";
  // The header's words link to their plain meanings (the page's "Words" table, docs/glossary.md).
  out += fmt::format("<table class=\"battery\" id=\"battery-{}\">\n<tr><th>test</th><th>decks</th>"
                     "<th><a href=\"#w-statistic\">statistic</a></th><th><a href=\"#w-df\">df</a></th>"
                     "<th><a href=\"#w-p\">p</a></th><th><a href=\"#w-holm-p\">Holm p</a></th><th>result</th></tr>\n", k);
  std::string notes;
  for (const auto& t : r.tests) {
    const bool tested = t.result == audit::test_outcome::pass || t.result == audit::test_outcome::fail;
    const bool computed = tested || t.result == audit::test_outcome::not_valid;
    const std::string result(audit::outcome_name(t.result));
    out += fmt::format("<tr data-test=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
                       "<td class=\"result-{}\">{}</td></tr>\n",
                       t.name, t.name, t.decks, computed ? audit_statistic_text(t.statistic) : "-",
                       t.df ? fmt::format("{:.0f}", *t.df) : "-",
                       xml_escape(computed ? audit_p_text(t.p, t.ln_p, t.p_bound) : "-"),
                       xml_escape(t.holm_ln_p ? audit_p_text(std::exp(*t.holm_ln_p), *t.holm_ln_p, t.p_bound) : "-"), result,
                       result);
    if (!t.note.empty()) notes += fmt::format("<li>{}: {}</li>\n", t.name, xml_escape(t.note));
  }
  out += "</table>\n";
  if (!notes.empty()) out += "<p class=\"muted\">notes:</p>\n<ul class=\"muted notes\">\n" + notes + "</ul>\n";
  out += fmt::format("<p class=\"muted\">statistic: scaled X2 for position tables, z of the total for totals (p from the "
                     "exact law), repeats for duplicates; Holm over {} test{}.</p>\n",
                     r.decision.family, r.decision.family == 1 ? "" : "s");

  // Pictures.
  std::string pictures;
  if (const auto* t = find_test(r, "card-position")) {
    std::string h = position_heatmap(*t, r, k, "card", {});
    if (!h.empty()) {
      pictures += "<h3>Card \u00d7 position</h3>\n" + h +
                  "<p class=\"muted\">Rows: the cards in the pack's canonical order (card 1 is the first; standard "
                  "pack As 2s \u2026 Ks, Ah \u2026 Kh, Ad \u2026 Kd, Ac \u2026 Kc); columns: positions from the top. "
                  "Blue: fewer than expected, red: more.</p>\n";
    }
  }
  if (const auto* t = find_test(r, "suit-position"); t && t->result != audit::test_outcome::not_applicable) {
    pictures += "<h3>Suit \u00d7 position</h3>\n" +
                position_heatmap(*t, r, k, "suit", {"spades", "hearts", "diamonds", "clubs", "other"});
  }
  if (const auto* t = find_test(r, "rank-position"); t && t->result != audit::test_outcome::not_applicable) {
    std::vector<std::string> ranks;
    if (t->table_rows == 13 || t->table_rows == 14) ranks = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "other"};
    pictures += "<h3>Rank \u00d7 position</h3>\n" + position_heatmap(*t, r, k, "rank", ranks);
  }
  pictures += totals_section(r);
  if (const auto* t = find_test(r, "poker-hands")) pictures += poker_section(*t);
  out += coverage_section(r);
  out += detectable_section(r);
  if (searched) out += seed_search_page_section(s.json["seed_search"], k);
  if (!pictures.empty()) out += "<h3 class=\"pictures\">Pictures</h3>\n" + pictures;
  out += "</section>\n";
  return out;
}

}  // namespace

std::string audit_report_page(const std::vector<audit_page_section>& sections, const page_provenance& made) {
  std::string page = std::string(page_head) + "<style>\n" + kBodyStyle + kSectionStyle + kPrintStyle + "</style>\n";
  bool all_pass = true;
  for (const auto& s : sections) all_pass = all_pass && s.report.decision.pass;
  page += "<title>shufl audit report</title>\n</head>\n<body>\n";
  page += "<h1>Shuffle audit report</h1>\n";
  page += "<p>This report states whether the decks below show evidence of non-randomness at the stated family-wise "
          "level. A pass means that these tests found no such evidence in this number of decks; it does not show "
          "that no defect exists, and more decks can detect smaller defects.</p>\n";
  page += "<table class=\"facts\" id=\"run\">\n";
  const std::string commit = made.commit.empty() ? "" : ", commit " + made.commit;
  page += fact("tool", xml_escape(fmt::format("shufl {} ({} build{})", SHUFL_VERSION, SHUFL_BUILD_TYPE, commit)));
  page += fact("date (UTC)", xml_escape(made.date_utc));
  page += fact("command line", "<code>" + xml_escape(made.command_line) + "</code>");
  if (sections.size() > 1) page += fact("overall", all_pass ? "pass" : "fail");
  // The page states the SHA-256 of the JSON data it embeds (the text of its audit-data script), so
  // a copy of the data can be matched to the page (libsodium's crypto_hash_sha256).
  nlohmann::ordered_json data = nlohmann::ordered_json::array();
  for (const auto& s : sections) data.push_back(s.json);
  const std::string embedded = json_for_html(data);
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(embedded.data()), embedded.size());
  std::string hex;
  for (const unsigned char b : digest) hex += fmt::format("{:02x}", b);
  page += fact("SHA-256 of the data", "<code id=\"data-sha256\">" + hex + "</code> (the text of the page's audit-data script)");
  if (!made.key_fingerprint.empty()) {
    page += fact("signed by key", "<code id=\"key-fingerprint\">" + xml_escape(made.key_fingerprint) +
                                      "</code> (Ed25519; the SHA-256 of the public key; the signature, of the whole page "
                                      "but its own line, is at the end)");
  }
  page += "</table>\n";
  for (std::size_t k = 0; k < sections.size(); ++k) page += render_section(sections[k], k);

  page += "<h2>What each test catches</h2>\n<table class=\"glossary\">\n";
  // Only the tests that ran (a game's test without --game, a test not applicable to the pack: left out).
  const auto ran = [&](std::string_view name) {
    for (const auto& s : sections) {
      const auto* t = find_test(s.report, name);
      if (t && t->result != audit::test_outcome::not_applicable) return true;
    }
    return false;
  };
  for (const auto& [name, text] : kGlossary) {
    if (ran(name)) page += fmt::format("<tr><td>{}</td><td>{}</td></tr>\n", name, text);
  }
  page += "</table>\n<p class=\"muted\">Under the null every deck is a uniformly random order of the pack, independent of "
          "the other decks. Each test is pass, fail, not-valid (too few decks for its approximation) or not-applicable. "
          "The decision is Holm's procedure over the valid tests (family-wise level).</p>\n";
  page += words_section();

  page += "<script id=\"audit-data\" type=\"application/json\">";
  page += embedded;
  page += "</script>\n</body>\n</html>\n";
  return page;
}

audit_page_section audit_page_section_of(const audit::audit_report& r, const audit_input& in, nlohmann::ordered_json doc) {
  std::string name = in.array ? in.array->name : in.name;
  if (!in.merged.empty()) {
    name.clear();
    for (const auto& m : in.merged) name += (name.empty() ? "" : ", ") + m;
  }
  return {r, in.generated, name, in.sha256, in.bytes, in.algorithm, in.seed, in.engine, in.trials, std::move(doc), in.array};
}

namespace {

// `html` with `prefix` put before every element id and every reference to one (id="X",
// href="#X", url(#X)). The markup is the page's own: every text in it went through xml_escape,
// so a quote (and with it `id="`) never comes from the data.
std::string prefixed_ids(std::string_view html, std::string_view prefix) {
  std::string out;
  out.reserve(html.size() + html.size() / 64);
  std::size_t at = 0;
  for (;;) {
    std::size_t next = std::string_view::npos, after = 0;
    for (const std::string_view marker : {std::string_view(" id=\""), std::string_view("href=\"#"), std::string_view("url(#")}) {
      const std::size_t found = html.find(marker, at);
      if (found < next) {
        next = found;
        after = found + marker.size();
      }
    }
    if (next == std::string_view::npos) break;
    out.append(html.substr(at, after - at));
    out.append(prefix);
    at = after;
  }
  out.append(html.substr(at));
  return out;
}

}  // namespace

std::string audit_report_fragment(const audit_page_section& s, std::string_view id_prefix) {
  std::string out = "<div class=\"shufl-audit\">\n<style>\n";
  out += ".shufl-audit { font-family: \"DejaVu Sans\", Verdana, sans-serif; color: #222; background: #fff; font-size: 13px; "
         "max-width: 56em; }\n";
  out += scoped_css(kSectionStyle, ".shufl-audit");
  out += "</style>\n" + prefixed_ids(render_section(s, 0) + words_section(), id_prefix) + "</div>\n";
  return out;
}

}  // namespace shufl::render
