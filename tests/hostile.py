"""A hostile server for client tests: real websockets on 127.0.0.1, port 0, speaking the
wire format, but sending whatever a test scripts (names with markup and escape
sequences, boards far beyond the protocol's sizes) where a real server would not.

It welcomes every ``hello`` with :attr:`HostileServer.name`, answers ``list-rooms``
with :attr:`rooms`, and answers ``join-room`` with ``joined`` and the ``state`` made by
:attr:`room_state` (a map, ``room``/``seq`` filled in). :meth:`push` sends a frame to
every connected client; :attr:`requests` records what the clients sent.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from gridhall import protocol

EVIL = "[/]x \x1b]0;pwned\x07\x1b[2J\x1b]52;c;ZXZpbA==\x07 \u202eevil\x9b31m [bold]b[/bold]"
"""Markup that does not parse, a title set, a screen clear, an OSC 52 clipboard write,
a bidi override and a C1 CSI: all of it must reach the player as inert text."""
CONTROL = frozenset(chr(c) for c in (*range(0x20), *range(0x7F, 0xA0))) | {"\u202e"}


def has_control(text: str) -> bool:
    """Whether ``text`` holds a control or bidi-override character."""
    return any(ch in CONTROL for ch in text)


def gomoku_state(size: int = 15, name: str = EVIL, status: str = "playing") -> dict[str, Any]:
    """A Gomoku room as a ``state`` map (without ``room``/``seq``): us and ``name``."""
    return {
        "type": "state",
        "game": "gomoku",
        "options": {"size": min(size, 19)},
        "status": status,
        "turn": "p-them",
        "round": 0,
        "players": [
            {"player": "p-me", "name": "me", "seat": 0, "connected": True},
            {"player": "p-them", "name": name, "seat": 1, "connected": True},
        ],
        "spectators": [name],
        "chat": [{"from": "p-them", "name": name, "text": name, "ts": 1.0}],
        "view": {
            "size": size,
            "rule": "freestyle",
            "moves": [[7, 7]],
            "next": "white",
            "colors": {"p-me": "black", "p-them": "white"},
        },
    }


class HostileServer:
    """See the module docstring."""

    def __init__(self) -> None:
        self.name = EVIL
        self.rooms: list[dict[str, Any]] = [
            {
                "room": "EV1L00",
                "game": "gomoku",
                "options": {"size": 15, "rule": EVIL},
                "players": [EVIL],
                "spectators": 0,
                "status": EVIL,
            },
        ]
        self.room_state: dict[str, Any] = gomoku_state()
        self.requests: list[dict[str, Any]] = []
        self.clients: set[ServerConnection] = set()
        self.port = 0
        self.seq = 0

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    async def push(self, msg: dict[str, Any]) -> None:
        """Send ``msg`` to every client (``room``/``seq`` of a room event filled in)."""
        frame = protocol.encode_map(self._stamp(msg))
        for ws in list(self.clients):
            try:
                await ws.send(frame)
            except ConnectionClosed:
                pass

    async def close_all(self, code: int, reason: str) -> None:
        """Close every connection with ``code`` and ``reason``."""
        for ws in list(self.clients):
            await ws.close(code, reason)

    def _stamp(self, msg: dict[str, Any]) -> dict[str, Any]:
        if msg["type"] in ("welcome", "rooms", "error", "profile"):
            return msg
        self.seq += 1
        return {"room": "EV1L00", "seq": self.seq, **msg}

    async def _handler(self, ws: ServerConnection) -> None:
        self.clients.add(ws)
        try:
            async for frame in ws:
                if not isinstance(frame, bytes):
                    continue
                msg = protocol.decode_map(frame)
                self.requests.append(msg)
                for reply in self.replies(msg):
                    await ws.send(protocol.encode_map(reply))
        except ConnectionClosed:
            pass
        finally:
            self.clients.discard(ws)

    def replies(self, msg: dict[str, Any]) -> list[dict[str, Any]]:
        kind, re = msg.get("type"), msg.get("id")
        if kind == "hello":
            return [
                {
                    "type": "welcome",
                    "protocol": protocol.PROTOCOL_VERSION,
                    "player": "p-me",
                    "token": "t0ken",
                    "server": self.name,
                }
            ]
        if kind == "list-rooms":
            return [{"type": "rooms", "rooms": self.rooms, "re": re}]
        if kind in ("join-room", "sync"):
            joined = [self._stamp({"type": "joined", "role": "player", "seat": 0, "re": re})]
            return [*(joined if kind == "join-room" else []), self._stamp(dict(self.room_state))]
        if kind == "leave-room":
            return [self._stamp({"type": "left", "re": re})]
        return [{"type": "error", "code": "bad-message", "message": EVIL, "re": re}]


@asynccontextmanager
async def hostile_server() -> AsyncIterator[HostileServer]:
    """A :class:`HostileServer` listening on 127.0.0.1 (port 0) for the block."""
    server = HostileServer()
    async with serve(
        server._handler, "127.0.0.1", 0, compression=None, max_size=protocol.MAX_FRAME
    ) as ws_server:
        server.port = next(iter(ws_server.sockets)).getsockname()[1]
        yield server
        for ws in list(server.clients):
            await ws.close()
