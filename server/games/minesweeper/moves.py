"""What a Minesweeper move is: its actions and marks, and a move map read into
(action, cell, mark) or refused with a clear error before the game changes."""

from __future__ import annotations

from gridhall.protocol.cells import board_span

from ..base import JSON, GameError

ACTIONS = ("reveal", "chord", "mark", "flag-around", "hint")
MARKS = ("flag", "question", "none")


def refuse(message: str) -> GameError:
    """A move the rules do not allow (the player may try another)."""
    return GameError("illegal-move", message)


def parse_move(move: JSON, width: int, height: int) -> tuple[str, int | None, str | None]:
    """``move`` as (action, cell index or None for a hint, mark or None)."""
    if not isinstance(move, dict):
        raise GameError("bad-message", "A move must be a map.")
    action = move.get("action")
    if action not in ACTIONS:
        raise GameError("bad-message", "A move's action must be one of " + ", ".join(ACTIONS) + ".")
    if action == "hint":
        return action, None, None
    x, y = move.get("x"), move.get("y")
    for v in (x, y):
        if isinstance(v, bool) or not isinstance(v, int):
            raise GameError("bad-message", "A move needs whole-number x and y.")
    assert isinstance(x, int) and isinstance(y, int)
    if not (0 <= x < width and 0 <= y < height):
        raise refuse(f"That cell is off the {width}×{height} board ({board_span(width, height)}).")
    mark = None
    if action == "mark":
        mark = move.get("mark")
        if mark not in MARKS:
            raise GameError("bad-message", "A mark move needs mark: flag, question or none.")
    return action, y * width + x, mark
