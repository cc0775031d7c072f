"""What the server says, applied to a client :class:`~gridhall.client.session.Session`:
each frame decoded (and made plain: no control or bidi characters), our identity,
nodes and features taken from ``welcome``, refusals named after the request they
answer, room events folded into our copy of the room (:mod:`client.room`), and every
message handed to the listeners.

A mixin of the session (its state lives there); apart from the connection loop and
the sending because it is the one place the server's words change what the session
holds.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from websockets.asyncio.client import ClientConnection

from gridhall import protocol as p
from gridhall.client.failover import node_addresses
from gridhall.client.history import features
from gridhall.client.messages import (
    BAD_VIEW,
    Connection,
    ConnectionStatus,
    Event,
    Refused,
    Request,
    is_room_event,
)
from gridhall.client.plain import plain, plain_tree
from gridhall.client.room import RoomCopy, apply, note
from gridhall.protocol import MAX_SERVER_FRAME, PROTOCOL_VERSION, SERVER_MESSAGES, ProtocolError
from gridhall.protocol.i18n import _
from gridhall.protocol.schema import from_map, to_map

Listener = Callable[[Event], None]


class ServerMessages:
    """The session's handling of what the server sends; see the module docstring."""

    name: str
    token: str | None
    link: str | None
    device: str | dict[str, str] | None
    deltas: bool
    keep_token: Callable[[str], None] | None
    player: str | None
    server_name: str | None
    features: frozenset[str]
    url: str
    home: str
    nodes: list[str]
    clock: Callable[[], float]
    room: RoomCopy | None
    offline_since: float | None
    _home_player: str | None
    _listeners: list[Listener]
    _ws: ClientConnection | None
    _welcomed: bool
    _loop: asyncio.AbstractEventLoop | None
    _requests: dict[int, str]
    _room_heard: bool
    _linking: bool
    _banned_until: float | None

    if TYPE_CHECKING:

        @property
        def connected(self) -> bool: ...

        async def send(self, msg: Request | dict[str, Any]) -> int | None: ...

    def _hello(self, since: int | None = None, link: str | None = None) -> p.Hello:
        """Our ``hello``: with our token (and the ``seq`` we hold, back in a room), or
        with a link code instead, to become the identity that asked for it."""
        if link is not None:
            return p.Hello(
                protocol=PROTOCOL_VERSION,
                name=self.name,
                link=link,
                deltas=self.deltas or None,
                device=self.device,
            )
        return p.Hello(
            protocol=PROTOCOL_VERSION,
            name=self.name,
            token=self.token or None,
            since=since,
            deltas=self.deltas or None,
            device=self.device,
        )

    def _emit(self, msg: Event) -> None:
        for listener in list(self._listeners):
            try:
                listener(msg)
            except Exception:  # noqa: BLE001 - a UI bug must not kill the connection
                import traceback

                traceback.print_exc()

    def _status(self, status: ConnectionStatus, **details: Any) -> None:
        if "reason" in details:  # a close reason or a handshake error: the server's words
            details["reason"] = plain(details["reason"])
        self._emit(Connection(status, **details))

    def _on_frame(self, frame: bytes | str) -> str | None:
        """Decode and apply one frame: ``welcomed``, ``fatal`` or None. Frames we cannot
        read, and message types a newer server added, are skipped."""
        if isinstance(frame, str):
            return None  # the contract is binary only
        try:
            msg = _decode(frame)
        except (ProtocolError, RecursionError):
            return None
        result = self._on_message(msg)
        return result or ("welcomed" if isinstance(msg, p.Welcome) else None)

    def _on_message(self, msg: Any) -> str | None:
        if isinstance(msg, p.Welcome):
            if self._linking:  # we are now the identity that asked for the code
                self.link = None
                self._linking = False
                self.room = None
                self.name = msg.name or self.name
            if self.player is not None and msg.player != self.player:
                self.room = None  # someone new here (a node that did not know our token)
            self.player = msg.player
            self.token = msg.token or self.token
            self.nodes = node_addresses(msg.nodes)
            self.server_name = msg.server
            self.features = features(msg)
            self._welcomed = True
            self.offline_since = None
            if self.url == self.home:
                self._home_player = self.player
            if self.keep_token is not None and self.token and self.player == self._home_player:
                self.keep_token(self.token)  # not another node's stranger over our own
            self._status("connected")
            self._room_heard = False
            if self.room is not None and self._loop is not None:
                self._loop.call_later(1.5, self._sync_if_stale, self.room.room)
        elif isinstance(msg, p.Error):
            request = self._requests.get(msg.re) if msg.re is not None else None
            if self._linking and not self._welcomed:
                self._link_refused()
                request = "link"
            if msg.code in (p.ErrorCode.NOT_IN_ROOM, p.ErrorCode.ROOM_LOST):
                self.room = None  # our room is gone (away, or not restored after a restart)
            if msg.code == p.ErrorCode.BANNED and msg.retry_after is not None:
                self._banned_until = self.clock() + max(0.0, float(msg.retry_after))
            self._emit(Refused(msg.code, msg.message, request, msg.room, msg.reason))
            return "fatal" if msg.code == p.ErrorCode.VERSION_MISMATCH else None
        elif isinstance(msg, p.Announce):  # also a line in the room's log, if we are in one
            self.room = note(self.room, to_map(msg), self.clock())
        elif is_room_event(msg):
            self._room_heard = True
            applied = apply(self.room, msg, self.player, self.clock())
            if applied.refused is not None:
                self._refuse_room(msg.room, applied.refused)
                return None
            self.room = applied.room
            if applied.sync:
                self._send_sync()
        self._emit(msg)
        return None

    def _link_refused(self) -> None:
        """The server refused our link code: say hello again as before (the same
        connection stays open for it), with our own token or as someone new."""
        self.link = None
        self._linking = False
        ws = self._ws
        if ws is not None and self._loop is not None:
            self._loop.create_task(ws.send(p.encode(self._hello())))

    def _refuse_room(self, code: str, why: str) -> None:
        """A room this client cannot show (a board beyond the protocol): say why, and
        leave it rather than draw it (which would hang or exhaust memory)."""
        self.room = None
        if self._loop is not None:
            self._loop.create_task(self.send(p.LeaveRoom()))
        self._emit(
            Refused(
                BAD_VIEW, why + " " + _("This client left room {code}.", code=code), "join-room"
            )
        )

    def _sync_if_stale(self, code: str) -> None:
        """After a resume the server sends what we missed (events, or a state); if
        nothing came, ask, so a room that is gone is noticed (``not-in-room``)."""
        room = self.room
        if (
            room is not None
            and room.room == code
            and self.connected
            and (room.syncing or not self._room_heard)
        ):
            self._send_sync(since=None if room.syncing else room.seq)

    def _send_sync(self, since: int | None = None) -> None:
        if self._loop is not None:
            self._loop.create_task(self.send(p.Sync(since=since)))


def _decode(frame: bytes) -> Any:
    """A server frame as its typed message, every string in it made plain first (no
    control or bidi characters): what a server says is shown as data, by every UI."""
    obj = plain_tree(p.decode_map(frame, MAX_SERVER_FRAME))
    cls = SERVER_MESSAGES.get(obj["type"])
    if cls is None:
        raise ProtocolError(p.ErrorCode.UNKNOWN_TYPE, "Unknown message type.")
    return from_map(cls, obj)
