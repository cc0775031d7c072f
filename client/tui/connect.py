"""The connect screen: the servers found on this network, or an address typed in.

Shown by ``gridhall`` when no ``--server`` is given. It runs as its own small
app before the main one, so the main app always starts with a server chosen.
The list updates while it is open (servers come, go and change room counts).
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Footer, Input, Label, OptionList
from textual.widgets.option_list import Option

from gridhall.client.discovery import Browser, FoundServer, search_text
from gridhall.client.tui.text import PlainNotify, text, translate_bindings
from gridhall.protocol.address import AddressError, server_url
from gridhall.protocol.i18n import N_, _

from .header import TitleHeader


class ConnectApp(PlainNotify[str | None]):
    """Returns the server to join (``HOST:PORT`` or what was typed), or None on quit."""

    CSS_PATH = "gridhall.tcss"
    TITLE = "gridhall"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q,escape", "quit_app", N_("Quit"), priority=True),
    ]

    def __init__(self, default: str = "", browser: Browser | None = None) -> None:
        super().__init__()
        translate_bindings(self)
        self.sub_title = _("choose a server")
        self.default = default
        self.browser = browser or Browser()
        self.found: list[FoundServer] = []

    def compose(self) -> ComposeResult:
        yield TitleHeader()
        with Vertical(id="connect"):
            yield Label(_("Servers on this network"), classes="title")
            yield OptionList(id="found")
            yield Label(text(search_text([], None)), id="found-note", classes="dim")
            with Horizontal(id="address-bar"):
                yield Label(_("Or type an address"), classes="form-label")
                yield Input(self.default, placeholder="HOST[:PORT]", id="address")
                yield Button(_("Connect"), id="connect-button", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        self.browser.on_change = self._from_browser
        self.browser.start()
        self.query_one("#found", OptionList).focus()

    async def on_unmount(self) -> None:
        self.browser.on_change = None
        self.browser.stop()

    def _from_browser(self, servers: list[FoundServer]) -> None:
        """The browser's thread: hand the list to the app's loop."""
        try:
            self.call_from_thread(self.show_servers, servers)
        except RuntimeError:
            pass  # the app is closing

    def show_servers(self, servers: list[FoundServer]) -> None:
        """Replace the list, keeping the highlighted server highlighted."""
        found = self.query_one("#found", OptionList)
        keep = (
            self.found[found.highlighted].key
            if found.highlighted is not None and found.highlighted < len(self.found)
            else None
        )
        self.found = list(servers)
        found.clear_options()
        found.add_options(
            [Option(text(s.describe()), id=s.key, disabled=not s.compatible) for s in self.found]
        )
        keys = [s.key for s in self.found]
        if keep in keys:
            found.highlighted = keys.index(keep)
        elif self.found:
            found.highlighted = 0
        self.query_one("#found-note", Label).update(
            text(search_text(self.found, self.browser.error))
        )

    @on(OptionList.OptionSelected, "#found")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        chosen = next((s for s in self.found if s.key == event.option.id), None)
        if chosen is not None:
            self.exit(chosen.address)

    @on(Input.Submitted, "#address")
    @on(Button.Pressed, "#connect-button")
    def _typed(self) -> None:
        text = self.query_one("#address", Input).value.strip()
        try:
            server_url(text)
        except AddressError as exc:
            self.notify(str(exc), severity="error")
            return
        self.exit(text or self.default)

    def action_quit_app(self) -> None:
        self.exit(None)
