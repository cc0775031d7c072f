"""The Gomoku board: wood, grid lines, star points, shaded stones, the last move
marked, the winning five struck through, and a see-through preview under the mouse;
in a replay each stone's move number, the five, and the analysis' marks."""

from __future__ import annotations

import math
import tkinter as tk
from typing import Any

from gridhall.client.messages import Request
from gridhall.client.room import RoomCopy
from gridhall.client.tk.boards.base import BoardCanvas, IntentSink, font
from gridhall.client.tk.geometry import Geometry
from gridhall.client.views.base import Button
from gridhall.client.views.gomoku import GomokuBoard, GomokuView, ReplayMarks, star_points
from gridhall.protocol.cells import column_name, row_name

WOOD = "#dcb35c"
WOOD_EDGE = "#a87a32"
GRAIN = ("#d6ab52", "#e0ba66", "#d9b05a", "#e3bf6c")
SHADOW = "#9c7436"
LINE = "#3b2a12"
LABEL = "#5a4220"
LAST_MARK = "#e0302a"
WIN_LINE = "#e0302a"
BEST = "#19c23c"
MARKED = "#e0302a"
LAST = "#ff4a3d"


class GomokuCanvas(BoardCanvas):
    """Stones sit on the line crossings; a click places one there."""

    MARGIN = 1.0
    BACKGROUND = "#3a3026"
    game = GomokuView()

    def __init__(self, master: tk.Misc, on_intent: IntentSink, **kw: Any) -> None:
        super().__init__(master, on_intent, **kw)
        self.hover: tuple[int, int] | None = None
        self.bind("<Motion>", self._motion)
        self.bind("<Leave>", lambda _e: self._set_hover(None))

    def board(self) -> GomokuBoard:
        return self.game.board(self.room or RoomCopy("", 0))

    def cells(self) -> tuple[int, int]:
        size = int(self.view.get("size") or 15)
        return size, size

    def click(self, x: int, y: int, button: Button) -> Request | None:
        if button != "primary" or self.room is None:
            return None
        request = self.game.click(self.room, self.me, x, y)
        if request is not None:
            self.hover = None
            self._draw_hover()
        return request

    def my_color(self) -> str | None:
        color = self.board().colors.get(self.me) if self.me else None
        return str(color) if color else None

    # ---- drawing ----------------------------------------------------------------------
    def draw(self, g: Geometry) -> None:
        board = self.board()
        n = board.size
        c = g.cell
        (x0, y0), (x1, y1) = g.center(0, 0), g.center(n - 1, n - 1)
        pad = c * 0.95
        self.create_rectangle(
            x0 - pad + 3, y0 - pad + 4, x1 + pad + 3, y1 + pad + 4, fill="#221b14", outline=""
        )
        self.create_rectangle(x0 - pad, y0 - pad, x1 + pad, y1 + pad, fill=WOOD, outline="")
        inset = max(2.0, c * 0.1)
        self._grain(x0 - pad + inset, y0 - pad, x1 + pad - inset, y1 + pad)
        self.create_rectangle(
            x0 - pad, y0 - pad, x1 + pad, y1 + pad, outline=WOOD_EDGE, width=max(2, c * 0.06)
        )
        thin = max(1, round(c / 28))
        for i in range(n):
            edge = thin * 2 if i in (0, n - 1) else thin
            ax, ay = g.center(i, 0)
            bx, by = g.center(i, n - 1)
            self.create_line(ax, ay, bx, by, fill=LINE, width=edge)
            ax, ay = g.center(0, i)
            bx, by = g.center(n - 1, i)
            self.create_line(ax, ay, bx, by, fill=LINE, width=edge)
        r = max(2.0, c * 0.1)
        for sx, sy in star_points(n):
            px, py = g.center(sx, sy)
            self.create_oval(px - r, py - r, px + r, py + r, fill=LINE, outline="")
        label_font = font(c * 0.36, bold=False)
        for i in range(n):
            px, _ = g.center(i, 0)
            _, py = g.center(0, i)
            col, row = column_name(i), row_name(i)
            self.create_text(px, y0 - c * 0.68, text=col, fill=LABEL, font=label_font)
            self.create_text(px, y1 + c * 0.68, text=col, fill=LABEL, font=label_font)
            self.create_text(x0 - c * 0.68, py, text=row, fill=LABEL, font=label_font)
            self.create_text(x1 + c * 0.68, py, text=row, fill=LABEL, font=label_font)
        for (x, y), color in board.stones.items():
            self.stone(g, x, y, color)
        if board.last is not None:
            px, py = g.center(*board.last)
            m = c * 0.12
            self.create_rectangle(
                px - m, py - m, px + m, py + m, fill=LAST_MARK, outline="", tags="last"
            )
        state = self.room.state if self.room else None
        line = self.game.winning_line(state) if state else []
        if len(line) >= 2:
            pts = sorted(line)
            (ax, ay), (bx, by) = g.center(*pts[0]), g.center(*pts[-1])
            self.create_line(
                ax, ay, bx, by, fill=WIN_LINE, width=max(3, c * 0.08), capstyle=tk.ROUND, tags="win"
            )
        marks = self.frame.decoration if self.frame is not None else None
        if isinstance(marks, ReplayMarks):
            self._replay_marks(g, board, marks)
        self._draw_hover()

    def _replay_marks(self, g: Geometry, board: GomokuBoard, marks: ReplayMarks) -> None:
        """A replay's marks: numbered stones (the last one's number red), the five, and
        a marked move ringed with the engine's best move."""
        self.delete("win", "last")  # the last move's number is red instead
        c = g.cell
        if len(marks.line) >= 2:
            pts = sorted(marks.line)
            (ax, ay), (bx, by) = g.center(*pts[0]), g.center(*pts[-1])
            self.create_line(
                ax, ay, bx, by, fill=MARKED, width=max(3, c * 0.06), capstyle=tk.ROUND, tags="win"
            )
        number_font = font(c * 0.38)
        for (x, y), n in marks.numbers.items():
            color = board.stones.get((x, y))
            if color is None:
                continue
            px, py = g.center(x, y)
            ink = "#f0f0f0" if color == "black" else "#141414"
            self.create_text(
                px,
                py,
                text=str(n),
                font=number_font,
                fill=LAST if (x, y) == board.last else ink,
                tags=("number", f"number-{n}"),
            )
        if marks.marked and board.last is not None:
            px, py = g.center(*board.last)
            r = c * 0.52
            self.create_oval(
                px - r,
                py - r,
                px + r,
                py + r,
                outline=MARKED,
                width=max(2, c * 0.08),
                tags="marked",
            )
        if marks.best is not None:
            px, py = g.center(*marks.best)
            r = c * 0.3
            w = max(1, c * 0.05)
            self.create_oval(
                px - r, py - r, px + r, py + r, outline=BEST, width=max(2, c * 0.1), tags="best"
            )
            self.create_line(px - r, py, px + r, py, fill=BEST, width=w, tags="best")
            self.create_line(px, py - r, px, py + r, fill=BEST, width=w, tags="best")

    def _grain(self, left: float, top: float, right: float, bottom: float) -> None:
        """Faint wavy streaks, so the board reads as wood rather than a flat fill."""
        streaks = 22
        step = (bottom - top) / streaks
        for k in range(streaks):
            base = top + (k + 0.5) * step
            amp = step * (0.25 + 0.2 * math.sin(k * 1.7))
            pts: list[float] = []
            for j in range(13):
                x = left + (right - left) * j / 12
                pts += [x, base + amp * math.sin(j * 0.9 + k * 2.3)]
            self.create_line(
                *pts,
                smooth=True,
                width=max(1.0, step * 0.35),
                fill=GRAIN[k % len(GRAIN)],
                tags="grain",
            )

    def stone(self, g: Geometry, x: int, y: int, color: str, preview: bool = False) -> None:
        """A stone with a soft shadow and a highlight, so it reads as round."""
        px, py = g.center(x, y)
        r = g.cell * 0.46
        tag = "hover" if preview else "stone"
        black = color == "black"
        if preview:
            self.create_oval(
                px - r,
                py - r,
                px + r,
                py + r,
                fill="#111111" if black else "#fafafa",
                outline="",
                stipple="gray50",
                tags=tag,
            )
            return
        s = g.cell * 0.07
        self.create_oval(
            px - r + s, py - r + s, px + r + s, py + r + s, fill=SHADOW, outline="", tags=tag
        )
        self.create_oval(
            px - r,
            py - r,
            px + r,
            py + r,
            fill="#141414" if black else "#dcd8cc",
            outline="#000000" if black else "#9a9486",
            width=1,
            tags=tag,
        )
        if not black:  # a lit face inside a shaded rim
            f = r * 0.86
            fx, fy = px - r * 0.08, py - r * 0.08
            self.create_oval(fx - f, fy - f, fx + f, fy + f, fill="#f6f4ee", outline="", tags=tag)
        h = r * (0.32 if black else 0.36)
        hx, hy = px - r * 0.35, py - r * 0.35
        self.create_oval(
            hx - h,
            hy - h,
            hx + h,
            hy + h,
            fill="#4a4a4a" if black else "#ffffff",
            outline="",
            tags=tag,
        )

    # ---- hover preview ----------------------------------------------------------------
    def _motion(self, event: tk.Event) -> None:
        self._set_hover(self.geom.cell_at(event.x, event.y))

    def _set_hover(self, cell: tuple[int, int] | None) -> None:
        if cell != self.hover:
            self.hover = cell
            self._draw_hover()

    def _draw_hover(self) -> None:
        self.delete("hover")
        color = self.my_color()
        if self.hover is None or color is None:
            return
        if self.room is None or self.game.click(self.room, self.me, *self.hover) is None:
            return
        self.stone(self.geom, *self.hover, color, preview=True)


BOARD = GomokuCanvas
