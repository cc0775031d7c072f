"""Canvas boards, one per game, all scaling with the window."""

from client.tk.boards.base import BoardCanvas
from client.tk.boards.gomoku import GomokuCanvas
from client.tk.boards.linkmatch import LinkCanvas
from client.tk.boards.minesweeper import MinesCanvas

BOARDS: dict[str, type[BoardCanvas]] = {
    "gomoku": GomokuCanvas,
    "minesweeper": MinesCanvas,
    "linkmatch": LinkCanvas,
}

__all__ = ["BOARDS", "BoardCanvas", "GomokuCanvas", "LinkCanvas", "MinesCanvas"]
