"""The Link-match board: ivory tiles with coloured glyphs on a felt table, the
selected tile framed in red, the hint pair in gold, and the path of our last
link drawn as a green line for a moment (as in the Lianliankan source). In a replay
it draws one racer's board, with the step's link path when it was theirs."""

from __future__ import annotations

import tkinter as tk
from typing import Any

from gridhall import protocol as p
from gridhall.client.messages import Request, RoomEvent
from gridhall.client.room import RoomCopy
from gridhall.client.tk.boards.base import BoardCanvas, Font, IntentSink, font
from gridhall.client.tk.geometry import Geometry
from gridhall.client.views.base import Button
from gridhall.client.views.linkmatch import LinkBoard, LinkMatchView, LinkSelection, kind_look

FELT = "#1f4a45"
TILE = "#f7f0dc"
TILE_SIDE = "#c2ad7e"
TILE_EDGE = "#8c7a52"
SELECT = "#e01b1b"
HINT = "#ffc107"
HINT_FILL = "#fff1b8"
PATH = "#19c23c"
INK = (
    "#c62828",
    "#2e7d32",
    "#1565c0",
    "#6a1b9a",
    "#ef6c00",
    "#00838f",
    "#ad1457",
    "#5d4037",
    "#212121",
    "#9e7c00",
    "#546e7a",
    "#7cb342",
)
"""Glyph colours dark enough to read on ivory; with the glyph they tell kinds apart."""
PATH_MS = 700


class LinkCanvas(BoardCanvas):
    """Click a tile, then its twin: the server checks the link and answers."""

    MARGIN = 1.0
    RING = 1
    BACKGROUND = FELT
    REDRAW_ON_CLICK = True
    game = LinkMatchView()

    def __init__(self, master: tk.Misc, on_intent: IntentSink, **kw: Any) -> None:
        super().__init__(master, on_intent, **kw)
        self.selection = LinkSelection()
        self.path: list[tuple[int, int]] = []
        self.flashes = 0
        """How many link paths were drawn (tests check this, not the fleeting line)."""
        self._path_job: str | None = None
        self._counting = False

    def board(self) -> LinkBoard:
        """Our board, its countdown run on to now."""
        return self.game.board(self.room or RoomCopy("", 0), self.me, self.clock())

    def cells(self) -> tuple[int, int]:
        return int(self.view.get("width") or 0), int(self.view.get("height") or 0)

    def click(self, x: int, y: int, button: Button) -> Request | None:
        if button != "primary" or self.room is None:
            return None
        return self.game.click(self.room, self.me, self.selection, x, y, self.clock())

    def show(self, room: RoomCopy, me: str | None) -> None:
        self.selection.forget_if_gone(self.game.board(room, me, self.clock()))
        super().show(room, me)

    def tick(self) -> None:
        """Redraw while the countdown runs, and once more when it ends."""
        counting = bool(self.board().starts_in)
        if counting or self._counting:
            self.redraw()
        self._counting = counting

    def room_event(self, msg: RoomEvent) -> None:
        """Our own link: draw its path for a moment."""
        if isinstance(msg, p.Moved) and msg.by == self.me and msg.move.get("action") == "link":
            self.flash_path(LinkBoard.from_view(msg.view).path)

    def flash_path(self, pts: list[tuple[int, int]]) -> None:
        """Draw a link's path (corner points, ends included) for a moment."""
        if len(pts) < 2:
            return
        self.path = pts
        self.flashes += 1
        if self._path_job is not None:
            self.after_cancel(self._path_job)
        self._path_job = self.after(PATH_MS, self._clear_path)
        self.redraw()

    def _clear_path(self) -> None:
        self.path, self._path_job = [], None
        self.redraw()

    # ---- drawing ----------------------------------------------------------------------
    def draw(self, g: Geometry) -> None:
        board = self.board()
        state = self.room.state if self.room else None
        if state is None:
            return
        c = g.cell
        glyph_font = font(c * 0.58, bold=False)
        hint = set(board.hint)
        for y in range(board.height):
            for x in range(board.width):
                kind = board.kind(x, y)
                if kind:
                    self._tile(g, x, y, kind, glyph_font, hinted=(x, y) in hint)
        if self.selection.selected is not None:
            x0, y0, x1, y1 = self._face(g, *self.selection.selected)
            w = max(3.0, c * 0.09)
            self.create_rectangle(
                x0 - w / 2,
                y0 - w / 2,
                x1 + w / 2,
                y1 + w / 2,
                outline=SELECT,
                width=w,
                tags="selected",
            )
        path = self.path if self.frame is None else (board.path if self.frame.active else [])
        if path:
            pts = [coord for p in path for coord in g.center(*p)]
            self.create_line(
                *pts,
                fill=PATH,
                width=max(3.0, c * 0.12),
                capstyle=tk.ROUND,
                joinstyle=tk.ROUND,
                tags="path",
            )
        if self.frame is not None:
            return  # a replay: no waiting, watching or countdown line over the board
        said = self.game.board_text(self.room or RoomCopy("", 0), self.me, self.clock())
        if said:  # waiting for the host to start, watching, the countdown
            self.message(said, color="#ffe066" if board.starts_in else "#e8e8e8")

    def _face(self, g: Geometry, x: int, y: int) -> tuple[float, float, float, float]:
        """The tile's front face (the cell minus a gap and the tile's side)."""
        x0, y0, x1, y1 = g.box(x, y)
        gap, side = g.cell * 0.04, g.cell * 0.08
        return x0 + gap, y0 + gap, x1 - gap - side, y1 - gap - side

    def _tile(self, g: Geometry, x: int, y: int, kind: int, glyph_font: Font, hinted: bool) -> None:
        fx0, fy0, fx1, fy1 = self._face(g, x, y)
        side = g.cell * 0.08
        tag = f"tile-{x}-{y}"
        self.create_rectangle(
            fx0 + side,
            fy0 + side,
            fx1 + side,
            fy1 + side,
            fill=TILE_SIDE,
            outline=TILE_EDGE,
            tags=tag,
        )
        self.create_rectangle(
            fx0,
            fy0,
            fx1,
            fy1,
            fill=HINT_FILL if hinted else TILE,
            outline=HINT if hinted else TILE_EDGE,
            width=max(3.0, g.cell * 0.08) if hinted else 1,
            tags=tag,
        )
        look = kind_look(kind)
        self.create_text(
            (fx0 + fx1) / 2,
            (fy0 + fy1) / 2,
            text=look.glyph,
            fill=INK[(kind - 1) % len(INK)],
            font=glyph_font,
            tags=tag,
        )


BOARD = LinkCanvas
