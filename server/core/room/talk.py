"""What a room's members say and show: chat lines, names and colours, and mutes
that run out.

A chat line is kept (the room's last :data:`CHAT_HISTORY`, and a ``SaveChat`` for
the store) and goes to everyone; a name another member has is refused. Who may
chat is the host's to say (``host_actions.py`` mutes, ``server/core/hosting.py``
keeps them); a mute that runs out is lifted here, by the clock.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError

from ..effects import Outbox, SaveChat
from ..identity import Identity
from ..names import name_key
from . import host_actions

if TYPE_CHECKING:
    from .room import Room

CHAT_HISTORY = 50


class Talk:
    """The room's chat, names and mutes: see the module docstring."""

    def __init__(self, room: Room) -> None:
        self.room = room

    def say(self, out: Outbox, ident: Identity, text: str, now: float) -> None:
        room = self.room
        line = {"from": ident.id, "name": ident.name, "text": text, "ts": now}
        room.chat.append(line)
        out.add(SaveChat(room.code, ident.id, ident.name, text, now))
        room.views.broadcast(
            out,
            lambda s: p.ChatEvent(
                room=room.code, seq=s, sender=ident.id, name=ident.name, text=text, ts=now
            ),
        )

    def update_info(
        self, out: Outbox, ident: Identity, name: str | None, color: str | None
    ) -> None:
        """A member renames or recolours itself; a name another member has is refused."""
        if name is not None and any(
            name_key(m.name) == name_key(name) for m in self.room.members if m is not ident
        ):
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE,
                f"Someone in this room is already called {name!r}; pick another name.",
            )
        previous = ident.name
        if name is not None:
            ident.name = name
        if color is not None:
            ident.color = color
        self.announce_info(out, ident, previous)

    def announce_info(self, out: Outbox, ident: Identity, previous: str | None = None) -> None:
        """A member's name, colour or connection changed: everyone is told."""
        code = self.room.code
        self.room.views.broadcast(
            out,
            lambda s: p.PlayerInfoEvent(
                room=code,
                seq=s,
                player=ident.id,
                name=ident.name,
                color=ident.color,
                connected=ident.online,
                previous=previous or ident.name,
            ),
        )

    def mutes_ended(self, out: Outbox, now: float) -> None:
        """Mutes whose time ran out are lifted (an ``unmute`` by nobody)."""
        room = self.room
        for pid in room.mod.ended_mutes(now):
            host_actions.unmute(room, out, None, pid)
