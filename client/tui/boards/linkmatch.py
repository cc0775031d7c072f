"""The Link-match board in the terminal: tiles three columns wide on a ring of
empty cells, the selection framed, our last link's path shown for a moment; in a
replay one racer's board, the step's path on it when the step was theirs."""

from __future__ import annotations

import time
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

from gridhall import protocol as p
from gridhall.client.messages import RoomEvent
from gridhall.client.room import RoomCopy
from gridhall.client.tui.boards.base import Board, styled
from gridhall.client.views.base import Button
from gridhall.client.views.linkmatch import LinkMatchView, LinkSelection
from gridhall.protocol.i18n import N_


class LinkWidget(Board):
    """Tiles three columns wide on a ring of empty cells the link path may use."""

    PATH_SECONDS = 0.8
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "deselect", N_("Deselect"))]
    KEYS_HELP: ClassVar[list[tuple[str, str]]] = [
        (N_("click two tiles  enter"), N_("link them;  escape drops the selection")),
    ]
    game = LinkMatchView()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.selection = LinkSelection()
        self._path_until = 0.0

    def room_event(self, msg: RoomEvent) -> None:
        """Our own link: show its path for a moment."""
        if isinstance(msg, p.Moved) and msg.by == self.me and msg.move.get("action") == "link":
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

    def click(self, x: int, y: int, button: Button) -> None:
        if button == "primary" and self.room is not None:
            self.act(self.game.click(self.room, self.me, self.selection, x, y, self.clock()))
            self.refresh()

    def action_deselect(self) -> None:
        self.selection.selected = None
        self.refresh()

    def show(self, room: RoomCopy, me: str | None) -> None:
        self.selection.forget_if_gone(self.game.board(room, me, self.clock()))
        super().show(room, me)

    def render(self) -> Text:
        if self.room is None:
            return Text()
        board = self.game.board(self.room, self.me, self.clock())
        cursor = self.cursor if self.has_focus else None
        if self.frame is not None:
            show_path = self.frame.active
        else:
            show_path = time.monotonic() < self._path_until
        text = Text(no_wrap=True)
        for y in range(-1, board.height + 1):
            for x in range(-1, board.width + 1):
                look = board.look(
                    x, y, selected=self.selection.selected, cursor=cursor, show_path=show_path
                )
                text.append(look.glyph, styled(look))
            if y < board.height:
                text.append("\n")
        return text


BOARD = LinkWidget
