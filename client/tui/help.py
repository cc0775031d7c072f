"""The help screen: every key and mouse action in one place."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from gridhall.client.tui.boards import board_for
from gridhall.client.views import VIEWS
from gridhall.client.views.base import AGAIN_KEYS, COMMON_ACTIONS

COMMON_KEYS: list[tuple[str, str, str]] = [
    ("anywhere", "F1  ?", "this help"),
    ("anywhere", "ctrl+q", "quit"),
    ("lobby", "r", "refresh the room list (it also refreshes itself)"),
    ("lobby", "n", "create a room: game, preset and options, private + password"),
    ("lobby", "enter on a row", "join that room;  w watches it instead"),
    ("room", "arrows", "move the board cursor"),
]
ROOM_KEYS: list[tuple[str, str, str]] = [
    ("room", "  ".join(AGAIN_KEYS.values()), "after a game: play again · agree · decline"),
    ("room", "/  then enter", "chat;  escape returns to the board"),
]


def keys() -> list[tuple[str, str, str]]:
    """Every key: the common ones, then each game's board and actions (from the
    registries), then the room's own."""
    rows = list(COMMON_KEYS)
    for name, view in VIEWS.items():
        where = view.title.lower()
        rows += [(where, key, does) for key, does in board_for(name).KEYS_HELP]
        rows += [(where, a.keys, a.help) for a in view.actions]
    rows += [("room", a.keys, a.help) for a in COMMON_ACTIONS]
    return rows + ROOM_KEYS


def keys_table() -> Table:
    table = Table(title="gridhall keys", expand=True, box=None, padding=(0, 2))
    table.add_column("where", style="dim")
    table.add_column("key / mouse", style="bold cyan", no_wrap=True)
    table.add_column("does")
    for row in keys():
        table.add_row(*row)
    return table


class HelpScreen(ModalScreen[None]):
    """Lists keys; escape, q, F1 or ? closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,f1,question_mark", "dismiss", "Close")
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(keys_table())
            yield Static("\nPress escape to close.", classes="dim")
