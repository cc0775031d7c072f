"""A player's profile: ratings with their history, recent games (enter opens the
replay) and co-op team records."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Footer, Label

from gridhall.client.messages import Refused
from gridhall.client.ratings import profile_records, rating_lines, recent_rows
from gridhall.client.tui.asking import AskingScreen
from gridhall.client.tui.text import text, translate_bindings
from gridhall.client.views import titles
from gridhall.protocol.i18n import N_, _

from .header import TitleHeader

Message = dict[str, Any]


class ProfileScreen(AskingScreen):
    """Asks for ``player``'s profile and shows it in three tables."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", N_("Close"))]

    def __init__(self, player: str) -> None:
        super().__init__()
        translate_bindings(self)
        self.player_id = player
        self._asked: int | None = None

    def compose(self) -> ComposeResult:
        yield TitleHeader()
        with VerticalScroll(id="profile"):
            yield Label(id="profile-name", classes="title")
            yield Label(_("Ratings"), classes="title")
            yield DataTable(id="profile-ratings", cursor_type="none", show_cursor=False)
            yield Label(_("Recent games"), classes="title")
            yield DataTable(id="profile-recent", cursor_type="row", zebra_stripes=True)
            yield Label(_("Team records"), classes="title")
            yield DataTable(id="profile-records", cursor_type="none", show_cursor=False)
        yield Footer()

    async def on_mount(self) -> None:
        self.title = _("Profile")
        self.query_one("#profile-name", Label).update(_("Loading…"))
        for table_id, columns in (
            (
                "#profile-ratings",
                (
                    N_("Game"),
                    N_("Rating"),
                    N_("Games"),
                    N_("Wins"),
                    N_("History"),
                    N_("Last change"),
                ),
            ),
            (
                "#profile-recent",
                (N_("Game id"), N_("Game"), N_("Players"), N_("Result"), N_("Ended")),
            ),
            (
                "#profile-records",
                (
                    N_("Preset"),
                    N_("No guessing"),
                    N_("Best time"),
                    N_("Team"),
                    N_("Games"),
                    N_("Wins"),
                    N_("Win rate"),
                ),
            ),
        ):
            table = self.query_one(table_id, DataTable)
            for label in columns:
                table.add_column(_(label))
        self.query_one("#profile-recent", DataTable).focus()
        self._asked = await self.ask({"type": "get-profile", "player": self.player_id})

    def answer(self, kind: str, data: Message) -> None:
        if kind != "player-profile" or data.get("re") != self._asked:
            return
        me = self.session.player
        name = str(data.get("name") or self.player_id)
        if self.player_id == me:
            name += " " + _("(you)")
        self.query_one("#profile-name", Label).update(text(name))
        names = titles()
        ratings = self.query_one("#profile-ratings", DataTable)
        ratings.clear()
        for line in rating_lines(data):
            ratings.add_row(
                *(
                    text(c)
                    for c in (
                        names.get(line.game, line.game),
                        line.rating,
                        line.games,
                        line.wins,
                        line.trend,
                        line.last_change,
                    )
                )
            )
        recent = self.query_one("#profile-recent", DataTable)
        recent.clear()
        for row in recent_rows(data, me):
            recent.add_row(
                *(
                    text(c)
                    for c in (str(row.game_id), row.title, row.players, row.result, row.when)
                ),
                key=str(row.game_id),
            )
        records = self.query_one("#profile-records", DataTable)
        records.clear()
        for rec in profile_records(data):
            records.add_row(
                *(
                    text(c)
                    for c in (
                        rec.preset,
                        rec.no_guess,
                        rec.best,
                        rec.team,
                        rec.games,
                        rec.wins,
                        rec.win_rate,
                    )
                )
            )

    def refused(self, refusal: Refused) -> None:
        if refusal.request == "get-profile":
            self.query_one("#profile-name", Label).update(text(refusal.message))

    @on(DataTable.RowSelected, "#profile-recent")
    def _open(self, event: DataTable.RowSelected) -> None:
        from gridhall.client.tui.replay import ReplayScreen

        if event.row_key.value is not None:
            self.app.push_screen(ReplayScreen(int(event.row_key.value)))

    def action_close(self) -> None:
        self.dismiss()
