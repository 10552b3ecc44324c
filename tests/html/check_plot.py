#!/usr/bin/env python3
"""U01 (issue 13 item 1): `shufl bias --plot FILE.svg` rendered to PNG by rsvg-convert and checked
on its pixels.

- Each cell's pixel is the colour of its z-score on the documented scale (README / heatmap.hpp:
  z = (O - E) / sqrt(E (1 - 1/n)), E = T/n, clipped at +-4, RdBu stops), recomputed here from the
  --format json counts of the same run.
- A fair shuffle (Fisher-Yates) stays near white: no cell is near either end of the scale.
- For every algorithm of tests/reference/exact_distributions.json (naive, sattolo, sort-coin,
  modulo:3 at n = 3 and 4), the cells whose exact probability is far above 1/n are red and those
  far below are blue (the exact laws come from the reference file, not from shufl).
- Titles fit (n = 3, 8, 52): the image column just left of each next panel is white along the
  titles, and the image's right and bottom edges are white (nothing clipped); axes say card and
  position; the colour bar has its numbers; the deciding test is named on each panel.
Usage: check_plot.py SHUFL REFERENCE_DIR OUT_DIR. Exit 77 (skip) when rsvg-convert is missing.
"""
import json
import math
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pngread import read_png  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"
# The documented scale (heatmap.hpp, README): z and colour at each stop.
STOPS = [(-4, (0x21, 0x66, 0xac)), (-8 / 3, (0x67, 0xa9, 0xcf)), (-4 / 3, (0xd1, 0xe5, 0xf0)),
         (0, (0xff, 0xff, 0xff)), (4 / 3, (0xfd, 0xdb, 0xc7)), (8 / 3, (0xef, 0x8a, 0x62)),
         (4, (0xb2, 0x18, 0x2b))]
WHITE, RED_END, BLUE_END = (255, 255, 255), STOPS[-1][1], STOPS[0][1]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def colour_of(z):
    z = max(-4.0, min(4.0, z))
    for (z0, c0), (z1, c1) in zip(STOPS, STOPS[1:]):
        if z <= z1:
            t = (z - z0) / (z1 - z0)
            return tuple(round(a + (b - a) * t) for a, b in zip(c0, c1))
    return STOPS[-1][1]


def dist(a, b):
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))


def render(shufl, out_dir, name, args):
    svg_path = os.path.join(out_dir, name + ".svg")
    png_path = os.path.join(out_dir, name + ".png")
    run = subprocess.run([shufl, "bias", *args, "--format", "json", "--plot", svg_path],
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"shufl bias {args} failed: {run.stderr}")
    subprocess.run(["rsvg-convert", svg_path, "-o", png_path], check=True)
    width, height, px = read_png(png_path)
    root = ET.parse(svg_path).getroot()
    return json.loads(run.stdout), root, (width, height, px)


def cells_of(root):
    cells = {}
    for r in root.iter(SVG + "rect"):
        if r.get("class") == "cell":
            key = (int(r.get("data-panel")), int(r.get("data-card")), int(r.get("data-position")))
            x, y, w, h = (float(r.get(a)) for a in ("x", "y", "width", "height"))
            cells[key] = (int(x + w / 2), int(y + h / 2))
    return cells


def texts_of(root):
    return ["".join(t.itertext()) for t in root.iter(SVG + "text")]


def check_layout(name, root, image, n_panels):
    width, height, px = image
    texts = texts_of(root)
    check(texts.count("card") == n_panels and texts.count("position") == n_panels,
          f"{name}: every panel has the axis labels card and position")
    for label in ("\u2265 4 (more)", "2", "0", "\u22122", "\u2264 \u22124 (fewer)"):
        check(label in texts, f"{name}: the colour bar shows {label!r}")
    check(sum(t.startswith("decided by: ") or t.startswith("no verdict") for t in texts) == n_panels,
          f"{name}: every panel names the deciding test")
    check(any(t.startswith("colour: each cell's z = (O \u2212 E)") for t in texts), f"{name}: caption states the quantity")
    # No text or picture runs into the next panel or off the image.
    panels = [g for g in root.iter(SVG + "g") if g.get("class") == "panel"]
    titles_bottom = min(y for (_, y) in cells_of(root).values()) - 10
    for g in panels[1:]:
        title = next(g.iter(SVG + "text"))
        x_next, titles_top = float(title.get("x")), float(title.get("y")) - 14
        for x in range(int(x_next) - 8, int(x_next) - 2):
            for y in range(int(titles_top), int(titles_bottom)):
                if px[y][x] != WHITE:
                    failures.append(f"{name}: text of a panel reaches the next panel (pixel {x},{y})")
                    return
    for y in range(height):
        if px[y][width - 1] != WHITE or px[y][width - 2] != WHITE:
            failures.append(f"{name}: something is clipped at the right edge (row {y})")
            break
    for x in range(width):
        if px[height - 1][x] != WHITE:
            failures.append(f"{name}: something is clipped at the bottom edge (column {x})")
            break


def main():
    shufl, reference_dir, out_dir = sys.argv[1:4]
    if shutil.which("rsvg-convert") is None:
        print("rsvg-convert (librsvg2-bin) is missing: skipped")
        return 77
    os.makedirs(out_dir, exist_ok=True)
    reference = json.load(open(os.path.join(reference_dir, "exact_distributions.json")))

    for n in (3, 4):
        cases = [c for c in reference["cases"] if c["n"] == n]
        algos = [c["algorithm"] for c in cases]
        trials = 60000
        doc, root, image = render(shufl, out_dir, f"plot_n{n}", ["--n", str(n), "--seed", "1", "--trials", str(trials),
                                                                  "--algo", ",".join(algos)])
        name = f"U01 n={n}"
        _, _, px = image
        cells = cells_of(root)
        check(len(cells) == len(algos) * n * n, f"{name}: one cell per card and position")
        check_layout(name, root, image, len(algos))
        for k, (case, result) in enumerate(zip(cases, doc["results"])):
            e = trials / n
            sd = math.sqrt(e * (1 - 1 / n))
            for card in range(1, n + 1):
                for pos in range(1, n + 1):
                    o = result["position_counts"][card - 1][pos - 1]
                    z = (o - e) / sd
                    got = px[cells[(k, card, pos)][1]][cells[(k, card, pos)][0]]
                    want = colour_of(z)
                    check(max(abs(a - b) for a, b in zip(got, want)) <= 2,
                          f"{name} {case['algorithm']} card {card} position {pos}: pixel {got}, scale gives {want} for z = {z:.2f}")
                    p = Fraction(case["position_matrix_element_by_position"][card - 1][pos - 1])
                    shift = float(p - Fraction(1, n)) * trials / sd  # expected z under the exact law
                    if case["algorithm"] == "fisher-yates":
                        check(dist(got, RED_END) > 80 and dist(got, BLUE_END) > 80,
                              f"{name}: fair shuffle's cell {card},{pos} is near an end of the scale: {got}")
                    elif shift > 8:
                        check(got[0] > got[2] + 100, f"{name} {case['algorithm']}: over-represented cell {card},{pos} is not red: {got}")
                    elif shift < -8:
                        check(got[2] > got[0] + 100, f"{name} {case['algorithm']}: under-represented cell {card},{pos} is not blue: {got}")
            spread = sum(dist(px[y][x], WHITE) for (kk, _, _), (x, y) in cells.items() if kk == k) / (n * n)
            if case["algorithm"] == "fisher-yates":
                fair_spread = spread
                check(spread < 70, f"{name}: fair shuffle's cells are {spread:.0f} from white on average")
            elif case["algorithm"] == "naive":
                check(spread > 2 * fair_spread, f"{name}: naive ({spread:.0f}) is not clearly further from white than fair ({fair_spread:.0f})")
        if n == 3:
            # Naive n = 3: (card 2, position 1) and (card 3, position 2) have probability 10/27 > 1/3.
            k = algos.index("naive")
            for card, pos in ((2, 1), (3, 2)):
                got = px[cells[(k, card, pos)][1]][cells[(k, card, pos)][0]]
                check(dist(got, RED_END) < 10, f"{name}: naive's over-represented cell {card},{pos} is {got}, not red")

    for n, algos in ((8, "fisher-yates,naive,sort-coin:insertion"), (52, "fisher-yates,riffle:7,weak-seed,transpositions:10")):
        doc, root, image = render(shufl, out_dir, f"plot_n{n}", ["--n", str(n), "--seed", "2", "--trials", "20000", "--algo", algos])
        check_layout(f"U01 n={n}", root, image, len(algos.split(",")))

    for f in failures:
        print("FAIL:", f)
    print(f"{'FAILED' if failures else 'ok'}: plot pixels ({len(failures)} failures); pictures in {out_dir}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
