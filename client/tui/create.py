"""The create-room dialog: a game, a preset to start from, the game's own options
form (rendered from its view class), private + password."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, Select

from gridhall.client.tui.text import translate_bindings
from gridhall.client.views import titles, view_for
from gridhall.client.views.form import (
    Choice,
    Field,
    FormError,
    Number,
    Value,
    is_active,
    options,
    with_preset,
)
from gridhall.protocol.i18n import N_, _


def field_widget(f: Field, value: Value) -> Widget:
    """The widget for one form field, showing ``value``."""
    wid = f"opt-{f.key}"
    if isinstance(f, Choice):
        index = next((i for i, (v, _) in enumerate(f.choices) if v == value), 0)
        choices = [(text, i) for i, (_, text) in enumerate(f.choices)]
        return Select(choices, value=index, allow_blank=False, compact=True, id=wid)
    if isinstance(f, Number):
        return Input(
            str(value),
            type="integer",
            compact=True,
            id=wid,
            tooltip=_("{lo} to {hi}", lo=f.lo, hi=f.hi),
        )
    return Checkbox(f.label, bool(value), compact=True, id=wid)


class CreateRoomScreen(ModalScreen[dict[str, Any] | None]):
    """Returns the ``create-room`` fields, or None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, game: str | None = None) -> None:
        super().__init__()
        translate_bindings(self)
        self.game = game or next(iter(titles()))
        self.values: dict[str, Any] = self._start_values()
        """What the form holds now (numbers as typed); widgets write into it."""

    def _start_values(self, preset: int = 0) -> dict[str, Any]:
        view = view_for(self.game)
        return with_preset(view.form, view.presets[preset])

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="create-dialog"):
            yield Label(_("Create a room"), classes="title")
            with Horizontal(classes="form-row"):
                yield Label(_("Game"), classes="form-label")
                yield Select(
                    [(title, key) for key, title in titles().items()],
                    value=self.game,
                    allow_blank=False,
                    compact=True,
                    id="game",
                )
            with Horizontal(classes="form-row", id="preset-row"):
                yield Label(_("Preset"), classes="form-label")
                yield self._preset_select()
            yield Vertical(*self._rows(), id="options")
            with Horizontal(classes="form-row"):  # a check box takes the whole row: its words
                yield Checkbox(  # are the label, and run long in some languages
                    _("Private (not listed; share the code)"), compact=True, id="private"
                )
            with Horizontal(classes="form-row"):
                yield Label(_("Password"), classes="form-label")
                yield Input(
                    placeholder=_("optional"), password=True, compact=True, id="room-password"
                )
            yield Label("", id="form-error")
            with Horizontal(classes="buttons"):
                yield Button(_("Create"), id="ok", variant="success")
                yield Button(_("Cancel"), id="cancel")

    def _preset_select(self) -> Select[int]:
        presets = [(preset.label, i) for i, preset in enumerate(view_for(self.game).presets)]
        return Select(presets, value=0, allow_blank=False, compact=True, id="preset")

    def _rows(self) -> list[Widget]:
        rows: list[Widget] = []
        for f in view_for(self.game).form:
            widget = field_widget(f, self.values.get(f.key))
            label = [Label(f.label, classes="form-label")] if isinstance(f, Choice | Number) else []
            row = Horizontal(*label, widget, classes="form-row", id=f"row-{f.key}")
            row.display = is_active(f, self.values)
            rows.append(row)
        return rows

    def _show_active(self) -> None:
        for f in view_for(self.game).form:
            for row in self.query(f"#row-{f.key}"):
                row.display = is_active(f, self.values)

    # ---- the player's changes ---------------------------------------------------------------
    @on(Select.Changed, "#game")
    async def _game_changed(self, event: Select.Changed) -> None:
        if not isinstance(event.value, str) or event.value == self.game:
            return
        self.game = event.value
        self.values = self._start_values()
        box = self.query_one("#options", Vertical)
        await box.remove_children()
        await box.mount_all(self._rows())
        # A new list of presets in a new widget: Select keeps showing the old label when
        # its options change but its value (the first, 0) does not.
        await self.query_one("#preset", Select).remove()
        await self.query_one("#preset-row", Horizontal).mount(self._preset_select())

    @on(Select.Changed, "#preset")
    def _preset_changed(self, event: Select.Changed) -> None:
        presets = view_for(self.game).presets
        if not isinstance(event.value, int) or event.value >= len(presets):
            return
        self.values = self._start_values(event.value)
        for f in view_for(self.game).form:  # show the preset's values in the widgets
            for widget in self.query(f"#opt-{f.key}"):
                value = self.values.get(f.key)
                if isinstance(f, Choice) and isinstance(widget, Select):
                    widget.value = next((i for i, (v, _) in enumerate(f.choices) if v == value), 0)
                elif isinstance(widget, Input):
                    widget.value = str(value)
                elif isinstance(widget, Checkbox):
                    widget.value = bool(value)
        self._show_active()

    def _field(self, widget_id: str | None) -> Field | None:
        key = (widget_id or "").removeprefix("opt-")
        return next((f for f in view_for(self.game).form if f.key == key), None)

    @on(Select.Changed, "#options Select")
    def _choice_changed(self, event: Select.Changed) -> None:
        f = self._field(event.select.id)
        if isinstance(f, Choice) and isinstance(event.value, int) and event.value < len(f.choices):
            self.values[f.key] = f.choices[event.value][0]
            self._show_active()

    @on(Input.Changed, "#options Input")
    def _number_changed(self, event: Input.Changed) -> None:
        f = self._field(event.input.id)
        if f is not None:
            self.values[f.key] = event.value

    @on(Checkbox.Changed, "#options Checkbox")
    def _toggle_changed(self, event: Checkbox.Changed) -> None:
        f = self._field(event.checkbox.id)
        if f is not None:
            self.values[f.key] = event.value

    # ---- the answer ------------------------------------------------------------------------
    def request(self) -> dict[str, Any]:
        """The ``create-room`` fields the dialog describes; FormError if a value is bad."""
        fields: dict[str, Any] = {
            "game": self.game,
            "options": options(view_for(self.game).form, self.values),
        }
        if self.query_one("#private", Checkbox).value:
            fields["private"] = True
        if password := self.query_one("#room-password", Input).value:
            fields["password"] = password
        return fields

    @on(Button.Pressed, "#ok")
    @on(Input.Submitted, "#room-password")
    def _ok(self) -> None:
        try:
            self.dismiss(self.request())
        except FormError as exc:
            # in the dialog, next to its buttons: a toast would cover them
            error = self.query_one("#form-error", Label)
            error.update(_("Check the options: {problem}", problem=exc))
            error.display = True

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
