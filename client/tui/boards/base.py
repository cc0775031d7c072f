"""What every terminal board widget shares: the cursor, mouse buttons (left,
right, middle or left+right together = a chord) and posting requests.

Each game's widget renders its board model (from :mod:`client.views`) as Rich
``Text`` and posts the requests its view class makes of clicks and keys as
:class:`Board.Act` messages. Keys: arrows move the cursor, enter/space act, and
each widget adds its own (listed in its ``KEYS_HELP``). The same widget draws a
replay's frame (:meth:`Board.show_replay`), read-only, with what the game's replay
adds to the board.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Span, Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widget import Widget

from gridhall.client.messages import Request, RoomEvent
from gridhall.client.plain import plain
from gridhall.client.room import RoomCopy
from gridhall.client.tui.text import translate_bindings
from gridhall.client.views.base import BoardInputs, Button, board_inputs
from gridhall.client.views.common import Look, ReplayFrame
from gridhall.protocol.i18n import N_, _

LABEL = Style(color="#8a8f98")
CHORD_GRACE = 0.25
"""Seconds after a left+right chord during which the trailing clicks are ignored."""


def styled(look: Look) -> Style:
    """A view-model look as a Rich style."""
    return Style(color=look.fg, bgcolor=look.bg, bold=look.bold, underline=look.underline or None)


class Runs:
    """Text built as runs of one style (a 100 x 100 field is 20,000 pieces, but far
    fewer runs: one ``Span`` per run instead of one ``Text.append`` per piece)."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.spans: list[Span] = []
        self.at = 0
        self._start = 0
        self._style: Style | None = None

    def add(self, piece: str, style: Style) -> None:
        if style is not self._style:
            self._close()
            self._start, self._style = self.at, style
        self.parts.append(piece)
        self.at += len(piece)

    def _close(self) -> None:
        if self._style is not None and self.at > self._start:
            self.spans.append(Span(self._start, self.at, self._style))

    def text(self) -> Text:
        self._close()
        self._style = None
        return Text("".join(self.parts), spans=self.spans, no_wrap=True)


class Board(Widget, can_focus=True):
    """Common cursor, mouse-button tracking and request posting."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(0,-1)", N_("Up"), show=False),
        Binding("down", "cursor(0,1)", N_("Down"), show=False),
        Binding("left", "cursor(-1,0)", N_("Left"), show=False),
        Binding("right", "cursor(1,0)", N_("Right"), show=False),
        Binding("enter,space", "primary", N_("Play")),
    ]
    KEYS_HELP: ClassVar[list[tuple[str, str]]] = []
    """(keys / mouse, what it does) rows for the help screen (marked with ``N_``)."""

    class Act(Message):
        """The player asks for ``request`` (e.g. a ``move``)."""

        def __init__(self, request: Request) -> None:
            super().__init__()
            self.request = request

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        translate_bindings(self)
        self.room: RoomCopy | None = None
        self.me: str | None = None
        self.cursor = (0, 0)
        self._cursor_placed = False
        self._pressed: set[int] = set()
        self._chorded = False
        self._chord_released = 0.0
        self._inputs: BoardInputs | None = None
        self.clock: Callable[[], float] = time.time
        """The time the board's clocks show (the room screen gives the session's,
        which stands still while offline)."""
        self.frame: ReplayFrame | None = None
        """The replay frame drawn, when this widget shows a replay (then it is read-only)."""

    # -- geometry, provided by each game ----------------------------------------------
    def grid_size(self) -> tuple[int, int]:
        raise NotImplementedError

    def cell_at(self, col: int, row: int) -> tuple[int, int] | None:
        raise NotImplementedError

    def text_size(self) -> tuple[int, int]:
        raise NotImplementedError

    # -- state ------------------------------------------------------------------------
    def show(self, room: RoomCopy, me: str | None) -> None:
        """Redraw from the session's copy of the room, unless nothing the board shows
        changed: a chat line or a roster change must not re-render a 200 x 200 field
        (half a second each)."""
        self.room, self.me = room, me
        inputs = board_inputs(room, me)
        if inputs == self._inputs:
            return
        self._inputs = inputs
        w, h = self.grid_size()
        if not self._cursor_placed and w and h:  # start in the middle, where play begins
            self.cursor, self._cursor_placed = (w // 2, h // 2), True
        self.cursor = (min(self.cursor[0], max(w - 1, 0)), min(self.cursor[1], max(h - 1, 0)))
        cols, rows = self.text_size()
        self.styles.width = cols
        self.styles.height = rows
        self.refresh(layout=True)

    def show_replay(self, room: RoomCopy, frame: ReplayFrame) -> None:
        """Draw one step of a replay: ``room`` holds the frame's view, as a live room's
        would (:func:`gridhall.client.replays.frame_room`), and the game's widget adds
        ``frame.decoration`` where it draws. It takes no keys or clicks."""
        self.room, self.me, self.frame = room, frame.me, frame
        self.can_focus = False
        cols, rows = self.text_size()
        self.styles.width = cols
        self.styles.height = rows
        self.refresh(layout=True)

    def room_event(self, msg: RoomEvent) -> None:
        """A room event arrived (already in :attr:`room`); most boards just redraw."""

    @property
    def view(self) -> dict[str, Any]:
        """The game view; before a game exists (``waiting``) the room options stand in,
        so the empty board already has its size."""
        state = self.room.state if self.room else None
        return {**state.options, **state.view} if state else {}

    def act(self, request: Request | None) -> None:
        if request is not None and self.frame is None:  # a replay takes no moves
            self.post_message(self.Act(request))

    # -- input ------------------------------------------------------------------------
    def action_cursor(self, dx: int, dy: int) -> None:
        w, h = self.grid_size()
        x, y = self.cursor
        self.cursor = (max(0, min(w - 1, x + dx)), max(0, min(h - 1, y + dy)))
        self.refresh()

    def action_primary(self) -> None:
        self.click(*self.cursor, "primary")

    def click(self, x: int, y: int, button: Button) -> None:
        """A click (or its key) on a cell."""

    def _cell(self, event: events.MouseEvent) -> tuple[int, int] | None:
        offset = event.get_content_offset(self)
        return None if offset is None else self.cell_at(offset.x, offset.y)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self._pressed.add(event.button)
        if {1, 3} <= self._pressed and not self._chorded:
            cell = self._cell(event)
            if cell:
                self._chorded = True
                self.click(*cell, "chord")

    def on_mouse_up(self, event: events.MouseUp) -> None:
        if event.button:
            self._pressed.discard(event.button)
        else:  # some terminals report a release without saying which button
            self._pressed.clear()
        if self._chorded and not self._pressed:
            self._chorded = False
            self._chord_released = time.monotonic()

    def on_click(self, event: events.Click) -> None:
        self.focus()
        cell = self._cell(event)
        if self._chorded or time.monotonic() - self._chord_released < CHORD_GRACE:
            return  # the clicks that end a two-button chord are part of it
        if cell is None:
            return
        self.cursor = cell
        buttons: dict[int, Button] = {1: "primary", 2: "chord", 3: "secondary"}
        button = buttons.get(event.button)
        if button is not None:
            self.click(*cell, button)
        self.refresh()


class UnknownBoard(Board):
    """A game this client has no board for (from a newer server): say so."""

    def grid_size(self) -> tuple[int, int]:
        return 0, 0

    def text_size(self) -> tuple[int, int]:
        return 60, 3

    def cell_at(self, col: int, row: int) -> tuple[int, int] | None:
        return None

    def render(self) -> Text:
        game = self.room.state.game if self.room and self.room.state else _("this game")
        return Text(
            _("This client cannot show {game} yet.", game=plain(game))
            + "\n"
            + _("Chat works; update gridhall to play.")
        )
