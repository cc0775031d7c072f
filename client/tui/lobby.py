"""The lobby: a table of public rooms, create, join by code, watch."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Input, Label

from gridhall import protocol as p
from gridhall.client.history import HISTORY, RATINGS
from gridhall.client.tui.create import CreateRoomScreen
from gridhall.client.tui.text import text, translate_bindings
from gridhall.client.views.hosts import Note
from gridhall.client.views.lobby import room_rows
from gridhall.protocol.i18n import N_, _

from .header import TitleHeader

REFRESH_SECONDS = 5.0


class LobbyScreen(Screen[None]):
    """Lists rooms (auto-refreshing) and sends create/join requests."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "refresh", N_("Refresh")),
        Binding("n", "create", N_("New room")),
        Binding("w", "watch", N_("Watch")),
        Binding("h", "history", N_("History")),
        Binding("l", "leaderboard", N_("Leaderboard")),
        Binding("p", "profile", N_("My profile")),
    ]
    FEATURE_ACTIONS: ClassVar[dict[str, str]] = {
        "history": HISTORY,
        "leaderboard": RATINGS,
        "profile": RATINGS,
    }
    """Actions shown only when the server announces their feature."""

    def __init__(self) -> None:
        super().__init__()
        translate_bindings(self)
        self.said: Note | None = None
        """Why we are back in the lobby, as of a given time (None: nothing to say)."""

    def compose(self) -> ComposeResult:
        yield TitleHeader()
        with Vertical(id="lobby"):
            yield Label(_("Rooms on this server"), classes="title")
            yield Label(id="lobby-note")
            yield DataTable(id="rooms", cursor_type="row", zebra_stripes=True)
            with Horizontal(id="join-bar"):
                yield Input(placeholder=_("room code"), id="code", max_length=16)
                yield Input(placeholder=_("password (private rooms)"), id="password", password=True)
                yield Button(_("Join"), id="join", variant="primary")
                yield Button(_("Watch"), id="watch")
                yield Button(_("Create…"), id="create", variant="success")
                yield Button(_("Refresh"), id="refresh")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#lobby-note", Label).display = False
        table = self.query_one("#rooms", DataTable)
        for key, label in (
            ("room", N_("Code")),
            ("game", N_("Game")),
            ("options", N_("Options")),
            ("players", N_("Players")),
            ("spectators", N_("Watching")),
            ("status", N_("Status")),
        ):
            table.add_column(_(label), key=key)
        self.set_interval(REFRESH_SECONDS, self.action_refresh)
        self.set_interval(1.0, self._show_note)  # "(5 minutes from now)" as time passes
        self.action_refresh()

    def on_screen_resume(self) -> None:
        self.action_refresh()

    def note(self, said: Note | None) -> None:
        """Say why we are back in the lobby (removed by a room's host, a room closed)
        until the next room is joined; said again each second, as of then."""
        self.said = said
        self._show_note()

    def _show_note(self) -> None:
        label = self.query_one("#lobby-note", Label)
        said = self.said(self.app.session.clock()) if self.said is not None else ""  # type: ignore[attr-defined]
        label.update(text(said))
        label.display = bool(said)

    def on_screen_suspend(self) -> None:
        self.note(None)  # said once: a later return to the lobby has its own reason

    def action_refresh(self) -> None:
        session = self.app.session  # type: ignore[attr-defined]
        if session.connected and self.app.screen is self:
            session.submit(p.ListRooms())

    def show_rooms(self, rooms: list[dict[str, Any]]) -> None:
        """Replace the table's rows, keeping the cursor on the same room if possible."""
        table = self.query_one("#rooms", DataTable)
        keep = self._selected_code()
        table.clear()
        for row in room_rows(rooms):
            cells = (row.room, row.game, row.options, row.players, row.spectators, row.status)
            table.add_row(*(text(cell) for cell in cells), key=row.room)
        if keep is not None and keep in {r.get("room") for r in rooms}:
            table.move_cursor(row=table.get_row_index(keep))

    def _selected_code(self) -> str | None:
        table = self.query_one("#rooms", DataTable)
        if not table.row_count:
            return None
        return str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)

    @on(DataTable.RowHighlighted, "#rooms")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Moving through the table fills in the code; a refresh while the player is
        typing a code elsewhere must not overwrite it."""
        if event.row_key.value is not None and event.data_table.has_focus:
            self.query_one("#code", Input).value = str(event.row_key.value)

    @on(DataTable.RowSelected, "#rooms")
    def _selected(self, event: DataTable.RowSelected) -> None:
        self.join(str(event.row_key.value), "player")

    @on(Button.Pressed, "#join")
    @on(Input.Submitted, "#code,#password")
    def _join(self) -> None:
        self.join(self.query_one("#code", Input).value, "player")

    @on(Button.Pressed, "#watch")
    def action_watch(self) -> None:
        self.join(
            self.query_one("#code", Input).value or (self._selected_code() or ""), "spectator"
        )

    @on(Button.Pressed, "#refresh")
    def _refresh(self) -> None:
        self.action_refresh()

    @on(Button.Pressed, "#create")
    def action_create(self) -> None:
        self.app.push_screen(CreateRoomScreen(), self._created)

    def _created(self, request: dict[str, Any] | None) -> None:
        if request:
            self.app.session.submit("create-room", **request)  # type: ignore[attr-defined]

    def join(self, code: str, role: str) -> None:
        code = code.strip()
        if not code:
            self.notify(_("Type a room code or pick a room first."), severity="warning")
            return
        fields: dict[str, Any] = {"room": code, "role": role}
        if password := self.query_one("#password", Input).value:
            fields["password"] = password
        self.app.session.submit("join-room", **fields)  # type: ignore[attr-defined]

    # ---- finished games, ratings (issue 25) ------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """History and ratings keys only when the server offers them."""
        feature = self.FEATURE_ACTIONS.get(action)
        if feature is None:
            return True
        return feature in self.app.session.features  # type: ignore[attr-defined]

    def action_history(self) -> None:
        from gridhall.client.tui.history import HistoryScreen

        self.app.push_screen(HistoryScreen())

    def action_leaderboard(self) -> None:
        from gridhall.client.tui.leaderboard import LeaderboardScreen

        self.app.push_screen(LeaderboardScreen())

    def action_profile(self) -> None:
        from gridhall.client.tui.profile import ProfileScreen

        player = self.app.session.player  # type: ignore[attr-defined]
        if player is not None:
            self.app.push_screen(ProfileScreen(player))

    def open_replay(self, game_id: int) -> None:
        from gridhall.client.tui.replay import ReplayScreen

        self.app.push_screen(ReplayScreen(game_id))
