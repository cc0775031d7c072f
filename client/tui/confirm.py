"""A yes/no question before an action that gives up a game (resign, leave mid-game):
one key or click must never do that. The same questions as the browser's confirm bar
(:func:`gridhall.client.views.base.confirmation`)."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label

from gridhall.client.tui.text import translate_bindings
from gridhall.client.views.base import Confirm
from gridhall.protocol.i18n import N_, _


class ConfirmScreen(ModalScreen[bool]):
    """Returns True only for the confirming button; escape, or *Cancel*, is False.
    *Cancel* has the focus, so enter alone never confirms."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, ask: Confirm) -> None:
        super().__init__()
        translate_bindings(self)
        self.ask = ask

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog"):
            yield Label(self.ask.question, id="confirm-question")
            with Horizontal(classes="host-row"):
                yield Button(self.ask.yes, id="confirm-yes", variant="error")
                yield Button(_("Cancel"), id="confirm-no", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "confirm-yes")

    def action_cancel(self) -> None:
        self.dismiss(False)
