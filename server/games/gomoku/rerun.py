"""A finished Gomoku game re-run for its replay: the stones of the final position,
black's first (take-backs are gone). Nothing is added to the spectator's view (its
last frame carries the winning ``line``); the clock and any offer are left out (they
mean nothing in a replay). ``t`` comes from the game's log when it accounts for every
stone."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gridhall.protocol.cells import cell_name

from ..base import JSON, GameError
from ..replay import Action, Run, skipped
from .game import GomokuGame


class GomokuRun(Run):
    """The stones in the order they stand on the final board."""

    def __init__(self, record: JSON) -> None:
        colors: dict[str, str] = record["colors"]
        black = next(p for p, c in colors.items() if c == "black")
        white = next(p for p, c in colors.items() if c == "white")
        self.game = GomokuGame(dict(record["options"]), [black, white], 0, 0.0)
        self.moves = [(int(x), int(y)) for x, y in record["moves"]]
        self.times = _seconds(record, self.moves)

    def view(self) -> JSON:
        view = self.game.view(None)
        view.pop("clock", None)
        view.pop("pending", None)
        return view

    def actions(self) -> Iterator[Action]:
        for n, (x, y) in enumerate(self.moves):
            by = self.game.turn()
            if by is None:
                skipped("gomoku", (x, y), ValueError("the game was already over"))
                return
            try:
                self.game.apply(by, {"x": x, "y": y}, self.times[n])
            except GameError as exc:
                skipped("gomoku", (x, y), exc)
                continue
            yield self.times[n], by, cell_name(x, y)


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
