from typing import Callable, Optional, Sequence

def assert_fair_shuffle(
    fn: Callable[[list[int]], Optional[Sequence[int]]],
    n: int = ...,
    trials: int = ...,
    alpha: float = ...,
    seed: Optional[int] = ...,
) -> None: ...
