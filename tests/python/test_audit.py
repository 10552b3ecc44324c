"""shufl.audit on arrays and labels against `shufl audit --format json` on the same decks as text."""

import json
import os
import pickle
import random
import re

import numpy as np
import pytest

import shufl

SCHEMA = os.path.join(os.path.dirname(__file__), "..", "..", "schema", "audit-report.schema.json")
FIELDS = ("name", "decks", "observed", "expected", "statistic", "df", "p", "ln_p", "p_bound", "holm_p",
          "ln_holm_p", "result", "tail", "law", "note", "table", "columns")


def random_decks(count, n, seed):
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, n)), axis=1) + 1


def naive_decks(count, n, seed):
    rnd = random.Random(seed)
    out = np.empty((count, n), dtype=np.int64)
    for t in range(count):
        d = list(range(1, n + 1))
        for i in range(n):
            j = rnd.randrange(n)
            d[i], d[j] = d[j], d[i]
        out[t] = d
    return out


def cli_json(shufl_cli, tmp_path, decks, *args):
    f = tmp_path / "decks.txt"
    f.write_text("".join(" ".join(str(int(c)) for c in row) + "\n" for row in decks))
    return json.loads(shufl_cli("audit", str(f), "--format", "json", *args).stdout)


def same_numbers(doc, cli):
    """Every field but input is the CLI's, to the last bit."""
    assert doc.keys() == cli.keys()
    for k in doc:
        if k != "input":
            assert doc[k] == cli[k], k
    for a, b in zip(doc["tests"], cli["tests"]):
        for f in FIELDS:
            assert a.get(f) == b.get(f), (a["name"], f)


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.uint32, np.int64])
def test_array_equals_cli(shufl_cli, tmp_path, dtype):
    decks = random_decks(3000, 52, 1)
    r = shufl.audit(decks.astype(dtype), threads=2)
    same_numbers(r.to_dict(), cli_json(shufl_cli, tmp_path, decks))
    assert r.to_dict()["input"] == {"name": "<array>", "shape": [3000, 52], "dtype": np.dtype(dtype).name}
    jsonschema = pytest.importorskip("jsonschema")
    with open(SCHEMA) as f:
        jsonschema.Draft7Validator(json.load(f)).validate(r.to_dict())
    assert r.passed and r.result == "pass" and len(r.tests) == len(r.to_dict()["tests"])


def test_biased_array_equals_cli(shufl_cli, tmp_path):
    decks = naive_decks(2000, 52, 5)
    r = shufl.audit(decks, threads=3)
    same_numbers(r.to_dict(), cli_json(shufl_cli, tmp_path, decks))
    assert not r.passed and r["card-position"].result == "fail"


def test_views_zero_based_and_threads(shufl_cli, tmp_path):
    decks = random_decks(5000, 52, 2)
    cli = cli_json(shufl_cli, tmp_path, decks)
    fortran = np.asfortranarray(decks - 1).astype(np.int32)       # zero-based, column-major
    strided = np.zeros((5000, 104), dtype=np.int16)[:, ::2]       # every other column
    strided[:] = decks
    for arr, zb in ((fortran, True), (strided, False)):
        for threads in (1, 4):
            same_numbers(shufl.audit(arr, zero_based=zb, threads=threads).to_dict(), cli)


def test_other_pack_dealt_and_game(shufl_cli, tmp_path):
    decks = random_decks(1500, 32, 3)
    same_numbers(shufl.audit(decks, pack="piquet").to_dict(), cli_json(shufl_cli, tmp_path, decks, "--pack", "piquet"))
    same_numbers(shufl.audit(decks, pack=None).to_dict(), cli_json(shufl_cli, tmp_path, decks))
    d52 = random_decks(1500, 52, 4)
    same_numbers(shufl.audit(d52[:, :10], dealt=10).to_dict(),
                 cli_json(shufl_cli, tmp_path, d52[:, :10], "--pack", "standard", "--dealt", "10"))
    same_numbers(shufl.audit(d52, game="poker", deal="2x5").to_dict(),
                 cli_json(shufl_cli, tmp_path, d52, "--game", "poker", "--deal", "2x5"))


def test_lags_equal_cli(shufl_cli, tmp_path):
    # position-pairs over lags 1..3 (--lags 3), on the array path and on the labels path.
    decks = random_decks(2000, 52, 8)
    cli = cli_json(shufl_cli, tmp_path, decks, "--lags", "3")
    r = shufl.audit(decks, lags=3, threads=2)
    same_numbers(r.to_dict(), cli)
    default = shufl.audit(decks, threads=2)
    assert r["position-pairs"].ln_p != default["position-pairs"].ln_p and "lags 1..3" in r["position-pairs"].law
    pack = [r + s for s in "shdc" for r in "A23456789TJQK"]
    same_numbers(shufl.audit([[pack[c - 1] for c in row] for row in decks], lags=3).to_dict(), cli)
    for lags, cli_args in ((0, ["--lags", "0"]), (65, ["--lags", "65"]), (-1, ["--lags=-1"])):
        stderr = shufl_cli("audit", "-", *cli_args, input="", check=False).stderr
        with pytest.raises(ValueError) as e:
            shufl.audit(decks, lags=lags)
        assert "shufl: " + str(e.value) + "\n" == stderr


def test_labels_equal_cli(shufl_cli, tmp_path):
    # The standard pack's canonical order (deck.hpp): A, 2..10, J, Q, K of spades, hearts,
    # diamonds, clubs, in poker codes.
    pack = [r + s for s in "shdc" for r in "A23456789TJQK"]
    decks = random_decks(1000, 52, 6)
    rows = [[pack[c - 1] for c in row] for row in decks]
    r = shufl.audit(rows)
    same_numbers(r.to_dict(), cli_json(shufl_cli, tmp_path, decks))


def test_wrong_inputs_use_the_cli_words(shufl_cli, tmp_path):
    decks = random_decks(10, 52, 7)
    with pytest.raises(TypeError, match="array of integers.*float64"):
        shufl.audit(decks.astype(float))
    with pytest.raises(TypeError, match="bool"):
        shufl.audit(decks > 3)
    with pytest.raises(ValueError, match="2-D array"):
        shufl.audit(decks[0])
    with pytest.raises(ValueError, match=r"^<array>: 51 cards per row, the pack has 52$"):
        shufl.audit(decks[:, :51])
    with pytest.raises(ValueError, match="no decks"):
        shufl.audit(decks[:0])
    with pytest.raises(ValueError, match="rows of different lengths"):
        shufl.audit([[1, 2, 3], [1, 2]], pack=None)
    bad = decks.copy()
    bad[3, 7] = 53
    cli = shufl_cli("audit", "-", "--format", "json", input=" ".join(map(str, bad[3])) + "\n", check=False)
    tail = cli.stderr.strip().split("unknown card ")[1].replace("'", "")
    assert tail == "53 (numbers run from 1 to 52)"
    with pytest.raises(ValueError, match=r"^<array>: row 3, column 7: unknown card 53 \(numbers run from 1 to 52\)$"):
        shufl.audit(bad)
    bad[3, 7] = bad[3, 6]
    with pytest.raises(ValueError, match=r"^<array>: row 3, column 7: card \d+ appears more often than the pack has it$"):
        shufl.audit(bad)
    bad[3, 7] = -1
    with pytest.raises(ValueError, match="unknown card -1"):
        shufl.audit(bad)
    # The first bad row is named whatever the threads.
    many = random_decks(50000, 52, 8)
    many[45000, 0] = 0
    many[30000, 1] = 99
    with pytest.raises(ValueError, match="row 30000, column 1: unknown card 99"):
        shufl.audit(many, threads=4)
    with pytest.raises(ValueError, match="did you mean"):
        shufl.audit(decks, pack="standad")
    with pytest.raises(ValueError, match="alpha"):
        shufl.audit(decks, alpha=2)
    cli = shufl_cli("audit", "-", input="As Kd Zz\n", check=False).stderr.strip()
    with pytest.raises(ValueError) as e:
        shufl.audit([["As", "Kd", "Zz"]], pack=None)
    assert str(e.value) == cli.removeprefix("shufl: ").replace("standard input", "<decks>")


@pytest.mark.parametrize("kwargs,cli_args", [
    ({"game": "bridge"}, ["--game", "bridge"]),
    ({"deal": "2x5"}, ["--deal", "2x5"]),
    ({"game": "poker", "deal": "6by5"}, ["--game", "poker", "--deal", "6by5"]),
    ({"game": "poker", "deal": (0, 5)}, ["--game", "poker", "--deal", "0x5"]),
    ({"game": "blackjack", "deal": (-1, 2)}, ["--game", "blackjack", "--deal=-1x2"]),
    ({"game": "poker", "deal": "2x2000"}, ["--game", "poker", "--deal", "2x2000"]),
])
def test_bad_game_or_deal_uses_the_cli_words(shufl_cli, kwargs, cli_args):
    cli = shufl_cli("audit", "-", *cli_args, input="", check=False)
    assert cli.returncode == 1
    with pytest.raises(ValueError) as e:
        shufl.audit(random_decks(10, 52, 1), **kwargs)
    assert "shufl: " + str(e.value) + "\n" == cli.stderr
    with pytest.raises(ValueError) as e:
        shufl.plan(**kwargs)
    assert "shufl: " + str(e.value) + "\n" == cli.stderr
    with pytest.raises(TypeError, match="deal must be 'HxC' or"):
        shufl.audit(random_decks(10, 52, 1), game="poker", deal=(1, 2, 3))


def test_result_object():
    r = shufl.audit(random_decks(2000, 52, 9), threads=1)
    again = pickle.loads(pickle.dumps(r))
    assert again.to_dict() == r.to_dict() and again.tests == r.tests and str(again) == str(r)
    # The copy's fragment is the original's but for its id prefix: the two repeat no id.
    ids = re.compile(r'\sid="([^"]*)"')
    mine, theirs = ids.findall(r._repr_html_()), ids.findall(again._repr_html_())
    assert len(mine) >= 8 and len(theirs) == len(mine) and not set(mine) & set(theirs)
    prefix = re.compile(r"shufl-[0-9a-f]{12}-")
    assert prefix.sub("P-", again._repr_html_()) == prefix.sub("P-", r._repr_html_())
    assert not set(ids.findall(pickle.loads(pickle.dumps(again))._repr_html_())) & set(theirs)
    assert str(r).startswith("audit of <array>: 2,000 decks") or str(r).startswith("audit of <array>: 2000 decks")
    assert r.to_dict()["tests"][0]["name"] == "card-position"
    groups = shufl.audit(random_decks(4000, 52, 10), group=np.arange(4000) % 2)
    assert set(groups) == {0, 1} and all(g.decks == 2000 for g in groups.values())
    pd = pytest.importorskip("pandas")
    frame = r.to_frame()
    assert isinstance(frame, pd.DataFrame) and frame.loc["card-position", "df"] == 2601


def test_repr_html_is_the_report_page_section(shufl_cli, tmp_path):
    decks = random_decks(2000, 52, 9)
    html = shufl.audit(decks.astype(np.uint8), threads=1)._repr_html_()
    assert html.startswith('<div class="shufl-audit">\n<style>') and html.endswith("</div>\n")
    # One style element, every selector under the fragment's own class: the notebook keeps its look.
    assert html.count("<style") == 1 and "<script" not in html and "@" not in html.split("</style>")[0]
    style = html.split("<style>")[1].split("</style>")[0]
    selectors = [sel.strip() for rules in re.findall(r"([^{}]+)\{[^}]*\}", style) for sel in rules.split(",")]
    assert len(selectors) > 20 and all(sel.startswith(".shufl-audit") for sel in selectors), selectors
    assert "<tr><th>shape</th><td>2000 \u00d7 52 (decks \u00d7 cards)</td></tr>" in html
    assert "<tr><th>element type</th><td>uint8</td></tr>" in html
    # The battery table and the heatmaps are the CLI's --report page's for the same decks.
    f, page = tmp_path / "decks.txt", tmp_path / "report.html"
    f.write_text("".join(" ".join(str(int(c)) for c in row) + "\n" for row in decks))
    shufl_cli("audit", str(f), "--report", str(page))
    page = page.read_text()
    # The same markup but for the fragment's own prefix of every id (and every link to one).
    prefix = re.search(r'id="(shufl-[0-9a-f]{12}-)battery-0"', html).group(1)
    html = html.replace('id="' + prefix, 'id="').replace('href="#' + prefix, 'href="#').replace("url(#" + prefix, "url(#")
    battery = re.compile(r'<table class="battery".*?</table>', re.S)
    pictures = re.compile(r'<figure class="picture".*?</figure>', re.S)
    assert battery.findall(html) == battery.findall(page) and len(battery.findall(html)) == 1
    assert pictures.findall(html) == pictures.findall(page) and len(pictures.findall(html)) == 3


def test_repr_html_ids_are_unique_across_results():
    # Two results of the same decks in one notebook: no id repeats, within a fragment or across
    # the two, and every link of a fragment finds its own fragment's id.
    decks = random_decks(1000, 52, 9)
    ids, links = re.compile(r'\sid="([^"]*)"'), re.compile(r'(?:href="#|url\(#)([^")]*)')
    seen = []
    for _ in range(2):
        html = shufl.audit(decks, threads=1)._repr_html_()
        own = ids.findall(html)
        assert len(own) >= 8 and len(set(own)) == len(own)
        assert set(links.findall(html)) <= set(own) and len(links.findall(html)) > 5
        seen.append(set(own))
    assert not seen[0] & seen[1]


def test_shuffle_equals_lines(shufl_cli):
    items = [f"item {i}" for i in range(1000)]
    for seed in ("s", "42", "run-7"):
        out = shufl_cli("lines", "--seed", seed, input="\n".join(items) + "\n").stdout.splitlines()
        assert shufl.shuffle(items, seed=seed) == out
    assert sorted(shufl.shuffle(items)) == sorted(items)
    with pytest.raises(ValueError, match="seed"):
        shufl.shuffle(items, seed="")


def test_version(shufl_cli):
    assert shufl_cli("--version").stdout.split()[1] == shufl.__version__


def test_bias_equals_cli(shufl_cli):
    r = shufl.bias(4, 24000, "fisher-yates,naive,modulo:8", seed="1", threads=2)
    cli = json.loads(shufl_cli("bias", "--n", "4", "--trials", "24000", "--algo", "fisher-yates,naive,modulo:8",
                               "--seed", "1", "--threads", "2", "--format", "json").stdout)
    assert r.to_dict() == cli
    assert r.verdicts["fisher-yates"] == "no-evidence" and r.verdicts["naive"] == "biased"
    text = shufl_cli("bias", "--n", "4", "--trials", "24000", "--algo", "fisher-yates,naive,modulo:8", "--seed", "1",
                     "--threads", "2").stdout
    assert str(r) == text
    assert pickle.loads(pickle.dumps(r)).to_dict() == cli
    with pytest.raises(ValueError, match="did you mean"):
        shufl.bias(3, 100, "fisher-yate")


@pytest.mark.parametrize("kwargs,cli_args", [
    ({}, []),
    ({"effect": 0.02, "power": 0.8, "alpha": 0.05}, ["--effect", "0.02", "--power", "0.8", "--alpha", "0.05"]),
    ({"effect": {"card-position": 0.03, "descents": 0.1}}, ["--effect", "card-position=0.03,descents=0.1"]),
    ({"pack": "standard", "decks_in_shoe": 6, "game": "blackjack"}, ["--pack", "standard", "--decks", "6", "--game", "blackjack"]),
    ({"lags": 4}, ["--lags", "4"]),
    ({"lags": 1, "batch_size": 1000, "alpha": 0.05}, ["--lags", "1", "--batch-size", "1000", "--alpha", "0.05"]),
    ({"tier": "small"}, ["--tier", "small"]),
    ({"tier": "big", "pack": "piquet"}, ["--tier", "big", "--pack", "piquet"]),
])
def test_plan_equals_cli(shufl_cli, kwargs, cli_args):
    p = shufl.plan(**kwargs)
    assert p.to_dict() == json.loads(shufl_cli("audit", "--plan", "--format", "json", *cli_args).stdout)
    assert str(p) == shufl_cli("audit", "--plan", *cli_args).stdout
    assert p.decks == max(t["decks"] for t in p.tests if t["planned"])
    with pytest.raises(ValueError):
        shufl.plan(effect={"no-such-test": 0.1})


@pytest.mark.parametrize("kwargs,cli_args", [
    ({"tier": "small", "lags": 4}, ["--tier", "small", "--lags", "4"]),
    ({"tier": "small", "alpha": 0.01}, ["--tier", "small", "--alpha", "0.01"]),
    ({"tier": "standard", "batch_size": 0}, ["--tier", "standard", "--batch-size", "0"]),
    ({"tier": "big", "game": "poker"}, ["--tier", "big", "--game", "poker"]),
    ({"tier": "huge"}, ["--tier", "huge"]),
    ({"lags": 0}, ["--lags", "0"]),
    ({"lags": 65}, ["--lags", "65"]),
    ({"lags": -1}, ["--lags=-1"]),
    ({"batch_size": 5}, ["--batch-size", "5"]),
])
def test_plan_refusals_use_the_cli_words(shufl_cli, kwargs, cli_args):
    cli = shufl_cli("audit", "--plan", *cli_args, check=False)
    assert cli.returncode == 1 and cli.stderr.startswith("shufl: "), cli.stderr
    with pytest.raises(ValueError) as e:
        shufl.plan(**kwargs)
    assert "shufl: " + str(e.value) + "\n" == cli.stderr


def test_lags_out_of_range_and_of_the_wrong_type(shufl_cli):
    # A negative count of lags is out of 1 to 64 as 0 is, in the same words (CLI and Python); a
    # str is a TypeError, not parsed as the command line would.
    for lags in (0, -1, -7):
        cli = shufl_cli("audit", "--plan", f"--lags={lags}", check=False)
        assert cli.stderr == f"shufl: --lags must be 1 to 64, not {lags}\n"
        for call in (lambda: shufl.plan(lags=lags), lambda: shufl.audit([list(range(1, 53))], lags=lags)):
            with pytest.raises(ValueError, match=rf"^--lags must be 1 to 64, not {lags}$"):
                call()
    for call in (lambda: shufl.plan(lags="4"), lambda: shufl.audit([list(range(1, 53))], lags="4")):
        with pytest.raises(TypeError, match=r"^lags must be an integer, not str$"):
            call()
    with pytest.raises(TypeError, match=r"^batch_size must be an integer, not float$"):
        shufl.plan(batch_size=1.5)


def test_deck_equals_cli(shufl_cli, tmp_path):
    assert shufl.deck(seed="7") == shufl_cli("deck", "--seed", "7").stdout.split()
    assert shufl.deck(seed="7", style="unicode", pack="piquet", jokers=0) == \
        shufl_cli("deck", "--seed", "7", "--style", "unicode", "--pack", "piquet").stdout.split("\n")[:-1]
    many = shufl.deck(500, seed="s")
    assert many.shape == (500, 52) and many.dtype == np.uint16
    pack = [r + s for s in "shdc" for r in "A23456789TJQK"]
    lines = shufl_cli("deck", "--count", "500", "--seed", "s").stdout.splitlines()
    assert [[pack[c - 1] for c in row] for row in many] == [line.split() for line in lines]
    assert shufl.audit(many).to_dict()["tests"] == cli_json(shufl_cli, tmp_path, many)["tests"]
    assert sorted(shufl.deck()) == sorted(pack)
    with pytest.raises(ValueError, match="seed"):
        shufl.deck(seed="")
    with pytest.raises(ValueError, match="did you mean"):
        shufl.deck(pack="piqet")
