"""The link dialog of the terminal client: show a code that carries this player to
another device, or type the code another device shows (``client/linking.py``); and
this player's devices, the selected one signed out with a button
(``client/devices.py``)."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Input, Label

from gridhall import protocol as p
from gridhall.client.devices import FEATURE as DEVICES
from gridhall.client.devices import device_rows
from gridhall.client.linking import FEATURE, code_lines, parse_code
from gridhall.client.session import Session
from gridhall.client.tui.text import text, translate_bindings
from gridhall.protocol.i18n import N_, _


class LinkScreen(ModalScreen[None]):
    """ "Use on another device" (ask for a code and show it) and "I have a code"."""

    DEFAULT_CSS = """
    LinkScreen { align: center middle; }
    #link-dialog { width: 64; height: auto; padding: 1 2; border: thick $accent;
                   background: $surface; }
    #link-dialog .title { margin-bottom: 1; }
    #link-dialog Label { width: 100%; }
    #link-code { text-style: bold; color: $success; margin: 1 0 0 0; }
    #link-error { color: $error; }
    #link-dialog Horizontal { height: auto; margin-top: 1; }
    #link-dialog Input { width: 1fr; }
    #devices { height: auto; max-height: 8; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", N_("Close"))]

    def __init__(self, session: Session) -> None:
        super().__init__()
        translate_bindings(self)
        self.session = session

    def compose(self) -> ComposeResult:
        offered = FEATURE in self.session.features
        with Vertical(id="link-dialog"):
            yield Label(_("Use on another device"), classes="title")
            if offered:
                yield Button(_("Show a code"), id="link-show", variant="primary")
            else:
                yield Label(_("This server does not give link codes."))
            yield Label("", id="link-code")
            yield Label("", id="link-info")
            yield Label(_("I have a code"), classes="title")
            with Horizontal():
                yield Input(placeholder="K7MQ-2D9X", id="link-input", max_length=16)
                yield Button(_("Use this code"), id="link-use", variant="success")
            yield Label("", id="link-error")
            if DEVICES in self.session.features:
                yield Label(_("Your devices"), classes="title")
                yield DataTable(id="devices", cursor_type="row", zebra_stripes=True)
                yield Button(_("Sign out the selected device"), id="device-sign-out")
            yield Button(_("Close"), id="link-close")

    def on_mount(self) -> None:
        if DEVICES in self.session.features:
            table = self.query_one("#devices", DataTable)
            table.add_column(_("Device"), key="name")
            table.add_column(_("Last seen"), key="seen")
            self.session.list_devices()

    def show_devices(self, answer: p.Devices) -> None:
        """The server's list of this player's devices (this one marked ★)."""
        table = self.query_one("#devices", DataTable)
        table.clear()
        for row in device_rows(answer):
            name = row.name + (" ★" if row.current else "")
            table.add_row(text(name), text(row.seen), key=row.device)

    @on(Button.Pressed, "#device-sign-out")
    def _sign_out(self) -> None:
        table = self.query_one("#devices", DataTable)
        if table.row_count:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
            if key is not None:
                self.session.sign_out_device(str(key))

    @on(Button.Pressed, "#link-show")
    def _ask(self) -> None:
        self.session.request_link_code()

    def show(self, issued: p.LinkCodeIssued) -> None:
        """The server's answer: the code, and how long it works."""
        self.query_one("#link-code", Label).update(text(issued.code))
        self.query_one("#link-info", Label).update(
            text("\n".join(code_lines(issued.code, issued.expires_at)))
        )

    @on(Button.Pressed, "#link-use")
    @on(Input.Submitted, "#link-input")
    def _use(self) -> None:
        error = self.query_one("#link-error", Label)
        try:
            code = parse_code(self.query_one("#link-input", Input).value)
        except ValueError as exc:
            error.update(text(str(exc)))
            return
        error.update("")
        self.session.link_with(code)
        self.dismiss(None)

    @on(Button.Pressed, "#link-close")
    def action_close(self) -> None:
        self.dismiss(None)
