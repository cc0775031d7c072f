"""The leaderboard screen: a game's players best first (or a co-op game's team
records), my rank, paging; enter opens a player's profile."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Footer, Label, Select

from gridhall.client.messages import Refused
from gridhall.client.ratings import (
    BOARD_GAMES,
    PAGE,
    RECORD_GAMES,
    board_request,
    my_rank,
    rank_rows,
    record_rows,
)
from gridhall.client.tui.asking import AskingScreen
from gridhall.client.tui.text import text, translate_bindings
from gridhall.client.views import titles
from gridhall.protocol.i18n import N_, _

from .header import TitleHeader

Message = dict[str, Any]


class LeaderboardScreen(AskingScreen):
    """One game's board; ``y`` jumps to my rank, ``t`` to the top, ``m`` pages on."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "mine", N_("My rank")),
        Binding("t", "top", N_("Top")),
        Binding("m", "more", N_("More")),
        Binding("escape", "close", N_("Close")),
    ]

    def __init__(self, game: str = "") -> None:
        super().__init__()
        translate_bindings(self)
        self.game = game or (BOARD_GAMES[0] if BOARD_GAMES else "")
        self.first_row = 0
        self.total = 0
        self._asked: int | None = None
        self._records: dict[str, int] = {}
        """Row key -> the game id of a record (it opens that game's replay)."""

    def compose(self) -> ComposeResult:
        yield TitleHeader()
        with Vertical(id="leaderboard-pane"):
            with Horizontal(id="leaderboard-bar"):
                names = titles()
                choices = [(names.get(g, g), g) for g in BOARD_GAMES]
                yield Select(choices, value=self.game, allow_blank=False, id="leaderboard-game")
                yield Label(id="leaderboard-rank")
            yield DataTable(id="leaderboard", cursor_type="row", zebra_stripes=True)
        yield Footer()

    async def on_mount(self) -> None:
        self.title = _("Leaderboard")
        self.query_one("#leaderboard", DataTable).focus()
        await self.load()

    async def load(self, *, around: str | None = None, offset: int = 0) -> None:
        table = self.query_one("#leaderboard", DataTable)
        table.clear(columns=True)
        columns: tuple[str, ...]
        if self.game in RECORD_GAMES:
            columns = (
                N_("Preset"),
                N_("No guessing"),
                N_("Best time"),
                N_("Team"),
                N_("Games"),
                N_("Wins"),
                N_("Win rate"),
            )
        else:
            columns = (N_("Rank"), N_("Name"), N_("Rating"), N_("Games"))
        for label in columns:
            table.add_column(_(label))
        self.query_one("#leaderboard-rank", Label).update(_("Loading…"))
        self._asked = await self.ask(board_request(self.game, around=around, offset=offset))

    def answer(self, kind: str, data: Message) -> None:
        if kind not in ("leaderboard", "records") or data.get("re") != self._asked:
            return
        table = self.query_one("#leaderboard", DataTable)
        table.clear()
        if kind == "records":
            self._records = {}
            for i, rec in enumerate(record_rows(list(data.get("records") or []))):
                key = f"record-{i}"
                if rec.game_id is not None:
                    self._records[key] = rec.game_id
                table.add_row(
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
                    ),
                    key=key,
                )
            self.query_one("#leaderboard-rank", Label).update(
                text(_("Team records: {count}", count=table.row_count))
            )
            return
        me = self.session.player
        offset = data.get("offset")
        self.first_row = offset if isinstance(offset, int) else 0
        total = data.get("total")
        self.total = total if isinstance(total, int) else 0
        mine = None
        for i, row in enumerate(rank_rows(data, me)):
            style = "bold reverse" if row.me else ""
            key = row.player if row.player and not row.bot else f"row-{i}"  # no profile
            table.add_row(
                *(text(c, style) for c in (row.rank, row.name, row.rating, row.games)), key=key
            )
            if row.me:
                mine = i
        if mine is not None:
            table.move_cursor(row=mine)
        self.query_one("#leaderboard-rank", Label).update(text(my_rank(data, me)))

    def refused(self, refusal: Refused) -> None:
        if refusal.request in ("leaderboard", "records"):
            self.query_one("#leaderboard-rank", Label).update(text(refusal.message))

    @on(Select.Changed, "#leaderboard-game")
    async def _game(self, event: Select.Changed) -> None:
        if self.is_mounted and event.value != self.game:
            self.game = str(event.value)
            await self.load()

    async def action_mine(self) -> None:
        if self.game in RECORD_GAMES:
            return
        await self.load(around=self.session.player)

    async def action_top(self) -> None:
        await self.load()

    async def action_more(self) -> None:
        if self.game in RECORD_GAMES or self.first_row + PAGE >= self.total:
            self.app.bell()
            return
        await self.load(offset=self.first_row + PAGE)

    @on(DataTable.RowSelected, "#leaderboard")
    def _open(self, event: DataTable.RowSelected) -> None:
        key = str(event.row_key.value)
        if key in self._records:
            from gridhall.client.tui.replay import ReplayScreen

            self.app.push_screen(ReplayScreen(self._records[key]))
        elif self.game not in RECORD_GAMES and not key.startswith("row-"):
            from gridhall.client.tui.profile import ProfileScreen

            self.app.push_screen(ProfileScreen(key))

    def action_close(self) -> None:
        self.dismiss()
