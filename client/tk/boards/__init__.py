"""Canvas boards, one per game, all scaling with the window."""

from gridhall.client.tk.boards.base import BoardCanvas, UnknownCanvas
from gridhall.client.tk.boards.gomoku import GomokuCanvas
from gridhall.client.tk.boards.linkmatch import LinkCanvas
from gridhall.client.tk.boards.minesweeper import MinesCanvas
from gridhall.client.tk.boards.reversi import ReversiCanvas

BOARDS: dict[str, type[BoardCanvas]] = {
    GomokuCanvas.game.name: GomokuCanvas,
    MinesCanvas.game.name: MinesCanvas,
    LinkCanvas.game.name: LinkCanvas,
    ReversiCanvas.game.name: ReversiCanvas,
}
"""Game name -> its board canvas (the Tk UI's only per-game code)."""


def board_for(game: str) -> type[BoardCanvas]:
    return BOARDS.get(game, UnknownCanvas)


__all__ = ["BOARDS", "BoardCanvas", "board_for"]
