"""The server's operator closes a room: every member is told why and sent back to
the lobby, and the room ends (its row and journal are dropped from the store).

Pure, like the room it acts on: the hub runs it as one of the room's inputs, so
the room's timer, budgets and store rows go the way of any room that closes.
"""

from __future__ import annotations

from gridhall import protocol as p
from gridhall.protocol import ErrorCode

from .effects import Outbox
from .room import Room

CLOSED = "closed"
"""The ``left`` event's ``reason`` for a room the operator closed."""


def close_room(out: Outbox, room: Room, reason: str, now: float) -> None:
    """``room-closed`` to every member, then to each a ``left`` naming itself (same
    ``seq``: old clients go back to the lobby on it), then the room ends."""
    seq = room.broadcast(out, lambda s: p.RoomClosed(room=room.code, seq=s, reason=reason))
    for member in room.members:
        if member.bot is None:
            out.send(
                [member.id],
                p.Left(room=room.code, seq=seq, player=member.id, name=member.name, reason=CLOSED),
            )
    pending = room.pending
    if pending is not None and pending.re is not None and pending.ident is not None:
        # a request the room's job was still working on gets its answer now
        code = ErrorCode.NO_SUCH_ROOM if pending.kind == "join" else ErrorCode.NOT_IN_ROOM
        out.send(
            [pending.ident.id],
            p.Error(
                code=code.value,
                message="The room was closed by the server's operator.",
                re=pending.re,
            ),
        )
    room.close(now)
