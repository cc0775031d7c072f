"""The Reversi board: green felt, a grid, discs with a rim, dots on the side to move's
legal moves, the last disc marked and the discs it turned over outlined."""

from __future__ import annotations

from gridhall.client.messages import Request
from gridhall.client.room import RoomCopy
from gridhall.client.tk.boards.base import BoardCanvas, font
from gridhall.client.tk.geometry import Geometry
from gridhall.client.views.base import Button
from gridhall.client.views.reversi import ReversiBoard, ReversiView
from gridhall.protocol.cells import column_name, row_name

FELT = "#2e7d4f"
FELT_EDGE = "#1d5234"
LINE = "#174a2c"
LABEL = "#cfe3d5"
HINT = "#9fd3b0"
LAST_MARK = "#e0302a"
FLIPPED_RING = "#f2c14e"
DISC = {"black": ("#141414", "#000000"), "white": ("#f4f2ea", "#9a9486")}


class ReversiCanvas(BoardCanvas):
    """Discs sit in the squares; a click on a dotted square places one there."""

    MARGIN = 0.7
    BACKGROUND = "#1e2a22"
    game = ReversiView()

    def board(self) -> ReversiBoard:
        return self.game.board(self.room or RoomCopy("", 0))

    def cells(self) -> tuple[int, int]:
        size = self.board().size
        return size, size

    def click(self, x: int, y: int, button: Button) -> Request | None:
        if button != "primary" or self.room is None:
            return None
        return self.game.click(self.room, self.me, x, y)

    def draw(self, g: Geometry) -> None:
        board = self.board()
        n = board.size
        left, top, _, _ = g.box(0, 0)
        _, _, right, bottom = g.box(n - 1, n - 1)
        c = g.cell
        self.create_rectangle(left, top, right, bottom, fill=FELT, outline=FELT_EDGE, width=3)
        for i in range(1, n):
            x = left + i * (right - left) / n
            y = top + i * (bottom - top) / n
            self.create_line(x, top, x, bottom, fill=LINE, width=max(1, round(c / 30)))
            self.create_line(left, y, right, y, fill=LINE, width=max(1, round(c / 30)))
        label_font = font(c * 0.32, bold=False)
        for i in range(n):
            px, _ = g.center(i, 0)
            _, py = g.center(0, i)
            self.create_text(px, top - c * 0.35, text=column_name(i), fill=LABEL, font=label_font)
            self.create_text(left - c * 0.35, py, text=row_name(i), fill=LABEL, font=label_font)
        for y in range(n):
            for x in range(n):
                self.cell(g, board, x, y)

    def cell(self, g: Geometry, board: ReversiBoard, x: int, y: int) -> None:
        """One square's content: a disc (marked when last or just turned), or a hint dot."""
        what = board.what(x, y)
        px, py = g.center(x, y)
        c = g.cell
        if what == "legal":
            r = c * 0.1
            self.create_oval(px - r, py - r, px + r, py + r, fill=HINT, outline="", tags="hint")
            return
        if what == "empty":
            return
        r = c * 0.4
        fill, rim = DISC[what]
        flipped = (x, y) in board.flipped
        self.create_oval(
            px - r,
            py - r,
            px + r,
            py + r,
            fill=fill,
            outline=FLIPPED_RING if flipped else rim,
            width=max(2, c * 0.06) if flipped else 1,
            tags=("disc", what),
        )
        if (x, y) == board.last:
            m = c * 0.09
            self.create_rectangle(
                px - m, py - m, px + m, py + m, fill=LAST_MARK, outline="", tags="last"
            )


BOARD = ReversiCanvas
