"""Board widgets: each renders its game's view model as Rich ``Text`` and turns
mouse clicks and keys into intents (posted as :class:`Board.Act` messages).

Mouse: left = place / reveal / select, right = cycle mark, middle or left+right
together = chord. Keys: arrows move the cursor, enter/space act, ``f`` marks,
``c`` chords.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widget import Widget

from gridhall.client.session import RoomCopy
from gridhall.client.views.common import Look
from gridhall.client.views.gomoku import GomokuBoard
from gridhall.client.views.linkmatch import LinkBoard
from gridhall.client.views.minesweeper import MinesBoard, next_mark

LABEL = Style(color="#8a8f98")
CHORD_GRACE = 0.25
"""Seconds after a left+right chord during which the trailing clicks are ignored."""


def styled(look: Look) -> Style:
    """A view-model look as a Rich style."""
    return Style(color=look.fg, bgcolor=look.bg, bold=look.bold, underline=look.underline or None)


class Board(Widget, can_focus=True):
    """Common cursor, mouse-button tracking and intent posting."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(0,-1)", "Up", show=False),
        Binding("down", "cursor(0,1)", "Down", show=False),
        Binding("left", "cursor(-1,0)", "Left", show=False),
        Binding("right", "cursor(1,0)", "Right", show=False),
        Binding("enter,space", "primary", "Play"),
    ]

    class Act(Message):
        """The player asks for ``type`` with ``fields`` (e.g. a ``move``)."""

        def __init__(self, type_: str, **fields: Any) -> None:
            super().__init__()
            self.type = type_
            self.fields = fields

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.copy: RoomCopy | None = None
        self.me: str | None = None
        self.cursor = (0, 0)
        self._cursor_placed = False
        self._pressed: set[int] = set()
        self._chorded = False
        self._chord_released = 0.0

    # -- geometry, provided by each game ----------------------------------------------
    def grid_size(self) -> tuple[int, int]:
        raise NotImplementedError

    def cell_at(self, col: int, row: int) -> tuple[int, int] | None:
        raise NotImplementedError

    def text_size(self) -> tuple[int, int]:
        raise NotImplementedError

    # -- state ------------------------------------------------------------------------
    def show(self, copy: RoomCopy, me: str | None) -> None:
        """Redraw from the session's copy of the room."""
        self.copy, self.me = copy, me
        w, h = self.grid_size()
        if not self._cursor_placed and w and h:  # start in the middle, where play begins
            self.cursor, self._cursor_placed = (w // 2, h // 2), True
        self.cursor = (min(self.cursor[0], max(w - 1, 0)), min(self.cursor[1], max(h - 1, 0)))
        cols, rows = self.text_size()
        self.styles.width = cols
        self.styles.height = rows
        self.refresh(layout=True)

    @property
    def view(self) -> dict[str, Any]:
        """The game view; before a game exists (``waiting``) the room options stand in,
        so the empty board already has its size."""
        if self.copy is None:
            return {}
        options = self.copy.state.get("options") or {}
        return {**options, **(self.copy.state.get("view") or {})}

    def act(self, type_: str, **fields: Any) -> None:
        self.post_message(self.Act(type_, **fields))

    def move(self, **move: Any) -> None:
        self.act("move", move=move)

    # -- input ------------------------------------------------------------------------
    def action_cursor(self, dx: int, dy: int) -> None:
        w, h = self.grid_size()
        x, y = self.cursor
        self.cursor = (max(0, min(w - 1, x + dx)), max(0, min(h - 1, y + dy)))
        self.refresh()

    def action_primary(self) -> None:
        self.primary(*self.cursor)

    def primary(self, x: int, y: int) -> None:
        """Left click / enter on a cell."""

    def secondary(self, x: int, y: int) -> None:
        """Right click / ``f`` on a cell."""

    def chord(self, x: int, y: int) -> None:
        """Middle click, left+right, or ``c`` on a cell."""

    def _cell(self, event: events.MouseEvent) -> tuple[int, int] | None:
        offset = event.get_content_offset(self)
        return None if offset is None else self.cell_at(offset.x, offset.y)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self._pressed.add(event.button)
        if {1, 3} <= self._pressed and not self._chorded:
            cell = self._cell(event)
            if cell:
                self._chorded = True
                self.chord(*cell)

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
        if event.button == 1:
            self.primary(*cell)
        elif event.button == 2:
            self.chord(*cell)
        elif event.button == 3:
            self.secondary(*cell)
        self.refresh()


class GomokuWidget(Board):
    """A wooden board with lettered columns, numbered rows and the last stone marked."""

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

    def primary(self, x: int, y: int) -> None:
        self.move(x=x, y=y)

    def render(self) -> Text:
        board = GomokuBoard.from_view(self.view)
        cursor = self.cursor if self.has_focus else None
        labels = "   " + " ".join(board.column_label(x) for x in range(board.size))
        text = Text(labels + "\n", style=LABEL, no_wrap=True)
        for y in range(board.size):
            text.append(f"{board.row_label(y):>2} ", LABEL)
            for x in range(board.size):
                text.append(board.look(x, y, cursor).glyph, styled(board.look(x, y, cursor)))
                if x < board.size - 1:
                    text.append("─", styled(board.joint(x, y)))
            text.append(f" {board.row_label(y)}\n", LABEL)
        text.append(labels, LABEL)
        return text


class MinesWidget(Board):
    """Hidden cells shaded, numbers in classic colours, others' last clicks underlined."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f", "mark", "Flag/?"),
        Binding("c", "chord_key", "Chord"),
        Binding("a", "flag_around", "Flag around", show=False),
    ]

    def board(self) -> MinesBoard:
        board = MinesBoard.from_view(self.view)
        if self.copy is not None:
            board.with_others(self.copy.state, self.copy.last_actions, self.me)
        return board

    def grid_size(self) -> tuple[int, int]:
        return int(self.view.get("width") or 0), int(self.view.get("height") or 0)

    def text_size(self) -> tuple[int, int]:
        w, h = self.grid_size()
        return 2 * w, h

    def cell_at(self, col: int, row: int) -> tuple[int, int] | None:
        w, h = self.grid_size()
        x = col // 2
        return (x, row) if 0 <= x < w and 0 <= row < h else None

    def primary(self, x: int, y: int) -> None:
        board = MinesBoard.from_view(self.view)
        ch = board.char(x, y)
        if ch in "12345678":
            if board.satisfied(x, y):  # a click on a satisfied number chords, as is usual
                self.move(action="chord", x=x, y=y)
        elif ch in "#?":
            self.move(action="reveal", x=x, y=y)

    def secondary(self, x: int, y: int) -> None:
        ch = MinesBoard.from_view(self.view).char(x, y)
        if ch in "#F?":
            self.move(action="mark", x=x, y=y, mark=next_mark(ch))
        elif ch in "12345678":
            self.move(action="flag-around", x=x, y=y)  # quick flag on a number

    def chord(self, x: int, y: int) -> None:
        self.move(action="chord", x=x, y=y)

    def action_mark(self) -> None:
        self.secondary(*self.cursor)

    def action_chord_key(self) -> None:
        self.chord(*self.cursor)

    def action_flag_around(self) -> None:
        self.move(action="flag-around", x=self.cursor[0], y=self.cursor[1])

    def render(self) -> Text:
        board = self.board()
        cursor = self.cursor if self.has_focus else None
        text = Text(no_wrap=True)
        for y in range(board.height):
            for x in range(board.width):
                look = board.look(x, y, cursor)
                mark = board.mark_color(x, y)
                text.append(look.glyph, styled(look))
                pad = Style(bgcolor=mark or look.bg)
                text.append(" ", pad)
            if y < board.height - 1:
                text.append("\n")
        return text


class LinkWidget(Board):
    """Tiles three columns wide on a ring of empty cells the link path may use."""

    PATH_SECONDS = 0.8

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "deselect", "Deselect")]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.selected: tuple[int, int] | None = None
        self._path_until = 0.0

    def flash_path(self) -> None:
        """Show the last link's path for a moment."""
        self._path_until = time.monotonic() + self.PATH_SECONDS
        self.set_timer(self.PATH_SECONDS + 0.05, self.refresh)
        self.refresh()

    def grid_size(self) -> tuple[int, int]:
        return int(self.view.get("width") or 0), int(self.view.get("height") or 0)

    def text_size(self) -> tuple[int, int]:
        w, h = self.grid_size()
        return 3 * (w + 2), h + 2

    def cell_at(self, col: int, row: int) -> tuple[int, int] | None:
        w, h = self.grid_size()
        x, y = col // 3 - 1, row - 1
        return (x, y) if 0 <= x < w and 0 <= y < h else None

    def primary(self, x: int, y: int) -> None:
        board = LinkBoard.from_view(self.view)
        if not board.kind(x, y):
            self.selected = None
        elif self.selected is None or self.selected == (x, y):
            self.selected = None if self.selected == (x, y) else (x, y)
        else:
            a, self.selected = self.selected, None
            self.move(action="link", a=list(a), b=[x, y])
        self.refresh()

    def action_deselect(self) -> None:
        self.selected = None
        self.refresh()

    def show(self, copy: RoomCopy, me: str | None) -> None:
        if self.selected and not LinkBoard.from_view(copy.state.get("view") or {}).kind(
            *self.selected
        ):
            self.selected = None
        super().show(copy, me)

    def render(self) -> Text:
        board = LinkBoard.from_view(self.view)
        cursor = self.cursor if self.has_focus else None
        show_path = time.monotonic() < self._path_until
        text = Text(no_wrap=True)
        for y in range(-1, board.height + 1):
            for x in range(-1, board.width + 1):
                look = board.look(x, y, selected=self.selected, cursor=cursor, show_path=show_path)
                text.append(look.glyph, styled(look))
            if y < board.height:
                text.append("\n")
        return text


BOARDS: dict[str, type[Board]] = {
    "gomoku": GomokuWidget,
    "minesweeper": MinesWidget,
    "linkmatch": LinkWidget,
}
