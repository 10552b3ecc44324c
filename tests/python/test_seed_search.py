"""shufl.seed_search against the command line (`shufl audit --seed-search`) on the same deals as
text, a seed planted by CPython's own random found, a fair deal not called predictable, bad input
in the command line's words, Ctrl-C."""

import doctest
import json
import pickle
import random

import numpy as np
import pytest

import shufl

CODES = [r + s for s in "shdc" for r in "A23456789TJQK"]  # shufl deck's canonical order


def python_deals(seed, deals, cards):
    """Deals of a dealer seeding CPython's random once (the generator itself, not shufl's copy)."""
    rng = random.Random(seed)
    out = []
    for _ in range(deals):
        deck = list(range(52))
        rng.shuffle(deck)
        out.append(deck[:cards])
    return np.array(out, dtype=np.int16)


def cli_json(shufl_cli, tmp_path, deals, *args):
    path = tmp_path / "deals.txt"
    path.write_text("".join(" ".join(CODES[c] for c in d) + "\n" for d in deals))
    p = shufl_cli("audit", "--seed-search", *args, "--format", "json", str(path), check=False)
    assert p.returncode in (0, 3, 4), p.stderr
    return json.loads(p.stdout), p.returncode


def without_input(r):
    d = r.to_dict()
    d.pop("input")
    return d


@pytest.mark.parametrize("options,cli", [
    (dict(reseed="once", dealt=5), ["--reseed", "once", "--dealt", "5"]),
    (dict(dealt=6, all=True), ["--dealt", "6", "--all"]),
    (dict(dealt=6, shard="1/3"), ["--dealt", "6", "--shard", "1/3"]),
])
def test_the_numbers_are_the_command_lines(shufl_cli, tmp_path, options, cli):
    deals = python_deals(31337, 3, options["dealt"])
    r = shufl.seed_search(deals, "python-random", "30000..40000", zero_based=True, threads=2, **options)
    expected, status = cli_json(shufl_cli, tmp_path, deals, "python-random", "--seeds", "30000..40000", *cli)
    assert without_input(r) == expected
    assert r.status == status
    assert r.to_dict()["input"] == {"name": "<array>", "shape": [3, options["dealt"]], "dtype": "int16"}
    # the same deals as labels, 1-based numbers and another dtype: the same document
    labels = [[CODES[c] for c in d] for d in deals]
    assert without_input(shufl.seed_search(labels, "python-random", range(30000, 40001), **options)) == expected
    assert without_input(shufl.seed_search((deals + 1).astype(np.uint64), "python-random", "30000..40000",
                                           **options)) == expected


def test_a_planted_seed_is_found_and_predicts_the_next_deal():
    deals = python_deals(1796112345, 3, 5)
    r = shufl.seed_search(deals, "python-random", "time:2026-12-01T00:00:00Z..2026-12-01T23:59:59Z",
                          reseed="once", dealt=5, zero_based=True)
    assert r.found and r.predictable and r.verdict == "predictable" and r.status == 3
    assert r.matches == [{"seed": 1796112345, "deal": None}]
    rng = random.Random(1796112345)
    made = []
    for _ in range(4):
        deck = list(range(52))
        rng.shuffle(deck)
        made.append([CODES[c] for c in deck])
    assert r.predicted_rest_of_last_deal == made[2][5:]
    assert r.predicted_next_deal == made[3]
    assert str(r) == r.text and r.text.startswith("Seed search: python-random")
    back = pickle.loads(pickle.dumps(r))
    assert back.to_dict() == r.to_dict() and back.status == 3 and back.text == r.text


def test_a_fair_deal_is_not_called_predictable():
    rng = np.random.default_rng(2026)
    deals = np.argsort(rng.random((2, 52)), axis=1)[:, :6]
    r = shufl.seed_search(deals, "c-rand", "0..200000", dealt=6, zero_based=True)
    assert not r.predictable and r.verdict == "not-found" and r.status == 0
    assert r.seeds_tried == 2 * 200001 and r.predicted_next_deal is None


def test_bad_input_in_the_command_lines_words(shufl_cli, tmp_path):
    deals = python_deals(1, 1, 52)
    path = tmp_path / "d.txt"
    path.write_text(" ".join(CODES[c] for c in deals[0]) + "\n")
    for args, kwargs in [
        (["pyton-random", "--seeds", "0..5"], dict(family="pyton-random", seeds="0..5")),
        (["python-random", "--seeds", "5..1"], dict(family="python-random", seeds="5..1")),
        (["python-random", "--seeds", "0..5", "--reseed", "twice"], dict(family="python-random", seeds="0..5", reseed="twice")),
        (["python-random", "--seeds", "0..5", "--loop", "sideways"], dict(family="python-random", seeds="0..5", loop="sideways")),
        (["node-math-random", "--shard", "0/2"], dict(family="node-math-random", shard="0/2")),
    ]:
        p = shufl_cli("audit", "--seed-search", *args, str(path), check=False)
        assert p.returncode == 1
        message = p.stderr.strip().removeprefix("shufl: ")
        with pytest.raises(ValueError) as e:
            shufl.seed_search(deals, zero_based=True, **kwargs)
        assert str(e.value) == message
    bad = deals.copy()
    bad[0, 3] = 52
    with pytest.raises(ValueError, match=r"^<array>: row 0, column 3: unknown card 52 \(numbers run from 0 to 51\)$"):
        shufl.seed_search(bad, "python-random", "0..5", zero_based=True)
    with pytest.raises(ValueError, match="no deals"):
        shufl.seed_search(np.empty((0, 52), dtype=np.uint8), "python-random", "0..5")
    with pytest.raises(TypeError, match="not of dtype float64"):
        shufl.seed_search(deals.astype(float), "python-random", "0..5")
    with pytest.raises(TypeError, match="family must be a str"):
        shufl.seed_search(deals, 7, "0..5")
    with pytest.raises(TypeError, match="seeds must be a str"):
        shufl.seed_search(deals, "python-random", 5)
    # A range is passed on by its ends (never len(), which overflows past 2^63 seeds): a huge one
    # gets the command line's own words; a step is refused in plain words.
    for r, cli_seeds in ((range(0, 2**63), "0..9223372036854775807"), (range(0, 2**64), "0..18446744073709551615")):
        p = shufl_cli("audit", "--seed-search", "cpp-mt19937", "--seeds", cli_seeds, str(path), check=False)
        assert p.returncode == 1 and "cpp-mt19937 seeds go up to 4294967295" in p.stderr
        with pytest.raises(ValueError) as e:
            shufl.seed_search(deals, "cpp-mt19937", r, zero_based=True)
        assert str(e.value) == p.stderr.strip().removeprefix("shufl: ")
    with pytest.raises(ValueError, match=r"^seeds: a range must have step 1 \(every seed from start to stop\), not step 2$"):
        shufl.seed_search(deals, "python-random", range(0, 10, 2), zero_based=True)
    with pytest.raises(ValueError, match=r"^seeds: the range is empty \(range\(5, 5\)\): give at least one seed$"):
        shufl.seed_search(deals, "python-random", range(5, 5), zero_based=True)


def test_docstring_example():
    import shufl._seed_search as module

    failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failed == 0


def test_sigint_stops_the_search(sigint_stops):
    # 2^40 seeds take hours: "interrupted" proves the search stopped; 10 s only catches a hang.
    sigint_stops('shufl.seed_search(deal, "python-random", "0..2^40", dealt=8, zero_based=True, threads=1)',
                 "deal = np.array([[5, 17, 33, 2, 48, 11, 40, 29]])   # no seed makes it: the whole range is searched")
