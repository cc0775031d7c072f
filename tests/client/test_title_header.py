"""The screens' header survives its screen going while a title change is on its way
(``client/tui/header.py``): a stress run of the suite found Textual's stop the app."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets import Header

from gridhall.client.tui.header import TitleHeader


class Titled(Screen[None]):
    def __init__(self, header: type[Header]) -> None:
        super().__init__()
        self.header = header

    def compose(self) -> ComposeResult:
        yield self.header()


class Shows(App[None]):
    def __init__(self, header: type[Header]) -> None:
        super().__init__()
        self.header = header


async def test_a_title_change_after_the_header_s_screen_went_is_let_be() -> None:
    """(Textual's own :class:`Header` raises ``NoMatches`` here.)"""
    header = TitleHeader
    app = Shows(header)
    async with app.run_test() as pilot:
        for n in range(5):
            screen = Titled(header)
            await app.push_screen(screen)
            await pilot.pause()
            screen.query_one(header).remove_children()  # as when its screen is taken down
            app.sub_title = f"change {n}"  # the watchers run later, the title gone
            await pilot.pause()
            app.pop_screen()
            await pilot.pause()
