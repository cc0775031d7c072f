"""Canvas boards, one per game, all scaling with the window."""

from gridhall.client.tk.boards.base import BoardCanvas
from gridhall.client.tk.boards.gomoku import GomokuCanvas
from gridhall.client.tk.boards.linkmatch import LinkCanvas
from gridhall.client.tk.boards.minesweeper import MinesCanvas

BOARDS: dict[str, type[BoardCanvas]] = {
    "gomoku": GomokuCanvas,
    "minesweeper": MinesCanvas,
    "linkmatch": LinkCanvas,
}

__all__ = ["BOARDS", "BoardCanvas", "GomokuCanvas", "LinkCanvas", "MinesCanvas"]
