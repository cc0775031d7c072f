"""The help screen: every key and mouse action in one place."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

HELP = """\
# gridhall keys

| where | key / mouse | does |
|---|---|---|
| everywhere | `F1` or `?` | this help |
| everywhere | `ctrl+q` | quit |
| lobby | `r` | refresh the room list |
| lobby | `n` | create a room |
| lobby | `enter` on a row | join that room (`w` to watch) |
| room | arrows | move the board cursor |
| room | `enter` / `space` / left click | place a stone · reveal · select a tile |
| minesweeper | `f` / right click | flag → question mark → clear |
| minesweeper | `c` / middle click / left+right | chord (open around a satisfied number) |
| link-match | click two tiles | link them; `escape` drops the selection |
| link-match | `h` / `s` / `g` | hint · shuffle · start (creator) |
| gomoku | `d` / `t` | offer a draw · ask to take back |
| room | `R` | resign |
| room | `p` / `y` / `n` | play again · agree · decline |
| room | `tab` or `/` | type in the chat, `enter` sends, `escape` back to the board |
| room | `ctrl+l` | leave the room |
"""


class HelpScreen(ModalScreen[None]):
    """Lists keys; any of escape, q, F1 or ? closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,f1,question_mark", "dismiss", "Close")
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(HELP)
