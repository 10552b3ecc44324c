"""shufl.plan: how many decks an audit needs (``shufl audit --plan``)."""

from __future__ import annotations

import json
from typing import Mapping, Optional, Union

from . import _shufl
from ._report import _Report
from ._audit import _args, _uint


class Plan(_Report):
    """The decks each test of the battery needs to detect an effect.

    Attributes
    ----------
    decks : int
        The largest of the planned tests' decks: enough for every planned test.
    tests : list of dict
        Per test: name, planned, effect, model, df, noncentrality_per_deck, noncentrality, decks,
        validity_bound, tier_reached (None without a tier), note (the JSON of ``shufl audit
        --plan --format json``).
    text : str
        The text of ``shufl audit --plan`` (``str(plan)``).
    """

    @property
    def decks(self) -> int:
        return max((t["decks"] for t in self._doc["tests"] if t["planned"]), default=0)

    @property
    def tests(self) -> list:
        return self._doc["tests"]

    def __repr__(self) -> str:
        return f"<shufl.Plan {self.decks} decks>"

    def to_dict(self) -> dict:
        """The document ``shufl audit --plan --format json`` writes (a new copy each call)."""
        return self._doc_copy()


def plan(*, pack: str = "standard", decks_in_shoe: int = 1, game: Optional[str] = None, deal=None,
         alpha: Optional[float] = None, power: float = 0.9, effect: Union[None, float, Mapping[str, float]] = None,
         lags: Optional[int] = None, batch_size: Optional[int] = None, tier: Optional[str] = None) -> Plan:
    """The decks each test of the battery needs to detect an effect of a given size with a given
    power (``shufl audit --plan``; the models are in docs/audit.md).

    Parameters
    ----------
    pack, decks_in_shoe, game, deal
        As :func:`shufl.audit` (whole decks).
    alpha : float, optional
        Family-wise level, in (0, 1); default 0.01 (``--alpha``).
    power : float, default 0.9
        The power wanted per test, in (0, 1).
    effect : float or mapping of str to float, optional
        δ for every test with an effect model (a float), or per test name
        ({"card-position": 0.02}); the others keep their defaults (0.01 for the position
        tables and serial tests, 0.05 cards per deck for the totals).
    lags : int, optional
        position-pairs' lags 1..``lags`` (``--lags``, 1 to 64; default 2): its level is
        α/(m·lags).
    batch_size : int, optional
        The batches test's sample size in decks (``--batch-size``, 10 to 10^7; default 0, no
        batches test): it joins the family m, unplanned.
    tier : {"small", "standard", "big"}, optional
        Plan a named tier's battery (``--tier``: its α, lags and batch size) and say, per test,
        whether the tier's decks reach the power (``tier_reached``). It cannot be given with
        ``alpha``, ``lags``, ``batch_size``, ``game`` or ``deal``.

    Returns
    -------
    Plan

    Raises
    ------
    ValueError
        A δ the model cannot take, an unknown test name, α or power outside (0, 1), lags or a
        batch size out of range, an unknown tier or an option a tier fixes; the command line's
        words ("--tier small fixes the battery, alpha, batch size, lags and decks: drop --lags").

    Examples
    --------
    >>> import shufl
    >>> shufl.plan(effect={"card-position": 0.02}).tests[0]["decks"] < shufl.plan().tests[0]["decks"]
    True
    >>> shufl.plan(tier="small").to_dict()["tier"]["name"]
    'small'
    """
    args = _args(pack, decks_in_shoe, None, game, deal, 0.01 if alpha is None else alpha, 1)
    if effect is None:
        effect_all, effects = None, {}
    elif isinstance(effect, Mapping):
        effect_all, effects = None, {str(k): float(v) for k, v in effect.items()}
    else:
        effect_all, effects = float(effect), {}
    doc, text = _shufl.plan(args, alpha is not None, float(power), effect_all, effects,
                            None if lags is None else _uint(lags, "--lags"),
                            None if batch_size is None else _uint(batch_size, "--batch-size"), tier)
    return Plan(json.loads(doc), text)
