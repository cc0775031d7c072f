"""A real websocket test client speaking the protocol through the project's codec."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from gridhall import protocol

TIMEOUT = 30.0
"""A failure guard for what the server brings about (it returns as soon as the message
comes): generous, since the machine running the tests may be busy."""


class WsClient:
    """Sends maps, receives decoded maps; remembers everything it received."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.player = ""
        self.token = ""
        self.received: list[dict[str, Any]] = []
        self.frames: list[bytes] = []

    @classmethod
    @asynccontextmanager
    async def connect(
        cls, url: str, name: str | None = None, token: str | None = None
    ) -> AsyncIterator[WsClient]:
        """Open a connection and, if ``name`` is given, say hello."""
        async with connect(url, compression=None, max_size=None) as ws:
            client = cls(ws)
            if name is not None:
                await client.hello(name, token)
            yield client

    async def hello(self, name: str, token: str | None = None) -> dict[str, Any]:
        fields: dict[str, Any] = {"protocol": 1, "name": name}
        if token:
            fields["token"] = token
        await self.send("hello", **fields)
        welcome = await self.expect("welcome")
        self.player, self.token = welcome["player"], welcome["token"]
        return welcome

    async def send(self, type_: str, **fields: Any) -> None:
        await self.ws.send(protocol.encode_map({"type": type_, **fields}))

    async def send_raw(self, data: bytes | str) -> None:
        await self.ws.send(data)

    async def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        frame = await asyncio.wait_for(self.ws.recv(), timeout)
        assert isinstance(frame, bytes), "the server sends binary frames only"
        self.frames.append(frame)
        msg = protocol.decode_map(frame, protocol.MAX_SERVER_FRAME)
        protocol.decode(frame, "server")  # every frame must match the typed contract
        self.received.append(msg)
        return msg

    async def expect(self, type_: str, timeout: float = TIMEOUT, **match: Any) -> dict[str, Any]:
        """Skip messages until one of ``type_`` whose fields equal ``match``."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            msg = await self.recv(max(0.01, end - loop.time()))
            if msg["type"] == type_ and all(msg.get(k) == v for k, v in match.items()):
                return msg

    async def request(self, type_: str, reply: str, **fields: Any) -> dict[str, Any]:
        await self.send(type_, **fields)
        return await self.expect(reply)

    async def quiet(self, seconds: float = 0.2) -> list[dict[str, Any]]:
        """Everything that arrives within ``seconds`` (to assert nothing else came)."""
        got: list[dict[str, Any]] = []
        try:
            while True:
                got.append(await self.recv(seconds))
        except TimeoutError:
            return got


@asynccontextmanager
async def seated_pair(
    url: str, game: str, options: dict[str, Any] | None = None
) -> AsyncIterator[tuple[WsClient, WsClient, str]]:
    """Two welcomed clients seated in a new room of a two-player ``game``, game started:
    (seat 0, seat 1, room)."""
    async with WsClient.connect(url, "Ann") as a, WsClient.connect(url, "Bob") as b:
        await a.send("create-room", game=game, options=options or {})
        room = (await a.expect("joined"))["room"]
        await b.send("join-room", room=room)
        await a.expect("state", status="playing")
        await b.expect("state", status="playing")
        yield a, b, room


def gomoku_pair(
    url: str, options: dict[str, Any] | None = None
) -> AbstractAsyncContextManager[tuple[WsClient, WsClient, str]]:
    """Two welcomed clients seated in a new Gomoku room, game started: (black, white, room)."""
    return seated_pair(url, "gomoku", options)


async def play_moves(black: WsClient, white: WsClient, moves: list[tuple[int, int]]) -> None:
    """Black and White play ``moves`` in turn (black first), each waiting to see the other's."""
    for n, (x, y) in enumerate(moves):
        mover, other = (black, white) if n % 2 == 0 else (white, black)
        await mover.send("move", move={"x": x, "y": y})
        await other.expect("moved", by=mover.player)
