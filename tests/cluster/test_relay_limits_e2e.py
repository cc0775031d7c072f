"""A relayed client is held to its session's limits on the node it is connected to, before
anything reaches Redis; a closed room and addresses that left leave nothing in Redis
(issue 41; the attack is ``bench/attack.py --only relay-flood``)."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from gridhall import protocol
from gridhall.protocol import ProtocolError
from tests.cluster.nodes import client_from, cluster
from tests.wsclient import WsClient

redis = pytest.importorskip("redis", reason='pip install "gridhall[cluster]"')
from gridhall.server.cluster.streams import STREAM_TTL_MS  # noqa: E402

pytestmark = pytest.mark.timeout(120)

RELAY_FRAME = 4096
"""The largest frame relayed (server/cluster/relay.py), as PROTOCOL.md states it."""
RATE_LIMITED = 120
"""Frames Eve sends at once: twice the session's burst (60)."""


def entries(client: Any, key: str, pid: str) -> list[dict[bytes, bytes]]:
    """The messages a stream holds for player ``pid``."""
    return [f for _, f in client.xrange(key) if f.get(b"p") == pid.encode()]


async def answers(client: WsClient, ids: set[int]) -> dict[int, dict[str, Any]]:
    """The answer to each request id of ``ids`` (the test's timeout guards)."""
    got: dict[int, dict[str, Any]] = {}
    while set(got) != ids:
        msg = await client.recv()
        if msg.get("re") in ids:
            got[msg["re"]] = msg
    return got


async def test_a_relayed_client_is_held_to_its_limits_on_its_own_node(
    tmp_path: Path, redis_clean: str, fresh_db: str
) -> None:
    r = redis.Redis.from_url(redis_clean)
    async with AsyncExitStack() as stack:
        nodes = await stack.enter_async_context(cluster(tmp_path, redis_clean, fresh_db, count=2))
        ann = await stack.enter_async_context(client_from(nodes[0].url, "127.0.0.3", "Ann"))
        await ann.send("create-room", game="gomoku")
        room = (await ann.expect("joined"))["room"]
        eve = await stack.enter_async_context(client_from(nodes[1].url, "127.0.0.4", "Eve"))
        await eve.send("join-room", room=room, role="spectator")
        await eve.expect("state", room=room)  # relayed: node1 -> Redis -> node0
        stream = "gridhall:relay:node0:in"  # (node0 owns the room)

        # a valid message far larger than any a room takes: refused on node1
        await eve.send("move", move={"x": 0, "y": 0, "pad": "x" * 50_000}, id=1)
        refused = (await answers(eve, {1}))[1]
        assert refused["code"] == "bad-message" and str(RELAY_FRAME) in refused["message"]

        # twice the burst at once: those past the rate are refused on node1, and only
        # the others reach Redis (each then answered by the owner)
        ids = set(range(100, 100 + RATE_LIMITED))
        for n in sorted(ids):
            await eve.send("list-rooms", id=n)
        got = await answers(eve, ids)
        limited = {n for n, m in got.items() if m.get("code") == "rate-limited"}
        listed = {n for n, m in got.items() if m["type"] == "rooms"}
        assert limited and listed and limited | listed == ids
        relayed = [
            protocol.decode_map(f[b"d"])
            for f in entries(r, stream, eve.player)
            if f[b"k"] == b"frame"
        ]
        assert {m["id"] for m in relayed if m["type"] == "list-rooms"} == listed
        assert all(len(f.get(b"d", b"")) <= RELAY_FRAME for f in entries(r, stream, eve.player))

        # bad frames: closed by node1 past the limit, and none of them reached Redis
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(60):
                await eve.send_raw(b"\xc1 not msgpack")
            while True:
                await eve.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        for f in entries(r, stream, eve.player):
            if f[b"k"] == b"frame":
                try:
                    protocol.decode_map(f[b"d"])
                except ProtocolError:
                    pytest.fail(f"a bad frame reached Redis: {f[b'd']!r}")
    r.close()


async def until_clean(client: Any) -> list[tuple[str, int]]:
    """Wait until Redis holds nothing but the live nodes' entries, their relayed clients'
    streams and rate buckets that expire within two minutes (the test's timeout guards); what else it holds if it
    never comes to that, on failure."""
    while True:
        left = []
        for key in client.scan_iter(count=1000):
            name = key.decode()
            ttl = int(client.pttl(key))
            if name.startswith("gridhall:node:"):
                continue
            if name.startswith("gridhall:create:") and 0 < ttl <= 120_000:
                continue
            if name.startswith("gridhall:relay:") and 0 < ttl <= STREAM_TTL_MS:
                continue  # a live node's stream to its relayed clients (not a room's)
            left.append((name, ttl))
        if not left:
            return left
        await asyncio.sleep(0.1)


async def test_a_closed_room_and_addresses_that_left_leave_nothing_in_redis(
    tmp_path: Path, redis_clean: str, fresh_db: str
) -> None:
    r = redis.Redis.from_url(redis_clean)
    async with AsyncExitStack() as stack:
        nodes = await stack.enter_async_context(cluster(tmp_path, redis_clean, fresh_db, count=2))
        async with (
            client_from(nodes[0].url, "127.0.0.5", "Ann") as ann,
            client_from(nodes[1].url, "127.0.0.6", "Bob") as bob,
        ):
            await ann.send("create-room", game="gomoku")
            room = (await ann.expect("joined"))["room"]
            await bob.send("join-room", room=room)  # relayed to node0
            await bob.expect("state", status="playing")
            await ann.send("move", move={"x": 0, "y": 0})
            await bob.expect("moved", by=ann.player)
            await bob.send("chat", text="hello")
            await ann.expect("chat", text="hello")
            assert r.exists("gridhall:relay:node0:in", f"gridhall:player:{bob.player}") == 2
            for player in (bob, ann):
                await player.send("leave-room")
                await player.expect("left")
        for n in range(20):  # passers-by: hello, and gone
            async with client_from(nodes[n % 2].url, f"127.0.1.{n + 1}", f"P{n}"):
                pass
        try:
            await asyncio.wait_for(until_clean(r), 30)
        except TimeoutError:
            pytest.fail(f"left in Redis: {[(k.decode(), r.pttl(k)) for k in r.scan_iter()]}")
    r.close()
