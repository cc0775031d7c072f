"""Co-op Minesweeper as a game plug-in: how a room creates its games, and how a
finished one is replayed, counted (clicks) and kept (team records)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gridhall.protocol.games.minesweeper import MINESWEEPER
from gridhall.protocol.i18n import ngettext

from ..base import JSON, GameSpec, StartPolicy
from .game import MinesweeperGame, from_state
from .options import parse_options
from .records import MinesRecords, clicks
from .rerun import MinesweeperRun


class MinesweeperSpec(GameSpec):
    """Starts at once, late joiners take seats; team records, no ratings."""

    description = MINESWEEPER
    start: StartPolicy = "immediate"
    min_players = 1
    saves_games = True
    rating = MinesRecords()

    def parse_options(self, raw: JSON) -> JSON:
        return parse_options(raw)

    def max_players(self, options: JSON) -> int:
        return int(options["max_players"])

    def new_game(
        self,
        options: JSON,
        players: list[str],
        round_no: int,
        seed: int,
        now: float,
        prepared: Any = None,
    ) -> MinesweeperGame:
        return MinesweeperGame(options, players, seed, now)

    def restore_game(self, state: JSON) -> MinesweeperGame:
        """A game as :meth:`MinesweeperGame.state` saved it (a room's snapshot)."""
        return from_state(state)

    def replay(self, record: JSON, duration: float | None = None) -> MinesweeperRun:
        return MinesweeperRun(record)

    def moves(self, record: JSON) -> int:
        """Clicks on the board."""
        return clicks(record)

    def moves_text(self, record: JSON, names: Mapping[str, str]) -> str:
        n = clicks(record)
        return ngettext("{count} click", "{count} clicks", n, count=n)


SPEC = MinesweeperSpec()
