"""One address's computers never make another address wait: the shared worker pool
keeps a worker for quick jobs and gives each address its share (a real server)."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

from websockets.asyncio.client import connect

from gridhall.server.io.net.app import GameServer
from tests.wsclient import WsClient

ANSWER = 30.0
"""Seconds to wait for an answer before calling it lost (a bound, not a sync)."""


@asynccontextmanager
async def client_from(server: GameServer, address: str, name: str) -> AsyncIterator[WsClient]:
    """A welcomed client whose connection comes from ``address`` (127.0.0.0/8)."""
    sock = socket.socket()
    sock.bind((address, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", server.port))
    async with connect(
        f"ws://127.0.0.1:{server.port}/", sock=sock, compression=None, max_size=None
    ) as ws:
        client = WsClient(ws)
        await client.hello(name)
        yield client


async def answer(client: WsClient, type_: str, **match: Any) -> dict[str, Any]:
    """The first ``type_`` message matching ``match``, or the first error."""
    loop = asyncio.get_running_loop()
    end = loop.time() + ANSWER
    while True:
        msg = await client.recv(max(0.01, end - loop.time()))
        if msg["type"] == "error" or (
            msg["type"] == type_ and all(msg.get(k) == v for k, v in match.items())
        ):
            return msg


async def test_another_addresss_computers_never_delay_joins_reveals_or_race_starts(
    make_server: Any,
) -> None:
    server: GameServer = await make_server(ai_workers=2, max_jobs=4, ai_budget=3.0)
    async with AsyncExitStack() as stack:
        for n in range(4):  # hard computers from one address, each thinking or queued
            attacker = await stack.enter_async_context(client_from(server, "127.0.0.2", f"Hard{n}"))
            await attacker.send("create-room", game="gomoku", options={"ai": "hard"})
            await attacker.expect("state", status="playing")
            await attacker.send("move", move={"x": 7, "y": 7})
            await attacker.expect("moved", by=attacker.player)  # its computer is asked

        owner = await stack.enter_async_context(client_from(server, "127.0.0.4", "Owner"))
        await owner.send("create-room", game="gomoku", private=True, password="secret")
        room = (await owner.expect("joined"))["room"]

        me = await stack.enter_async_context(client_from(server, "127.0.0.3", "Me"))
        await me.send("join-room", room=room, password="secret", id=1)
        assert (await answer(me, "joined"))["type"] == "joined"
        await me.send("leave-room")
        await me.expect("left")

        await me.send("create-room", game="minesweeper", options={"preset": "beginner"})
        await me.expect("state", status="playing")
        await me.send("move", move={"action": "reveal", "x": 4, "y": 4}, id=2)
        assert (await answer(me, "moved"))["type"] == "moved"
        await me.send("leave-room")
        await me.expect("left")

        await me.send(
            "create-room",
            game="linkmatch",
            options={"width": 4, "height": 4, "kinds": 2, "countdown": 0},
        )
        await me.expect("state", status="waiting")
        await me.send("start", id=3)
        assert (await answer(me, "state", status="playing"))["type"] == "state"
        await me.send("leave-room")
        await me.expect("left")

        await me.send("create-room", game="gomoku", options={"ai": "easy"})
        state = await me.expect("state", status="playing")
        bot = state["players"][1]["player"]
        await me.send("move", move={"x": 7, "y": 7})
        assert (await answer(me, "moved", by=bot))["type"] == "moved"
