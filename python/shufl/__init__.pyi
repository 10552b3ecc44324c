from typing import Any, Callable, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import testing as testing

__version__: str

class TestResult:
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
    table: Optional[list[list[int]]]
    columns: Optional[list[str]]

class AuditResult:
    tests: list[TestResult]
    @property
    def passed(self) -> bool: ...
    @property
    def result(self) -> str: ...
    @property
    def summary(self) -> str: ...
    @property
    def decks(self) -> int: ...
    @property
    def alpha(self) -> float: ...
    @property
    def text(self) -> str: ...
    @property
    def failed(self) -> list[TestResult]: ...
    def __getitem__(self, name: str) -> TestResult: ...
    def __bool__(self) -> bool: ...
    def to_dict(self) -> dict[str, Any]: ...
    def to_frame(self) -> Any: ...
    def _repr_html_(self) -> str: ...

def audit(
    decks: Union[npt.ArrayLike, Sequence[Sequence[str]]],
    *,
    pack: Optional[str] = ...,
    decks_in_shoe: int = ...,
    dealt: Optional[int] = ...,
    game: Optional[str] = ...,
    deal: Union[str, Tuple[int, int], None] = ...,
    alpha: float = ...,
    lags: int = ...,
    group: Optional[npt.ArrayLike] = ...,
    zero_based: bool = ...,
    threads: Optional[int] = ...,
) -> Union[AuditResult, dict[Any, AuditResult]]: ...
def audit_shuffle(
    fn: Callable[[list[int]], Optional[Sequence[int]]],
    n: int = ...,
    trials: int = ...,
    *,
    alpha: float = ...,
    pack: Optional[str] = ...,
    threads: Optional[int] = ...,
) -> AuditResult: ...
def shuffle(seq: Sequence[Any], seed: Optional[str] = ...) -> list[Any]: ...

class BiasResult:
    @property
    def results(self) -> list[dict[str, Any]]: ...
    @property
    def verdicts(self) -> dict[str, str]: ...
    @property
    def text(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...

def bias(
    n: int = ...,
    trials: int = ...,
    algos: Union[str, Sequence[str]] = ...,
    *,
    seed: Optional[str] = ...,
    alpha: float = ...,
    engine: str = ...,
    test: str = ...,
    exact: bool = ...,
    threads: Optional[int] = ...,
) -> BiasResult: ...

class Detector:
    def __init__(
        self, pack: str = ..., *, decks_in_shoe: int = ..., dealt: Optional[int] = ..., arl: float = ..., alpha: float = ...
    ) -> None: ...
    def add(self, deck: npt.ArrayLike, *, zero_based: bool = ...) -> bool: ...
    def add_many(self, decks: npt.ArrayLike, *, zero_based: bool = ...) -> bool: ...
    @property
    def alarm(self) -> bool: ...
    def status(self) -> dict[str, Any]: ...
    def restart(self) -> None: ...
    def save(self, path: Any) -> None: ...
    @classmethod
    def load(
        cls,
        path: Any,
        pack: str = ...,
        *,
        decks_in_shoe: int = ...,
        dealt: Optional[int] = ...,
        arl: float = ...,
        alpha: float = ...,
        reset_alarm: bool = ...,
    ) -> "Detector": ...

class Plan:
    @property
    def decks(self) -> int: ...
    @property
    def tests(self) -> list[dict[str, Any]]: ...
    @property
    def text(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...

def plan(
    *,
    pack: str = ...,
    decks_in_shoe: int = ...,
    game: Optional[str] = ...,
    deal: Union[str, Tuple[int, int], None] = ...,
    alpha: Optional[float] = ...,
    power: float = ...,
    effect: Union[None, float, Mapping[str, float]] = ...,
    lags: Optional[int] = ...,
    batch_size: Optional[int] = ...,
    tier: Optional[str] = ...,
) -> Plan: ...

def deck(
    count: Optional[int] = ...,
    *,
    pack: str = ...,
    decks_in_shoe: int = ...,
    jokers: int = ...,
    seed: Optional[str] = ...,
    engine: Optional[str] = ...,
    style: str = ...,
) -> Union[list[str], np.ndarray]: ...

class SeedSearchResult:
    @property
    def found(self) -> bool: ...
    @property
    def verdict(self) -> str: ...
    @property
    def predictable(self) -> bool: ...
    @property
    def status(self) -> int: ...
    @property
    def text(self) -> str: ...
    family: str
    definition: str
    reseed: str
    pack: str
    convention: str
    deck_order: str
    seeds: Optional[dict[str, Any]]
    shard: Optional[list[int]]
    loop: str
    reduce: str
    carry_over: bool
    variants_tried: int
    deals: int
    cards_logged: list[int]
    seeds_tried: int
    matches: list[dict[str, Any]]
    truncated: bool
    chance: dict[str, Any]
    reproduced_deals: list[Any]
    predicted_rest_of_last_deal: Optional[list[Optional[str]]]
    predicted_next_deal: Optional[list[Optional[str]]]
    statement: str
    states: Optional[list[dict[str, Any]]]
    recovery: Optional[dict[str, Any]]
    def to_dict(self) -> dict[str, Any]: ...

def seed_search(
    decks: Union[npt.ArrayLike, Sequence[Sequence[str]]],
    family: str,
    seeds: Union[None, str, range] = ...,
    *,
    reseed: str = ...,
    dealt: Optional[int] = ...,
    pack: Optional[str] = ...,
    decks_in_shoe: int = ...,
    zero_based: bool = ...,
    deck_order: Optional[str] = ...,
    loop: str = ...,
    reduce: Optional[str] = ...,
    carry_over: bool = ...,
    try_variants: bool = ...,
    all: bool = ...,
    shard: Optional[str] = ...,
    max_chance: float = ...,
    threads: Optional[int] = ...,
) -> SeedSearchResult: ...
