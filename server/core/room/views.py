"""What a room's members see: its events, each with one ``seq``, and snapshots.

An event goes to every member with the same ``seq`` (``events.py`` numbers and keeps
them); an event that carries a ``view`` is made once per group of members who see
the same thing: only a game's own players see its private state. A snapshot
(``state``, to one member on join, sync or resume) repeats the current ``seq``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gridhall import protocol as p

from ...games.base import JSON
from ..effects import Outbox, Send
from ..identity import Identity

if TYPE_CHECKING:
    from .room import Room


class Views:
    """The room's sending: events to every member, and snapshots to one."""

    def __init__(self, room: Room) -> None:
        self.room = room

    def broadcast(
        self, out: Outbox, make: Callable[[int], Any], exclude: Identity | None = None
    ) -> int:
        """Emit one event (same ``seq`` for all) identical for every recipient."""
        room = self.room
        return room.events.broadcast(out, room.member_ids(exclude), make)

    def broadcast_views(
        self, out: Outbox, make: Callable[[int, str | None], Any], deltas: bool = False
    ) -> int:
        """Emit one event with a ``view`` that depends on what the recipient may see
        (one ``seq``); see :meth:`EventLog.broadcast_views`."""
        room = self.room
        game = room.game
        if game is None or game.shared_view:  # one group: every move of such a game
            return room.events.broadcast_views(out, {None: room.members}, make, deltas)
        return room.events.broadcast_views(out, self.groups(), make, deltas)

    def broadcast_state(self, out: Outbox) -> None:
        self.broadcast_views(out, lambda seq, viewer: self.snapshot(viewer, seq=seq))

    def groups(self) -> dict[str | None, list[Identity]]:
        """Members by the view they get (see :meth:`viewer`), in member order; one
        group at once when the game's view is shared (every move asks)."""
        room = self.room
        game = room.game
        if game is None or game.shared_view:
            return {None: room.members}
        groups: dict[str | None, list[Identity]] = {}
        for m in room.members:
            groups.setdefault(self.viewer(m), []).append(m)
        return groups

    def viewer(self, ident: Identity) -> str | None:
        """The id a game builds a view for: only its own players see private state
        (None, like a spectator, in a game whose view is shared)."""
        game = self.room.game
        if game is None or game.shared_view:
            return None
        return ident.id if ident.id in game.players else None

    def missed(self, ident: Identity, since: int) -> list[Send] | None:
        """The events after ``since`` as ``ident`` would have got them, or None when
        some are no longer kept (the caller sends a ``state`` instead)."""
        return self.room.events.missed(ident, self.viewer(ident), since)

    def snapshot_for(self, ident: Identity, re: int | None) -> p.State:
        """A ``state`` for one member. Should its view differ, in a list a delta
        patches, from the view the room's last event carried (something changed
        with no view sent), the next event goes whole to that viewer's group, so
        no delta is ever folded into a view it was not made from."""
        viewer = self.viewer(ident)
        state = self.snapshot(viewer, re=re)
        self.room.events.snapshot_taken(viewer, state.view)
        return state

    def snapshot(
        self, viewer: str | None, seq: int | None = None, re: int | None = None
    ) -> p.State:
        room = self.room
        game = room.game
        return p.State(
            room=room.code,
            seq=room.seq if seq is None else seq,
            game=room.spec.name,
            options=room.options,
            status=room.status,
            players=[player_entry(n, s) for n, s in enumerate(room.seats) if s is not None],
            spectators=[s.name for s in room.spectators],
            spectator_ids=[s.id for s in room.spectators],
            view=game.view(viewer) if game is not None else {},
            turn=game.turn() if game is not None else None,
            result=game.result if game is not None else None,
            chat=list(room.chat),
            creator=room.creator,
            round=room.round_no,
            private=room.private,
            pending_again=list(room.again) if room.again else None,
            re=re,
            host=room.mod.host,
            locked=room.mod.locked,
            muted=[m.id for m in room.members if m.id in room.mod.muted],
        )

    def send_state(self, out: Outbox, ident: Identity, now: float, re: int | None = None) -> None:
        """A snapshot for one member; time-driven rules run first so clocks are fresh."""
        self.room.tick(out, now)
        out.send([ident.id], self.snapshot_for(ident, re))

    def sync(
        self, out: Outbox, ident: Identity, since: int | None, now: float, re: int | None = None
    ) -> None:
        """Bring one member up to date: the events after ``since`` when they are still
        kept, else (or without ``since``) a ``state``."""
        self.room.tick(out, now)
        events = self.missed(ident, since) if since is not None else None
        if events is None:
            out.send([ident.id], self.snapshot_for(ident, re))
            return
        for send in events:
            out.add(send)


def player_entry(seat: int, s: Identity) -> JSON:
    """A seated member as ``state.players`` lists it."""
    entry: JSON = {"player": s.id, "name": s.name, "seat": seat, "connected": s.online}
    if s.color is not None:
        entry["color"] = s.color
    if s.bot:
        entry["bot"] = s.bot
    return entry
