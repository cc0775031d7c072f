"""How a game ended, as typed values: the ``result`` map of ``state`` and ``game-over``.

Modelled on python-chess's ``Outcome``/``Termination``: a closed set of reasons, a
winner (or none), and the game's own details (the winning line, stats, a ranking).
On the wire it stays the contract's map: ``{"winner", "reason", ...details}``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Termination(StrEnum):
    """Every ``result.reason`` a gridhall server sends."""

    FIVE = "five"
    """Gomoku: five (or, by the rule, more) in a row."""
    DRAW = "draw"
    """Gomoku: the board is full, or the room's move limit was reached."""
    AGREED_DRAW = "agreed-draw"
    """Gomoku: a draw offer was accepted."""
    RESIGN = "resign"
    """A player resigned or left (co-op / race: every player left the game)."""
    TIMEOUT = "timeout"
    """Gomoku: the player to move ran out of clock time."""
    FORBIDDEN = "forbidden"
    """Gomoku (contract): a renju foul that ends the game; gridhall refuses fouls instead."""
    DISCONNECT = "disconnect"
    """A player did not come back within the reconnect grace period."""
    CLEARED = "cleared"
    """Minesweeper: the board is cleared; Link-match: a racer cleared their board."""
    MINE = "mine"
    """Minesweeper: the last life was lost on a mine."""
    TIME = "time"
    """Link-match: time ran out and nobody cleared; the fewest tiles left wins."""
    REMOVED = "removed"
    """(added) The room's host removed a seated player while the game ran: nobody wins
    by it. Gomoku and Link-match end at once with no winner, never rated (the result's
    ``removed`` names the player); in co-op Minesweeper only that player leaves the
    team, and the game ends so only when nobody is left in it."""
    IMPORTED = "imported"
    """Gomoku (added): a game imported from a file that ends without five in a row or a
    full board (``gridhall-server import``); nobody won."""


@dataclass(frozen=True)
class Outcome:
    """A finished game's result: who won (None: nobody, or everybody in co-op), why,
    and the game's own details."""

    termination: Termination
    winner: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_map(self) -> dict[str, Any]:
        """The contract's ``result`` map."""
        return {"winner": self.winner, "reason": self.termination.value, **self.details}

    @classmethod
    def from_map(cls, result: dict[str, Any]) -> Outcome:
        """Read a ``result`` map; an unknown reason raises ValueError."""
        details = {k: v for k, v in result.items() if k not in ("winner", "reason")}
        winner = result.get("winner")
        return cls(
            Termination(str(result.get("reason"))),
            winner if isinstance(winner, str) else None,
            details,
        )
