"""Canvas boards, one per game, all scaling with the window: ``client/tk/boards/<name>.py``
exports its canvas as ``BOARD``, found by the game's name among the packaged
descriptions (:data:`gridhall.protocol.games.NAMES`)."""

from importlib import import_module

from gridhall.client.tk.boards.base import BoardCanvas, UnknownCanvas
from gridhall.protocol.games import NAMES


def _board(name: str) -> type[BoardCanvas]:
    found = import_module(f"{__name__}.{name}").BOARD
    if not (isinstance(found, type) and issubclass(found, BoardCanvas)):
        raise TypeError(f"client/tk/boards/{name}.py: BOARD must be a BoardCanvas")
    return found


BOARDS: dict[str, type[BoardCanvas]] = {name: _board(name) for name in NAMES}
"""Game name -> its board canvas (the Tk UI's only per-game code)."""


def board_for(game: str) -> type[BoardCanvas]:
    return BOARDS.get(game, UnknownCanvas)


__all__ = ["BOARDS", "BoardCanvas", "board_for"]
