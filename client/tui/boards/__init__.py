"""Terminal board widgets, one per game."""

from gridhall.client.tui.boards.base import Board, UnknownBoard
from gridhall.client.tui.boards.gomoku import GomokuWidget
from gridhall.client.tui.boards.linkmatch import LinkWidget
from gridhall.client.tui.boards.minesweeper import MinesWidget
from gridhall.client.tui.boards.reversi import ReversiWidget

BOARDS: dict[str, type[Board]] = {
    GomokuWidget.game.name: GomokuWidget,
    MinesWidget.game.name: MinesWidget,
    LinkWidget.game.name: LinkWidget,
    ReversiWidget.game.name: ReversiWidget,
}
"""Game name -> its board widget (the terminal UI's only per-game code)."""


def board_for(game: str) -> type[Board]:
    return BOARDS.get(game, UnknownBoard)


__all__ = ["BOARDS", "Board", "board_for"]
