"""Computer opponents for Reversi: ``easy`` (greedy) and ``hard`` (search).

:func:`choose_move` is pure and synchronous; the room runs it in a worker process so
the event loop never waits on it (a module-level function, so picklable).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..board import Position
from . import easy, search

LEVELS = ("easy", "hard")
CAP = 0.9
"""Of the budget, what the search may use (the rest is for the answer's way back)."""


def position_after(size: int, moves: list[tuple[int, int]]) -> Position:
    """The position after ``moves`` from the start (ValueError on an illegal one)."""
    pos = Position.start(size)
    for x, y in moves:
        pos = pos.play(x, y)
    return pos


def choose_move(
    pos: Position,
    level: str,
    budget: float = 1.0,
    clock: Callable[[], float] = time.perf_counter,
    info: dict[str, int] | None = None,
) -> tuple[int, int]:
    """The computer's move for the side to move in ``pos``, within ``budget`` seconds."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; use one of {LEVELS}")
    me, opp = pos.discs(pos.to_move), pos.discs(3 - pos.to_move)
    g = pos.geometry
    if level == "easy":
        bit = easy.choose(me, opp, g)
    else:
        bit = search.choose(me, opp, g, budget * CAP, clock, info)
    return g.cell(bit.bit_length() - 1)


__all__ = ["LEVELS", "choose_move", "position_after"]
