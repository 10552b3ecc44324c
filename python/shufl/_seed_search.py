"""shufl.seed_search: can these deals be predicted? (``shufl audit --seed-search``)."""

from __future__ import annotations

import json
from typing import Optional, Union

import numpy as np

from . import _shufl
from ._audit import _args, _is_labels, _labels_text
from ._report import _Report

# The names of the JSON object "seed_search" that read as attributes of the result.
_FIELDS = ("family", "definition", "reseed", "pack", "convention", "deck_order", "seeds", "shard", "loop", "reduce",
           "carry_over", "variants_tried", "deals", "cards_logged", "seeds_tried", "found", "matches", "truncated",
           "chance", "reproduced_deals", "predicted_rest_of_last_deal", "predicted_next_deal", "statement", "states",
           "recovery")


class SeedSearchResult(_Report):
    """The outcome of one seed search, with the names of ``shufl audit --seed-search --format json``.

    Attributes
    ----------
    found : bool
        A seed (or, for node-math-random, a state) reproduces the logged deals.
    verdict : str
        "predictable", "chance" (matches that chance explains), "not-found", or for
        node-math-random "undecided" (too few cards to pin the state down).
    predictable : bool
        ``verdict == "predictable"``: a match with E at most ``max_chance``.
    status : int
        The command line's exit status: 3 predictable, 4 consistent with chance (or undecided), 0.
    matches : list of dict
        {"seed": int, "deal": int or None} per matching seed (deal: from 1, per-deal reseeding; None with reseed "once").
    seeds_tried : int
        Seeds examined over all searches.
    chance : dict
        The chance accounting: states, variants, expected_chance_matches {value, log10},
        per_deal, verdict_expected, max_chance, verdict, more_cards, suggest.
    predicted_rest_of_last_deal, predicted_next_deal : list of str or None
        Card labels (None where the matching seeds disagree); None unless predictable.
    statement : str
        What the result means, in the report's words.
    family, definition, reseed, pack, convention, deck_order, seeds, shard, loop, reduce,
    carry_over, variants_tried, deals, cards_logged, truncated, reproduced_deals, states, recovery
        As in the JSON object (docs/seed-search.md); ``states`` and ``recovery`` only for
        node-math-random (None otherwise).
    text : str
        The text report of ``shufl audit --seed-search`` (``str(result)``).

    Methods
    -------
    to_dict()   the JSON document of ``shufl audit --seed-search --format json``

    Results pickle.
    """

    def __init__(self, doc: dict, text: str, status: int):
        super().__init__(doc, text)
        self._status = status

    def __getstate__(self):
        return {"doc": self._doc, "text": self._text, "status": self._status}

    def __setstate__(self, state):
        self.__init__(state["doc"], state["text"], state["status"])

    @property
    def _search(self) -> dict:
        return self._doc["seed_search"]

    @property
    def verdict(self) -> str:
        return self._search["chance"]["verdict"]

    @property
    def predictable(self) -> bool:
        return self.verdict == "predictable"

    @property
    def status(self) -> int:
        return self._status

    def __getattr__(self, name):
        if name in _FIELDS and "_doc" in self.__dict__:
            return self._doc["seed_search"].get(name)
        raise AttributeError(name)

    def __repr__(self) -> str:
        return f"<shufl.SeedSearchResult {self.family}: {self.verdict}, {len(self._search.get('matches') or [])} matches>"

    def to_dict(self) -> dict:
        """The document ``shufl audit --seed-search --format json`` writes ({"seed_search": {...}}),
        with ``input`` = {"name": "<array>", "shape": [rows, columns], "dtype": "..."} for an
        array, or {"name": "<decks>", "deals": D} for lists of labels. A new copy each call."""
        return self._doc_copy()


def _seed_args(family, seeds, reseed, deck_order, loop, reduce, carry_over, try_variants, all, shard, max_chance,
               threads):
    """The options as the command line writes them (``--seed-search``, ``--seeds``, ...)."""
    if not isinstance(family, str):
        raise TypeError(f"family must be a str (a seed-search family name), not {type(family).__name__}")
    if isinstance(seeds, range):
        # start, stop and step only: len() of a range past 2^63 seeds overflows (the command line
        # says itself how many seeds it takes).
        if seeds.step != 1:
            raise ValueError(f"seeds: a range must have step 1 (every seed from start to stop), not step {seeds.step}")
        if seeds.stop <= seeds.start:
            raise ValueError(f"seeds: the range is empty ({seeds!r}): give at least one seed")
        seeds = f"{seeds.start}..{seeds.stop - 1}"
    if seeds is not None and not isinstance(seeds, str):
        raise TypeError(f"seeds must be a str ('A..B', 'time:START..END', 'uptime:A..B') or a range, "
                        f"not {type(seeds).__name__}")
    for name, value in (("reseed", reseed), ("deck_order", deck_order), ("loop", loop), ("reduce", reduce),
                        ("shard", shard)):
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    a = _shufl.SeedSearchArgs()
    a.family = family
    a.seeds = seeds or ""
    a.reseed = reseed
    a.deck_order = deck_order or ""
    a.loop = loop
    a.reduce = reduce or ""
    a.carry_over = bool(carry_over)
    a.try_variants = bool(try_variants)
    a.all = bool(all)
    a.shard = shard or ""
    a.max_chance = float(max_chance)
    a.threads = threads
    return a


def seed_search(decks, family: str, seeds: Union[None, str, range] = None, *, reseed: str = "per-deal",
                dealt: Optional[int] = None, pack: Optional[str] = "standard", decks_in_shoe: int = 1,
                zero_based: bool = False, deck_order: Optional[str] = None, loop: str = "down",
                reduce: Optional[str] = None, carry_over: bool = False, try_variants: bool = False, all: bool = False,
                shard: Optional[str] = None, max_chance: float = 1e-3, threads: Optional[int] = None) -> SeedSearchResult:
    """Search for the seed of a weak generator that reproduces logged deals
    (``shufl audit --seed-search FAMILY --seeds RANGE``).

    Every seed in ``seeds`` is run through an exact re-implementation of the family's generator
    and shuffle code; a seed that reproduces every logged card is reported with the rest of the
    deal and the next deal, but called predictable only when chance cannot explain the match.

    Parameters
    ----------
    decks : array_like of int, shape (D, K), or sequence of sequences of str
        The logged deals, one per row, in dealing order (top card first): whole decks (K = N) or,
        with ``dealt``, the first K cards of each. Integers: card numbers 1..N in the pack's
        canonical order (0..N−1 with ``zero_based``), any integer dtype, read where they lie (no
        copy). Strings: card labels in any notation ``shufl deck`` prints ("As", "A♠").
    family : str
        "python-random", "c-rand", "cpp-mt19937", "java-random", "asf-poker", "glibc-rand-r",
        "msvc-rand", "php-mt-rand", "php-mt-rand-legacy", "go-math-rand", "dotnet-random",
        "node-math-random" (docs/seed-search.md defines each, with its source).
    seeds : str or range
        ``--seeds``: "A..B" (decimal, or "2^K", "2^K-1"), "time:2026-12-01T00:00:00Z..
        2026-12-01T23:59:59Z" (UTC; the family's unit: Unix seconds, milliseconds, ...),
        "uptime:0..7d" (dotnet-random); a Python ``range`` of step 1. At most 2^48 seeds. None
        for node-math-random, which recovers its state from the cards instead.
    reseed : {"per-deal", "once"}
        Seeded before every deal (each deal its own search), or once with the generator running
        on across consecutive deals.
    dealt : int, optional
        Each row holds only the first ``dealt`` cards of its deal (a standard deck unless
        ``pack`` says otherwise).
    pack, decks_in_shoe, zero_based
        As :func:`shufl.audit`; the pack's cards must all differ.
    deck_order : str, optional
        The list's starting order: "suit-major[:SUITS[:RANKS]]", "rank-major[:SUITS[:RANKS]]", or
        the path of a file holding every card once.
    loop, reduce, carry_over, try_variants
        ``--loop`` (down, up, naive, inside-out, sample[:K], pop, sort), ``--reduce`` (native,
        mod, div), ``--carry-over``, ``--try-variants`` (every combination at once; E counts
        them).
    all : bool, default False
        Every matching seed (up to 1000 per search), not only the lowest.
    shard : str, optional
        "I/N": search part I of N of the range (E still counts the whole range).
    max_chance : float, default 0.001
        The verdict is "predictable" only when E, the matches expected by chance, is at most this.
    threads : int, optional
        Worker threads (default: the CPUs this process may use); never changes the result.

    Returns
    -------
    SeedSearchResult

    Raises
    ------
    TypeError
        ``decks`` neither integers nor labels; an option of the wrong type.
    ValueError
        An unknown family, a bad range, an option the family does not take, a bad card or shape;
        the command line's words ("unknown generator family 'x'; did you mean ...", "invalid value
        '5..1' for --seeds: ...", "<array>: row 0, column 3: unknown card 53 ...").
    KeyboardInterrupt
        Ctrl-C during the search (it stops within about 50 ms plus one block of 2^16 seeds).

    Notes
    -----
    The method and E (H·S·Π 1/(n)_K for a seed run on, per deal otherwise) are those of
    ``shufl audit --seed-search`` (docs/seed-search.md); the same deals as an array or as a text
    file give the same result. The GIL is released while the search runs.

    Examples
    --------
    >>> import random, numpy as np, shufl
    >>> rng = random.Random(31337)                      # a dealer seeding Python's random with 31337
    >>> deck = list(range(52)); rng.shuffle(deck)
    >>> r = shufl.seed_search(np.array([deck[:6]]), "python-random", "0..99999", dealt=6, zero_based=True)
    >>> r.predictable, r.matches
    (True, [{'seed': 31337, 'deal': 1}])
    """
    args = _args(pack, decks_in_shoe, dealt, None, None, 0.01, threads)
    request = _seed_args(family, seeds, reseed, deck_order, loop, reduce, carry_over, try_variants, all, shard,
                         max_chance, args.threads)
    if _is_labels(decks):
        doc, text, status = _shufl.seed_search_text(_labels_text(decks), "<decks>", request, args, pack is not None)
        d = {"input": {"name": "<decks>", "deals": len(decks)}, "seed_search": json.loads(doc)}
        return SeedSearchResult(d, text, status)
    if not isinstance(decks, np.ndarray):
        try:
            decks = np.asarray(decks)
        except ValueError:
            raise ValueError("decks must be a 2-D array (one deal per row): rows of different lengths") from None
        if decks.dtype.kind == "O":
            raise ValueError("decks must be a 2-D array (one deal per row): rows of different lengths")
    doc, text, status = _shufl.seed_search_array(decks, request, args, bool(zero_based))
    d = {"input": {"name": "<array>", "shape": list(decks.shape), "dtype": str(decks.dtype)},
         "seed_search": json.loads(doc)}
    return SeedSearchResult(d, text, status)
