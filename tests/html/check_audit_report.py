#!/usr/bin/env python3
"""The page of `shufl audit --report FILE.html`, on screen and on paper.

Mode `page` (headless Chromium through selenium): for a deck file with a hostile name (markup in
it) and --game poker, and for two --algo algorithms (one failing): every row of the battery
table is the text report's row (same cells, same rounding), the overall line is the text
report's `result:` line, the embedded document ("audit-data") is the --format json output of
the same run, the input's SHA-256 and size are those of the file (hashlib), the file name shows
as text, the heatmaps have one cell per card x position, suit x position and rank x position,
every total and poker class has its row, the page never says "fair" or "certified", no console
message, and nothing wider than the window (at 1100 and 700 px).
Mode `print`: `chromium --headless --print-to-pdf` of both pages: A4 pages (pdfinfo), page 1 not
blank and holding the whole battery table (pdftotext) at its size (a page too wide for the paper
is shrunk to fit: smaller words), every word at least 8 pt high as printed (pdftotext -bbox,
against a page set in 8 pt printed the same way), "page K of N" on every page, and on every page
(pdftoppm -r 50) the right-hand margin is white: nothing is cut off at the right.
Usage: check_audit_report.py page|print SHUFL OUT_DIR. Exits 77 (skip) only when a tool is missing.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pngread import read_png  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None)
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, flush=True)


def run(args, cwd, status=0):
    r = subprocess.run(args, capture_output=True, text=True, cwd=cwd)
    if r.returncode != status:
        raise SystemExit(f"{args} exited {r.returncode}: {r.stderr}")
    return r.stdout


def make_runs(shufl, out):
    """Writes the pages; returns [(page path, audit args, text output, json docs, file or None)]."""
    os.makedirs(out, exist_ok=True)
    name = 'decks <i>&amp;"x.txt'
    decks = os.path.join(out, name)
    with open(decks, "w") as f:
        f.write(run([shufl, "deck", "--count", "300", "--seed", "page"], out))
    runs = []
    # The third page: the battery and a seed search that finds nothing (its JSON needs --report).
    seed = [name, "--seed-search", "c-rand", "--reseed", "once", "--seeds", "0..100"]
    for label, args, status in (("file", [name, "--game", "poker"], 0),
                                ("algo", ["--algo", "riffle:3,fisher-yates", "--trials", "2000", "--seed", "1"], 0),
                                ("seed", seed, 0)):
        page = os.path.join(out, f"audit-report-{label}.html")
        text = run([shufl, "audit", *args, "--report", page], out, status)
        json_args = [*args, "--report", os.path.join(out, "json-run.html")] if label == "seed" else args
        doc = json.loads(run([shufl, "audit", *json_args, "--format", "json"], out, status))
        docs = doc["audits"] if "audits" in doc else [doc]
        runs.append((page, args, text, docs, decks if label != "algo" else None))
    return runs


def text_sections(text):
    """Per audit of the text report: its table rows (lists of cells) and its `result:` line."""
    sections, rows = [], None
    for line in text.splitlines():
        if line.startswith("test "):
            rows = []
        elif line.startswith("result: ") and rows is not None:  # (the last of several: the overall one)
            sections.append((rows, line))
            rows = None
        elif rows is not None and line and not line.startswith((" ", "notes:", "statistic:", "words:")) and not line.endswith(":"):
            # (a heading such as "poker-hands by seat (...):" starts a block of indented rows)
            rows.append(line.split())
    return sections


PAGE_JS = """
const sections = [...document.querySelectorAll('section.audit')];
return {
  sections: sections.map(s => ({
    rows: [...s.querySelectorAll('table.battery tr[data-test]')].map(r => [...r.cells].map(c => c.textContent)),
    overall: s.querySelector('.overall').textContent,
    facts: Object.fromEntries([...s.querySelectorAll('table.facts tr')].map(r => [r.cells[0].textContent, r.cells[1].textContent])),
    markup: s.querySelectorAll('table.facts i').length,
    cells: Object.fromEntries([...s.querySelectorAll('figure[data-picture]')].map(f => [f.dataset.picture, f.querySelectorAll('rect.cell').length])),
    totals: [...s.querySelectorAll('table.totals tr[data-test]')].map(r => r.dataset.test),
    poker: [...s.querySelectorAll('table.poker tr[data-class]')].map(r => Number(r.cells[1].textContent)),
  })),
  data: JSON.parse(document.getElementById('audit-data').textContent),
  seed: (document.getElementById('seed-search-0') || {}).textContent || null,
  text: document.body.innerText,
  wide: document.documentElement.scrollWidth - window.innerWidth,
};
"""


def check_page(shufl, out):
    if not CHROMIUM or not DRIVER:
        print("skip: chromium or chromedriver missing")
        return 77
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    options = Options()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1100,900",
              "--force-device-scale-factor=1", "--no-first-run", "--disable-extensions", "--lang=en-US"):
        options.add_argument(a)
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        for page, args, text, docs, decks in make_runs(shufl, out):
            name = os.path.basename(page)
            d.set_window_size(1100, 900)
            d.get("file://" + page)
            got = d.execute_script(PAGE_JS)
            check(not d.get_log("browser"), f"{name}: console messages")
            check(got["wide"] <= 0, f"{name}: {got['wide']} px wider than a 1100 px window")
            lower = got["text"].lower()
            check("fair" not in lower and "certif" not in lower, f"{name}: the page says fair or certified")
            check(got["data"] == docs, f"{name}: embedded document differs from --format json")
            want = text_sections(text)
            check(len(got["sections"]) == len(want) == len(docs), f"{name}: {len(got['sections'])} sections")
            for k, (s, (rows, result), doc) in enumerate(zip(got["sections"], want, docs)):
                check(s["rows"] == rows, f"{name} {k}: table rows {s['rows']} != text {rows}")
                check([r[0] for r in s["rows"]] == [t["name"] for t in doc["tests"]], f"{name} {k}: test order")
                check(s["overall"] == result, f"{name} {k}: overall {s['overall']!r} != {result!r}")
                n = doc["pack"]["cards"]
                check(s["cells"] == {"card-position": n * n, "suit-position": 4 * n, "rank-position": 13 * n},
                      f"{name} {k}: heatmap cells {s['cells']}")
                totals = [t["name"] for t in doc["tests"] if t["df"] is None and t["name"] not in ("duplicates", "serial-successions", "serial-position",
                          "coupon-collector-suits", "coupon-collector-ranks")
                          and t["result"] != "not-applicable"]
                check(s["totals"] == totals, f"{name} {k}: totals {s['totals']} != {totals}")
                if decks:
                    data = open(decks, "rb").read()
                    check(s["facts"].get("SHA-256") == hashlib.sha256(data).hexdigest(), f"{name}: SHA-256 {s['facts']}")
                    check(s["facts"].get("bytes") == str(len(data)), f"{name}: bytes")
                    check(s["facts"].get("input file") == os.path.basename(decks), f"{name}: file name {s['facts']}")
                    check(s["markup"] == 0, f"{name}: the file name became markup")
                    if "--game" in args:
                        check(len(s["poker"]) == 9 and sum(s["poker"]) == doc["decks"], f"{name}: poker rows {s['poker']}")
                else:
                    check(s["facts"].get("seed") == "1", f"{name}: seed {s['facts']}")
            check(("fail" in [r[-1] for s in got["sections"] for r in s["rows"]]) == (page.endswith("algo.html")),
                  f"{name}: failing rows where expected")
            # The seed search's result line under the battery's, as its JSON says.
            if "--seed-search" in args:
                check((got["seed"] or "").startswith("seed search: not found: c-rand, E = "), f"{name}: seed line {got['seed']!r}")
                check(docs[0]["seed_search"]["chance"]["verdict"] == "not-found", f"{name}: seed verdict")
            else:
                check(got["seed"] is None, f"{name}: a seed line without --seed-search")
            d.set_window_size(700, 900)
            check(d.execute_script("return document.documentElement.scrollWidth - window.innerWidth") <= 0,
                  f"{name}: wider than a 700 px window")
    finally:
        d.quit()
    return 0


def white(px):
    return all(c >= 245 for c in px)


def print_pdf(page):
    """Prints PAGE (.html) to PAGE.pdf with the command docs/audit.md gives; returns the PDF's path."""
    pdf = page[:-5] + ".pdf"
    if os.path.exists(pdf):
        os.remove(pdf)
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                    f"--print-to-pdf={pdf}", "file://" + page], capture_output=True, timeout=120)
    return pdf


def word_boxes(pdf):
    """(height in pt, word) of every word pdftotext -bbox finds in PDF."""
    boxes = subprocess.run(["pdftotext", "-bbox", pdf, "-"], capture_output=True, text=True).stdout
    out = []
    for b in boxes.splitlines():
        if "<word " in b:
            h = float(b.split('yMax="')[1].split('"')[0]) - float(b.split('yMin="')[1].split('"')[0])
            out.append((h, b.split(">", 1)[1].rsplit("</word>", 1)[0]))
    return out


def check_print(shufl, out):
    for tool in ("pdfinfo", "pdftoppm", "pdftotext"):
        if not shutil.which(tool):
            print(f"skip: {tool} missing")
            return 77
    if not CHROMIUM:
        print("skip: chromium missing")
        return 77
    # 8 pt as pdftotext -bbox measures it: the word boxes of a page that sets text in 8 pt in the
    # report's fonts (DejaVu Sans and the monospace), printed the same way (a box is the font's
    # ascent plus descent: about 1.16 times the size).
    calibration = os.path.join(out, "calibration-8pt.html")
    with open(calibration, "w") as f:
        f.write('<!DOCTYPE html><html><head><meta charset="utf-8"><style>@page { size: A4; margin: 14mm 12mm; } '
                'body { margin: 0; font-family: "DejaVu Sans", Verdana, sans-serif; }</style></head><body>'
                '<p style="font-size: 8pt">Sans Calibration</p>'
                '<p style="font-size: 8pt; font-family: monospace">Mono Calibration</p></body></html>')
    eight = min(height for height, word in word_boxes(print_pdf(calibration)))
    check(7 < eight < 12, f"8 pt prints as {eight} pt high boxes")
    # Two prints (Chromium takes seconds each): a deck file with --game poker, and the --algo page
    # (two audits, one failing).
    for page, args, text, docs, decks in make_runs(shufl, out)[:2]:
        pdf = page[:-5] + ".pdf"
        if os.path.exists(pdf):
            os.remove(pdf)
        print_pdf(page)
        check(os.path.exists(pdf), f"{pdf} not written")
        if not os.path.exists(pdf):
            continue
        info = run(["pdfinfo", pdf], out)
        pages = int(next(l.split()[-1] for l in info.splitlines() if l.startswith("Pages:")))
        size = next(l for l in info.splitlines() if l.startswith("Page size:"))
        check(pages >= 1, f"{pdf}: {pages} pages")
        check("(A4)" in size, f"{pdf}: {size}")
        # Every word at least 8 pt (the page's captions, axis labels, colour bars and charts
        # included), measured on the glyphs Chromium printed.
        small = [(round(h, 2), w) for h, w in word_boxes(pdf) if h < eight - 0.01]
        check(not small, f"{pdf}: {len(small)} words under 8 pt (8 pt = {eight:.2f} pt boxes): {small[:6]}")
        # "page K of N" on every printed page.
        for k in range(1, pages + 1):
            words = " ".join(run(["pdftotext", "-f", str(k), "-l", str(k), pdf, "-"], out).split())
            check(f"page {k} of {pages}" in words, f"{pdf}: page {k} lacks 'page {k} of {pages}'")
        first = run(["pdftotext", "-f", "1", "-l", "1", "-layout", pdf, "-"], out)
        for rows, result in text_sections(text)[:1]:
            for r in rows:
                check(" ".join(r) in " ".join(first.split()), f"{pdf}: page 1 lacks the row {' '.join(r)}")
        # Chromium shrinks a page wider than the paper until it fits (so nothing is cut, but all
        # gets small): the table's words keep their size (10 pt x 0.9 prints 10.5 pt high boxes;
        # a page 1.5 times too wide gave 7).
        boxes = run(["pdftotext", "-bbox", "-f", "1", "-l", "1", pdf, "-"], out)
        heights = [float(b.split('yMax="')[1].split('"')[0]) - float(b.split('yMin="')[1].split('"')[0])
                   for b in boxes.splitlines() if b.strip().endswith(">card-position</word>")]
        check(heights and heights[0] >= 9, f"{pdf}: the table's text is {heights[:1]} pt high: the page was shrunk to fit")
        prefix = page[:-5] + "-page"
        run(["pdftoppm", "-r", "50", "-png", pdf, prefix], out)
        pngs = sorted(f for f in os.listdir(out) if f.startswith(os.path.basename(prefix)) and f.endswith(".png"))
        check(len(pngs) == pages, f"{pdf}: {len(pngs)} PNGs for {pages} pages")
        for k, png in enumerate(pngs):
            w, h, px = read_png(os.path.join(out, png))
            check(abs(w / h - 210 / 297) < 0.01, f"{png}: {w}x{h} is not A4")
            ink = sum(1 for row in px for p in row if not white(p))
            if k == 0:
                check(ink > 0.01 * w * h, f"{png}: page 1 is blank ({ink} non-white pixels)")
            # The right margin is 12 mm (about 23 px at 50 dpi): its outer 15 px stay white.
            margin = [(x, y) for y in range(h) for x in range(w - 15, w) if not white(px[y][x])]
            check(not margin, f"{png}: content in the right margin at {margin[:3]}")
            os.remove(os.path.join(out, png))
    return 0


def main():
    mode, shufl, out = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    os.makedirs(out, exist_ok=True)
    status = check_page(shufl, out) if mode == "page" else check_print(shufl, out)
    if status:
        return status
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
