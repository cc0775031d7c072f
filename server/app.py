"""The game server: websockets front end, connection caps, shutdown.

``GameServer`` wires the pieces: a Lobby of Rooms, the Identities, the Store,
computer players. Port 0 picks a free port (tests); ``port`` tells which.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import time
from collections import Counter
from collections.abc import Callable
from http import HTTPStatus

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from gridhall import protocol as p
from gridhall.protocol import ErrorCode

from .computer import Computers
from .config import ServerConfig
from .connection import Connection
from .identity import Identities, Identity
from .lobby import Lobby
from .room import Room
from .session import Session
from .store import Store

log = logging.getLogger("gridhall.server")


class GameServer:
    def __init__(self, config: ServerConfig | None = None) -> None:
        self.config = config or ServerConfig()
        self.store = Store(self.config.db)
        self.identities = Identities()
        self.lobby = Lobby(self)
        self.computers = Computers(self.config.ai_workers, self.config.ai_budget)
        self.connections: set[Connection] = set()
        self.per_ip: Counter[str] = Counter()
        self._server: Server | None = None
        self._closed = False

    # -- lifecycle ------------------------------------------------------------
    async def start(self) -> None:
        self._server = await serve(
            self._handle, self.config.host, self.config.port,
            compression=None,  # small frames; deflate costs latency and memory per socket
            max_size=p.MAX_FRAME, max_queue=64,
            ping_interval=self.config.ping_interval, ping_timeout=self.config.ping_timeout,
            close_timeout=5, process_request=self._http)
        log.info("gridhall server %r listening on %s:%d", self.config.name, self.config.host,
                 self.port)

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        """Close every connection with 1001, stop computers, checkpoint the store."""
        if self._closed:
            return
        self._closed = True
        if self._server is not None:
            self._server.close(close_connections=True)
            await self._server.wait_closed()
        for room in list(self.lobby.rooms.values()):
            room.close()
        self.computers.close()
        self.store.close()
        log.info("server stopped")

    async def run_until_signalled(self, on_ready: Callable[[GameServer], None] | None = None
                                  ) -> None:
        """Serve until SIGINT or SIGTERM, then shut down cleanly."""
        await self.start()
        if on_ready is not None:
            on_ready(self)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        log.info("signal received: closing connections")
        await self.close()

    @staticmethod
    def _http(connection: ServerConnection, request: Request) -> Response | None:
        """``GET /healthz`` answers 200 for health checks; other paths upgrade."""
        if request.path == "/healthz":
            return connection.respond(HTTPStatus.OK, "ok\n")
        return None

    # -- connections ----------------------------------------------------------
    async def _handle(self, ws: ServerConnection) -> None:
        conn = Connection(ws, self.config, time.monotonic())
        if len(self.connections) >= self.config.max_connections or \
                self.per_ip[conn.peer] >= self.config.max_connections_per_ip:
            conn.send(p.Error(code=ErrorCode.SERVER_BUSY.value,
                              message="The server has as many players as it allows; "
                                      "try again later."))
            conn.close(1013, "server busy")
            await conn.wait_closed()
            return
        self.connections.add(conn)
        self.per_ip[conn.peer] += 1
        session = Session(self, conn)
        try:
            async for frame in ws:
                session.receive(frame)
                if conn.closed:
                    break
        except ConnectionClosed:
            pass
        finally:
            self.connections.discard(conn)
            self.per_ip[conn.peer] -= 1
            if self.per_ip[conn.peer] <= 0:
                del self.per_ip[conn.peer]
            if not self._closed:
                session.closed()
            if conn.closed:
                await conn.wait_closed()
            else:
                await conn.drain()

    # -- what rooms ask of the server (RoomHost) --------------------------------
    def room_emptied(self, room: Room) -> None:
        self.lobby.remove(room)
        log.info("room %s closed", room.code)

    def identity_released(self, ident: Identity) -> None:
        if ident.conn is None:
            self.identities.forget(ident)

    def forget_later(self, ident: Identity) -> None:
        """Keep a roomless, disconnected identity resumable for the grace period."""

        def forget() -> None:
            if ident.conn is None and ident.room is None:
                self.identities.forget(ident)

        asyncio.get_running_loop().call_later(self.config.grace_seconds, forget)

    def seat_computer(self, room: Room, level: str) -> None:
        bot = self.identities.create(f"Computer ({level})", bot=level)
        room.seat_computer(bot)

    def schedule_computer(self, room: Room, ident: Identity) -> None:
        self.computers.schedule(room, ident)
