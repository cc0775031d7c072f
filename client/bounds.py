"""The largest boards the protocol allows, checked before a client draws one.

A client draws what the server says: a Gomoku ``size`` of 100000 made the
terminal client loop over 10^10 points (a hang), a Minesweeper board of
100000 x 100000 made it build 10^10 cells (``MemoryError``). Every view a
client folds into its room copy (a ``state``'s options and view, a ``moved``'s
view) passes :func:`view_problem` first, in one place (:mod:`client.room`), so
every UI is covered. The numbers are the options' limits in the games' descriptions; a game
this client does not know is drawn as a note, never as a board, so it is not
checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gridhall.client.plain import plain
from gridhall.protocol.games import GAMES
from gridhall.protocol.i18n import _


@dataclass(frozen=True)
class Board:
    """A game's board sides (``(key, default, most)``) and its lists bounded by them."""

    title: str
    sides: tuple[tuple[str, int, int], ...]
    lists: tuple[tuple[str, str], ...] = ()
    """(key, what bounds its length): ``cells``, ``rows`` (the last side) or ``path``."""


PATH_POINTS = 4
"""A Link-match link turns at most twice: its corner points, ends included."""

BOARDS: dict[str, Board] = {
    name: Board(
        game.title, tuple((key, default, game.most(key)) for key, default in game.sides), game.lists
    )
    for name, game in GAMES.items()
    if game.sides
}
"""Each described game's board bounds: the largest sides its options allow."""


def _side(value: Any, default: int) -> int | None:
    """A side as the views read it (absent or 0: the default), None if not a whole number."""
    if value is None or value == 0:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def view_problem(game: str, view: Mapping[str, Any]) -> str | None:
    """Why ``view`` (a room's options with its game view over them) is beyond what the
    protocol allows, as a sentence for the player; None when it is within."""
    board = BOARDS.get(game)
    if board is None:
        return None
    sides: list[int] = []
    for key, default, most in board.sides:
        side = _side(view.get(key), default)
        if side is None or not 0 <= side <= most:
            return _(
                "The server sent a {game} board with {key} {value}; the protocol "
                "allows at most {most}.",
                game=_(board.title),
                key=key,
                value=plain(repr(view.get(key)))[:40],
                most=most,
            )
        sides.append(side)
    cells = sides[0] * sides[-1]
    limits = {"cells": cells, "rows": sides[-1], "path": PATH_POINTS}
    for key, bound in board.lists:
        items = view.get(key)
        if isinstance(items, list | str) and len(items) > limits[bound]:
            return _(
                "The server sent a {game} board with {count} {key} for a board of "
                "{width} x {height}; the protocol allows at most {most}.",
                game=_(board.title),
                count=len(items),
                key=key,
                width=sides[0],
                height=sides[-1],
                most=limits[bound],
            )
    return None
