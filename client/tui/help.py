"""The help screen: every key and mouse action in one place."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

KEYS: list[tuple[str, str, str]] = [
    ("anywhere", "F1  ?", "this help"),
    ("anywhere", "ctrl+q", "quit"),
    ("lobby", "r", "refresh the room list (it also refreshes itself)"),
    ("lobby", "n", "create a room: game, preset, private + password"),
    ("lobby", "enter on a row", "join that room;  w watches it instead"),
    ("room", "arrows", "move the board cursor"),
    ("room", "enter  space  left click", "place a stone · reveal · select a tile"),
    ("minesweeper", "f  right click", "flag → question mark → clear"),
    ("minesweeper", "c  middle  left+right", "chord: open around a satisfied number"),
    ("minesweeper", "a  right click a number", "flag all hidden cells around it"),
    ("minesweeper", "h", "hint: a safe cell (or the best guess)"),
    ("link-match", "click two tiles", "link them;  escape drops the selection"),
    ("link-match", "g  h  s", "start (creator) · hint · shuffle"),
    ("gomoku", "d  t", "offer a draw · ask to take back your move"),
    ("room", "R", "resign"),
    ("room", "p  y  n", "after a game: play again · agree · decline"),
    ("room", "/  then enter", "chat;  escape returns to the board"),
    ("room", "ctrl+l", "leave the room"),
]


def keys_table() -> Table:
    table = Table(title="gridhall keys", expand=True, box=None, padding=(0, 2))
    table.add_column("where", style="dim")
    table.add_column("key / mouse", style="bold cyan", no_wrap=True)
    table.add_column("does")
    for row in KEYS:
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
