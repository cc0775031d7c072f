"""The live boards, drawing a replay's frame instead of a room: Gomoku with each
stone's move number, the winning five and an analysed move's best reply; Minesweeper
with each cell framed in the colour of who opened or flagged it, and at the end the
mines and who hit one; Link-match with every racer's board and the step's path.

The frames come from :mod:`client.replays` (display-free, shared with the terminal
client); these canvases only draw them and never send anything.
"""

from __future__ import annotations

import re
import tkinter as tk
from dataclasses import replace
from tkinter import ttk
from typing import Any

from gridhall.client.history import finished_state
from gridhall.client.messages import Request
from gridhall.client.replays import (
    GomokuFrame,
    MinesFrame,
    RacerFrame,
    ReplayPlayer,
    gomoku_frame,
    link_frames,
    mines_frame,
)
from gridhall.client.room import RoomCopy
from gridhall.client.tk.boards.base import BoardCanvas, UnknownCanvas, font
from gridhall.client.tk.boards.gomoku import GomokuCanvas
from gridhall.client.tk.boards.linkmatch import LinkCanvas
from gridhall.client.tk.boards.minesweeper import MinesCanvas
from gridhall.client.tk.geometry import Geometry
from gridhall.client.views.base import Button
from gridhall.client.views.gomoku import GomokuBoard
from gridhall.client.views.linkmatch import LinkBoard
from gridhall.client.views.minesweeper import MinesBoard

BEST = "#19c23c"
MARKED = "#e0302a"
LAST = "#ff4a3d"
REPAINT_OVER = 200
"""Changed cells past which a Minesweeper frame is repainted whole."""
FALLBACK = "#ffffff"
_HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


def _nothing(_request: Request) -> None:
    """Replays send nothing: a click on a replayed board is not a move."""


def tk_color(color: str) -> str:
    """A colour from the network that Tk will take (anything else: white)."""
    return color if _HEX.fullmatch(color) else FALLBACK


def frame_room(player: ReplayPlayer, view: dict[str, Any]) -> RoomCopy:
    """A stand-in room holding one frame, so the live canvases can draw it."""
    over = player.index == player.count
    state = finished_state(player.data, view)
    if not over:  # mid-game: no result yet, so nothing is drawn as won
        state = replace(state, status="playing", result=None)
    return RoomCopy(room="", seq=0, state=state)


class GomokuReplay(GomokuCanvas):
    """Stones numbered by move, the five, and the analysis' marks."""

    def __init__(self, master: tk.Misc, **kw: Any) -> None:
        super().__init__(master, _nothing, **kw)
        self.frame: GomokuFrame | None = None

    def show_frame(self, player: ReplayPlayer) -> None:
        self.frame = gomoku_frame(player)
        self.room = frame_room(player, player.view())
        self.redraw()

    def board(self) -> GomokuBoard:
        return self.frame.board if self.frame is not None else super().board()

    def click(self, x: int, y: int, button: Button) -> Request | None:
        return None

    def draw(self, g: Geometry) -> None:
        super().draw(g)
        frame = self.frame
        if frame is None:
            return
        self.delete("win", "last")  # the last move's number is red instead
        c = g.cell
        if len(frame.line) >= 2:
            pts = sorted(frame.line)
            (ax, ay), (bx, by) = g.center(*pts[0]), g.center(*pts[-1])
            self.create_line(
                ax, ay, bx, by, fill=MARKED, width=max(3, c * 0.06), capstyle=tk.ROUND, tags="win"
            )
        number_font = font(c * 0.38)
        for (x, y), n in frame.numbers.items():
            color = frame.board.stones.get((x, y))
            if color is None:
                continue
            px, py = g.center(x, y)
            ink = "#f0f0f0" if color == "black" else "#141414"
            self.create_text(
                px,
                py,
                text=str(n),
                font=number_font,
                fill=LAST if (x, y) == frame.board.last else ink,
                tags=("number", f"number-{n}"),
            )
        if frame.marked and frame.board.last is not None:
            px, py = g.center(*frame.board.last)
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
        if frame.best is not None:
            px, py = g.center(*frame.best)
            r = c * 0.3
            self.create_oval(
                px - r, py - r, px + r, py + r, outline=BEST, width=max(2, c * 0.1), tags="best"
            )
            self.create_line(px - r, py, px + r, py, fill=BEST, width=max(1, c * 0.05), tags="best")
            self.create_line(px, py - r, px, py + r, fill=BEST, width=max(1, c * 0.05), tags="best")


class MinesReplay(MinesCanvas):
    """The field, each player's cells framed in their colour, and the hits at the end."""

    def __init__(self, master: tk.Misc, **kw: Any) -> None:
        super().__init__(master, _nothing, **kw)
        self.frame: MinesFrame | None = None
        self._owned: dict[tuple[int, int], tuple[str, int]] = {}
        """The colour frames on the canvas now, by cell: (colour, canvas item)."""

    def show_frame(self, player: ReplayPlayer) -> None:
        frame = mines_frame(player)
        self.frame = MinesFrame(
            frame.board,
            {pt: tk_color(c) for pt, c in frame.owners.items()},
            {pt: tk_color(c) for pt, c in frame.hits.items()},
        )
        self.room = frame_room(player, player.view())
        self.redraw()

    def board(self) -> MinesBoard:
        return self.frame.board if self.frame is not None else super().board()

    def click(self, x: int, y: int, button: Button) -> Request | None:
        return None

    def redraw(self) -> None:
        """A jump over many steps repaints the whole field: deleting thousands of cells
        one by one (by tag, which Tk looks up item by item) takes far longer."""
        if self.winfo_width() <= 1:
            return  # not laid out yet: its <Configure> draws it, once, at its size
        drawn = self._drawn
        if (
            drawn is not None
            and self.frame is not None
            and _changed_cells(drawn, self.frame.board) > REPAINT_OVER
        ):
            self._drawn = None
        super().redraw()

    def draw(self, g: Geometry) -> None:
        self._owned = {}  # the canvas was cleared: every mark is drawn again
        super().draw(g)

    def _overlays(self, g: Geometry, board: MinesBoard) -> None:
        """Each opened or flagged cell framed in its player's colour; only the frames
        that changed since the last step are redrawn (a big field has tens of
        thousands), then raised over the cells redrawn beneath them."""
        super()._overlays(g, board)
        frame = self.frame
        owners = frame.owners if frame is not None else {}
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
        for (x, y), color in (frame.hits if frame is not None else {}).items():
            px, py = g.center(x, y)
            r = c * 0.5
            self.create_oval(
                px - r, py - r, px + r, py + r, outline=color, width=max(3.0, c * 0.14), tags="hit"
            )


def _changed_cells(old: MinesBoard, new: MinesBoard) -> int:
    """How many cells differ between two frames of the same field."""
    if (old.width, old.height) != (new.width, new.height):
        return old.width * old.height
    return sum(
        sum(a != b for a, b in zip(r, q, strict=False))
        for r, q in zip(old.rows, new.rows, strict=False)
        if r != q
    )


class RacerReplay(LinkCanvas):
    """One racer's board at the shown step, with the step's path if it was theirs."""

    def __init__(self, master: tk.Misc, **kw: Any) -> None:
        super().__init__(master, _nothing, **kw)
        self.racer: RacerFrame | None = None

    def show_racer(self, racer: RacerFrame, room: RoomCopy) -> None:
        self.racer = racer
        view = {"width": racer.board.width, "height": racer.board.height}
        state = replace(room.state, view=view, status="over") if room.state else None
        self.room = RoomCopy("", 0, state=state)
        self.path = list(racer.board.path) if racer.path else []
        self.redraw()

    def board(self) -> LinkBoard:
        return self.racer.board if self.racer is not None else super().board()

    def click(self, x: int, y: int, button: Button) -> Request | None:
        return None

    def tick(self) -> None:
        """A replayed race has no countdown."""

    def draw(self, g: Geometry) -> None:
        if self.room is not None and self.room.state is not None:
            super().draw(g)


class LinkReplay(ttk.Frame):
    """Every racer's board side by side, each under the racer's name."""

    def __init__(self, master: tk.Misc, **kw: Any) -> None:
        super().__init__(master)
        self.racers: dict[str, tuple[ttk.Label, RacerReplay]] = {}

    def show_frame(self, player: ReplayPlayer) -> None:
        frames = link_frames(player)
        room = frame_room(player, player.view())
        if [f.player for f in frames] != list(self.racers):
            for label, canvas in self.racers.values():
                label.destroy()
                canvas.destroy()
            self.racers = {}
            for col, f in enumerate(frames):
                label = ttk.Label(self, style="Heading.TLabel")
                label.grid(row=0, column=col, sticky="w", padx=4)
                canvas = RacerReplay(self, width=320, height=260)
                canvas.grid(row=1, column=col, sticky="nsew", padx=4)
                self.columnconfigure(col, weight=1)
                self.racers[f.player] = (label, canvas)
            self.rowconfigure(1, weight=1)
        for f in frames:
            label, canvas = self.racers[f.player]
            label.configure(text=f"● {f.name}", foreground=tk_color(f.color))
            canvas.show_racer(f, room)

    def canvases(self) -> dict[str, RacerReplay]:
        """Each racer's canvas, by player id (what tests look at)."""
        return {pid: canvas for pid, (_label, canvas) in self.racers.items()}


class OtherReplay(UnknownCanvas):
    """A game this client cannot draw: say so over an empty board."""

    def __init__(self, master: tk.Misc, **kw: Any) -> None:
        super().__init__(master, _nothing, **kw)

    def show_frame(self, player: ReplayPlayer) -> None:
        self.room = frame_room(player, player.view())
        self.redraw()


ReplayBoard = GomokuReplay | MinesReplay | LinkReplay | OtherReplay


def replay_board(master: tk.Misc, game: str, **kw: Any) -> ReplayBoard:
    """The board that draws a replay of ``game``."""
    boards: dict[str, type[ReplayBoard]] = {
        "gomoku": GomokuReplay,
        "minesweeper": MinesReplay,
        "linkmatch": LinkReplay,
    }
    return boards.get(game, OtherReplay)(master, **kw)


__all__ = ["BoardCanvas", "ReplayBoard", "replay_board", "tk_color"]
