"""Spectators coming and going never cost a room's players their connection.

A real server on port 0 with its default limits (but for the room's arrival budget):
twenty spectators from one address join and leave over and over (each within its own
limits) while two players sit in a game. The shared client folds every ``joined``/``left`` into its copy without
asking for a ``sync``; a client that does ask on each one (as older clients do) has
its syncs folded into one answer, never refused, never struck."""

from __future__ import annotations

import asyncio
import contextlib
from contextlib import AsyncExitStack
from typing import Any

from gridhall import protocol as p
from gridhall.client.messages import Connection, Event, Refused, Request
from gridhall.client.session import Session
from gridhall.server.io.net.app import GameServer
from tests.client.test_client_session import running_as
from tests.waiting import WAIT, until
from tests.wsclient import WsClient

UNBUDGETED = {"spectator_roster_frames_per_second": 1e9, "spectator_roster_frames_burst": 10**9}
"""The server's default limits but for its room budget, which would pace these arrivals
(tests/server/test_fanout_budget.py pins that)."""
ROUNDS = 4
"""Joins per spectator: within its snapshot burst (5), so no spectator is refused."""


def url(server: GameServer) -> str:
    return f"ws://127.0.0.1:{server.port}/"


class Recording(Session):
    """The shared client session, keeping the type of every request it sends."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sent: list[str] = []

    async def send(self, msg: Request | dict[str, Any]) -> int | None:
        self.sent.append(str(msg.get("type") if isinstance(msg, dict) else msg.TYPE))
        return await super().send(msg)


def running(
    server_url: str, name: str
) -> contextlib.AbstractAsyncContextManager[tuple[Recording, list[Event]]]:
    return running_as(Recording, server_url, name)


async def churn(server_url: str, room: str, spectators: int = 20) -> None:
    """``spectators`` connections each join to watch and leave, ``ROUNDS`` times."""
    async with AsyncExitStack() as stack:
        crowd = [
            await stack.enter_async_context(WsClient.connect(server_url, f"S{n}"))
            for n in range(spectators)
        ]

        async def come_and_go(c: WsClient) -> None:
            for _ in range(ROUNDS):
                await c.send("join-room", room=room, role="spectator")
                await c.expect("state")
                await c.send("leave-room")
                await c.expect("left", player=c.player)

        await asyncio.gather(*(come_and_go(c) for c in crowd))
        assert not [m for c in crowd for m in c.received if m["type"] == "error"]


async def test_spectator_churn_never_costs_the_players_a_sync_or_their_connection(
    make_server: Any,
) -> None:
    server = await make_server(**UNBUDGETED)
    async with (
        running(url(server), "Ann") as (ann, ann_seen),
        running(url(server), "Bob") as (bob, bob_seen),
    ):
        ann.submit("create-room", game="gomoku")
        await until(lambda: ann.state is not None)
        assert ann.room is not None
        room = ann.room.room
        bob.submit("join-room", room=room)
        await until(lambda: ann.state is not None and len(ann.state.players) == 2)
        await churn(url(server), room)
        ann.submit(p.Chat(text="still here"))
        for s in (ann, bob):
            await until(
                lambda s=s: (
                    s.state is not None
                    and s.state.chat  # type: ignore[misc]
                    and s.state.chat[-1]["text"] == "still here"
                )
            )
        for s, seen in ((ann, ann_seen), (bob, bob_seen)):
            assert "sync" not in s.sent
            assert [e.status for e in seen if isinstance(e, Connection)] == [
                "connecting",
                "connected",
            ]
            assert not [e for e in seen if isinstance(e, Refused)]
            assert s.state is not None and s.state.spectators == []
            assert [pl["name"] for pl in s.state.players] == ["Ann", "Bob"]
        joins = [e for e in ann_seen if isinstance(e, p.Joined) and e.role == "spectator"]
        assert len(joins) == 20 * ROUNDS


async def test_a_client_that_syncs_on_every_roster_event_is_never_refused_or_closed(
    make_server: Any,
) -> None:
    server = await make_server(**UNBUDGETED)
    async with WsClient.connect(url(server), "Old") as old:
        await old.send("create-room", game="gomoku")
        room = (await old.expect("joined"))["room"]
        await old.expect("state")
        asked = 0
        final = 10**6

        async def read() -> None:  # an older client: a sync for every arrival or departure
            nonlocal asked
            while True:
                msg = await old.recv(WAIT)
                if msg["type"] in ("joined", "left") and msg.get("player") != old.player:
                    await old.send("sync", id=asked)
                    asked += 1
                elif msg["type"] == "chat" and msg["text"] == "marker":
                    await old.send("sync", id=final)  # folds into any sync still waiting
                elif msg["type"] == "state" and msg.get("re") == final:
                    return

        reader = asyncio.create_task(read())
        await churn(url(server), room)
        await old.send("chat", text="marker")
        await asyncio.wait_for(reader, WAIT)
        assert asked == 2 * 20 * ROUNDS
        assert not [m for m in old.received if m["type"] == "error"]
