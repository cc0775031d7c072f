"""Reversi room options and game creation."""

from __future__ import annotations

from typing import Any

from gridhall.protocol.games import options
from gridhall.protocol.games.reversi import DESCRIPTION

from ..base import JSON, OptionError
from ..clocked import ClockedSpec
from ..rating import Rated
from .computer import COMPUTER
from .files import ReversiFiles
from .game import ReversiGame, from_state
from .rerun import ReversiRun


class ReversiSpec(ClockedSpec):
    """Two rivals on 6×6, 8×8 or 10×10; a computer in seat 1 when ``ai`` asks; rated
    (the winner first, a draw ties), move lists as record files."""

    description = DESCRIPTION
    computer = COMPUTER
    rating = Rated()
    records = ReversiFiles()

    def parse_options(self, raw: JSON) -> JSON:
        """Names, choices and bounds come from the description; left out: what is unset."""
        parsed = options.parse(self.description, raw, OptionError)
        if parsed["rated"] and parsed["ai"] is not None and parsed["ai"] not in self.references:
            raise OptionError(
                "A game against this computer cannot be rated: it has no reference rating."
            )
        out: JSON = {"size": parsed["size"]}
        for key in ("clock", "ai", "rated"):
            if parsed[key]:
                out[key] = parsed[key]
        return out

    def new_game(
        self,
        options: JSON,
        players: list[str],
        round_no: int,
        seed: int,
        now: float,
        prepared: Any = None,
    ) -> ReversiGame:
        return ReversiGame(options, players, round_no, now)

    def restore_game(self, state: JSON) -> ReversiGame:
        """A game as :meth:`ReversiGame.state` saved it (a room's snapshot)."""
        return from_state(state)

    def replay(self, record: JSON, duration: float | None = None) -> ReversiRun:
        return ReversiRun(record)

    def moves(self, record: JSON) -> int:
        """Discs placed (passes are not moves)."""
        moves = record.get("moves")
        return len(moves) if isinstance(moves, list) else 0


SPEC = ReversiSpec()
