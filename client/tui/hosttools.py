"""The host's tools as a dialog (key ``H`` or the "Host tools" button in a room):
pick a member, then remove, mute, unmute or make them host; lock or unlock the
room; seat, swap or remove the computer player between games. The same requests
as the slash commands typed in the chat line (:mod:`client.hostcommands`)."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, OptionList
from textual.widgets.option_list import Option

from gridhall import protocol as p
from gridhall.client.hosting import KICK_CHOICES, LEVELS, Member, computer, request
from gridhall.client.tui.text import text, translate_bindings
from gridhall.client.views.hosts import level_word, member_label
from gridhall.protocol.i18n import N_, _


class HostToolsScreen(ModalScreen[p.Host | None]):
    """Returns the ``host`` request to send, or None when closed."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss", N_("Close"))]

    def __init__(self, state: p.State, others: list[Member], computers: bool) -> None:
        super().__init__()
        translate_bindings(self)
        self.state = state
        self.others = others
        """The members this host may act on (everyone but us)."""
        self.computers = computers
        """The game can seat a computer player (and no game is under way)."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="host-dialog"):
            yield Label(_("Host tools"), classes="title")
            yield OptionList(
                *[
                    Option(text(member_label(m)), id=m.player or None, disabled=m.player is None)
                    for m in self.others
                ],
                id="host-members",
            )
            with Horizontal(classes="host-row"):
                for minutes in KICK_CHOICES:
                    yield Button(
                        _("Remove {n} min", n=minutes),
                        id=f"kick-{minutes}",
                        variant="error",
                        compact=True,
                    )
            with Horizontal(classes="host-row"):
                yield Button(_("Mute"), id="mute", compact=True)
                yield Button(_("Unmute"), id="unmute", compact=True)
                yield Button(_("Make host"), id="hand-over", compact=True)
            with Horizontal(classes="host-row"):
                locked = self.state.locked
                yield Button(
                    _("Unlock the room") if locked else _("Lock the room"),
                    id="unlock" if locked else "lock",
                    compact=True,
                )
            if self.computers:  # a row of its own: four buttons do not fit beside the lock
                with Horizontal(classes="host-row"):
                    for level in LEVELS:
                        yield Button(
                            _("Computer: {level}", level=level_word(level)),
                            id=f"computer-{level}",
                            compact=True,
                        )
                    if computer(self.state) is not None:
                        yield Button(_("Remove the computer"), id="computer-off", compact=True)
            yield Label("", id="host-error")
            with Horizontal(classes="buttons"):
                yield Button(_("Close"), id="host-close")

    def _chosen(self) -> str | None:
        members = self.query_one("#host-members", OptionList)
        index = members.highlighted
        if index is None:
            return None
        return members.get_option_at_index(index).id

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        key = event.button.id or ""
        if key == "host-close":
            self.dismiss(None)
        elif key in ("lock", "unlock"):
            self.dismiss(request(key))
        elif key == "computer-off":
            bot = computer(self.state)
            self.dismiss(request("kick", bot.player) if bot is not None else None)
        elif key.startswith("computer-"):
            self.dismiss(request("computer", level=key.removeprefix("computer-")))
        else:
            player = self._chosen()
            if player is None:
                self.query_one("#host-error", Label).update(_("Pick a member first."))
                return
            if key.startswith("kick-"):
                self.dismiss(request("kick", player, int(key.removeprefix("kick-"))))
            else:
                self.dismiss(request(key, player))
