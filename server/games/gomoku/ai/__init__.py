"""Computer opponents for Gomoku: `easy` (winning-line counts) and `hard` (search).

`choose_move` is pure and synchronous; the room runs it in a worker process so
the event loop never waits on it (it is a module-level function, so picklable).
"""

from __future__ import annotations

from gridhall.server.games.gomoku.ai import easy, hard

LEVELS = ("easy", "hard")
RULES = ("freestyle", "standard", "renju")


def choose_move(
    moves: list[tuple[int, int]], size: int, rule: str, level: str, budget: float = 2.0
) -> tuple[int, int]:
    """The computer's move for the side to move after `moves` (black first).

    Always an empty point, and never a renju foul for black. `budget` is in
    seconds; `hard` returns within it (iterative deepening keeps the best
    completed answer), `easy` takes a few milliseconds.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; use one of {LEVELS}")
    if rule not in RULES:
        raise ValueError(f"unknown rule {rule!r}; use one of {RULES}")
    moves = [(int(x), int(y)) for x, y in moves]
    if len(set(moves)) != len(moves) or any(
        not (0 <= x < size and 0 <= y < size) for x, y in moves
    ):
        raise ValueError("moves must be distinct points on the board")
    if len(moves) >= size * size:
        raise ValueError("the board is full")
    if level == "easy":
        return easy.choose(moves, size, rule)
    return hard.choose(moves, size, rule, budget)


def warm_up(rules: tuple[str, ...] = RULES, seconds: float = 0.2) -> None:
    """Fill the lazily built shape tables off the clock: a fresh process's first
    moves otherwise spend part of their budget on it. Worth calling once in a
    worker process before its first real move (a process pool initializer)."""
    opening = [(7, 7), (8, 8), (8, 6), (6, 8), (9, 7), (7, 9), (6, 6), (9, 9), (10, 8)]
    for rule in rules:
        hard.choose(opening, 15, rule, seconds)


__all__ = ["LEVELS", "RULES", "choose_move", "warm_up"]
