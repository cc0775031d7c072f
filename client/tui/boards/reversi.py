"""The Reversi board in the terminal: green felt with lettered columns, numbered rows,
dots on the legal moves of the side to move, the last disc ringed and what it turned
over shaded."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text

from gridhall.client.room import RoomCopy
from gridhall.client.tui.boards.base import LABEL, Board, styled
from gridhall.client.views.base import Button
from gridhall.client.views.common import Look
from gridhall.client.views.reversi import FELT, ReversiView
from gridhall.protocol.cells import column_name, row_name
from gridhall.protocol.i18n import N_


class ReversiWidget(Board):
    """Discs on felt, two columns a cell, legal moves dotted."""

    KEYS_HELP: ClassVar[list[tuple[str, str]]] = [
        (N_("enter  space  left click"), N_("place a disc on a dotted cell"))
    ]
    game = ReversiView()

    def grid_size(self) -> tuple[int, int]:
        size = self.view.get("size")
        size = size if isinstance(size, int) and not isinstance(size, bool) else 8
        return size, size

    def text_size(self) -> tuple[int, int]:
        size = self.grid_size()[0]
        return 3 + 2 * size + 3, size + 2

    def cell_at(self, col: int, row: int) -> tuple[int, int] | None:
        size = self.grid_size()[0]
        x, y = (col - 3) // 2, row - 1
        if col >= 3 and 0 <= x < size and 0 <= y < size:
            return x, y
        return None

    def click(self, x: int, y: int, button: Button) -> None:
        if button == "primary" and self.room is not None:
            self.act(self.game.click(self.room, self.me, x, y))

    def render(self) -> Text:
        board = self.game.board(self.room or RoomCopy("", 0))
        cursor = self.cursor if self.has_focus else None
        gap = styled(Look(" ", bg=FELT))
        labels = "   " + "".join(f"{column_name(x):<2}" for x in range(board.size))
        text = Text(labels + "\n", style=LABEL, no_wrap=True)
        for y in range(board.size):
            text.append(f"{row_name(y):>2} ", LABEL)
            for x in range(board.size):
                look = board.look(x, y, cursor)
                text.append(look.glyph, styled(look))
                text.append(" ", styled(Look(" ", bg=look.bg)) if look.bg else gap)
            text.append(f" {row_name(y)}\n", LABEL)
        text.append(labels, LABEL)
        return text


BOARD = ReversiWidget
