"""Terminal board widgets, one per game: ``client/tui/boards/<name>.py`` exports its
widget as ``BOARD``, found by the game's name among the packaged descriptions
(:data:`gridhall.protocol.games.NAMES`)."""

from importlib import import_module

from gridhall.client.tui.boards.base import Board, UnknownBoard
from gridhall.protocol.games import NAMES


def _board(name: str) -> type[Board]:
    found = import_module(f"{__name__}.{name}").BOARD
    if not (isinstance(found, type) and issubclass(found, Board)):
        raise TypeError(f"client/tui/boards/{name}.py: BOARD must be a Board")
    return found


BOARDS: dict[str, type[Board]] = {name: _board(name) for name in NAMES}
"""Game name -> its board widget (the terminal UI's only per-game code)."""


def board_for(game: str) -> type[Board]:
    return BOARDS.get(game, UnknownBoard)


__all__ = ["BOARDS", "Board", "board_for"]
