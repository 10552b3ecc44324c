"""Assertions for test suites (pytest, unittest): is a shuffle function fair?

>>> import random
>>> from shufl.testing import assert_fair_shuffle
>>> assert_fair_shuffle(random.shuffle, n=10)
"""

from __future__ import annotations

import random
from typing import Callable, Optional

from ._audit import audit_shuffle

__all__ = ["assert_fair_shuffle"]


def assert_fair_shuffle(fn: Callable, n: int = 52, trials: int = 20_000, alpha: float = 1e-6,
                        seed: Optional[int] = 0) -> None:
    """Assert that a shuffle function shows no evidence of non-randomness.

    Runs ``shufl.audit_shuffle(fn, n, trials, alpha=alpha)`` and raises AssertionError when
    the battery fails. The defaults take under 5 s for a 52-card ``random.shuffle`` and a
    false failure has probability at most ``alpha`` (one in a million), so a fair shuffle's test
    does not flake; a naive swap-with-anyone shuffle of 52 cards fails it.

    Parameters
    ----------
    fn : callable
        As ``shufl.audit_shuffle``: shuffles a fresh list ``[1..n]`` in place or returns one.
    n : int, default 52
        Cards per deck.
    trials : int, default 20_000
        Decks to make and audit.
    alpha : float, default 1e-6
        Family-wise level (Holm).
    seed : int or None, default 0
        Python's ``random`` module is seeded with it for the run (and its state restored
        afterwards), so a shuffle built on ``random`` repeats its decks and a failure
        reproduces; None leaves ``random`` alone.

    Raises
    ------
    AssertionError
        The battery failed: the message names the failed tests in the text report's words
        (test, statistic, p, Holm p), the summary, and the call that reproduces the run.
    """
    state = random.getstate()
    if seed is not None:
        random.seed(seed)
    try:
        r = audit_shuffle(fn, n=n, trials=trials, alpha=alpha)
    finally:
        random.setstate(state)
    if r.passed:
        return
    name = getattr(fn, "__qualname__", None) or repr(fn)
    lines = [f"{name} is not a fair shuffle: {r.summary}", ""]
    lines += [line for line in r.text.splitlines() if line.startswith("test ") or " fail" in line]
    lines += ["", "reproduce: shufl.testing.assert_fair_shuffle("
              f"{name}, n={n}, trials={trials}, alpha={alpha!r}, seed={seed!r})",
              "full report: print(shufl.audit_shuffle("
              f"{name}, n={n}, trials={trials}, alpha={alpha!r}))"]
    raise AssertionError("\n".join(lines))
