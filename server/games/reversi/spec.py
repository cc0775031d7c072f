"""Reversi room options and game creation."""

from __future__ import annotations

from gridhall.protocol.games import options
from gridhall.protocol.games.reversi import REVERSI

from ..base import JSON, OptionError, StartPolicy
from ..computers import REFERENCE
from .computer import COMPUTER
from .game import ReversiGame, from_state


class ReversiSpec:
    """Two rivals on 6×6, 8×8 or 10×10; a computer in seat 1 when ``ai`` asks."""

    name = "reversi"
    start: StartPolicy = "full"
    min_players = 2
    computer = COMPUTER
    description = REVERSI

    def parse_options(self, raw: JSON) -> JSON:
        """Names, choices and bounds come from the description; left out: what is unset."""
        parsed = options.parse(self.description, raw, OptionError)
        if parsed["rated"] and parsed["ai"] is not None and parsed["ai"] not in REFERENCE:
            raise OptionError(
                "A game against this computer cannot be rated: it has no reference rating."
            )
        out: JSON = {"size": parsed["size"]}
        for key in ("clock", "ai", "rated"):
            if parsed[key]:
                out[key] = parsed[key]
        return out

    def max_players(self, options: JSON) -> int:
        return 2

    def new_game(
        self, options: JSON, players: list[str], round_no: int, seed: int, now: float
    ) -> ReversiGame:
        return ReversiGame(options, players, round_no, now)

    def restore_game(self, state: JSON) -> ReversiGame:
        """A game as :meth:`ReversiGame.state` saved it (a room's snapshot)."""
        return from_state(state)


SPEC = ReversiSpec()
