"""The help screen: every key and mouse action in one place."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from gridhall.client.hostcommands import COMMANDS as HOST_COMMANDS
from gridhall.client.hostcommands import usage
from gridhall.client.tui.boards import board_for
from gridhall.client.tui.text import translate_bindings
from gridhall.client.views import VIEWS, view_for
from gridhall.client.views.base import AGAIN_KEYS, ANSWER_KEYS, COMMON_ACTIONS
from gridhall.protocol.i18n import N_, _

COMMON_KEYS: list[tuple[str, str, str]] = [
    (N_("anywhere"), "F1  ?", N_("this help")),
    (N_("anywhere"), "ctrl+q", N_("quit")),
    (N_("lobby"), "r", N_("refresh the room list (it also refreshes itself)")),
    (N_("lobby"), "n", N_("create a room: game, preset and options, private + password")),
    (N_("lobby"), N_("enter on a row"), N_("join that room;  w watches it instead")),
    (N_("lobby"), "h", N_("history: finished games (enter opens a replay)")),
    (N_("lobby"), "l  p", N_("leaderboard (y: my rank, m: more);  my profile")),
    (N_("replay"), "←  →  Home  End", N_("step back, forward, to the start, to the end")),
    (N_("replay"), "g", N_("go to a move (type its number, enter)")),
    (N_("replay"), N_("space  +  -"), N_("autoplay on or off, faster, slower")),
    (
        N_("replay"),
        "a  m",
        N_("analyse the game (if it can be);  the next move the analysis marked"),
    ),
    (N_("replay"), "c", N_("copy the link to the replay")),
    (N_("room"), N_("arrows"), N_("move the board cursor")),
]
"""(where, keys, what they do), marked for the catalogs and translated when shown."""
ROOM_KEYS: list[tuple[str, str, str]] = [
    (N_("room"), AGAIN_KEYS["again"], N_("after a game: ask for another")),
    (
        N_("room"),
        f"{ANSWER_KEYS[True]}  {ANSWER_KEYS[False]}",
        N_(
            "yes / no: accept or decline a draw or take-back offer; after a game, agree to or "
            "decline another"
        ),
    ),
    (N_("room"), N_("/  then enter"), N_("chat;  escape returns to the board")),
    (
        N_("host"),
        "H",
        N_(
            "host tools: remove, mute or unmute a member, hand the host role "
            "over, lock the room, the computer player (also a button)"
        ),
    ),
]
"""The room's own keys; the host's slash commands follow (:data:`HOST_COMMANDS`)."""


def keys() -> list[tuple[str, str, str]]:
    """Every key: the common ones, then each game's board and actions (from the
    registries), then the room's own."""
    rows = list(COMMON_KEYS)
    for name in VIEWS:
        view = view_for(name)
        where = view.heading
        rows += [(where, key, does) for key, does in board_for(name).KEYS_HELP]
        rows += [(where, a.keys, a.help_id) for a in view.actions]
    rows += [(N_("room"), a.keys, a.help_id) for a in COMMON_ACTIONS]
    rows += ROOM_KEYS
    return rows + [(N_("host"), usage(word), does) for word, (_args, does) in HOST_COMMANDS.items()]


def keys_table() -> Table:
    table = Table(title=_("gridhall keys"), expand=True, box=None, padding=(0, 2))
    table.add_column(_("where"), style="dim")
    table.add_column(_("key / mouse"), style="bold cyan", no_wrap=True)
    table.add_column(_("does"))
    for row in keys():
        table.add_row(*(_(cell) for cell in row))
    return table


class HelpScreen(ModalScreen[None]):
    """Lists keys; escape, q, F1 or ? closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,f1,question_mark", "dismiss", N_("Close"))
    ]

    def __init__(self) -> None:
        super().__init__()
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(keys_table())
            yield Static("\n" + _("Press escape to close."), classes="dim")
