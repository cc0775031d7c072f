"""The create-room dialog: game, preset, private + password."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Select

from gridhall.client.views.common import GAME_TITLES
from gridhall.client.views.lobby import PRESETS


class CreateRoomScreen(ModalScreen[dict[str, Any] | None]):
    """Returns the ``create-room`` fields, or None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, game: str = "gomoku") -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        with Vertical(id="create-dialog"):
            yield Label("Create a room", classes="title")
            yield Label("Game")
            yield Select(
                [(title, key) for key, title in GAME_TITLES.items()],
                value=self.game,
                allow_blank=False,
                id="game",
            )
            yield Label("Preset")
            yield Select(self._presets(self.game), value=0, allow_blank=False, id="preset")
            yield Checkbox("Private (not listed; share the code)", id="private")
            yield Input(placeholder="password (optional)", password=True, id="room-password")
            with Horizontal(classes="buttons"):
                yield Button("Create", id="ok", variant="success")
                yield Button("Cancel", id="cancel")

    @staticmethod
    def _presets(game: str) -> list[tuple[str, int]]:
        return [(p.label, i) for i, p in enumerate(PRESETS[game])]

    @on(Select.Changed, "#game")
    def _game_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and event.value != self.game:
            self.game = event.value
            preset = self.query_one("#preset", Select)
            preset.set_options(self._presets(self.game))
            preset.value = 0

    def request(self) -> dict[str, Any]:
        """The ``create-room`` fields the dialog describes."""
        index = self.query_one("#preset", Select).value
        presets = PRESETS[self.game]
        chosen = presets[index if isinstance(index, int) and index < len(presets) else 0]
        fields: dict[str, Any] = {"game": self.game, "options": dict(chosen.options)}
        if self.query_one("#private", Checkbox).value:
            fields["private"] = True
        if password := self.query_one("#room-password", Input).value:
            fields["password"] = password
        return fields

    @on(Button.Pressed, "#ok")
    @on(Input.Submitted, "#room-password")
    def _ok(self) -> None:
        self.dismiss(self.request())

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
