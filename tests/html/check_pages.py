#!/usr/bin/env python3
"""Issue 16: the pages of `shufl trace --format html` and `shufl bias --report FILE.html`, driven
in a real headless Chromium (Debian chromium + chromium-driver + python3-selenium).

Trace page, for every algorithm of `bias --list` (several seeds and sizes): the start state, Step
pressed k times, Back, the keyboard (arrow keys, End, Home, space for play/pause) and the slider;
each time the deck, cursor i, picked j, locked count and sentence read from the DOM equal the
--format json step of the same arguments, and each sentence is the text output's line for that
step. The range j was drawn from and the finalized region are the cards so marked. Labels such
as `</script><b>` show as text. The same arguments and seed give the same page, byte for byte.
Report page: every number shown equals the embedded JSON document's value rounded as stated
(data-json / data-format), the embedded document is the --format json output of the same run,
and the shown statistics, p-values and verdicts are the text report's.
Every page: no console messages, no network request (DevTools network log; the page has a CSP
`default-src 'none'`). Screenshots go to OUT_DIR (artifacts; docs/*.png in the README are these).
Usage: check_pages.py SHUFL OUT_DIR. Exits 77 (skip) only when chromium or chromedriver is missing.
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None)
DASH = "\u2014"
failures = []
checks = 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL:", what, flush=True)


def shufl(binary, args):
    run = subprocess.run([binary, *args], capture_output=True)
    if run.returncode != 0:
        raise SystemExit(f"shufl {args} failed ({run.returncode}): {run.stderr.decode()}")
    return run.stdout


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    options = Options()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=1100,900", "--force-device-scale-factor=1", "--no-first-run",
              "--disable-extensions", "--disable-background-networking", "--disable-component-update",
              "--disable-sync", "--disable-default-apps", "--lang=en-US"):
        options.add_argument(a)
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(service=Service(DRIVER), options=options)


def open_page(d, path):
    d.get_log("performance")  # drop what came before
    d.get("file://" + path)
    return "file://" + path


def check_quiet(d, url, name):
    """No console message and no request other than the page itself (and data: URLs)."""
    logs = d.get_log("browser")
    check(not logs, f"{name}: console messages: {logs}")
    requests = []
    for entry in d.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg.get("method") == "Network.requestWillBeSent":
            u = msg["params"]["request"]["url"]
            if u != url and not u.startswith("data:"):
                requests.append(u)
    check(not requests, f"{name}: network requests: {requests}")
    resources = d.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    check(not resources, f"{name}: resources loaded: {resources}")
    csp = d.execute_script(
        "const m = document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]'); return m ? m.content : ''")
    check("default-src 'none'" in csp, f"{name}: CSP default-src 'none' (got {csp!r})")
    # Element ids are unique within the page (an SVG gradient id repeated per picture made every
    # colour bar paint with the first one), and every url(#id) the pictures use exists.
    ids = d.execute_script("return [...document.querySelectorAll('[id]')].map(e => e.id)")
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    check(not repeated, f"{name}: element ids used more than once: {repeated}")
    refs = d.execute_script("return [...document.querySelectorAll('[fill^=\"url(#\"]')].map(e => e.getAttribute('fill'))")
    missing = sorted({r for r in refs if r[5:-1] not in ids})
    check(not missing, f"{name}: fills naming no element: {missing}")


STATE_JS = """
const q = (id) => document.getElementById(id).textContent;
return {deck: [...document.querySelectorAll('#deck .card .label')].map(e => e.textContent),
        i: q('cursor'), j: q('picked'), locked: q('locked'), sentence: q('sentence'), position: q('position'),
        range: [...document.querySelectorAll('#deck .card')].map((e, k) => e.classList.contains('in-range') ? k : -1).filter(k => k >= 0),
        final: document.querySelectorAll('#deck .card.final').length,
        play: q('play'), slider: document.getElementById('slider').value};
"""


def expected_state(doc, k):
    if k == 0:
        return {"deck": doc["items"], "i": DASH, "j": DASH, "locked": "0",
                "sentence": "start: the items in their original order"}
    s = doc["steps"][k - 1]
    fin = s.get("final")
    return {"deck": s["order"], "i": str(s["cursor"]) if "cursor" in s else DASH,
            "j": str(s["b"]) if "b" in s else DASH, "locked": str(fin[1] - fin[0] if fin else 0),
            "sentence": f"step {k}: {s['description']}"}


def compare_state(d, doc, k, name):
    got = d.execute_script(STATE_JS)
    want = expected_state(doc, k)
    for key, value in want.items():
        check(got[key] == value, f"{name} at step {k}: {key} shows {got[key]!r}, JSON says {value!r}")
    check(got["position"] == f"step {k} of {len(doc['steps'])}", f"{name}: position {got['position']!r} at {k}")
    check(got["slider"] == str(k), f"{name}: slider {got['slider']} at {k}")
    if k > 0:
        s = doc["steps"][k - 1]
        check(got["final"] == (s["final"][1] - s["final"][0] if "final" in s else 0),
              f"{name} at step {k}: {got['final']} cards marked final")
        positional = s["action"] in ("swap", "place") and "modulus" not in s and "a_drawn" not in s
        if positional and "draw_range" in s:
            lo, hi = s["draw_range"]
            check(got["range"] == list(range(lo, min(hi, doc["n"] - 1) + 1)),
                  f"{name} at step {k}: range marked {got['range']}, j drawn from [{lo}, {hi}]")
    return got


ALL_STEPS_JS = """
const states = [];
const step = document.getElementById('step');
for (let k = 0; k <= arguments[0]; ++k) {
  if (k > 0) step.click();
""" + STATE_JS.replace("return {", "states.push({").replace("};\n", "});\n") + """
}
return states;
"""


def check_trace(d, binary, out_dir, algo, args, name, presses, interactive=True, play=False):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    doc = json.loads(shufl(binary, ["trace", "--algo", algo, *args, "--format", "json"]))
    text = shufl(binary, ["trace", "--algo", algo, *args]).decode()
    page = shufl(binary, ["trace", "--algo", algo, *args, "--format", "html"])
    check(page == shufl(binary, ["trace", "--algo", algo, *args, "--format", "html"]),
          f"{name}: the same arguments give a different page")
    # The sentences and the counting and replay lines are the text output's.
    text_lines = text.split("\n")
    for s in doc["steps"]:
        head = f"step {s['step']}: {s['description']}"
        check(any(line.startswith(head + "   ") for line in text_lines), f"{name}: no text line {head!r}")
    path = os.path.join(out_dir, f"trace_{re.sub('[^a-z0-9]+', '_', name.lower())}.html")
    with open(path, "wb") as f:
        f.write(page)
    url = open_page(d, path)
    steps = len(doc["steps"])
    compare_state(d, doc, 0, name)
    check(d.find_element(By.ID, "back").get_property("disabled"), f"{name}: Back enabled at the start")
    check(d.find_element(By.ID, "counting").text == "counting: " + doc["counting"]["statement"],
          f"{name}: counting argument")
    check(("counting: " + doc["counting"]["statement"]) in text_lines, f"{name}: counting differs from the text output")
    replay = [line for line in text_lines if line.startswith("replay: --draws ")]
    if replay:
        check(d.find_element(By.ID, "replay").text == replay[0], f"{name}: replay line differs from the text output")
    # Every step, by clicking Step from the script (one round trip), against the JSON.
    states = d.execute_script(ALL_STEPS_JS, steps)
    for k, got in enumerate(states):
        want = expected_state(doc, k)
        for key, value in want.items():
            check(got[key] == value, f"{name} at step {k} (all steps): {key} shows {got[key]!r}, JSON says {value!r}")
    d.find_element(By.ID, "reset").click()
    compare_state(d, doc, 0, name)
    if not interactive:
        check_quiet(d, url, name)
        return path
    k = 0
    step_button = d.find_element(By.ID, "step")
    for _ in range(min(presses, steps)):
        step_button.click()
        k += 1
        compare_state(d, doc, k, name)
    if k > 0:
        d.find_element(By.ID, "back").click()
        k -= 1
        compare_state(d, doc, k, name)
    body = d.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    k = min(k + 1, steps)
    compare_state(d, doc, k, name)
    body.send_keys(Keys.ARROW_LEFT)
    k = max(k - 1, 0)
    compare_state(d, doc, k, name)
    body.send_keys(Keys.END)
    compare_state(d, doc, steps, name)
    check(d.find_element(By.ID, "step").get_property("disabled"), f"{name}: Step enabled at the end")
    check(list(doc["steps"][-1]["order"] if steps else doc["items"]) == doc["result"], f"{name}: last order is the result")
    body.send_keys(Keys.HOME)
    compare_state(d, doc, 0, name)
    # The slider, then play/pause by the space bar and the button.
    mid = steps // 2
    d.execute_script("const s = document.getElementById('slider'); s.value = arguments[0];"
                     "s.dispatchEvent(new Event('input'));", mid)
    compare_state(d, doc, mid, name)
    body.send_keys(Keys.HOME)
    if steps > 0 and play:
        body.send_keys(Keys.SPACE)
        check(d.find_element(By.ID, "play").text == "Pause", f"{name}: space does not start playing")
        time.sleep(0.8)
        body.send_keys(Keys.SPACE)
        got = compare_state(d, doc, int(d.execute_script("return Number(document.getElementById('slider').value)")), name)
        check(got["play"] == "Play", f"{name}: space does not pause")
        check(got["slider"] != "0", f"{name}: playing did not advance")
        d.find_element(By.ID, "reset").click()
        compare_state(d, doc, 0, name)
    check_quiet(d, url, name)
    return path


def lookup(doc, path):
    v = doc
    for part in path.split("."):
        v = v[int(part)] if isinstance(v, list) else v[part]
    return v


def shown(value, fmt):
    if fmt.startswith("ln:<="):  # an upper bound
        rest = shown(value, "ln:" + fmt[5:])
        return None if rest is None else "<= " + rest.lstrip("< ")
    if fmt == "ln:.4g":
        return format(math.exp(value), ".4g")
    if fmt == "ln:<1e-308":
        return "< 1e-308" if value < math.log(1e-308) else None
    if fmt == "+.3f":
        return "z = " + format(value, "+.3f")
    if fmt == "d":
        return str(int(value))
    return format(value, fmt)


def check_report(d, binary, out_dir, args, name):
    from selenium.webdriver.common.by import By
    path = os.path.join(out_dir, f"report_{name}.html")
    doc = json.loads(shufl(binary, ["bias", *args, "--threads", "2", "--format", "json", "--report", path]))
    text = shufl(binary, ["bias", *args, "--threads", "2"]).decode()
    url = open_page(d, path)
    embedded = json.loads(d.execute_script("return document.getElementById('bias-data').textContent"))
    check(embedded == doc, f"report {name}: the embedded document is not the --format json output")
    nums = d.execute_script("return [...document.querySelectorAll('.num')].map(e => "
                            "[e.dataset.json, e.dataset.format, e.textContent])")
    check(len(nums) >= 6 * len(doc["results"]), f"report {name}: only {len(nums)} numbers shown")
    for path_, fmt, shown_text in nums:
        want = shown(lookup(doc, path_), fmt)
        check(shown_text == want, f"report {name}: {path_} shows {shown_text!r}, JSON rounded ({fmt}) is {want!r}")
    # The same rounding as the text report: its statistic and p strings appear on the page.
    body = d.find_element(By.TAG_NAME, "body").text
    for r in doc["results"]:
        c = r["chi_squared"]
        check(f"X2 = {c['statistic']:.4f}" in text or f"X2 x (n-1)/n = {c['statistic']:.4f}" in text,
              f"report {name}: {r['algorithm']} statistic not rounded as in the text report")
        check(f"{c['statistic']:.4f}" in body, f"report {name}: {r['algorithm']} statistic {c['statistic']:.4f} not shown")
        if c["ln_p"] >= math.log(1e-308):
            check(f"p = {math.exp(c['ln_p']):.4g}" in text and f"{math.exp(c['ln_p']):.4g}" in body,
                  f"report {name}: {r['algorithm']} p not as in the text report")
        for s in r.get("secondary", []):
            if s["name"] != "duplicates":
                check(f"z = {s['statistic']:+.3f}" in text and f"z = {s['statistic']:+.3f}" in body,
                      f"report {name}: {r['algorithm']} {s['name']} z not as in the text report")
    verdicts = d.execute_script("return [...document.querySelectorAll('.verdict')].map(e => e.textContent)")
    words = {"no-evidence": "no evidence of bias", "biased": "biased", "unreliable": "unreliable"}
    check(verdicts == [words[r["verdict"]] for r in doc["results"]], f"report {name}: verdicts {verdicts}")
    text_verdicts = re.findall(r"^  verdict: (no evidence of bias|biased|unreliable)", text, re.M)
    check(verdicts == text_verdicts, f"report {name}: verdicts {verdicts} vs text {text_verdicts}")
    deciding = d.execute_script("return [...document.querySelectorAll('.deciding')].map(e => e.textContent)")
    check(len(deciding) >= len(doc["results"]) and all("decided by" in t or "no verdict" in t for t in deciding[:1]),
          f"report {name}: deciding test not named: {deciding}")
    header = d.find_element(By.ID, "header").text
    for part in (f"n = {doc['n']}", f"{doc['trials']} trials", f"seed \"{doc['seed']}\"", doc["engine"]):
        check(part in header, f"report {name}: header {header!r} lacks {part!r}")
    check("power: " in body, f"report {name}: no power statement")
    # The power statement is the JSON's power.statement, worded as in the text report (issue 16).
    powers = d.execute_script("return [...document.querySelectorAll('.result')].map(s => "
                              "{ const p = s.querySelector('.power'); return p ? p.textContent : null; })")
    for r, shown_power in zip(doc["results"], powers):
        statement = r.get("power", {}).get("statement")
        check(shown_power == (None if statement is None else "power: " + statement),
              f"report {name}: {r['algorithm']} power shown {shown_power!r}, JSON power.statement {statement!r}")
        if statement is not None:
            check(f"  power: {statement}\n" in text, f"report {name}: {r['algorithm']} power not as in the text report")
    pictures = d.execute_script("return document.querySelectorAll('svg rect.cell, svg rect.bar').length")
    check(pictures > 0, f"report {name}: no heatmap or histogram")
    check_quiet(d, url, f"report {name}")
    return path


def main():
    binary, out_dir = sys.argv[1:3]
    if CHROMIUM is None or DRIVER is None:
        print("chromium or chromedriver is missing: skipped")
        return 77
    os.makedirs(out_dir, exist_ok=True)
    start = time.time()
    d = browser()
    try:
        algorithms = [line.split()[0] for line in shufl(binary, ["bias", "--list"]).decode().splitlines() if line.strip()]
        check(len(algorithms) >= 10, f"bias --list gave {algorithms}")
        # Every algorithm, every step; the buttons, keys and slider on a few of them.
        keyed = {"fisher-yates", "naive", "sort-coin:merge", "riffle:3"}
        for k, algo in enumerate(algorithms):
            spec = algo.replace(":K", ":3").replace(":BITS", ":3").replace(":M", ":3").replace(":Q", ":0.5")
            spec = spec.replace("A+B+...", "riffle:1+cut")
            n = 4 + k % 3
            check_trace(d, binary, out_dir, spec, ["--n", str(n), "--seed", str(k + 1)], f"{spec} n={n} seed={k + 1}", 3,
                        interactive=spec in keyed)
        check_trace(d, binary, out_dir, "naive", ["--n", "7", "--seed", "run-7"], "naive n=7", 4, interactive=False)
        check_trace(d, binary, out_dir, "fisher-yates", ["A", "B", "C", "D", "E", "--draws", "2,0,2,0"], "classic draws", 4,
                    play=True)
        # Labels are text, never markup; the embedded data cannot end its script element.
        esc = check_trace(d, binary, out_dir, "naive", ["</script><b>", "A&B", "\"q\"", "<!--", "\u2028x", "--seed", "1"],
                          "escaping", 2, interactive=False)
        raw = open(esc, "rb").read().decode()
        check("</script><b>" not in raw.split('id="trace-data"')[1].split("</script>")[0],
              "escaping: a label ends the embedded data")
        check(d.execute_script("return document.querySelectorAll('b').length") == 0, "escaping: a label became markup")
        # The README's picture: the naive shuffle half-way.
        shot = check_trace(d, binary, out_dir, "fisher-yates", ["--n", "6", "--seed", "7"], "screenshot", 2,
                           interactive=False)
        d.execute_script("document.getElementById('step').click(); document.getElementById('step').click();")
        d.set_window_size(1000, 760)
        d.save_screenshot(os.path.join(out_dir, "trace.png"))
        del shot
        check_report(d, binary, out_dir, ["--n", "3", "--seed", "1"], "n3")
        check_report(d, binary, out_dir, ["--n", "8", "--seed", "2", "--trials", "20000", "--rng", "mt19937",
                                          "--algo", "fisher-yates,naive,weak-seed"], "n8")
        d.set_window_size(1000, 1400)
        d.get("file://" + os.path.join(out_dir, "report_n3.html"))
        d.save_screenshot(os.path.join(out_dir, "report.png"))
    finally:
        d.quit()
    print(f"{'FAILED' if failures else 'ok'}: {checks} checks, {len(failures)} failures, "
          f"{time.time() - start:.1f} s; pages and screenshots in {out_dir}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
