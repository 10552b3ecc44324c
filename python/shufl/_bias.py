"""shufl.bias: the algorithm zoo's permutation counts and their tests (``shufl bias``)."""

from __future__ import annotations

import json
from typing import Optional, Union, Sequence

from . import _shufl
from ._report import _Report


class BiasResult(_Report):
    """The report of ``shufl bias``: one result per algorithm.

    Attributes
    ----------
    verdicts : dict of str to str
        Per algorithm label: "no-evidence", "biased" or "unreliable".
    results : list of dict
        The JSON's ``results`` (counts, chi_squared, g_test, secondary, verdict, ...).
    text : str
        The text report (``str(result)``).
    """

    @property
    def results(self) -> list:
        return self._doc["results"]

    @property
    def verdicts(self) -> dict:
        return {r["algorithm"]: r["verdict"] for r in self._doc["results"]}

    def __repr__(self) -> str:
        return f"<shufl.BiasResult {self.verdicts}>"

    def to_dict(self) -> dict:
        """The document ``shufl bias --format json`` writes (a new copy each call)."""
        return self._doc_copy()


def bias(n: int = 3, trials: int = 60_000, algos: Union[str, Sequence[str]] = "fisher-yates,naive", *,
         seed: Optional[str] = None, alpha: float = 0.01, engine: str = "xoshiro256pp", test: str = "auto",
         exact: bool = False, threads: Optional[int] = None) -> BiasResult:
    """Run shuffle algorithms on the deck 1..n and test their permutation counts (``shufl bias``).

    Parameters
    ----------
    n : int, default 3
        Cards per deck.
    trials : int, default 60_000
        Shuffles per algorithm.
    algos : str or sequence of str, default "fisher-yates,naive"
        Algorithm names as ``--algo`` takes them ("modulo:8", "riffle:1..10"; docs/zoo.md).
    seed : str, optional
        A seed makes the counts reproducible (the same as ``shufl bias --seed``).
    alpha : float, default 0.01
        Level per algorithm (family-wise with Holm when several tests decide).
    engine : str, default "xoshiro256pp"
        The generator (``--rng``).
    test : {"auto", "table", "position"}
        The primary test (docs/bias.md).
    exact : bool, default False
        Exact laws by enumeration instead of trials.
    threads : int, optional
        Worker threads; never changes the counts.

    Returns
    -------
    BiasResult

    Raises
    ------
    ValueError
        An unknown algorithm (with a suggestion), an empty seed, bad numbers; the command line's
        words.
    KeyboardInterrupt
        Ctrl-C (the run stops at its next chunk).

    Examples
    --------
    >>> import shufl
    >>> shufl.bias(3, 60_000, "fisher-yates,naive", seed="1").verdicts
    {'fisher-yates': 'no-evidence', 'naive': 'biased'}
    """
    if not isinstance(algos, str):
        algos = ",".join(algos)
    threads = _shufl.default_threads() if threads is None else int(threads)
    doc, text = _shufl.bias(int(n), int(trials), algos, seed, float(alpha), engine, test, bool(exact), threads)
    return BiasResult(json.loads(doc), text)
