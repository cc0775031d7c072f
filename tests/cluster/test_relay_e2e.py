"""Players on different nodes in one room: the node a player reached relays its
session to the room's owner; after the owner is killed, each resumes by token on
whichever node it reaches."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tests.cluster.nodes import SECRET, cluster, finish_resumed_gomoku, next_owner, rejoin
from tests.wsclient import WsClient

pytest.importorskip("redis", reason='pip install "gridhall[cluster]"')

from redis import asyncio as aioredis  # noqa: E402

from gridhall.server.cluster.node import node_key  # noqa: E402
from gridhall.server.cluster.relay import in_key, out_key  # noqa: E402
from gridhall.server.cluster.signing import Signer  # noqa: E402
from gridhall.server.cluster.streams import SIGNATURE  # noqa: E402

pytestmark = pytest.mark.timeout(120)


async def cross_node_gomoku(
    stack: AsyncExitStack, host: str, guest: str
) -> tuple[WsClient, WsClient, str]:
    a = await stack.enter_async_context(WsClient.connect(host, "Ann"))
    b = await stack.enter_async_context(WsClient.connect(guest, "Bob"))
    await a.send("create-room", game="gomoku")
    room = (await a.expect("joined"))["room"]
    await b.send("join-room", room=room)  # its code, from Ann; no listing needed
    await b.expect("state", status="playing")
    await a.expect("state", status="playing")
    return a, b, room


async def test_players_on_two_nodes_play_one_room_to_the_end(
    tmp_path: Path, redis_clean: str, fresh_db: str
) -> None:
    async with AsyncExitStack() as stack:
        nodes = await stack.enter_async_context(cluster(tmp_path, redis_clean, fresh_db))
        a, b, room = await cross_node_gomoku(stack, nodes[0].url, nodes[1].url)
        for i in range(4):
            await a.send("move", move={"x": i, "y": 0})
            moved = await b.expect("moved", by=a.player)
            assert moved["room"] == room
            await b.send("move", move={"x": i, "y": 1})
            await a.expect("moved", by=b.player)
        await b.send("move", move={"x": 9, "y": 9})  # not Bob's turn: the owner refuses
        assert (await b.expect("error"))["code"] == "not-your-turn"
        await a.send("move", move={"x": 4, "y": 0})
        over = await b.expect("game-over")
        assert over["result"]["winner"] == a.player and over["result"]["reason"] == "five"
        await a.expect("game-over")


async def beats(redis: Any, node: str, count: int) -> None:
    """Wait until ``node`` has begun ``count`` beats (its registry key's time to live is
    set again at each; the beat before the last has then run whole)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + 60
    last, seen = await redis.pttl(node_key(node)), 0
    while seen < count:
        assert loop.time() < end, f"{node} stopped beating"
        await asyncio.sleep(0.01)
        now = await redis.pttl(node_key(node))
        seen += now > last
        last = now


async def test_a_player_resumed_on_a_third_node_is_relayed_once(
    tmp_path: Path, redis_clean: str, fresh_db: str
) -> None:
    """Ann leaves the node that owns her room and resumes by token on a third: it relays
    her to the owner, once. Its beats, which look up every relayed room's owner, leave
    her be (the owner's id, read from Redis as bytes, once looked like a new owner at the
    next beat: her session there was opened again, and the events sent meanwhile lost)."""
    async with AsyncExitStack() as stack:
        nodes = await stack.enter_async_context(cluster(tmp_path, redis_clean, fresh_db))
        a, b, room = await cross_node_gomoku(stack, nodes[0].url, nodes[1].url)
        await a.ws.close()
        a2 = await rejoin(stack, nodes[2].url, a, "Ann")
        r = aioredis.from_url(redis_clean)
        stack.push_async_callback(r.aclose)
        await a2.send("sync")
        await a2.expect("state", room=room)  # relayed to the owner by now
        await beats(r, nodes[2].name, 3)
        for i in range(2):
            await a2.send("move", move={"x": i, "y": 0})
            await b.expect("moved", by=a2.player)
            await b.send("move", move={"x": i, "y": 1})
            await a2.expect("moved", by=b.player)
        opens = [
            fields
            for _, fields in await r.xrange(in_key(nodes[0].name))  # (the owner's)
            if fields.get(b"k") == b"open"
            and fields.get(b"p") == a2.player.encode()
            and fields.get(b"r") == room.encode()
        ]
        assert len(opens) == 1, opens


async def test_a_relayed_player_hears_only_the_room_s_owner(
    tmp_path: Path, redis_clean: str, fresh_db: str
) -> None:
    """Bob, relayed by node1 to the room's owner node0, hears only node0. A message for
    his connection from another node (one that owned the room before a takeover and has
    not yet learnt it lost it: a partition healing) is ignored; it was delivered, or, its
    ``s`` out of step, taken for lost frames and Bob closed (1012)."""
    async with AsyncExitStack() as stack:
        nodes = await stack.enter_async_context(cluster(tmp_path, redis_clean, fresh_db))
        a, b, room = await cross_node_gomoku(stack, nodes[0].url, nodes[1].url)
        r = aioredis.from_url(redis_clean)
        stack.push_async_callback(r.aclose)
        conn = next(
            f[b"i"]
            for _, f in await r.xrange(in_key(nodes[0].name))  # (the owner's input)
            if f.get(b"k") == b"open"
            and f.get(b"p") == b.player.encode()
            and f.get(b"r") == room.encode()
        )
        edge = out_key(nodes[1].name)  # (what node1's relayed clients hear)
        heard = [f for _, f in await r.xrange(edge) if f.get(b"i") == conn]
        forged: dict[str, Any] = {
            "k": "frame",
            "d": b.frames[-1],  # a frame Bob got: only its sender is wrong
            "p": b.player,
            "n": nodes[1].name,
            "i": conn,
            "s": len(heard),  # the next in step
            "o": nodes[2].name,
        }
        forged[SIGNATURE] = Signer(SECRET).sign_fields(edge, forged)
        await r.xadd(edge, forged)
        before = len(b.frames)
        await a.send("move", move={"x": 0, "y": 0})
        await b.expect("moved", by=a.player)
        assert [m["type"] for m in b.received[before:]] == ["moved"]
        await b.send("move", move={"x": 0, "y": 1})
        await a.expect("moved", by=b.player)


async def test_a_relayed_player_follows_a_room_its_old_owner_let_go(
    tmp_path: Path, redis_clean: str, fresh_db: str
) -> None:
    """node0 owns the room and relays Bob from node1, which beats seldom (a long lease:
    a beat every 20 s, as a node on a loaded machine may be late to one). node0 stops
    (SIGSTOP) and node2 takes the room over; node0, back, learns it lost the room and
    tells Bob's node before that node's next beat has seen the lease move. Bob's node
    follows the room to node2 for him: he hears its state and is not closed (node0's
    word was a close, 1012, that Bob's node passed on: Bob had to reconnect)."""
    async with AsyncExitStack() as stack:
        slow = {1: ("--lease-ms", "60000")}
        nodes = await stack.enter_async_context(cluster(tmp_path, redis_clean, fresh_db, each=slow))
        a, b, room = await cross_node_gomoku(stack, nodes[0].url, nodes[1].url)
        await a.send("move", move={"x": 0, "y": 0})
        await b.expect("moved", by=a.player)
        r = aioredis.from_url(redis_clean)
        stack.push_async_callback(r.aclose)
        conn = next(
            f[b"i"]
            for _, f in await r.xrange(in_key(nodes[0].name))
            if f.get(b"k") == b"open" and f.get(b"p") == b.player.encode()
        )
        await beats(r, nodes[1].name, 1)  # node1's next beat is 20 s away
        nodes[0].pause()
        await nodes[2].logged(f"room {room} taken over")
        nodes[0].resume()
        await nodes[0].logged(f"room {room}: its lease is held by another node")
        state = await b.expect("state", room=room)  # from node2, on the same connection
        assert state["view"]["moves"] == [[0, 0]] and state["turn"] == b.player
        told = [  # node0's word for Bob came first (node1 has not beaten since)
            f
            for _, f in await r.xrange(out_key(nodes[1].name))
            if f.get(b"i") == conn and f.get(b"k") == b"close"
        ]
        assert len(told) == 1
        await b.send("move", move={"x": 0, "y": 1})
        await b.expect("moved", by=b.player)
        a2 = await rejoin(stack, nodes[2].url, a, "Ann")
        await a2.send("sync")
        assert (await a2.expect("state", room=room))["view"]["moves"] == [[0, 0], [0, 1]]


async def test_the_owner_killed_with_players_on_two_nodes(
    tmp_path: Path, redis_clean: str, fresh_db: str
) -> None:
    async with AsyncExitStack() as stack:
        nodes = await stack.enter_async_context(cluster(tmp_path, redis_clean, fresh_db))
        a, b, room = await cross_node_gomoku(stack, nodes[0].url, nodes[1].url)
        for i in range(3):
            await a.send("move", move={"x": i, "y": 0})
            await b.expect("moved", by=a.player)
            await b.send("move", move={"x": i, "y": 1})
            await a.expect("moved", by=b.player)
        await nodes[0].kill()
        heir = await next_owner(nodes[1:], room)
        await b.expect("state", room=room)  # Bob's node follows the room for him
        other = nodes[2] if heir is nodes[1] else nodes[1]
        a2 = await rejoin(stack, other.url, a, "Ann")  # wherever it is, by token
        b2 = b
        await finish_resumed_gomoku(a2, b2, room)


async def test_connections_per_address_are_counted_over_the_cluster(
    tmp_path: Path, redis_clean: str, fresh_db: str
) -> None:
    async with AsyncExitStack() as stack:
        nodes = await stack.enter_async_context(
            cluster(tmp_path, redis_clean, fresh_db, extra=("--max-connections-per-address", "2"))
        )
        await stack.enter_async_context(WsClient.connect(nodes[0].url, "Ann"))
        await stack.enter_async_context(WsClient.connect(nodes[1].url, "Bob"))
        third = await stack.enter_async_context(WsClient.connect(nodes[2].url))
        busy = await third.expect("error")
        assert busy["code"] == "server-busy"
        with pytest.raises(ConnectionClosed) as closed:
            await third.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013


async def test_a_node_reads_one_stream_in_and_one_out_whatever_the_rooms(
    tmp_path: Path, redis_clean: str, fresh_db: str
) -> None:
    """Three rooms owned by node0, each with a player relayed from node1: what node1
    forwards goes on node0's own input stream (each message naming its room), every
    frame back on node1's own output stream, nothing on a stream per room (a node read
    one per room it owned or relayed for: hundreds named in every read)."""
    import redis

    r = redis.Redis.from_url(redis_clean)
    async with AsyncExitStack() as stack:
        nodes = await stack.enter_async_context(cluster(tmp_path, redis_clean, fresh_db, 2))
        pairs = []
        for _ in range(3):
            pairs.append(await cross_node_gomoku(stack, nodes[0].url, nodes[1].url))
        for a, b, _room in pairs:
            await a.send("move", move={"x": 7, "y": 7})
            await b.expect("moved", by=a.player)
            await b.send("move", move={"x": 8, "y": 8})
            await a.expect("moved", by=b.player)
        assert not list(r.scan_iter("gridhall:room:*:out"))
        assert not list(r.scan_iter("gridhall:room:*:in"))
        inbound = r.xrange("gridhall:relay:node0:in")
        assert {f[b"r"].decode() for _, f in inbound} == {room for *_, room in pairs}
        outbound = r.xrange("gridhall:relay:node1:out")
        conns = {f[b"i"] for _, f in outbound}
        assert len(conns) == 3  # each relayed connection's frames, on one stream
        assert not r.exists("gridhall:relay:node0:out", "gridhall:relay:node1:in")
    r.close()
