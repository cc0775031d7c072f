"""A room: seats, spectators, chat, the game, and the order of everything.

Every room action runs synchronously on the event loop, so one room processes
one action at a time and a slow client never holds it (sends are queued per
connection). Each event the room emits takes the next ``seq``; every recipient
of that event gets the same number. Snapshots (``state`` to one client on join,
sync or resume) carry the current ``seq`` without taking a new one.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Literal, Protocol

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError

from .config import ServerConfig
from .games.base import JSON, Game, GameError, GameSpec
from .identity import Identity
from .store import Store

log = logging.getLogger("gridhall.room")

CHAT_HISTORY = 50


class RoomHost(Protocol):
    """What a room needs from the server around it."""

    config: ServerConfig
    store: Store

    def room_emptied(self, room: Room) -> None: ...

    def identity_released(self, ident: Identity) -> None: ...

    def schedule_computer(self, room: Room, ident: Identity) -> None: ...


def _hash_password(password: str, salt: bytes) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 20_000)


class Room:
    def __init__(self, host: RoomHost, code: str, spec: GameSpec, options: JSON,
                 creator: Identity, private: bool, password: str | None) -> None:
        self.host = host
        self.code = code
        self.spec = spec
        self.options = options
        self.private = private
        self._salt = secrets.token_bytes(16)
        self._password = _hash_password(password, self._salt) if password else None
        self.creator = creator.id
        self.seats: list[Identity | None] = [None] * spec.max_players(options)
        self.spectators: list[Identity] = []
        self.seq = 0
        self.chat: deque[JSON] = deque(maxlen=CHAT_HISTORY)
        self.game: Game | None = None
        self.round_no = 0
        self.game_started_at = 0.0
        self._over_announced = False
        self.again: list[str] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self.closed = False

    # -- who is here ----------------------------------------------------------
    @property
    def seated(self) -> list[Identity]:
        return [s for s in self.seats if s is not None]

    @property
    def members(self) -> list[Identity]:
        return self.seated + self.spectators

    @property
    def status(self) -> Literal["waiting", "playing", "over"]:
        if self.game is None:
            return "waiting"
        return "playing" if self.game.result is None else "over"

    def seat_of(self, ident: Identity) -> int | None:
        for n, s in enumerate(self.seats):
            if s is ident:
                return n
        return None

    def summary(self) -> JSON:
        """The lobby's line for this room."""
        return {"room": self.code, "game": self.spec.name, "options": self.options,
                "players": [s.name for s in self.seated], "spectators": len(self.spectators),
                "status": self.status, "private": self.private,
                "seats": len(self.seats)}

    def check_password(self, password: str | None) -> bool:
        if self._password is None:
            return True
        given = _hash_password(password or "", self._salt)
        return hmac.compare_digest(given, self._password)

    # -- sending --------------------------------------------------------------
    def _next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def broadcast(self, make: Callable[[int], Any], exclude: Identity | None = None) -> int:
        """Emit one event (same ``seq`` for all) identical for every recipient."""
        seq = self._next_seq()
        frame = p.encode(make(seq))
        for m in self.members:
            if m is not exclude and m.conn is not None:
                m.conn.send_bytes(frame)
        return seq

    def broadcast_each(self, make: Callable[[int, Identity], Any]) -> int:
        """Emit one event whose body differs per recipient (views), one ``seq``."""
        seq = self._next_seq()
        for m in self.members:
            if m.conn is not None:
                m.conn.send(make(seq, m))
        return seq

    @staticmethod
    def reply_error(ident: Identity, code: str, message: str, re: int | None) -> None:
        if ident.conn is not None:
            ident.conn.send(p.Error(code=code, message=message, re=re))

    def _viewer(self, ident: Identity) -> str | None:
        """The id a game builds a view for: only its own players see private state."""
        game = self.game
        return ident.id if game is not None and ident.id in game.players else None

    def snapshot(self, ident: Identity, seq: int | None = None, re: int | None = None) -> p.State:
        game = self.game
        return p.State(
            room=self.code, seq=self.seq if seq is None else seq, game=self.spec.name,
            options=self.options, status=self.status,
            players=[self._player_entry(n, s) for n, s in enumerate(self.seats) if s is not None],
            spectators=[s.name for s in self.spectators],
            view=game.view(self._viewer(ident)) if game is not None else {},
            turn=game.turn() if game is not None else None,
            result=game.result if game is not None else None,
            chat=list(self.chat), creator=self.creator, round=self.round_no,
            private=self.private, pending_again=list(self.again) if self.again else None,
            re=re)

    @staticmethod
    def _player_entry(seat: int, s: Identity) -> JSON:
        entry: JSON = {"player": s.id, "name": s.name, "seat": seat, "connected": s.online}
        if s.color is not None:
            entry["color"] = s.color
        if s.bot:
            entry["bot"] = s.bot
        return entry

    def send_state(self, ident: Identity, re: int | None = None) -> None:
        """A snapshot for one member; time-driven rules run first so clocks are fresh."""
        self._tick()
        if ident.conn is not None:
            ident.conn.send(self.snapshot(ident, re=re))

    def broadcast_state(self) -> None:
        self.broadcast_each(lambda seq, m: self.snapshot(m, seq=seq))

    # -- joining and leaving --------------------------------------------------
    def join(self, ident: Identity, role: Literal["player", "spectator"],
             password: str | None, re: int | None) -> None:
        """Seat or admit ``ident``; raises ProtocolError to refuse."""
        if not self.check_password(password):
            raise ProtocolError(ErrorCode.WRONG_PASSWORD,
                                "That password is wrong for this private room.")
        seat: int | None = None
        if role == "player":
            seat = self._free_seat()
            if seat is None:
                raise ProtocolError(ErrorCode.ROOM_FULL, "Every seat is taken; join as a "
                                    "spectator to watch.")
            if self.status == "playing" and self.game is not None:
                if self.game.add_player(ident.id, time.time()):
                    pass
                elif self.spec.start == "full":
                    raise ProtocolError(ErrorCode.ROOM_FULL, "The game is under way; join as "
                                        "a spectator to watch.")
                else:
                    seat, role = None, "spectator"  # a race in progress: watch this one
        self._admit(ident, role, seat, re)

    def _free_seat(self) -> int | None:
        return next((n for n, s in enumerate(self.seats) if s is None), None)

    def _admit(self, ident: Identity, role: Literal["player", "spectator"],
               seat: int | None, re: int | None) -> None:
        ident.room, ident.role = self, role
        if seat is not None:
            self.seats[seat] = ident
        else:
            self.spectators.append(ident)
        seq = self.broadcast(lambda s: p.Joined(room=self.code, seq=s, role=role, seat=seat,
                                                player=ident.id, name=ident.name),
                             exclude=ident)
        if ident.conn is not None:
            ident.conn.send(p.Joined(room=self.code, seq=seq, role=role, seat=seat,
                                     player=ident.id, name=ident.name, re=re))
        if not self._maybe_start():
            self.send_state(ident, re=re)

    def seat_computer(self, bot: Identity) -> None:
        """Put a computer player in the first free seat (it has no connection)."""
        seat = self._free_seat()
        assert seat is not None
        self._admit(bot, "player", seat, None)

    def leave(self, ident: Identity, re: int | None = None, reason: str = "resign") -> None:
        """Remove ``ident``; a seated player in a game in progress forfeits."""
        if ident.grace is not None:
            ident.grace.cancel()
            ident.grace = None
        game = self.game
        if game is not None and game.result is None and ident.id in game.players \
                and self.seat_of(ident) is not None:
            game.resign(ident.id, time.time(), reason=reason)
            self._after_action()
        seat = self.seat_of(ident)
        if seat is not None:
            self.seats[seat] = None
        elif ident in self.spectators:
            self.spectators.remove(ident)
        if self.again is not None and ident.id in self.again:
            self.again = None
        seq = self.broadcast(lambda s: p.Left(room=self.code, seq=s, player=ident.id),
                             exclude=ident)
        if ident.conn is not None:
            ident.conn.send(p.Left(room=self.code, seq=seq, player=ident.id, re=re))
        ident.room, ident.role = None, None
        if not ident.online or ident.bot:
            self.host.identity_released(ident)
        self._drop_lonely_bots()
        if not any(m.conn is not None or m.grace is not None for m in self.members):
            self.close()

    def _drop_lonely_bots(self) -> None:
        if all(s.bot for s in self.seated) and not self.spectators:
            for bot in self.seated:
                self.seats[self.seats.index(bot)] = None
                self.host.identity_released(bot)

    def close(self) -> None:
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
        for m in self.members:
            if m.grace is not None:
                m.grace.cancel()
            m.room = None
        self.host.room_emptied(self)

    # -- dropped connections --------------------------------------------------
    def disconnected(self, ident: Identity) -> None:
        """A member's connection dropped: spectators leave, players keep the seat a while."""
        if self.seat_of(ident) is None:
            self.leave(ident)
            return
        self._announce_info(ident)
        loop = asyncio.get_running_loop()
        ident.grace = loop.call_later(self.host.config.grace_seconds, self._grace_over, ident)

    def _grace_over(self, ident: Identity) -> None:
        ident.grace = None
        if ident.conn is None and ident.room is self:
            log.info("room %s: %s did not come back", self.code, ident.name)
            self.leave(ident, reason="disconnect")

    def resumed(self, ident: Identity, re: int | None) -> None:
        """``ident`` said hello again with its token: back in its seat."""
        if ident.grace is not None:
            ident.grace.cancel()
            ident.grace = None
        self._announce_info(ident)
        self.send_state(ident, re=re)

    def _announce_info(self, ident: Identity) -> None:
        self.broadcast(lambda s: p.PlayerInfoEvent(room=self.code, seq=s, player=ident.id,
                                                   name=ident.name, color=ident.color,
                                                   connected=ident.online))

    # -- talking --------------------------------------------------------------
    def say(self, ident: Identity, text: str) -> None:
        ts = time.time()
        line = {"from": ident.id, "name": ident.name, "text": text, "ts": ts}
        self.chat.append(line)
        self.host.store.save_chat(self.code, ident.id, ident.name, text, ts)
        self.broadcast(lambda s: p.ChatEvent(room=self.code, seq=s, sender=ident.id,
                                             name=ident.name, text=text, ts=ts))

    def update_info(self, ident: Identity, name: str | None, color: str | None) -> None:
        if name is not None:
            ident.name = name
        if color is not None:
            ident.color = color
        self._announce_info(ident)

    # -- playing --------------------------------------------------------------
    def _player_game(self, ident: Identity) -> Game:
        """The running game, if ``ident`` may act in it; ProtocolError otherwise."""
        if self.seat_of(ident) is None:
            raise ProtocolError(ErrorCode.NOT_A_PLAYER, "Spectators can watch and chat, "
                                "but only seated players can play.")
        game = self.game
        if game is None:
            raise ProtocolError(ErrorCode.NOT_PLAYING, "The game has not started yet.")
        self._tick()
        if game.result is not None:
            raise ProtocolError(ErrorCode.NOT_PLAYING, "The game is over; send play-again "
                                "for a new one.")
        if ident.id not in game.players:
            raise ProtocolError(ErrorCode.NOT_A_PLAYER, "You joined after this game began; "
                                "you can play the next one.")
        return game

    def move(self, ident: Identity, move: JSON, re: int | None) -> None:
        game = self._player_game(ident)
        played = self._game_call(lambda: game.apply(ident.id, move, time.time()))
        self.broadcast_each(lambda seq, m: p.Moved(
            room=self.code, seq=seq, by=ident.id,
            move=game.visible_move(ident.id, played.move, self._viewer(m)),
            view=game.view(self._viewer(m)), turn=game.turn()))
        for notice in played.notices:
            self._notice(notice)
        self._after_action()

    @staticmethod
    def _game_call(call: Callable[[], Any]) -> Any:
        try:
            return call()
        except GameError as exc:
            raise ProtocolError(exc.code, exc.message) from None

    def _notice(self, notice: JSON) -> None:
        data = {k: v for k, v in notice.items() if k != "type"}
        self.broadcast(lambda s: p.Notice(room=self.code, seq=s, event=str(notice["type"]),
                                          data=data))

    def resign(self, ident: Identity) -> None:
        game = self._player_game(ident)
        self._game_call(lambda: game.resign(ident.id, time.time()))
        self.broadcast(lambda s: p.Resigned(room=self.code, seq=s, player=ident.id))
        self._after_action()

    def offer(self, ident: Identity, kind: str) -> None:
        game = self._player_game(ident)
        self._game_call(lambda: game.request(ident.id, kind, time.time()))
        self.broadcast(lambda s: p.OfferEvent(room=self.code, seq=s, sender=ident.id, kind=kind))
        for other in self.seated:
            if other.bot and other is not ident:  # the computer takes back, never agrees a draw
                self.answer(other, kind, kind == "takeback")

    def answer(self, ident: Identity, kind: str, accept: bool) -> None:
        game = self._player_game(ident)
        self._game_call(lambda: game.respond(ident.id, kind, accept, time.time()))
        self.broadcast(lambda s: p.AnswerEvent(room=self.code, seq=s, sender=ident.id,
                                               kind=kind, accept=accept))
        if accept and game.result is None:
            self.broadcast_state()  # a take-back rewrites the board: send fresh snapshots
        self._after_action()

    def start(self, ident: Identity) -> None:
        """The creator starts a manually started game (Link-match)."""
        if ident.id != self.creator:
            raise ProtocolError(ErrorCode.NOT_A_PLAYER, "Only the room's creator can start.")
        if self.spec.start != "manual":
            raise ProtocolError(ErrorCode.ILLEGAL_MOVE, "This game starts by itself.")
        if self.status == "playing":
            raise ProtocolError(ErrorCode.ILLEGAL_MOVE, "The game is already running.")
        if not self.seated:
            raise ProtocolError(ErrorCode.NOT_PLAYING, "Nobody is seated to play.")
        if self.status == "over":
            self.round_no += 1
            self.again = None
        self._new_game()

    # -- rounds ---------------------------------------------------------------
    def _maybe_start(self) -> bool:
        """Start a game if the start policy says so now; True if it started."""
        if self.game is not None or self.closed:
            return False
        policy = self.spec.start
        ready = (policy == "immediate" and self.seated) or (
            policy == "full" and len(self.seated) >= self.spec.min_players)
        if ready:
            self._new_game()
        return bool(ready)

    def _new_game(self) -> None:
        now = time.time()
        players = [s.id for s in self.seated]
        self.game = self.spec.new_game(self.options, players, self.round_no,
                                       secrets.randbits(63), now)
        self.game_started_at = now
        self._over_announced = False
        log.info("room %s: %s round %d starts", self.code, self.spec.name, self.round_no)
        self.broadcast_state()
        self._after_action(announce=False)

    def play_again(self, ident: Identity) -> None:
        if self.seat_of(ident) is None:
            raise ProtocolError(ErrorCode.NOT_A_PLAYER, "Only seated players can ask for "
                                "a new game.")
        if self.status != "over":
            raise ProtocolError(ErrorCode.NOT_PLAYING, "You can ask for a new game once this "
                                "one is over.")
        self.again = [ident.id]
        self.broadcast(lambda s: p.PlayAgainEvent(room=self.code, seq=s, sender=ident.id))
        for bot in self.seated:
            if bot.bot:
                self.agree_again(bot)
        self._maybe_rematch()

    def agree_again(self, ident: Identity) -> None:
        if self.seat_of(ident) is None:
            raise ProtocolError(ErrorCode.NOT_A_PLAYER, "Only seated players can agree.")
        if self.again is None:
            raise ProtocolError(ErrorCode.NO_PENDING_REQUEST, "Nobody has asked for a new "
                                "game; send play-again to ask.")
        if ident.id not in self.again:
            self.again.append(ident.id)
            self.broadcast(lambda s: p.AgreeAgainEvent(room=self.code, seq=s, sender=ident.id))
        self._maybe_rematch()

    def decline_again(self, ident: Identity) -> None:
        if self.seat_of(ident) is None:
            raise ProtocolError(ErrorCode.NOT_A_PLAYER, "Only seated players can decline.")
        if self.again is None:
            raise ProtocolError(ErrorCode.NO_PENDING_REQUEST, "There is no new-game request "
                                "to decline.")
        self.again = None
        self.broadcast(lambda s: p.DeclineAgainEvent(room=self.code, seq=s, sender=ident.id))

    def _maybe_rematch(self) -> None:
        if self.again is None or not all(s.id in self.again for s in self.seated):
            return
        self.again = None
        self.round_no += 1
        self.game = None
        if not self._maybe_start():
            if self.spec.start == "manual":
                self._new_game()  # everyone agreed: the next race starts now
            else:
                self.broadcast_state()

    # -- after every change ---------------------------------------------------
    def _after_action(self, announce: bool = True) -> None:
        """Finish the game if it ended, re-arm the timer, and let a computer move."""
        game = self.game
        if game is None:
            return
        if game.result is not None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if announce and not self._over_announced:
                self._game_over(game)
            return
        self._arm_timer(game)
        turn = game.turn()
        for s in self.seated:
            if s.bot and (turn == s.id or (turn is None and s.id in game.players)):
                self.host.schedule_computer(self, s)

    def _game_over(self, game: Game) -> None:
        assert game.result is not None
        self._over_announced = True
        result = game.result
        self.broadcast(lambda s: p.GameOver(room=self.code, seq=s, result=result))
        players = [{"player": s.id, "name": s.name, "seat": n, **({"bot": s.bot} if s.bot else {})}
                   for n, s in enumerate(self.seats) if s is not None]
        try:
            self.host.store.save_game(self.code, self.spec.name, self.options, players, result,
                                      game.record(), self.game_started_at, time.time())
        except Exception:  # the game is over for the players even if the disk is not
            log.exception("room %s: could not store the finished game", self.code)

    def _arm_timer(self, game: Game) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        deadline = game.deadline()
        if deadline is not None:
            loop = asyncio.get_running_loop()
            delay = max(0.0, deadline - time.time())
            self._timer = loop.call_later(delay, self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        if not self.closed:
            self._tick()

    def _tick(self) -> None:
        """Let time-driven rules run (clocks, countdowns, time limits)."""
        game = self.game
        if game is None or game.result is not None:
            return
        events = game.tick(time.time())
        for event in events:
            self._notice(event)
        if events:
            self.broadcast_state()
        self._after_action()
