"""The server's logic without its I/O: identities, the lobby, and the rooms.

The hub takes typed client messages (already decoded and rate-limited by the
session), the time, and the inputs the I/O layer produces (a dropped connection,
a computer's answer, a timer that fired), and returns the effects to carry out
(``server/core/effects.py``). It never awaits, sends or sleeps, so every rule about
who may do what is unit-tested without a socket.

Durability (see also ``server/io/store/store.py``): a room is a deterministic state
machine, so the hub journals every input that changed a room (a ``Log`` effect:
the input, typed in ``server/core/journal.py``, who sent it and the time) and, when a room starts a new game, a
snapshot of the room that makes the older entries unnecessary; also, mid-game,
every ``journal_rows`` entries (when the game can be saved whole), so the journal
of a game that never ends stays bounded. Identities and
each room's fixed facts (code, options, secret seed, password hash) are saved
when they change. :meth:`Hub.restore` rebuilds every live room from its snapshot
and journal through the same code paths, so the same board, seats and ``seq``
come back (``server/core/restoring.py``: each room on stand-ins of its own, every
identity whatever becomes of its room, a room that cannot be replayed set aside).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError
from gridhall.protocol.devices import Description
from gridhall.protocol.devices import parse as described
from gridhall.protocol.features import CLUSTER, FEATURES

from ..games.base import JSON
from . import devices
from .config import ServerConfig
from .device_requests import DeviceRequests
from .effects import Effect, Outbox, Think, Wake
from .entropy import Entropy
from .hub_core import KEPT_FOR_GOOD, HubCore
from .identity import Device, Identity, token_hash
from .journal import (
    Back,
    Closed,
    ComputerMoved,
    Entry,
    Gone,
    JobAnswered,
    Request,
    Tick,
    move_entry,
)
from .lobby_requests import LobbyRequests
from .names import clean_name
from .restoring import Quarantined, Restorer, room_lost
from .room import Room
from .room_closing import close_room
from .room_requests import RoomRequests, choices

log = logging.getLogger("gridhall.hub")

Handler = Callable[[Outbox, Identity, Any, float], None]
LOBBY_ONLY = (p.ListRooms, p.CreateRoom, p.LinkCode, p.ListDevices, p.SignOutDevice)
"""Requests that are never a room's input, wherever the sender is."""

__all__ = ["KEPT_FOR_GOOD", "LOBBY_ONLY", "Handler", "Hub", "HubCore", "SavedRoom"]


@dataclass
class SavedRoom:
    """A live room as the store keeps it: fixed facts, snapshot, journal."""

    row: JSON
    snapshot: JSON | None = None
    base: int = 0
    entries: list[tuple[int, JSON]] = field(default_factory=list)


class Hub(LobbyRequests, RoomRequests, DeviceRequests):
    """See the module docstring. One per server. The request handlers are grouped in
    mixins (``lobby_requests.py``, ``room_requests.py``, ``device_requests.py``) over
    the hub's state and journal (``hub_core.py``)."""

    def __init__(self, config: ServerConfig, entropy: Entropy) -> None:
        super().__init__(config, entropy)
        self.restorer = Restorer(self)
        """Brings rooms and identities back after a restart (``restoring.py``)."""
        self._handlers: dict[type[Any], Handler] = {
            p.ListRooms: self._list_rooms,
            p.CreateRoom: self._create_room,
            p.JoinRoom: self._join_room,
            p.LeaveRoom: self._leave_room,
            p.Sync: self._sync,
            p.PlayerInfo: self._player_info,
            p.Move: self._move,
            p.Chat: self._chat,
            p.Resign: self._resign,
            p.PlayAgain: self._play_again,
            p.AgreeAgain: self._agree_again,
            p.DeclineAgain: self._decline_again,
            p.Offer: self._offer,
            p.Answer: self._answer,
            p.Start: self._start,
            p.Host: self._host,
            p.LinkCode: self._link_code,
            p.ListDevices: self._list_devices,
            p.SignOutDevice: self._sign_out_device,
        }

    def hello(self, msg: p.Hello, now: float, address: str = "") -> tuple[Identity, list[Effect]]:
        """A connection (from ``address``) says hello: resume the token's identity
        or make a new one. A name that cannot be kept raises ProtocolError.

        The caller binds the connection to the identity (closing an older one
        that spoke for it) before carrying out the effects. A token the operator
        banned raises ProtocolError(``banned``) before anything changes."""
        if msg.token:
            self._refuse_banned(token_hash(msg.token), now, msg.id)
        name = clean_name(msg.name, msg.id)
        about = described(msg.device, msg.id)
        out = Outbox()
        ident, token = self._identity_for(out, msg, name, address, now)
        replaced = devices.left(ident, now) if ident.connected else None
        if replaced is not None:  # its connection is closed for this one (4000)
            out.add(replaced)
        ident.connected = True
        ident.address = address
        ident.deltas = bool(msg.deltas)
        out.add(devices.seen(ident, token_hash(token), about, now))
        nodes = self.nodes.addresses()
        out.send(
            [ident.id],
            p.Welcome(
                protocol=p.PROTOCOL_VERSION,
                player=ident.id,
                token=token,
                server=self.config.name,
                re=msg.id,
                features=[*FEATURES, *([CLUSTER] if nodes else [])],
                name=ident.name,
                nodes=nodes or None,
            ),
        )
        out.add(self._saved(ident))
        if self._expiry.pop(ident.id, None) is not None:
            out.add(Wake("@" + ident.id, None))
        self._tell_lost(out, ident)
        room = ident.room
        if room is not None:
            self._input(
                out,
                room,
                Back(ident.id, msg.since),
                now,
                lambda: room.resumed(out, ident, now, msg.id, msg.since),
            )
        return ident, out.effects

    def _identity_for(
        self, out: Outbox, msg: p.Hello, name: str, address: str, now: float
    ) -> tuple[Identity, str]:
        """Who says ``hello``, with its token: the identity a link code or the token
        names (unless banned), else a new one called ``name``."""
        ident: Identity | None
        token: str | None
        if msg.link is not None:
            ident, token = self._redeem(out, msg, address, now)
        else:
            ident = self.identities.resume(msg.token) if msg.token else None
            token = msg.token
            if ident is not None and ident.linked:  # a ban names the first device's token
                self._refuse_banned(ident.ban_key(), now, msg.id)
        if ident is None or ident.bot is not None or token is None:
            return self.identities.create(name)
        if ident.room is None and msg.link is None:
            ident.name = name
        return ident, token

    def _tell_lost(self, out: Outbox, ident: Identity) -> None:
        """A member of a room set aside says hello: tell it ``room-lost`` (once)."""
        code = self.lost.pop(ident.id, None) if ident.room is None else None
        q = self.quarantine.get(code) if code is not None else None
        if q is not None:
            out.send([ident.id], room_lost(q))

    def handle(
        self, ident: Identity, msg: Any, now: float
    ) -> tuple[list[Effect], ProtocolError | None]:
        """Any message after ``hello``: its effects, or the refusal to send back.

        Time-driven rules of the sender's room run first (a clock that ran out
        ends the game before a late move is judged); a refused message changes
        nothing beyond that."""
        before = ident.room
        if type(msg) is p.Move and before is not None:  # every move: the short way
            return self._move_in(ident, before, msg, now)
        out = Outbox()
        if before is not None and self._due(before, now):
            self._input(out, before, Tick(), now, lambda: before.tick(out, now))
        handler = self._handlers.get(type(msg))
        error: ProtocolError | None = None
        if handler is None:
            error = ProtocolError(ErrorCode.BAD_MESSAGE, f"{msg.TYPE!r} is not expected now.")
        elif isinstance(msg, LOBBY_ONLY):  # no room input (create-room journals inside)
            error = self._attempt(lambda: handler(out, ident, msg, now))
        else:
            room = before or (self._room_named(msg.room) if isinstance(msg, p.JoinRoom) else None)
            choices: dict[str, str] = {}
            act: Handler = handler
            if isinstance(msg, p.Host):  # what it decides beyond the message is journalled
                act = functools.partial(self._host, choices=choices)
            if isinstance(msg, p.JoinRoom):  # who arrives, as they are before the room
                choices.update(name=ident.name, **({"color": ident.color} if ident.color else {}))

            def entry() -> Entry:
                return Request(
                    ident.id,
                    msg,
                    choices.get("addr"),
                    choices.get("seat"),
                    choices.get("name"),
                    choices.get("color"),
                )

            if room is None:
                error = self._attempt(lambda: act(out, ident, msg, now))
            else:
                error = self._attempt(
                    lambda: self._input(out, room, entry, now, lambda: act(out, ident, msg, now))
                )
        if (
            ident.room is None
            and before is None
            and isinstance(msg, p.PlayerInfo)
            and error is None
        ):
            out.add(self._saved(ident))
        return out.effects, error

    def _move_in(
        self, ident: Identity, room: Room, msg: p.Move, now: float
    ) -> tuple[list[Effect], ProtocolError | None]:
        """A ``move`` from a member of ``room``: :meth:`handle`'s way for any room
        input, in as few steps as it takes (every move comes here): the room's
        time-driven rules first if they are due, then the move itself, journalled
        as ``journal.move_entry`` (one a refusal counts against is kept too)."""
        out = Outbox()
        at = self._armed.get(room.code)
        if at is not None and now >= at:
            self._input(out, room, Tick(), now, lambda: room.tick(out, now))
            if ident.room is not room:  # the tick closed the room: the usual refusal
                return out.effects, self._attempt(lambda: self._move(out, ident, msg, now))
        mark = self._input_begins(room)
        error: ProtocolError | None = None
        try:
            room.move(out, ident, msg.move, now, msg.id)
        except ProtocolError as exc:
            error = exc
        finally:
            self._input_done(out, room, mark, move_entry(ident.id, msg), now)
        return out.effects, error

    def disconnected(self, ident: Identity, now: float) -> list[Effect]:
        """The connection that spoke for ``ident`` is gone."""
        ident.connected = False
        out = Outbox()
        last = devices.left(ident, now)
        if last is not None:
            out.add(last)
        room = ident.room
        if room is not None:
            if ident.role == "spectator":  # a spectator's drop is a departure
                self._budget(room, now).charge("roster", len(room.members), now)
            self._input(out, room, Gone(ident.id), now, lambda: room.disconnected(out, ident, now))
        else:
            self._expire_later(out, ident, now)
        return out.effects

    def computer_move(self, job: Think, move: JSON, now: float) -> list[Effect]:
        """A computer player's answer came back from the worker."""
        out = Outbox()
        room = self.lobby.rooms.get(job.room)
        bot = self.identities.by_id.get(job.bot)
        if room is not None and bot is not None and bot.room is room:
            self._input(
                out,
                room,
                ComputerMoved(bot.id, job.request, move),
                now,
                lambda: room.computer_move(out, bot, job.request, move, now),
            )
        return out.effects

    def work_done(self, room_code: str, ticket: int, answer: JSON, now: float) -> list[Effect]:
        """A room's job (a :class:`~gridhall.server.core.effects.Work`) was answered."""
        out = Outbox()
        room = self.lobby.rooms.get(room_code)
        if room is not None:
            self._input(out, room, Tick(), now, lambda: room.tick(out, now))
            asker = room.pending.ident if room.pending is not None else None
            # whether the asker was still there decides the outcome
            entry = (
                JobAnswered(ticket, answer)
                if asker is None
                else JobAnswered(
                    ticket,
                    answer,
                    asker.id,
                    asker.connected,
                    asker.name,
                    asker.color,
                    asker.room is not None and asker.room is not room,
                )
            )
            self._input(out, room, entry, now, lambda: room.work_done(out, ticket, answer, now))
        return out.effects

    def wake(self, key: str, now: float) -> list[Effect]:
        """A timer asked for with :class:`Wake` fired."""
        out = Outbox()
        if key.startswith("@"):
            ident = self.identities.by_id.get(key[1:])
            if (
                self._expiry.pop(key[1:], None) is not None
                and ident is not None
                and not ident.connected
                and ident.room is None
            ):
                self._forget(out, ident)
            return out.effects
        self._armed.pop(key, None)
        room = self.lobby.rooms.get(key)
        if room is not None:
            self._input(out, room, Tick(), now, lambda: room.tick(out, now))
        return out.effects

    def close_room(self, code: str, reason: str, now: float) -> list[Effect]:
        """The server's operator closes room ``code`` (``server/core/room_closing.py``);
        ProtocolError(``no-such-room``) if there is none."""
        room = self.lobby.find(code)
        out = Outbox()
        self._input(out, room, Closed(), now, lambda: close_room(out, room, reason, now))
        log.info("room %s closed by the operator", room.code, extra={"room": room.code})
        return out.effects

    def restore(
        self,
        identities: list[JSON],
        rooms: Iterable[SavedRoom],
        now: float,
        down_since: float,
        links: tuple[list[tuple[str, str]], list[tuple[str, str, float]]] | None = None,
        known_devices: Iterable[tuple[str, str, Description, float, float]] = (),
        quarantined: Iterable[Quarantined] = (),
    ) -> list[Effect]:
        """Rebuild identities and every live room after a restart, then give each
        person the grace period from ``now``. Clocks skip the downtime: the time
        since the server was last known to run (``down_since``, its last "alive"
        mark, or the room's last journalled input if later). ``known_devices``: what
        the device lists show, ``(player, token hash, description, created, last seen)``.
        Every identity comes back whatever becomes of its room; a room that cannot be
        restored is set aside (``quarantined``: those set aside before)."""
        for row in identities:
            self.identities.add(
                Identity(
                    id=row["id"],
                    token_hash=row["token_hash"],
                    name=row["name"],
                    color=row["color"],
                    bot=row["bot"],
                )
            )
        tokens, codes = links or ([], [])
        for pid, digest in tokens:  # linked devices' tokens
            if pid in self.identities.by_id:
                self.identities.add_token(self.identities.by_id[pid], digest)
        for digest, pid, expires in codes:
            self.links.add(digest, pid, expires)
        for pid, digest, about, created_at, seen_at in known_devices:
            owner = self.identities.by_id.get(pid)
            if owner is not None and digest in owner.tokens():
                owner.devices[digest] = Device(about, created_at, seen_at)
        return self.restorer.restore(identities, rooms, now, down_since, quarantined)

    def set_aside(self, q: Quarantined) -> None:
        """Room ``q.code`` is quarantined: its code is not given to a new room, and its
        members still known are told ``room-lost`` at their next hello."""
        self.quarantine[q.code] = q
        self.lobby.reserved.add(q.code)
        for pid in q.members:
            ident = self.identities.by_id.get(pid)
            if ident is not None and ident.room is None and ident.bot is None:
                self.lost[pid] = q.code

    def release(self, code: str, now: float) -> list[Effect]:
        """The operator deleted quarantined room ``code`` (or put it back to be tried
        at the next start): its members are no longer kept for a ``room-lost``; those
        offline are kept for the grace period, as after leaving a room."""
        out = Outbox()
        if self.quarantine.pop(code, None) is None:
            return out.effects
        self.lobby.reserved.discard(code)
        for pid in [pid for pid, lost in self.lost.items() if lost == code]:
            del self.lost[pid]
            ident = self.identities.by_id.get(pid)
            if ident is not None and not ident.connected and ident.room is None:
                self._expire_later(out, ident, now)
        return out.effects

    def forget_room(self, code: str) -> None:
        """Drop every trace of room ``code`` here (a replay that failed or closed it)."""
        room = self.lobby.rooms.pop(code, None)
        if room is not None:
            for m in room.members:
                m.room = m.role = None
        self._journal_n.pop(code, None)
        self._snapshot_n.pop(code, None)
        self._armed.pop(code, None)
        self._budgets.pop(code, None)

    def replay_request(
        self, out: Outbox, ident: Identity, msg: Any, now: float, entry: Request
    ) -> None:
        """A journalled request, through the handler that first ran it."""
        if isinstance(msg, p.Host):
            self._host(out, ident, msg, now, choices(entry))
        else:
            self._handlers[type(msg)](out, ident, msg, now)
