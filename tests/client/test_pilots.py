"""Two Textual apps in one test: each pilot lays out and drives its own app (see
``tests/client/pilots.py`` for what went wrong when the last app entered was taken as
the active one for both)."""

from __future__ import annotations

from contextlib import AsyncExitStack

from textual.app import App, ComposeResult
from textual.widgets import Button, Label

from tests.client.pilots import run_app

SIZE = (40, 10)


class Bar(App[None]):
    """A label and a button that is hidden until shown."""

    def __init__(self) -> None:
        super().__init__()
        self.pressed = 0

    def compose(self) -> ComposeResult:
        yield Label("a bar")
        yield Button("Again", id="again")

    def on_mount(self) -> None:
        self.query_one("#again").display = False

    def on_button_pressed(self) -> None:
        self.pressed += 1


async def test_the_first_of_two_apps_is_updated_by_its_pilot_as_the_current_screen() -> None:
    async with AsyncExitStack() as stack:
        first, second = Bar(), Bar()
        pilot = await run_app(stack, first, SIZE)
        await run_app(stack, second, SIZE)  # Textual's active app is now this one
        screen = first.screen
        seen: list[bool] = []
        update = screen._on_timer_update

        def watched() -> None:  # what the screen's update finds: is it the current one?
            seen.append(screen.is_current)
            update()

        screen._on_timer_update = watched  # type: ignore[method-assign]
        button = screen.query_one("#again")
        button.display = True
        await pilot.pause()  # ends with the screen's update, run as its own app's
        assert seen and all(seen), seen  # as the second app's, it skipped the layout
        assert button.region.area
        await pilot.click("#again")
        assert (first.pressed, second.pressed) == (1, 0)
