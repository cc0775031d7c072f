"""One connection's conversation: limits, decoding, and dispatch to lobby and room.

Every frame passes the rate limit, then the codec; anything refused becomes an
``error`` to this client alone and changes nothing. Abuse past the configured
counts closes the connection with 1008.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError

from .connection import Connection
from .identity import Identity
from .room import Room

if TYPE_CHECKING:
    from .app import GameServer

log = logging.getLogger("gridhall.session")


class Session:
    def __init__(self, server: GameServer, conn: Connection) -> None:
        self.server = server
        self.conn = conn
        self.handlers: dict[str, Callable[[Any], None]] = {
            "list-rooms": self.on_list_rooms, "create-room": self.on_create_room,
            "join-room": self.on_join_room, "leave-room": self.on_leave_room,
            "sync": self.on_sync, "player-info": self.on_player_info, "move": self.on_move,
            "chat": self.on_chat, "resign": self.on_resign, "play-again": self.on_play_again,
            "agree-again": self.on_agree_again, "decline-again": self.on_decline_again,
            "offer": self.on_offer, "answer": self.on_answer, "start": self.on_start,
        }

    @property
    def ident(self) -> Identity:
        assert self.conn.identity is not None
        return self.conn.identity

    def error(self, exc: ProtocolError) -> None:
        self.conn.send(p.Error(code=exc.code.value, message=exc.message, re=exc.request_id))

    def receive(self, frame: bytes | str) -> None:
        """Handle one frame; never raises for anything the client sent."""
        now = time.monotonic()
        if not self.conn.bucket.take(now):
            self.conn.rate_strikes += 1
            if self.conn.rate_strikes > self.server.config.max_rate_strikes:
                self.conn.close(1008, "message flood")
            elif self.conn.rate_strikes % 10 == 1:  # say it, without echoing every frame
                self.error(ProtocolError(ErrorCode.RATE_LIMITED, "You are sending messages "
                                         "too fast; slow down."))
            return
        msg: Any = None
        try:
            msg = p.decode(frame, "client")
            self.dispatch(msg)
        except ProtocolError as exc:
            if exc.code in (ErrorCode.BAD_MESSAGE, ErrorCode.UNKNOWN_TYPE):
                self.conn.bad_messages += 1
                if self.conn.bad_messages > self.server.config.max_bad_messages:
                    self.conn.close(1008, "too many bad messages")
                    return
            self.error(exc)
        except Exception:  # a server bug must not end the connection or the server
            log.exception("internal error handling a frame from %s", self.conn.peer)
            self.conn.send(p.Error(code=ErrorCode.INTERNAL_ERROR.value,
                                   message="The server failed on that request; this is "
                                           "its own fault and has been logged.",
                                   re=getattr(msg, "id", None)))

    def dispatch(self, msg: Any) -> None:
        rid = getattr(msg, "id", None)
        try:
            if isinstance(msg, p.Hello):
                self.on_hello(msg)
            elif self.conn.identity is None:
                raise ProtocolError(ErrorCode.NOT_WELCOMED, "Say hello first.")
            else:
                self.handlers[msg.TYPE](msg)
        except ProtocolError as exc:
            if exc.request_id is None:
                exc.request_id = rid
            raise

    # -- session --------------------------------------------------------------
    def on_hello(self, msg: p.Hello) -> None:
        if msg.protocol != p.PROTOCOL_VERSION:
            self.error(ProtocolError(ErrorCode.VERSION_MISMATCH, "This server speaks protocol "
                                     f"{p.PROTOCOL_VERSION}; update your client.", msg.id))
            self.conn.close(1002, "protocol version mismatch")
            return
        if self.conn.identity is not None:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "You already said hello.")
        ident = self.server.identities.resume(msg.token) if msg.token else None
        if ident is not None and ident.bot is None:
            if ident.conn is not None:  # the same player on a new connection wins
                ident.conn.identity = None
                ident.conn.close(4000, "replaced by a newer connection")
            ident.name = msg.name if ident.room is None else ident.name
        else:
            ident = self.server.identities.create(msg.name)
        ident.conn = self.conn
        self.conn.identity = ident
        self.conn.send(p.Welcome(protocol=p.PROTOCOL_VERSION, player=ident.id, token=ident.token,
                                 server=self.server.config.name, re=msg.id))
        log.info("%s is %s (%s)", self.conn.peer, ident.name, ident.id)
        if ident.room is not None:
            ident.room.resumed(ident, msg.id)

    # -- lobby ----------------------------------------------------------------
    def on_list_rooms(self, msg: p.ListRooms) -> None:
        self.conn.send(p.Rooms(rooms=self.server.lobby.listing(), re=msg.id))

    def _not_in_room(self) -> None:
        room = self.ident.room
        if room is not None:
            raise ProtocolError(ErrorCode.ALREADY_IN_ROOM, f"You are in room {room.code}; "
                                "leave it first.")

    def on_create_room(self, msg: p.CreateRoom) -> None:
        self._not_in_room()
        room = self.server.lobby.create(self.ident, msg.game, msg.options, msg.private,
                                        msg.password)
        log.info("%s created room %s (%s)", self.ident.name, room.code, room.spec.name)
        room.join(self.ident, "player", msg.password, msg.id)
        level = room.options.get("ai")
        if level:
            self.server.seat_computer(room, str(level))

    def on_join_room(self, msg: p.JoinRoom) -> None:
        self._not_in_room()
        self.server.lobby.find(msg.room).join(self.ident, msg.role, msg.password, msg.id)

    def room(self) -> Room:
        room = self.ident.room
        if room is None:
            raise ProtocolError(ErrorCode.NOT_IN_ROOM, "Join or create a room first.")
        return room

    def on_leave_room(self, msg: p.LeaveRoom) -> None:
        self.room().leave(self.ident, msg.id)

    def on_sync(self, msg: p.Sync) -> None:
        self.room().send_state(self.ident, re=msg.id)

    # -- in a room ------------------------------------------------------------
    def on_player_info(self, msg: p.PlayerInfo) -> None:
        if msg.name is None and msg.color is None:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "Send a name, a color, or both.")
        room = self.ident.room
        if room is None:  # outside a room there is nobody to tell
            if msg.name is not None:
                self.ident.name = msg.name
            if msg.color is not None:
                self.ident.color = msg.color
            return
        room.update_info(self.ident, msg.name, msg.color)

    def on_move(self, msg: p.Move) -> None:
        self.room().move(self.ident, msg.move, msg.id)

    def on_chat(self, msg: p.Chat) -> None:
        room = self.room()
        now = time.monotonic()
        if not self.conn.chat.allow(now):
            wait = self.conn.chat.retry_after(now)
            raise ProtocolError(ErrorCode.RATE_LIMITED, "You are chatting too fast; wait "
                                f"{wait:.0f} s before the next line.")
        room.say(self.ident, msg.text)

    def on_resign(self, msg: p.Resign) -> None:
        self.room().resign(self.ident)

    def on_play_again(self, msg: p.PlayAgain) -> None:
        self.room().play_again(self.ident)

    def on_agree_again(self, msg: p.AgreeAgain) -> None:
        self.room().agree_again(self.ident)

    def on_decline_again(self, msg: p.DeclineAgain) -> None:
        self.room().decline_again(self.ident)

    def on_offer(self, msg: p.Offer) -> None:
        self.room().offer(self.ident, msg.kind)

    def on_answer(self, msg: p.Answer) -> None:
        self.room().answer(self.ident, msg.kind, msg.accept)

    def on_start(self, msg: p.Start) -> None:
        self.room().start(self.ident)

    # -- end ------------------------------------------------------------------
    def closed(self) -> None:
        """The connection is gone: keep the seat for the grace period."""
        ident = self.conn.identity
        if ident is None or ident.conn is not self.conn:
            return  # never welcomed, or replaced by a newer connection
        ident.conn = None
        if ident.room is not None:
            ident.room.disconnected(ident)
        else:
            self.server.forget_later(ident)
