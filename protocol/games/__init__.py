"""Each game described once, as data, for every client and the server's option parsing.

:data:`NAMES` is the one list of the games gridhall has: adding a game is one line
here. Every registry is built from it, each finding the game's part in that part's own
place by the game's name (a module named after the game):

- here, :data:`GAMES`: ``protocol/games/<name>.py``'s ``DESCRIPTION``;
- the server's plug-ins (:func:`gridhall.server.games.registry`):
  ``server/games/<name>/``'s ``SPEC``;
- the Python clients' view models (:data:`gridhall.client.views.VIEWS`):
  ``client/views/<name>.py``'s ``VIEW``, and their boards
  (``client/tui/boards/<name>.py``, ``client/tk/boards/<name>.py``: ``BOARD``);
- the browser's boards: ``client/web/js/boards/<name>.js`` (and ``.css``), loaded by the
  names ``GET /games.json`` lists.

:data:`COMMON` holds what every game says the same way. The browser loads
:func:`to_json` from ``GET /games.json``; the terminal and Tk clients use the
objects through :mod:`gridhall.client.views`.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .common import COMMON
from .describe import Game

NAMES: tuple[str, ...] = ("gomoku", "minesweeper", "linkmatch", "reversi")
"""Every game, by its protocol name, in the order the clients list them."""


def _description(name: str) -> Game:
    found = import_module(f"{__name__}.{name}").DESCRIPTION
    if not isinstance(found, Game) or found.name != name:
        raise TypeError(f"protocol/games/{name}.py: DESCRIPTION must describe {name!r}")
    return found


GAMES: dict[str, Game] = {name: _description(name) for name in NAMES}


def describe(name: str) -> Game:
    """The description of ``name``; a bare one (its name as title) for an unknown game."""
    found = GAMES.get(name)
    return (
        found if found is not None else Game(name=name, title=name.replace("-", " ").capitalize())
    )


def rated() -> list[str]:
    """The games with ratings and a leaderboard, in :data:`NAMES` order."""
    return [name for name, game in GAMES.items() if game.ratings == "rated"]


def with_records() -> list[str]:
    """The games that keep team records instead of ratings."""
    return [name for name, game in GAMES.items() if game.ratings == "records"]


def to_json() -> dict[str, Any]:
    """Every description, as the browser reads it."""
    return {"common": COMMON.to_json(), "games": {n: g.to_json() for n, g in GAMES.items()}}


__all__ = ["COMMON", "GAMES", "NAMES", "Game", "describe", "rated", "to_json", "with_records"]
