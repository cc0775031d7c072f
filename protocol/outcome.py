"""How a game ended, as typed values: the ``result`` map of ``state`` and ``game-over``.

Modelled on python-chess's ``Outcome``/``Termination``: a closed set of reasons, a
winner (or none), and the game's own details (the winning line, stats, a ranking).
On the wire it stays the contract's map: ``{"winner", "reason", ...details}``.

:class:`Termination` holds the reasons any game may end by (the room's: a resignation,
a player who never came back, one the host removed; and the shared facilities': an
agreed draw, a clock run out, a game imported from a file). Each game declares its own
ways to end beside its description (``protocol/games/<game>.py``, a ``StrEnum`` whose
values its description's ``words["reasons"]`` put in words); a reason is a string on
the wire, so :class:`Outcome` takes either kind.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Termination(StrEnum):
    """The ``result.reason`` values every game may end with."""

    RESIGN = "resign"
    """A player resigned or left (co-op / race: every player left the game)."""
    DISCONNECT = "disconnect"
    """A player did not come back within the reconnect grace period."""
    REMOVED = "removed"
    """(added) The room's host removed a seated player while the game ran: nobody wins
    by it. A game of rivals ends at once with no winner, never rated (the result's
    ``removed`` names the player); in a co-op game only that player leaves the team,
    and the game ends so only when nobody is left in it."""
    AGREED_DRAW = "agreed-draw"
    """A draw offer was accepted (games with offers)."""
    TIMEOUT = "timeout"
    """The player to move ran out of clock time (games with a chess clock)."""
    IMPORTED = "imported"
    """(added) A game imported from a file that ends without a decision by the rules
    (``gridhall-server import``); nobody won."""


_COMMON = frozenset(t.value for t in Termination)


@dataclass(frozen=True)
class Outcome:
    """A finished game's result: who won (None: nobody, or everybody in co-op), why,
    and the game's own details. ``termination`` is a :class:`Termination` or one of
    the game's own reasons (a ``StrEnum`` of its description's module)."""

    termination: str
    winner: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_map(self) -> dict[str, Any]:
        """The contract's ``result`` map."""
        return {"winner": self.winner, "reason": str(self.termination), **self.details}

    @classmethod
    def from_map(cls, result: dict[str, Any]) -> Outcome:
        """Read a ``result`` map; one without a reason raises ValueError."""
        details = {k: v for k, v in result.items() if k not in ("winner", "reason")}
        winner, reason = result.get("winner"), result.get("reason")
        if not isinstance(reason, str) or not reason:
            raise ValueError(f"a result needs a reason, not {reason!r:.40}")
        return cls(
            Termination(reason) if reason in _COMMON else reason,
            winner if isinstance(winner, str) else None,
            details,
        )
