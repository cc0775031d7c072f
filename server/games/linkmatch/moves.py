"""Reading a move map from the wire into typed values, and explaining refused links.

A move of the wrong shape is the sender's bug (``bad-message``); a well-formed
link that the rules refuse is a wrong attempt (``illegal-move``), counted
against the racer. The explanation only talks about the racer's own board.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from gridhall.protocol.cells import board_span, cell_name

from ..base import GameError
from .board import Point, Rows

Action = Literal["link", "hint", "shuffle"]
ACTIONS: tuple[Action, ...] = ("link", "hint", "shuffle")


@dataclass(frozen=True)
class Move:
    """A parsed move; ``a`` and ``b`` are set for links only."""

    action: Action
    a: Point | None = None
    b: Point | None = None

    def wire(self) -> dict[str, Any]:
        """The normalised move map the room echoes."""
        if self.a is None or self.b is None:
            return {"action": self.action}
        return {"action": self.action, "a": list(self.a), "b": list(self.b)}


def parse_move(move: object) -> Move:
    """Validate the shape of a move map; raise GameError(bad-message) otherwise."""
    if not isinstance(move, dict):
        raise GameError("bad-message", "A Link-match move must be a map.")
    action = move.get("action")
    for known in ACTIONS:
        if action == known:
            if known != "link":
                return Move(known)
            return Move(known, _point(move.get("a"), "a"), _point(move.get("b"), "b"))
    raise GameError("bad-message", "A Link-match move needs `action`: `link`, `hint` or `shuffle`.")


def _point(value: object, name: str) -> Point:
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return (value[0], value[1])
    raise GameError("bad-message", f"`{name}` must be a pair of integers [x, y].")


def why_no_link(rows: Rows, a: Point, b: Point) -> str:
    """A sentence saying why ``a`` and ``b`` do not link (the racer's own board)."""
    height = len(rows)
    width = len(rows[0]) if height else 0
    for x, y in (a, b):
        if not (0 <= x < width and 0 <= y < height):
            return f"That tile is off the {width}×{height} board ({board_span(width, height)})."
    if a == b:
        return "Pick two different tiles."
    for x, y in (a, b):
        if rows[y][x] == 0:
            return f"There is no tile at {cell_name(x, y)}."
    if rows[a[1]][a[0]] != rows[b[1]][b[0]]:
        return "Those two tiles are different kinds."
    return "No path of at most three straight lines through empty cells joins those tiles."
