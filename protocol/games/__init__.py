"""Each game described once, as data, for every client and the server's option parsing.

:data:`GAMES` maps a game's protocol name to its :class:`~.describe.Game`;
:data:`COMMON` holds what every game says the same way. The browser loads
:func:`to_json` from ``GET /games.json``; the terminal and Tk clients use the
objects through :mod:`gridhall.client.views`.
"""

from __future__ import annotations

from typing import Any

from .common import COMMON
from .describe import Game
from .gomoku import GOMOKU
from .linkmatch import LINKMATCH
from .minesweeper import MINESWEEPER
from .reversi import REVERSI

GAMES: dict[str, Game] = {g.name: g for g in (GOMOKU, MINESWEEPER, LINKMATCH, REVERSI)}


def describe(name: str) -> Game:
    """The description of ``name``; a bare one (its name as title) for an unknown game."""
    found = GAMES.get(name)
    return (
        found if found is not None else Game(name=name, title=name.replace("-", " ").capitalize())
    )


def to_json() -> dict[str, Any]:
    """Every description, as the browser reads it."""
    return {"common": COMMON.to_json(), "games": {n: g.to_json() for n, g in GAMES.items()}}


__all__ = ["COMMON", "GAMES", "Game", "describe", "to_json"]
