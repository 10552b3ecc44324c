#!/usr/bin/env python3
"""The trace page's layout and its many-runs view, in a real headless Chromium 1024 px wide.

Layout, at n = 16, 52 and 255 and at several steps: no card, index or mark of one row of the
deck overlaps the mark band of another row (bounding rects), and the page never scrolls
sideways (document.documentElement.scrollWidth <= window.innerWidth).
Many runs: at n = 3 each panel has n! = 6 bars whose counts sum to the stated number of runs,
and the naive shuffle's panel stands beside Fisher-Yates' (same top, to its right); the counts
of the naive shuffle match its exact law (4/27 or 5/27 of the runs per order, computed here by
enumerating its 27 paths) within 5 standard deviations, and Fisher-Yates' 1/6. At n = 52 the
panels are card x position heatmaps labelled with the items.
Usage: check_trace_layout.py SHUFL OUT_DIR. Exits 77 (skip) only when chromium or chromedriver
is missing.
"""
import itertools
import math
import os
import shutil
import subprocess
import sys

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None)
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, flush=True)


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    options = Options()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=1024,900", "--force-device-scale-factor=1", "--no-first-run",
              "--disable-extensions", "--disable-background-networking", "--disable-component-update",
              "--disable-sync", "--disable-default-apps", "--lang=en-US"):
        options.add_argument(a)
    options.binary_location = CHROMIUM
    return webdriver.Chrome(service=Service(DRIVER), options=options)


# Pairs (mark of row A, element of row B != A) whose rects intersect; rows are the slots' tops.
OVERLAPS = """
const slots = [...document.querySelectorAll('#deck .slot')];
const rows = slots.map(s => Math.round(s.getBoundingClientRect().top));
const bad = [];
const cut = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
const parts = slots.map(s => [...s.children].map(c => c.getBoundingClientRect()));
for (let p = 0; p < slots.length; ++p) {
  const band = slots[p].querySelector('.mark').getBoundingClientRect();
  for (let q = 0; q < slots.length; ++q) {
    if (rows[q] === rows[p]) continue;
    for (const r of parts[q]) if (cut(band, r)) { bad.push([p, q]); break; }
  }
}
return {bad: bad.slice(0, 5), count: bad.length, rows: new Set(rows).size,
        marks: [...document.querySelectorAll('#deck .mark')].filter(m => m.textContent).length,
        scroll: document.documentElement.scrollWidth, inner: window.innerWidth};
"""


def naive_law(n):
    """Exact law of the naive shuffle (swap each position with any) by enumerating n^n paths."""
    law = {}
    for path in itertools.product(range(n), repeat=n):
        d = list(range(1, n + 1))
        for i, j in enumerate(path):
            d[i], d[j] = d[j], d[i]
        key = "".join(map(str, d))
        law[key] = law.get(key, 0) + 1
    return {k: v / n ** n for k, v in law.items()}


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    binary, out_dir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    if not CHROMIUM or not DRIVER:
        print("skip: chromium or chromedriver missing")
        return 77
    os.makedirs(out_dir, exist_ok=True)
    d = browser()
    try:
        for n, algo in ((16, "fisher-yates"), (52, "naive"), (255, "fisher-yates")):
            path = os.path.join(out_dir, f"trace-{n}.html")
            with open(path, "wb") as f:
                f.write(subprocess.run([binary, "trace", "--algo", algo, "--n", str(n), "--seed", "7",
                                        "--format", "html"], check=True, capture_output=True).stdout)
            d.get("file://" + path)
            for steps in (1, n // 2, n - 1):
                d.execute_script(f"for (let k = 0; k < {steps}; ++k) document.getElementById('step').click();")
                r = d.execute_script(OVERLAPS)
                where = f"n = {n}, {algo}, after {steps} more steps"
                check(r["marks"] >= 1, f"{where}: no mark shown")
                check(r["count"] == 0, f"{where}: {r['count']} marks overlap another row, e.g. slots {r['bad']}")
                check(r["rows"] >= (2 if n > 16 else 1), f"{where}: {r['rows']} rows")
                check(r["scroll"] <= r["inner"], f"{where}: scrollWidth {r['scroll']} > innerWidth {r['inner']}")
                d.execute_script("document.getElementById('reset').click();")
            if n == 52:
                d.save_screenshot(os.path.join(out_dir, "trace-52.png"))
                cells = d.execute_script("return document.querySelectorAll('#many-runs rect.cell').length")
                check(cells == 2 * 52 * 52, f"n = 52: {cells} heatmap cells, expected 2 x 52 x 52")
                label = d.execute_script(
                    "return document.querySelector('#many-runs rect.cell[data-card=\"52\"]').getAttribute('data-label')")
                check(label == "52", f"n = 52: the last row is labelled {label!r}")

        # Many runs at n = 3: the bars, their sum, side by side, and the exact laws.
        path = os.path.join(out_dir, "trace-runs-3.html")
        with open(path, "wb") as f:
            f.write(subprocess.run([binary, "trace", "--n", "3", "--seed", "1", "--runs", "3000", "--format", "html"],
                                   check=True, capture_output=True).stdout)
        d.get("file://" + path)
        r = d.execute_script("""
const runs = Number(document.getElementById('runs-summary').dataset.runs);
const panels = [...document.querySelectorAll('#many-runs .runs-panel')].map(p => ({
  algo: p.dataset.algo, rect: p.getBoundingClientRect().toJSON(),
  bars: [...p.querySelectorAll('rect.order-bar')].map(b => [b.dataset.order, Number(b.dataset.count)])}));
return {runs, panels, scroll: document.documentElement.scrollWidth, inner: window.innerWidth};
""")
        check(r["runs"] == 3000, f"n = 3: runs {r['runs']}")
        algos = [p["algo"] for p in r["panels"]]
        check(algos == ["fisher-yates", "naive"], f"n = 3: panels {algos}")
        law = {"fisher-yates": {"".join(map(str, p)): 1 / 6 for p in itertools.permutations((1, 2, 3))},
               "naive": naive_law(3)}
        for p in r["panels"]:
            check(len(p["bars"]) == math.factorial(3), f"n = 3, {p['algo']}: {len(p['bars'])} bars")
            check(sum(c for _, c in p["bars"]) == r["runs"], f"n = 3, {p['algo']}: counts sum to "
                                                             f"{sum(c for _, c in p['bars'])}")
            for order, count in p["bars"]:
                q = law.get(p["algo"], {}).get(order)
                ok = q is not None and abs(count - r["runs"] * q) <= 5 * math.sqrt(r["runs"] * q * (1 - q))
                check(ok, f"n = 3, {p['algo']}: order {order} came up {count} times (law {q})")
        if len(r["panels"]) == 2:
            fy, naive = r["panels"][0]["rect"], r["panels"][1]["rect"]
            check(abs(fy["top"] - naive["top"]) < 1 and naive["left"] >= fy["right"],
                  f"n = 3: naive is not beside Fisher-Yates: {fy} {naive}")
        check(r["scroll"] <= r["inner"], f"n = 3: scrollWidth {r['scroll']} > innerWidth {r['inner']}")
        d.save_screenshot(os.path.join(out_dir, "trace-runs-3.png"))
    finally:
        d.quit()
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
