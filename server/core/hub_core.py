"""The hub's state, and the one path every room input takes.

:class:`HubCore` holds what the hub knows (identities, the lobby, link codes, bans,
ratings, timers, journal counters) and runs each room input through :meth:`_input`:
journalled if it changed the room (a ``Log`` effect; a snapshot when a new game
began or every ``journal_rows`` entries), the room's timer kept in step with its
next deadline, identities released in it forgotten or kept. The request handlers
(``lobby_requests.py``, ``room_requests.py``, ``device_requests.py``) are mixins on
this base and :class:`~gridhall.server.core.hub.Hub` puts them together: the
cluster's hub overrides handlers by subclassing (``server/cluster/cluster_hub.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from gridhall.protocol import ErrorCode, ProtocolError

from .bans import Bans, refusal
from .cluster_nodes import NodeList
from .config import ServerConfig
from .effects import DropRoom, ForgetIdentity, Log, Outbox, SaveIdentity, SaveSnapshot, Wake
from .entropy import Entropy
from .fairness import PasswordGuard, PerAddress
from .fanout import Kind, RoomBudget
from .identity import Identities, Identity
from .journal import JSON, Entry, encode
from .linking import LinkCodes
from .lobby import Lobby
from .ratings import Ratings
from .restoring import Cast, Quarantined
from .room import Room

log = logging.getLogger("gridhall.hub")

KEPT_FOR_GOOD = 100 * 365.0
"""Days a rated identity is kept offline when ``rated_identity_days`` is 0 (no limit)."""


class HubCore:
    """The hub's state and its journal; see the module docstring. Also the rooms'
    :class:`~gridhall.server.core.room.RoomHost`."""

    def __init__(self, config: ServerConfig, entropy: Entropy) -> None:
        self.config = config
        self.entropy = entropy
        """Where every token, code and seed comes from (``server/core/entropy.py``:
        the ``secrets`` module, passed in by the I/O layer)."""
        self.identities = Identities(entropy)
        self.lobby = Lobby(
            self,
            config.max_rooms,
            config.grace_seconds,
            config.max_rooms_per_address,
            entropy=entropy,
        )
        self.passwords = PasswordGuard()
        self.links = LinkCodes(entropy)
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
        self.quarantine: dict[str, Quarantined] = {}
        """Rooms that could not be restored, set aside for the operator, by code."""
        self.lost: dict[str, str] = {}
        """Members of a room set aside -> its code: told ``room-lost`` at their next hello."""

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

    def password_tried(self, room: Room, ident: Identity, ok: bool, now: float) -> None:
        self.passwords.tried(room.code, ident.address, ok, now)

    def _input(
        self,
        out: Outbox,
        room: Room,
        entry: Entry | Callable[[], Entry | JSON],
        now: float,
        call: Callable[[], None],
        force: bool = False,
    ) -> None:
        """Run one input of ``room``; journal it if it changed the room (or ``force``:
        a restart, whose downtime and grace a later replay needs), keep the room's
        timer in step, and snapshot the room when a new game began. ``entry`` may be
        a function, for an input whose entry holds what it decided, and may give
        the entry as the store keeps it already (a move's: ``journal.move_entry``)."""
        mark = self._input_begins(room)
        try:
            call()
        finally:
            self._input_done(out, room, mark, entry, now, force)

    def _input_begins(self, room: Room) -> tuple[int, int, object]:
        """Before an input of ``room``: its mark for :meth:`_input_done` (seq, games
        started, pending job), nothing counted or released yet."""
        room.refusal_counted = False
        if self._released:
            self._released = []
        return (room.events.seq, room.games_started, room.jobs.pending)

    def _input_done(
        self,
        out: Outbox,
        room: Room,
        mark: tuple[int, int, object],
        entry: Entry | Callable[[], Entry | JSON] | JSON,
        now: float,
        force: bool = False,
    ) -> None:
        """What follows every input of ``room`` (see :meth:`_input`), whether it was
        taken or refused; ``mark`` is :meth:`_input_begins`'s, from before it. A move
        (``Hub._move_in``) comes here directly."""
        if self._released:
            for pid in self._released:
                out.add(ForgetIdentity(pid))
            self._released = []
        if self._kept:
            for kept in self._kept:
                self._expire_later(out, kept, now)
            self._kept = []
        seq, games, pending = mark
        code = room.code
        closed = room.closed
        if closed:
            if not self._replaying:
                out.add(DropRoom(code))
            self._journal_n.pop(code, None)
            self._snapshot_n.pop(code, None)
        elif (
            force
            or room.events.seq != seq
            or room.refusal_counted
            or room.jobs.pending is not pending
        ) and not self._replaying:
            n = self._journal_n.get(code, 0) + 1
            self._journal_n[code] = n
            made = entry() if callable(entry) else entry
            data = made if isinstance(made, dict) else encode(made)  # a map of its own
            data["t"] = now
            out.effects.append(Log(code, n, data))
            if room.games_started != games:
                out.add(SaveSnapshot(code, n, room.to_snapshot()))
                self._snapshot_n[code] = n
            elif (
                n - self._snapshot_n.get(code, 0) >= self.config.journal_rows
                and room.can_snapshot()
            ):
                out.add(SaveSnapshot(code, n, room.to_snapshot(whole=True)))
                self._snapshot_n[code] = n
        self._after_room(out, room)

    def _refuse_banned(self, key: str, now: float, rid: int | None) -> None:
        """ProtocolError(``banned``) if the operator banned the token ``key`` names."""
        ban = self.bans.token(key, now)
        if ban is not None:
            raise ProtocolError(
                ErrorCode.BANNED, refusal(ban), rid, retry_after=round(ban.until - now, 3)
            )

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

    def _due(self, room: Room, now: float) -> bool:
        """Has the room's next deadline come? Until it has, :meth:`Room.tick` has
        nothing to do (every input re-arms it through :meth:`_after_room`), so a
        move does not pay for a tick it does not need."""
        at = self._armed.get(room.code)
        return at is not None and now >= at

    def _after_room(self, out: Outbox, room: Room) -> None:
        """Keep the room's timer in step with its next deadline."""
        at = None if room.closed else room.deadline()
        if self._armed.get(room.code) != at:
            self._arm(out, room.code, at)

    def _arm(self, out: Outbox, code: str, at: float | None) -> None:
        """Room ``code``'s timer now fires at ``at`` (None: never)."""
        out.add(Wake(code, at))
        if at is None:
            del self._armed[code]
        else:
            self._armed[code] = at

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
