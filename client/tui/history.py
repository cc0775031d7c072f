"""The history screen: finished games, newest first, filtered by game and player
name, a page at a time; enter opens a game's replay."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.widgets import Button, DataTable, Footer, Input, Label, Select

from gridhall.client.history import Filters, GamePages, game_row
from gridhall.client.messages import Refused
from gridhall.client.tui.asking import AskingScreen
from gridhall.client.tui.text import text, translate_bindings
from gridhall.client.views import titles
from gridhall.protocol.i18n import N_, _

from .header import TitleHeader

Message = dict[str, Any]
ALL = "*"


class HistoryScreen(AskingScreen):
    """A table of finished games; ``m`` (or the button) lists the next page."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("m", "more", N_("More")),
        Binding("r", "reload", N_("Reload")),
        Binding("escape", "close", N_("Close")),
    ]

    def __init__(self, name: str = "") -> None:
        super().__init__()
        translate_bindings(self)
        self.pages = GamePages()
        self._first_name = name

    def compose(self) -> ComposeResult:
        yield TitleHeader()
        with Vertical(id="history"):
            yield Label(_("Finished games, newest first"), classes="title")
            with Horizontal(id="history-filters"):
                choices = [(_("All games"), ALL), *((t, g) for g, t in titles().items())]
                yield Select(choices, value=ALL, allow_blank=False, id="history-game")
                yield Input(
                    self._first_name, placeholder=_("player name"), id="history-name", max_length=32
                )
                yield Button(_("Search"), id="history-search", variant="primary")
                yield Button(_("More"), id="history-more")
            yield DataTable(id="games", cursor_type="row", zebra_stripes=True)
            yield Label(id="history-status")
        yield Footer()

    def on_mount(self) -> None:
        self.title = _("History")
        # After the first refresh: under load the screen's composed children may not
        # all be attached yet when Mount arrives (seen as NoMatches on a loaded machine).
        self.call_after_refresh(self._first_load)

    async def _first_load(self) -> None:
        try:
            table = self.query_one("#games", DataTable)
        except NoMatches:  # closed before it was shown
            return
        for key, label in (
            ("id", N_("Game id")),
            ("game", N_("Game")),
            ("players", N_("Players")),
            ("result", N_("Result")),
            ("ended", N_("Ended")),
            ("moves", N_("Moves")),
            ("tags", N_("Notes")),
        ):
            table.add_column(_(label), key=key)
        table.focus()
        await self.action_reload()

    def filters(self) -> Filters:
        game = self.query_one("#history-game", Select).value
        return Filters(
            game=None if game in (ALL, Select.BLANK) else str(game),
            name=self.query_one("#history-name", Input).value,
        )

    async def action_reload(self) -> None:
        self.query_one("#games", DataTable).clear()
        self.pages.sent(await self.ask(self.pages.first(self.filters())))
        self._status()

    async def action_more(self) -> None:
        request = self.pages.more()
        if request is None:
            self.app.bell()
            return
        self.pages.sent(await self.ask(request))
        self._status()

    def answer(self, kind: str, data: Message) -> None:
        if kind != "games":
            return
        new = self.pages.take(data)
        if new is None:
            return
        table = self.query_one("#games", DataTable)
        me = self.session.player
        for summary in new:
            row = game_row(summary, me)
            cells = (
                str(row.game_id),
                row.title,
                row.players,
                row.result,
                row.when,
                row.moves,
                row.tags,
            )
            table.add_row(*(text(c) for c in cells), key=str(row.game_id))
        self._status()

    def refused(self, refusal: Refused) -> None:
        if refusal.request == "list-games":
            self.pages.refused()
            self._status(refusal.message)

    def _status(self, problem: str = "") -> None:
        pages = self.pages
        if problem:
            said = problem
        elif pages.loading:
            said = _("Loading…")
        elif not pages.games:
            said = _("No finished games match.")
        elif pages.more_left:
            said = _("{count} games shown; m lists more.", count=len(pages.games))
        else:
            said = _("{count} games shown; that is all.", count=len(pages.games))
        self.query_one("#history-status", Label).update(text(said))
        self.query_one("#history-more", Button).disabled = not pages.more_left

    @on(Select.Changed, "#history-game")
    async def _game_changed(self) -> None:
        if self.is_mounted and self.filters() != self.pages.filters:
            await self.action_reload()

    @on(Input.Submitted, "#history-name")
    @on(Button.Pressed, "#history-search")
    async def _search(self) -> None:
        await self.action_reload()

    @on(Button.Pressed, "#history-more")
    async def _more(self) -> None:
        await self.action_more()

    @on(DataTable.RowSelected, "#games")
    def _open(self, event: DataTable.RowSelected) -> None:
        from gridhall.client.tui.replay import ReplayScreen

        if event.row_key.value is not None:
            self.app.push_screen(ReplayScreen(int(event.row_key.value)))

    def action_close(self) -> None:
        self.dismiss()
