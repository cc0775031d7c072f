"""The Tk application: one window, the lobby or the room we are in, and a status
bar for the connection. All server traffic arrives through :class:`Bridge`."""

from __future__ import annotations

import contextlib
import tkinter as tk
from collections.abc import Callable
from tkinter import ttk

from gridhall import protocol as p
from gridhall.client.devices import this_device
from gridhall.client.failover import gave_up_text, reconnecting_text
from gridhall.client.history import ANSWERS, REQUESTS, Opening, features
from gridhall.client.messages import Connection, Event, Refused, is_room_event
from gridhall.client.plain import plain
from gridhall.client.session import Backoff, Session
from gridhall.client.tk import theme
from gridhall.client.tk.answers import Answers
from gridhall.client.tk.bridge import Bridge, Snapshot
from gridhall.client.tk.linking import LinkDialog
from gridhall.client.tk.lobby import LobbyFrame
from gridhall.client.tk.menu import Windows
from gridhall.client.tk.room import RoomFrame
from gridhall.client.views.common import error_text, error_title
from gridhall.client.views.hosts import announce_text, farewell_note
from gridhall.protocol.devices import TK
from gridhall.protocol.i18n import _
from gridhall.protocol.schema import to_map

TICK_MS = 500
LOBBY_REFRESH_MS = 5000
NOTICE_MS = 8000


class TkApp:
    """Builds the window around a :class:`Session`; :meth:`run` blocks in Tk's
    main loop, while tests call :meth:`start` and pump ``root.update()``."""

    def __init__(
        self,
        url: str,
        name: str,
        *,
        root: tk.Tk | None = None,
        token: str | None = None,
        backoff: Backoff | None = None,
        keep_token: Callable[[str], None] | None = None,
        opening: Opening | None = None,
        link: str | None = None,
    ) -> None:
        self.root = root or tk.Tk(className="gridhall")
        self.root.title(f"gridhall · {name}")
        theme.apply(self.root)
        self.session = Session(
            url,
            name,
            token=token,
            backoff=backoff,
            keep_token=keep_token,
            link=link,
            device=this_device(TK),
        )
        self.bridge = Bridge(self.session, self.root, self.on_message)
        self.notices: list[str] = []
        """Every notice shown, oldest first (what the player was told)."""
        self.features: frozenset[str] = frozenset()
        """What the server announced in ``welcome.features`` (history, ratings ...)."""
        self.answers = Answers(self.bridge.ask)
        self.windows = Windows(self)
        """The history, replay, leaderboard and profile windows, and their menu."""
        self.opening = opening or Opening()

        self.body = ttk.Frame(self.root)
        self.body.pack(fill="both", expand=True)
        bar = ttk.Frame(self.root, style="Bar.TFrame", padding=(8, 3))
        bar.pack(fill="x", side="bottom")
        self.connection = ttk.Label(bar, text=_("Connecting…"), style="Bar.TLabel")
        self.connection.pack(side="left")
        self.reconnect = ttk.Button(bar, text=_("Reconnect now"), command=self.bridge.reconnect_now)
        self.notice = ttk.Label(bar, style="Bar.TLabel", foreground="#ffd866")
        self.notice.pack(side="left", padx=16)
        self.linking = ttk.Button(bar, text=_("Other device…"), command=self.open_link)
        self.linking.pack(side="right")
        self.link_dialog: LinkDialog | None = None

        self.lobby = LobbyFrame(self.body, self.bridge.submit, self.notify)
        self.lobby.pack(fill="both", expand=True)
        self.room: RoomFrame | None = None
        self._notice_job: str | None = None
        self._since_refresh = 0
        self._closed = False
        self.root.protocol("WM_DELETE_WINDOW", self.close)

    # ---- lifecycle ----------------------------------------------------------------------
    def start(self) -> None:
        """Connect in the background and start the UI timers (does not block)."""
        self.bridge.start()
        self.root.after(TICK_MS, self._tick)

    def run(self) -> int:
        """Show the window until it is closed; returns the exit status."""
        self.start()
        try:
            self.root.mainloop()
        finally:
            self.close()
        return 0

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.bridge.close()
        with contextlib.suppress(tk.TclError):
            self.root.destroy()

    def _tick(self) -> None:
        """Clocks between events, and the lobby's periodic refresh."""
        if self._closed:
            return
        if self.room is not None:
            self.room.tick()
        else:
            self.lobby.tick(self.session.clock())
            self._since_refresh += TICK_MS
            if self._since_refresh >= LOBBY_REFRESH_MS and self.session.connected:
                self._since_refresh = 0
                self.lobby.refresh()
        self.root.after(TICK_MS, self._tick)

    # ---- from the server ----------------------------------------------------------------
    def on_message(self, msg: Event, snap: Snapshot) -> None:
        if isinstance(msg, Connection):
            self._connection(msg, snap)
        elif isinstance(msg, Refused) and msg.code != p.ErrorCode.ROOM_LOST:  # (a farewell)
            self.notify(f"{error_title(msg)}: {error_text(msg)}")
            if msg.request in REQUESTS:
                self.answers.refused(msg.request)
        elif isinstance(msg, p.Welcome):
            self.features = features(msg)
            self.windows.welcomed(snap.player)
            self.windows.opening()
        elif getattr(msg, "TYPE", None) in ANSWERS:
            self.answers.take(to_map(msg))
        elif isinstance(msg, p.Rooms):
            self.lobby.show_rooms(list(msg.rooms))
        elif isinstance(msg, p.LinkCodeIssued) and self.link_dialog is not None:
            self.link_dialog.show(msg)
        elif isinstance(msg, p.Devices) and self.link_dialog is not None:
            self.link_dialog.devices.show(msg)
        elif isinstance(msg, p.Announce):
            self.notify(announce_text(msg))
            if self.room is not None:  # it is a line in the room's log too
                self.room.room = snap.room
                self.room.redraw()
        note = farewell_note(msg, snap.player)
        if note is not None:  # removed by the host, or the room closed: say why in the lobby
            self.notify(note(self.session.clock()))
            self.lobby.note(note, self.session.clock())
        self._follow_room(snap)
        if self.room is not None and is_room_event(msg):
            self.room.handle(msg, snap)

    def _connection(self, msg: Connection, snap: Snapshot) -> None:
        status = msg.status
        url = self.session.url
        if status == "connected":
            self.root.title(f"gridhall · {self.session.name}")  # a link code renames us
            self.connection.configure(
                text=f"● {snap.server_name or _('connected')} · {url}", foreground="#7bd88f"
            )
            self.reconnect.pack_forget()
            self.lobby.refresh()
        elif status in ("lost", "failed", "connecting", "gave-up"):
            self.answers.forget()
            if status == "lost" and msg.replaced:
                text = "○ " + _(
                    "playing on another device · press Reconnect now to play here again"
                )
            elif status == "lost" and msg.signed_out:
                text = "○ " + _(
                    "this device was signed out · press Reconnect now to play as someone new"
                )
            elif status == "lost" and msg.restarting:
                text = (
                    "○ "
                    + _(
                        "server restarting; your game is kept · reconnecting in {seconds}s",
                        seconds=f"{msg.delay:.1f}",
                    )
                    + f" · {url}"
                )
            elif status == "lost":
                text = (
                    "○ "
                    + _("offline · retrying in {seconds}s", seconds=f"{msg.delay:.1f}")
                    + f" · {url}"
                )
            elif status == "failed":
                text = "○ " + _("cannot reach {url}: {reason}", url=url, reason=msg.reason)
            elif status == "gave-up":
                text = "○ " + gave_up_text(msg.count)
            elif msg.attempt > 0:  # back to our node, or a cluster's next one
                text = "○ " + reconnecting_text(plain(msg.address or url))
            else:
                text = "○ " + _("connecting to {url}…", url=url)
            if status == "lost" and msg.removed:  # the operator's words, as data
                self.notify(_("The server closed the connection: {reason}", reason=msg.reason))
            self.connection.configure(text=text, foreground="#ff8c69")
            if not self.reconnect.winfo_manager():
                self.reconnect.pack(side="right")
        elif status == "closed":
            self.connection.configure(text="○ " + _("disconnected"), foreground="#ff8c69")
        if self.room is not None:
            self.room.set_connection(snap)

    def _follow_room(self, snap: Snapshot) -> None:
        """Show the room screen exactly while the session is in a room."""
        copy = snap.room
        if copy is not None and copy.state is not None:
            game = copy.state.game
            if self.room is not None and self.room.game == game:
                return
            if self.room is not None:
                self.room.destroy()
            self.lobby.pack_forget()
            self.lobby.note(None)  # said once: a later return has its own reason
            self.room = RoomFrame(self.body, game, self.bridge.submit, self.notify)
            self.room.pack(fill="both", expand=True)
        elif copy is None and self.room is not None:
            self.room.destroy()
            self.room = None
            self.lobby.pack(fill="both", expand=True)
            self.lobby.refresh()

    def open_link(self) -> None:
        """The link dialog: show a code for another device, or type one from it."""
        if self.link_dialog is not None and self.link_dialog.winfo_exists():
            self.link_dialog.lift()
            return
        self.link_dialog = LinkDialog(self.root, self.session, self._link_closed)

    def _link_closed(self) -> None:
        self.link_dialog = None

    def notify(self, text: str) -> None:
        """Tell the player something in the status bar for a few seconds."""
        self.notices.append(text)
        self.notice.configure(text=text)
        if self._notice_job is not None:
            self.root.after_cancel(self._notice_job)
        self._notice_job = self.root.after(NOTICE_MS, lambda: self.notice.configure(text=""))
