"""An address whose connection was closed for abuse waits before it connects again
(issue 41 item 10): a swarm cannot buy a fresh burst and a fresh count of bad frames by
reconnecting at once, and nobody else pays for it."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from gridhall import protocol as p
from gridhall.server.io.app import GameServer

DEADLINE = 30.0


@asynccontextmanager
async def ws_from(server: GameServer, address: str) -> AsyncIterator[ClientConnection]:
    """A connection from ``address`` (any of 127.0.0.0/8) that has said hello."""
    sock = socket.socket()
    sock.bind((address, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", server.port))
    url = f"ws://127.0.0.1:{server.port}/"
    async with connect(url, sock=sock, compression=None, max_size=None) as ws:
        await ws.send(p.encode_map({"type": "hello", "protocol": 1, "name": "Eve"}))
        while p.decode_map(await asyncio.wait_for(ws.recv(), DEADLINE))["type"] != "welcome":
            pass
        yield ws


async def closed_with(ws: ClientConnection) -> tuple[int, str]:
    with pytest.raises(ConnectionClosed) as info:
        while True:
            await asyncio.wait_for(ws.recv(), DEADLINE)
    assert info.value.rcvd is not None
    return info.value.rcvd.code, info.value.rcvd.reason


async def refused_connect(server: GameServer, address: str) -> tuple[int, str, str]:
    """Status, Retry-After and body of a connect from ``address`` the server refuses."""
    with pytest.raises(InvalidStatus) as info:
        async with ws_from(server, address):
            pass
    response = info.value.response
    return response.status_code, response.headers.get("Retry-After", ""), response.body.decode()


async def test_an_address_closed_for_bad_frames_waits_others_and_its_open_sockets_do_not(
    make_server: Any,
) -> None:
    server = await make_server(max_bad_messages=2, abuse_cooldown=30.0)
    async with ws_from(server, "127.0.0.7") as other, ws_from(server, "127.0.0.7") as eve:
        for _ in range(3):
            await eve.send(b"\xc1")
        assert await closed_with(eve) == (1008, "too many bad messages")
        status, retry_after, body = await refused_connect(server, "127.0.0.7")
        assert status == 429 and int(retry_after) >= 29 and "closed for flooding" in body
        async with ws_from(server, "127.0.0.8"):  # another address: let in
            pass
        await other.send(p.encode_map({"type": "list-rooms", "id": 4}))  # still served
        assert p.decode_map(await asyncio.wait_for(other.recv(), DEADLINE))["re"] == 4


async def test_a_message_flood_close_cools_the_address_too(make_server: Any) -> None:
    server = await make_server(rate_per_second=1.0, rate_burst=1, max_rate_strikes=2)
    async with ws_from(server, "127.0.0.9") as eve:
        for n in range(5):
            await eve.send(p.encode_map({"type": "list-rooms", "id": n}))
        assert await closed_with(eve) == (1008, "message flood")
    status, retry_after, _ = await refused_connect(server, "127.0.0.9")
    assert status == 429 and int(retry_after) >= 1


def masked(payload: bytes) -> bytes:
    """A client's binary frame (masked, as RFC 6455 asks) of a short payload."""
    mask = b"\x01\x02\x03\x04"
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x82, 0x80 | len(payload)]) + mask + body


async def test_one_write_of_many_frames_is_parsed_only_as_the_session_takes_them(
    make_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """websockets parses a whole read at once: a 128 KB read of tiny frames was ~4,400
    frames queued for one connection and one long stall of the event loop. The
    server parses a read a slice at a time and holds the rest until its queue of frames
    (16) has room: every frame is still handled, in order, and none waits parsed."""
    from websockets.asyncio.messages import Assembler

    longest: dict[int, int] = {}
    put = Assembler.put

    def counted(self: Assembler, frame: Any) -> None:
        put(self, frame)
        longest[id(self)] = max(longest.get(id(self), 0), len(self.frames))

    monkeypatch.setattr(Assembler, "put", counted)
    server = await make_server(rate_per_second=1e6, rate_burst=10**6)
    count = 5000
    async with ws_from(server, "127.0.0.10") as ws:
        [conn] = server.connections
        assert ws.transport is not None and conn.ws is not None
        ws.transport.write(
            b"".join(masked(p.encode_map({"type": "list-rooms", "id": n})) for n in range(count))
        )
        answers = []
        while len(answers) < count:
            answers.append(p.decode_map(await asyncio.wait_for(ws.recv(), DEADLINE))["re"])
        queued = longest[id(conn.ws.recv_messages)]
    assert answers == list(range(count))
    assert 16 < queued <= 16 + 1024 // 7 + 1  # past the queue's bound by one slice at most
