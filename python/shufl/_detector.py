"""shufl.Detector: the live monitor of ``shufl audit --follow`` inside a Python service."""

from __future__ import annotations

import json
import os
import tempfile
from typing import Optional

import numpy as np

from . import _shufl
from ._audit import _args


class Detector:
    """The change detector and since-start e-process of ``shufl audit --follow``, fed decks from
    Python (docs/monitor.md).

    The detector (Shiryaev–Roberts over per-deck e-values) alarms when its statistic M reaches
    ``arl``: under a fair shuffler the average number of decks before a false alarm is at least
    ``arl``, however long it runs (Shin, Ramdas and Rinaldo, "E-detectors", 2023). States saved
    with :meth:`save` are ``--state`` files: the command line resumes from them and
    :meth:`load` reads its files.

    Parameters
    ----------
    pack : str, default "standard"
        The pack ("standard", "piquet", "euchre", "tarot").
    decks_in_shoe : int, default 1
        Packs shuffled together.
    dealt : int, optional
        Each deck holds only its first ``dealt`` cards.
    arl : float, default 1e9
        The alarm threshold A: the guaranteed average run length to a false alarm, in decks.
    alpha : float, default 0.001
        The level of the since-start evidence (``anytime_p``).

    Examples
    --------
    >>> import numpy as np, shufl
    >>> d = shufl.Detector()
    >>> d.add(np.random.default_rng(1).permutation(52) + 1)   # one deck, cards 1..52 top first
    False
    >>> d.add(np.arange(1, 53))      # a deck in the pack's own order: a fair shuffle almost never deals it
    True
    """

    def __init__(self, pack: str = "standard", *, decks_in_shoe: int = 1, dealt: Optional[int] = None,
                 arl: float = 1e9, alpha: float = 0.001):
        self._settings = dict(pack=pack, decks_in_shoe=decks_in_shoe, dealt=dealt, arl=float(arl), alpha=float(alpha))
        args = _args(pack, decks_in_shoe, dealt, None, None, 0.01, 1)
        self._core = _shufl.DetectorCore(args, float(arl), float(alpha))

    def add(self, deck, *, zero_based: bool = False) -> bool:
        """Add one deck (1-D integers: card numbers 1..N top first, or 0..N−1 with
        ``zero_based``). Returns whether the detector has alarmed. Raises ValueError/TypeError
        as :func:`shufl.audit` does."""
        a = np.asarray(deck)
        if a.ndim != 1:
            raise ValueError(f"deck must be a 1-D array of card numbers, not {a.ndim}-D")
        return self.add_many(a[None, :], zero_based=zero_based)

    def add_many(self, decks, *, zero_based: bool = False) -> bool:
        """Add the rows of a 2-D integer array, in order (no copy; the GIL released; Ctrl-C
        stops it at the next deck, the decks before it kept: KeyboardInterrupt). Returns ``alarm``."""
        a = decks if isinstance(decks, np.ndarray) else np.asarray(decks)
        return self._core.add_array(a, bool(zero_based))

    @property
    def alarm(self) -> bool:
        """The detector has reached ``arl`` (and was not restarted since)."""
        return self._core.alarm

    def status(self) -> dict:
        """The monitor's status as ``shufl audit --follow --format json`` prints it (decks,
        log10_e per predictor, anytime_p, log10_m, threshold_log10_m, leader, evidence, alarm,
        ...; "type" is "status")."""
        return json.loads(self._core.status_json())

    def restart(self) -> None:
        """Start the detector's statistic again from 0 after an alarm (its learners keep their
        windows)."""
        self._core.restart()

    def save(self, path) -> None:
        """Write the state as a ``--state`` file (a temporary file renamed into place): the
        command line's document byte for byte, with the hashes of the last 64 decks, so
        ``shufl audit --follow - --state`` fed some of those decks again skips them."""
        path = os.fspath(path)
        text = self._core.state()
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".shufl-state-")
        try:
            with os.fdopen(fd, "w") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            raise

    @classmethod
    def load(cls, path, pack: str = "standard", *, decks_in_shoe: int = 1, dealt: Optional[int] = None,
             arl: float = 1e9, alpha: float = 0.001, reset_alarm: bool = False) -> "Detector":
        """A detector restored from a ``--state`` file (the command line's or :meth:`save`'s),
        for the same pack. A saved alarm is given again unless ``reset_alarm``. Raises
        ValueError "state file: ..." for a file of another pack or a damaged one."""
        d = cls(pack, decks_in_shoe=decks_in_shoe, dealt=dealt, arl=arl, alpha=alpha)
        with open(path, "rb") as f:  # bytes: the state's reader says when they are not UTF-8
            d._core.restore(f.read(), bool(reset_alarm))
        return d

    def __getstate__(self):
        return {"settings": self._settings, "state": self._core.state()}

    def __setstate__(self, state):
        self.__init__(**state["settings"])
        self._core.restore(state["state"], False)

    def __repr__(self) -> str:
        s = self.status()
        return f"<shufl.Detector {s['decks']} decks, log10 M = {s['log10_m']:.3g} of {s['threshold_log10_m']:g}, alarm {s['alarm']}>"
