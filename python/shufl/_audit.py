"""The audit functions and their result objects (see ``shufl.audit``)."""

from __future__ import annotations

import array
import itertools
import json
import operator
import re
import secrets
from dataclasses import dataclass, asdict
from typing import Any, Callable, Optional, Sequence

import numpy as np

from . import _shufl
from ._report import _Report

@dataclass(frozen=True)
class TestResult:
    """One test of the battery, with the field names of ``shufl audit --format json``.

    Attributes
    ----------
    name : str
        The test ("card-position", "successions", ...; docs/audit.md lists them).
    decks : int
        Decks it looked at (pairs of consecutive decks for the serial tests).
    observed, expected : float or None
        Totals: the observed total and its null mean. Tables: the scaled X² and its df.
    statistic : float or None
        Tables: Pearson X² × (N−1)/N. Totals: z (for reading only). Duplicates: the count.
    df : float or None
        Degrees of freedom (tables only).
    p, ln_p : float or None
        The p-value (may underflow to 0) and its natural logarithm (always finite).
    p_bound : bool
        ``ln_p`` is a floor (the most extreme outcome's probability).
    holm_p, ln_holm_p : float or None
        The Holm-adjusted p-value, for tests in the family.
    result : str
        "pass", "fail", "not-valid" or "not-applicable".
    tail, law, note : str or None
        The tail used, the null law and its source, and why a test is not applicable or valid.
    table : list of list of int or None
        Tables: the observed counts (rows × columns).
    """

    __test__ = False  # not a pytest test class

    name: str
    decks: int
    observed: Optional[float]
    expected: Optional[float]
    statistic: Optional[float]
    df: Optional[float]
    p: Optional[float]
    ln_p: Optional[float]
    p_bound: bool
    holm_p: Optional[float]
    ln_holm_p: Optional[float]
    result: str
    tail: Optional[str]
    law: str
    note: str
    table: Optional[list] = None
    columns: Optional[list] = None


class AuditResult(_Report):
    """The report of one audit: the battery's tests and the decision (Holm at ``alpha``).

    Attributes
    ----------
    passed : bool
        No test failed after Holm's adjustment (the CLI's ``result: pass``).
    result : str
        "pass" or "fail".
    summary : str
        "no evidence of non-randomness in T decks at alpha A", or which tests failed.
    decks : int
        Decks audited.
    alpha : float
        The family-wise level.
    tests : list of TestResult
        One record per test, in report order; ``result["card-position"]`` picks one by name.
    text : str
        The text report of ``shufl audit`` (``str(result)``).

    Methods
    -------
    to_dict()   the JSON document of ``shufl audit --format json``
    to_frame()  the tests as a pandas DataFrame (needs pandas)

    Results pickle, and show in Jupyter as the section of ``shufl audit --report``'s page: the
    battery table, the card, suit and rank × position heatmaps and the totals (styles scoped to
    the output cell).
    """

    def __init__(self, doc: dict, text: str, html=""):
        super().__init__(doc, text)
        self._html = html  # the fragment, or the module's ReportHtml that makes it when asked
        self.tests = [TestResult(**{k: t.get(k) for k in TestResult.__dataclass_fields__}) for t in doc["tests"]]

    def __getstate__(self):
        return {**super().__getstate__(), "html": self._repr_html_()}

    def __setstate__(self, state):
        # The fragment's element ids carry the original's random prefix ("shufl-" + 12 hex digits +
        # "-", as the module makes it): a copy gets a fresh one, so the original and its copies in
        # one notebook repeat no id.
        html = state.get("html", "")
        m = re.search(r"shufl-[0-9a-f]{12}-", html)
        if m:
            html = html.replace(m.group(0), f"shufl-{secrets.token_hex(6)}-")
        self.__init__(state["doc"], state["text"], html)

    @property
    def passed(self) -> bool:
        return self._doc["result"] == "pass"

    @property
    def result(self) -> str:
        return self._doc["result"]

    @property
    def summary(self) -> str:
        return self._doc["summary"]

    @property
    def decks(self) -> int:
        return self._doc["decks"]

    @property
    def alpha(self) -> float:
        return self._doc["alpha"]

    @property
    def failed(self) -> list:
        """The tests that failed (after Holm's adjustment)."""
        return [t for t in self.tests if t.result == "fail"]

    def __getitem__(self, name: str) -> TestResult:
        for t in self.tests:
            if t.name == name:
                return t
        raise KeyError(name)

    def __bool__(self) -> bool:
        return self.passed

    def __repr__(self) -> str:
        return f"<shufl.AuditResult {self.result}: {self.summary}>"

    def to_dict(self) -> dict:
        """The document ``shufl audit --format json`` writes (schema/audit-report.schema.json),
        with ``input`` = {"name": "<array>", "shape": [rows, columns], "dtype": "..."} for an
        array. A new copy each call."""
        return self._doc_copy()

    def to_frame(self):
        """The tests as a pandas DataFrame, one row per test, columns as ``TestResult``'s
        fields without the tables. Raises ImportError when pandas is not installed."""
        import pandas as pd  # optional dependency

        rows = []
        for t in self.tests:
            d = asdict(t)
            d.pop("table")
            d.pop("columns")
            rows.append(d)
        return pd.DataFrame(rows).set_index("name")

    def _repr_html_(self) -> str:
        # The report page's section of this audit (its table, heatmaps, totals), made by the same
        # code as `shufl audit --report`; its styles are scoped to the fragment's own <div>.
        if not isinstance(self._html, str):
            self._html = self._html.html()
        return self._html


def _uint(value, option: str) -> int:
    """A whole number ≥ 0 for a command-line option, refused in the command line's words
    (TypeError for a value that is not an integer: a str is not parsed). A negative --lags is
    out of its 1 to 64, as 0 is."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{option.lstrip('-').replace('-', '_')} must be an integer, not {type(value).__name__}")
    if value < 0 and option == "--lags":
        raise ValueError(f"--lags must be 1 to 64, not {value}")
    if value < 0:
        raise ValueError(f"invalid value '{value}' for {option}: expected a non-negative decimal integer")
    return int(value)


def _args(pack, decks_in_shoe, dealt, game, deal, alpha, threads, lags=2):
    a = _shufl.AuditArgs()
    a.pack = "" if pack is None else str(pack)
    if not isinstance(decks_in_shoe, (int, np.integer)) or decks_in_shoe < 1:
        raise ValueError(f"decks_in_shoe must be a whole number of at least 1, not {decks_in_shoe!r}")
    a.decks_in_shoe = int(decks_in_shoe)
    a.dealt = None if dealt is None else int(dealt)
    # game and deal are checked by the library, in the command line's words (--game, --deal).
    if deal is not None and not isinstance(deal, str):
        try:
            hands, cards = (operator.index(x) for x in deal)
        except (TypeError, ValueError):
            raise TypeError(f"deal must be 'HxC' or (hands, cards), not {deal!r}") from None
        deal = f"{hands}x{cards}"
    a.game = game
    a.deal = deal
    a.alpha = float(alpha)
    a.lags = _uint(lags, "--lags")  # 1 to 64: checked by the library
    a.threads = _shufl.default_threads() if threads is None else int(threads)
    if a.threads < 1:
        raise ValueError("threads must be at least 1")
    return a


def _labels_text(rows) -> str:
    """Rows of card labels as the CLI's input: one line per row, labels separated by tabs.

    Raises ValueError for a label holding a tab or a line break (it would split the row)."""
    lines = []
    for row in rows:
        items = [str(c) for c in row]
        for c in items:
            if "\t" in c or "\n" in c or "\r" in c:
                raise ValueError(f"card label {c!r} holds a tab or a line break")
        lines.append("\t".join(items))
    return "\n".join(lines) + "\n"


def _is_labels(decks) -> bool:
    if isinstance(decks, np.ndarray):
        return decks.dtype.kind in "USO"
    try:
        first = decks[0]
        return isinstance(first[0], str)
    except (TypeError, IndexError, KeyError):
        return False


def audit(decks, *, pack: Optional[str] = "standard", decks_in_shoe: int = 1, dealt: Optional[int] = None,
          game: Optional[str] = None, deal=None, alpha: float = 0.01, lags: int = 2, group=None,
          zero_based: bool = False, threads: Optional[int] = None):
    """Audit decks with the battery of ``shufl audit``.

    Parameters
    ----------
    decks : array_like of int, shape (T, N), or sequence of sequences of str
        One deck per row, top card first. Integers: card numbers 1..N in the pack's canonical
        order (0..N−1 with ``zero_based``), any integer dtype; a numpy array is read where it
        lies (no copy, any strides). Strings: card labels in any notation ``shufl deck`` prints
        ("As", "A♠", "Ace of Spades").
    pack : str or None, default "standard"
        "standard", "piquet", "euchre", "tarot"; None infers the pack from the number of
        columns as the command line does (52 standard, 32 piquet, ..., else N numbered cards).
    decks_in_shoe : int, default 1
        Packs shuffled together (a shoe).
    dealt : int, optional
        Each row holds only the first ``dealt`` cards of its deck.
    game : {"poker", "blackjack"}, optional
        Add the game's hands test.
    deal : str or (int, int), optional
        Hands and cards per hand dealt round the table ("6x5"); defaults 1x5 (poker), 2x2
        (blackjack).
    alpha : float, default 0.01
        Family-wise level of the decision (Holm), in (0, 1).
    lags : int, default 2
        position-pairs looks at the cards 1..``lags`` positions apart (``--lags``): 1 to 64, and
        ``lags`` × N² at most 2^24 pairs of cards.
    group : array_like, shape (T,), optional
        A label per row: audit each group of rows on its own (the rows are copied per group).
    zero_based : bool, default False
        Card numbers run 0..N−1.
    threads : int, optional
        Worker threads (default: the CPUs this process may use); never changes the result.

    Returns
    -------
    AuditResult, or dict of label to AuditResult with ``group``.

    Raises
    ------
    TypeError
        ``decks`` is not an array of integers or of labels (e.g. floats or booleans); ``deal``
        neither "HxC" nor a pair of whole numbers.
    ValueError
        A bad shape, a card number out of range or repeated in a row, an unknown label, or a bad
        option (a bad ``game`` or ``deal``: the command line's message, "invalid value 'bridge'
        for --game: expected poker or blackjack"; ``lags`` outside 1..64: "--lags must be 1 to
        64, not 0"); the message has the command line's words, with numpy's 0-based row and
        column ("<array>: row 3, column 7: unknown card 53 (numbers run from 1 to 52)"). For
        labels, ``line L`` counts rows from 1.
    KeyboardInterrupt
        Ctrl-C during the run (the run stops within about 50 ms of the next block).

    Notes
    -----
    The tests, their null laws and the decision are those of ``shufl audit`` (docs/audit.md):
    the same decks as an array or as a text file give the same numbers. The GIL is released
    while the battery runs.

    Examples
    --------
    >>> import numpy as np, shufl
    >>> rng = np.random.default_rng(7)
    >>> decks = np.argsort(rng.random((5000, 52)), axis=1).astype(np.uint8)
    >>> r = shufl.audit(decks, zero_based=True)
    >>> r.passed, r["card-position"].df
    (True, 2601.0)
    """
    if group is not None:
        arr = decks if isinstance(decks, np.ndarray) else np.asarray(decks)
        labels = np.asarray(group)
        if labels.ndim != 1 or labels.shape[0] != arr.shape[0]:
            raise ValueError(f"group must have one label per deck ({arr.shape[0]}), not shape {labels.shape}")
        return {g.item() if hasattr(g, "item") else g:
                audit(arr[labels == g], pack=pack, decks_in_shoe=decks_in_shoe, dealt=dealt, game=game, deal=deal,
                      alpha=alpha, lags=lags, zero_based=zero_based, threads=threads)
                for g in np.unique(labels)}
    args = _args(pack, decks_in_shoe, dealt, game, deal, alpha, threads, lags)
    if _is_labels(decks):
        doc, text, html = _shufl.audit_text(_labels_text(decks), "<decks>", args, pack is not None)
        return AuditResult(json.loads(doc), text, html)
    if not isinstance(decks, np.ndarray):
        try:
            decks = np.asarray(decks)
        except ValueError as e:
            raise ValueError("decks must be a 2-D array (one deck per row): rows of different lengths") from None
        if decks.dtype.kind == "O":
            raise ValueError("decks must be a 2-D array (one deck per row): rows of different lengths")
    doc, text, html = _shufl.audit_array(decks, args, bool(zero_based))
    return AuditResult(json.loads(doc), text, html)


def audit_shuffle(fn: Callable, n: int = 52, trials: int = 100_000, *, alpha: float = 0.01,
                  pack: Optional[str] = None, threads: Optional[int] = None) -> AuditResult:
    """Audit a shuffle function by running it ``trials`` times.

    Parameters
    ----------
    fn : callable
        Called with a fresh list ``[1, 2, ..., n]`` each time; shuffles it in place (returning
        None) or returns the shuffled sequence (a list, tuple or 1-D array of the same numbers).
    n : int, default 52
        Cards per deck (2..65535).
    trials : int, default 100_000
        Decks to make and audit.
    alpha : float, default 0.01
        Family-wise level (Holm).
    pack : str, optional
        The pack the numbers 1..n count (default: inferred from n as the command line does:
        52 standard, 32 piquet, 24 euchre, 78 tarot, else n numbered cards).
    threads : int, optional
        Worker threads of the audit.

    Returns
    -------
    AuditResult

    Raises
    ------
    ValueError
        ``fn`` returned a deck that is not a permutation of 1..n (the audit's message names its
        row and column); bad ``n``, ``trials`` or ``alpha``.
    KeyboardInterrupt
        Ctrl-C while decks are made or audited.

    Examples
    --------
    >>> import random, shufl
    >>> shufl.audit_shuffle(random.Random(7).shuffle, n=10, trials=20_000).passed  # seeded: a fixed outcome
    True
    """
    if not isinstance(n, (int, np.integer)) or not 2 <= n <= 65535:
        raise ValueError(f"n must be a whole number from 2 to 65535, not {n!r}")
    if not isinstance(trials, (int, np.integer)) or trials < 1:
        raise ValueError(f"trials must be a whole number of at least 1, not {trials!r}")
    trials = int(trials)
    dtype = np.uint8 if n < 256 else np.uint16
    decks = np.empty((trials, int(n)), dtype=dtype)
    fresh = list(range(1, n + 1))
    # Rows are converted to numpy a block at a time: one conversion per block costs far less
    # than one per deck.
    block = []
    done = 0
    for _ in range(trials):
        deck = fresh.copy()
        out = fn(deck)
        block.append(deck if out is None else out)
        if len(block) == 4096:
            decks[done:done + 4096] = _rows(block, n, dtype, done)
            done += 4096
            block = []
    if block:
        decks[done:] = _rows(block, n, dtype, done)
    return audit(decks, pack=pack, alpha=alpha, threads=threads)


def _rows(block, n, dtype, first):
    """A block of decks returned by a shuffle as an array, checked before the narrowing cast."""
    # The fast path: bytes (or 16-bit words) straight from the lists; it refuses anything that
    # is not a whole number in range, and a block whose rows are not all n long shows by its size.
    try:
        flat = itertools.chain.from_iterable(block)
        raw = np.frombuffer(bytearray(flat), np.uint8) if dtype == np.uint8 else np.frombuffer(array.array("H", flat), np.uint16)
        if raw.size == len(block) * n:
            return raw.reshape(len(block), n)
    except (ValueError, TypeError, OverflowError):
        pass
    try:
        rows = np.array(block, dtype=np.int64)
    except (ValueError, TypeError, OverflowError):
        rows = None
    if rows is None or rows.shape != (len(block), n):
        for i, d in enumerate(block):
            if len(d) != n:
                raise ValueError(f"the shuffle returned {len(d)} cards for deck {first + i}, not {n}")
        raise TypeError(f"the shuffle returned something other than whole numbers in decks {first}..{first + len(block) - 1}")
    bad = (rows < 0) | (rows > np.iinfo(dtype).max)
    if bad.any():
        r, c = np.argwhere(bad)[0]
        raise ValueError(f"<array>: row {first + r}, column {c}: unknown card {rows[r, c]} (numbers run from 1 to {n})")
    return rows


def shuffle(seq: Sequence, seed: Optional[str] = None) -> list:
    """A shuffled copy of ``seq``: with ``seed``, the order ``shufl lines --seed SEED`` gives the
    same items (one per line); without, a uniform order from the operating system's randomness.

    Parameters
    ----------
    seq : sequence
        The items (any objects; they are not converted).
    seed : str, optional
        Any non-empty text; hashed to a 256-bit key (BLAKE2b), as every shufl seed.

    Returns
    -------
    list
        The items in shuffled order.

    Raises
    ------
    ValueError
        An empty seed.

    Examples
    --------
    >>> import shufl
    >>> shufl.shuffle(["a", "b", "c", "d"], seed="7") == shufl.shuffle(["a", "b", "c", "d"], seed="7")
    True
    """
    if seed is not None and not isinstance(seed, str):
        raise TypeError(f"seed must be a str, not {type(seed).__name__}")
    items = list(seq)
    return [items[i] for i in _shufl.shuffle_order(len(items), seed)]


def deck(count: Optional[int] = None, *, pack: str = "standard", decks_in_shoe: int = 1, jokers: int = 0,
         seed: Optional[str] = None, engine: Optional[str] = None, style: str = "code"):
    """Shuffled decks as ``shufl deck`` makes them.

    Parameters
    ----------
    count : int, optional
        None: one deck, as labels. A number: that many decks from one stream (``shufl deck
        --count``), as a uint16 array of card numbers 1..N in the pack's canonical order, shape
        (count, N) — ready for :func:`shufl.audit`.
    pack, decks_in_shoe, jokers
        The pack (``--pack``, ``--decks``, ``--jokers``).
    seed : str, optional
        The same decks as ``shufl deck --seed SEED`` (ChaCha20 keyed by BLAKE2b of the seed);
        without, every draw comes from the operating system.
    engine : str, optional
        ``--rng`` (e.g. "mt19937", a weak engine for demonstrations).
    style : {"code", "unicode", "glyph", "name"}
        How one deck's labels are written.

    Returns
    -------
    list of str, or numpy.ndarray of uint16 with ``count``.

    Raises
    ------
    ValueError
        Unknown pack, style or engine (the command line's words), an empty seed.
    KeyboardInterrupt
        Ctrl-C while ``count`` decks are made.

    Examples
    --------
    >>> import shufl
    >>> shufl.deck(seed="7")[:3]
    ['Kc', '9d', 'Kh']
    """
    if seed is not None and not isinstance(seed, str):
        raise TypeError(f"seed must be a str, not {type(seed).__name__}")
    if count is not None and (not isinstance(count, (int, np.integer)) or count < 1):
        raise ValueError(f"count must be a whole number of at least 1, not {count!r}")
    if not isinstance(decks_in_shoe, (int, np.integer)) or decks_in_shoe < 1:
        raise ValueError(f"decks_in_shoe must be a whole number of at least 1, not {decks_in_shoe!r}")
    return _shufl.deck(pack, int(decks_in_shoe), int(jokers), None if count is None else int(count), seed, engine, style)
