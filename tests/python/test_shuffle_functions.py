"""audit_shuffle and assert_fair_shuffle on a fair and a naive shuffle (fixed seeds; alpha 1e-6)."""

import random

import pytest

import shufl
from shufl.testing import assert_fair_shuffle


def naive(deck):
    n = len(deck)
    for i in range(n):
        j = random.randrange(n)
        deck[i], deck[j] = deck[j], deck[i]


def returns_new(deck):
    return random.sample(deck, len(deck))


def test_audit_shuffle_catches_the_naive_swap():
    random.seed(1)
    r = shufl.audit_shuffle(naive, n=52, trials=20_000, alpha=1e-6)
    assert not r.passed and "card-position" in [t.name for t in r.failed]
    random.seed(2)
    assert shufl.audit_shuffle(random.shuffle, n=52, trials=20_000, alpha=1e-6).passed
    random.seed(3)
    assert shufl.audit_shuffle(returns_new, n=10, trials=20_000, alpha=1e-6).passed


def test_assert_fair_shuffle():
    assert_fair_shuffle(random.shuffle)
    with pytest.raises(AssertionError) as e:
        assert_fair_shuffle(naive)
    text = str(e.value)
    assert text.startswith("naive is not a fair shuffle: evidence of non-randomness in 20000 decks at alpha 1e-06")
    assert "card-position" in text and " fail" in text and "test " in text
    assert "reproduce: shufl.testing.assert_fair_shuffle(naive, n=52, trials=20000, alpha=1e-06, seed=0)" in text


def test_bad_shuffle_output():
    with pytest.raises(ValueError, match="row 0, column 1: card 1 appears more often than the pack has it"):
        shufl.audit_shuffle(lambda d: [1] * len(d), n=10, trials=5)
    with pytest.raises(ValueError, match="the shuffle returned 9 cards for deck 0, not 10"):
        shufl.audit_shuffle(lambda d: d[:-1], n=10, trials=5)
    with pytest.raises(ValueError, match=r"row 0, column 0: unknown card 300 \(numbers run from 1 to 10\)"):
        shufl.audit_shuffle(lambda d: [300] + d[1:], n=10, trials=5)
    with pytest.raises(ValueError, match="n must be"):
        shufl.audit_shuffle(random.shuffle, n=1)
