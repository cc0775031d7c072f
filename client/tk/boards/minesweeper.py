"""The Minesweeper field as in the classic game: raised hidden cells, sunken
open ones, coloured numbers, drawn flags and question marks, and after the end
the mines, the exploded one on red and wrong flags crossed out. Columns are
lettered and rows numbered, as hints and messages name cells. In a replay each
opened or flagged cell is framed in the colour of who did it, and at the end each
hit mine is ringed in the colour of who hit it."""

from __future__ import annotations

import tkinter as tk
from typing import Any

from gridhall.client.messages import Request
from gridhall.client.room import RoomCopy
from gridhall.client.tk.boards.base import BoardCanvas, Font, IntentSink, font, tk_color
from gridhall.client.tk.geometry import Geometry
from gridhall.client.views.base import Button
from gridhall.client.views.minesweeper import (
    NUMBER_COLORS,
    MinesBoard,
    MinesweeperView,
    ReplayOwners,
)
from gridhall.protocol.cells import column_name, row_name

FACE = "#c6c6c6"
LIGHT = "#ffffff"
DARK = "#808080"
OPEN = "#bdbdbd"
OPEN_LINE = "#8e8e8e"
EXPLODED = "#ff1e1e"
HINT_SAFE = "#1fae3c"
HINT_RISKY = "#f08c00"
LABEL = "#9aa0a6"
REPAINT_OVER = 200
"""Changed cells past which a replay's frame is repainted whole: deleting thousands of
cells one by one (by tag, which Tk looks up item by item) takes far longer."""


class MinesCanvas(BoardCanvas):
    """Left reveals (or chords a satisfied number), right marks, middle chords."""

    MARGIN = 1.0
    """Room for the bevel and the column letters and row numbers."""
    BACKGROUND = "#2b2d31"
    game = MinesweeperView()

    def __init__(self, master: tk.Misc, on_intent: IntentSink, **kw: Any) -> None:
        super().__init__(master, on_intent, **kw)
        self._drawn: MinesBoard | None = None
        """The board as last drawn, so a move redraws only the cells it changed."""
        self._owned: dict[tuple[int, int], tuple[str, int]] = {}
        """A replay's colour frames on the canvas now, by cell: (colour, canvas item)."""

    def board(self) -> MinesBoard:
        return self.game.board(self.room or RoomCopy("", 0), self.me)

    def redraw(self) -> None:
        """Redraw the cells that changed since the last drawing, and the marks over
        them; everything when the size or the layout changed. A 200 x 200 field is
        ~120,000 canvas items: drawing them all takes Tk about a second."""
        if self.frame is not None and self.winfo_width() <= 1:
            return  # a replay not laid out yet: its <Configure> draws it, once, at its size
        drawn, g = self._drawn, self.fit()
        board = self.board()
        if (
            drawn is None
            or g != self.geom
            or (drawn.width, drawn.height) != (board.width, board.height)
            or (self.frame is not None and _changed_cells(drawn, board) > REPAINT_OVER)
        ):
            self._drawn = None
            super().redraw()
            return
        number_font = font(g.cell * 0.62)
        for y, (old, new) in enumerate(zip(drawn.rows, board.rows)):
            if old == new:
                continue
            for x in (x for x, (a, b) in enumerate(zip(old, new)) if a != b):
                self.delete(f"cell-{x}-{y}")
                self._cell(g, board, x, y, number_font)
        self.delete("hint", "others")
        self._overlays(g, board)
        self._drawn = board

    def cells(self) -> tuple[int, int]:
        return int(self.view.get("width") or 0), int(self.view.get("height") or 0)

    def click(self, x: int, y: int, button: Button) -> Request | None:
        return self.game.click(self.room, self.me, x, y, button) if self.room else None

    def draw(self, g: Geometry) -> None:
        self._owned = {}  # the canvas was cleared: every replay mark is drawn again
        board = self.board()
        c = g.cell
        x0, y0, _, _ = g.box(0, 0)
        _, _, x1, y1 = g.box(board.width - 1, board.height - 1)
        b = max(3.0, c * 0.18)
        self._bevel(x0 - b, y0 - b, x1 + b, y1 + b, b, raised=False, fill=OPEN)
        label_font = font(c * 0.36, bold=False)
        for x in range(board.width):
            px, _ = g.center(x, 0)
            self.create_text(
                px, y0 - b - c * 0.3, text=column_name(x), fill=LABEL, font=label_font, tags="label"
            )
        for y in range(board.height):
            _, py = g.center(0, y)
            self.create_text(
                x0 - b - c * 0.15,
                py,
                text=row_name(y),
                fill=LABEL,
                font=label_font,
                anchor="e",
                tags="label",
            )
        number_font = font(c * 0.62)
        for y in range(board.height):
            for x in range(board.width):
                self._cell(g, board, x, y, number_font)
        self._overlays(g, board)
        self._drawn = board

    def _overlays(self, g: Geometry, board: MinesBoard) -> None:
        """The hint's frame and the others' last clicks, over the cells."""
        c = g.cell
        if board.hint:
            hx, hy, safe = board.hint
            if board.char(hx, hy) in "#?":
                bx0, by0, bx1, by1 = g.box(hx, hy)
                w = max(2.0, c * 0.1)
                self.create_rectangle(
                    bx0 + w / 2,
                    by0 + w / 2,
                    bx1 - w / 2,
                    by1 - w / 2,
                    outline=HINT_SAFE if safe else HINT_RISKY,
                    width=w,
                    tags="hint",
                )
        for (mx, my), color in board.marks.items():
            if 0 <= mx < board.width and 0 <= my < board.height:
                bx0, by0, bx1, by1 = g.box(mx, my)
                self.create_rectangle(
                    bx0 + 1,
                    by0 + 1,
                    bx1 - 1,
                    by1 - 1,
                    outline=color,
                    width=max(2.0, c * 0.07),
                    tags="others",
                )
        owners = self.frame.decoration if self.frame is not None else None
        if isinstance(owners, ReplayOwners):
            self._replay_owners(g, board, owners)

    def _replay_owners(self, g: Geometry, board: MinesBoard, frame: ReplayOwners) -> None:
        """Each opened or flagged cell framed in its player's colour; only the frames
        that changed since the last step are redrawn (a big field has tens of
        thousands), then raised over the cells redrawn beneath them; the hits."""
        owners = {pt: tk_color(color) for pt, color in frame.owners.items()}
        c = g.cell
        w = max(2.0, c * 0.06)
        gone = [pt for pt, (color, _item) in self._owned.items() if owners.get(pt) != color]
        for pt in gone:
            self.delete(self._owned.pop(pt)[1])
        for (x, y), color in owners.items():
            if (x, y) in self._owned or not (0 <= x < board.width and 0 <= y < board.height):
                continue
            bx0, by0, bx1, by1 = g.box(x, y)
            item = self.create_rectangle(
                bx0 + w / 2,
                by0 + w / 2,
                bx1 - w / 2,
                by1 - w / 2,
                outline=color,
                width=w,
                tags="owner",
            )
            self._owned[(x, y)] = (color, item)
        self.tag_raise("owner")
        self.delete("hit")
        for (x, y), color in frame.hits.items():
            px, py = g.center(x, y)
            r = c * 0.5
            self.create_oval(
                px - r,
                py - r,
                px + r,
                py + r,
                outline=tk_color(color),
                width=max(3.0, c * 0.14),
                tags="hit",
            )

    def _cell(self, g: Geometry, board: MinesBoard, x: int, y: int, number_font: Font) -> None:
        ch = board.char(x, y)
        x0, y0, x1, y1 = g.box(x, y)
        c = g.cell
        tag = f"cell-{x}-{y}"
        if ch in "#F?":
            self._bevel(x0, y0, x1, y1, max(2.0, c * 0.12), raised=True, fill=FACE, tag=tag)
            if ch == "F":
                self._flag(x0, y0, c, tag)
            elif ch == "?":
                self.create_text(
                    (x0 + x1) / 2,
                    (y0 + y1) / 2,
                    text="?",
                    fill="#000000",
                    font=number_font,
                    tags=tag,
                )
            return
        fill = EXPLODED if ch == "X" else OPEN
        self.create_rectangle(x0, y0, x1, y1, fill=fill, outline=OPEN_LINE, width=1, tags=tag)
        if ch in NUMBER_COLORS:
            self.create_text(
                (x0 + x1) / 2,
                (y0 + y1) / 2 + 1,
                text=ch,
                fill=NUMBER_COLORS[ch],
                font=number_font,
                tags=tag,
            )
        elif ch in "*XW":
            self._mine(x0, y0, c, tag)
            if ch == "W":
                m = c * 0.16
                for ax, ay, bx, by in (
                    (x0 + m, y0 + m, x1 - m, y1 - m),
                    (x1 - m, y0 + m, x0 + m, y1 - m),
                ):
                    self.create_line(
                        ax, ay, bx, by, fill="#e00000", width=max(2.0, c * 0.1), tags=tag
                    )

    def _bevel(
        self,
        x0: float,
        y0: float,
        x1: float,
        y1: float,
        b: float,
        *,
        raised: bool,
        fill: str,
        tag: str = "",
    ) -> None:
        """A Windows-3 style 3-D edge: light top-left and dark bottom-right (or swapped)."""
        top, bottom = (LIGHT, DARK) if raised else (DARK, LIGHT)
        self.create_rectangle(x0, y0, x1, y1, fill=fill, outline="", tags=tag)
        self.create_polygon(
            x0,
            y0,
            x1,
            y0,
            x1 - b,
            y0 + b,
            x0 + b,
            y0 + b,
            x0 + b,
            y1 - b,
            x0,
            y1,
            fill=top,
            outline="",
            tags=tag,
        )
        self.create_polygon(
            x1,
            y1,
            x0,
            y1,
            x0 + b,
            y1 - b,
            x1 - b,
            y1 - b,
            x1 - b,
            y0 + b,
            x1,
            y0,
            fill=bottom,
            outline="",
            tags=tag,
        )

    def _flag(self, x0: float, y0: float, c: float, tag: str) -> None:
        """Red pennant on a black pole and foot."""
        px = x0 + c * 0.56
        w = max(1.5, c * 0.07)
        self.create_polygon(
            px,
            y0 + c * 0.2,
            px,
            y0 + c * 0.5,
            x0 + c * 0.24,
            y0 + c * 0.35,
            fill="#e00000",
            outline="",
            tags=tag,
        )
        self.create_line(px, y0 + c * 0.2, px, y0 + c * 0.72, fill="#000000", width=w, tags=tag)
        self.create_rectangle(
            x0 + c * 0.3,
            y0 + c * 0.68,
            x0 + c * 0.74,
            y0 + c * 0.78,
            fill="#000000",
            outline="",
            tags=tag,
        )

    def _mine(self, x0: float, y0: float, c: float, tag: str) -> None:
        """A black sea mine with spikes and a white glint."""
        cx, cy = x0 + c / 2, y0 + c / 2
        r, s = c * 0.24, c * 0.36
        w = max(1.5, c * 0.08)
        self.create_line(cx - s, cy, cx + s, cy, fill="#000000", width=w, tags=tag)
        self.create_line(cx, cy - s, cx, cy + s, fill="#000000", width=w, tags=tag)
        d = s * 0.72
        self.create_line(cx - d, cy - d, cx + d, cy + d, fill="#000000", width=w, tags=tag)
        self.create_line(cx - d, cy + d, cx + d, cy - d, fill="#000000", width=w, tags=tag)
        self.create_oval(cx - r, cy - r, cx + r, cy + r, fill="#000000", outline="", tags=tag)
        g = c * 0.07
        self.create_rectangle(
            cx - r * 0.55,
            cy - r * 0.55,
            cx - r * 0.55 + 2 * g,
            cy - r * 0.55 + 2 * g,
            fill="#ffffff",
            outline="",
            tags=tag,
        )


def _changed_cells(old: MinesBoard, new: MinesBoard) -> int:
    """How many cells differ between two drawings of the same field."""
    if (old.width, old.height) != (new.width, new.height):
        return old.width * old.height
    return sum(
        sum(a != b for a, b in zip(r, q, strict=False))
        for r, q in zip(old.rows, new.rows, strict=False)
        if r != q
    )


BOARD = MinesCanvas
