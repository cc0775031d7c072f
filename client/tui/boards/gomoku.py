"""The Gomoku board in the terminal: a wooden grid with lettered columns,
numbered rows and the last stone marked; in a replay, three columns a point, each
stone showing its move number, the winning five and the engine's best move."""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text

from gridhall.client.room import RoomCopy
from gridhall.client.tui.boards.base import LABEL, Board, styled
from gridhall.client.views.base import Button
from gridhall.client.views.gomoku import (
    BLACK_STONE,
    LINE,
    WHITE_STONE,
    WOOD,
    GomokuBoard,
    GomokuView,
    ReplayMarks,
)
from gridhall.protocol.cells import column_name, row_name
from gridhall.protocol.i18n import N_


class GomokuWidget(Board):
    """A wooden board with lettered columns, numbered rows and the last stone marked."""

    KEYS_HELP: ClassVar[list[tuple[str, str]]] = [
        (N_("enter  space  left click"), N_("place a stone"))
    ]
    game = GomokuView()

    def marks(self) -> ReplayMarks | None:
        """What a replay adds, when this board shows one."""
        marks = self.frame.decoration if self.frame is not None else None
        return marks if isinstance(marks, ReplayMarks) else None

    def grid_size(self) -> tuple[int, int]:
        size = int(self.view.get("size") or 15)
        return size, size

    def text_size(self) -> tuple[int, int]:
        size = self.grid_size()[0]
        if self.marks() is not None:
            return 3 + 3 * size + 3, size + 2
        return 3 + 2 * size + 2, size + 2

    def cell_at(self, col: int, row: int) -> tuple[int, int] | None:
        size = self.grid_size()[0]
        x, y = (col - 3 + 1) // 2, row - 1
        if col >= 3 and 0 <= x < size and 0 <= y < size:
            return x, y
        return None

    def click(self, x: int, y: int, button: Button) -> None:
        if button == "primary" and self.room is not None:
            self.act(self.game.click(self.room, self.me, x, y))

    def render(self) -> Text:
        board = self.game.board(self.room or RoomCopy("", 0))
        marks = self.marks()
        if marks is not None:
            return replay_text(board, marks)
        cursor = self.cursor if self.has_focus else None
        labels = "   " + " ".join(column_name(x) for x in range(board.size))
        text = Text(labels + "\n", style=LABEL, no_wrap=True)
        for y in range(board.size):
            text.append(f"{row_name(y):>2} ", LABEL)
            for x in range(board.size):
                look = board.look(x, y, cursor)
                text.append(look.glyph, styled(look))
                if x < board.size - 1:
                    text.append("─", styled(board.joint(x, y)))
            text.append(f" {row_name(y)}\n", LABEL)
        text.append(labels, LABEL)
        return text


LINE_BG = "#d43c3c"
"""The winning five, in a replay."""
BEST_BG = "#2e9e4f"
"""The engine's best move at an analysed, marked move."""
MARKED_BG = "#e08a2c"
"""The stone of a move the analysis marked."""


def replay_text(board: GomokuBoard, marks: ReplayMarks) -> Text:
    """Three columns a point: a stone shows its move number; empty points the grid."""
    n = board.size - 1
    labels = "   " + "".join(f"{column_name(x):^3}" for x in range(board.size))
    text = Text(labels + "\n", style=LABEL, no_wrap=True)
    for y in range(board.size):
        text.append(f"{row_name(y):>2} ", LABEL)
        for x in range(board.size):
            pt = (x, y)
            stone = board.stones.get(pt)
            if stone is not None:
                number = marks.numbers.get(pt, 0)
                black = stone == "black"
                bg = BLACK_STONE if black else WHITE_STONE
                if pt in marks.line:
                    bg = LINE_BG
                elif pt == board.last and marks.marked:
                    bg = MARKED_BG
                fg = WHITE_STONE if black or pt in marks.line else BLACK_STONE
                text.append(
                    f"{number:^3}" if number < 1000 else "###",
                    Style(color=fg, bgcolor=bg, bold=True, underline=pt == board.last),
                )
                continue
            if pt == marks.best:
                text.append(" ✚ ", Style(color="#ffffff", bgcolor=BEST_BG, bold=True))
                continue
            mid = board.look(x, y).glyph
            left = "─" if x > 0 else " "
            right = "─" if x < n else " "
            text.append(left + mid + right, Style(color=LINE, bgcolor=WOOD))
        text.append(f" {row_name(y)}\n", LABEL)
    text.append(labels, LABEL)
    return text


BOARD = GomokuWidget
