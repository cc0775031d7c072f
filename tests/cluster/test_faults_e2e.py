"""Faults short of a death: a paused owner that comes back after its rooms were taken
over (its writes are refused), and Redis lost and restarted empty in the middle of a
game (the owner keeps serving; cross-node work is refused meanwhile)."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from tests.cluster.conftest import RedisServer
from tests.cluster.nodes import cluster, next_owner, rejoin
from tests.waiting import until
from tests.wsclient import WsClient

pytest.importorskip("redis", reason='pip install "gridhall[cluster]"')
pytestmark = pytest.mark.timeout(120)


async def gomoku_pair(stack: AsyncExitStack, url: str) -> tuple[WsClient, WsClient, str]:
    a = await stack.enter_async_context(WsClient.connect(url, "Ann"))
    b = await stack.enter_async_context(WsClient.connect(url, "Bob"))
    await a.send("create-room", game="gomoku")
    room = (await a.expect("joined"))["room"]
    await b.send("join-room", room=room)
    await b.expect("state", status="playing")
    return a, b, room


async def play(a: WsClient, b: WsClient, x: int) -> None:
    """One move each: Ann on row 0, Bob on row 1, at column ``x``."""
    await a.send("move", move={"x": x, "y": 0})
    await b.expect("moved", by=a.player)
    await b.send("move", move={"x": x, "y": 1})
    await a.expect("moved", by=b.player)


async def goes_on_after_two_moves(a2: WsClient, b2: WsClient) -> None:
    """Ann and Bob, resumed: the room kept the two committed moves (and nothing after
    them), Ann is to move, and her move reaches Bob."""
    await a2.send("sync")
    state = await a2.expect("state")
    assert state["view"]["moves"] == [[0, 0], [0, 1]] and state["turn"] == a2.player
    await a2.send("move", move={"x": 1, "y": 0})
    moved = await b2.expect("moved", by=a2.player)
    assert moved["view"]["moves"][-1] == [1, 0]


async def test_a_paused_owner_is_refused_when_it_wakes(
    tmp_path: Path, redis_clean: str, fresh_db: str
) -> None:
    """SIGSTOP past the lease: another node takes the room; when the old owner runs
    again, the move it is sent is never accepted or shown, and its players are sent to
    find the room where it is now."""
    async with AsyncExitStack() as stack:
        nodes = await stack.enter_async_context(cluster(tmp_path, redis_clean, fresh_db))
        stale = nodes[0]
        a, b, room = await gomoku_pair(stack, stale.url)
        await play(a, b, 0)
        stale.pause()
        heir = await next_owner(nodes[1:], room)
        b2 = await rejoin(stack, heir.url, b, "Bob")
        await a.send("move", move={"x": 5, "y": 5})  # to the paused node
        stale.resume()
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                msg = await a.recv()
                assert msg["type"] != "moved", "the stale owner accepted a move"
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        assert "moved to another server node" in closed.value.rcvd.reason
        await stale.logged("another node owns it now")
        a2 = await rejoin(stack, heir.url, a, "Ann")
        await goes_on_after_two_moves(a2, b2)


async def test_redis_lost_and_restarted_mid_game(
    tmp_path: Path, redis_clean: str, fresh_db: str, redis_server: RedisServer
) -> None:
    async with AsyncExitStack() as stack:
        nodes = await stack.enter_async_context(cluster(tmp_path, redis_clean, fresh_db))
        owner = nodes[0]
        a, b, _ = await gomoku_pair(stack, owner.url)
        await play(a, b, 0)
        redis_server.stop()
        for node in nodes:  # (each has noticed: a beat of each fell in the outage)
            await node.logged("Redis is unreachable")
        await play(a, b, 1)  # the owner goes on serving its room
        c = await stack.enter_async_context(WsClient.connect(owner.url, "Cat"))
        await c.send("create-room", game="gomoku")
        refused = await c.expect("error")
        assert refused["code"] == "cluster-unavailable" and "nothing changed" in refused["message"]
        await asyncio.to_thread(redis_server.start)  # back, and empty
        await owner.logged("back in the cluster")
        for node in nodes[1:]:
            await node.logged("back in the cluster")
        await play(a, b, 2)
        await c.send("create-room", game="gomoku")
        await c.expect("joined")
        for x in (3, 4):
            await a.send("move", move={"x": x, "y": 0})
            if x == 3:
                await b.expect("moved", by=a.player)
                await b.send("move", move={"x": x, "y": 1})
                await a.expect("moved", by=b.player)
        over = await b.expect("game-over")
        assert over["result"]["winner"] == a.player
        assert not any("taken over" in line for node in nodes for line in node.log)


async def test_a_failed_commit_shows_nothing_and_its_room_comes_back(
    tmp_path: Path, redis_clean: str, fresh_db: str
) -> None:
    """PostgreSQL drops the owner's commits connection mid-game: the next move is not
    stored, so neither player ever hears of it (both are closed, 1012, before anything
    of that turn goes out); the room is taken back from what PostgreSQL has and the
    game goes on from the last committed move."""
    import psycopg

    from gridhall.server.cluster.pg_commits import APPLICATION

    async with AsyncExitStack() as stack:
        nodes = await stack.enter_async_context(cluster(tmp_path, redis_clean, fresh_db, 2))
        owner = nodes[0]
        a, b, room = await gomoku_pair(stack, owner.url)
        await play(a, b, 0)
        with psycopg.connect(fresh_db, autocommit=True) as db:
            cut = db.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = %s",
                (APPLICATION,),
            ).fetchall()
        assert cut == [(True,)]
        await a.send("move", move={"x": 5, "y": 5})
        for client in (a, b):
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    msg = await client.recv()
                    shown = msg["type"] == "moved" and [5, 5] in msg["view"]["moves"]
                    assert not shown, "a move that was not stored was shown"
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        await owner.logged("PostgreSQL failed a commit")
        heir = await next_owner(nodes, room)
        a2 = await rejoin(stack, heir.url, a, "Ann")
        b2 = await rejoin(stack, heir.url, b, "Bob")
        await goes_on_after_two_moves(a2, b2)


async def test_a_room_the_heir_cannot_replay_is_set_aside_in_postgres(
    tmp_path: Path, redis_clean: str, fresh_db: str
) -> None:
    """The node taking a dead node's room over cannot replay it: the room is set aside
    in PostgreSQL (committed under the heir's epoch before it lets the room go), so no
    node tries it again."""
    import psycopg

    async with AsyncExitStack() as stack:
        nodes = await stack.enter_async_context(cluster(tmp_path, redis_clean, fresh_db, 2))
        a, b, room = await gomoku_pair(stack, nodes[0].url)
        await play(a, b, 0)
        with psycopg.connect(fresh_db, autocommit=True) as db:
            db.execute(
                "UPDATE live_rooms SET row = replace(row, 'gomoku', 'go') WHERE room = %s",
                (room,),
            )
        await nodes[0].kill()
        await nodes[1].logged(f"room {room} could not be restored")
        with psycopg.connect(fresh_db, autocommit=True) as db:

            def set_aside() -> str | None:
                row = db.execute(
                    "SELECT quarantine FROM live_rooms WHERE room = %s", (room,)
                ).fetchone()
                return None if row is None else row[0]

            await until(set_aside, "the set-aside committed")  # (off the heir's loop)
            assert "'go'" in str(set_aside())
