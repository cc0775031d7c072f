"""How a room creates co-op Minesweeper games."""

from __future__ import annotations

from ..base import JSON, StartPolicy
from .game import MinesweeperGame, from_state
from .options import parse_options


class MinesweeperSpec:
    """GameSpec for co-op Minesweeper: starts at once, late joiners take seats."""

    name = "minesweeper"
    start: StartPolicy = "immediate"
    min_players = 1
    computer = None

    def parse_options(self, raw: JSON) -> JSON:
        return parse_options(raw)

    def max_players(self, options: JSON) -> int:
        return int(options["max_players"])

    def new_game(
        self, options: JSON, players: list[str], round_no: int, seed: int, now: float
    ) -> MinesweeperGame:
        return MinesweeperGame(options, players, seed, now)

    def restore_game(self, state: JSON) -> MinesweeperGame:
        """A game as :meth:`MinesweeperGame.state` saved it (a room's snapshot)."""
        return from_state(state)


SPEC = MinesweeperSpec()
