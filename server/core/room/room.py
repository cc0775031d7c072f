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

The class composes the parts that are each readable and tested alone: the numbered
events and their replay buffer (``events.py``), the one job in flight (``jobs.py``),
the snapshot the store keeps (``snapshot.py``), the phases, as one transition
table (``lifecycle.py``), and the host's actions (``host_actions.py``). What stays here
is who may do what, and in which order.
"""

from __future__ import annotations

import hmac
import logging
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol, cast

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError, Termination
from gridhall.protocol.computer_policy import ComputerPolicy
from gridhall.protocol.schema import evolve

from ...games.base import (
    JSON,
    Game,
    GameError,
    GameSpec,
    PreparedGames,
    PreparedMoves,
    move_work,
    new_game_work,
)
from ...games.jobs import Job
from ..effects import Outbox, SaveChat, SaveGame, Send, Think
from ..hosting import Moderation
from ..identity import Identity
from ..names import name_key, unique_name
from ..passwords import hash_password, password_job, same_digest
from ..ratings import Change, Ratings, Seat, announced
from . import host_actions
from . import snapshot as snapshots
from .events import EventLog
from .jobs import BUSY_RETRY, JobSlot, Pending, Role
from .lifecycle import Lifecycle, Status, Step
from .snapshot import Snapshot, game_seed

log = logging.getLogger("gridhall.room")

CHAT_HISTORY = 50


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

    # -- the parts, as the hub and tests read them -----------------------------
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
    def _views(self) -> dict[str, JSON]:
        return self.events.views

    @property
    def pending(self) -> Pending | None:
        """The room's one heavy job in flight."""
        return self.jobs.pending

    @property
    def closed(self) -> bool:
        return self.life.closed

    # -- who is here ----------------------------------------------------------
    @property
    def seated(self) -> list[Identity]:
        return [s for s in self.seats if s is not None]

    @property
    def members(self) -> list[Identity]:
        return self.seated + self.spectators

    def member_ids(self, exclude: Identity | None = None) -> list[str]:
        return [m.id for m in self.members if m is not exclude]

    @property
    def status(self) -> Status:
        return self.life.status

    def _settle(self) -> None:
        """After any call into the game's rules: a game that now has a result is over
        (the lifecycle's state-triggered transition)."""
        game = self.game
        self.life.settle(game is not None and game.result is not None)

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

    # -- sending --------------------------------------------------------------
    def broadcast(
        self, out: Outbox, make: Callable[[int], Any], exclude: Identity | None = None
    ) -> int:
        """Emit one event (same ``seq`` for all) identical for every recipient."""
        return self.events.broadcast(out, self.member_ids(exclude), make)

    def broadcast_views(
        self, out: Outbox, make: Callable[[int, str | None], Any], deltas: bool = False
    ) -> int:
        """Emit one event with a ``view`` that depends on what the recipient may see
        (one ``seq``); see :meth:`EventLog.broadcast_views`."""
        return self.events.broadcast_views(out, self._view_groups(), make, deltas)

    def _view_groups(self) -> dict[str | None, list[Identity]]:
        """Members by the view they get (see :meth:`_viewer`), in member order; one
        group at once when the game's view is shared (every move asks)."""
        game = self.game
        if game is None or getattr(game, "shared_view", False):
            return {None: self.members}
        groups: dict[str | None, list[Identity]] = {}
        for m in self.members:
            groups.setdefault(self._viewer(m), []).append(m)
        return groups

    def missed(self, ident: Identity, since: int) -> list[Send] | None:
        """The events after ``since`` as ``ident`` would have got them, or None when
        some are no longer kept (the caller sends a ``state`` instead)."""
        return self.events.missed(ident, self._viewer(ident), since)

    def _viewer(self, ident: Identity) -> str | None:
        """The id a game builds a view for: only its own players see private state
        (None, like a spectator, in a game whose view is shared)."""
        game = self.game
        if game is None or getattr(game, "shared_view", False):
            return None
        return ident.id if ident.id in game.players else None

    def _snapshot_for(self, ident: Identity, re: int | None) -> p.State:
        """A ``state`` for one member. Should its view differ, in a list a delta
        patches, from the view the room's last event carried (something changed
        with no view sent), the next event goes whole to that viewer's group, so
        no delta is ever folded into a view it was not made from."""
        viewer = self._viewer(ident)
        state = self.snapshot(viewer, re=re)
        self.events.snapshot_taken(viewer, state.view)
        return state

    def snapshot(
        self, viewer: str | None, seq: int | None = None, re: int | None = None
    ) -> p.State:
        game = self.game
        return p.State(
            room=self.code,
            seq=self.seq if seq is None else seq,
            game=self.spec.name,
            options=self.options,
            status=self.status,
            players=[self._player_entry(n, s) for n, s in enumerate(self.seats) if s is not None],
            spectators=[s.name for s in self.spectators],
            spectator_ids=[s.id for s in self.spectators],
            view=game.view(viewer) if game is not None else {},
            turn=game.turn() if game is not None else None,
            result=game.result if game is not None else None,
            chat=list(self.chat),
            creator=self.creator,
            round=self.round_no,
            private=self.private,
            pending_again=list(self.again) if self.again else None,
            re=re,
            host=self.mod.host,
            locked=self.mod.locked,
            muted=[m.id for m in self.members if m.id in self.mod.muted],
        )

    @staticmethod
    def _player_entry(seat: int, s: Identity) -> JSON:
        entry: JSON = {"player": s.id, "name": s.name, "seat": seat, "connected": s.online}
        if s.color is not None:
            entry["color"] = s.color
        if s.bot:
            entry["bot"] = s.bot
        return entry

    def send_state(self, out: Outbox, ident: Identity, now: float, re: int | None = None) -> None:
        """A snapshot for one member; time-driven rules run first so clocks are fresh."""
        self.tick(out, now)
        out.send([ident.id], self._snapshot_for(ident, re))

    def sync(
        self, out: Outbox, ident: Identity, since: int | None, now: float, re: int | None = None
    ) -> None:
        """Bring one member up to date: the events after ``since`` when they are still
        kept, else (or without ``since``) a ``state``."""
        self.tick(out, now)
        events = self.missed(ident, since) if since is not None else None
        if events is None:
            out.send([ident.id], self._snapshot_for(ident, re))
            return
        for send in events:
            out.add(send)

    def broadcast_state(self, out: Outbox) -> None:
        self.broadcast_views(out, lambda seq, viewer: self.snapshot(viewer, seq=seq))

    # -- joining and leaving --------------------------------------------------
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
        """Seat or admit ``ident``; raises ProtocolError to refuse (changing nothing).
        A password is checked by a job: the answer comes later (:meth:`work_done`).
        ``verified``: a journal replay, whose answer comes from the journal too."""
        if self.protected:
            if password is None and not verified:
                raise ProtocolError(
                    ErrorCode.WRONG_PASSWORD, "This room is private; send its password.", re
                )
            job = None if password is None else password_job(password, self._salt)
            self._launch(out, job, Pending("join", "a password", ident, re, role=role))
            return
        self.enter(out, ident, role, now, re)

    def enter(self, out: Outbox, ident: Identity, role: Role, now: float, re: int | None) -> None:
        """Seat or admit ``ident`` once any password is settled."""
        seat: int | None = None
        if role == "player":
            seat = self.free_seat()
            if seat is None:
                raise ProtocolError(
                    ErrorCode.ROOM_FULL, "Every seat is taken; join as a spectator to watch."
                )
            game = self.game
            if self.status == "playing" and game is not None:
                if game.add_player(ident.id, now):
                    pass
                elif self.spec.start == "full":
                    raise ProtocolError(
                        ErrorCode.ROOM_FULL, "The game is under way; join as a spectator to watch."
                    )
                else:
                    seat, role = None, "spectator"  # a race in progress: watch this one
        if role == "spectator":
            self.check_spectator_seat(re)
        self._admit(out, ident, role, seat, now, re)

    def check_spectator_seat(self, re: int | None = None) -> None:
        """Refuse (``room-full``) one more spectator past the room's cap."""
        cap = self.max_spectators
        if cap is not None and len(self.spectators) >= cap:
            raise ProtocolError(
                ErrorCode.ROOM_FULL,
                f"This room has {cap} spectators, as many as it admits; try again later.",
                re,
            )

    def free_seat(self) -> int | None:
        return next((n for n, s in enumerate(self.seats) if s is None), None)

    def _admit(
        self, out: Outbox, ident: Identity, role: Role, seat: int | None, now: float, re: int | None
    ) -> None:
        ident.room, ident.role = self, role
        ident.name = unique_name(ident.name, [m.name for m in self.members])
        self.mod.arrive(ident.id)
        if seat is not None:
            self.seats[seat] = ident
        else:
            self.spectators.append(ident)
        joined = p.Joined(
            room=self.code,
            seq=0,
            role=role,
            seat=seat,
            player=ident.id,
            name=ident.name,
            connected=ident.online,
            color=ident.color,
            bot=ident.bot,
        )
        seq = self.broadcast(out, lambda s: evolve(joined, seq=s), exclude=ident)
        out.send([ident.id], evolve(joined, seq=seq, re=re))
        if self._maybe_start(out, now):
            return
        if seat is not None and self.status == "playing":
            self.send_state(out, ident, now, re=re)
            self.broadcast_state(out)  # the running game took the player in: new views
            return
        self.send_state(out, ident, now, re=re)

    def seat_computer(self, out: Outbox, bot: Identity, now: float) -> None:
        """Put a computer player in the first free seat."""
        seat = self.free_seat()
        assert seat is not None, "a computer is seated only in a room with a free seat"
        self._admit(out, bot, "player", seat, now, None)

    def leave(
        self,
        out: Outbox,
        ident: Identity,
        now: float,
        re: int | None = None,
        reason: Termination = Termination.RESIGN,
        kicked: float | None = None,
    ) -> None:
        """Remove ``ident``; a seated player in a game in progress forfeits. ``kicked``:
        the host removed them (until then; 0 for a computer), which ``left`` says; the
        game then learns it as ``REMOVED``, so the kick wins the game for nobody."""
        if kicked is not None:
            reason = Termination.REMOVED
        self.grace.pop(ident.id, None)
        self._abandon(out, ident)
        game = self.game
        playing = (
            game is not None
            and game.result is None
            and ident.id in game.players
            and self.seat_of(ident) is not None
        )
        if playing:
            assert game is not None
            game.resign(ident.id, now, reason=reason)
            self._settle()
            self._after_action(out, now)
        seat = self.seat_of(ident)
        if seat is not None:
            self.seats[seat] = None
        elif ident in self.spectators:
            self.spectators.remove(ident)
        if self.again is not None and ident.id in self.again:
            self.again = None
        why = None if kicked is None else "kicked"
        until = kicked or None
        seq = self.broadcast(
            out,
            lambda s: p.Left(
                room=self.code, seq=s, player=ident.id, name=ident.name, reason=why, until=until
            ),
            exclude=ident,
        )
        out.send(
            [ident.id],
            p.Left(
                room=self.code,
                seq=seq,
                player=ident.id,
                re=re,
                name=ident.name,
                reason=why,
                until=until,
            ),
        )
        ident.room, ident.role = None, None
        self.mod.depart(ident.id)
        if playing and self.members:  # the game's views changed (who is still in it)
            self.broadcast_state(out)
        if not ident.online or ident.bot:
            self.host.identity_released(ident, now)
        self._drop_lonely_bots(now)
        if self.mod.host == ident.id:
            host_actions.pass_host(self, out)
        if not any(m.connected or m.id in self.grace for m in self.members):
            pending = self.pending
            if pending is not None and pending.kind == "join":  # a guess still being checked
                self._tell(
                    out,
                    pending.ident,
                    ProtocolError(
                        ErrorCode.NO_SUCH_ROOM, "The room closed before your password was checked."
                    ),
                    pending.re,
                )
            self.close(now)

    def _drop_lonely_bots(self, now: float) -> None:
        if all(s.bot for s in self.seated) and not self.spectators:
            for bot in self.seated:
                self.seats[self.seats.index(bot)] = None
                bot.room, bot.role = None, None
                self.thinking.pop(bot.id, None)
                self.host.identity_released(bot, now)

    def _abandon(self, out: Outbox, ident: Identity) -> None:
        """``ident`` leaves while the room's job works for its request: answer that
        request now, since the job's answer will find nobody to tell."""
        pending = self.pending
        if (
            pending is not None
            and pending.ident is ident
            and pending.re is not None
            and pending.kind != "join"
        ):
            self._tell(
                out,
                ident,
                ProtocolError(
                    ErrorCode.NOT_IN_ROOM, f"You left the room before {pending.what} was ready."
                ),
                pending.re,
            )
            pending.re = None

    def close(self, now: float) -> None:
        """The room ends: nobody is left who could come back."""
        self.life.process(Step.CLOSE)
        self.grace.clear()
        self.thinking.clear()
        self.jobs.drop()
        for m in self.members:
            m.room, m.role = None, None
            if not m.online or m.bot:
                self.host.identity_released(m, now)
        self.host.room_emptied(self)

    # -- dropped connections --------------------------------------------------
    def disconnected(self, out: Outbox, ident: Identity, now: float) -> None:
        """A member's connection dropped: spectators leave, players keep the seat a while."""
        if self.seat_of(ident) is None:
            self.leave(out, ident, now)
            return
        self.grace[ident.id] = now + self.grace_seconds
        self._announce_info(out, ident)

    def resumed(
        self, out: Outbox, ident: Identity, now: float, re: int | None, since: int | None = None
    ) -> None:
        """``ident`` said hello again with its token: back in its seat, with what it
        missed (as events after ``since`` when they are kept, else a ``state``)."""
        self.grace.pop(ident.id, None)
        self.tick(out, now)
        events = self.missed(ident, since) if since is not None else None
        if events is not None:
            for send in events:
                out.add(send)
            self._announce_info(out, ident)
            return
        self._announce_info(out, ident)
        out.send([ident.id], self._snapshot_for(ident, re))

    def _announce_info(self, out: Outbox, ident: Identity, previous: str | None = None) -> None:
        self.broadcast(
            out,
            lambda s: p.PlayerInfoEvent(
                room=self.code,
                seq=s,
                player=ident.id,
                name=ident.name,
                color=ident.color,
                connected=ident.online,
                previous=previous or ident.name,
            ),
        )

    # -- talking --------------------------------------------------------------
    def say(self, out: Outbox, ident: Identity, text: str, now: float) -> None:
        line = {"from": ident.id, "name": ident.name, "text": text, "ts": now}
        self.chat.append(line)
        out.add(SaveChat(self.code, ident.id, ident.name, text, now))
        self.broadcast(
            out,
            lambda s: p.ChatEvent(
                room=self.code, seq=s, sender=ident.id, name=ident.name, text=text, ts=now
            ),
        )

    def update_info(
        self, out: Outbox, ident: Identity, name: str | None, color: str | None
    ) -> None:
        """A member renames or recolours itself; a name another member has is refused."""
        if name is not None and any(
            name_key(m.name) == name_key(name) for m in self.members if m is not ident
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
        self._announce_info(out, ident, previous)

    # -- playing --------------------------------------------------------------
    def _player_game(self, ident: Identity) -> Game:
        """The running game, if ``ident`` may act in it; ProtocolError otherwise.
        (The hub has let time-driven rules run just before.)"""
        if self.seat_of(ident) is None:
            raise ProtocolError(
                ErrorCode.NOT_A_PLAYER,
                "Spectators can watch and chat, but only seated players can play.",
            )
        game = self.game
        if game is None:
            raise ProtocolError(ErrorCode.NOT_PLAYING, "The game has not started yet.")
        if game.result is not None:
            raise ProtocolError(
                ErrorCode.NOT_PLAYING, "The game is over; send play-again for a new one."
            )
        if ident.id not in game.players:
            raise ProtocolError(
                ErrorCode.NOT_A_PLAYER,
                "You joined after this game began; you can play the next one.",
            )
        return game

    def move(
        self,
        out: Outbox,
        ident: Identity,
        move: JSON,
        now: float,
        re: int | None = None,
        prepared: Any = None,
    ) -> None:
        """Apply a move; one that needs heavy work first becomes the room's job
        and is applied with its answer (``prepared``) in :meth:`work_done`."""
        game = self._player_game(ident)
        if prepared is None and self.jobs.pending is not None and self.jobs.pending.exclusive:
            raise self.busy(re)
        if prepared is None:
            job = move_work(game, ident.id, move, now)
            if job is not None:
                what = {"hint": "a hint", "layout": "the mines", "shuffle": "a shuffle"}
                self._launch(
                    out,
                    job,
                    Pending(
                        "move",
                        what.get(job.kind, "a move"),
                        ident,
                        re,
                        move=move,
                        exclusive=job.exclusive,
                    ),
                )
                return
        try:
            if prepared is None:
                played = game.apply(ident.id, move, now)
            else:
                played = cast(PreparedMoves, game).apply(ident.id, move, now, prepared=prepared)
        except GameError as exc:
            game.refused(ident.id, move, now)
            self.refusal_counted = True
            self._settle()
            raise ProtocolError(exc.code, exc.message) from None
        self._settle()
        turn = game.turn()
        self.broadcast_views(
            out,
            lambda seq, viewer: p.Moved(
                room=self.code,
                seq=seq,
                by=ident.id,
                move=game.visible_move(ident.id, played.move, viewer),
                view=game.view(viewer),
                turn=turn,
            ),
            deltas=True,
        )
        for notice in played.notices:
            self._notice(out, notice)
        self._after_action(out, now)

    def _game_call(self, call: Callable[[], Any]) -> Any:
        try:
            return call()
        except GameError as exc:
            raise ProtocolError(exc.code, exc.message) from None
        finally:
            self._settle()

    def _notice(self, out: Outbox, notice: JSON) -> None:
        data = {k: v for k, v in notice.items() if k != "type"}
        self.broadcast(
            out, lambda s: p.Notice(room=self.code, seq=s, event=str(notice["type"]), data=data)
        )

    def resign(self, out: Outbox, ident: Identity, now: float) -> None:
        game = self._player_game(ident)
        self._game_call(lambda: game.resign(ident.id, now))
        self.broadcast(out, lambda s: p.Resigned(room=self.code, seq=s, player=ident.id))
        self._after_action(out, now)

    def offer(self, out: Outbox, ident: Identity, kind: str, now: float) -> None:
        game = self._player_game(ident)
        self._game_call(lambda: game.request(ident.id, kind, now))
        self.broadcast(
            out, lambda s: p.OfferEvent(room=self.code, seq=s, sender=ident.id, kind=kind)
        )
        for other in self.seated:
            if other.bot and other is not ident:
                self.answer(out, other, kind, ComputerPolicy.accepts(kind), now)

    def answer(self, out: Outbox, ident: Identity, kind: str, accept: bool, now: float) -> None:
        game = self._player_game(ident)
        self._game_call(lambda: game.respond(ident.id, kind, accept, now))
        self.broadcast(
            out,
            lambda s: p.AnswerEvent(
                room=self.code, seq=s, sender=ident.id, kind=kind, accept=accept
            ),
        )
        if accept and game.result is None:
            self.broadcast_state(out)  # a take-back rewrites the board: send fresh snapshots
        self._after_action(out, now)

    def start(self, out: Outbox, ident: Identity, now: float, re: int | None = None) -> None:
        """The host (at first the creator) starts a manually started game (Link-match)."""
        if ident.id != self.mod.host:
            raise ProtocolError(ErrorCode.NOT_A_PLAYER, "Only the room's host can start.")
        if self.spec.start != "manual":
            raise ProtocolError(ErrorCode.ILLEGAL_MOVE, "This game starts by itself.")
        if self.status == "playing":
            raise ProtocolError(ErrorCode.ILLEGAL_MOVE, "The game is already running.")
        if not self.seated:
            raise ProtocolError(ErrorCode.NOT_PLAYING, "Nobody is seated to play.")
        if self.jobs.pending is not None:
            raise self.busy()
        if self.status == "over":
            self.round_no += 1
            self.again = None
        self._new_game(out, now, ident, re)

    # -- computer players -----------------------------------------------------
    def computer_move(
        self, out: Outbox, bot: Identity, request: JSON, move: JSON, now: float
    ) -> None:
        """A computer player's answer to a :class:`Think`. Played only if the
        position is still the one it thought about; otherwise it thinks again."""
        if self.thinking.get(bot.id) != request:
            return  # a stale answer (the game ended, restarted or the bot left)
        del self.thinking[bot.id]
        game = self.game
        computer = self.spec.computer
        if (
            game is None
            or game.result is not None
            or computer is None
            or game.turn() != bot.id
            or self.seat_of(bot) is None
        ):
            return
        if computer.request(game, bot.id) != request:
            self._ask_computers(out, game)  # a take-back changed the board: think again
            return
        try:
            self.move(out, bot, move, now)
        except ProtocolError as exc:
            log.error(
                "room %s: the computer's move was refused: %s",
                self.code,
                exc.message,
                extra={"room": self.code, "player": bot.id},
            )

    def _ask_computers(self, out: Outbox, game: Game) -> None:
        computer = self.spec.computer
        if computer is None:
            return
        turn = game.turn()
        for s in self.seated:
            if s.bot and turn == s.id and s.id not in self.thinking:
                request = computer.request(game, s.id)
                self.thinking[s.id] = request
                out.add(Think(self.code, s.id, self.spec.name, s.bot, request, self.address))

    # -- heavy work ------------------------------------------------------------
    def busy(self, re: int | None = None) -> ProtocolError:
        """The refusal for a request that needs a job while the room's job is out."""
        return self.jobs.busy(re)

    def _launch(self, out: Outbox, job: Job | None, pending: Pending) -> None:
        self.jobs.launch(out, job, pending)

    def _tell(
        self, out: Outbox, ident: Identity | None, exc: ProtocolError, re: int | None
    ) -> None:
        """A refusal that comes after a job, to the one who asked."""
        if ident is not None:
            out.send(
                [ident.id],
                p.Error(
                    code=exc.code.value, message=exc.message, re=re, retry_after=exc.retry_after
                ),
            )

    def work_done(self, out: Outbox, ticket: int, answer: JSON, now: float) -> None:
        """The answer to the room's job (``run_job``'s map): finish what waited on it."""
        if self.closed:
            return
        pending = self.jobs.answered(ticket)
        if pending is None:
            return  # the room moved on (a new game replaced the old)
        if "value" in answer:
            self._finish_work(out, pending, answer["value"], now)
        else:
            self._work_failed(out, pending, str(answer.get("error")), now)
        if self.jobs.start_queued and self.jobs.pending is None:
            self.jobs.start_queued = False
            self._new_game(out, now)

    def _finish_work(self, out: Outbox, pending: Pending, value: Any, now: float) -> None:
        ident = pending.ident
        if pending.kind == "new-game":
            self._create_game(out, now, pending.seed, value)
        elif pending.kind == "join":
            assert ident is not None
            ok = self._password is not None and same_digest(value, self._password)
            self.host.password_tried(self, ident, ok, now)  # counted even if they left
            if not ident.connected or ident.room is self:
                return  # gone, or already in (nothing to tell)
            if ident.room is not None:
                self._tell(
                    out,
                    ident,
                    ProtocolError(ErrorCode.ALREADY_IN_ROOM, "You joined another room meanwhile."),
                    pending.re,
                )
                return
            try:
                if not ok:
                    raise ProtocolError(
                        ErrorCode.WRONG_PASSWORD, "That password is wrong for this private room."
                    )
                self.enter(out, ident, pending.role, now, pending.re)
            except ProtocolError as exc:
                self._tell(out, ident, exc, pending.re)
        else:
            assert ident is not None and pending.move is not None
            if ident.room is not self:
                return  # left the room meanwhile
            try:
                self.move(out, ident, pending.move, now, prepared=value)
            except ProtocolError as exc:
                self._tell(out, ident, exc, pending.re)

    def _work_failed(self, out: Outbox, pending: Pending, error: str, now: float) -> None:
        """The job had no answer: the server was too busy, or it ran out of time."""
        log.log(
            logging.DEBUG if error == "busy" else logging.WARNING,
            "room %s: job for %s failed (%s)",
            self.code,
            pending.what,
            error,
        )
        if error == "busy":
            exc = ProtocolError(
                ErrorCode.SERVER_BUSY,
                "The server is busy working for other rooms; try again in a moment.",
                retry_after=1.0,
            )
        else:
            exc = ProtocolError(
                ErrorCode.SERVER_BUSY,
                f"Working out {pending.what} took too long; try again, or choose a smaller board.",
                retry_after=1.0,
            )
        asker = pending.ident
        if pending.kind == "join" or (asker is not None and asker.room is self):
            self._tell(out, asker, exc, pending.re)  # (one who left was answered then)
        if pending.kind == "new-game" and self.game is None:
            for m in self.seated:
                if m is not pending.ident:
                    self._tell(out, m, exc, None)

    # -- rounds ---------------------------------------------------------------
    def _maybe_start(self, out: Outbox, now: float) -> bool:
        """Start a game if the start policy says so now; True if it started."""
        if self.game is not None or self.closed:
            return False
        policy = self.spec.start
        ready = (policy == "immediate" and self.seated) or (
            policy == "full" and len(self.seated) >= self.spec.min_players
        )
        if ready:
            self._new_game(out, now)
        return bool(ready)

    def _new_game(
        self, out: Outbox, now: float, ident: Identity | None = None, re: int | None = None
    ) -> None:
        """Start the next game, or ask for its board first (a job) if the game
        needs one made; a busy room starts it once its job is answered. ``ident``
        and ``re``: the ``start`` that asked, told if the board cannot be made."""
        if self.jobs.pending is not None:
            if self.jobs.pending.kind != "new-game":
                self.jobs.start_queued = True
            return
        seed = game_seed(self.seed, self.games_started)
        job = new_game_work(self.spec, self.options, seed)
        if job is not None:
            self._launch(out, job, Pending("new-game", "the board", ident, re, seed=seed))
            return
        self._create_game(out, now, seed, None)

    def _create_game(self, out: Outbox, now: float, seed: int, prepared: Any) -> None:
        """The new game begins (``games_started`` counts it only now, so a snapshot
        never describes a game whose board is still being made)."""
        players = [s.id for s in self.seated]
        if not players:
            return
        self.game_players = list(players)
        self.games_started += 1
        if prepared is None:
            self.game = self.spec.new_game(self.options, players, self.round_no, seed, now)
        else:
            self.game = cast(PreparedGames, self.spec).new_game(
                self.options, players, self.round_no, seed, now, prepared=prepared
            )
        self.life.process(Step.GAME_STARTED)
        self._settle()
        self.game_started_at = now
        self.over_announced = False
        self.thinking.clear()
        log.info(
            "room %s: %s round %d starts",
            self.code,
            self.spec.name,
            self.round_no + 1,
            extra={"room": self.code},
        )
        self.broadcast_state(out)
        self._after_action(out, now, announce=False)

    def play_again(self, out: Outbox, ident: Identity, now: float) -> None:
        if self.seat_of(ident) is None:
            raise ProtocolError(
                ErrorCode.NOT_A_PLAYER, "Only seated players can ask for a new game."
            )
        if self.status != "over":
            raise ProtocolError(
                ErrorCode.NOT_PLAYING, "You can ask for a new game once this one is over."
            )
        self.again = [ident.id]
        self.broadcast(out, lambda s: p.PlayAgainEvent(room=self.code, seq=s, sender=ident.id))
        if ComputerPolicy.agrees_again:
            for bot in self.seated:
                if bot.bot:
                    self.agree_again(out, bot, now)
        self._maybe_rematch(out, now)

    def agree_again(self, out: Outbox, ident: Identity, now: float, re: int | None = None) -> None:
        if self.seat_of(ident) is None:
            raise ProtocolError(ErrorCode.NOT_A_PLAYER, "Only seated players can agree.")
        if self.again is None:
            raise ProtocolError(
                ErrorCode.NO_PENDING_REQUEST,
                "Nobody has asked for a new game; send play-again to ask.",
            )
        if ident.id in self.again:  # a second click: answered, and it changes nothing
            self._maybe_rematch(out, now, ident, re)  # unless the others have left
            if self.again is not None:
                raise ProtocolError(
                    ErrorCode.NO_PENDING_REQUEST, "You have already agreed; waiting for the others."
                )
            return
        self.again.append(ident.id)
        self.broadcast(out, lambda s: p.AgreeAgainEvent(room=self.code, seq=s, sender=ident.id))
        self._maybe_rematch(out, now)

    def decline_again(self, out: Outbox, ident: Identity) -> None:
        if self.seat_of(ident) is None:
            raise ProtocolError(ErrorCode.NOT_A_PLAYER, "Only seated players can decline.")
        if self.again is None:
            raise ProtocolError(
                ErrorCode.NO_PENDING_REQUEST, "There is no new-game request to decline."
            )
        self.again = None
        self.broadcast(out, lambda s: p.DeclineAgainEvent(room=self.code, seq=s, sender=ident.id))

    def _maybe_rematch(
        self, out: Outbox, now: float, ident: Identity | None = None, re: int | None = None
    ) -> None:
        """Start the next game once every seated player agreed (``ident`` and ``re``:
        the request that completed the agreement, told if the board cannot be made)."""
        if self.again is None or not all(s.id in self.again for s in self.seated):
            return
        self.again = None
        self.round_no += 1
        self.game = None
        self.life.process(Step.REMATCH)
        if not self._maybe_start(out, now):
            if self.spec.start == "manual":
                self._new_game(out, now, ident, re)  # everyone agreed: the race starts
            else:
                self.broadcast_state(out)

    # -- after every change ---------------------------------------------------
    def _after_action(self, out: Outbox, now: float, announce: bool = True) -> None:
        """Finish the game if it ended, or let a computer move."""
        game = self.game
        if game is None:
            return
        self._settle()
        if game.result is not None:
            self.thinking.clear()
            if announce and not self.over_announced:
                self._game_over(out, game, now)
            return
        self._ask_computers(out, game)

    def _game_over(self, out: Outbox, game: Game, now: float) -> None:
        assert game.result is not None
        self.over_announced = True
        result = game.result
        players = [
            {"player": s.id, "name": s.name, "seat": n, **({"bot": s.bot} if s.bot else {})}
            for n, s in enumerate(self.seats)
            if s is not None
        ]
        record = game.record()
        changes = self._rate(game, result, record, now)
        ratings = announced(changes) if changes else None
        self.broadcast(
            out, lambda s: p.GameOver(room=self.code, seq=s, result=result, ratings=ratings)
        )
        out.add(
            SaveGame(
                self.code,
                self.spec.name,
                self.options,
                players,
                result,
                record,
                self.game_started_at,
                now,
                ratings=tuple(changes),
                address=self.address,
            )
        )

    def _rate(self, game: Game, result: JSON, record: JSON, now: float) -> list[Change]:
        """A rated room's rating changes for this game (none if it is not rated)."""
        if self.ratings is None or not self.options.get("rated"):
            return []
        seated = {s.id: s for s in self.seated}
        seats = [
            Seat(pid, seated[pid].name, seated[pid].bot) if pid in seated else Seat(pid, "")
            for pid in game.players
        ]
        return self.ratings.rate(self.spec.name, seats, result, record, now)

    # -- durability -----------------------------------------------------------
    def to_snapshot(self, whole: bool = False) -> JSON:
        """The room's state as plain data (``snapshot.py``'s :class:`Snapshot`)."""
        return cast(JSON, snapshots.to_snapshot(self, whole))

    def can_snapshot(self) -> bool:
        """Can :meth:`to_snapshot` (``whole``) describe the room now?"""
        return snapshots.can_snapshot(self)

    def load_snapshot(self, snap: Snapshot | JSON, member: Callable[[str], Identity]) -> None:
        """Become the room :meth:`to_snapshot` described; ``member`` finds identities."""
        snapshots.load_snapshot(self, snap, member)

    def restored(self, out: Outbox, now: float, downtime: float) -> None:
        """The server came back after ``downtime`` seconds: clocks resume where they
        stopped, and every person has the grace period, from now, to come back."""
        if self.game is not None and self.game.result is None:
            self.game.shift(downtime)
        for m in self.members:
            if not m.bot:
                m.connected = False
                self.grace[m.id] = now + self.grace_seconds
        self.thinking.clear()
        self.jobs.resume(out)
        if self.game is not None:
            self._after_action(out, now)

    def tick(self, out: Outbox, now: float) -> None:
        """Let time-driven rules run: game clocks, countdowns, reconnect grace, mutes."""
        for pid in self.mod.ended_mutes(now):
            host_actions.unmute(self, out, None, pid)
        for pid, until in list(self.grace.items()):
            if now >= until and not self.closed:
                ident = next((m for m in self.members if m.id == pid), None)
                self.grace.pop(pid, None)
                if ident is not None and not ident.connected:
                    log.info(
                        "room %s: %s did not come back",
                        self.code,
                        ident.name,
                        extra={"room": self.code, "player": ident.id},
                    )
                    self.leave(out, ident, now, reason=Termination.DISCONNECT)
        game = self.game
        if self.closed or game is None or game.result is not None:
            return
        events = game.tick(now)
        self._settle()
        for event in events:
            self._notice(out, event)
        if events or game.result is not None:  # a clock ran out: its 0:00 is in the view
            self.broadcast_state(out)
        self._after_action(out, now)

    # -- the host's actions (host_actions.py; server/core/hosting.py keeps what they decided)
    def host_action(
        self,
        out: Outbox,
        ident: Identity,
        msg: p.Host,
        now: float,
        kick_address: Callable[[Identity], str],
        new_computer: Callable[[str], Identity],
    ) -> None:
        """One ``host`` request; ProtocolError to refuse, changing nothing.
        ``kick_address``: the address a kick also keeps out ("" for none);
        ``new_computer``: a computer player of that level to seat (the hub makes it)."""
        host_actions.host_action(self, out, ident, msg, now, kick_address, new_computer)

    def member(self, pid: str) -> Identity | None:
        """The member with id ``pid``, if there is one."""
        return next((m for m in self.members if m.id == pid), None)
