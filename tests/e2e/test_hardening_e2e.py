"""Defences that need real sockets: slow readers, freed memory, heavy work in workers."""

from __future__ import annotations

import asyncio
import gc
import socket
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from gridhall import protocol as p
from gridhall.server.io.net.app import GameServer
from gridhall.server.io.net.connection import Connection
from tests.waiting import until
from tests.wsclient import WsClient

DEADLINE = 30.0


def url(server: GameServer) -> str:
    return f"ws://127.0.0.1:{server.port}/"


@asynccontextmanager
async def non_reader(server: GameServer) -> AsyncIterator[ClientConnection]:
    """A client that never reads: a tiny receive buffer, and the library stops
    reading after one queued message."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", server.port))
    async with connect(url(server), sock=sock, max_queue=1, max_size=None, compression=None) as ws:
        yield ws


async def test_a_slow_reader_is_dropped_with_1008_and_freed_without_the_gc(
    make_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = await make_server(
        send_queue_bytes=256 * 1024,
        rate_per_second=500.0,
        rate_burst=500,
        snapshots_per_second=500.0,
        snapshot_burst=500,
    )
    closes: list[tuple[int, str, int]] = []
    close = Connection.close

    def record(self: Connection, code: int = 1000, reason: str = "", flush: bool = True) -> None:
        closes.append((code, reason, self.queued))
        close(self, code, reason, flush)

    monkeypatch.setattr(Connection, "close", record)
    gc.disable()
    try:
        async with WsClient.connect(url(server), "Ann") as ann:
            await ann.send(
                "create-room",
                game="minesweeper",
                options={"width": 200, "height": 200, "mines": 8000},
            )
            room = (await ann.expect("joined"))["room"]
            async with non_reader(server) as slow:
                await slow.send(p.encode_map({"type": "hello", "protocol": 1, "name": "Slow"}))
                await slow.send(
                    p.encode_map({"type": "join-room", "room": room, "role": "spectator"})
                )
                await until(lambda: len(server.sessions) == 2, "the spectator to join")
                [conn] = [
                    c
                    for c in server.connections
                    if server.sessions.get(ann.player) is None
                    or server.sessions[ann.player].link is not c
                ]
                gone = weakref.ref(conn)
                del conn
                for _ in range(2000):  # each sync queues a ~40 KB snapshot
                    if len(server.connections) == 1:
                        break
                    await slow.send(p.encode_map({"type": "sync"}))
                    await asyncio.sleep(0.002)
                await until(lambda: gone() is None, "the dropped connection to be freed")
            assert closes[0][:2] == (1008, "too slow reading messages")
            assert closes[0][2] <= 256 * 1024
            await ann.send("sync")  # the room and its other member are unharmed
            assert (await ann.expect("state"))["room"] == room
    finally:
        gc.enable()


async def test_a_hint_on_a_huge_board_is_answered_from_the_worker_pool(make_server: Any) -> None:
    server = await make_server()
    async with WsClient.connect(url(server), "Ann") as ann:
        await ann.send(
            "create-room", game="minesweeper", options={"width": 200, "height": 200, "mines": 8000}
        )
        await ann.expect("state")
        await ann.send("move", move={"action": "reveal", "x": 100, "y": 100})
        await ann.expect("moved", timeout=DEADLINE)
        await ann.send("move", move={"action": "hint"}, id=5)
        loop = asyncio.get_running_loop()
        end = loop.time() + DEADLINE
        while True:  # the hint itself, or a notice that none was found within budget
            msg = await ann.recv(max(0.01, end - loop.time()))
            if msg["type"] == "moved" and msg["move"] == {"action": "hint"}:
                break
        hint = msg["view"]["hint"]
        if hint is None:
            notice = await ann.expect("notice", event="hint")
            assert notice["data"]["found"] is False
        else:
            assert 0 <= hint["x"] < 200 and 0 <= hint["y"] < 200


async def test_a_private_room_answers_guesses_and_backs_off(make_server: Any) -> None:
    server = await make_server()
    async with (
        WsClient.connect(url(server), "Ann") as ann,
        WsClient.connect(url(server), "Bob") as bob,
    ):
        await ann.send("create-room", game="gomoku", password="sesame")
        room = (await ann.expect("joined"))["room"]
        codes = []
        for n in range(8):
            await bob.send("join-room", room=room, password=f"no{n}", id=n)
            err = await bob.expect("error", re=n)
            codes.append(err["code"])
            if err["code"] == "rate-limited":
                assert err["retry_after"] > 0
                break
            if err["code"] == "server-busy":
                await asyncio.sleep(err["retry_after"])
        assert codes[-1] == "rate-limited" and codes.count("wrong-password") == 5


async def test_an_address_opening_connections_too_fast_gets_429_with_retry_after(
    make_server: Any,
) -> None:
    server = await make_server(connect_burst=2, connects_per_second=0.01)
    async with WsClient.connect(url(server), "Ann"), WsClient.connect(url(server), "Bob"):
        with pytest.raises(InvalidStatus) as info:
            async with WsClient.connect(url(server), "Cy"):
                pass
    response = info.value.response
    assert response.status_code == 429 and int(response.headers["Retry-After"]) >= 1
