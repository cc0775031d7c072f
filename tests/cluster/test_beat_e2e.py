"""A node's beat costs a few Redis commands however many rooms, players and addresses it
has (issue 42 item 3): it renews every lease, rewrites the per-address counts and checks
its relayed rooms' owners in batches, and says where its players are only when Redis may
have lost it. A beat that built a command per room, per player and per address (two
thousand at a thousand players) held the event loop each time, the tail of every move
made meanwhile. What the beat writes still holds: every lease is renewed, every
address's counts are there and expire, every player's room is known."""

from __future__ import annotations

import asyncio
from collections import Counter
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from tests.cluster.nodes import LEASE_MS, client_from, cluster

redis = pytest.importorskip("redis", reason='pip install "gridhall[cluster]"')
pytestmark = pytest.mark.timeout(240)

ROOMS = 40
"""Rooms, each created by its own address: one lease, two counts and one player each."""
BEATS = 3


def beat_commands(url: str, beats: int) -> list[str]:
    """(A thread) the commands the node sends Redis over ``beats`` whole beats, as Redis's
    ``MONITOR`` sees them (a script's own calls, which it tags ``lua``, left out): from
    one beat's first command (``EXISTS`` of the node's key) to the first of the next."""
    client = redis.Redis.from_url(url)
    seen: list[str] = []
    started = 0
    with client.monitor() as monitor:
        for said in monitor.listen():
            if said["client_type"] == "lua":
                continue
            command = said["command"]
            if command.startswith("EXISTS gridhall:node:"):
                started += 1
                if started > beats:
                    break
            if started:
                seen.append(command.split(" ", 1)[0].upper())
    client.close()
    return seen


async def test_a_beat_is_a_few_commands_whatever_the_rooms_and_addresses(
    tmp_path: Path, redis_clean: str, fresh_db: str
) -> None:
    client = redis.Redis.from_url(redis_clean)
    async with AsyncExitStack() as stack:
        (node,) = await stack.enter_async_context(cluster(tmp_path, redis_clean, fresh_db, count=1))
        rooms = []
        for i in range(ROOMS):  # each from its own address
            host = await stack.enter_async_context(
                client_from(node.url, f"127.0.{1 + i // 200}.{1 + i % 200}", f"Host{i}")
            )
            await host.send("create-room", game="gomoku")
            rooms.append((host.player, (await host.expect("joined"))["room"]))
        seen = await asyncio.to_thread(beat_commands, redis_clean, BEATS)
        per_beat = len([c for c in seen if c not in ("XREAD", "XREVRANGE")]) / BEATS
        # one command per room, player or address would be >= 40 (it was 300)
        assert per_beat < ROOMS / 2, sorted(Counter(seen).items())
        for player, room in rooms:
            assert client.get(f"gridhall:room:{room}:owner") == b"node0"
            assert 0 < client.pttl(f"gridhall:room:{room}:owner") <= LEASE_MS
            assert client.get(f"gridhall:player:{player}") == room.encode()
        for i in range(ROOMS):
            address = f"127.0.{1 + i // 200}.{1 + i % 200}"
            for kind in ("addr", "held"):
                assert client.hget(f"gridhall:{kind}:{address}", "node0") == b"1"
                assert client.pttl(f"gridhall:{kind}:{address}") > 0
    client.close()
