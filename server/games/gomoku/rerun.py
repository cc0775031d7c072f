"""A finished Gomoku game re-run for its replay: the stones of the final position,
black's first (take-backs are gone). Nothing is added to the spectator's view (its
last frame carries the winning ``line``); the clock and any offer are left out (they
mean nothing in a replay). ``t`` comes from the game's log when it accounts for every
stone."""

from __future__ import annotations

from typing import Any

from ..base import JSON
from ..clocked import ClockedRun, black_then_white
from .game import GomokuGame


class GomokuRun(ClockedRun):
    """The stones in the order they stand on the final board."""

    def __init__(self, record: JSON) -> None:
        game = GomokuGame(dict(record["options"]), black_then_white(record), 0, 0.0)
        moves = [(int(x), int(y)) for x, y in record["moves"]]
        super().__init__("gomoku", game, moves, _seconds(record, moves))


def _seconds(record: JSON, moves: list[tuple[int, int]]) -> list[float]:
    """Seconds since the start at which each stone went down (0 when unknown)."""
    ms = move_times(record, tuple(moves))
    if ms is None:
        return [0.0] * len(moves)
    out: list[float] = []
    total = 0
    for m in ms:
        total += m
        out.append(total / 1000)
    return out


def move_times(
    stored: dict[str, Any], moves: tuple[tuple[int, int], ...]
) -> tuple[int, ...] | None:
    """Milliseconds each stone of ``moves`` took, from the game's log: from the move
    (or the take-back) before it. None when the log does not end in these stones
    (it was cut at its cap, or is from an older server)."""
    log = stored.get("log")
    if not isinstance(log, list) or stored.get("log_omitted"):
        return None
    stones: list[tuple[str, int, int, int]] = []  # (player, x, y, ms)
    last = 0.0
    try:
        for entry in log:
            kind, player, at = entry[0], entry[1], float(entry[-1])
            if kind == "move":
                stones.append(
                    (player, int(entry[2]), int(entry[3]), max(0, round((at - last) * 1000)))
                )
                last = at
            elif kind == "takeback":
                if stones and stones[-1][0] != player:  # the reply goes too
                    stones.pop()
                if stones:
                    stones.pop()
                last = at
    except (TypeError, ValueError, IndexError):
        return None
    if [(x, y) for _p, x, y, _t in stones] != list(moves):
        return None
    return tuple(t for *_rest, t in stones)
