"""A room as a pure state machine: seats, spectators, chat, the game, and the order
of everything.

Every input is a method call carrying the time (``now``, unix seconds) and an
:class:`~gridhall.server.core.effects.Outbox`; the room changes its state and appends
what to send, what to store and what to think about. It never touches a socket,
a clock, a timer or a database, so tests drive it directly and the same inputs
always give the same outputs (durability can replay them). ``deadline()`` tells
the layer around it when to call :meth:`Room.tick` next: a game clock, a
countdown, or the end of a dropped player's reconnect grace.

One room processes one input at a time. Each event the room emits takes the next
``seq``; every recipient of that event gets the same number. Snapshots (``state``
to one member on join, sync or resume) repeat the current ``seq``.

:class:`Room` is a facade: it holds the room's state and takes its inputs, and its
parts, each readable and tested alone, do the work: who is in it (``seating.py``),
what they say (``talk.py``), what the players agree on (``consent.py``), the game
(``driver.py``), its rounds (``rounds.py``), its jobs' answers (``answers.py``),
what members see (``views.py``), and the host's actions (``host_actions.py``); the
numbered events (``events.py``), the job in flight (``jobs.py``), the phases
(``lifecycle.py``) and the snapshot the store keeps (``snapshot.py``).
"""

from __future__ import annotations

import hmac
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol, cast

from gridhall import protocol as p
from gridhall.protocol import Termination

from ...games.base import JSON, Game, GameSpec
from ..effects import Outbox
from ..hosting import Moderation
from ..identity import Identity
from ..passwords import hash_password
from ..ratings import Ratings
from . import host_actions
from . import snapshot as snapshots
from .answers import Answers
from .consent import Consent
from .driver import GameDriver
from .events import EventLog
from .jobs import BUSY_RETRY, JobSlot, Pending, Role
from .lifecycle import Lifecycle, Phase, Status
from .rounds import Rounds
from .seating import Seating
from .snapshot import Snapshot, game_seed
from .talk import CHAT_HISTORY, Talk
from .views import Views


class RoomHost(Protocol):
    """What a room tells the hub around it (synchronously, no I/O)."""

    def room_emptied(self, room: Room) -> None: ...

    def identity_released(self, ident: Identity, now: float) -> None: ...

    def password_tried(self, room: Room, ident: Identity, ok: bool, now: float) -> None: ...


__all__ = [
    "BUSY_RETRY",
    "CHAT_HISTORY",
    "Pending",
    "Room",
    "RoomHost",
    "game_seed",
    "hash_password",
]


class Room:
    """One room; see the module docstring. ``seed`` is secret (boards derive from it)."""

    def __init__(
        self,
        host: RoomHost,
        code: str,
        spec: GameSpec,
        options: JSON,
        creator: str,
        private: bool,
        password: bytes | None,
        salt: bytes,
        seed: int,
        grace_seconds: float,
        address: str = "",
    ) -> None:
        self.host = host
        self.code = code
        self.spec = spec
        self.options = options
        self.private = private
        self._password = password
        self.protected = password is not None
        """Joining needs a password (its digest may still be on its way)."""
        self.address = address
        """The address that created the room (rooms per address are capped)."""
        self._salt = salt
        self.seed = seed
        self.grace_seconds = grace_seconds
        self.creator = creator
        self.seats: list[Identity | None] = [None] * spec.max_players(options)
        self.spectators: list[Identity] = []
        self.events = EventLog()
        """The numbered events and their replay buffer (``events.py``)."""
        self.jobs = JobSlot(code, address)
        """The room's one heavy job in flight (``jobs.py``, see :meth:`work_done`)."""
        self.life = Lifecycle()
        """The room's phase (``lifecycle.py``): waiting, playing, over, closed."""
        self.chat: deque[JSON] = deque(maxlen=CHAT_HISTORY)
        self.game: Game | None = None
        self.games_started = 0
        self.round_no = 0
        self.game_started_at = 0.0
        self.game_players: list[str] = []
        """Who plays the current game (a snapshot remakes it for them)."""
        self.over_announced = False
        self.again: list[str] | None = None
        self.grace: dict[str, float] = {}
        """Seated players whose connection dropped: player id -> end of their grace."""
        self.thinking: dict[str, JSON] = {}
        """Computer players asked for a move: bot id -> the position they think about."""
        self.refusal_counted = False
        """Set when a refused move still changed the game (its rules count misses)."""
        self.max_spectators: int | None = None
        """Spectators admitted at most (None: no cap, as while a journal replays)."""
        self.mod = Moderation(host=creator)
        """The room's host, lock, mutes and kicks (``server/core/hosting.py``)."""
        self.ratings: Ratings | None = None
        """The server's ratings, which a rated game updates (None while a journal
        replays: the store already holds what those games changed)."""
        self.views = Views(self)
        self.seating = Seating(self)
        self.talk = Talk(self)
        self.consent = Consent(self)
        self.driver = GameDriver(self)
        self.move = self.driver.move
        """Apply a member's move (:meth:`GameDriver.move`), bound once: every move calls it."""
        self.rounds = Rounds(self)
        self.answers = Answers(self)

    # -- the state, as the hub and tests read it ------------------------------------
    @property
    def seq(self) -> int:
        """The ``seq`` of the room's latest event."""
        return self.events.seq

    @seq.setter
    def seq(self, value: int) -> None:
        self.events.seq = value

    @property
    def recent(self) -> Any:
        return self.events.recent

    @property
    def pending(self) -> Pending | None:
        """The room's one heavy job in flight."""
        return self.jobs.pending

    @property
    def closed(self) -> bool:
        return self.life.phase is Phase.CLOSED

    @property
    def status(self) -> Status:
        return self.life.status

    @property
    def seated(self) -> list[Identity]:
        return list(filter(None, self.seats))

    @property
    def members(self) -> list[Identity]:
        return list(filter(None, self.seats)) + self.spectators  # every event asks

    def member_ids(self, exclude: Identity | None = None) -> list[str]:
        return [m.id for m in self.members if m is not exclude]

    def member(self, pid: str) -> Identity | None:
        """The member with id ``pid``, if there is one."""
        return next((m for m in self.members if m.id == pid), None)

    def seat_of(self, ident: Identity) -> int | None:
        for n, s in enumerate(self.seats):
            if s is ident:
                return n
        return None

    def summary(self) -> JSON:
        """The lobby's line for this room."""
        return {
            "room": self.code,
            "game": self.spec.name,
            "options": self.options,
            "players": [s.name for s in self.seated],
            "spectators": len(self.spectators),
            "status": self.status,
            "private": self.private,
            "seats": len(self.seats),
            "locked": self.mod.locked,
            "host": next((m.name for m in self.members if m.id == self.mod.host), None),
        }

    @property
    def password_hash(self) -> bytes | None:
        return self._password

    @property
    def salt(self) -> bytes:
        return self._salt

    def check_password(self, password: str | None) -> bool:
        """The password check done inline (tests, tools); joins use a job."""
        if not self.protected:
            return True
        if self._password is None:
            return False
        given = hash_password(password or "", self._salt)
        return hmac.compare_digest(given, self._password)

    def deadline(self) -> float | None:
        """When :meth:`tick` must run next (None: nothing is timed)."""
        if not self.grace and not self.mod.muted:  # every move asks: the common case first
            game = self.game
            return game.deadline() if game is not None and game.result is None else None
        times = list(self.grace.values())
        mute_end = self.mod.next_mute_end()
        if mute_end is not None:
            times.append(mute_end)
        game = self.game
        if game is not None and game.result is None:
            game_deadline = game.deadline()
            if game_deadline is not None:
                times.append(game_deadline)
        return min(times) if times else None

    # -- what members see (views.py) --------------------------------------------------
    def broadcast(
        self, out: Outbox, make: Callable[[int], Any], exclude: Identity | None = None
    ) -> int:
        return self.views.broadcast(out, make, exclude)

    def snapshot(
        self, viewer: str | None, seq: int | None = None, re: int | None = None
    ) -> p.State:
        return self.views.snapshot(viewer, seq, re)

    def sync(
        self, out: Outbox, ident: Identity, since: int | None, now: float, re: int | None = None
    ) -> None:
        self.views.sync(out, ident, since, now, re)

    # -- the inputs -----------------------------------------------------------------
    def join(
        self,
        out: Outbox,
        ident: Identity,
        role: Role,
        password: str | None,
        now: float,
        re: int | None,
        verified: bool = False,
    ) -> None:
        self.seating.join(out, ident, role, password, now, re, verified)

    def enter(self, out: Outbox, ident: Identity, role: Role, now: float, re: int | None) -> None:
        self.seating.enter(out, ident, role, now, re)

    def check_spectator_seat(self, re: int | None = None) -> None:
        self.seating.check_spectator_seat(re)

    def seat_computer(self, out: Outbox, bot: Identity, now: float) -> None:
        self.seating.seat_computer(out, bot, now)

    def leave(
        self,
        out: Outbox,
        ident: Identity,
        now: float,
        re: int | None = None,
        reason: Termination = Termination.RESIGN,
        kicked: float | None = None,
    ) -> None:
        self.seating.leave(out, ident, now, re, reason, kicked)

    def close(self, now: float) -> None:
        self.seating.close(now)

    def disconnected(self, out: Outbox, ident: Identity, now: float) -> None:
        self.seating.disconnected(out, ident, now)

    def resumed(
        self, out: Outbox, ident: Identity, now: float, re: int | None, since: int | None = None
    ) -> None:
        self.seating.resumed(out, ident, now, re, since)

    def say(self, out: Outbox, ident: Identity, text: str, now: float) -> None:
        self.talk.say(out, ident, text, now)

    def update_info(
        self, out: Outbox, ident: Identity, name: str | None, color: str | None
    ) -> None:
        self.talk.update_info(out, ident, name, color)

    def resign(self, out: Outbox, ident: Identity, now: float) -> None:
        self.driver.resign(out, ident, now)

    def computer_move(
        self, out: Outbox, bot: Identity, request: JSON, move: JSON, now: float
    ) -> None:
        self.driver.computer_move(out, bot, request, move, now)

    def offer(self, out: Outbox, ident: Identity, kind: str, now: float) -> None:
        self.consent.offer(out, ident, kind, now)

    def answer(self, out: Outbox, ident: Identity, kind: str, accept: bool, now: float) -> None:
        self.consent.answer(out, ident, kind, accept, now)

    def play_again(self, out: Outbox, ident: Identity, now: float) -> None:
        self.consent.play_again(out, ident, now)

    def agree_again(self, out: Outbox, ident: Identity, now: float, re: int | None = None) -> None:
        self.consent.agree_again(out, ident, now, re)

    def decline_again(self, out: Outbox, ident: Identity) -> None:
        self.consent.decline_again(out, ident)

    def start(self, out: Outbox, ident: Identity, now: float, re: int | None = None) -> None:
        self.rounds.start(out, ident, now, re)

    def work_done(self, out: Outbox, ticket: int, answer: JSON, now: float) -> None:
        self.answers.work_done(out, ticket, answer, now)

    def host_action(
        self,
        out: Outbox,
        ident: Identity,
        msg: p.Host,
        now: float,
        kick_address: Callable[[Identity], str],
        new_computer: Callable[[str], Identity],
    ) -> None:
        """One ``host`` request (``host_actions.py``); ProtocolError to refuse."""
        host_actions.host_action(self, out, ident, msg, now, kick_address, new_computer)

    def tick(self, out: Outbox, now: float) -> None:
        """Let time-driven rules run: mutes, reconnect grace, game clocks, countdowns."""
        self.talk.mutes_ended(out, now)
        self.seating.grace_ended(out, now)
        self.driver.tick(out, now)

    def restored(self, out: Outbox, now: float, downtime: float) -> None:
        """The server came back after ``downtime`` seconds: clocks resume where they
        stopped, and every person has the grace period, from now, to come back."""
        if self.game is not None and self.game.result is None:
            self.game.shift(downtime)
        self.seating.restored(now)
        self.thinking.clear()
        self.jobs.resume(out)
        if self.game is not None:
            self.driver.after_action(out, now)

    # -- durability (snapshot.py) -----------------------------------------------------
    def to_snapshot(self, whole: bool = False) -> JSON:
        """The room's state as plain data (``snapshot.py``'s :class:`Snapshot`)."""
        return cast(JSON, snapshots.to_snapshot(self, whole))

    def can_snapshot(self) -> bool:
        """Can :meth:`to_snapshot` (``whole``) describe the room now?"""
        return snapshots.can_snapshot(self)

    def load_snapshot(self, snap: Snapshot | JSON, member: Callable[[str], Identity]) -> None:
        """Become the room :meth:`to_snapshot` described; ``member`` finds identities."""
        snapshots.load_snapshot(self, snap, member)
