"""The screens' header: Textual's, without a race a busy machine shows.

Textual's :class:`~textual.widgets.Header` keeps its title by watching the app's and the
screen's titles; a watcher may run after the header's screen was taken down (a screen
left moments after it was shown, or the app quitting), when its title widget is gone.
Textual catches only ``NoScreen`` there, so ``NoMatches`` stopped the app."""

from __future__ import annotations

from textual.css.query import NoMatches
from textual.dom import NoScreen
from textual.events import Mount
from textual.widget import Widget
from textual.widgets import Header
from textual.widgets._header import HeaderTitle


class TitleHeader(Header):
    """:class:`Header` whose title watchers let a header already gone be."""

    def _on_mount(self, event: Mount) -> None:
        event.prevent_default()  # (Header's own would watch again, without the guard)
        Widget._on_mount(self, event)

        async def set_title() -> None:
            try:
                self.query_one(HeaderTitle).update(self.format_title())
            except (NoScreen, NoMatches):
                pass

        for source in (self.app, self.screen):
            self.watch(source, "title", set_title)
            self.watch(source, "sub_title", set_title)
