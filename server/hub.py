"""The server's logic without its I/O: identities, the lobby, and the rooms.

The hub takes typed client messages (already decoded and rate-limited by the
session), the time, and the inputs the I/O layer produces (a dropped connection,
a computer's answer, a timer that fired), and returns the effects to carry out
(``server/effects.py``). It never awaits, sends or sleeps, so every rule about
who may do what is unit-tested without a socket.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError

from .config import ServerConfig
from .effects import Effect, Outbox, Think, Wake
from .fairness import PasswordGuard, PerAddress
from .games.base import JSON
from .identity import Identities, Identity
from .lobby import Lobby
from .names import clean_color, clean_name, computer_name
from .room import Room

log = logging.getLogger("gridhall.hub")

Handler = Callable[[Outbox, Identity, Any, float], None]


class Hub:
    """See the module docstring. One per server."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.identities = Identities()
        self.lobby = Lobby(self, config.max_rooms, config.grace_seconds,
                           config.max_rooms_per_address)
        self.passwords = PasswordGuard()
        self.creations = PerAddress(config.room_creations_per_minute / 60.0,
                                    config.room_creation_burst)
        self._armed: dict[str, float | None] = {}
        self._expiry: dict[str, float] = {}
        """Roomless, disconnected identities: player id -> when they are forgotten."""
        self._handlers: dict[type[Any], Handler] = {
            p.ListRooms: self._list_rooms, p.CreateRoom: self._create_room,
            p.JoinRoom: self._join_room, p.LeaveRoom: self._leave_room, p.Sync: self._sync,
            p.PlayerInfo: self._player_info, p.Move: self._move, p.Chat: self._chat,
            p.Resign: self._resign, p.PlayAgain: self._play_again,
            p.AgreeAgain: self._agree_again, p.DeclineAgain: self._decline_again,
            p.Offer: self._offer, p.Answer: self._answer, p.Start: self._start,
        }

    # -- session inputs -------------------------------------------------------
    def hello(self, msg: p.Hello, now: float, address: str = ""
              ) -> tuple[Identity, list[Effect]]:
        """A connection (from ``address``) says hello: resume the token's identity
        or make a new one. A name that cannot be kept raises ProtocolError.

        The caller binds the connection to the identity (closing an older one
        that spoke for it) before carrying out the effects."""
        name = clean_name(msg.name, msg.id)
        ident = self.identities.resume(msg.token) if msg.token else None
        if ident is None or ident.bot is not None:
            ident = self.identities.create(name)
        elif ident.room is None:
            ident.name = name
        ident.connected = True
        ident.address = address
        out = Outbox()
        out.send([ident.id], p.Welcome(protocol=p.PROTOCOL_VERSION, player=ident.id,
                                       token=ident.token, server=self.config.name, re=msg.id))
        if self._expiry.pop(ident.id, None) is not None:
            out.add(Wake("@" + ident.id, None))
        room = ident.room
        if room is not None:
            room.resumed(out, ident, now, msg.id)
            self._after_room(out, room)
        return ident, out.effects

    def handle(self, ident: Identity, msg: Any, now: float
               ) -> tuple[list[Effect], ProtocolError | None]:
        """Any message after ``hello``: its effects, or the refusal to send back.

        Time-driven rules of the sender's room run first (a clock that ran out
        ends the game before a late move is judged); a refused message changes
        nothing beyond that."""
        out = Outbox()
        room = ident.room
        if room is not None:
            room.tick(out, now)
        error: ProtocolError | None = None
        handler = self._handlers.get(type(msg))
        try:
            if handler is None:
                raise ProtocolError(ErrorCode.BAD_MESSAGE, f"{msg.TYPE!r} is not expected now.")
            handler(out, ident, msg, now)
        except ProtocolError as exc:
            error = exc
        for touched in {room, ident.room}:
            if touched is not None:
                self._after_room(out, touched)
        return out.effects, error

    def disconnected(self, ident: Identity, now: float) -> list[Effect]:
        """The connection that spoke for ``ident`` is gone."""
        ident.connected = False
        out = Outbox()
        room = ident.room
        if room is not None:
            room.disconnected(out, ident, now)
            self._after_room(out, room)
        else:
            self._expire_later(out, ident, now)
        return out.effects

    def computer_move(self, job: Think, move: JSON, now: float) -> list[Effect]:
        """A computer player's answer came back from the worker."""
        out = Outbox()
        room = self.lobby.rooms.get(job.room)
        bot = self.identities.by_id.get(job.bot)
        if room is not None and bot is not None and bot.room is room:
            room.computer_move(out, bot, job.request, move, now)
            self._after_room(out, room)
        return out.effects

    def work_done(self, room_code: str, ticket: int, answer: JSON, now: float) -> list[Effect]:
        """A room's job (a :class:`~gridhall.server.effects.Work`) was answered."""
        out = Outbox()
        room = self.lobby.rooms.get(room_code)
        if room is not None:
            room.tick(out, now)
            room.work_done(out, ticket, answer, now)
            self._after_room(out, room)
        return out.effects

    def wake(self, key: str, now: float) -> list[Effect]:
        """A timer asked for with :class:`Wake` fired."""
        out = Outbox()
        if key.startswith("@"):
            ident = self.identities.by_id.get(key[1:])
            if self._expiry.pop(key[1:], None) is not None and ident is not None \
                    and not ident.connected and ident.room is None:
                self.identities.forget(ident)
            return out.effects
        self._armed.pop(key, None)
        room = self.lobby.rooms.get(key)
        if room is not None:
            room.tick(out, now)
            self._after_room(out, room)
        return out.effects

    # -- what rooms tell the hub (RoomHost) -----------------------------------
    def room_emptied(self, room: Room) -> None:
        self.lobby.remove(room)
        log.info("room %s closed", room.code)

    def identity_released(self, ident: Identity, now: float) -> None:
        """``ident`` left its room for good: a computer or an offline player is
        forgotten now; a connected one stays (in the lobby)."""
        if not ident.connected:
            self.identities.forget(ident)

    def password_tried(self, room: Room, ident: Identity, ok: bool, now: float) -> None:
        self.passwords.tried(room.code, ident.address, ok, now)

    # -- helpers --------------------------------------------------------------
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
        """Keep a roomless, disconnected identity resumable for the grace period."""
        at = now + self.config.grace_seconds
        self._expiry[ident.id] = at
        out.add(Wake("@" + ident.id, at))

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
            raise ProtocolError(ErrorCode.ALREADY_IN_ROOM, f"You are in room {room.code}; "
                                "leave it first.")

    # -- lobby messages -------------------------------------------------------
    def _list_rooms(self, out: Outbox, ident: Identity, msg: p.ListRooms, now: float) -> None:
        out.send([ident.id], p.Rooms(rooms=self.lobby.listing(), re=msg.id))

    def _create_room(self, out: Outbox, ident: Identity, msg: p.CreateRoom, now: float) -> None:
        self._not_in_room(ident)
        wait = self.creations.take(ident.address, now)
        if wait > 0:
            raise ProtocolError(ErrorCode.RATE_LIMITED, "Your address is creating rooms too "
                                f"fast; wait {wait:.1f} s.", msg.id, retry_after=round(wait, 3))
        room = self.lobby.create(ident, msg.game, msg.options, msg.private, msg.password,
                                 ident.address)
        log.info("%s created room %s (%s)", ident.name, room.code, room.spec.name)
        level = room.options.get("ai")
        bot = self.identities.create(computer_name(str(level)), bot=str(level)) if level \
            else None
        if msg.password is not None:  # the creator enters once the digest is known
            room.protect(out, msg.password, ident, msg.id, bot)
            return
        room.enter(out, ident, "player", now, msg.id)
        if bot is not None:
            room.seat_computer(out, bot, now)

    def _join_room(self, out: Outbox, ident: Identity, msg: p.JoinRoom, now: float) -> None:
        self._not_in_room(ident)
        room = self.lobby.find(msg.room)
        if room.protected and msg.password is not None:
            wait = self.passwords.wait(room.code, ident.address, now)
            if wait > 0:
                raise ProtocolError(ErrorCode.RATE_LIMITED, "Too many wrong passwords; wait "
                                    f"{wait:.1f} s before trying again.", msg.id,
                                    retry_after=round(wait, 3))
        room.join(out, ident, msg.role, msg.password, now, msg.id)

    def _leave_room(self, out: Outbox, ident: Identity, msg: p.LeaveRoom, now: float) -> None:
        self._room(ident).leave(out, ident, now, msg.id)

    def _sync(self, out: Outbox, ident: Identity, msg: p.Sync, now: float) -> None:
        self._room(ident).send_state(out, ident, now, re=msg.id)

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
            out.send([ident.id], p.Profile(player=ident.id, name=ident.name, color=ident.color,
                                           re=msg.id))
            return
        room.update_info(out, ident, name, color)

    def _move(self, out: Outbox, ident: Identity, msg: p.Move, now: float) -> None:
        self._room(ident).move(out, ident, msg.move, now, re=msg.id)

    def _chat(self, out: Outbox, ident: Identity, msg: p.Chat, now: float) -> None:
        self._room(ident).say(out, ident, msg.text, now)

    def _resign(self, out: Outbox, ident: Identity, msg: p.Resign, now: float) -> None:
        self._room(ident).resign(out, ident, now)

    def _play_again(self, out: Outbox, ident: Identity, msg: p.PlayAgain, now: float) -> None:
        self._room(ident).play_again(out, ident, now)

    def _agree_again(self, out: Outbox, ident: Identity, msg: p.AgreeAgain, now: float) -> None:
        self._room(ident).agree_again(out, ident, now)

    def _decline_again(self, out: Outbox, ident: Identity, msg: p.DeclineAgain,
                       now: float) -> None:
        self._room(ident).decline_again(out, ident)

    def _offer(self, out: Outbox, ident: Identity, msg: p.Offer, now: float) -> None:
        self._room(ident).offer(out, ident, msg.kind, now)

    def _answer(self, out: Outbox, ident: Identity, msg: p.Answer, now: float) -> None:
        self._room(ident).answer(out, ident, msg.kind, msg.accept, now)

    def _start(self, out: Outbox, ident: Identity, msg: p.Start, now: float) -> None:
        self._room(ident).start(out, ident, now)
