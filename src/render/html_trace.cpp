// `shufl trace --format html`: one self-contained page that steps through the run recorded in the
// --format json document (html_pages.hpp). The page is the document plus fixed CSS and JavaScript;
// the script draws everything with textContent, so labels are never parsed as HTML.
#include <fmt/format.h>

#include "heatmap.hpp"
#include "html_pages.hpp"

namespace shufl::render {

namespace {

constexpr const char* kTraceStyle = R"~(<style>
body { font-family: "DejaVu Sans", Verdana, sans-serif; margin: 1.5em; color: #222; background: #fff; max-width: 72em; }
h1 { font-size: 1.4em; margin: 0 0 .3em; }
.muted { color: #555; }
#deck { display: flex; flex-wrap: wrap; gap: 4px 6px; margin: .8em 0 .6em; max-width: 100%; }
#deck.medium { font-size: 80%; gap: 3px 4px; } #deck.small { font-size: 62%; gap: 2px 3px; }
.slot { display: flex; flex-direction: column; align-items: center; min-width: 3.2em; max-width: 100%; position: relative; }
.card { min-width: 2.6em; max-width: 100%; height: 3.6em; padding: 0 .3em; border: 2px solid #888; border-radius: 7px; display: flex;
        align-items: center; justify-content: center; font-size: 1.1em; background: #fff; box-sizing: border-box;
        overflow: hidden; overflow-wrap: anywhere; }
.card.unshuffled { background: #eef3fb; border-color: #7b97c4; }
.card.final { background: #dcefd9; border-color: #3c8a3c; }
.card.in-range { box-shadow: 0 0 0 3px #f3c969; }
.card.at-i { border-color: #b2182b; border-width: 3px; }
.card.at-j { border-color: #2166ac; border-width: 3px; border-style: dashed; }
.card.compared { border-color: #8e44ad; border-width: 3px; }
.slot .index { font-size: .75em; color: #666; margin-top: 2px; }
.slot .mark { display: block; height: 1.3em; line-height: 1.3em; font-weight: bold; font-size: .85em; white-space: nowrap;
              max-width: 100%; overflow: hidden; text-overflow: clip; text-align: center; }
.slot.cut-before::before { content: ""; position: absolute; left: -5px; top: 0; bottom: 0; border-left: 3px solid #b2182b; }
h2 { font-size: 1.2em; margin: 1.6em 0 .3em; } h3 { font-size: 1em; margin: .2em 0; }
.runs { display: flex; flex-wrap: wrap; gap: 1em; }
.runs-panel { max-width: 100%; min-width: 0; } .runs-panel svg { max-width: 100%; height: auto; }
#regions { margin: .2em 0 1em; font-size: .9em; }
.swatch { display: inline-block; width: 1em; height: 1em; vertical-align: -2px; border: 1px solid #888; border-radius: 3px; margin: 0 .3em 0 1em; }
.swatch.unshuffled { background: #eef3fb; } .swatch.final { background: #dcefd9; } .swatch.range { background: #f3c969; }
.controls { display: flex; flex-wrap: wrap; align-items: center; gap: .5em; margin: .5em 0 1em; }
.controls button { font-size: 1em; padding: .35em .9em; }
#slider { flex: 1 1 16em; }
.panels { display: flex; flex-wrap: wrap; gap: .8em; margin-bottom: .8em; }
.panel { border: 1px solid #ccc; border-radius: 6px; padding: .4em .8em; min-width: 7em; }
.panel .name { font-size: .8em; color: #555; } .panel .value { font-size: 1.4em; font-weight: bold; }
#sentence { font-size: 1.1em; background: #f6f6f6; border-left: 4px solid #888; padding: .5em .8em; min-height: 1.4em; }
#counting, #replay { margin: .5em 0; } #replay, #sentence, #counting, #definition, #source { overflow-wrap: anywhere; } #replay { font-family: "DejaVu Sans Mono", monospace; }
kbd { border: 1px solid #aaa; border-radius: 3px; padding: 0 .3em; font-size: .85em; }
</style>
)~";

constexpr const char* kTraceBody = R"~(<h1 id="title"></h1>
<p id="definition" class="muted"></p>
<p id="source" class="muted"></p>
<div id="deck" aria-label="the deck"></div>
<div id="regions"></div>
<div class="controls">
<button id="reset" type="button">Reset</button>
<button id="back" type="button">Back</button>
<button id="play" type="button">Play</button>
<button id="step" type="button">Step</button>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="step">
<span id="position"></span>
</div>
<div class="panels">
<div class="panel"><div class="name">cursor i</div><div class="value" id="cursor"></div></div>
<div class="panel"><div class="name">picked j</div><div class="value" id="picked"></div></div>
<div class="panel"><div class="name">drawn</div><div class="value" id="draw"></div></div>
<div class="panel"><div class="name">locked</div><div class="value" id="locked"></div></div>
</div>
<p id="sentence"></p>
<p id="counting"></p>
<p id="replay"></p>
<p class="muted">Keys: <kbd>&rarr;</kbd> step, <kbd>&larr;</kbd> back, <kbd>space</kbd> play/pause, <kbd>Home</kbd> reset, <kbd>End</kbd> last step.</p>
)~";

// The script reads the embedded document and draws state `at` (0 = the start, k = after step k).
constexpr const char* kTraceScript = R"~(<script>
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("trace-data").textContent);
  const steps = data.steps;
  const $ = (id) => document.getElementById(id);
  const dash = "\u2014";
  let at = 0;
  let timer = null;

  $("title").textContent = "shufl trace: " + data.algorithm + " on " + data.n + (data.n === 1 ? " item" : " items");
  document.title = $("title").textContent;
  $("definition").textContent = data.algorithm + ": " + data.definition;
  $("source").textContent = "draws: " + (data.source === "draws" ? "the values given with --draws"
      : data.source === "seed" ? "ChaCha20 keyed by the seed \"" + data.seed + "\""
      : "ChaCha20 keyed from the operating system");
  $("counting").textContent = "counting: " + data.counting.statement;
  $("replay").textContent = data.draw_values.length ? "replay: --draws " + data.draw_values.join(",") : "replay: no draws were made";
  $("slider").max = String(steps.length);

  // Many cards: smaller type, so that the rows stay few; the rows wrap to the window's width.
  if (data.n > 64) $("deck").classList.add("small"); else if (data.n > 16) $("deck").classList.add("medium");
  const slots = [];
  for (let p = 0; p < data.n; ++p) {
    const slot = document.createElement("div");
    slot.className = "slot";
    const mark = document.createElement("span");
    mark.className = "mark";
    const card = document.createElement("div");
    card.className = "card";
    const label = document.createElement("span");
    label.className = "label";
    card.appendChild(label);
    const index = document.createElement("span");
    index.className = "index";
    index.textContent = String(p);
    slot.append(mark, card, index);
    $("deck").appendChild(slot);
    slots.push({ slot, mark, card, label });
  }

  function has(step, key) { return step !== null && Object.prototype.hasOwnProperty.call(step, key); }

  function render() {
    const step = at === 0 ? null : steps[at - 1];
    const order = step === null ? data.items : step.order;
    const fin = has(step, "final") ? step.final : null;
    const action = step === null ? "" : step.action;
    const positional = (action === "swap" || action === "place") && !has(step, "modulus") && !has(step, "a_drawn");
    const marks = new Map();
    const addMark = (p, text, cls) => {
      if (p === undefined || p < 0 || p >= data.n) return;
      const m = marks.get(p) || { text: [], cls: [] };
      m.text.push(text); m.cls.push(cls); marks.set(p, m);
    };
    if (step !== null) {
      if (action === "compare") { addMark(step.a, "compare", "compared"); addMark(step.b, "compare", "compared"); }
      else if (action === "strike") { addMark(step.b, "i (write)", "at-i"); addMark(step.a, "struck", "at-j"); }
      else if (has(step, "a_drawn")) { addMark(step.a, "p", "at-i"); addMark(step.b, "q", "at-j"); }
      else if (action === "swap" || action === "place") { addMark(step.cursor, "i", "at-i"); addMark(step.b, "j", "at-j"); }
      else if (action === "key") { addMark(step.a, "key " + step.draw, "at-i"); }
      else if (action === "drop") { addMark(step.b, "dropped", "at-j"); }
    }
    for (let p = 0; p < data.n; ++p) {
      const s = slots[p];
      s.label.textContent = order[p];
      const classes = ["card"];
      if (data.marks_final) classes.push(fin !== null && p >= fin[0] && p < fin[1] ? "final" : "unshuffled");
      if (positional && has(step, "draw_range") && p >= step.draw_range[0] && p <= step.draw_range[1]) classes.push("in-range");
      const m = marks.get(p);
      if (m) classes.push(...m.cls);
      s.card.className = classes.join(" ");
      s.mark.textContent = m ? m.text.join(" = ") : "";
      s.slot.className = "slot" + (action === "cut" && p === step.a && p > 0 ? " cut-before" : "");
    }
    const regions = $("regions");
    regions.textContent = "";
    const legend = (cls, text) => {
      const sw = document.createElement("span");
      sw.className = "swatch " + cls;
      regions.append(sw, document.createTextNode(text));
    };
    if (data.marks_final) {
      const locked = fin === null ? 0 : fin[1] - fin[0];
      legend("unshuffled", "unshuffled (" + (data.n - locked) + ")");
      legend("final", "finalized, never moves again" + (fin === null ? " (none yet)" : fin[1] - fin[0] === 1 ? " (position " + fin[0] + ")" : " (positions " + fin[0] + "\u2013" + (fin[1] - 1) + ")"));
    } else {
      regions.appendChild(document.createTextNode("this algorithm has no finalized region: any item may still move"));
    }
    if (positional && has(step, "draw_range")) legend("range", "j was drawn from [" + step.draw_range[0] + ", " + step.draw_range[1] + "]");

    $("cursor").textContent = has(step, "cursor") ? String(step.cursor) : dash;
    $("picked").textContent = has(step, "b") ? String(step.b) : dash;
    $("draw").textContent = has(step, "draw") ? step.draw + " from [" + step.draw_range[0] + ", " + step.draw_range[1] + "]" : dash;
    $("locked").textContent = String(fin === null ? 0 : fin[1] - fin[0]);
    $("sentence").textContent = step === null ? "start: the items in their original order"
        : "step " + step.step + ": " + step.description;
    $("position").textContent = "step " + at + " of " + steps.length;
    $("slider").value = String(at);
    $("back").disabled = at === 0;
    $("step").disabled = at === steps.length;
    $("play").textContent = timer === null ? "Play" : "Pause";
  }

  function go(k) { at = Math.max(0, Math.min(steps.length, k)); if (at === steps.length) stop(); render(); }
  function stop() { if (timer !== null) { clearInterval(timer); timer = null; } }
  function play() {
    if (timer !== null) { stop(); render(); return; }
    if (at === steps.length) at = 0;
    timer = setInterval(() => go(at + 1), 700);
    render();
  }
  $("step").addEventListener("click", () => { stop(); go(at + 1); });
  $("back").addEventListener("click", () => { stop(); go(at - 1); });
  $("reset").addEventListener("click", () => { stop(); go(0); });
  $("play").addEventListener("click", play);
  $("slider").addEventListener("input", () => { stop(); go(Number($("slider").value)); });
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement && e.key !== " ") return;
    if (e.key === "ArrowRight") { stop(); go(at + 1); }
    else if (e.key === "ArrowLeft") { stop(); go(at - 1); }
    else if (e.key === "Home") { stop(); go(0); }
    else if (e.key === "End") { stop(); go(steps.length); }
    else if (e.key === " ") { play(); }
    else return;
    e.preventDefault();
  });
  render();
})();
</script>
)~";

}  // namespace

std::string json_for_html(const nlohmann::ordered_json& doc) {
  const std::string compact = doc.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  std::string out;
  out.reserve(compact.size() + compact.size() / 16);
  for (std::size_t k = 0; k < compact.size(); ++k) {
    const char c = compact[k];
    // '<', '>' and '&' can only occur inside JSON strings, where \uXXXX means the same character.
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else if (c == '\xe2' && k + 2 < compact.size() && compact[k + 1] == '\x80' &&
               (compact[k + 2] == '\xa8' || compact[k + 2] == '\xa9')) {
      out += compact[k + 2] == '\xa8' ? "\\u2028" : "\\u2029";
      k += 2;
    } else {
      out += c;
    }
  }
  return out;
}

std::string trace_page(const nlohmann::ordered_json& doc, const std::string& many_runs_html) {
  const std::string title = fmt::format("shufl trace: {} on {} items", doc.value("algorithm", ""), doc.value("n", 0));
  std::string page = page_head;
  page += fmt::format("<title>{}</title>\n", xml_escape(title));
  page += kTraceStyle;
  page += "</head>\n<body>\n";
  page += kTraceBody;
  page += "<script id=\"trace-data\" type=\"application/json\">";
  page += json_for_html(doc);
  page += "</script>\n";
  page += kTraceScript;
  page += many_runs_html;
  page += "</body>\n</html>\n";
  return page;
}

}  // namespace shufl::render
