"""What a Minesweeper game shows and keeps: the one view everyone gets, the board's
face once it is over, the record the history keeps and the state a room's snapshot
holds (``game.py``'s :func:`~.game.from_state` reads it back).

Apart from the rules in ``game.py`` because each is a reading of the game's state,
never a change to it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..base import JSON
from .board import counts_text

if TYPE_CHECKING:
    from .game import MinesweeperGame


def view_of(game: MinesweeperGame) -> JSON:
    """The one view for everyone (co-op: all see the same board)."""
    face = game._shown if game.result is None else final_face(game)
    w = game.width
    rows = [face[y * w : (y + 1) * w].decode("ascii") for y in range(game.height)]
    owned: dict[str, int] = {}
    for owner in game.flag_owner.values():
        owned[owner] = owned.get(owner, 0) + 1
    return {
        "width": game.width,
        "height": game.height,
        "mines": game.mines,
        "rows": rows,
        "flags": sum(game.flagged),
        "revealed": game.width * game.height - game.mines - game.safe_left,
        "elapsed": game.elapsed(),
        "lives": game.options["lives"],
        "lives_left": game.lives_left,
        "exploded": [[c % w, c // w] for c in game.exploded],
        "last": {p: dict(a) for p, a in game.last.items()},
        "stats": {
            p: {
                "revealed": s["revealed"],
                "flagged": owned.get(p, 0),
                "mines_hit": s["mines_hit"],
            }
            for p, s in game.stats.items()
        },
        "left": list(game.left),
        "hint": None if game.hint is None else dict(game.hint),
    }


def final_face(game: MinesweeperGame) -> bytearray:
    """The board once over: win shows every mine flagged; otherwise mines
    ``*``, exploded ``X`` and wrong flags ``W``."""
    face = bytearray(game._shown)
    board = game.board
    if board is None:
        return face
    won = game.result is not None and game.result["reason"] == "cleared"
    for m in board.mines:
        if won and face[m] != ord("X"):
            face[m] = ord("F")
        elif won:
            continue
        elif face[m] != ord("X") and not game.flagged[m]:
            face[m] = ord("*")
    if not won:
        for c in range(len(face)):
            if game.flagged[c] and not board.is_mine(c):
                face[c] = ord("W")
    return face


def record_of(game: MinesweeperGame) -> JSON:
    """What the history keeps: enough to replay the game move by move."""
    return {
        "options": dict(game.options),
        "players": list(game.players),
        "seed": game.seed,
        "layout": game.board.layout() if game.board is not None else [],
        "first_click": game.first_click,
        "actions": [list(a) for a in game.actions],
        "actions_omitted": game.actions_omitted,
        "result": game.result,
        "generation": game.generation_note,
    }


def state_of(game: MinesweeperGame) -> JSON:
    """Everything the game is, as plain data (:func:`~.game.from_state` makes it
    again): what a room's snapshot holds, so a game that never ends needs no journal
    of its whole past. The board's cells are one text (revealed, flagged and
    questioned cells all show in it)."""
    board = game.board
    return {
        "options": dict(game.options),
        "players": list(game.players),
        "result": game.result,
        "seed": game.seed,
        "board": None
        if board is None
        else {"mines": sorted(board.mines), "counts": counts_text(board.counts)},
        "shown": game._shown.decode("ascii"),
        "flag_owner": [[c, p] for c, p in game.flag_owner.items()],
        "exploded": list(game.exploded),
        "safe_left": game.safe_left,
        "lives_left": game.lives_left,
        "left": list(game.left),
        "stats": {p: dict(s) for p, s in game.stats.items()},
        "last": {p: dict(a) for p, a in game.last.items()},
        "hint": None if game.hint is None else dict(game.hint),
        "created": game.created,
        "latest": game.latest,
        "started": game.started,
        "ended": game.ended,
        "penalty": game.penalty,
        "first_click": game.first_click,
        "generation": game.generation_note,
        "actions": [list(a) for a in game.actions],
        "actions_omitted": game.actions_omitted,
    }
