"""Co-op Minesweeper's team records (``GameSpec.rating``): per preset board, no-guess
flag and lives, the team's games, wins and best times (``server/io/ratings_store.py``).
Custom boards keep no records (they are not comparable)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gridhall.protocol.games.minesweeper import MinesEnd

from ..rating import TeamRecords
from .options import PRESETS

CLICKS = ("reveal", "chord", "mark", "flag-around")
"""Log entries that are a click on the board (not hints, joins, leaving)."""


def clicks(record: Mapping[str, Any]) -> int:
    """Clicks on the board in a game's record, the ones past its log's cap included."""
    actions = record.get("actions")
    counted = (
        sum(1 for a in actions if isinstance(a, list) and len(a) > 1 and a[1] in CLICKS)
        if isinstance(actions, list)
        else 0
    )
    return counted + int(record.get("actions_omitted") or 0)


class MinesRecords(TeamRecords):
    """Records per preset (beginner, intermediate, expert), no-guess flag and lives."""

    boards = tuple(PRESETS)

    def key(self, options: Mapping[str, Any]) -> tuple[str, int, int] | None:
        board = options.get("preset")
        if board not in self.boards:
            return None
        lives = options.get("lives")
        return (
            str(board),
            int(bool(options.get("no_guess"))),
            int(lives) if isinstance(lives, int) else 1,
        )

    def played(self, result: Mapping[str, Any]) -> bool:
        """A game ended by the board (cleared, a mine), or where someone opened a cell."""
        if result.get("reason") in (MinesEnd.CLEARED, MinesEnd.MINE):
            return True
        stats = result.get("stats")
        return isinstance(stats, dict) and any(
            isinstance(s, dict) and s.get("revealed") for s in stats.values()
        )

    def time(self, result: Mapping[str, Any]) -> float | None:
        time = result.get("time")
        if result.get("reason") != MinesEnd.CLEARED or not isinstance(time, int | float):
            return None
        return float(time)
