"""The server's logic without its I/O: identities, the lobby, and the rooms.

The hub takes typed client messages (already decoded and rate-limited by the
session), the time, and the inputs the I/O layer produces (a dropped connection,
a computer's answer, a timer that fired), and returns the effects to carry out
(``server/core/effects.py``). It never awaits, sends or sleeps, so every rule about
who may do what is unit-tested without a socket.

Durability (see also ``server/io/store.py``): a room is a deterministic state
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

import base64
import functools
import logging
import secrets
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
from .bans import Bans, refusal
from .cluster_nodes import NodeList
from .config import ServerConfig
from .effects import (
    DropLinkCode,
    DropRoom,
    Effect,
    ForgetIdentity,
    Log,
    Outbox,
    SaveIdentity,
    SaveLinkCode,
    SaveRoom,
    SaveSnapshot,
    SaveToken,
    Think,
    Wake,
)
from .fairness import PasswordGuard, PerAddress
from .fanout import Kind, RoomBudget
from .identity import Device, Identities, Identity, token_hash
from .journal import (
    Back,
    Closed,
    ComputerMoved,
    ComputerSeated,
    Entry,
    Gone,
    JobAnswered,
    Joined,
    Request,
    Tick,
    encode,
)
from .linking import LinkCodes, LinkRefused, shown
from .lobby import Lobby
from .names import clean_color, clean_name, computer_name
from .ratings import Ratings
from .restoring import Cast, Quarantined, Restorer, room_lost
from .room import Room
from .room_closing import close_room

log = logging.getLogger("gridhall.hub")

Handler = Callable[[Outbox, Identity, Any, float], None]
LOBBY_ONLY = (p.ListRooms, p.CreateRoom, p.LinkCode, p.ListDevices, p.SignOutDevice)
"""Requests that are never a room's input, wherever the sender is."""
KEPT_FOR_GOOD = 100 * 365.0
"""Days a rated identity is kept offline when ``rated_identity_days`` is 0 (no limit)."""


@dataclass
class SavedRoom:
    """A live room as the store keeps it: fixed facts, snapshot, journal."""

    row: JSON
    snapshot: JSON | None = None
    base: int = 0
    entries: list[tuple[int, JSON]] = field(default_factory=list)


class Hub:
    """See the module docstring. One per server."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.identities = Identities()
        self.lobby = Lobby(
            self, config.max_rooms, config.grace_seconds, config.max_rooms_per_address
        )
        self.passwords = PasswordGuard()
        self.links = LinkCodes()
        """Live link codes (by hash) and the backoff on wrong ones (``server/core/linking.py``)."""
        self.bans = Bans()
        """The operator's bans in force (loaded from the store at start)."""
        self.ratings = Ratings()
        """Every rating (loaded from the store at start; rated rooms update it)."""
        self.nodes = NodeList(config.peers)
        """The cluster's node addresses for ``welcome.nodes`` (``server/core/cluster_nodes.py``)."""
        self.creations = PerAddress(
            config.room_creations_per_minute / 60.0, config.room_creation_burst
        )
        self._armed: dict[str, float | None] = {}
        self._expiry: dict[str, float] = {}
        """Roomless, disconnected identities: player id -> when they are forgotten."""
        self._journal_n: dict[str, int] = {}
        self._budgets: dict[str, RoomBudget] = {}
        """Each room's spectator budgets (``server/core/fanout.py``), made when first needed."""
        self._snapshot_n: dict[str, int] = {}
        """Per room, the journal entry its latest snapshot follows."""
        self._replaying = False
        self._released: list[str] = []
        self._kept: list[Identity] = []
        """Offline rated players who left their room in this input (kept, not forgotten)."""
        self._cast: Cast | None = None
        """While a journal replays: the people it acts on (``server/core/restoring.py``)."""
        self.restorer = Restorer(self)
        self.quarantine: dict[str, Quarantined] = {}
        """Rooms that could not be restored, set aside for the operator, by code."""
        self.lost: dict[str, str] = {}
        """Members of a room set aside -> its code: told ``room-lost`` at their next hello."""
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

    # -- session inputs -------------------------------------------------------
    def hello(self, msg: p.Hello, now: float, address: str = "") -> tuple[Identity, list[Effect]]:
        """A connection (from ``address``) says hello: resume the token's identity
        or make a new one. A name that cannot be kept raises ProtocolError.

        The caller binds the connection to the identity (closing an older one
        that spoke for it) before carrying out the effects. A token the operator
        banned raises ProtocolError(``banned``) before anything changes."""
        if msg.token:
            ban = self.bans.token(token_hash(msg.token), now)
            if ban is not None:
                raise ProtocolError(
                    ErrorCode.BANNED, refusal(ban), msg.id, retry_after=round(ban.until - now, 3)
                )
        name = clean_name(msg.name, msg.id)
        about = described(msg.device, msg.id)
        out = Outbox()
        ident: Identity | None
        token: str | None
        if msg.link is not None:
            ident, token = self._redeem(out, msg, address, now)
        else:
            ident = self.identities.resume(msg.token) if msg.token else None
            token = msg.token
            if ident is not None and ident.linked:  # a ban names the first device's token
                ban = self.bans.token(ident.ban_key(), now)
                if ban is not None:
                    raise ProtocolError(
                        ErrorCode.BANNED,
                        refusal(ban),
                        msg.id,
                        retry_after=round(ban.until - now, 3),
                    )
        if ident is None or ident.bot is not None or token is None:
            ident, token = self.identities.create(name)
        elif ident.room is None and msg.link is None:
            ident.name = name
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

    def _tell_lost(self, out: Outbox, ident: Identity) -> None:
        """A member of a room set aside says hello: tell it ``room-lost`` (once)."""
        code = self.lost.pop(ident.id, None) if ident.room is None else None
        q = self.quarantine.get(code) if code is not None else None
        if q is not None:
            out.send([ident.id], room_lost(q))

    def _redeem(self, out: Outbox, msg: p.Hello, address: str, now: float) -> tuple[Identity, str]:
        """``hello`` with a link code: the identity that asked for it, with a new
        token of this device's own (its hash kept beside the first one's)."""
        assert msg.link is not None
        wait = self.links.wait(address, now)
        if wait > 0:
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                f"Too many wrong link codes; wait {wait:.1f} s before trying again.",
                msg.id,
                retry_after=round(wait, 3),
            )
        try:
            player, digest = self.links.redeem(msg.link, address, now)
            ident = self.identities.by_id.get(player)
            if ident is None or ident.bot is not None:
                raise LinkRefused(player)
        except LinkRefused:
            raise ProtocolError(
                ErrorCode.BAD_LINK,
                "That link code is wrong, used or expired; ask the other device for a new one.",
                msg.id,
            ) from None
        out.add(DropLinkCode(digest))
        ban = self.bans.token(ident.ban_key(), now)
        if ban is not None:
            raise ProtocolError(
                ErrorCode.BANNED, refusal(ban), msg.id, retry_after=round(ban.until - now, 3)
            )
        token = secrets.token_urlsafe(24)
        self.identities.add_token(ident, token_hash(token))
        out.add(SaveToken(ident.id, token_hash(token)))
        self._refresh_devices(ident)
        devices.cap(out, self.identities, ident, keep={token_hash(token)})
        log.info("%s linked a new device from %s", ident.id, address, extra={"player": ident.id})
        return ident, token

    def _link_code(self, out: Outbox, ident: Identity, msg: p.LinkCode, now: float) -> None:
        """A one-time code for another device to become this identity (the asking
        address's oldest code goes past its share: ``LinkCodes.make_room``)."""
        for dropped, pid in self.links.make_room(ident.address, ident.id, now):
            out.add(DropLinkCode(dropped))
            kept = self.identities.by_id.get(pid)
            if kept is not None and pid in self._expiry:  # offline: kept for it no more
                self._expire_later(out, kept, now)
        code, digest, _old = self.links.issue(ident.id, now, ident.address)
        expires = self.links.expires(ident.id) or now
        out.add(SaveLinkCode(digest, ident.id, expires))
        out.send([ident.id], p.LinkCodeIssued(code=shown(code), expires_at=expires, re=msg.id))

    def _list_devices(self, out: Outbox, ident: Identity, msg: p.ListDevices, now: float) -> None:
        self._refresh_devices(ident)
        out.send([ident.id], devices.listing(msg.id, ident))

    def _sign_out_device(
        self, out: Outbox, ident: Identity, msg: p.SignOutDevice, now: float
    ) -> None:
        """Sign out one of the sender's devices (their own too: the session then closes
        this connection, ``server/core/session.py``)."""
        self._refresh_devices(ident)
        devices.sign_out(out, self.identities, ident, msg.device, msg.id)
        log.info("%s signed out a device", ident.id, extra={"player": ident.id})
        out.send([ident.id], devices.listing(msg.id, ident))

    def _refresh_devices(self, ident: Identity) -> None:
        """Before the device list is read or changed: one process knows every token
        already (a cluster node fetches the others' from the shared store)."""

    def handle(
        self, ident: Identity, msg: Any, now: float
    ) -> tuple[list[Effect], ProtocolError | None]:
        """Any message after ``hello``: its effects, or the refusal to send back.

        Time-driven rules of the sender's room run first (a clock that ran out
        ends the game before a late move is judged); a refused message changes
        nothing beyond that."""
        out = Outbox()
        before = ident.room
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

    # -- what rooms tell the hub (RoomHost) -----------------------------------
    def room_emptied(self, room: Room) -> None:
        self.lobby.remove(room)
        self._budgets.pop(room.code, None)
        log.info("room %s closed", room.code, extra={"room": room.code})

    def identity_released(self, ident: Identity, now: float) -> None:
        """``ident`` left its room for good: a computer or an offline player is
        forgotten now (an offline player with a rating is kept, see
        :meth:`_expire_later`); a connected one stays (in the lobby)."""
        if not ident.connected and not self._replaying:  # a restore sweeps at its end
            if (self.ratings.has(ident.id) and ident.bot is None) or (
                self.links.expires(ident.id) or 0.0
            ) > now:
                self._kept.append(ident)  # kept for its rating, or its link code
                return
            self.identities.forget(ident)
            self.links.forget_player(ident.id)
            self._released.append(ident.id)

    # -- the journal ----------------------------------------------------------
    def _input(
        self,
        out: Outbox,
        room: Room,
        entry: Entry | Callable[[], Entry],
        now: float,
        call: Callable[[], None],
        force: bool = False,
    ) -> None:
        """Run one input of ``room``; journal it if it changed the room (or ``force``:
        a restart, whose downtime and grace a later replay needs), keep the room's
        timer in step, and snapshot the room when a new game began. ``entry`` may be
        a function, for an input whose entry holds what it decided."""
        seq, games, pending = room.seq, room.games_started, room.pending
        room.refusal_counted = False
        self._released = []
        try:
            call()
        finally:
            for pid in self._released:
                out.add(ForgetIdentity(pid))
            self._released = []
            for kept in self._kept:
                self._expire_later(out, kept, now)
            self._kept = []
            changed = (
                force or room.seq != seq or room.refusal_counted or room.pending is not pending
            )
            if room.closed:
                if not self._replaying:
                    out.add(DropRoom(room.code))
                self._journal_n.pop(room.code, None)
                self._snapshot_n.pop(room.code, None)
            elif changed and not self._replaying:
                n = self._journal_n.get(room.code, 0) + 1
                self._journal_n[room.code] = n
                made = entry() if callable(entry) else entry
                out.add(Log(room.code, n, {**encode(made), "t": now}))
                if room.games_started != games:
                    out.add(SaveSnapshot(room.code, n, room.to_snapshot()))
                    self._snapshot_n[room.code] = n
                elif (
                    n - self._snapshot_n.get(room.code, 0) >= self.config.journal_rows
                    and room.can_snapshot()
                ):
                    out.add(SaveSnapshot(room.code, n, room.to_snapshot(whole=True)))
                    self._snapshot_n[room.code] = n
            self._after_room(out, room)

    @staticmethod
    def _attempt(call: Callable[[], None]) -> ProtocolError | None:
        try:
            call()
        except ProtocolError as exc:
            return exc
        return None

    def _room_named(self, code: str) -> Room | None:
        try:
            return self.lobby.find(code)
        except ProtocolError:
            return None

    @staticmethod
    def _saved(ident: Identity, expires: float | None = None) -> SaveIdentity:
        return SaveIdentity(ident.id, ident.token_hash, ident.name, ident.color, ident.bot, expires)

    def _forget(self, out: Outbox, ident: Identity) -> None:
        self.identities.forget(ident)
        self.links.forget_player(ident.id)
        out.add(ForgetIdentity(ident.id))

    # -- restoring (server/core/restoring.py) ----------------------------------
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
            self._host(out, ident, msg, now, _choices(entry))
        else:
            self._handlers[type(msg)](out, ident, msg, now)

    def password_tried(self, room: Room, ident: Identity, ok: bool, now: float) -> None:
        self.passwords.tried(room.code, ident.address, ok, now)

    # -- helpers --------------------------------------------------------------
    def _due(self, room: Room, now: float) -> bool:
        """Has the room's next deadline come? Until it has, :meth:`Room.tick` has
        nothing to do (every input re-arms it through :meth:`_after_room`), so a
        move does not pay for a tick it does not need."""
        at = self._armed.get(room.code)
        return at is not None and now >= at

    def _after_room(self, out: Outbox, room: Room) -> None:
        """Keep the room's timer in step with its next deadline."""
        at = None if room.closed else room.deadline()
        if self._armed.get(room.code) == at:
            return
        out.add(Wake(room.code, at))
        if at is None:
            del self._armed[room.code]
        else:
            self._armed[room.code] = at

    def _expire_later(self, out: Outbox, ident: Identity, now: float) -> None:
        """Keep a roomless, disconnected identity resumable for the grace period; one
        with a rating for ``rated_identity_days``, so no one loses a rating by
        stepping away; one with a link code while the code works."""
        at = max(now + self.config.grace_seconds, self.links.expires(ident.id) or 0.0)
        if self.ratings.has(ident.id):
            days = self.config.rated_identity_days or KEPT_FOR_GOOD
            at = max(at, now + days * 86400.0)
        self._expiry[ident.id] = at
        out.add(Wake("@" + ident.id, at))
        out.add(self._saved(ident, expires=at))

    @staticmethod
    def _room(ident: Identity) -> Room:
        room = ident.room
        if room is None:
            raise ProtocolError(ErrorCode.NOT_IN_ROOM, "Join or create a room first.")
        return room

    @staticmethod
    def _not_in_room(ident: Identity) -> None:
        room = ident.room
        if room is not None:
            raise ProtocolError(
                ErrorCode.ALREADY_IN_ROOM, f"You are in room {room.code}; leave it first."
            )

    # -- lobby messages -------------------------------------------------------
    def _list_rooms(self, out: Outbox, ident: Identity, msg: p.ListRooms, now: float) -> None:
        out.send([ident.id], p.Rooms(rooms=self.lobby.listing(), re=msg.id))

    def _create_room(self, out: Outbox, ident: Identity, msg: p.CreateRoom, now: float) -> None:
        self._not_in_room(ident)
        wait = self.creations.take(ident.address, now)
        if wait > 0:
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                f"Your address is creating rooms too fast; wait {wait:.1f} s.",
                msg.id,
                retry_after=round(wait, 3),
            )
        room = self.lobby.create(
            ident, msg.game, msg.options, msg.private, msg.password, ident.address
        )
        room.max_spectators = self.config.max_spectators
        room.ratings = self.ratings
        log.info(
            "%s created room %s (%s)",
            ident.name,
            room.code,
            room.spec.name,
            extra={"room": room.code, "player": ident.id},
        )
        out.add(
            SaveRoom(
                room.code,
                {
                    "code": room.code,
                    "game": room.spec.name,
                    "options": room.options,
                    "creator": room.creator,
                    "private": room.private,
                    "password": _b64(room.password_hash),
                    "salt": _b64(room.salt),
                    "seed": room.seed,
                    "address": room.address,
                    "created_at": now,
                },
            )
        )
        self._input(
            out,
            room,
            Joined(ident.id, "player", ident.name, ident.color),
            now,
            lambda: room.enter(out, ident, "player", now, msg.id),
        )
        level = room.options.get("ai")
        if level:
            bot, _ = self.identities.create(computer_name(str(level)), bot=str(level))
            out.add(self._saved(bot))
            self._input(
                out,
                room,
                ComputerSeated(bot.id, str(level)),
                now,
                lambda: room.seat_computer(out, bot, now),
            )

    def _join_room(self, out: Outbox, ident: Identity, msg: p.JoinRoom, now: float) -> None:
        room = self.lobby.find(msg.room)
        budgeted = False
        if not self._replaying:
            self._not_in_room(ident)
            room.mod.check_join(ident, now, msg.id)
            if room.protected and msg.password is not None:
                wait = self.passwords.wait(room.code, ident.address, now)
                if wait > 0:
                    raise ProtocolError(
                        ErrorCode.RATE_LIMITED,
                        f"Too many wrong passwords; wait {wait:.1f} s before trying again.",
                        msg.id,
                        retry_after=round(wait, 3),
                    )
            budgeted = msg.role == "spectator" or room.status == "playing"  # may watch
            if budgeted:
                if msg.role == "spectator":
                    room.check_spectator_seat(msg.id)
                self._afford(
                    room,
                    "roster",
                    now,
                    msg.id,
                    "People are arriving in this room as fast as it allows",
                    joining=True,
                )
        room.join(out, ident, msg.role, msg.password, now, msg.id, verified=self._replaying)
        if not self._replaying and budgeted and ident.room is room:  # in (no password due)
            self._budget(room, now).charge("roster", len(room.members), now)

    def _leave_room(self, out: Outbox, ident: Identity, msg: p.LeaveRoom, now: float) -> None:
        room = self._room(ident)
        if ident.role == "spectator" and not self._replaying:
            self._budget(room, now).charge("roster", len(room.members), now)
        room.leave(out, ident, now, msg.id)

    def _sync(self, out: Outbox, ident: Identity, msg: p.Sync, now: float) -> None:
        self._room(ident).sync(out, ident, msg.since, now, re=msg.id)

    # -- room messages --------------------------------------------------------
    def _player_info(self, out: Outbox, ident: Identity, msg: p.PlayerInfo, now: float) -> None:
        if msg.name is None and msg.color is None:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "Send a name, a color, or both.")
        name = None if msg.name is None else clean_name(msg.name, msg.id)
        color = None if msg.color is None else clean_color(msg.color, msg.id)
        room = ident.room
        if room is None:  # nobody to tell: the sender gets its profile back
            if name is not None:
                ident.name = name
            if color is not None:
                ident.color = color
            out.send(
                [ident.id],
                p.Profile(player=ident.id, name=ident.name, color=ident.color, re=msg.id),
            )
            return
        spectator = ident.role == "spectator" and not self._replaying
        if spectator:
            self._afford(
                room,
                "roster",
                now,
                msg.id,
                "This room's spectators are changing names as fast as it allows",
            )
        room.update_info(out, ident, name, color)
        if spectator:
            self._budget(room, now).charge("roster", len(room.members), now)
        if not self._replaying:
            out.add(self._saved(ident))

    def _move(self, out: Outbox, ident: Identity, msg: p.Move, now: float) -> None:
        self._room(ident).move(out, ident, msg.move, now, re=msg.id)

    def _chat(self, out: Outbox, ident: Identity, msg: p.Chat, now: float) -> None:
        room = self._room(ident)
        room.mod.check_chat(ident, now, msg.id)
        if ident.role == "spectator" and not self._replaying:
            self._afford(
                room,
                "chat",
                now,
                msg.id,
                "This room's spectators are chatting as fast as it allows",
            )
            self._budget(room, now).charge("chat", len(room.members), now)
        room.say(out, ident, msg.text, now)

    def _budget(self, room: Room, now: float) -> RoomBudget:
        budget = self._budgets.get(room.code)
        if budget is None:
            c = self.config
            budget = self._budgets[room.code] = RoomBudget(
                (c.spectator_chat_frames_per_second, c.spectator_chat_frames_burst),
                (c.spectator_roster_frames_per_second, c.spectator_roster_frames_burst),
                now,
            )
        return budget

    def _afford(
        self, room: Room, kind: Kind, now: float, rid: int | None, what: str, joining: bool = False
    ) -> None:
        """Refuse unless the room's spectator budget has room for an event to every
        member (and a joiner); the caller charges it once the event happened (a
        refusal costs nothing)."""
        wait = self._budget(room, now).wait(kind, len(room.members) + joining, now)
        if wait > 0:
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                f"{what}; wait {wait:.1f} s.",
                rid,
                retry_after=round(wait, 3),
            )

    def _resign(self, out: Outbox, ident: Identity, msg: p.Resign, now: float) -> None:
        self._room(ident).resign(out, ident, now)

    def _play_again(self, out: Outbox, ident: Identity, msg: p.PlayAgain, now: float) -> None:
        self._room(ident).play_again(out, ident, now)

    def _agree_again(self, out: Outbox, ident: Identity, msg: p.AgreeAgain, now: float) -> None:
        self._room(ident).agree_again(out, ident, now, re=msg.id)

    def _decline_again(self, out: Outbox, ident: Identity, msg: p.DeclineAgain, now: float) -> None:
        self._room(ident).decline_again(out, ident)

    def _offer(self, out: Outbox, ident: Identity, msg: p.Offer, now: float) -> None:
        self._room(ident).offer(out, ident, msg.kind, now)

    def _answer(self, out: Outbox, ident: Identity, msg: p.Answer, now: float) -> None:
        self._room(ident).answer(out, ident, msg.kind, msg.accept, now)

    def _start(self, out: Outbox, ident: Identity, msg: p.Start, now: float) -> None:
        self._room(ident).start(out, ident, now, re=msg.id)

    def _host(
        self,
        out: Outbox,
        ident: Identity,
        msg: p.Host,
        now: float,
        choices: dict[str, str] | None = None,
    ) -> None:
        """A host action. What it decides from outside the room, the address a kick
        keeps out and the id of a computer it seats, goes into ``choices`` for its
        journal entry (and comes from there on a replay: addresses are not known then)."""
        room = self._room(ident)
        got: dict[str, str] = {} if choices is None else choices

        def kick_address(target: Identity) -> str:
            if self._replaying:
                return str(got.get("addr", ""))
            addr = target.address
            if not addr or any(m.address == addr for m in room.members if m is not target):
                return ""  # shared (a classroom behind one NAT): only the identity is kept out
            got["addr"] = addr
            return addr

        def new_computer(level: str) -> Identity:
            if self._cast is not None:  # a replay: the id the journal kept
                return self._cast.computer(str(got["seat"]), level)
            bot, _ = self.identities.create(computer_name(level), bot=level)
            got["seat"] = bot.id
            return bot

        room.host_action(out, ident, msg, now, kick_address, new_computer)
        if msg.action == "computer" and not self._replaying:
            for bot in room.seated:
                if bot.bot:
                    out.add(self._saved(bot))


def _choices(entry: Request) -> dict[str, str]:
    """What a journalled host action decided (see :meth:`Hub._host`)."""
    found = {"addr": entry.address, "seat": entry.seat}
    return {k: v for k, v in found.items() if v is not None}


def _b64(data: bytes | None) -> str | None:
    return None if data is None else base64.b64encode(data).decode()
