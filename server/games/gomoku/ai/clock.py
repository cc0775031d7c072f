"""The engine's clock: wall time in real games, CPU time in analyses and benchmarks.

Deadlines everywhere in the engine are read from `clock.now()`. A game against
people is played on the wall clock (the default). A benchmark match on a
shared, loaded machine switches a worker process to its own CPU time with
`use("cpu")`, so that a "1 s move" means one second of thinking whatever else
the machine is running, for every engine in the match alike; a game's analysis
does the same for its positions (`using("cpu")`), so a busy server stores the
analysis an idle one would.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

now: Callable[[], float] = time.perf_counter


def use(kind: str) -> None:
    """Read deadlines from the wall clock ("wall") or this process's CPU time ("cpu")."""
    global now
    if kind not in ("wall", "cpu"):
        raise ValueError(f"unknown clock {kind!r}; use 'wall' or 'cpu'")
    now = time.perf_counter if kind == "wall" else time.process_time


@contextmanager
def using(kind: str) -> Iterator[None]:
    """Read deadlines from ``kind`` within the block, then from the clock read before
    (a worker runs computer moves on the wall clock and analyses on CPU time)."""
    global now
    before = now
    use(kind)
    try:
        yield
    finally:
        now = before
