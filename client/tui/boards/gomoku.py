"""The Gomoku board in the terminal: a wooden grid with lettered columns,
numbered rows and the last stone marked."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text

from gridhall.client.room import RoomCopy
from gridhall.client.tui.boards.base import LABEL, Board, styled
from gridhall.client.views.base import Button
from gridhall.client.views.gomoku import GomokuView
from gridhall.protocol.cells import column_name, row_name
from gridhall.protocol.i18n import N_


class GomokuWidget(Board):
    """A wooden board with lettered columns, numbered rows and the last stone marked."""

    KEYS_HELP: ClassVar[list[tuple[str, str]]] = [
        (N_("enter  space  left click"), N_("place a stone"))
    ]
    game = GomokuView()

    def grid_size(self) -> tuple[int, int]:
        size = int(self.view.get("size") or 15)
        return size, size

    def text_size(self) -> tuple[int, int]:
        size = self.grid_size()[0]
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
