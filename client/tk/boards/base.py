"""What every board canvas shares: scaling to the window, redraw on new state,
mouse buttons turned into requests by the game's view class, and drawing a replay's
frame instead of a room (read-only, with what the game's replay adds)."""

from __future__ import annotations

import re
import time
import tkinter as tk
from collections.abc import Callable
from typing import Any

from gridhall.client.messages import Request, RoomEvent
from gridhall.client.room import RoomCopy
from gridhall.client.tk.geometry import Geometry
from gridhall.client.views.base import BoardInputs, Button, board_inputs
from gridhall.client.views.common import Message, ReplayFrame
from gridhall.protocol.i18n import _

FONT_FAMILY = "DejaVu Sans"
"""Has the card suits, stars and arrows the boards' glyphs use; Tk falls back if missing."""

IntentSink = Callable[[Request], None]
MOUSE: dict[str, Button] = {"left": "primary", "right": "secondary", "middle": "chord"}


Font = tuple[str, int, str]
FALLBACK = "#ffffff"
_HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


def tk_color(color: str) -> str:
    """A colour from the network that Tk will take (anything else: white)."""
    return color if _HEX.fullmatch(color) else FALLBACK


def font(px: float, bold: bool = True) -> Font:
    """A font sized in pixels (negative Tk size), so text scales with the cells."""
    return (FONT_FAMILY, -max(6, int(px)), "bold" if bold else "normal")


class BoardCanvas(tk.Canvas):
    """A canvas that draws one game's view and reports clicks as requests.

    Subclasses say how many cells there are (:meth:`cells`), how much frame to leave
    around them (``MARGIN`` in cells), how to draw (:meth:`draw`) and what a click
    asks for (:meth:`click`, usually the game view's own click mapping).
    """

    MARGIN = 0.5
    RING = 0
    BACKGROUND = "#2b2d31"
    REDRAW_ON_CLICK = False
    """Whether a click changes what the board shows by itself (a selection)."""

    def __init__(self, master: tk.Misc, on_intent: IntentSink, **kw: Any) -> None:
        super().__init__(
            master, background=self.BACKGROUND, highlightthickness=0, borderwidth=0, **kw
        )
        self.on_intent = on_intent
        self.room: RoomCopy | None = None
        self.me: str | None = None
        self.geom = Geometry.fit(1, 1, 100, 100)
        self._inputs: BoardInputs | None = None
        self.clock: Callable[[], float] = time.time
        """The time the board's clocks show (the room frame gives one that stands
        still while offline)."""
        self.frame: ReplayFrame | None = None
        """The replay frame drawn, when this board shows a replay (then it is read-only)."""
        self.bind("<Configure>", lambda _e: self.redraw())
        self.bind("<Button-1>", lambda e: self._click(e, "left"))
        self.bind("<Button-2>", lambda e: self._click(e, "middle"))
        self.bind("<Button-3>", lambda e: self._click(e, "right"))

    # ---- what subclasses provide ------------------------------------------------------
    def cells(self) -> tuple[int, int]:
        raise NotImplementedError

    def draw(self, g: Geometry) -> None:
        raise NotImplementedError

    def click(self, x: int, y: int, button: Button) -> Request | None:
        raise NotImplementedError

    def room_event(self, msg: RoomEvent) -> None:
        """A room event arrived (already in :attr:`room`); most boards just redraw."""

    def tick(self) -> None:
        """Called twice a second: boards with something moving (a countdown) redraw."""

    # ---- shared -------------------------------------------------------------------------
    @property
    def view(self) -> Message:
        """The game view; before a game exists the room options give the board size."""
        state = self.room.state if self.room else None
        return {**state.options, **state.view} if state else {}

    def show(self, room: RoomCopy, me: str | None) -> None:
        """Take a new snapshot of the room and repaint, unless nothing the board shows
        changed: a chat line, a roster change or a clock must not redraw a 200 x 200
        field (a second of Tk's time each; a chatty room kept the client at 100% CPU)."""
        self.room, self.me = room, me
        inputs = board_inputs(room, me)
        if inputs == self._inputs:
            return
        self._inputs = inputs
        self.redraw()

    def show_replay(self, room: RoomCopy, frame: ReplayFrame) -> None:
        """Draw one step of a replay: ``room`` holds the frame's view, as a live room's
        would (:func:`gridhall.client.replays.frame_room`), and the game's board adds
        ``frame.decoration`` where it draws; a click is no move."""
        self.room, self.me, self.frame = room, frame.me, frame
        self._inputs = None
        self.redraw()

    def fit(self) -> Geometry:
        """The cells' layout for the canvas's size now."""
        cols, rows = self.cells()
        width = max(self.winfo_width(), 1)
        height = max(self.winfo_height(), 1)
        return Geometry.fit(cols, rows, width, height, self.MARGIN)

    def redraw(self) -> None:
        cols, rows = self.cells()
        self.geom = self.fit()
        self.delete("all")
        if cols and rows:
            self.draw(self.geom)

    def pixel_of(self, x: int, y: int) -> tuple[int, int]:
        """Canvas pixel at the centre of cell ``(x, y)`` (what a click there sends)."""
        px, py = self.geom.center(x, y)
        return int(px), int(py)

    def _click(self, event: tk.Event, mouse: str) -> None:
        cell = self.geom.cell_at(event.x, event.y, ring=self.RING)
        if cell is None or self.room is None or self.frame is not None:
            return
        request = self.click(cell[0], cell[1], MOUSE[mouse])
        if request is not None:
            self.on_intent(request)
        if self.REDRAW_ON_CLICK:
            self.redraw()

    def message(self, text: str, color: str = "#e8e8e8") -> None:
        """A centred line over the board (waiting, countdown …)."""
        w, h = self.winfo_width(), self.winfo_height()
        size = max(12, min(w, h) // 18)
        self.create_rectangle(
            0,
            h / 2 - size,
            w,
            h / 2 + size,
            fill="#000000",
            stipple="gray50",
            outline="",
            tags="message",
        )
        self.create_text(w / 2, h / 2, text=text, fill=color, font=font(size * 0.9), tags="message")


class UnknownCanvas(BoardCanvas):
    """A game this client has no board for (from a newer server): say so."""

    def cells(self) -> tuple[int, int]:
        return 1, 1

    def draw(self, g: Geometry) -> None:
        game = self.room.state.game if self.room and self.room.state else _("this game")
        self.message(_("This client cannot show {game} yet; chat works.", game=game))

    def click(self, x: int, y: int, button: Button) -> Request | None:
        return None
