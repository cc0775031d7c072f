"""What a client session hands its listeners, as types.

Server frames arrive as the typed dataclasses of :mod:`gridhall.protocol`
(``decode(frame, "server")``). Two things only the client knows are added as
local types: :class:`Connection` (the link to the server came up, dropped ...)
and :class:`Refused`, which replaces the server's ``error`` so that it can say
which request was refused, and also covers refusals made on this side (sending
while offline, a chat line over the limit).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias, TypeGuard

from gridhall import protocol as p

ConnectionStatus = Literal["connecting", "connected", "lost", "closed", "failed", "gave-up"]


RESTARTING = 1012
"""The close code of a server stopping to restart (it keeps the rooms)."""
REPLACED = 4000
"""The close code when this identity connected again elsewhere (another tab, or a
device it was linked to): the client waits to be told to take it back."""
SIGNED_OUT = 4001
"""The close code when this device was signed out (from another device, or itself):
its token no longer works, so the client forgets it and waits to be told to connect
again, as someone new."""
REMOVED = 1008
"""The close code of a connection the server's operator ended (or a ban): its
reason says why, and a UI shows it."""


@dataclass(frozen=True)
class Connection:
    """The connection changed: ``connecting`` names the ``address`` tried (a cluster's
    other node, after a drop); ``lost`` comes with the ``delay`` before the next try
    and, when the server closed it, its close ``code`` and ``reason``; ``failed``
    with the ``reason`` the connect failed; ``gave-up`` when none of a cluster's
    ``count`` nodes answered (until the UI asks to reconnect)."""

    status: ConnectionStatus
    attempt: int = 0
    delay: float = 0.0
    reason: str = ""
    code: int | None = None
    address: str = ""
    count: int = 0

    @property
    def restarting(self) -> bool:
        """The server said it is restarting: our seat waits for us."""
        return self.code == RESTARTING

    @property
    def replaced(self) -> bool:
        """This identity connected from elsewhere; no reconnect until asked."""
        return self.code == REPLACED

    @property
    def signed_out(self) -> bool:
        """This device was signed out; no reconnect until asked (then as someone new)."""
        return self.code == SIGNED_OUT

    @property
    def removed(self) -> bool:
        """The server closed the connection on purpose and said why (``reason``): the
        operator removed or banned us."""
        return self.code == REMOVED and bool(self.reason)


OFFLINE = "offline"
"""The code of a :class:`Refused` made locally: the request was not sent."""


BAD_VIEW = "bad-view"
"""The code of a :class:`Refused` made locally: the server sent a board beyond what
the protocol allows, so the client left that room instead of drawing it."""


@dataclass(frozen=True)
class Refused:
    """A request refused, by the server (its ``error``) or by this client before
    sending (``offline``, or a field the contract would refuse)."""

    code: str
    message: str
    request: str | None = None
    """The refused request's type (``move``, ``join-room`` ...), when known."""
    room: str | None = None
    """The room a ``room-lost`` is about (it could not be restored after a restart)."""
    reason: str | None = None
    """Why, in the server's words (``room-lost``)."""


RoomEvent: TypeAlias = (
    p.State
    | p.Joined
    | p.Left
    | p.Moved
    | p.GameOver
    | p.PlayerInfoEvent
    | p.ChatEvent
    | p.PlayAgainEvent
    | p.AgreeAgainEvent
    | p.DeclineAgainEvent
    | p.Resigned
    | p.OfferEvent
    | p.AnswerEvent
    | p.Notice
    | p.HostEvent
)
"""Every server message about a room (each carries ``room`` and ``seq``)."""

ROOM_EVENTS = RoomEvent.__args__
"""The same, for ``isinstance``."""

ServerMessage: TypeAlias = p.Welcome | p.Rooms | p.LinkCodeIssued | RoomEvent
"""What the server sends, less ``error`` (which listeners see as :class:`Refused`)."""

Event: TypeAlias = ServerMessage | Connection | Refused
"""Everything a session listener receives."""

Request: TypeAlias = (
    p.Hello
    | p.ListRooms
    | p.CreateRoom
    | p.JoinRoom
    | p.LeaveRoom
    | p.Sync
    | p.PlayerInfo
    | p.Move
    | p.Chat
    | p.Resign
    | p.PlayAgain
    | p.AgreeAgain
    | p.DeclineAgain
    | p.Offer
    | p.Answer
    | p.Start
    | p.Host
    | p.LinkCode
    | p.ListDevices
    | p.SignOutDevice
)
"""Every message a client may send (an intent from a board, button or dialog)."""


def is_room_event(msg: object) -> TypeGuard[RoomEvent]:
    """True for a server message about a room (``state``, ``moved``, ``chat`` ...)."""
    return isinstance(msg, ROOM_EVENTS)
