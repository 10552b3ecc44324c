"""shufl: test whether shuffles are fair, on numpy arrays and Python functions.

The same battery of tests, decisions and words as the ``shufl`` command line, on decks held in
memory:

>>> import numpy as np, shufl
>>> rng = np.random.default_rng(1)
>>> decks = np.argsort(rng.random((2000, 52)), axis=1) + 1   # 2000 decks, cards 1..52
>>> shufl.audit(decks).passed
True

Functions
---------
audit               audit decks (a 2-D integer array, or lists of card labels)
audit_shuffle       audit a Python shuffle function by running it
shuffle             the order of ``shufl lines --seed SEED``
deck                shuffled decks as ``shufl deck`` makes them
bias                the algorithm zoo's counts and tests (``shufl bias``)
plan                how many decks an audit needs (``shufl audit --plan``)
seed_search         can logged deals be predicted? (``shufl audit --seed-search``)
Detector            the live monitor of ``shufl audit --follow``, its --state files
testing.assert_fair_shuffle   a pytest assertion for shuffle functions

See docs/python.md in the source tree for the guide.
"""

from ._shufl import __version__
from ._audit import AuditResult, TestResult, audit, audit_shuffle, deck, shuffle
from ._bias import BiasResult, bias
from ._detector import Detector
from ._plan import Plan, plan
from ._seed_search import SeedSearchResult, seed_search
from . import testing

__all__ = ["__version__", "AuditResult", "BiasResult", "Detector", "Plan", "SeedSearchResult", "TestResult", "audit", "audit_shuffle", "bias", "deck", "plan", "seed_search", "shuffle", "testing"]
