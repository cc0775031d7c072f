"""The Textual app: owns the :class:`Session`, routes its messages to screens."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import ClassVar

from textual.binding import Binding, BindingType

from gridhall import protocol as p
from gridhall.client.devices import this_device
from gridhall.client.failover import gave_up_text, reconnecting_text
from gridhall.client.history import Opening
from gridhall.client.messages import Connection, Event, Refused, is_room_event
from gridhall.client.plain import plain
from gridhall.client.session import Backoff, Session
from gridhall.client.tui.asking import deliver
from gridhall.client.tui.events import ServerEvent
from gridhall.client.tui.help import HelpScreen
from gridhall.client.tui.linking import LinkScreen
from gridhall.client.tui.lobby import LobbyScreen
from gridhall.client.tui.room import RoomScreen
from gridhall.client.tui.text import PlainNotify, translate_bindings
from gridhall.client.views.common import error_text, error_title
from gridhall.client.views.hosts import announce_text, farewell_note
from gridhall.protocol.devices import TERMINAL
from gridhall.protocol.i18n import N_, _


class GridhallApp(PlainNotify[None]):
    """Lobby first; a room screen is pushed while the session is in a room."""

    CSS_PATH = "gridhall.tcss"
    TITLE = "gridhall"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1,question_mark", "help", N_("Help")),
        Binding("ctrl+o", "link", N_("Other device")),
        Binding("ctrl+r", "reconnect", N_("Reconnect")),
        Binding("ctrl+q", "quit", N_("Quit"), priority=True),
    ]

    def __init__(
        self,
        url: str,
        name: str,
        *,
        token: str | None = None,
        backoff: Backoff | None = None,
        keep_token: Callable[[str], None] | None = None,
        opening: Opening | None = None,
        link: str | None = None,
    ) -> None:
        super().__init__()
        translate_bindings(self)
        self.session = Session(
            url,
            name,
            token=token,
            backoff=backoff,
            keep_token=keep_token,
            link=link,
            device=this_device(TERMINAL),
        )
        self.session.add_listener(self._from_session)
        self.lobby = LobbyScreen()
        self.room_screen: RoomScreen | None = None
        self._runner: asyncio.Task[None] | None = None
        self._failures = 0
        self.opening = opening or Opening()
        """A screen to show once connected (``gridhall --history`` / ``--replay ID``)."""

    def _from_session(self, msg: Event) -> None:
        self.post_message(ServerEvent(msg))

    async def on_mount(self) -> None:
        self.sub_title = plain(f"{self.session.name} → {self.session.url}")
        await self.push_screen(self.lobby)
        self._runner = asyncio.create_task(self.session.run())

    async def on_unmount(self) -> None:
        await self.session.close()
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._runner

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_link(self) -> None:
        """The link dialog: carry this player to another device, or the other way."""
        if not isinstance(self.screen, LinkScreen):
            self.push_screen(LinkScreen(self.session))

    def action_reconnect(self) -> None:
        self.session.reconnect_now()

    async def on_server_event(self, event: ServerEvent) -> None:
        if not self.is_running:
            return  # closing: the screens are gone or going, and the session is next
        msg = event.msg
        if isinstance(msg, Connection):
            self._connection(msg)
        elif isinstance(msg, Refused) and msg.code != p.ErrorCode.ROOM_LOST:  # (a farewell)
            self.notify(error_text(msg), title=error_title(msg), severity="error", timeout=6)
        elif isinstance(msg, p.Rooms):
            self.lobby.show_rooms(list(msg.rooms))
        elif isinstance(msg, p.LinkCodeIssued) and isinstance(self.screen, LinkScreen):
            self.screen.show(msg)
        elif isinstance(msg, p.Devices) and isinstance(self.screen, LinkScreen):
            self.screen.show_devices(msg)
        elif isinstance(msg, p.Announce):
            self.notify(announce_text(msg), title=_("Announcement"), severity="warning", timeout=30)
            if self.room_screen is not None:
                self.room_screen.redraw()  # it is a line in the room's log too
        note = farewell_note(msg, self.session.player)
        if note is not None:  # removed by the host, or the room closed: say why in the lobby
            self.notify(note(self.session.clock()), severity="warning", timeout=20)
            self.lobby.note(note)
        await self._follow_room()
        if self.room_screen is not None and is_room_event(msg):
            self.room_screen.handle(msg)
        deliver(self.screen_stack, msg)

    def _connection(self, msg: Connection) -> None:
        status = msg.status
        who = plain(f"{self.session.name} → {self.session.url}")
        if status == "connected":
            self._failures = 0
            who = plain(f"{self.session.name} → {self.session.url}")  # a link renames us
            self.sub_title = f"{who} · {plain(self.session.server_name or _('connected'))}"
            self.lobby.action_refresh()
            self.lobby.refresh_bindings()  # the server's features decide the history keys
            self._open_first()
        elif status == "lost" and msg.replaced:
            self.sub_title = f"{who} · " + _("playing on another device")
            self.notify(
                _(
                    "You are now playing on another device. Press {key} to play here again.",
                    key="Ctrl+R",
                ),
                severity="warning",
                timeout=30,
            )
        elif status == "lost" and msg.signed_out:
            self.sub_title = f"{who} · " + _("this device was signed out")
            self.notify(
                _(
                    "This device was signed out. Press {key} to play here as someone new.",
                    key="Ctrl+R",
                ),
                severity="warning",
                timeout=30,
            )
        elif status == "lost" and msg.restarting:
            self.sub_title = f"{who} · " + _(
                "server restarting, reconnecting in {seconds}s", seconds=f"{msg.delay:.1f}"
            )
            if msg.attempt == 1:
                self.notify(
                    _("The server is restarting; your game is kept. Reconnecting…"),
                    severity="warning",
                    timeout=8,
                )
        elif status == "lost":
            self.sub_title = f"{who} · " + _(
                "offline, retrying in {seconds}s", seconds=f"{msg.delay:.1f}"
            )
            if msg.removed:  # the operator's words, as data
                self.notify(
                    _("The server closed the connection: {reason}", reason=msg.reason),
                    severity="error",
                    timeout=30,
                )
        elif status == "connecting" and msg.attempt > 0:  # back to our node, or the next one
            self.sub_title = f"{who} · " + reconnecting_text(plain(msg.address))
        elif status == "gave-up":
            self.sub_title = f"{who} · " + gave_up_text(msg.count)
            self.notify(gave_up_text(msg.count), severity="error", timeout=30)
        elif status == "failed":
            self._failures += 1
            if self._failures == 1:
                self.notify(
                    _(
                        "Cannot reach {url} ({reason}); retrying. Is the server running, and "
                        "is the address right?",
                        url=self.session.url,
                        reason=msg.reason,
                    ),
                    severity="warning",
                    timeout=8,
                )
        if self.room_screen is not None:
            self.room_screen.redraw()

    def _open_first(self) -> None:
        """Show what the command line asked for, once, over the lobby."""
        opening, self.opening = self.opening, Opening()
        if opening.replay is not None:
            self.lobby.open_replay(opening.replay)
        elif opening.history:
            self.lobby.action_history()

    async def _follow_room(self) -> None:
        """Show the room screen exactly while the session is in a room."""
        copy = self.session.room
        if copy is not None and copy.state is not None:
            current = self.room_screen
            if current is not None and current.game == copy.state.game:
                return
            if current is not None:
                await self._close_room()
            self.room_screen = RoomScreen(copy.state.game)
            await self.push_screen(self.room_screen)
        elif copy is None and self.room_screen is not None:
            await self._close_room()

    async def _close_room(self) -> None:
        screen, self.room_screen = self.room_screen, None
        while screen is not None and screen in self.screen_stack and self.screen is not self.lobby:
            await self.pop_screen()
